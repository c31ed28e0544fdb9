"""What Pilo and Petrify share: the turn structure, the pie rule, passing, and patch scoring.

Implements the sections "Turns", "End of the game", "Scoring" and "Tie-break" that
``spec/rules/pilo.md`` and ``spec/rules/petrify.md`` have in common. The two games differ only in
how a capture moves (directions, Pilo's equal heights, Petrify's mounds and barricades) and in
what a square may hold; :mod:`adjudicator.pilo` and :mod:`adjudicator.petrify` supply those
parts through the hooks of :class:`PatchRules`.

A board is a flat tuple indexed by ``rank * size + file`` whose cells are the Setup letters of
the square, bottom to top: ``""`` empty, ``"x"`` a block, ``"bbb"`` a Blue stack of height 3.
Keeping the notation's own letters makes :meth:`PatchRules.position` a slice and keeps every
cell a small immutable string.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from adjudicator.base import Outcome, Rules
from notation.ast import Capture, Grid, Move, Pass, Place, Point, Swap
from notation.errors import IllegalMoveError
from notation.games import find_game

BLUE, ORANGE = 0, 1
COLOURS = ("Blue", "Orange")
LETTERS = ("b", "o")  # the disk letter of each colour, as in the Setup notation
BLOCK = "x"
EMPTY = ""
GAME_OVER = "the game is over (both players passed)"

Direction = tuple[int, int]  # (file step, rank step)


class PatchState(NamedTuple):
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


class PatchResult(NamedTuple):
    """One patch at the end: its first square (index), its size, owner and deciding group.

    ``group`` is the size of the biggest group left after pair removal (0 if none is left,
    and then ``owner`` is None)."""

    at: int
    size: int
    owner: int | None
    group: int


S = TypeVar("S", bound=PatchState)


class PatchRules(Rules, Generic[S]):
    """The rules Pilo and Petrify share. Subclasses set the class attributes and the hooks.

    Hooks: :meth:`_square_fault` (what a Setup square may hold), :meth:`_board_fault` (a Setup
    that breaks a rule as a whole), :meth:`_may_leave` (whether a capture may leave its
    origin), :meth:`_may_take` (whether the moving piece may take that enemy piece), each with
    a ``_why_not_...`` twin that words the refusal, and :meth:`_landed` (what stands on the
    target square after a capture). The predicates are apart from their wording so that move
    generation and the pass check never build a message.
    """

    colours = COLOURS
    directions: ClassVar[tuple[Direction, ...]]
    piece: ClassVar[str]  # "stack" or "disk", for messages
    lines: ClassVar[str]  # "one row or column", for messages
    state_type: type[S]  # the game's own State class

    def initial_state(self, size: int, *, komi: int | None = None,
                      setup: Grid | None = None) -> S:
        """The empty board, or ``setup``; Blue to move either way.

        Raises ``ValueError`` for a size the game does not have, a komi, or a setup that is
        not a position of the game (wrong shape, or a square that cannot hold what it holds)."""
        if komi is not None:
            raise ValueError(f"{self.name} has no komi")
        if size not in find_game(self.name).sizes:
            raise ValueError(f"{self.name} is not played on a {size}×{size} board")
        board = (EMPTY,) * (size * size) if setup is None else self._setup_board(setup, size)
        return self.state_type(size=size, board=board, empty=board.count(EMPTY))

    def to_move(self, state: S) -> str:
        return COLOURS[state.turn]

    def legal_moves(self, state: S) -> Iterator[Move]:
        """Placements (a1, b1, ... rank by rank), captures (by origin, direction, distance),
        then pass if there was no board play, then swap on the second turn."""
        if state.passes >= 2:
            return
        played = False
        for move in self._board_plays(state):
            played = True
            yield move
        if not played:
            yield Pass()
        if state.ply == 1:
            yield Swap()

    def play(self, state: S, move: Move) -> S:
        """The state after ``move``. Raises ``IllegalMoveError`` saying why it is not legal."""
        if state.passes >= 2:
            raise IllegalMoveError(GAME_OVER)
        if isinstance(move, Place):
            return self._place(state, move.at)
        if isinstance(move, Capture):
            return self._capture(state, move)
        if isinstance(move, Pass):
            return self._pass(state)
        if isinstance(move, Swap):
            return self._swap(state)
        raise IllegalMoveError(f"{str(move)!r} is not a {self.name} move")

    def outcome(self, state: S) -> Outcome | None:
        """None until two passes in a row; then the patch scores and, if tied, the tie-break."""
        if state.passes < 2:
            return None
        patches = score_patches(state.board, state.size)
        scores = _scores(patches)
        tiebreak = None
        if scores[BLUE] != scores[ORANGE]:
            winner = BLUE if scores[BLUE] > scores[ORANGE] else ORANGE
        else:
            winner, tiebreak = _tiebreak(state.last_play, scores[BLUE])
        return Outcome(winner=COLOURS[winner], scores=dict(zip(COLOURS, scores, strict=True)),
                       tiebreak=tiebreak, details=patch_details(patches, state.size))

    def position(self, state: S) -> Grid:
        n = state.size
        return tuple(state.board[rank * n:(rank + 1) * n] for rank in range(n))

    def details(self, state: S) -> dict[str, Any]:
        """The patch count of the board as it stands (what the score would be if the game
        ended now), in the form of ``Outcome.details``."""
        return patch_details(score_patches(state.board, state.size), state.size)

    # Hooks -----------------------------------------------------------------------------

    def _square_fault(self, cell: str) -> str | None:
        """Why a Setup square cannot hold ``cell`` (None if it can)."""
        raise NotImplementedError

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

    def _why_not_take(self, board: tuple[str, ...], size: int, origin: int,
                      target: int) -> str:
        """Why :meth:`_may_take` is false for the pieces on ``origin`` and ``target``."""
        raise NotImplementedError

    def _landed(self, mover: str) -> str:
        """What stands on the target square after ``mover`` captured there."""
        raise NotImplementedError

    # Moves -----------------------------------------------------------------------------

    def _place(self, state: S, at: Point) -> S:
        i = _index(at, state.size)
        cell = state.board[i]
        if cell:
            raise IllegalMoveError(f"{at} is occupied by {self._describe(cell)}")
        board = state.board[:i] + (LETTERS[state.turn],) + state.board[i + 1:]
        return self._next(state, board, empty=state.empty - 1)

    def _capture(self, state: S, move: Capture) -> S:
        n = state.size
        origin, target = _index(move.origin, n), _index(move.target, n)
        fault = self._capture_fault(state, origin, target)
        if fault:
            raise IllegalMoveError(f"{move}: {fault}")
        board = list(state.board)
        board[target] = self._landed(board[origin])
        board[origin] = BLOCK
        return self._next(state, tuple(board), empty=state.empty)

    def _pass(self, state: S) -> S:
        play = next(self._board_plays(state), None)
        if play is not None:
            raise IllegalMoveError(f"cannot pass: a board play is available (e.g. {play})")
        return self.state_type(
            size=state.size, board=state.board, turn=1 - state.turn, ply=state.ply + 1,
            passes=state.passes + 1, last_play=state.last_play, empty=state.empty)

    def _swap(self, state: S) -> S:
        # The players exchange colours; in colour terms the same colour moves again, and a
        # swap is a turn, so it also ends any run of passes.
        if state.ply != 1:
            raise IllegalMoveError("swap is only legal as the second turn")
        return self.state_type(
            size=state.size, board=state.board, turn=state.turn, ply=2, passes=0,
            last_play=state.last_play, empty=state.empty)

    def _next(self, state: S, board: tuple[str, ...], *, empty: int) -> S:
        """The state after a board play by the colour to move."""
        return self.state_type(state.size, board, 1 - state.turn, state.ply + 1, 0, state.turn,
                               empty)

    def _board_plays(self, state: S) -> Iterator[Place | Capture]:
        """Every placement, then every capture, of the colour to move."""
        board, n = state.board, state.size
        names = points(n)
        if state.empty:
            for i, cell in enumerate(board):
                if not cell:
                    yield Place(names[i])
        mine, theirs = LETTERS[state.turn], LETTERS[1 - state.turn]
        all_rays = rays(n, self.directions)
        for origin, cell in enumerate(board):
            if cell[:1] != mine or not self._may_leave(board, n, origin):
                continue
            for ray in all_rays[origin]:
                for target in ray:
                    found = board[target]
                    if found[:1] == theirs:
                        if self._may_take(cell, found):
                            yield Capture(names[origin], names[target])
                        break
                    if found == BLOCK:
                        break

    def _capture_fault(self, state: S, origin: int, target: int) -> str | None:
        """Why moving from ``origin`` to ``target`` is no legal capture (None if it is)."""
        board, n = state.board, state.size
        mine, theirs = LETTERS[state.turn], LETTERS[1 - state.turn]
        if origin == target:
            return f"a {self.piece} must move to another square"
        if board[origin][:1] != mine:
            return self._origin_problem(board[origin], origin, n, state.turn)
        if board[target][:1] != theirs:
            return self._target_problem(board[target], target, n)
        step = self._step(origin, target, n)
        if step is None:
            return f"{square_name(origin, n)} and {square_name(target, n)} are not on {self.lines}"
        for between in range(origin + step, target, step):
            cell = board[between]
            if cell == BLOCK or cell[:1] == theirs:
                return f"{self._describe(cell)} on {square_name(between, n)} is in the way"
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

    def _origin_problem(self, cell: str, origin: int, size: int, turn: int) -> str:
        square = square_name(origin, size)
        if not cell or cell == BLOCK:
            return f"{square} {'is empty' if not cell else 'holds a block'}"
        return (f"the {self.piece} on {square} is {COLOURS[1 - turn]}'s, "
                f"and {COLOURS[turn]} is to move")

    def _target_problem(self, cell: str, target: int, size: int) -> str:
        square = square_name(target, size)
        if not cell:
            return f"{square} is empty, and a move must end on an enemy {self.piece}"
        if cell == BLOCK:
            return f"{square} holds a block, and a move must end on an enemy {self.piece}"
        return f"the {self.piece} on {square} is the mover's own"

    def _describe(self, cell: str) -> str:
        """``cell`` in words: "a block", "a Blue stack"."""
        if cell == BLOCK:
            return "a block"
        return f"{'an Orange' if cell[0] == LETTERS[ORANGE] else 'a Blue'} {self.piece}"

    # Setup -----------------------------------------------------------------------------

    def _setup_board(self, setup: Grid, size: int) -> tuple[str, ...]:
        if len(setup) != size or any(len(rank) != size for rank in setup):
            raise ValueError(f"the setup is not a {size}×{size} board")
        board = tuple(cell for rank in setup for cell in rank)
        for i, cell in enumerate(board):
            fault = self._square_fault(cell) if cell else None
            if fault:
                raise ValueError(f"{square_name(i, size)}: {fault}")
        fault = self._board_fault(board, size)
        if fault:
            raise ValueError(fault)
        return board


# Scoring -------------------------------------------------------------------------------


def score_patches(board: tuple[str, ...], size: int) -> list[PatchResult]:
    """Every patch of ``board`` with its owner, in the order of their first squares.

    Group and patch sizes count squares, so a stack of any height adds one. Raises nothing."""
    neighbours = orthogonal_neighbours(size)
    label = [-1] * len(board)
    firsts: list[int] = []
    areas: list[int] = []
    for i, cell in enumerate(board):
        if cell != BLOCK and label[i] < 0:
            areas.append(_fill(i, neighbours, label, len(firsts),
                               lambda j: board[j] != BLOCK))
            firsts.append(i)
    groups = _group_sizes(board, neighbours, label, len(firsts))
    return [PatchResult(first, area, *_owner(*counts))
            for first, area, counts in zip(firsts, areas, groups, strict=True)]


def patch_details(patches: list[PatchResult], size: int) -> dict[str, Any]:
    """The JSON-ready ``Outcome.details``: per colour its score and the patches it owns,
    then the patches nobody owns (see "Outcome details" in the spec)."""
    scores = _scores(patches)
    out: dict[str, Any] = {
        colour: {"score": scores[c], "patches": [
            {"at": square_name(p.at, size), "size": p.size, "group": p.group}
            for p in patches if p.owner == c]}
        for c, colour in enumerate(COLOURS)}
    out["unowned"] = [{"at": square_name(p.at, size), "size": p.size}
                      for p in patches if p.owner is None]
    return out


def _scores(patches: list[PatchResult]) -> tuple[int, int]:
    blue = sum(p.size for p in patches if p.owner == BLUE)
    orange = sum(p.size for p in patches if p.owner == ORANGE)
    return blue, orange


def _group_sizes(board: tuple[str, ...], neighbours: tuple[tuple[int, ...], ...],
                 patch_of: list[int], count: int) -> list[tuple[Counter[int], Counter[int]]]:
    """Per patch, how many Blue and how many Orange groups it holds of each size."""
    groups: list[tuple[Counter[int], Counter[int]]] = [(Counter(), Counter())
                                                       for _ in range(count)]
    seen = [-1] * len(board)
    for i, cell in enumerate(board):
        if cell and cell != BLOCK and seen[i] < 0:
            letter = cell[0]
            area = _fill(i, neighbours, seen, 0, _coloured(board, letter))
            groups[patch_of[i]][LETTERS.index(letter)][area] += 1
    return groups


def _coloured(board: tuple[str, ...], letter: str) -> Callable[[int], bool]:
    """The test "square j holds a stack of the colour ``letter``", for :func:`_fill`."""
    return lambda j: board[j][:1] == letter


def _owner(blue: Counter[int], orange: Counter[int]) -> tuple[int | None, int]:
    """The owner after pair removal and the size of its biggest group left.

    Removing pairs of equal sizes leaves, at each size, only the colour that had more groups
    of that size; so the biggest group left is at the largest size where the counts differ."""
    for area in sorted(blue.keys() | orange.keys(), reverse=True):
        if blue[area] != orange[area]:
            return (BLUE if blue[area] > orange[area] else ORANGE), area
    return None, 0


def _tiebreak(last_play: int | None, score: int) -> tuple[int, str]:
    """The winner of a tie and the sentence that says why."""
    if last_play is None:
        # Only a Setup game can end with no board play; the Setup stands for a position
        # with Blue to move, as if Orange had just played (spec: "Tie-break").
        return BLUE, (f"scores tied at {score} and no board play was made; Orange counts as "
                      "having made the last one and loses")
    loser = COLOURS[last_play]
    return 1 - last_play, f"scores tied at {score}; {loser} made the last board play and loses"


def _fill(start: int, neighbours: tuple[tuple[int, ...], ...], label: list[int], value: int,
          inside: Callable[[int], bool]) -> int:
    """Label the orthogonally connected squares around ``start`` for which ``inside`` holds
    (and that have no label yet) with ``value``; return how many there are."""
    label[start] = value
    todo = [start]
    count = 0
    while todo:
        square = todo.pop()
        count += 1
        for other in neighbours[square]:
            if label[other] < 0 and inside(other):
                label[other] = value
                todo.append(other)
    return count


# Geometry ------------------------------------------------------------------------------


@cache
def orthogonal_neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each square, the indices of its orthogonal neighbours on the board."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return tuple(tuple(j for step in steps for j in _ray(i, size, step, 1))
                 for i in range(size * size))


@cache
def rays(size: int, directions: tuple[Direction, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, for each direction, the squares from the next one to the edge."""
    return tuple(tuple(_ray(i, size, d, size) for d in directions) for i in range(size * size))


@cache
def points(size: int) -> tuple[Point, ...]:
    """The Point of every index, so move generation does not build them again."""
    return tuple(Point(i % size, i // size) for i in range(size * size))


def _ray(start: int, size: int, direction: Direction, length: int) -> tuple[int, ...]:
    file, rank = start % size, start // size
    out = []
    for step in range(1, length + 1):
        f, r = file + step * direction[0], rank + step * direction[1]
        if not (0 <= f < size and 0 <= r < size):
            break
        out.append(r * size + f)
    return tuple(out)


def _index(point: Point, size: int) -> int:
    if not (0 <= point.file < size and 0 <= point.rank < size):
        raise IllegalMoveError(f"{point} is off the {size}×{size} board")
    return point.rank * size + point.file


def square_name(index: int, size: int) -> str:
    """The notation of square ``index`` (``"d4"``)."""
    return str(points(size)[index])


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
