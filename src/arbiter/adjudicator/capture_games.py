"""The base of the two capture games, Pilo and Petrify: turns, the pie rule, passing, the end.

Implements the sections "Turns", "End of the game", "Scoring" and "Tie-break" that
``spec/rules/pilo.md`` and ``spec/rules/petrify.md`` have in common (the scoring itself is
in :mod:`arbiter.adjudicator.patch_scoring`). The two games differ only in how a capture
moves (directions, Pilo's equal heights, Petrify's mounds and barricades) and in what a
square may hold; :mod:`~arbiter.adjudicator.pilo` and :mod:`~arbiter.adjudicator.petrify`
supply those parts through the hooks of :class:`CaptureRules`.

A board is a flat tuple indexed by ``rank * size + file`` whose cells are the Setup letters
of the square, bottom to top: ``""`` empty, else a block or a one-coloured stack (in Pilo
``"bbb"`` is a Blue stack of height 3). Keeping the notation's own letters makes
:meth:`CaptureRules.position` a slice and keeps every cell a small immutable string. The
letters and colours are each game's, from its description, as :class:`Pieces`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Final, NamedTuple

from arbiter.adjudicator.base import Outcome, Rules, check_pie
from arbiter.adjudicator.board import Direction, geometry, point_index
from arbiter.adjudicator.patch_scoring import (
    BLUE,
    ORANGE,
    Pieces,
    patch_details,
    score_patches,
    scores,
    tiebreak,
)
from arbiter.notation.ast import (
    Capture,
    Grid,
    Move,
    Pass,
    Place,
    Swap,
    tuple_of,
    tuple_replacer,
)
from arbiter.notation.errors import IllegalMoveError

__all__ = ["BLUE", "ORANGE", "CaptureRules", "CaptureState", "Pieces", "score_patches"]

EMPTY: Final = ""
_OF: Final[Any] = tuple_of()
"""``ast.tuple_of()``: a named tuple built from values given as arguments (one per ply here),
held in a constant of this module, which compiled code reads from a static."""
GAME_OVER = "the game is over (both players passed)"


class CaptureState(NamedTuple):
    """A position and the few facts of its history that the rules need.

    A named tuple: immutable like a frozen dataclass, and several times cheaper to build,
    which matters since a replay builds one per move.

    ``turn`` is the colour to move, kept apart from ``ply`` because a swap does not change it.
    ``empty`` counts the empty squares so that a pass is checked without scanning the board.
    ``last_play`` is the colour of the last placement or capture (None before any), which
    decides a tie.
    """

    size: int
    board: tuple[str, ...]
    turn: int = BLUE
    ply: int = 0
    passes: int = 0
    last_play: int | None = None
    empty: int = 0


_REPLACED: Final[Any] = tuple_replacer()
"""``ast.tuple_replacer()``: a board copied once with the squares a move changed."""
_STATE: Final[type[CaptureState]] = CaptureState
"""``CaptureState`` as a constant: compiled code looks a class that is not compiled up in
the module's globals at every use (here, every ply), and reads a constant from a static."""


class CaptureRules(Rules[CaptureState]):
    """The rules Pilo and Petrify share. Subclasses set the class attributes and the hooks.

    Hooks: :meth:`_square_fault` (what a Setup square may hold), :meth:`_board_fault` (a
    Setup that breaks a rule as a whole), :meth:`_may_leave` (whether a capture may leave
    its origin), :meth:`_may_take` (whether the moving piece may take that enemy piece),
    each with a ``_why_not_...`` twin that words the refusal, and :meth:`_landed` (what
    stands on the target square after a capture). The predicates are apart from their
    wording so that move generation and the pass check never build a message.
    """

    pieces: Pieces  # the game's colours and letters, from its description
    directions: ClassVar[tuple[Direction, ...]]
    piece: ClassVar[str]  # "stack" or "disk", for messages
    lines: ClassVar[str]  # "one row or column", for messages

    def to_move(self, state: CaptureState) -> str:
        return self.pieces.colours[state.turn]

    def position(self, state: CaptureState) -> Grid:
        return geometry(state.size).grid(state.board)

    def details(self, state: CaptureState) -> dict[str, Any]:
        """The patch count of the board as it stands (what the score would be if the game
        ended now), in the form of ``Outcome.details``."""
        patches = score_patches(state.board, state.size, self.pieces)
        return patch_details(patches, state.size, self.pieces.colours)

    # The interface's parts -----------------------------------------------------------------

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> CaptureState:
        board = (EMPTY,) * (size * size) if cells is None else self._checked(cells, size)
        return CaptureState(size=size, board=board, empty=board.count(EMPTY))

    def _game_over(self, state: CaptureState) -> str | None:
        return GAME_OVER if state.passes >= 2 else None

    def _outcome(self, state: CaptureState) -> Outcome:
        """The patch scores and, if they tie, the tie-break."""
        colours = self.pieces.colours
        patches = score_patches(state.board, state.size, self.pieces)
        blue, orange = scores(patches)
        decided_by = None
        if blue != orange:
            winner = BLUE if blue > orange else ORANGE
        else:
            winner, decided_by = tiebreak(state.last_play, blue, colours)
        return Outcome(
            winner=colours[winner],
            scores={colours[BLUE]: blue, colours[ORANGE]: orange},
            tiebreak=decided_by,
            details=patch_details(patches, state.size, colours),
        )

    def _legal_moves(self, state: CaptureState) -> Iterator[Move]:
        """Placements (a1, b1, ... rank by rank), captures (by origin, direction, distance),
        then pass if there was no board play, then swap on the second turn."""
        played = False
        for move in self._board_plays(state):
            played = True
            yield move
        if not played:
            yield Pass()
        if state.ply == 1:
            yield Swap()

    # Hooks ---------------------------------------------------------------------------------

    def _square_fault(self, cell: str) -> str | None:
        """Why a Setup square cannot hold ``cell`` (None if it can)."""
        return None

    def _board_fault(self, board: tuple[str, ...], size: int) -> str | None:
        """Why a Setup board cannot arise as a whole (None if it can)."""
        return None

    def _may_leave(self, board: tuple[str, ...], size: int, origin: int) -> bool:
        """Whether a capture may leave a block on ``origin``."""
        return True

    def _why_not_leave(self, board: tuple[str, ...], size: int, origin: int) -> str:
        """Why :meth:`_may_leave` is false."""
        raise NotImplementedError

    def _may_take(self, mover: str, enemy: str) -> bool:
        """Whether the piece ``mover`` may capture the enemy piece ``enemy``."""
        return True

    def _why_not_take(self, board: tuple[str, ...], size: int, origin: int, target: int) -> str:
        """Why :meth:`_may_take` is false for the pieces on ``origin`` and ``target``."""
        raise NotImplementedError

    def _landed(self, mover: str) -> str:
        """What stands on the target square after ``mover`` captured there."""
        raise NotImplementedError

    # Moves ---------------------------------------------------------------------------------

    def _place(self, state: CaptureState, move: Place) -> CaptureState:
        at = move.at
        i = point_index(at, state.size)
        board = state.board
        cell = board[i]
        if cell:
            raise IllegalMoveError(f"{at} is occupied by {self._describe(cell)}")
        after: tuple[str, ...] = _REPLACED(board, i, self.pieces.disks[state.turn])
        return self._next(state, after, empty=state.empty - 1)

    def _capture(self, state: CaptureState, move: Capture) -> CaptureState:
        size = state.size
        origin, target = point_index(move.origin, size), point_index(move.target, size)
        fault = self._capture_fault(state, origin, target)
        if fault:
            raise IllegalMoveError(f"{move}: {fault}")
        board = state.board
        landed = self._landed(board[origin])
        after: tuple[str, ...] = _REPLACED(board, target, landed, origin, self.pieces.block)
        return self._next(state, after, empty=state.empty)

    def _pass(self, state: CaptureState, move: Pass) -> CaptureState:
        play = self._first_board_play(state)
        if play is not None:
            raise IllegalMoveError(f"cannot pass: a board play is available (e.g. {play})")
        return state._replace(turn=1 - state.turn, ply=state.ply + 1, passes=state.passes + 1)

    def _swap(self, state: CaptureState, move: Swap) -> CaptureState:
        # The players exchange colours; in colour terms the same colour moves again, and a
        # swap is a turn, so it also ends any run of passes.
        check_pie(state.ply)
        return state._replace(ply=2, passes=0)

    def _next(self, state: CaptureState, board: tuple[str, ...], *, empty: int) -> CaptureState:
        """The state after a board play by the colour to move."""
        after: CaptureState = _OF(
            _STATE, state.size, board, 1 - state.turn, state.ply + 1, 0, state.turn, empty
        )
        return after

    def _board_plays(self, state: CaptureState) -> Iterator[Place | Capture]:
        """Every placement, then every capture, of the colour to move."""
        board, n = state.board, state.size
        names = geometry(n).points
        if state.empty:
            for i, cell in enumerate(board):
                if not cell:
                    yield Place(names[i])
        mine, rays = self.pieces.disks[state.turn], geometry(n).rays(self.directions)
        for origin, cell in enumerate(board):
            if cell[:1] == mine:
                for target in self._targets(board, n, origin, rays[origin], 1 - state.turn):
                    yield Capture(names[origin], names[target])

    def _first_board_play(self, state: CaptureState) -> Place | Capture | None:
        """The first move :meth:`_board_plays` would give, or None: what a pass must not
        have. A plain loop, not the generator, since every pass of every replay asks (and
        at the end of a game, when a board is full, every stack's lines are looked at)."""
        board, n = state.board, state.size
        names = geometry(n).points
        if state.empty:
            return Place(names[board.index(EMPTY)])
        mine, rays = self.pieces.disks[state.turn], geometry(n).rays(self.directions)
        for origin, cell in enumerate(board):
            if cell[:1] == mine:
                targets = self._targets(board, n, origin, rays[origin], 1 - state.turn)
                if targets:
                    return Capture(names[origin], names[targets[0]])
        return None

    def _targets(
        self,
        board: tuple[str, ...],
        n: int,
        origin: int,
        rays: tuple[tuple[int, ...], ...],
        enemy: int,
    ) -> list[int]:
        """The squares the mover's piece on ``origin`` may capture on, one per direction of
        ``rays`` (the origin's) at most: along each the first enemy piece, unless a block or
        the rules stop it."""
        if not self._may_leave(board, n, origin):
            return []
        theirs, block = self.pieces.disks[enemy], self.pieces.block
        cell = board[origin]
        found: list[int] = []
        for ray in rays:
            for target in ray:
                there = board[target]
                if there[:1] == theirs:
                    if self._may_take(cell, there):
                        found.append(target)
                    break
                if there == block:
                    break
        return found

    def _capture_fault(self, state: CaptureState, origin: int, target: int) -> str | None:
        """Why moving from ``origin`` to ``target`` is no legal capture (None if it is). The
        squares' names are looked up only for a refusal."""
        board, n = state.board, state.size
        disks, block = self.pieces.disks, self.pieces.block
        mine, theirs = disks[state.turn], disks[1 - state.turn]
        if origin == target:
            return f"a {self.piece} must move to another square"
        if board[origin][:1] != mine:
            return self._origin_problem(board[origin], geometry(n).names[origin], state.turn)
        if board[target][:1] != theirs:
            return self._target_problem(board[target], geometry(n).names[target])
        step = self._step(origin, target, n)
        if step is None:
            names = geometry(n).names
            return f"{names[origin]} and {names[target]} are not on {self.lines}"
        for between in range(origin + step, target, step):
            cell = board[between]
            if cell == block or cell[:1] == theirs:
                return f"{self._describe(cell)} on {geometry(n).names[between]} is in the way"
        if not self._may_take(board[origin], board[target]):
            return self._why_not_take(board, n, origin, target)
        if not self._may_leave(board, n, origin):
            return self._why_not_leave(board, n, origin)
        return None

    def _step(self, origin: int, target: int, size: int) -> int | None:
        """The index step from ``origin`` towards ``target`` if they share a line of play."""
        rank_gap, file_gap = target // size - origin // size, target % size - origin % size
        if rank_gap and file_gap and abs(rank_gap) != abs(file_gap):
            return None
        unit = (_sign(file_gap), _sign(rank_gap))
        return unit[1] * size + unit[0] if unit in self.directions else None

    def _origin_problem(self, cell: str, square: str, turn: int) -> str:
        if not cell or cell == self.pieces.block:
            return f"{square} {'is empty' if not cell else 'holds a block'}"
        colours = self.pieces.colours
        return (
            f"the {self.piece} on {square} is {colours[1 - turn]}'s, and {colours[turn]} is to move"
        )

    def _target_problem(self, cell: str, square: str) -> str:
        if not cell:
            return f"{square} is empty, and a move must end on an enemy {self.piece}"
        if cell == self.pieces.block:
            return f"{square} holds a block, and a move must end on an enemy {self.piece}"
        return f"the {self.piece} on {square} is the mover's own"

    def _describe(self, cell: str) -> str:
        """``cell`` in words: "a block", "a Blue stack"."""
        if cell == self.pieces.block:
            return "a block"
        colour = self.pieces.colours[self.pieces.disks.index(cell[0])]
        return f"{'an' if colour[0] in 'AEIOU' else 'a'} {colour} {self.piece}"

    # Setup ---------------------------------------------------------------------------------

    def _checked(self, board: tuple[str, ...], size: int) -> tuple[str, ...]:
        """``board`` if every square and the whole can arise in play; raises ``ValueError``."""
        names = geometry(size).names
        for i, cell in enumerate(board):
            fault = self._square_fault(cell) if cell else None
            if fault:
                raise ValueError(f"{names[i]}: {fault}")
        fault = self._board_fault(board, size)
        if fault:
            raise ValueError(fault)
        return board


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
