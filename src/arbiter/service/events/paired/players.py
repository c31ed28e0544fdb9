"""A paired event's players (``spec/pairings.md`` §4): their list, their addition,
correction and removal, the byes they ask for and their withdrawals, each change in one
write transaction (:func:`~arbiter.service.events.change.changing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    ByeCancelled,
    ByeRequested,
    Effect,
    PlayerAdded,
    PlayerChanged,
    PlayerRemoved,
    PlayerWithdrawn,
    Replay,
    State,
    WithdrawalCancelled,
)
from arbiter.service.events.change import Change, changing
from arbiter.service.events.common import (
    DIRECTOR,
    EventError,
)
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.state import (
    Paired,
    gained_by_round,
    number_shown,
    paired_event,
    player_row,
    read_paired,
    tournament,
)
from arbiter.service.events.rows import (
    RequestRow,
)
from arbiter.service.events.store import Store

MAX_PLAYERS_AT_ONCE = 500
"""Players one request may add."""

# --- players --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as ``GET .../players`` gives them."""

    number: int
    name: str
    rating: int | None
    federation: str | None
    id: str | None
    entered: int
    withdrawn_from: int | None
    points: float
    byes: tuple[tuple[int, str], ...] = ()
    """The byes the player asked for in rounds not yet paired: (round, kind)."""
    paired: bool = False
    """Whether a round paired holds the player (who is then withdrawn, never removed)."""
    checked_in: bool | None = None
    """In an event that checks its players in: whether the player is checked in for the
    next round to publish (None in an event that does not)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "rating": self.rating,
            "federation": self.federation,
            "id": self.id,
            "entered": self.entered,
            "withdrawn_from": self.withdrawn_from,
            "points": number_shown(self.points),
            "byes": [{"round": number, "kind": kind} for number, kind in self.byes],
            "paired": self.paired,
            "checked_in": self.checked_in,
        }


def _players(paired: Paired) -> list[PlayerView]:
    points: dict[int, float] = {}
    for row in gained_by_round(
        tournament(paired)
    ).values():  # every round, as Tournament.points counts
        for number, worth in row.items():
            points[number] = points.get(number, 0.0) + worth
    last = paired.rounds_paired
    asked: dict[int, list[tuple[int, str]]] = {}
    for (round_number, player), kind in sorted(paired.requests.items()):
        if round_number > last:
            asked.setdefault(player, []).append((round_number, kind))
    held = {n for f in paired.pairings.values() for board in f.boards for n in board}
    held |= {n for f in paired.pairings.values() for n, _, _ in f.byes}
    coming = paired.rounds_published + 1
    return [
        PlayerView(
            f.number,
            f.name,
            f.rating,
            f.federation,
            f.fide_id,
            f.entered,
            f.withdrawn_from,
            points.get(f.number, 0.0),
            tuple(asked.get(player, ())),
            f.number in held,
            (coming, player) in paired.checkins if paired.event.check_in else None,
        )  # fmt: skip
        for player, f in sorted(paired.players.items(), key=lambda item: item[1].number)
    ]


def list_players(store: Store, event_id: str) -> list[PlayerView]:
    """The event's players by pairing number, with their points so far."""
    with storage.reading(store) as tx:
        event = paired_rules.paired(paired_event(tx, event_id))
        return _players(read_paired(tx, event))


def add_players(
    store: Store, event_id: str, secret: str | None, fields: Mapping[str, object]
) -> list[PlayerView]:
    """Add one player (``{"name", "rating"?, "federation"?, "id"?, "confirm"?}``) or several
    (``{"players": [...]}``), each its own entry; the answer lists every player with their
    pairing number (FIDE's order until round 1 is paired)."""
    given = fields.get("players", [fields]) if "players" in fields else [fields]
    if not isinstance(given, list) or not given or len(given) > MAX_PLAYERS_AT_ONCE:
        raise EventError(
            "bad-field", f"'players' must list 1 to {MAX_PLAYERS_AT_ONCE} players", field="players"
        )
    if "players" in fields and len(fields) > 1:
        raise EventError("bad-field", "give 'players' alone, or one player's fields")
    new = [paired_rules.new_player(one) for one in given]
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        before = paired.state
        run = Replay(before)  # the players numbered once, after the run
        names = paired_rules.Names(facts.name for facts in before.players.values())
        entries = []
        for player in new:
            paired_rules.room_for_player(len(run.players), change.event, before.rounds_paired)
            name = names.admit(player)
            action = PlayerAdded(max(run.players, default=0) + 1, name, player.rating,
                                 player.federation, player.fide_id)  # fmt: skip
            run.apply(action, change.at)
            entries.append(change.appended(change.entry(action)))
        _keep_players(change, before, run.state)
        storage.append_entries(change.tx, entries)
        return _players(read_paired(change.tx, change.event))


def _keep_players(change: Change, before: State, after: State | Effect) -> None:
    """Keep the players as ``after`` (a state, or an effect on ``before``) says they are:
    those added or changed written, in one statement each way, and those removed gone."""
    now = before.after(after) if isinstance(after, Effect) else after
    event_id = change.event.id
    added = [
        player_row(event_id, one, facts)
        for one, facts in now.players.items()
        if one not in before.players
    ]
    changed = [
        player_row(event_id, one, facts)
        for one, facts in now.players.items()
        if one in before.players and before.players[one] != facts
    ]
    storage.put_players(change.tx, changed, added)
    for one in before.players:
        if one not in now.players:
            storage.delete_player(change.tx, event_id, one)


def view_of(change: Change, number: int) -> PlayerView:
    """Player ``number`` as the event now holds them."""
    return player_of(read_paired(change.tx, change.event), number)


def _view_of_id(change: Change, player: int) -> PlayerView:
    """The player of id ``player`` as the event now holds them (their number may have
    changed)."""
    paired = read_paired(change.tx, change.event)
    return player_of(paired, paired.players[player].number)


def change_player(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Correct player ``number``'s name, rating, federation or id (``{"name"?, "rating"?,
    "federation"?, "id"?, "confirm"?, "reason"}``): the new name flows to the pages, the
    standings and the TRF, and records already on boards stay there. Before round 1 is
    paired the pairing numbers follow FIDE's order again. A correction that changes nothing
    is answered as the last one of the player was."""
    asked = paired_rules.player_changes(fields)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        changed, was = paired_rules.changed_player(asked, facts, [
            other.name for one, other in paired.players.items() if one != player
        ])  # fmt: skip
        if not changed:
            change.repeat(change.made_by(("player-changed", "player-added"), player=player))
            return player_of(paired, number)
        action = PlayerChanged(player, changed, was)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, asked.reason)
        return _view_of_id(change, player)


def player_of(paired: Paired, number: int) -> PlayerView:
    return next(p for p in _players(paired) if p.number == number)


def remove_player(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> list[PlayerView]:
    """Take out player ``number``, entered by mistake and never paired (``{"reason",
    "name"?}``; ``name``, when given, must be the player's: a request sent twice never takes
    out the player who took the number since). Answers the players left."""
    why = rules.reason(fields.get("reason"))
    named = fields.get("name")
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event), prohibitions=True)
        player = paired.id_of(number)
        facts = paired.players[player]
        paired_rules.same_player(named, facts.name, number)
        paired_rules.removable(facts, paired.state)
        paired_rules.not_prohibited(player, number, paired.prohibitions)
        action = PlayerRemoved(player, facts.name)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return _players(read_paired(change.tx, change.event))


def cancelled_already(change: Change, cancellation: str, cancelled: str, **about: int) -> bool:
    """Whether the cancellation asked for was made already: of the entries of
    ``cancellation`` and of ``cancelled`` (what it takes back) about ``about``
    (``player=3``), the last is a cancellation. It is then answered as that one was
    (:meth:`Change.repeat`)."""
    last = change.made_by((cancellation, cancelled), **about)
    if last is None or last.action != cancellation:
        return False
    change.repeat(last)
    return True


def cancel_bye(
    store: Store, event_id: str, secret: str | None, number: int, round_number: int,
    fields: Mapping[str, object],
) -> PlayerView:  # fmt: skip
    """Take back the bye player ``number`` asked for in ``round_number``, before that round
    is paired (``{"reason"}``)."""
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        player = paired.id_of(number)
        kind = paired.requests.get((round_number, player))
        if kind is None and cancelled_already(change, "bye-cancelled", "bye-requested",
                                              player=player, round=round_number):  # fmt: skip
            return player_of(paired, number)
        paired_rules.cancellable_bye(kind, round_number, paired.rounds_paired, number)
        assert kind is not None  # checked
        action = ByeCancelled(player, round_number, kind)
        change.effect(action, paired.state)
        storage.delete_request(change.tx, event_id, round_number, player)
        change.log(action, why)
        return view_of(change, number)


def cancel_withdrawal(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Take back player ``number``'s withdrawal (``{"reason"}``): they are paired again from
    the next round not yet paired; the rounds paired meanwhile stay absences."""
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        if facts.withdrawn_from is None:
            if cancelled_already(change, "withdrawal-cancelled", "player-withdrawn", player=player):
                return player_of(paired, number)
            raise EventError("not-withdrawn", f"player {number} is not withdrawn")
        paired_rules.open_rounds(change.event, paired.rounds_paired)
        action = WithdrawalCancelled(player, facts.withdrawn_from)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return view_of(change, number)


def withdraw_player(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Withdraw player ``number`` from a round not yet paired on (``{"round"?, "reason"?}``;
    the next round by default)."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        if facts.withdrawn_from is not None and fields.get("round") in (
            None, facts.withdrawn_from,
        ):  # fmt: skip
            last = change.made_by(("player-withdrawn",), player=player)
            if last is not None and last.details.get("round") == facts.withdrawn_from:
                change.repeat(last)  # the same withdrawal sent again
                return player_of(paired, number)
        from_round = paired_rules.withdrawal(fields.get("round"), paired.rounds_paired,
                                      facts.withdrawn_from, change.event.rounds)  # fmt: skip
        action = PlayerWithdrawn(player, from_round)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return view_of(change, number)


def request_bye(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Player ``number`` asks for a bye (``{"round"?, "kind": "half"|"zero", "reason"?}``)
    in a round not yet paired (the next by default)."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        round_number, kind = paired_rules.bye_request(fields.get("round"), fields.get("kind"),
                                               change.event, paired.rounds_paired,
                                               facts.withdrawn_from)  # fmt: skip
        if paired.requests.get((round_number, player)) == kind:
            last = change.made_by(("bye-requested",), player=player, round=round_number)
            if last is not None and last.details.get("kind") == kind:
                change.repeat(last)  # the same bye asked for again
                return player_of(paired, number)
        action = ByeRequested(player, round_number, kind)
        change.effect(action, paired.state)
        storage.put_request(change.tx, RequestRow(event_id, round_number, player, kind))
        change.log(action, why)
        return next(p for p in _players(read_paired(change.tx, change.event)) if p.number == number)
