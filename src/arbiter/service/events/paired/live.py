"""A paired event as it happens (``spec/pairings.md`` §12): players checking in for a
round, and the results they report for their own boards.
"""

from __future__ import annotations

from collections.abc import Mapping

from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    CheckedIn,
    CheckInCancelled,
    ResultReported,
)
from arbiter.service.events.change import Change, changing
from arbiter.service.events.common import (
    UPLOAD,
    EventError,
)
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.players import PlayerView, cancelled_already, player_of, view_of
from arbiter.service.events.paired.rounds import RoundView, board_of, round_of
from arbiter.service.events.paired.state import Paired, outcome, read_paired
from arbiter.service.events.rows import (
    CheckinRow,
    ReportRow,
)
from arbiter.service.events.store import Store

# --- the event as it happens: check-in, players' reports -----------------------------------


def check_in(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Check player ``number`` in for a round not yet published (``{"round"?}``: the next by
    default), by the director or by the player's own token, in an event created with
    check-in: the pairing of that round pairs only the players checked in. Checked in
    twice, it is answered as the first time."""
    with changing(store, event_id, secret, UPLOAD) as change:
        paired, player, round_number = _checking(change, number, fields)
        if (round_number, player) in paired.checkins:
            change.repeat(change.made_by(("checked-in",), player=player, round=round_number))
            return player_of(paired, number)
        facts = paired.players[player]
        paired_rules.present_in(facts.entered, facts.withdrawn_from, round_number, number)
        action = CheckedIn(player, round_number)
        change.effect(action, paired.state)
        storage.put_checkin(change.tx, CheckinRow(event_id, round_number, player, change.at))
        change.log(action)
        return view_of(change, number)


def _checking(change: Change, number: int, fields: Mapping[str, object]) -> tuple[Paired, int, int]:
    """What a check-in and its cancellation both ask first: the event as it stands, player
    ``number`` (by id) whom the token may act for, and the round (``{"round"?}``)."""
    paired = read_paired(change.tx, paired_rules.paired(change.event))
    player = paired.id_of(number)
    paired_rules.for_player(change.actor.role, change.token_player, player, number)
    round_number = paired_rules.check_in_round(
        fields.get("round"), change.event, paired.rounds_published
    )
    return paired, player, round_number


def cancel_check_in(
    store: Store, event_id: str, secret: str | None, number: int, fields: Mapping[str, object]
) -> PlayerView:
    """Take back player ``number``'s check-in for a round not yet published (``{"round"?,
    "reason"?}``), by the director or the player's own token."""
    why = rules.reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, UPLOAD) as change:
        paired, player, round_number = _checking(change, number, fields)
        if (round_number, player) not in paired.checkins:
            if cancelled_already(change, "check-in-cancelled", "checked-in", player=player,
                                 round=round_number):  # fmt: skip
                return player_of(paired, number)
            raise EventError(
                "not-checked-in", f"player {number} is not checked in for round {round_number}"
            )
        action = CheckInCancelled(player, round_number)
        change.effect(action, paired.state)
        storage.delete_checkin(change.tx, event_id, round_number, player)
        change.log(action, why)
        return view_of(change, number)


def report_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """A player reports their board's result with their own token (``{"result"}``: the first
    seat's side first, as the director gives one): when both players report the same, it
    is the board's result; two reports that differ make the board disputed, for the
    director to decide. A report may be changed until the two agree; the same report sent
    again is answered as the first time."""
    result = paired_rules.board_result(fields.get("result"))
    with changing(store, event_id, secret, UPLOAD) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event)).public()
        first, second = board_of(paired, round_number, board)
        by_number = paired.by_number()
        seats = tuple(by_number[n][0] for n in (first, second) if n in by_number)
        player = paired_rules.reporter(change.actor.role, change.token_player,
                                seats if len(seats) == 2 else None)  # fmt: skip
        if paired.reports.get((round_number, board, player)) == result:
            change.repeat(change.made_by(("result-reported",), player=player, round=round_number))
            return round_of(paired, round_number)
        paired_rules.free_to_report(outcome(paired, round_number, board), round_number, board)
        action = ResultReported(round_number, board, player, result)
        change.effect(action, paired.state)
        storage.put_report(change.tx, ReportRow(event_id, round_number, board, player, result))
        change.log(action)
        return round_of(read_paired(change.tx, change.event).public(), round_number)
