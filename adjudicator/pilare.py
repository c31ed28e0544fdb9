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
from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.base import Outcome, Rules, register
from notation.ast import FILES, Grid, Move, Point, Sow
from notation.errors import IllegalMoveError
from notation.games import GAMES
from notation.position import parse_position

SPEC = GAMES["pilare"]
COLOURS: tuple[str, str] = ("Red", "Black")
MEN: tuple[str, str] = ("r", "b")  # the letter of each colour's men, in turn order
NEUTRAL = "n"
SIZES = (6, 8)

# The game's equipment (published text): men per colour, and one neutral man per square.
EQUIPMENT: Mapping[int, Mapping[str, int]] = {
    6: {"r": 10, "b": 10, "n": 36},
    8: {"r": 14, "b": 14, "n": 64},
}

# The standard initial positions (RULINGS.md), in the position notation of the Setup tag:
# a neutral man on every square, Red's men on top of rank 1 and the two side files up to the
# middle, Black's mirrored from the top rank. spec/rules/pilare.md shows the same strings.
STANDARD_POSITIONS: Mapping[int, str] = {
    6: "/".join([
        "nb,nb,nb,nb,nb,nb",
        "nb,n,n,n,n,nb",
        "nb,n,n,n,n,nb",
        "nr,n,n,n,n,nr",
        "nr,n,n,n,n,nr",
        "nr,nr,nr,nr,nr,nr",
    ]),
    8: "/".join([
        "nb,nb,nb,nb,nb,nb,nb,nb",
        "nb,n,n,n,n,n,n,nb",
        "nb,n,n,n,n,n,n,nb",
        "nb,n,n,n,n,n,n,nb",
        "nr,n,n,n,n,n,n,nr",
        "nr,n,n,n,n,n,n,nr",
        "nr,n,n,n,n,n,n,nr",
        "nr,nr,nr,nr,nr,nr,nr,nr",
    ]),
}
STANDARD_GRIDS: Mapping[int, Grid] = {
    size: parse_position(text, SPEC, size) for size, text in STANDARD_POSITIONS.items()
}

# Directions in the order legal_moves tries them (alphabetical, so each origin's paths come
# out in sorted order). Index d and 3 - d are opposite: e/w and n/s.
DIRECTIONS = "ensw"
DIRECTION_INDEX: Mapping[str, int] = {letter: d for d, letter in enumerate(DIRECTIONS)}
DELTAS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (0, -1), (-1, 0))  # (file, rank)
WORDS = ("east", "north", "south", "west")
NO_DIRECTION = 4  # "no previous step", for the first step of a path


@dataclass(frozen=True, slots=True)
class State:
    """A Pilare position and whose turn it is.

    ``board[rank * size + file]`` is the stack on that square, bottom man first ("" empty).
    ``ply`` counts the moves made since the start position (Red moves on even plies).
    ``topped`` is (stacks topped by Red, stacks topped by Black), kept up to date move by move
    so that ``outcome`` costs O(1).
    """

    size: int
    board: tuple[str, ...]
    ply: int
    topped: tuple[int, int]


@register
class PilareRules(Rules):
    """The rules of Pilare on 6×6 and 8×8 boards (``spec/rules/pilare.md``)."""

    name = "Pilare"
    colours = COLOURS

    def initial_state(self, size: int, *, komi: int | None = None,
                      setup: Grid | None = None) -> State:
        """The standard start, or ``setup`` with Red to move.

        Raises ``ValueError`` for a size other than 6 or 8, a komi, or a setup that is not a
        Pilare position of that size (see ``_check_setup``)."""
        if size not in SIZES:
            raise ValueError(f"Pilare is played on 6×6 or 8×8 boards, not {size}×{size}")
        if komi is not None:
            raise ValueError("Pilare has no komi")
        grid = STANDARD_GRIDS[size] if setup is None else _check_setup(setup, size)
        board = tuple(cell for row in grid for cell in row)
        return State(size, board, 0, _count_topped(board))

    def random_move(self, state: State, choose: Callable[[Sequence[Any]], Any]) -> Sow | None:
        """A legal move picked by ``choose`` without listing every path: first a stack
        topped by the mover, then each step among those that stay on the board and do not
        turn back (every such prefix extends to a full path). None once the game is over."""
        if self.outcome(state) is not None:
            return None
        size, mine = state.size, MEN[state.ply % 2]
        start = choose([i for i, stack in enumerate(state.board) if stack and stack[-1] == mine])
        table = _neighbours(size)
        here, previous, path = start, NO_DIRECTION, ""
        for _ in state.board[start]:
            d = choose([d for d, target in enumerate(table[here])
                        if target >= 0 and d != 3 - previous])
            here, previous, path = table[here][d], d, path + DIRECTIONS[d]
        return Sow(Point(start % size, start // size), path)

    def to_move(self, state: State) -> str:
        """Red on even plies, Black on odd ones."""
        return COLOURS[state.ply % 2]

    def legal_moves(self, state: State) -> Iterator[Move]:
        """Every legal move, lazily: origins from a1 rank by rank, paths in sorted order.

        There may be astronomically many (see :func:`count_legal_moves`); take what you need."""
        if self.outcome(state) is not None:
            return
        size, mine = state.size, MEN[state.ply % 2]
        for start, stack in enumerate(state.board):
            if stack and stack[-1] == mine:
                origin = Point(start % size, start // size)
                for path in _paths(size, start, len(stack)):
                    yield Sow(origin, path)

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``, checked in O(height) without listing moves.

        Raises ``IllegalMoveError`` if the game is over, the move is not a sowing, the origin
        is empty, off the board or not topped by the mover, the path's length differs from
        the stack's height, or a step turns straight back or leaves the board."""
        self._check_not_over(state)
        if not isinstance(move, Sow):
            raise IllegalMoveError(
                f"Pilare has no move {str(move)!r}: every turn sows a stack (e.g. c3:nne)")
        size = state.size
        start = _origin_index(move.origin, size)
        stack = state.board[start]
        _check_stack(stack, move.origin, state.ply % 2)
        path = move.path.lower()
        if len(path) != len(stack):
            raise IllegalMoveError(
                f"the path has {_count(len(path), 'step')} but the stack on {move.origin} "
                f"has {_count(len(stack), 'man', 'men')}")
        return _sow(state, start, stack, _trace(size, start, path))

    def outcome(self, state: State) -> Outcome | None:
        """The other colour wins when the player to move has no stack topped by their own
        colour; otherwise None (there is no pass and no draw)."""
        turn = state.ply % 2
        if state.topped[turn]:
            return None
        loser, winner = COLOURS[turn], COLOURS[1 - turn]
        details = {"reason": f"{loser} has no stack topped by {loser}", **self.details(state)}
        return Outcome(winner=winner, scores=None, tiebreak=None, details=details)

    def position(self, state: State) -> Grid:
        """The board as ``grid[rank][file]``, stacks bottom man first."""
        size, board = state.size, state.board
        return tuple(board[rank * size:(rank + 1) * size] for rank in range(size))

    def details(self, state: State) -> Mapping[str, Any]:
        """Figures for the report: stacks topped per colour, men per kind (buried ones
        included; men are never removed), and the height of the tallest stack."""
        men = "".join(state.board)
        return {
            "topped": dict(zip(COLOURS, state.topped, strict=True)),
            "men": {"Red": men.count("r"), "Black": men.count("b"),
                    "neutral": men.count(NEUTRAL)},
            "tallest": max(map(len, state.board), default=0),
        }

    def _check_not_over(self, state: State) -> None:
        if not state.topped[state.ply % 2]:
            colour = COLOURS[state.ply % 2]
            raise IllegalMoveError(
                f"the game is over: {colour} has no stack topped by {colour}")


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
    """The number of moves ``legal_moves(state)`` would yield, computed without listing."""
    if not state.topped[state.ply % 2]:
        return 0
    size, mine = state.size, MEN[state.ply % 2]
    return sum(_tails(size, len(stack))[start][NO_DIRECTION]
               for start, stack in enumerate(state.board) if stack and stack[-1] == mine)


def _check_setup(setup: Grid, size: int) -> Grid:
    """Return ``setup`` if it is a Pilare position of ``size``, else raise ``ValueError``.

    A Setup may show fewer men than the equipment (a study), never more, and only the
    letters r, b and n; any square may be empty and stacks may be of any height."""
    if len(setup) != size or any(len(row) != size for row in setup):
        raise ValueError(f"the setup is not a {size}×{size} grid")
    counts = dict.fromkeys(SPEC.pieces, 0)
    for rank, row in enumerate(setup):
        for file, stack in enumerate(row):
            for man in stack:
                if man not in counts:
                    raise ValueError(f"{Point(file, rank)}: {man!r} is not a Pilare man "
                                     f"(r Red, b Black, n neutral)")
                counts[man] += 1
    kinds = {"r": "Red men", "b": "Black men", "n": "neutral men"}
    for man, limit in EQUIPMENT[size].items():
        if counts[man] > limit:
            raise ValueError(f"the setup has {counts[man]} {kinds[man]}; "
                             f"a {size}×{size} game has only {limit}")
    return tuple(tuple(row) for row in setup)


def _origin_index(origin: Point, size: int) -> int:
    if not (0 <= origin.file < size and 0 <= origin.rank < size):
        raise IllegalMoveError(f"{origin} is off the {size}×{size} board")
    return origin.rank * size + origin.file


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


def _trace(size: int, start: int, path: str) -> list[int]:
    """The squares the path's steps reach, in order; O(len(path)).

    Raises ``IllegalMoveError`` for a letter other than n/s/e/w, a step straight back to
    the square just left (only the immediately previous step matters), or a step off the
    board."""
    table = _neighbours(size)
    squares: list[int] = []
    here, previous = start, NO_DIRECTION
    for step, letter in enumerate(path, 1):
        d = DIRECTION_INDEX.get(letter)
        if d is None:
            raise IllegalMoveError(f"step {step} is {letter!r}; a path uses only n, s, e, w")
        if d == 3 - previous:
            raise IllegalMoveError(
                f"step {step} turns back ({letter} right after {DIRECTIONS[previous]}, "
                f"back to {_name(size, squares[-2] if step > 2 else start)})")
        target = table[here][d]
        if target < 0:
            raise IllegalMoveError(_off_board(size, here, d, step))
        squares.append(target)
        here, previous = target, d
    return squares


def _off_board(size: int, here: int, d: int, step: int) -> str:
    """Name the square beyond the edge as if the board went on (a0, g3 on 6×6, h9 on 8×8);
    west of file a there is no letter, so that side is named by direction alone."""
    file, rank = here % size + DELTAS[d][0], here // size + DELTAS[d][1]
    if file < 0:
        return f"step {step} leaves the board west of {_name(size, here)}"
    return (f"step {step} leaves the board at {FILES[file]}{rank + 1} "
            f"({WORDS[d]} of {_name(size, here)})")


def _sow(state: State, start: int, stack: str, squares: list[int]) -> State:
    """Drop the stack's men bottom first onto ``squares`` and update the topped counts only
    for the squares the move touched."""
    old = state.board
    board = list(old)
    board[start] = ""
    for man, square in zip(stack, squares, strict=True):
        board[square] += man
    red, black = state.topped
    for square in {start, *squares}:
        before, after = old[square][-1:], board[square][-1:]
        red += (after == "r") - (before == "r")
        black += (after == "b") - (before == "b")
    return State(state.size, tuple(board), state.ply + 1, (red, black))


def _count_topped(board: tuple[str, ...]) -> tuple[int, int]:
    tops = [stack[-1] for stack in board if stack]
    return tops.count("r"), tops.count("b")


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
def _neighbours(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """Per square, the square one step away in each direction (order DIRECTIONS), -1 off
    the board."""
    def step(square: int, d: int) -> int:
        file, rank = square % size + DELTAS[d][0], square // size + DELTAS[d][1]
        return rank * size + file if 0 <= file < size and 0 <= rank < size else -1

    return tuple((step(s, 0), step(s, 1), step(s, 2), step(s, 3)) for s in range(size * size))


@cache
def _tails(size: int, steps: int) -> tuple[tuple[int, ...], ...]:
    """``_tails(size, k)[square][d]``: the number of ways to make k more steps from
    ``square`` when the last step went in direction d (NO_DIRECTION before the first)."""
    if steps == 0:
        return ((1,) * 5,) * (size * size)
    shorter = _tails(size, steps - 1)  # recursion depth = height, at most ~100 men
    table = _neighbours(size)
    return tuple(
        tuple(sum(shorter[target][d] for d, target in enumerate(table[square])
                  if target >= 0 and d != 3 - last)
              for last in range(5))
        for square in range(size * size))


def _name(size: int, square: int) -> str:
    return str(Point(square % size, square // size))


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
