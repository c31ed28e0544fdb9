"""A paired event's rounds (``spec/pairings.md``): each paired by the event's system
through :mod:`arbiter.pairing` (outside the event's lock, then kept under it), by hand, as a
draft and then published, or taken back; the results the director gives boards and the
records placed on them by hand; and the rounds as the API and the pages read them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from arbiter.notation.games import find_game
from arbiter.pairing import Board as PairedBoard
from arbiter.pairing import (
    Bye,
    Pairing,
    pairing_warnings,
)
from arbiter.pairing.engine import compare
from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    AS_PAIRED,
    Board,
    BoardResultCleared,
    BoardResultSet,
    ByeGiven,
    Confirmed,
    PlayerFacts,
    RecordFacts,
    RecordPlaced,
    RoundPaired,
    RoundPublished,
    RoundReplaced,
    RoundUnpaired,
    State,
)
from arbiter.service.events.change import Change, admit, answered_before, changing
from arbiter.service.events.common import (
    ACCEPTED,
    DIRECTOR,
    EXCLUDED,
    PENDING,
    EventError,
)
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.boards import seats_by_names
from arbiter.service.events.paired.state import (
    Outcome,
    Paired,
    absent_from,
    board_names,
    engine_pairing,
    gained_by_round,
    given_by_engine,
    number_shown,
    outcome,
    paired_event,
    pairing_row,
    present_for,
    read_paired,
    results_in,
    tournament,
    waiting,
    withdrawal_forfeit,
)
from arbiter.service.events.rows import (
    RecordRow,
    ResultRow,
)
from arbiter.service.events.store import Store

R = TypeVar("R")
T = TypeVar("T")


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
            "first_points": number_shown(self.first_points),
            "second_points": number_shown(self.second_points),
            "first_rating": self.first_rating,
            "second_rating": self.second_rating,
            "reports": {"first": self.first_report, "second": self.second_report},
        }


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
            "player": self.player, "number": self.number, "points": number_shown(self.points),
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
    system: SystemPairing | None = None
    """In the answer to a pairing by hand only: the system's own pairing of the round."""

    def to_dict(self) -> dict[str, Any]:
        shown = {
            "round": self.round,
            "paired_at": self.paired_at,
            "manual": self.manual,
            "draft": self.draft,
            "boards": [board.to_dict() for board in self.boards],
            "waiting": [board.board for board in self.boards if board.result is None],
            "byes": [bye.to_dict() for bye in self.byes],
        }
        if self.system is not None:
            shown["system"] = self.system.to_dict()
        return shown


@dataclass(frozen=True, slots=True)
class SystemPairing:
    """The pairing the event's system gives a round paired by hand, and what the pairing by
    hand changes of it (board order aside: pairs the system has and the hand has not, a
    pair with the seats the other way round, another player given the bye), so that the
    director is warned of a pairing that differs (FIDE's checklist, Q69)."""

    boards: tuple[Board, ...]
    bye: int | None
    differences: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "boards": [{"first": first, "second": second} for first, second in self.boards],
            "bye": self.bye,
            "differs": bool(self.differences),
            "differences": list(self.differences),
        }


def _by_hand(round_number: int, boards: tuple[Board, ...], bye: int | None) -> Pairing:
    """A pairing by hand as the pairing library compares pairings: its boards, and the
    player it gives the pairing-allocated bye (its points play no part)."""
    return Pairing(
        round_number,
        tuple(PairedBoard(n, first, second) for n, (first, second) in enumerate(boards, 1)),
        () if bye is None else (Bye(round_number, bye, "pairing", 1.0),),
    )


def round_of(
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


def _points_before(paired: Paired) -> dict[int, dict[int, float]]:
    """Each paired round's points before it, by pairing number (the results of the rounds
    before it), what a pairing list shows beside the names; each board's result is found
    once."""
    gained = gained_by_round(tournament(paired))
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
        event = paired_rules.paired(paired_event(tx, event_id))
        paired = read_paired(tx, event)
        return round_of(paired if drafts else paired.public(), round_number)


def rounds_view(store: Store, event_id: str, *, drafts: bool = False) -> list[RoundView]:
    """Every round paired, in order (a draft only for the director: ``drafts``)."""
    with storage.reading(store) as tx:
        event = paired_rules.paired(paired_event(tx, event_id))
        paired = read_paired(tx, event)
        paired = paired if drafts else paired.public()
        before = _points_before(paired)
        return [round_of(paired, number, before) for number in sorted(paired.pairings)]


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
            event = paired_rules.paired(paired_event(tx, event_id))
            snapshot = read_paired(tx, event, prohibitions=True)  # the engine honours them
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
    draft = paired_rules.draft_field(fields or {})

    def compute(paired: Paired) -> tuple[int, tuple[Board, ...], tuple[ByeGiven, ...]]:
        earlier = _before_draft(paired)
        round_number = paired_rules.next_round(
            earlier.event, earlier.rounds_paired, waiting(earlier, earlier.rounds_paired)
        )
        absent = absent_from(earlier, round_number)
        if paired.event.check_in and len(present_for(earlier, round_number)) == len(absent):
            raise EventError(
                "cannot-pair", f"no player is checked in for round {round_number}: nobody to pair"
            )
        boards, byes = given_by_engine(engine_pairing(earlier), earlier)
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
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        facts = paired.pairings.get(round_number)
        if facts is not None and not facts.draft:
            last = change.made_by(("round-published",), round=round_number)
            if last is not None:
                change.repeat(last)
                return round_of(paired, round_number)
        paired_rules.publishable(None if facts is None else facts.draft, round_number)
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
    storage.put_pairing(change.tx, pairing_row(change.event.id, round_number, facts))
    change.log(action, why)
    return round_of(read_paired(change.tx, change.event), round_number)


_Given = tuple[tuple[Board, ...], tuple[ByeGiven, ...]]
_ByHand = tuple[tuple[Board, ...], tuple[ByeGiven, ...], _Given, tuple[str, ...], SystemPairing]
"""A pairing by hand as computed outside the lock: its boards and byes, the system's, what
it breaks of the system's rules, and the system's pairing with what the hand changed."""


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
        paired_rules.changeable_round(round_number, paired.rounds_paired,
                               results_in(paired, round_number))  # fmt: skip
        before = {r: f for r, f in paired.pairings.items() if r != round_number}
        earlier = replace(paired, pairings=before)
        absent = set(
            absent_from(earlier, round_number)
        )  # not checked in: not paired by hand either
        present = [n for n in present_for(earlier, round_number) if n not in absent]
        asked = {
            paired.players[player].number: kind
            for (at, player), kind in paired.requests.items()
            if at == round_number
        }
        boards, byes = paired_rules.manual_pairing(fields, present, asked, paired.event.bye_points)
        bye = next((n for n, kind, _ in byes if kind == "pairing"), None)
        warnings = pairing_warnings(tournament(earlier), round_number, boards, bye)
        paired_rules.warnings_confirmed(warnings, fields.get("confirm"))
        system = engine_pairing(earlier)
        engine = given_by_engine(system, earlier)
        differences = compare(system, _by_hand(round_number, boards, bye))
        return boards, byes, engine, warnings, SystemPairing(engine[0], system.bye, differences)

    def keep(change: Change, paired: Paired, made: _ByHand) -> RoundView:
        boards, byes, engine, warnings, system = made
        draft = paired.pairings[round_number].draft
        action = RoundReplaced(round_number, boards, byes, engine[0], engine[1], draft, warnings)
        shown = _keep_pairing(change, round_number, action, paired, why)
        return replace(shown, system=system)

    return _outside_the_lock(store, event_id, secret, compute, keep)


def unpair_round(
    store: Store, event_id: str, secret: str | None, round_number: int, reason: object
) -> list[RoundView]:
    """Take back the last round's pairing before any result of it is in."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        paired_rules.changeable_round(round_number, paired.rounds_paired,
                               results_in(paired, round_number))  # fmt: skip
        action = RoundUnpaired(round_number)
        change.effect(action, paired.state)
        storage.delete_pairing(change.tx, event_id, round_number)
        change.log(action, why)
        after = read_paired(change.tx, change.event)
        return [round_of(after, number) for number in sorted(after.pairings)]


def set_board_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    fields: Mapping[str, object],
) -> RoundView:  # fmt: skip
    """Give a board its result (``{"result": "+-"|"-+"|"--"|"1-0"|"0-1", "reason"}``): a
    forfeit, a double forfeit or no-show, or a game decided without a record; also on a
    board where a record stands (the director's result counts in place of the record's,
    which stays there). A round robin's board of a player withdrawn by then takes only the
    forfeit they lose, or a double forfeit. The same result given again is answered as the
    first time."""
    result = paired_rules.board_result(fields.get("result"))
    why = rules.reason(fields.get("reason"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        seats = board_of(paired, round_number, board)
        paired_rules.not_a_draft(paired.pairings[round_number].draft, round_number)
        forfeit = withdrawal_forfeit(paired, round_number, seats[0], seats[1])
        paired_rules.withdrawn_seat(forfeit, result, round_number, board)
        was = paired.results.get((round_number, board))
        if was == result:
            change.repeat(change.made_by(("board-result-set",), round=round_number, board=board))
            return round_of(paired, round_number)
        action = BoardResultSet(round_number, board, result, was)
        change.effect(action, paired.state)
        storage.put_result(change.tx, ResultRow(event_id, round_number, board, result))
        change.log(action, why)
        return round_of(read_paired(change.tx, change.event), round_number)


def clear_board_result(
    store: Store, event_id: str, secret: str | None, round_number: int, board: int,
    reason: object,
) -> RoundView:  # fmt: skip
    """Take back the result the director gave a board."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        board_of(paired, round_number, board)
        was = paired.results.get((round_number, board))
        if was is None:
            cleared = change.made_by(
                ("board-result-cleared", "board-result-set"), round=round_number, board=board
            )
            if cleared is not None and cleared.action == "board-result-cleared":
                change.repeat(cleared)  # the same sent again
                return round_of(paired, round_number)
            raise EventError(
                "no-board-result", f"round {round_number} board {board} has no result to take back"
            )
        action = BoardResultCleared(round_number, board, was)
        change.effect(action, paired.state)
        storage.delete_result(change.tx, event_id, round_number, board)
        change.log(action, why)
        return round_of(read_paired(change.tx, change.event), round_number)


def board_of(paired: Paired, round_number: int, board: int) -> Board:
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
    round_number, board = paired_rules.board_of_fields(fields)
    asked = paired_rules.seats_field(fields.get("seats"))
    with changing(store, event_id, secret, DIRECTOR) as change:
        paired = read_paired(change.tx, paired_rules.paired(change.event))
        first, second = board_of(paired, round_number, board)
        paired_rules.not_a_draft(paired.pairings[round_number].draft, round_number)
        row = storage.record_row(change.tx, event_id, number) if rules.names_a_row(number) else None
        found = rules.found_record(row, number)
        if (found.board_round, found.board, found.placement) == (round_number, board, None) and (
            found.status != EXCLUDED and asked in (None, found.seats)
        ):
            change.repeat(change.made_by(("record-placed",), record=number)
                          or change.made_by(("uploaded",), upload=found.upload))  # fmt: skip
            return found
        header = paired_rules.placeable(found, json.loads(found.report))
        paired_rules.free_board(round_number, board, paired.results.get((round_number, board)),
                         paired.on_board(round_number, board), number)  # fmt: skip
        paired_rules.withdrawn_seat(withdrawal_forfeit(paired, round_number, first, second),
                                    None, round_number, board)  # fmt: skip
        names = board_names(paired, first, second)
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
