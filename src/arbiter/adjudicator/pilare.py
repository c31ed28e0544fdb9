"""Pilare: sow a stack topped by your colour, one man per step; leave the opponent no move.

Implements ``spec/rules/pilare.md`` (which follows ``RULINGS.md``, section "Pilare"). Men are
never removed, so a position is just a stack per square, written bottom man first with the
Setup letters ``r`` (Red), ``b`` (Black) and ``n`` (neutral, nobody's).

A stack of height h has up to 4·3^(h-1) paths, so this module never lists moves to check one:
``play`` validates a written path in O(h), :func:`count_paths` counts paths by dynamic
programming, and ``legal_moves`` is a lazy generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.base import Outcome, Rules
from arbiter.adjudicator.board import OFF, geometry, point_index
from arbiter.notation.ast import FILES, STEPS, Grid, Move, Point, Sow, c_module, tuple_of
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import GameDescription, Piece

SIZES = (6, 8)
"""The board sizes, each with its standard start (and so its equipment)."""
PIECES = (Piece("r", "Red man"), Piece("b", "Black man"), Piece("n", "neutral man"))
"""The description's men: each colour's, in the order of the colours, then the neutral
ones. Named ahead of the description because its standard starts are written with them."""


def _standard(size: int) -> str:
    """The standard start of RULINGS.md in the position notation: a neutral man on every
    square, Red's men on top of rank 1 and of the two side files up to the middle, Black's
    mirrored from the top rank (spec/rules/pilare.md shows the same strings)."""
    red, black, neutral = (piece.letter for piece in PIECES)
    on_red, on_black = neutral + red, neutral + black  # a colour's man on a neutral one
    inner = ",".join([neutral] * (size - 2))
    sides = size // 2 - 1  # the ranks between an edge rank and the middle of the board
    return "/".join(
        [
            ",".join([on_black] * size),
            *[f"{on_black},{inner},{on_black}"] * sides,
            *[f"{on_red},{inner},{on_red}"] * sides,
            ",".join([on_red] * size),
        ]
    )


DESCRIPTION = GameDescription(
    name="Pilare",
    colours=("Red", "Black"),
    sizes=SIZES,
    moves=("sow",),
    pieces=PIECES,
    stacks=True,
    start={size: _standard(size) for size in SIZES},
)
COLOURS: Final = DESCRIPTION.colours
MEN: Final = (PIECES[0].letter, PIECES[1].letter)
"""Each colour's men, by colour."""
NEUTRAL: Final = PIECES[2].letter

EQUIPMENT: Mapping[int, Mapping[str, int]] = {
    size: {letter: start.count(letter) for letter in DESCRIPTION.letters}
    for size, start in DESCRIPTION.start.items()
}
"""The men of each kind that a game owns, by size: those of the standard start, which puts
every man on the board (spec/rules/pilare.md, section 1); none ever leaves it."""

# Directions in the order legal_moves tries them (alphabetical, so each origin's paths come
# out in sorted order). Index d and 3 - d are opposite: e/w and n/s.
DIRECTIONS = "ensw"
DELTAS = tuple([STEPS[letter] for letter in DIRECTIONS])  # (file, rank), as DIRECTIONS
WORDS = ("east", "north", "south", "west")
NO_DIRECTION = 4  # "no previous step", for the first step of a path


class State(NamedTuple):
    """A Pilare position and whose turn it is.

    ``board[rank * size + file]`` is the stack on that square, bottom man first ("" empty).
    ``ply`` counts the moves made since the start position (Red moves on even plies).
    ``topped`` is (stacks topped by Red, stacks topped by Black), kept up to date move by move
    so that ``outcome`` costs O(1). A named tuple: cheap to build, one per move.
    """

    size: int
    board: tuple[str, ...]
    ply: int
    topped: tuple[int, int]


_STATE: Final[type[State]] = State
"""``State`` as a constant: compiled code looks a class that is not compiled up in the
module's globals at every use (here, every ply), and reads a constant from a static."""

_OF: Final[Any] = tuple_of()
"""``ast.tuple_of()``: a named tuple built from values given as arguments (one per ply here),
held in a constant of this module, which compiled code reads from a static."""


class PilareRules(Rules[State]):
    """The rules of Pilare (``spec/rules/pilare.md``), on the sizes of its description."""

    description = DESCRIPTION

    def random_move(self, state: State, choose: Callable[[Sequence[Any]], Any]) -> Sow | None:
        """A legal move picked by ``choose`` without listing every path: first a stack
        topped by the mover, then each step among those that stay on the board and do not
        turn back (every such prefix extends to a full path). None once the game is over."""
        if self.is_over(state):
            return None
        mine = MEN[state.ply % 2]
        start = choose([i for i, stack in enumerate(state.board) if stack and stack[-1] == mine])
        table = _neighbours(state.size)
        here, previous, path = start, NO_DIRECTION, ""
        for _ in state.board[start]:
            d = choose(
                [d for d, target in enumerate(table[here]) if target != OFF and d != 3 - previous]
            )
            here, previous, path = table[here][d], d, path + DIRECTIONS[d]
        return Sow(geometry(state.size).points[start], path)

    def to_move(self, state: State) -> str:
        """Red on even plies, Black on odd ones."""
        return COLOURS[state.ply % 2]

    def position(self, state: State) -> Grid:
        """The board as ``grid[rank][file]``, stacks bottom man first."""
        return geometry(state.size).grid(state.board)

    def details(self, state: State) -> Mapping[str, Any]:
        """Figures for the report: stacks topped per colour, men per kind (buried ones
        included; men are never removed), and the height of the tallest stack."""
        men = "".join(state.board)
        return {
            "topped": dict(zip(COLOURS, state.topped, strict=True)),
            "men": {
                COLOURS[0]: men.count(MEN[0]),
                COLOURS[1]: men.count(MEN[1]),
                "neutral": men.count(NEUTRAL),
            },
            "tallest": max(map(len, state.board), default=0),
        }

    # The interface's parts -----------------------------------------------------------------

    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> State:
        """The standard start (the description's) or ``cells``, Red to move.

        Raises ``ValueError`` for a setup with more men of a kind than the equipment."""
        assert cells is not None  # every size has a standard start
        board = _checked(cells, size)
        return State(size, board, 0, _count_topped(board))

    def _game_over(self, state: State) -> str | None:
        turn = state.ply % 2
        return None if state.topped[turn] else f"the game is over: {_stuck(COLOURS[turn])}"

    def _outcome(self, state: State) -> Outcome:
        """The player to move, left without a stack topped by their own colour, loses (there
        is no pass and no draw)."""
        turn = state.ply % 2
        details = {"reason": _stuck(COLOURS[turn]), **self.details(state)}
        return Outcome(winner=COLOURS[1 - turn], scores=None, tiebreak=None, details=details)

    def _legal_moves(self, state: State) -> Iterator[Move]:
        """Every legal move, lazily: origins from a1 rank by rank, paths in sorted order.

        There may be astronomically many (see :func:`count_legal_moves`); take what you need."""
        size, mine = state.size, MEN[state.ply % 2]
        points = geometry(size).points
        for start, stack in enumerate(state.board):
            if stack and stack[-1] == mine:
                for path in _paths(size, start, len(stack)):
                    yield Sow(points[start], path)

    def _sow(self, state: State, move: Sow) -> State:
        """The state after ``move``, checked in O(height) without listing moves.

        Raises ``IllegalMoveError`` if the origin is empty, off the board or not topped by
        the mover, the path's length differs from the stack's height, or a step turns
        straight back or leaves the board."""
        size = state.size
        start = point_index(move.origin, size)
        stack = state.board[start]
        _check_stack(stack, move.origin, state.ply % 2)
        path = move.path.lower()
        if len(path) != len(stack):
            raise IllegalMoveError(
                f"the path has {_count(len(path), 'step')} but the stack on {move.origin} "
                f"has {_count(len(stack), 'man', 'men')}"
            )
        return _sown(state, start, stack, path)


def count_paths(size: int, origin: Point, height: int) -> int:
    """How many legal paths a stack of ``height`` men on ``origin`` has on a ``size`` board.

    Counted by dynamic programming over (square, last direction), never by listing; the
    result is exact for any height. Raises ``ValueError`` for a bad size, origin or height."""
    if size < 2:
        raise ValueError(f"no paths on a {size}×{size} board")
    if not (0 <= origin.file < size and 0 <= origin.rank < size):
        raise ValueError(f"{origin} is off the {size}×{size} board")
    if height < 0:
        raise ValueError(f"a stack cannot have height {height}")
    return _tails(size, height)[origin.index(size)][NO_DIRECTION]


def count_legal_moves(state: State) -> int:
    """The number of moves ``legal_moves(state)`` would yield, computed without listing (none
    once the game is over: the mover then has no stack to lift)."""
    size, mine = state.size, MEN[state.ply % 2]
    return sum(
        _tails(size, len(stack))[start][NO_DIRECTION]
        for start, stack in enumerate(state.board)
        if stack and stack[-1] == mine
    )


def _checked(board: tuple[str, ...], size: int) -> tuple[str, ...]:
    """``board`` if it holds no more men of each kind than the game's equipment; raises
    ``ValueError`` otherwise. A Setup may show fewer men than the equipment (a study); any
    square may be empty and stacks may be of any height."""
    men = "".join(board)
    for man, limit in EQUIPMENT[size].items():
        count = men.count(man)
        if count > limit:
            kind = next(piece.name for piece in DESCRIPTION.pieces if piece.letter == man)
            raise ValueError(
                f"the setup has {count} {kind.removesuffix('man')}men; "
                f"a {size}×{size} game has only {limit}"
            )
    return board


def _stuck(colour: str) -> str:
    """Why ``colour``, to move, cannot: the end of the game in words."""
    return f"{colour} has no stack topped by {colour}"


def _check_stack(stack: str, origin: Point, turn: int) -> None:
    """The mover may lift only a stack whose top man is theirs (men buried inside do not
    count)."""
    if not stack:
        raise IllegalMoveError(f"{origin} is empty")
    top = stack[-1]
    if top == NEUTRAL:
        raise IllegalMoveError(f"{origin} is topped by a neutral man")
    if top != MEN[turn]:
        raise IllegalMoveError(f"{origin} is topped by {COLOURS[MEN.index(top)]}")


def _off_board(size: int, here: int, d: int, step: int) -> str:
    """Name the square beyond the edge as if the board went on (a0, g3 on 6×6, h9 on 8×8);
    west of file a there is no letter, so that side is named by direction alone."""
    file, rank = here % size + DELTAS[d][0], here // size + DELTAS[d][1]
    if file < 0:
        return f"step {step} leaves the board west of {_name(size, here)}"
    return (
        f"step {step} leaves the board at {FILES[file]}{rank + 1} "
        f"({WORDS[d]} of {_name(size, here)})"
    )


_C: Final[Any] = c_module("_pilare")
_C_SOW: Final[Any] = None if _C is None else _C.sow


def _sown(state: State, start: int, stack: str, path: str) -> State:
    """:func:`sown_in_python`, by the C module where the build has it: it sows a legal path
    and returns None for any other, which the Python walk then words."""
    if _C_SOW is not None:
        red, black = state.topped
        sown: tuple[tuple[str, ...], tuple[int, int]] | None = _C_SOW(
            state.board, state.size, start, path, MEN[0], MEN[1], red, black
        )
        if sown is not None:
            after: State = _OF(_STATE, state.size, sown[0], state.ply + 1, sown[1])
            return after
    return sown_in_python(state, start, stack, path)


def sown_in_python(state: State, start: int, stack: str, path: str) -> State:
    """The state after the stack on ``start`` is sown along ``path``, bottom man first, one
    man on each square the steps reach; O(len(path)).

    Raises ``IllegalMoveError`` for a letter other than n/s/e/w, a step straight back to
    the square just left (only the immediately previous step matters), or a step off the
    board. The topped counts change as the men land: each man dropped becomes the top of
    its square in place of the top it covers (the lifted stack's top was the mover's). Runs
    for every move replayed, hence one loop that checks, drops and counts."""
    size = state.size
    table = _neighbours(size)
    board = list(state.board)
    board[start] = ""
    red_man, black_man = MEN
    red, black = state.topped
    if stack[-1] == red_man:
        red -= 1
    else:
        black -= 1
    here, left, previous = start, start, NO_DIRECTION  # ``left``: the square before ``here``
    for step, letter in enumerate(path, 1):
        d = DIRECTIONS.find(letter)
        if d < 0:
            raise IllegalMoveError(f"step {step} is {letter!r}; a path uses only n, s, e, w")
        if d == 3 - previous:
            raise IllegalMoveError(
                f"step {step} turns back ({letter} right after {DIRECTIONS[previous]}, "
                f"back to {_name(size, left)})"
            )
        target = table[here][d]
        if target == OFF:
            raise IllegalMoveError(_off_board(size, here, d, step))
        man = stack[step - 1]
        below = board[target]
        if below:
            top = below[-1]
            if top == red_man:
                red -= 1
            elif top == black_man:
                black -= 1
        board[target] = below + man
        if man == red_man:
            red += 1
        elif man == black_man:
            black += 1
        left, here, previous = here, target, d
    sown_here: State = _OF(_STATE, size, tuple(board), state.ply + 1, (red, black))
    return sown_here


def _count_topped(board: tuple[str, ...]) -> tuple[int, int]:
    tops = [stack[-1] for stack in board if stack]
    return tops.count(MEN[0]), tops.count(MEN[1])


def _paths(size: int, start: int, height: int) -> Iterator[str]:
    """Every legal path of ``height`` steps from ``start``, lazily, in sorted order.

    No branch dies early: from any square at least one on-board step that does not turn
    back exists on a board of 2×2 or more, so every prefix extends to a full path."""
    table = _neighbours(size)

    def walk(here: int, previous: int, prefix: str) -> Iterator[str]:
        if len(prefix) == height:
            yield prefix
            return
        for d, target in enumerate(table[here]):
            if target >= 0 and d != 3 - previous:
                yield from walk(target, d, prefix + DIRECTIONS[d])

    return walk(start, NO_DIRECTION, "")


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Per square, the square one step away in each direction (order DIRECTIONS), ``OFF``
    past the edge."""
    table = geometry(size)
    return tuple(zip(*(table.steps(delta) for delta in DELTAS), strict=True))


@cache
def _tails(size: int, steps: int) -> tuple[tuple[int, ...], ...]:
    """``_tails(size, k)[square][d]``: the number of ways to make k more steps from
    ``square`` when the last step went in direction d (NO_DIRECTION before the first)."""
    if steps == 0:
        return ((1,) * 5,) * (size * size)
    shorter = _tails(size, steps - 1)  # recursion depth = height, at most ~100 men
    table = _neighbours(size)
    return tuple(
        tuple(
            sum(
                shorter[target][d]
                for d, target in enumerate(table[square])
                if target >= 0 and d != 3 - last
            )
            for last in range(5)
        )
        for square in range(size * size)
    )


def _name(size: int, square: int) -> str:
    return geometry(size).names[square]


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
