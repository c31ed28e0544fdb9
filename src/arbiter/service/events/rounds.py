"""A paired event (``spec/pairings.md``): its players, the pairing of each round by the
event's system (through :mod:`arbiter.pairing`, the library ``arbiter pair`` uses), the byes
players ask for, withdrawals, the results the director gives boards, where each record
counts, and the standings and TRF made of it all.

As in :mod:`.operations`, each change reads what its rule needs, asks the rule
(:mod:`.rules`), keeps what its action's effect says (:mod:`.actions`) and appends its entry,
in one transaction; the reads answer the values below, which the API turns into JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from arbiter.adjudicator.replay import Report
from arbiter.adjudicator.standings import (
    BoardResult,
    ByeRound,
    EventStandings,
    Exclusion,
    paired_standings,
)
from arbiter.notation.games import find_game
from arbiter.pairing import (
    Bye,
    Game,
    Limits,
    Pairing,
    PairingError,
    Player,
    Tournament,
    pair,
    pairing_warnings,
    write_trf,
)
from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    AS_PAIRED,
    REVERSED,
    Board,
    BoardResultCleared,
    BoardResultSet,
    ByeCancelled,
    ByeGiven,
    ByeRequested,
    CheckedIn,
    CheckInCancelled,
    Confirmed,
    Effect,
    PairingFacts,
    PlayerAdded,
    PlayerChanged,
    PlayerFacts,
    PlayerRemoved,
    PlayerWithdrawn,
    RecordFacts,
    RecordPlaced,
    Replay,
    ResultReported,
    RoundPaired,
    RoundPublished,
    RoundReplaced,
    RoundUnpaired,
    State,
    WithdrawalCancelled,
)
from arbiter.service.events.boards import pairing_facts, seats_by_names, seats_of, takes
from arbiter.service.events.change import Change, admit, answered_before, changing
from arbiter.service.events.common import (
    ACCEPTED,
    DIRECTOR,
    EXCLUDED,
    PENDING,
    UPLOAD,
    EventError,
)
from arbiter.service.events.counted import official_report
from arbiter.service.events.rows import (
    CheckinRow,
    EventRow,
    PairingRow,
    PlayerRow,
    RecordRow,
    ReportRow,
    RequestRow,
    ResultRow,
)
from arbiter.service.events.storage import Tx
from arbiter.service.events.store import Store

__all__ = [
    "BoardView",
    "cancel_bye",
    "cancel_withdrawal",
    "change_player",
    "remove_player",
    "ByeView",
    "PlayerView",
    "RoundView",
    "Seats",
    "add_players",
    "cancel_check_in",
    "check_in",
    "clear_board_result",
    "list_players",
    "pair_round",
    "paired_table",
    "place_record",
    "publish_round",
    "replace_round",
    "report_result",
    "request_bye",
    "round_view",
    "rounds_view",
    "seats",
    "set_board_result",
    "tournament_trf",
    "unpair_round",
    "withdraw_player",
]

MAX_PLAYERS_AT_ONCE = 500
"""Players one request may add."""

R = TypeVar("R")
T = TypeVar("T")


# --- what the tables hold, as the trail's facts ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Paired:
    """What a paired event holds of its pairings, read in one transaction: its players (by
    id), its paired rounds, the byes asked for, the director's board results, and the
    records that stand on a board."""

    event: EventRow
    players: Mapping[int, PlayerFacts]
    pairings: Mapping[int, PairingFacts]
    requests: Mapping[tuple[int, int], str]
    results: Mapping[tuple[int, int], str]
    placed: tuple[RecordRow, ...]
    checkins: Mapping[tuple[int, int], str] = field(default_factory=dict)
    reports: Mapping[tuple[int, int, int], str] = field(default_factory=dict)
    seat_reports: Mapping[tuple[int, int], tuple[str | None, str | None]] = field(
        init=False, default_factory=dict
    )
    """The reports by round and board, the first seat's first: made once from ``reports``,
    so that reading a board's costs no pass over the players."""

    def __post_init__(self) -> None:
        seated: dict[tuple[int, int], tuple[str | None, str | None]] = {}
        for (round_number, board, player), result in self.reports.items():
            facts, paired = self.players.get(player), self.pairings.get(round_number)
            if facts is None or paired is None or not 1 <= board <= len(paired.boards):
                continue
            first, second = seated.get((round_number, board), (None, None))
            if paired.boards[board - 1][0] == facts.number:
                first = result
            elif paired.boards[board - 1][1] == facts.number:
                second = result
            seated[(round_number, board)] = (first, second)
        object.__setattr__(self, "seat_reports", seated)  # derived, once

    @property
    def state(self) -> State:
        return State(
            players=self.players,
            pairings=self.pairings,
            requests=self.requests,
            results=self.results,
            checkins=self.checkins,
            reports=self.reports,
        )

    @property
    def rounds_paired(self) -> int:
        """The last round paired, a draft included (0 before round 1)."""
        return max(self.pairings, default=0)

    @property
    def rounds_published(self) -> int:
        """The last round everyone sees (a draft is the director's only)."""
        return max((r for r, f in self.pairings.items() if not f.draft), default=0)

    def draft(self) -> int | None:
        """The round paired as a draft, if any (only the last round paired may be one)."""
        last = self.rounds_paired
        return last if last and self.pairings[last].draft else None

    def public(self) -> Paired:
        """What everyone may read: the event without the round paired as a draft."""
        draft = self.draft()
        if draft is None:
            return self
        return replace(self, pairings={r: f for r, f in self.pairings.items() if r != draft})

    def reports_on(self, round_number: int, board: int) -> tuple[str | None, str | None]:
        """What the board's first and second players reported of its result."""
        return self.seat_reports.get((round_number, board), (None, None))

    def by_number(self) -> dict[int, tuple[int, PlayerFacts]]:
        """Each player's id and facts, by pairing number."""
        return {facts.number: (player, facts) for player, facts in self.players.items()}

    def id_of(self, number: int) -> int:
        found = self.by_number().get(number)
        if found is None:
            raise EventError("no-such-player", f"the event has no player {number}")
        return found[0]

    def on_board(self, round_number: int, board: int) -> RecordRow | None:
        """The record that stands on a board, if any (not excluded): the one that counts,
        else the first that waits for confirmation (a record that waits never takes a board
        from one that counts)."""
        standing = [
            row
            for row in self.placed
            if (row.board_round, row.board) == (round_number, board)
            and row.placement is None
            and row.status != EXCLUDED
        ]
        return next((row for row in standing if row.status == ACCEPTED), None) or next(
            iter(standing), None
        )


def read_paired(tx: Tx, event: EventRow) -> Paired:
    rows = storage.pairing_rows(tx, event.id)
    return Paired(
        event=event,
        players={row.id: PlayerFacts.of(row) for row in storage.player_rows(tx, event.id)},
        pairings={row.round: pairing_facts(row) for row in rows},
        requests={(r.round, r.player): r.kind for r in storage.request_rows(tx, event.id)},
        results={(r.round, r.board): r.result for r in storage.result_rows(tx, event.id)},
        placed=tuple(storage.placed_records(tx, event.id)),
        checkins={(r.round, r.player): r.at for r in storage.checkin_rows(tx, event.id)}
        if event.check_in
        else {},
        reports={(r.round, r.board, r.player): r.result for r in storage.report_rows(tx, event.id)},
    )


def _player_row(event_id: str, player: int, facts: PlayerFacts) -> PlayerRow:
    return PlayerRow(
        event_id, player, facts.number, facts.name, facts.rating, facts.federation,
        facts.fide_id, facts.entered, facts.withdrawn_from, facts.created_at,
    )  # fmt: skip


def _pairing_row(event_id: str, round_number: int, facts: PairingFacts) -> PairingRow:
    return PairingRow(event_id, round_number, facts.boards_text(), facts.byes_text(),
                      facts.manual, facts.paired_at, facts.draft)  # fmt: skip


# --- board results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a board ended, as the pairing and the standings read it: the result (the first
    seat's side first: ``1-0``, ``0-1``, ``+-``, ``-+``, ``--``), the winner's number (None
    for a double forfeit), how the game ended, the margin, and the record it comes from."""

    result: str
    winner: int | None
    termination: str
    margin: float | None
    record: RecordRow | None
    source: str = "record"
    """Whose result it is: ``record`` (the record counted on the board), ``director`` or
    ``players`` (both players reported it)."""


def _without_record(result: str, first: int, second: int, source: str) -> Outcome:
    """A board's result given without a record, by the director or by both players."""
    winner = {"1-0": first, "+-": first, "0-1": second, "-+": second}.get(result)
    how = "forfeit" if result in ("+-", "-+", "--") else "arbiter" if source == "director" else (
        "reported"
    )  # fmt: skip
    return Outcome(result, winner, how, None, None, source)


def outcome(paired: Paired, round_number: int, board: int) -> Outcome | None:
    """The result of a board: the director's, else that of the record counted on it (its
    official result if the director set one), else the one both its players reported; None
    while it waits (no record, a record not confirmed, or one that gives no finished result,
    and no two reports that agree)."""
    first, second = paired.pairings[round_number].boards[board - 1]
    given = paired.results.get((round_number, board))
    if given is not None:
        return _without_record(given, first, second, "director")
    found = _record_outcome(paired, round_number, board, first, second)
    if found is not None:
        return found
    reported = paired.reports_on(round_number, board)
    if reported[0] is not None and reported[0] == reported[1]:
        return _without_record(reported[0], first, second, "players")
    return None


def _record_outcome(
    paired: Paired, round_number: int, board: int, first: int, second: int
) -> Outcome | None:
    """The result the record counted on a board gives it, if any."""
    row = paired.on_board(round_number, board)
    if row is None or row.status != ACCEPTED or row.header is None:
        return None
    report = _report(row)
    if not report.valid or report.result == "*" or report.winner is None:
        return None
    header = json.loads(row.header)
    colours = find_game(header["game"]).colours
    started_as = report.winner
    if report.swapped:  # the result's colours are those at the end of the moves played
        started_as = colours[1] if started_as == colours[0] else colours[0]
    if started_as not in colours[:2]:
        return None
    reversed_seats = seats_of(row, header, _board_names(paired, first, second)) == REVERSED
    winner = (first, second)[(started_as == colours[1]) != reversed_seats]
    forfeit = report.termination == "forfeit"
    symbol = ("+-" if forfeit else "1-0") if winner == first else ("-+" if forfeit else "0-1")
    return Outcome(symbol, winner, report.termination or "rules", _margin(report), row)


def _board_names(paired: Paired, first: int, second: int) -> tuple[str, str]:
    by_number = {facts.number: facts.name for facts in paired.players.values()}
    return by_number.get(first, ""), by_number.get(second, "")


def _report(row: RecordRow) -> Report:
    report = json.loads(row.report)
    if row.official_result and row.header is not None:
        return official_report(report, json.loads(row.header), row.official_result)
    return Report(**report)


def _margin(report: Report) -> float | None:
    if report.scores is None or report.winner is None:
        return None
    loser = next((c for c in report.scores if c != report.winner), None)
    return None if loser is None else report.scores[report.winner] - report.scores[loser]


def waiting(paired: Paired, round_number: int) -> list[int]:
    """The boards of a round that wait for a result."""
    facts = paired.pairings.get(round_number)
    if facts is None:
        return []
    return [
        board
        for board in range(1, len(facts.boards) + 1)
        if outcome(paired, round_number, board) is None
    ]


# --- the tournament, as the pairing library reads it ----------------------------------------


def tournament(
    paired: Paired, *, upto: int | None = None, absent: Sequence[int] = ()
) -> Tournament:
    """The event as :mod:`arbiter.pairing` reads it: players, the games of the rounds paired
    up to ``upto`` (all by default) that have a result, their byes, the byes asked for in
    rounds to come, a zero-point bye for each round before a late entry, the withdrawals,
    the planned rounds and the bye's points. ``absent``: the pairing numbers of the players
    not checked in for the next round, who are not paired in it (a zero-point bye)."""
    last = paired.rounds_paired if upto is None else upto
    players = tuple(
        Player(facts.number, facts.name, facts.rating, facts.federation, facts.fide_id)
        for facts in sorted(paired.players.values(), key=lambda f: f.number)
    )
    games: list[Game] = []
    byes: list[Bye] = []
    for round_number in sorted(r for r in paired.pairings if r <= last):
        facts = paired.pairings[round_number]
        for board, (first, second) in enumerate(facts.boards, 1):
            found = outcome(paired, round_number, board)
            result = found.result if found else None
            games.append(Game(round_number, first, second, result))  # type: ignore[arg-type]
        byes += [Bye(round_number, n, kind, points) for n, kind, points in facts.byes]  # type: ignore[arg-type]
    for (round_number, player), kind in paired.requests.items():
        if round_number > last:
            number = paired.players[player].number
            byes.append(Bye(round_number, number, kind, 0.5 if kind == "half" else 0.0))  # type: ignore[arg-type]
    byes += [Bye(last + 1, number, "zero", 0.0) for number in absent]
    seated = {
        number: {n for board in facts.boards for n in board} | {n for n, _, _ in facts.byes}
        for number, facts in paired.pairings.items()
        if number <= last
    }
    for one in paired.players.values():  # a late entry's rounds before it, a return's absence
        for missed, present in sorted(seated.items()):
            if one.withdrawn_from is not None and missed >= one.withdrawn_from:
                break  # the withdrawal says the rest
            if one.number not in present:
                byes.append(Bye(missed, one.number, "zero", 0.0))
    withdrawn = {
        facts.number: facts.withdrawn_from
        for facts in paired.players.values()
        if facts.withdrawn_from is not None
    }
    return Tournament(
        players=players,
        rounds_planned=paired.event.rounds,
        games=tuple(games),
        byes=tuple(byes),
        withdrawn=withdrawn,
        bye_points=paired.event.bye_points,
        system=None if paired.event.pairing == "none" else paired.event.pairing,  # type: ignore[arg-type]
    )


def _setting(name: str, default: int) -> int:
    """A whole number of the environment, or ``default`` when it gives none (or not one)."""
    given = os.environ.get(name, "")
    return int(given) if given.isascii() and given.isdigit() and int(given) > 0 else default


ENGINE_LIMITS = Limits(
    seconds=float(_setting("ARBITER_PAIRING_SECONDS", 120)),
    memory=_setting("ARBITER_PAIRING_MEMORY_MB", 3072) * 2**20,
)
"""What the Dutch engine may take to pair one round on the server: 120 s and 3 GiB unless
``ARBITER_PAIRING_SECONDS`` and ``ARBITER_PAIRING_MEMORY_MB`` say otherwise (spec/pairings.md
§8). It runs in a process of its own, stopped when it goes past either."""


def _engine_pairing(paired: Paired) -> Pairing:
    """The next round as the event's system pairs it, within :data:`ENGINE_LIMITS`, without
    the players absent from it (not checked in, in an event that checks its players in)."""
    made = tournament(paired, absent=_absent(paired, paired.rounds_paired + 1))
    try:
        return pair(made, paired.event.pairing, limits=ENGINE_LIMITS)  # type: ignore[arg-type]
    except PairingError as err:
        if err.code == "complete":
            raise EventError("all-rounds-paired", f"every round is paired: {err.message}") from None
        if err.code == "engine-limit":
            raise EventError(
                "engine-limit",
                f"the round cannot be paired here: {err.message}",
            ) from None
        raise EventError("cannot-pair", f"the round cannot be paired: {err.message}") from None
    except ValueError as err:
        raise EventError("cannot-pair", f"the round cannot be paired: {err}") from None


def _given(made: Pairing, paired: Paired) -> tuple[tuple[Board, ...], tuple[ByeGiven, ...]]:
    """A pairing as the trail keeps it: its boards, and its byes: the one the pairing
    allocates and those asked for in its round (the players absent, not checked in, have
    nothing in it: the round's page and the TRF say they were not checked in)."""
    boards = tuple((board.first, board.second) for board in made.boards)
    gone = set(_absent(paired, made.round))
    byes = {
        bye.player: (bye.player, str(bye.kind), float(bye.points))
        for bye in made.byes
        if bye.player not in gone
    }
    for (round_number, player), kind in sorted(paired.requests.items()):
        number = paired.players[player].number
        if round_number == made.round and number not in byes:
            byes[number] = (number, kind, 0.5 if kind == "half" else 0.0)
    return boards, tuple(byes[number] for number in sorted(byes))


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
            "points": _number(self.points),
            "byes": [{"round": number, "kind": kind} for number, kind in self.byes],
            "paired": self.paired,
            "checked_in": self.checked_in,
        }


def _players(paired: Paired) -> list[PlayerView]:
    points: dict[int, float] = {}
    for row in _gained(tournament(paired)).values():  # every round, as Tournament.points counts
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
        event = rules.paired(_event(tx, event_id))
        return _players(read_paired(tx, event))


def _event(tx: Tx, event_id: str) -> EventRow:
    return rules.found_event(storage.event_row(tx, event_id), event_id)


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
    new = [rules.new_player(one) for one in given]
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        before = paired.state
        run = Replay(before)  # the players numbered once, after the run
        names = rules.Names(facts.name for facts in before.players.values())
        entries = []
        for player in new:
            rules.room_for_player(len(run.players), change.event, before.rounds_paired)
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
        _player_row(event_id, one, facts)
        for one, facts in now.players.items()
        if one not in before.players
    ]
    changed = [
        _player_row(event_id, one, facts)
        for one, facts in now.players.items()
        if one in before.players and before.players[one] != facts
    ]
    storage.put_players(change.tx, changed, added)
    for one in before.players:
        if one not in now.players:
            storage.delete_player(change.tx, event_id, one)


def _view_of(change: Change, number: int) -> PlayerView:
    """Player ``number`` as the event now holds them."""
    return _players_of(read_paired(change.tx, change.event), number)


def _view_of_id(change: Change, player: int) -> PlayerView:
    """The player of id ``player`` as the event now holds them (their number may have
    changed)."""
    paired = read_paired(change.tx, change.event)
    return _players_of(paired, paired.players[player].number)


def change_player(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Correct player ``number``'s name, rating, federation or id (``{"name"?, "rating"?,
    "federation"?, "id"?, "confirm"?, "reason"}``): the new name flows to the pages, the
    standings and the TRF, and records already on boards stay there. Before round 1 is
    paired the pairing numbers follow FIDE's order again. A correction that changes nothing
    is answered as the last one of the player was."""
    asked = rules.player_changes(fields)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        changed, was = rules.changed_player(asked, facts, [
            other.name for one, other in paired.players.items() if one != player
        ])  # fmt: skip
        if not changed:
            change.repeat(change.made_by(("player-changed", "player-added"), player=player))
            return _players_of(paired, number)
        action = PlayerChanged(player, changed, was)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, asked.reason)
        return _view_of_id(change, player)


def _players_of(paired: Paired, number: int) -> PlayerView:
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
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        rules.same_player(named, facts.name, number)
        rules.removable(facts, paired.state)
        action = PlayerRemoved(player, facts.name)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return _players(read_paired(change.tx, change.event))


def cancel_bye(
    store: Store, event_id: str, secret: str | None, number: int, round_number: int,
    fields: Mapping[str, object],
) -> PlayerView:  # fmt: skip
    """Take back the bye player ``number`` asked for in ``round_number``, before that round
    is paired (``{"reason"}``)."""
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        kind = paired.requests.get((round_number, player))
        if kind is None:
            last = change.made_by(("bye-cancelled", "bye-requested"), player=player,
                                  round=round_number)  # fmt: skip
            if last is not None and last.action == "bye-cancelled":
                change.repeat(last)
                return _players_of(paired, number)
        rules.cancellable_bye(kind, round_number, paired.rounds_paired, number)
        assert kind is not None  # checked
        action = ByeCancelled(player, round_number, kind)
        change.effect(action, paired.state)
        storage.delete_request(change.tx, event_id, round_number, player)
        change.log(action, why)
        return _view_of(change, number)


def cancel_withdrawal(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Take back player ``number``'s withdrawal (``{"reason"}``): they are paired again from
    the next round not yet paired; the rounds paired meanwhile stay absences."""
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        if facts.withdrawn_from is None:
            last = change.made_by(("withdrawal-cancelled", "player-withdrawn"), player=player)
            if last is not None and last.action == "withdrawal-cancelled":
                change.repeat(last)
                return _players_of(paired, number)
            raise EventError("not-withdrawn", f"player {number} is not withdrawn")
        rules.open_rounds(change.event, paired.rounds_paired)
        action = WithdrawalCancelled(player, facts.withdrawn_from)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return _view_of(change, number)


def withdraw_player(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Withdraw player ``number`` from a round not yet paired on (``{"round"?, "reason"?}``;
    the next round by default)."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        if facts.withdrawn_from is not None and fields.get("round") in (
            None, facts.withdrawn_from,
        ):  # fmt: skip
            last = change.made_by(("player-withdrawn",), player=player)
            if last is not None and last.details.get("round") == facts.withdrawn_from:
                change.repeat(last)  # the same withdrawal sent again
                return _players_of(paired, number)
        from_round = rules.withdrawal(fields.get("round"), paired.rounds_paired,
                                      facts.withdrawn_from, change.event.rounds)  # fmt: skip
        action = PlayerWithdrawn(player, from_round)
        _keep_players(change, paired.state, change.effect(action, paired.state))
        change.log(action, why)
        return _view_of(change, number)


def request_bye(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Player ``number`` asks for a bye (``{"round"?, "kind": "half"|"zero", "reason"?}``)
    in a round not yet paired (the next by default)."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        facts = paired.players[player]
        round_number, kind = rules.bye_request(fields.get("round"), fields.get("kind"),
                                               change.event, paired.rounds_paired,
                                               facts.withdrawn_from)  # fmt: skip
        if paired.requests.get((round_number, player)) == kind:
            last = change.made_by(("bye-requested",), player=player, round=round_number)
            if last is not None and last.details.get("kind") == kind:
                change.repeat(last)  # the same bye asked for again
                return _players_of(paired, number)
        action = ByeRequested(player, round_number, kind)
        change.effect(action, paired.state)
        storage.put_request(change.tx, RequestRow(event_id, round_number, player, kind))
        change.log(action, why)
        return next(p for p in _players(read_paired(change.tx, change.event)) if p.number == number)


# --- rounds ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardView:
    """A board of a round: its players by seat and number, its result once in (and whose
    it is: a record's or the director's), the record that stands on it, and each player's
    points before the round and rating, as a pairing list shows them."""

    board: int
    first: str
    second: str
    first_number: int
    second_number: int
    result: str | None
    state: str
    record: int | None
    first_points: float = 0.0
    second_points: float = 0.0
    first_rating: int | None = None
    second_rating: int | None = None
    first_report: str | None = None
    second_report: str | None = None
    """What each player reported of the board's result (the first seat's side first)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "first": self.first,
            "second": self.second,
            "first_number": self.first_number,
            "second_number": self.second_number,
            "result": self.result,
            "state": self.state,
            "record": self.record,
            "first_points": _number(self.first_points),
            "second_points": _number(self.second_points),
            "first_rating": self.first_rating,
            "second_rating": self.second_rating,
            "reports": {"first": self.first_report, "second": self.second_report},
        }


def _number(points: float) -> int | float:
    return int(points) if float(points).is_integer() else points


@dataclass(frozen=True, slots=True)
class ByeView:
    """A player not on a board in a round: the bye allocated by the pairing, one asked for
    (``requested``), or a player withdrawn (``withdrawn``), not yet entered (a late entry:
    ``not-entered``), or absent (a withdrawal taken back after the round was paired:
    ``absent``)."""

    player: str
    number: int
    points: float
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "number": self.number, "points": _number(self.points),
            "kind": self.kind,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round as ``GET .../rounds/N`` gives it: its boards with their results as they
    arrive, the boards that still wait, and the byes."""

    round: int
    paired_at: str
    manual: bool
    boards: tuple[BoardView, ...]
    byes: tuple[ByeView, ...]
    draft: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "paired_at": self.paired_at,
            "manual": self.manual,
            "draft": self.draft,
            "boards": [board.to_dict() for board in self.boards],
            "waiting": [board.board for board in self.boards if board.result is None],
            "byes": [bye.to_dict() for bye in self.byes],
        }


def _round(
    paired: Paired, round_number: int, before: Mapping[int, Mapping[int, float]] | None = None
) -> RoundView:
    """Round ``round_number`` as the event holds it (``before``: each round's points before
    it, by pairing number, when several rounds are shown)."""
    facts = paired.pairings.get(round_number)
    if facts is None:
        raise EventError("no-such-round", f"round {round_number} is not paired")
    scores = (before or _points_before(paired)).get(round_number, {})
    name = {f.number: f.name for f in paired.players.values()}
    rating = {f.number: f.rating for f in paired.players.values()}
    boards = []
    for board, (first, second) in enumerate(facts.boards, 1):
        found = outcome(paired, round_number, board)
        standing = paired.on_board(round_number, board)
        reported = paired.reports_on(round_number, board)
        state = _board_state(found, standing, reported)
        boards.append(BoardView(
            board, name[first], name[second], first, second, found.result if found else None,
            state, standing.number if standing else None, scores.get(first, 0.0),
            scores.get(second, 0.0), rating.get(first), rating.get(second), *reported,
        ))  # fmt: skip
    byes = [
        ByeView(name[n], n, points, "pairing" if kind == "pairing" else "requested")
        for n, kind, points in facts.byes
    ]
    seated = {n for board in facts.boards for n in board} | {n for n, _, _ in facts.byes}
    checked = {player for (at, player) in paired.checkins if at == round_number}
    byes += [
        ByeView(
            f.name,
            f.number,
            0.0,
            _unseated(f, round_number, paired.event.check_in and player not in checked),
        )  # fmt: skip
        for player, f in sorted(paired.players.items(), key=lambda item: item[1].number)
        if f.number not in seated
    ]
    return RoundView(round_number, facts.paired_at, facts.manual, tuple(boards), tuple(byes),
                     facts.draft)  # fmt: skip


def _board_state(
    found: Outcome | None, standing: RecordRow | None, reported: tuple[str | None, str | None]
) -> str:
    """Where a board stands: ``result`` (a record's, or both players'), ``director``,
    ``disputed`` (its players reported different results), ``reported`` (one of them
    reported), ``waits-for-confirmation``, ``waits-for-a-result`` (a record that gives none)
    or ``waits-for-a-record``."""
    if found is not None:
        return "director" if found.source == "director" else "result"
    if reported[0] is not None and reported[1] is not None:
        return "disputed"
    if standing is not None and standing.status != ACCEPTED:
        return "waits-for-confirmation"
    if standing is not None:
        return "waits-for-a-result"
    if reported != (None, None):
        return "reported"
    return "waits-for-a-record"


def _unseated(facts: PlayerFacts, round_number: int, not_checked_in: bool = False) -> str:
    """Why a player has nothing in a round: ``withdrawn``, ``not-entered`` (a late entry's
    rounds before it), ``not-checked-in`` (an event that pairs only the players checked in)
    or ``absent`` (a withdrawal taken back later)."""
    if facts.withdrawn_from is not None and facts.withdrawn_from <= round_number:
        return "withdrawn"
    if facts.entered > round_number:
        return "not-entered"
    return "not-checked-in" if not_checked_in else "absent"


def _gained(made: Tournament) -> dict[int, dict[int, float]]:
    """What each round gave each player, by round and pairing number, as the pairing library
    scores its games and byes (:meth:`~arbiter.pairing.Game.points`): one pass over the
    tournament, where asking each player's points scans every game."""
    gained: dict[int, dict[int, float]] = {}
    for game in made.games:
        first, second = game.points()
        row = gained.setdefault(game.round, {})
        row[game.first] = row.get(game.first, 0.0) + first
        row[game.second] = row.get(game.second, 0.0) + second
    for bye in made.byes:
        row = gained.setdefault(bye.round, {})
        row[bye.player] = row.get(bye.player, 0.0) + bye.points
    return gained


def _points_before(paired: Paired) -> dict[int, dict[int, float]]:
    """Each paired round's points before it, by pairing number (the results of the rounds
    before it), what a pairing list shows beside the names; each board's result is found
    once."""
    gained = _gained(tournament(paired))
    points: dict[int, float] = {}
    found: dict[int, dict[int, float]] = {}
    for round_number in sorted(paired.pairings):
        found[round_number] = dict(points)
        for number, worth in gained.get(round_number, {}).items():
            points[number] = points.get(number, 0.0) + worth
    return found


def round_view(
    store: Store, event_id: str, round_number: int, *, drafts: bool = False
) -> RoundView:
    """Round ``round_number`` of the event, its results as they arrive; a round paired as a
    draft only for the director (``drafts``), else it is no round (``no-such-round``)."""
    with storage.reading(store) as tx:
        event = rules.paired(_event(tx, event_id))
        paired = read_paired(tx, event)
        return _round(paired if drafts else paired.public(), round_number)


def rounds_view(store: Store, event_id: str, *, drafts: bool = False) -> list[RoundView]:
    """Every round paired, in order (a draft only for the director: ``drafts``)."""
    with storage.reading(store) as tx:
        event = rules.paired(_event(tx, event_id))
        paired = read_paired(tx, event)
        paired = paired if drafts else paired.public()
        before = _points_before(paired)
        return [_round(paired, number, before) for number in sorted(paired.pairings)]


ATTEMPTS = 3
"""How many times a pairing is computed again when the event changed while it was."""


class _Changed(Exception):  # noqa: N818 - a signal to compute again, never raised out
    """The event changed between the read a pairing was computed from and its writing."""


def _outside_the_lock(
    store: Store,
    event_id: str,
    secret: str | None,
    compute: Callable[[Paired], R],
    keep: Callable[[Change, Paired, R], T],
) -> T:
    """A change whose work is long (the engine's pairing): ``compute`` runs on a snapshot
    of the event, read in a transaction of its own, outside any write transaction, so that
    no other writer waits for it; ``keep`` then writes what it made in the write
    transaction, if the event has not changed since the snapshot (its version), else all is
    computed again, up to :data:`ATTEMPTS` times (``event-changed`` after that)."""
    admit(store, event_id, secret, DIRECTOR)  # refused before any work, as a change would be
    answered_before(store, event_id)  # the same request sent again: its first answer
    for _ in range(ATTEMPTS):
        with storage.reading(store) as tx:
            snapshot = read_paired(tx, rules.paired(_event(tx, event_id)))
        made = compute(snapshot)
        try:
            with changing(store, event_id, secret, DIRECTOR) as change:
                if change.event.version != snapshot.event.version + 1:  # the lock bumped it
                    raise _Changed
                return keep(change, snapshot, made)
        except _Changed:
            continue
    raise EventError(
        "event-changed",
        f"the event changed while its round was being paired, {ATTEMPTS} times: pair it again",
    )


def pair_round(
    store: Store, event_id: str, secret: str | None, fields: Mapping[str, object] | None = None
) -> RoundView:
    """Pair the next round by the event's system, once every board of the last one has its
    result, and publish it; with ``{"draft": true}``, for the director only until it is
    published (:func:`publish_round`). A round paired as a draft is paired again by the
    same request (players checked in since, a bye asked for). In an event that checks its
    players in, only those checked in for the round are paired. The engine pairs outside
    the write transaction, within its limits (:data:`ENGINE_LIMITS`)."""
    draft = rules.draft_field(fields or {})

    def compute(paired: Paired) -> tuple[int, tuple[Board, ...], tuple[ByeGiven, ...]]:
        earlier = _before_draft(paired)
        round_number = rules.next_round(
            earlier.event, earlier.rounds_paired, waiting(earlier, earlier.rounds_paired)
        )
        absent = _absent(earlier, round_number)
        if paired.event.check_in and len(_present(earlier, round_number)) == len(absent):
            raise EventError(
                "cannot-pair", f"no player is checked in for round {round_number}: nobody to pair"
            )
        boards, byes = _given(_engine_pairing(earlier), earlier)
        return round_number, boards, byes

    def keep(
        change: Change, paired: Paired, made: tuple[int, tuple[Board, ...], tuple[ByeGiven, ...]]
    ) -> RoundView:
        round_number, boards, byes = made
        return _keep_pairing(change, round_number, RoundPaired(round_number, boards, byes, draft),
                             paired)  # fmt: skip

    return _outside_the_lock(store, event_id, secret, compute, keep)


def _before_draft(paired: Paired) -> Paired:
    """The event as it was before its round paired as a draft (what pairing it again pairs
    from), or as it is when it has none."""
    draft = paired.draft()
    if draft is None:
        return paired
    return replace(paired, pairings={r: f for r, f in paired.pairings.items() if r != draft})


def publish_round(
    store: Store, event_id: str, secret: str | None, round_number: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """Publish round ``round_number``, paired as a draft (``{"reason"?}``): from now on
    everyone sees it, and its boards take records, reports and results. Published twice, it
    is answered as the first time."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        facts = paired.pairings.get(round_number)
        if facts is not None and not facts.draft:
            last = change.made_by(("round-published",), round=round_number)
            if last is not None:
                change.repeat(last)
                return _round(paired, round_number)
        rules.publishable(None if facts is None else facts.draft, round_number)
        return _keep_pairing(change, round_number, RoundPublished(round_number), paired, why)


def _keep_pairing(
    change: Change,
    round_number: int,
    action: RoundPaired | RoundReplaced | RoundPublished,
    paired: Paired,
    why: str | None = None,
) -> RoundView:
    """Keep the pairing of ``round_number`` as ``action`` makes it, log it with ``why``, and
    answer the round as it now stands."""
    effect = change.effect(action, paired.state)
    facts = effect.pairings[round_number]
    assert facts is not None  # a pairing made
    storage.put_pairing(change.tx, _pairing_row(change.event.id, round_number, facts))
    change.log(action, why)
    return _round(read_paired(change.tx, change.event), round_number)


_Given = tuple[tuple[Board, ...], tuple[ByeGiven, ...]]
_ByHand = tuple[tuple[Board, ...], tuple[ByeGiven, ...], _Given, tuple[str, ...]]
"""A pairing by hand as computed outside the lock: its boards and byes, the system's, and
what it breaks of the system's rules."""


def replace_round(
    store: Store, event_id: str, secret: str | None, round_number: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """Pair the last round by hand (``{"boards": [{"first", "second"}...], "bye"?: number,
    "reason", "confirm"?}``) before any result of it is in; the system's own pairing is kept
    beside it in the trail (and in the TRF as ``### MPA``), computed outside the write
    transaction. A pairing that breaks the system's rules (a repeated game, a prohibited
    pair, a bye to a player who may not have it, the colour rules) is refused with them
    (``pairing-warnings``) unless ``confirm`` is true; then they are kept with it."""
    why = rules.reason(fields.get("reason"))

    def compute(paired: Paired) -> _ByHand:
        rules.changeable_round(round_number, paired.rounds_paired,
                               _with_results(paired, round_number))  # fmt: skip
        before = {r: f for r, f in paired.pairings.items() if r != round_number}
        earlier = replace(paired, pairings=before)
        absent = set(_absent(earlier, round_number))  # not checked in: not paired by hand either
        present = [n for n in _present(earlier, round_number) if n not in absent]
        asked = {
            paired.players[player].number: kind
            for (at, player), kind in paired.requests.items()
            if at == round_number
        }
        boards, byes = rules.manual_pairing(fields, present, asked, paired.event.bye_points)
        bye = next((n for n, kind, _ in byes if kind == "pairing"), None)
        warnings = pairing_warnings(tournament(earlier), round_number, boards, bye)
        rules.warnings_confirmed(warnings, fields.get("confirm"))
        return boards, byes, _given(_engine_pairing(earlier), earlier), warnings

    def keep(change: Change, paired: Paired, made: _ByHand) -> RoundView:
        boards, byes, engine, warnings = made
        draft = paired.pairings[round_number].draft
        action = RoundReplaced(round_number, boards, byes, engine[0], engine[1], draft, warnings)
        return _keep_pairing(change, round_number, action, paired, why)

    return _outside_the_lock(store, event_id, secret, compute, keep)


def _absent(paired: Paired, round_number: int) -> list[int]:
    """In an event that checks its players in, the pairing numbers of those who may play
    round ``round_number`` but neither checked in for it nor asked for a bye in it: the
    pairing leaves them out."""
    if not paired.event.check_in:
        return []
    asked = {player for (at, player) in paired.requests if at == round_number}
    present = set(_present(paired, round_number))
    return sorted(
        f.number
        for player, f in paired.players.items()
        if f.number in present
        and player not in asked
        and (round_number, player) not in paired.checkins
    )


def _present(paired: Paired, round_number: int) -> list[int]:
    """The pairing numbers of the players a round pairs: entered, and not withdrawn."""
    return sorted(
        f.number
        for f in paired.players.values()
        if f.entered <= round_number
        and (f.withdrawn_from is None or f.withdrawn_from > round_number)
    )


def _with_results(paired: Paired, round_number: int) -> int:
    """The boards of a round that have a result, or a record standing on them."""
    facts = paired.pairings.get(round_number)
    if facts is None:
        return 0
    reported = {(at, board) for (at, board, _) in paired.reports}
    return sum(
        1
        for board in range(1, len(facts.boards) + 1)
        if (round_number, board) in paired.results
        or (round_number, board) in reported
        or paired.on_board(round_number, board)
    )


def unpair_round(
    store: Store, event_id: str, secret: str | None, round_number: int, reason: object
) -> list[RoundView]:
    """Take back the last round's pairing before any result of it is in."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        rules.changeable_round(round_number, paired.rounds_paired,
                               _with_results(paired, round_number))  # fmt: skip
        action = RoundUnpaired(round_number)
        change.effect(action, paired.state)
        storage.delete_pairing(change.tx, event_id, round_number)
        change.log(action, why)
        after = read_paired(change.tx, change.event)
        return [_round(after, number) for number in sorted(after.pairings)]


def set_board_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """Give a board its result (``{"result": "+-"|"-+"|"--"|"1-0"|"0-1", "reason"}``): a
    forfeit, a double forfeit or no-show, or a game decided without a record; also on a
    board where a record stands (the director's result counts in place of the record's,
    which stays there). The same result given again is answered as the first time."""
    result = rules.board_result(fields.get("result"))
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        _board(paired, round_number, board)
        rules.not_a_draft(paired.pairings[round_number].draft, round_number)
        was = paired.results.get((round_number, board))
        if was == result:
            change.repeat(change.made_by(("board-result-set",), round=round_number, board=board))
            return _round(paired, round_number)
        action = BoardResultSet(round_number, board, result, was)
        change.effect(action, paired.state)
        storage.put_result(change.tx, ResultRow(event_id, round_number, board, result))
        change.log(action, why)
        return _round(read_paired(change.tx, change.event), round_number)


def clear_board_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    reason: object,
) -> RoundView:  # fmt: skip
    """Take back the result the director gave a board."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        _board(paired, round_number, board)
        was = paired.results.get((round_number, board))
        if was is None:
            cleared = change.made_by(
                ("board-result-cleared", "board-result-set"), round=round_number, board=board
            )
            if cleared is not None and cleared.action == "board-result-cleared":
                change.repeat(cleared)  # the same sent again
                return _round(paired, round_number)
            raise EventError(
                "no-board-result", f"round {round_number} board {board} has no result to take back"
            )
        action = BoardResultCleared(round_number, board, was)
        change.effect(action, paired.state)
        storage.delete_result(change.tx, event_id, round_number, board)
        change.log(action, why)
        return _round(read_paired(change.tx, change.event), round_number)


# --- the event as it happens: check-in, players' reports -----------------------------------


def check_in(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Check player ``number`` in for a round not yet published (``{"round"?}``: the next by
    default), by the director or by the player's own token, in an event created with
    check-in: the pairing of that round pairs only the players checked in. Checked in
    twice, it is answered as the first time."""
    with changing(store, event_id, secret, UPLOAD) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        rules.for_player(change.actor.role, change.token_player, player, number)
        round_number = rules.check_in_round(fields.get("round"), change.event,
                                            paired.rounds_published)  # fmt: skip
        if (round_number, player) in paired.checkins:
            change.repeat(change.made_by(("checked-in",), player=player, round=round_number))
            return _players_of(paired, number)
        facts = paired.players[player]
        rules.present_in(facts.entered, facts.withdrawn_from, round_number, number)
        action = CheckedIn(player, round_number)
        change.effect(action, paired.state)
        storage.put_checkin(change.tx, CheckinRow(event_id, round_number, player, change.at))
        change.log(action)
        return _view_of(change, number)


def cancel_check_in(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Take back player ``number``'s check-in for a round not yet published (``{"round"?,
    "reason"?}``), by the director or the player's own token."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, UPLOAD) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        player = paired.id_of(number)
        rules.for_player(change.actor.role, change.token_player, player, number)
        round_number = rules.check_in_round(fields.get("round"), change.event,
                                            paired.rounds_published)  # fmt: skip
        if (round_number, player) not in paired.checkins:
            last = change.made_by(("check-in-cancelled", "checked-in"), player=player,
                                  round=round_number)  # fmt: skip
            if last is not None and last.action == "check-in-cancelled":
                change.repeat(last)
                return _players_of(paired, number)
            raise EventError(
                "not-checked-in", f"player {number} is not checked in for round {round_number}"
            )
        action = CheckInCancelled(player, round_number)
        change.effect(action, paired.state)
        storage.delete_checkin(change.tx, event_id, round_number, player)
        change.log(action, why)
        return _view_of(change, number)


def report_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """A player reports their board's result with their own token (``{"result"}``: the first
    seat's side first, as the director gives one): when both players report the same, it
    is the board's result; two reports that differ make the board disputed, for the
    director to decide. A report may be changed until the two agree; the same report sent
    again is answered as the first time."""
    result = rules.board_result(fields.get("result"))
    with changing(store, event_id, secret, UPLOAD) as change:
        paired = read_paired(change.tx, rules.paired(change.event)).public()
        first, second = _board(paired, round_number, board)
        by_number = paired.by_number()
        seats = tuple(by_number[n][0] for n in (first, second) if n in by_number)
        player = rules.reporter(change.actor.role, change.token_player,
                                seats if len(seats) == 2 else None)  # fmt: skip
        if paired.reports.get((round_number, board, player)) == result:
            change.repeat(change.made_by(("result-reported",), player=player, round=round_number))
            return _round(paired, round_number)
        rules.free_to_report(outcome(paired, round_number, board), round_number, board)
        action = ResultReported(round_number, board, player, result)
        change.effect(action, paired.state)
        storage.put_report(change.tx, ReportRow(event_id, round_number, board, player, result))
        change.log(action)
        return _round(read_paired(change.tx, change.event).public(), round_number)


def _board(paired: Paired, round_number: int, board: int) -> Board:
    facts = paired.pairings.get(round_number)
    if facts is None:
        raise EventError("no-such-round", f"round {round_number} is not paired")
    if not 1 <= board <= len(facts.boards):
        raise EventError("no-such-board", f"round {round_number} has no board {board}")
    return facts.boards[board - 1]


def place_record(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> RecordRow:
    """The director's decision: record ``number`` counts on ``{"round", "board"}`` (a board
    its tags did not find: seats reversed, another round, names written otherwise), with a
    reason, and gives the board its result; ``"seats"`` (``as-paired`` or ``reversed``)
    says how its players sit there, by default as their names come closest to the board's.
    The record's names are then taken as the board's players (the entry says which as
    which). A record waiting for confirmation is confirmed by it. Refused, with why, when
    it could not give the board a result: a record of another game or unreadable, one
    excluded, one that gives no finished result, or a board that has one already. The same
    placement asked again is answered as the first was."""
    why = rules.reason(fields.get("reason"))
    round_number, board = rules.board_of_fields(fields)
    asked = rules.seats_field(fields.get("seats"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, rules.paired(change.event))
        first, second = _board(paired, round_number, board)
        rules.not_a_draft(paired.pairings[round_number].draft, round_number)
        row = storage.record_row(change.tx, event_id, number) if rules.names_a_row(number) else None
        found = rules.found_record(row, number)
        if (found.board_round, found.board, found.placement) == (round_number, board, None) and (
            found.status != EXCLUDED and asked in (None, found.seats)
        ):
            change.repeat(change.made_by(("record-placed",), record=number)
                          or change.made_by(("uploaded",), upload=found.upload))  # fmt: skip
            return found
        header = rules.placeable(found, json.loads(found.report))
        rules.free_board(round_number, board, paired.results.get((round_number, board)),
                         paired.on_board(round_number, board), number)  # fmt: skip
        names = _board_names(paired, first, second)
        seats = asked or seats_by_names(header, names)
        colours = find_game(header["game"]).colours
        written = tuple(str(header["players"].get(c) or "") for c in colours[:2])
        as_seated = (written[0], written[1]) if seats == AS_PAIRED else (written[1], written[0])
        state = State(records={number: _facts(found)}, players=paired.players,
                      pairings=paired.pairings)  # fmt: skip
        if found.status == PENDING:  # placed by the director: it counts
            confirmed = Confirmed(number)
            state = state.after(change.effect(confirmed, state))
            change.log(confirmed, f"placed on round {round_number} board {board}: {why}")
        action = RecordPlaced(number, round_number, board, found.placement, seats, as_seated)
        facts = change.effect(action, state).records[number]
        placed = replace(
            found, status=facts.status, board_round=facts.board_round, board=facts.board,
            placement=facts.placement, seats=facts.seats,
        )  # fmt: skip
        storage.update_record(change.tx, placed)
        change.log(action, why)
        return placed


def _facts(row: RecordRow) -> RecordFacts:
    return RecordFacts.of(row)


# --- where a record stands ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seats:
    """Where an upload's records of a paired event find their boards: the seating of the
    rules (players by name, boards by round, the boards taken) and the game's colours."""

    seating: rules.Seating
    colours: tuple[str, str]
    numbers: Mapping[int, int] = field(default_factory=dict)
    """Each player's pairing number, by id (a token made for a player names them by id)."""


def seats(tx: Tx, event: EventRow) -> Seats:
    """Where records find their boards: on the rounds published (a draft takes none)."""
    return seats_of_paired(read_paired(tx, event).public())


def seats_of_paired(paired: Paired) -> Seats:
    """Where records find their boards in the event ``paired`` holds."""
    taken = {key for key in paired.results}
    taken |= {board for row in paired.placed if (board := takes(row))}
    seating = rules.Seating.of(
        {f.number: f.name for f in paired.players.values()},
        {r: f.boards for r, f in paired.pairings.items()},
        taken,
    )
    numbers = {player: facts.number for player, facts in paired.players.items()}
    return Seats(seating, find_game(paired.event.game).colours, numbers)


def place(
    found: Seats,
    header: Mapping[str, Any] | None,
    round_number: int | None,
    report: Mapping[str, Any] | None = None,
    *,
    counts: bool = True,
    player: int | None = None,
) -> tuple[Seats, tuple[int | None, int | None, str | None]]:
    """Where a record with ``header`` stands, and the seats with its board taken if it
    counts there (``counts``: a record that waits for confirmation takes no board from one
    that counts; a second record of the same board in one upload finds it taken). A record
    sent with a token made for a player (``player``, by id) stands only on a board of that
    player's (``not-your-board`` otherwise). A record without a header stands on no board:
    one of another game (``wrong-game``, its ``report`` says), or one that could not be
    read (``unreadable``)."""
    if header is None:
        return found, (round_number, None, unplaced_why(report))
    players = header.get("players", {})
    first, second = players.get(found.colours[0]), players.get(found.colours[1])
    where = rules.placement(round_number, first, second, found.seating)
    if player is not None and where[0] is not None and where[1] is not None:
        board = found.seating.boards[where[0]][where[1] - 1]
        if found.numbers.get(player) not in board:
            return found, (where[0], where[1], "not-your-board")
    if counts and where[2] is None and where[0] is not None and where[1] is not None:
        taken = found.seating.taken | {(where[0], where[1])}
        found = replace(found, seating=replace(found.seating, taken=frozenset(taken)))
    return found, where


def unplaced_why(report: Mapping[str, Any] | None) -> str:
    """Why a record without a header stands on no board: ``wrong-game`` (its report's first
    error says it is a game of another game), else ``unreadable``."""
    errors = (report or {}).get("errors") or [{}]
    return "wrong-game" if errors[0].get("code") == "wrong-game" else "unreadable"


# --- standings and TRF ----------------------------------------------------------------------


def paired_table(tx: Tx, event: EventRow, *, upto: int | None = None) -> EventStandings:
    """The standings of a paired event: its players, the boards with a result, the byes;
    the records that stand on no board listed as not counted, with why. With ``upto``, the
    standings after that round: the rounds after it left out (the round page shows them).
    A round paired as a draft is not shown."""
    paired = read_paired(tx, event).public()
    if upto is not None:
        kept = {r: f for r, f in paired.pairings.items() if r <= upto}
        paired = replace(paired, pairings=kept)
    name = {f.number: f.name for f in paired.players.values()}
    boards = []
    for round_number, facts in sorted(paired.pairings.items()):
        for board, (first, second) in enumerate(facts.boards, 1):
            found = outcome(paired, round_number, board)
            if found is None:
                continue
            record = found.record
            boards.append(BoardResult(
                round_number, name[first], name[second],
                None if found.winner is None else name[found.winner], found.termination,
                found.margin, *(_where(record) if record else (None, 0)),
            ))  # fmt: skip
    byes = [
        ByeRound(round_number, name[n], kind, points)
        for round_number, facts in sorted(paired.pairings.items())
        for n, kind, points in facts.byes
    ]
    excluded = [
        Exclusion(
            *_where(row),
            row.placement,
            rules.placement_words(row.placement, json.loads(row.report)),
        )  # fmt: skip
        for row in storage.record_rows(tx, event.id)
        if row.placement is not None and row.status != EXCLUDED
    ]
    return paired_standings(event.name, event.game, [f.name for f in paired.players.values()],
                            boards, byes, tiebreaks=event.tiebreaks, excluded=excluded)  # fmt: skip


def _where(row: RecordRow) -> tuple[str | None, int]:
    report = json.loads(row.report)
    return report.get("file"), int(report.get("index", 0))


def tournament_trf(tx: Tx, event: EventRow, comments: Sequence[str]) -> str:
    """The TRF of a paired event: the rounds whose every board has its result, their byes,
    the withdrawals, and the ``comments`` (``###`` lines). A draft is not shown."""
    paired = read_paired(tx, event).public()
    last = paired.rounds_paired
    while last and waiting(paired, last):
        last -= 1
    made = tournament(paired, upto=last)
    return write_trf(made, name=f"{event.name} ({event.game})", comments=comments)
