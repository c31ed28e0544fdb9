"""What a director is told of a record and the boards of a paired event
(``spec/pairings.md`` §8): the names a record found its board by after folding them (a
warning that says what was folded), the names the director took as a board's players, and,
for a record that stands on no board, the boards it fits best (``suggestions``), each placed
in one click on the desk.

Read with the records, from the event's players, pairings, board results and placed
records (:func:`guide`); nothing here writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.notation.games import find_game
from arbiter.service.events.actions import AS_PAIRED, REVERSED, SEATS, PairingFacts
from arbiter.service.events.common import ACCEPTED, EXCLUDED, DamagedRow
from arbiter.service.events.kind import Told
from arbiter.service.events.names import folded_words, likeness, name_key
from arbiter.service.events.rows import PairingRow, RecordRow
from arbiter.service.events.views import BoardSuggestion, RecordWarning

__all__ = [
    "MOST_SUGGESTED",
    "BoardGuide",
    "pairing_facts",
    "seats_by_names",
    "seats_of",
    "takes",
]

MOST_SUGGESTED = 3
"""The boards suggested for a record that stands on none, best first."""
SAME_ROUND_LIKENESS = 0.25
"""How alike a record's names and a board's players must be (0 to 1) for a board of the
record's own round to be suggested: one of the two right is enough."""
OTHER_ROUND_LIKENESS = 0.6
"""The same for a board of another round (a record whose Round tag is wrong): both names
close."""


@dataclass(frozen=True, slots=True)
class BoardGuide:
    """A paired event's boards as a record is compared with them: the players' names by
    pairing number, each round's boards, the boards that have a result or a record, and the
    game's colours."""

    names: Mapping[int, str]
    boards: Mapping[int, tuple[tuple[int, int], ...]]
    taken: frozenset[tuple[int, int]]
    colours: tuple[str, str]

    def written(self, header: Mapping[str, Any]) -> tuple[str, str]:
        """A record's names in the order of the game's colours (first colour first)."""
        players = header.get("players") or {}
        return (str(players.get(self.colours[0]) or ""), str(players.get(self.colours[1]) or ""))

    def suggestions(
        self, header: Mapping[str, Any], round_number: int | None
    ) -> tuple[BoardSuggestion, ...]:
        """The free boards a record with ``header`` of ``round_number`` fits best: those of
        its round whose players' names are like its names (either seated either way), and
        those of other rounds like both; best first, at most :data:`MOST_SUGGESTED`."""
        first, second = self.written(header)
        found = []
        for number, boards in self.boards.items():
            least = SAME_ROUND_LIKENESS if number == round_number else OTHER_ROUND_LIKENESS
            for board, (a, b) in enumerate(boards, 1):
                if (number, board) in self.taken:
                    continue
                names = self.names.get(a, ""), self.names.get(b, "")
                straight = (likeness(first, names[0]) + likeness(second, names[1])) / 2
                crossed = (likeness(first, names[1]) + likeness(second, names[0])) / 2
                score = max(straight, crossed)
                if score < least:
                    continue
                seats = REVERSED if crossed > straight else AS_PAIRED
                rank = score + (0.5 if number == round_number else 0.0)
                found.append((rank, BoardSuggestion(number, board, names[0], names[1], a, b,
                                                    seats, round(score, 2))))  # fmt: skip
        found.sort(key=lambda one: (-one[0], one[1].round, one[1].board))
        return tuple(one for _, one in found[:MOST_SUGGESTED])

    def warnings(
        self, header: Mapping[str, Any], board_round: int, board: int, seats: str
    ) -> tuple[RecordWarning, ...]:
        """What a director should know of a record that stands on a board under names other
        than its players': each name found after folding (``names-folded``, saying what
        was folded), or taken as a player's by the director (``names-taken``)."""
        pairing = self.boards.get(board_round, ())
        if not 1 <= board <= len(pairing):
            return ()
        a, b = pairing[board - 1]
        seated = (a, b) if seats == AS_PAIRED else (b, a)
        said: list[str] = []
        taken = False
        for colour, written, number in zip(self.colours, self.written(header), seated, strict=True):
            known = self.names.get(number, "")
            if written == known:
                continue
            if name_key(written) == name_key(known):
                said.append(f"its {colour} {written!r} is {known} ({folded_words(written, known)})")
            else:
                taken = True
                said.append(f"its {colour} {written!r} is taken as {known}")
        if not said:
            return ()
        if taken:
            return (RecordWarning("names-taken", "the director placed it: " + "; ".join(said)),)
        return (RecordWarning("names-folded", "found its board by names written otherwise: "
                              + "; ".join(said)),)  # fmt: skip

    def told(self, row: RecordRow, header: Mapping[str, Any] | None) -> Told:
        """What the guide says of the record of ``row``: its names' warnings where it stands
        on a board, or the boards it fits best where it stands on none (an excluded record,
        one that could not be read, or one of another game has neither)."""
        if header is None or row.status == EXCLUDED:
            return (), ()
        if row.placement is None and row.board_round is not None and row.board is not None:
            board = self.boards.get(row.board_round, ())
            if not 1 <= row.board <= len(board):
                return (), ()
            a, b = board[row.board - 1]
            seats = seats_of(row, header, (self.names.get(a, ""), self.names.get(b, "")))
            return self.warnings(header, row.board_round, row.board, seats), ()
        if row.placement is not None:
            return (), self.suggestions(header, row.round)
        return (), ()


def seats_by_names(header: Mapping[str, Any], board: tuple[str, str]) -> str:
    """How a record with ``header`` sits on a board of players named ``board`` (first
    seat, second), by the names alone: reversed when its names come closer to the board's
    the other way round (its first colour named as the second seat's player), else as
    paired."""
    colours = find_game(header["game"]).colours
    players = header.get("players") or {}
    first, second = (str(players.get(colour) or "") for colour in colours[:2])
    straight = likeness(first, board[0]) + likeness(second, board[1])
    crossed = likeness(first, board[1]) + likeness(second, board[0])
    return REVERSED if crossed > straight else AS_PAIRED


def seats_of(row: RecordRow, header: Mapping[str, Any], board: tuple[str, str]) -> str:
    """How the players of the record of ``row`` (read: ``header``) sit on the board it
    stands on, whose players are named ``board`` (first seat, second): as kept when it was
    placed; for a record placed before seats were kept, as its names say
    (:func:`seats_by_names`)."""
    if row.seats in SEATS:
        return row.seats
    return seats_by_names(header, board)


def takes(row: RecordRow) -> tuple[int, int] | None:
    """The board (round, number) the record of ``row`` takes: the one it stands on, if it
    counts there. A record that waits for the director's confirmation takes none: a record
    that counts may stand there too, and the board is the counting one's."""
    if row.placement is None and row.status == ACCEPTED and row.board_round and row.board:
        return row.board_round, row.board
    return None


def pairing_facts(row: PairingRow) -> PairingFacts:
    """The facts of a round's pairing row; :class:`~.common.DamagedRow` when its boards or
    byes are not what a pairing keeps."""
    try:
        return PairingFacts.of(row)
    except (ValueError, TypeError, KeyError) as err:
        raise DamagedRow(
            row.event_id,
            "pairings",
            f"round {row.round}",
            f"its boards or byes are not a pairing's ({type(err).__name__}: {err})",
        ) from None
