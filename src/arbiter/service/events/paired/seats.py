"""Where the records uploaded to a paired event stand: each finds its board by its round
and its players' names, and takes it, so that a second record of the same board finds it
taken (``spec/pairings.md`` §7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arbiter.notation.games import find_game
from arbiter.service.events import storage
from arbiter.service.events.actions import AS_PAIRED, Placement
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.boards import BoardGuide, takes
from arbiter.service.events.paired.state import Paired, read_paired, withdrawal_forfeit
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.storage import Tx

# --- where a record stands ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seats:
    """Where an upload's records of a paired event find their boards: the seating of the
    rules (players by name, boards by round, the boards taken) and the game's colours."""

    seating: paired_rules.Seating
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
    if paired.gone:  # a round robin's boards of a player who withdrew: forfeits already
        taken |= {
            (round_number, number)
            for round_number, facts in paired.pairings.items()
            for number, (first, second) in enumerate(facts.boards, 1)
            if withdrawal_forfeit(paired, round_number, first, second)
        }
    seating = paired_rules.Seating.of(
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
    where = paired_rules.placement(round_number, first, second, found.seating)
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


class UploadSeating:
    """Where the records of one upload to a paired event stand (:class:`Seats`), each
    taking its board in turn: the seating of :class:`~arbiter.service.events.kind.EventKind`
    for a paired event."""

    def __init__(self, tx: Tx, event: EventRow) -> None:
        self.seats = seats(tx, event)

    def guide(self) -> BoardGuide:
        """The event's boards as this upload leaves them, to tell a director what each
        record's names say (the warnings and suggestions of :mod:`.boards`)."""
        seating = self.seats.seating
        names = {number: name for name, number in seating.numbers.items()}
        return BoardGuide(names, seating.boards, seating.taken, self.seats.colours)

    def place(
        self,
        header: Mapping[str, Any] | None,
        round_number: int | None,
        report: Mapping[str, Any] | None,
        *,
        counts: bool,
        player: int | None,
    ) -> Placement:
        self.seats, where = place(
            self.seats, header, round_number, report, counts=counts, player=player
        )
        board_round, board, why = where
        return Placement(board_round, board, why, AS_PAIRED if why is None else None)


def board_still_free(tx: Tx, event: EventRow, row: RecordRow) -> None:
    """A record of a paired event counts (confirmed, or again) on its board only if no other
    record that counts nor a result of the director's took the board meanwhile."""
    if row.placement is not None or row.board_round is None or row.board is None:
        return
    given = storage.result_rows(tx, event.id)
    result = next(
        (r.result for r in given if (r.round, r.board) == (row.board_round, row.board)), None
    )
    standing = next(
        (
            other
            for other in storage.placed_records(tx, event.id)
            if takes(other) == (row.board_round, row.board) and other.number != row.number
        ),
        None,
    )
    paired_rules.free_board(row.board_round, row.board, result, standing, row.number)
