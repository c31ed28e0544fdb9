"""Implo: the rules engine, as stated in ``spec/rules/implo.md``.

A turn places a stone, then resolves every patch (an empty territory of at most four points)
in an order the mover chooses. The record says which choices were made (``d4/e5/a1:b2``);
this engine checks those choices, fills in the ones that are forced, refuses the ones left
open (``AmbiguousMoveError``), and remembers the fully written canonical form of each turn in
``State.last_move`` so that a writer can print it. The game's description is here; the
board mechanics are in :mod:`arbiter.adjudicator.implo_board`, the steps of a turn in
:mod:`arbiter.adjudicator.implo_turn`, which take its letters from :data:`PIECES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.base import Outcome, Rules, check_pie
from arbiter.adjudicator.board import geometry, point_index
from arbiter.adjudicator.implo_board import (
    EMPTY,
    Pieces,
    deciding_size,
    marker_groups,
    place_stone,
    tables,
    territory,
)
from arbiter.adjudicator.implo_turn import TurnUnderWay, choice_sequences, write_steps
from arbiter.notation.ast import Grid, ImploPlace, Move, Place, Point, Swap, tuple_of
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import GameDescription, Piece

DESCRIPTION = GameDescription(
    name="Implo",
    colours=("Black", "White"),
    sizes=tuple(range(3, 20)),
    moves=("place", "swap"),
    pieces=(
        Piece("b", "black stone"),
        Piece("w", "white stone"),
        Piece("B", "black marker"),
        Piece("W", "white marker"),
    ),
    resolve=True,
    board="points",
)
PIECES: Final = Pieces(DESCRIPTION)
"""The description's colours and piece codes, as the board mechanics and the turn take
them."""
COLOURS: Final = PIECES.colours
STONES: Final = PIECES.stones
MARKERS: Final = PIECES.markers
GAME_OVER = "the game is over (the board is full)"


class State(NamedTuple):
    """A position between turns. Never holds a patch: every turn resolves them all.

    A named tuple: immutable, and several times cheaper to build than a frozen dataclass
    (one is built per turn of every replay).

    ``board`` holds a code per point (see ``implo_board``: 0 empty, then the description's
    pieces in order); ``mover`` is the index in ``COLOURS`` of the colour to move; ``ply``
    counts the turns played (a swap is a turn); ``empty`` counts the empty points, so that
    the end of the game is seen without a scan. ``last_move`` is the canonical, fully
    written form of the last turn (None at the start and after a swap); ``last_mover`` is
    the colour that played it.
    """

    size: int
    board: bytes
    mover: int = 0
    ply: int = 0
    empty: int = 0
    last_move: ImploPlace | None = None
    last_mover: int | None = None


_OF: Final[Any] = tuple_of()
"""``ast.tuple_of()``: a named tuple built from values given as arguments (one per ply here),
held in a constant of this module, which compiled code reads from a static."""
_STATE: Final[type[State]] = State
"""``State`` as a constant: compiled code looks a named tuple class up by name, each time."""


class ImploRules(Rules[State]):
    """Implo with the pie rule, under RULINGS.md (see ``spec/rules/implo.md``)."""

    description = DESCRIPTION

    def to_move(self, state: State) -> str:
        return COLOURS[state.mover]

    def play(self, state: State, move: Move) -> State:
        """``Rules.play``, with a placement sent straight to ``_place``: the same checks and
        result, without the handler's lookup and its call through a bound method (this runs
        once per ply of every replay)."""
        kind = type(move)
        if (kind is ImploPlace or kind is Place) and state.empty:
            assert isinstance(move, (ImploPlace, Place))
            return self._place(state, move)
        return super().play(state, move)

    def written(self, after: State, move: Move) -> Move:
        """``move`` as the canonical writer prints it, every resolution step written."""
        return after.last_move if after.last_move is not None and move.type == "place" else move

    def position(self, state: State) -> Grid:
        return geometry(state.size).grid(PIECES.cells(state.board))

    def details(self, state: State) -> dict[str, Any]:
        """Marker groups by colour and size, and stones by colour, as the game stands."""
        board = state.board
        stones = [_count(board, STONES[0]), _count(board, STONES[1])]
        return _figures(marker_groups(board, state.size, MARKERS), stones)

    # The interface's parts -----------------------------------------------------------------

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> State:
        """The empty board, or ``cells``; Black moves first either way.

        Raises ``ValueError`` for a setup no turn can start from: no empty point, or a
        patch."""
        board = bytes(size * size) if cells is None else _checked(PIECES.board(cells), size)
        return State(size, board, empty=board.count(EMPTY))

    def _game_over(self, state: State) -> str | None:
        return None if state.empty else GAME_OVER

    def _outcome(self, state: State) -> Outcome:
        """The winner of a full board (see ``spec/rules/implo.md``, "End")."""
        sizes = marker_groups(state.board, state.size, MARKERS)
        board = state.board
        stones = [_count(board, STONES[0]), _count(board, STONES[1])]
        figures = _figures(sizes, stones)
        size = deciding_size(sizes[0], sizes[1])  # not ``*sizes``: compiled, a generic call
        if size is not None:
            counts = [sizes[colour].get(size, 0) for colour in (0, 1)]
            winner, tiebreak = COLOURS[counts[1] > counts[0]], None
            decided_by = f"marker groups of size {size}"
        elif stones[0] != stones[1]:
            more = 1 if stones[1] > stones[0] else 0  # the colour with more stones
            winner = COLOURS[more]
            tiebreak = (
                f"marker groups tie at every size; {winner} has more stones on the "
                f"board ({stones[more]} to {stones[1 - more]})"
            )
            decided_by = "stones"
        else:
            assert state.last_mover is not None  # a finished game has had a turn
            winner = COLOURS[1 - state.last_mover]
            tiebreak = (
                f"marker groups and stones tie; {COLOURS[state.last_mover]} made the "
                "last turn and loses"
            )
            decided_by = "last mover"
        return Outcome(winner, None, tiebreak, {**figures, "decided_by": decided_by})

    def _legal_moves(self, state: State) -> Iterator[Move]:
        """Every placement with every choice sequence, canonically written, then ``swap``.

        Placements come in board order (a1, b1, ...); for each, the sequences come in the
        order of the patch chosen first (lowest point first), then of the group removed.
        If one placement has more than ``SEQUENCE_CAP`` sequences, it yields a bounded
        sample of them with distinct results instead (every yielded move is still legal)."""
        points = geometry(state.size).points
        for at, cell in enumerate(state.board):
            if cell == EMPTY:
                for steps in choice_sequences(_placed(state, at)):
                    yield ImploPlace(points[at], steps)
        if state.ply == 1:
            yield Swap()

    def _place(self, state: State, move: Place | ImploPlace) -> State:
        """The state after a placement and its resolution steps; ``last_move`` of the result
        is the canonical form of ``move``.

        Raises ``IllegalMoveError`` for an occupied or off-board point, a step that names
        no patch or a wrong group; ``AmbiguousMoveError`` if the written steps leave a
        choice open (more than one patch remains, or biggest groups are tied)."""
        # This runs once per ply of every record replayed, so it is written out flat; the
        # common turn (nothing to resolve, nothing written) builds its state at once.
        size, point = state.size, move.at
        at = point_index(point, size)
        board = state.board
        if board[at]:
            raise IllegalMoveError(f"{point} is occupied (by {PIECES.names[board[at]]})")
        mover = state.mover
        # The next board, unless a patch is resolved: one block of memory copied.
        placed, pending = place_stone(board, size, at, STONES[mover])
        steps = move.resolve if type(move) is ImploPlace else ()
        # A move whose steps are all kept as written is equal to its canonical form: it is
        # that form, unless a class differs (dataclass equality compares classes).
        exact = type(move) is ImploPlace and type(point) is Point and type(steps) is tuple
        if not (pending or steps):
            canonical = (
                move
                if exact and isinstance(move, ImploPlace)
                else ImploPlace(tables(size).points[at])
            )
            after: State = _OF(
                _STATE, size, placed, 1 - mover, state.ply + 1, state.empty - 1, canonical, mover
            )
            return after
        turn = TurnUnderWay(PIECES, size, bytearray(placed), pending, mover, at, [])
        kept = write_steps(turn, steps)
        turn.finish()  # the record stops here: only forced steps may be left out
        exact = exact and kept == len(turn.steps)
        canonical = move if exact and isinstance(move, ImploPlace) else turn.move()
        empty = state.empty - 1 + turn.freed
        after = _OF(
            _STATE, size, bytes(turn.cells), 1 - mover, state.ply + 1, empty, canonical, mover
        )
        return after

    def _swap(self, state: State, move: Swap) -> State:
        """The pie rule: only as ply 2; no piece changes and White (the second colour) moves
        again, now played by the other player."""
        check_pie(state.ply)
        return state._replace(ply=2, last_move=None, last_mover=state.mover)


def _placed(state: State, at: int) -> TurnUnderWay:
    """The turn just after the mover's stone lands on the empty point ``at``."""
    placed, pending = place_stone(state.board, state.size, at, STONES[state.mover])
    return TurnUnderWay(PIECES, state.size, bytearray(placed), pending, state.mover, at, [])


def _count(board: bytes, code: int) -> int:
    """How many points of ``board`` hold ``code``."""
    return board.count(code)


def _figures(sizes: tuple[dict[int, int], dict[int, int]], stones: list[int]) -> dict[str, Any]:
    """Marker groups per colour by size (sizes as strings, ascending) and ``stones`` (the
    stones of each colour, by colour) by colour name."""
    groups = {COLOURS[0]: _by_size(sizes[0]), COLOURS[1]: _by_size(sizes[1])}
    return {"marker_groups": groups, "stones": {COLOURS[0]: stones[0], COLOURS[1]: stones[1]}}


def _by_size(counts: dict[int, int]) -> dict[str, int]:
    """``counts`` by size, ascending, the sizes as strings (as JSON writes keys)."""
    return {str(size): counts[size] for size in sorted(counts)}


def _checked(board: bytes, size: int) -> bytes:
    """``board`` if a turn can start from it. Raises ``ValueError`` if not."""
    if EMPTY not in board:
        raise ValueError("the setup has no empty point: no turn can be played")
    table = geometry(size)
    for index, cell in enumerate(board):
        if cell == EMPTY and territory(board, table.neighbours, index) is not None:
            raise ValueError(
                f"the setup has a patch at {table.names[index]}: a turn never "
                "starts with a territory of 4 points or fewer"
            )
    return board
