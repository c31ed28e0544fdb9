"""Implo: the rules engine, as stated in ``spec/rules/implo.md``.

A turn places a stone, then resolves every patch (an empty territory of at most four points)
in an order the mover chooses. The record says which choices were made (``d4/e5/a1:b2``);
this module checks those choices, fills in the ones that are forced, refuses the ones left
open (``AmbiguousMoveError``), and remembers the fully written canonical form of each turn in
``State.last_move`` so that a writer can print it.

The board is a flat tuple of one-letter strings indexed by ``rank * size + file``: ``""``
empty, ``b``/``w`` stones, ``B``/``W`` markers (the Setup letters). All flood fills are
local: a territory is explored only until it proves too big to be a patch, and a stone group
only when a patch next to it is resolved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import islice
from typing import Any

from adjudicator.base import Outcome, Rules, register
from notation.ast import Grid, ImploPlace, Move, Place, Point, Resolve, Swap
from notation.errors import AmbiguousMoveError, IllegalMoveError

COLOURS = ("Black", "White")
EMPTY = ""
STONES = ("b", "w")
MARKERS = ("B", "W")
PIECES = frozenset(STONES + MARKERS)
PATCH_MAX = 4
"""A territory of at most this many points is a patch."""
SEQUENCE_CAP = 128
"""legal_moves lists every choice sequence of a placement up to this many (see
``_choice_sequences`` for what it does past it)."""
SEARCH_BUDGET = 4096
"""Resolution steps tried, past the cap, to sample distinct outcomes of one placement."""


@dataclass(frozen=True, slots=True)
class State:
    """A position between turns. Never holds a patch: every turn resolves them all.

    ``mover`` is the index in ``COLOURS`` of the colour to move; ``ply`` counts the turns
    played (a swap is a turn); ``empty`` counts the empty points, so that the end of the game
    is seen without a scan. ``last_move`` is the canonical, fully written form of the last
    turn (None at the start and after a swap); ``last_mover`` is the colour that played it.
    """

    size: int
    board: tuple[str, ...]
    mover: int = 0
    ply: int = 0
    empty: int = 0
    last_move: ImploPlace | None = None
    last_mover: int | None = None


@register
class ImploRules(Rules):
    """Implo with the pie rule, under RULINGS.md (see ``spec/rules/implo.md``)."""

    name = "Implo"
    colours = COLOURS

    def initial_state(
        self, size: int, *, komi: int | None = None, setup: Grid | None = None
    ) -> State:
        """The empty board, or ``setup``. Black moves first either way.

        Raises ``ValueError`` for a komi, a size out of 3-19, or a setup that no turn can
        start from: a point with more than one piece, no empty point, or a patch."""
        if komi is not None:
            raise ValueError("Implo has no komi")
        if not 3 <= size <= 19:
            raise ValueError(f"Implo is played on boards of 3 to 19 lines, not {size}")
        board = (EMPTY,) * (size * size) if setup is None else _setup_board(setup, size)
        return State(size, board, empty=board.count(EMPTY))

    def to_move(self, state: State) -> str:
        return COLOURS[state.mover]

    def legal_moves(self, state: State) -> Iterator[Move]:
        """Every placement with every choice sequence, canonically written, then ``swap``.

        Placements come in board order (a1, b1, ...); for each, the sequences come in the
        order of the patch chosen first (lowest point first), then of the group removed.
        If one placement has more than ``SEQUENCE_CAP`` sequences, it yields a bounded
        sample of them with distinct results instead (every yielded move is still legal)."""
        if _over(state):
            return
        for at in range(state.size * state.size):
            if state.board[at] == EMPTY:
                point = _point(at, state.size)
                for steps in _choice_sequences(_Turn.placed(state, at)):
                    yield ImploPlace(point, steps)
        if state.ply == 1:
            yield Swap()

    def play(self, state: State, move: Move) -> State:
        """The state after ``move``; ``state.last_move`` of the result is its canonical form.

        Raises ``IllegalMoveError`` for an occupied or off-board point, a step that names
        no patch, a removal that names a wrong group, a misplaced swap or any other move
        form, or a move after the end; ``AmbiguousMoveError`` if the written steps leave a
        choice open (more than one patch remains, or biggest groups are tied)."""
        if _over(state):
            raise IllegalMoveError("the game is over (the board is full)")
        if isinstance(move, Swap):
            return _swap(state)
        if isinstance(move, Place):
            move = ImploPlace(move.at)
        if not isinstance(move, ImploPlace):
            raise IllegalMoveError(f"{move} is not an Implo move: every turn places a stone")
        turn = _Turn.placed(state, _placement(state, move.at))
        for number, step in enumerate(move.resolve, 1):
            turn.written(step, number)
        while turn.pending:
            turn.forced()
        return turn.finish(state)

    def canonical_move(self, state: State, move: Move) -> Move:
        """``move`` as the canonical writer prints it, every step written.

        Raises what ``play`` raises."""
        after = self.play(state, move)
        return after.last_move if after.last_move is not None else move

    def outcome(self, state: State) -> Outcome | None:
        """The winner once the board is full (see ``spec/rules/implo.md``, "End")."""
        if not _over(state):
            return None
        figures = _figures(state)
        groups, stones = figures["marker_groups"], figures["stones"]
        size = _deciding_size(groups)
        if size is not None:
            counts = [groups[colour].get(str(size), 0) for colour in COLOURS]
            winner, tiebreak = COLOURS[counts[1] > counts[0]], None
            decided_by = f"marker groups of size {size}"
        elif stones["Black"] != stones["White"]:
            winner = COLOURS[stones["White"] > stones["Black"]]
            loser = COLOURS[winner == COLOURS[0]]
            tiebreak = (f"marker groups tie at every size; {winner} has more stones on the "
                        f"board ({stones[winner]} to {stones[loser]})")
            decided_by = "stones"
        else:
            assert state.last_mover is not None  # a finished game has had a turn
            winner = COLOURS[1 - state.last_mover]
            tiebreak = (f"marker groups and stones tie; {COLOURS[state.last_mover]} made the "
                        "last turn and loses")
            decided_by = "last mover"
        return Outcome(winner, None, tiebreak, {**figures, "decided_by": decided_by})

    def position(self, state: State) -> Grid:
        n = state.size
        return tuple(tuple(state.board[r * n:(r + 1) * n]) for r in range(n))

    def details(self, state: State) -> dict[str, Any]:
        """Marker groups by colour and size, and stones by colour, as the game stands."""
        return _figures(state)


class _Turn:
    """A turn under way: a mutable board, the patches still to resolve, the steps taken.

    ``pending`` holds each patch as a sorted tuple of indices, so ``patch[0]`` is its lowest
    point (rank, then file), the point the canonical form names it by."""

    __slots__ = ("size", "cells", "pending", "mover", "empty", "at", "steps")

    def __init__(self, size: int, cells: list[str], pending: list[tuple[int, ...]],
                 mover: int, empty: int, at: int, steps: list[Resolve]) -> None:
        self.size, self.cells, self.pending = size, cells, pending
        self.mover, self.empty, self.at, self.steps = mover, empty, at, steps

    @classmethod
    def placed(cls, state: State, at: int) -> _Turn:
        """The turn just after the mover's stone lands on ``at`` (an empty point)."""
        cells = list(state.board)
        cells[at] = STONES[state.mover]
        nbrs = _neighbours(state.size)
        pending: list[tuple[int, ...]] = []
        explored: set[int] = set()  # neighbours already met need no second fill
        for q in nbrs[at]:
            if cells[q] == EMPTY and q not in explored:
                patch = _territory(cells, nbrs, q, explored)
                if patch is not None:
                    pending.append(patch)
        return cls(state.size, cells, pending, state.mover, state.empty - 1, at, [])

    def copy(self) -> _Turn:
        return _Turn(self.size, self.cells.copy(), self.pending.copy(), self.mover,
                     self.empty, self.at, self.steps.copy())

    def options(self, patch: tuple[int, ...]) -> tuple[int, list[tuple[int, ...]]]:
        """The owner of ``patch`` and the owner's tied biggest adjacent groups (lowest first).

        Ownership compares the biggest adjacent group of each colour, not stone totals; a
        tie (0 against 0 included) gives the patch to the mover's opponent."""
        nbrs = _neighbours(self.size)
        groups: dict[str, list[tuple[int, ...]]] = {"b": [], "w": []}
        seen: set[int] = set()
        for p in patch:
            for q in nbrs[p]:
                colour = self.cells[q]
                if colour in groups and q not in seen:
                    group = _group(self.cells, nbrs, q)
                    seen.update(group)
                    groups[colour].append(group)
        best = [max(map(len, groups[stone]), default=0) for stone in STONES]
        owner = 0 if best[0] > best[1] else 1 if best[1] > best[0] else 1 - self.mover
        biggest = [g for g in groups[STONES[owner]] if len(g) == best[owner]]
        return owner, sorted(biggest)

    def apply(self, patch: tuple[int, ...], owner: int, group: tuple[int, ...],
              tied: bool) -> None:
        """Resolve ``patch``: markers on it, ``group`` removed, new patches found; the step
        is recorded as the canonical writer names it."""
        for p in patch:
            self.cells[p] = MARKERS[owner]
        self.pending.remove(patch)
        self.empty += len(group) - len(patch)
        remove = _point(group[0], self.size) if tied else None
        self.steps.append(Resolve(_point(patch[0], self.size), remove))
        if group:
            self._freed(group)

    def _freed(self, group: tuple[int, ...]) -> None:
        """The removed stones' points join the empty points next to them: patches next to
        the group merge into that territory, which is a new patch if still small enough."""
        nbrs = _neighbours(self.size)
        for p in group:
            self.cells[p] = EMPTY
        touched = set(group).union(*(nbrs[p] for p in group))
        self.pending = [patch for patch in self.pending if touched.isdisjoint(patch)]
        if len(group) <= PATCH_MAX:
            patch = _territory(self.cells, nbrs, group[0])
            if patch is not None:
                self.pending.append(patch)

    def written(self, step: Resolve, number: int) -> None:
        """Apply the ``number``-th written step. Raises ``IllegalMoveError`` if it names no
        current patch or a wrong group; ``AmbiguousMoveError`` if a needed group is unnamed."""
        where = f"step {number} ({step})"
        patch = self._patch_named(step.patch, where)
        owner, biggest = self.options(patch)
        if step.remove is not None:
            group = self._group_named(step.remove, patch, owner, biggest, where)
        elif len(biggest) > 1:
            raise _tie_error(patch, biggest, self.size)
        else:
            group = biggest[0] if biggest else ()
        self.apply(patch, owner, group, len(biggest) > 1)

    def forced(self) -> None:
        """Apply the next step when it is forced. Raises ``AmbiguousMoveError`` if not."""
        if len(self.pending) > 1:
            names = ", ".join(_name(patch[0], self.size) for patch in sorted(self.pending))
            raise AmbiguousMoveError(f"ambiguous: patches at {names} remain; write the order")
        patch = self.pending[0]
        owner, biggest = self.options(patch)
        if len(biggest) > 1:
            raise _tie_error(patch, biggest, self.size)
        self.apply(patch, owner, biggest[0] if biggest else (), False)

    def _patch_named(self, point: Point, where: str) -> tuple[int, ...]:
        index = _on_board(point, self.size, where)
        for patch in self.pending:
            if index in patch:
                return patch
        if not self.pending:
            raise IllegalMoveError(f"{where}: no patch remains to resolve")
        content = self.cells[index]
        why = (f"it holds {_piece_name(content)}" if content
               else f"its territory has more than {PATCH_MAX} points")
        raise IllegalMoveError(f"{where}: {point} is not in a patch ({why})")

    def _group_named(self, point: Point, patch: tuple[int, ...], owner: int,
                     biggest: list[tuple[int, ...]], where: str) -> tuple[int, ...]:
        index = _on_board(point, self.size, where)
        for group in biggest:
            if index in group:
                return group
        at = _name(patch[0], self.size)
        if not biggest:
            raise IllegalMoveError(
                f"{where}: the patch at {at} goes to {COLOURS[owner]}, who has no stone next "
                f"to it, so nothing is removed; drop ':{point}'")
        groups = ", ".join(_name(g[0], self.size) for g in biggest)
        kind = "the group" if len(biggest) == 1 else "one of the groups"
        raise IllegalMoveError(
            f"{where}: {point} is not a stone of a biggest {COLOURS[owner]} group next to the "
            f"patch at {at}; the patch must remove {kind} at {groups}")

    def canonical(self) -> ImploPlace:
        return ImploPlace(_point(self.at, self.size), tuple(self.steps))

    def finish(self, state: State) -> State:
        """The state after this (complete) turn."""
        return State(self.size, tuple(self.cells), 1 - self.mover, state.ply + 1, self.empty,
                     self.canonical(), self.mover)


def _choice_sequences(turn: _Turn) -> list[tuple[Resolve, ...]]:
    """The step sequences that finish ``turn``, depth first (patch by lowest point, then
    group by lowest stone): all of them if there are at most ``SEQUENCE_CAP``.

    Past the cap (cascades of tied single stones can give hundreds of millions), the walk
    starts again and keeps the first sequence to each distinct board, pruning boards it has
    already met, and stops after ``SEQUENCE_CAP`` results or ``SEARCH_BUDGET`` steps; so
    in such positions the list is a bounded sample of distinct outcomes."""
    first = list(islice(_walk(turn, None, None), SEQUENCE_CAP + 1))
    if len(first) <= SEQUENCE_CAP:
        return first
    return list(islice(_walk(turn, set(), [SEARCH_BUDGET]), SEQUENCE_CAP))


def _walk(turn: _Turn, seen: set[tuple[str, ...]] | None,
          budget: list[int] | None) -> Iterator[tuple[Resolve, ...]]:
    """Depth-first ways to finish ``turn``. With ``seen``, a board met before is not walked
    again; with ``budget`` (a one-item counter), the walk stops after that many steps."""
    if not turn.pending:
        yield tuple(turn.steps)
        return
    for patch in sorted(turn.pending):
        owner, biggest = turn.options(patch)
        for group in biggest or [()]:
            if budget is not None:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            after = turn.copy()
            after.apply(patch, owner, group, len(biggest) > 1)
            if seen is not None:
                key = tuple(after.cells)
                if key in seen:
                    continue
                seen.add(key)
            yield from _walk(after, seen, budget)


def _swap(state: State) -> State:
    """The pie rule: only as ply 2; no piece changes and White (the second colour) moves
    again, now played by the other player."""
    if state.ply != 1:
        raise IllegalMoveError("swap is only legal as the second turn")
    return replace(state, ply=2, last_move=None, last_mover=state.mover)


def _placement(state: State, at: Point) -> int:
    if not (0 <= at.file < state.size and 0 <= at.rank < state.size):
        raise IllegalMoveError(f"{at} is off the {state.size}×{state.size} board")
    index = at.index(state.size)
    if state.board[index]:
        raise IllegalMoveError(f"{at} is occupied (by {_piece_name(state.board[index])})")
    return index


def _over(state: State) -> bool:
    """The game ends when a turn leaves no empty point (a setup always has one)."""
    return state.empty == 0


def _figures(state: State) -> dict[str, Any]:
    """Marker groups per colour by size (sizes as strings, ascending) and stones per colour."""
    nbrs = _neighbours(state.size)
    counts: dict[str, Counter[int]] = {MARKERS[0]: Counter(), MARKERS[1]: Counter()}
    seen: set[int] = set()
    for p, piece in enumerate(state.board):
        if piece in counts and p not in seen:
            group = _group(state.board, nbrs, p)
            seen.update(group)
            counts[piece][len(group)] += 1
    return {
        "marker_groups": {colour: {str(k): v for k, v in sorted(counts[mark].items())}
                          for colour, mark in zip(COLOURS, MARKERS, strict=True)},
        "stones": {colour: state.board.count(stone)
                   for colour, stone in zip(COLOURS, STONES, strict=True)},
    }


def _deciding_size(groups: dict[str, dict[str, int]]) -> int | None:
    """The largest group size at which Black and White have different marker-group counts."""
    black, white = groups["Black"], groups["White"]
    sizes = sorted({int(k) for k in (*black, *white)}, reverse=True)
    return next((s for s in sizes if black.get(str(s), 0) != white.get(str(s), 0)), None)


def _setup_board(setup: Grid, size: int) -> tuple[str, ...]:
    """The flat board of a Setup grid. Raises ``ValueError`` if no turn can start from it."""
    if len(setup) != size or any(len(row) != size for row in setup):
        raise ValueError(f"the setup is not a {size}×{size} position")
    board = tuple(cell for row in setup for cell in row)
    for index, cell in enumerate(board):
        if len(cell) > 1 or (cell and cell not in PIECES):
            raise ValueError(f"{_name(index, size)}: a point holds one stone or marker "
                             f"(b, w, B, W), not {cell!r}")
    if EMPTY not in board:
        raise ValueError("the setup has no empty point: no turn can be played")
    nbrs = _neighbours(size)
    for index, cell in enumerate(board):
        if cell == EMPTY and _territory(board, nbrs, index) is not None:
            raise ValueError(f"the setup has a patch at {_name(index, size)}: a turn never "
                             "starts with a territory of 4 points or fewer")
    return board


def _territory(cells: list[str] | tuple[str, ...], nbrs: tuple[tuple[int, ...], ...],
               start: int, explored: set[int] | None = None) -> tuple[int, ...] | None:
    """The territory of the empty point ``start`` (sorted) if it is a patch, else None.
    Stops exploring as soon as it has found more than ``PATCH_MAX`` points; the points met
    are added to ``explored``."""
    members = [start]  # at most five points: a list is the fastest set here
    for p in members:  # grows while it is walked: a breadth-first fill
        for q in nbrs[p]:
            if cells[q] == EMPTY and q not in members:
                members.append(q)
                if len(members) > PATCH_MAX:
                    if explored is not None:
                        explored.update(members)
                    return None
    if explored is not None:
        explored.update(members)
    return tuple(sorted(members))


def _group(cells: list[str] | tuple[str, ...], nbrs: tuple[tuple[int, ...], ...],
           start: int) -> tuple[int, ...]:
    """The group of identical pieces (same colour, same kind) containing ``start``, sorted."""
    piece = cells[start]
    members = {start}
    stack = [start]
    while stack:
        for q in nbrs[stack.pop()]:
            if cells[q] == piece and q not in members:
                members.add(q)
                stack.append(q)
    return tuple(sorted(members))


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every flat index on a ``size`` board."""
    table = []
    for index in range(size * size):
        rank, file = divmod(index, size)
        steps = ((rank - 1, file), (rank + 1, file), (rank, file - 1), (rank, file + 1))
        table.append(tuple(r * size + f for r, f in steps if 0 <= r < size and 0 <= f < size))
    return tuple(table)


def _tie_error(patch: tuple[int, ...], biggest: list[tuple[int, ...]],
               size: int) -> AmbiguousMoveError:
    at = _name(patch[0], size)
    names = [_name(g[0], size) for g in biggest]
    forms = [f"{at}:{name}" for name in names]
    written = ", ".join(forms[:-1]) + " or " + forms[-1]
    return AmbiguousMoveError(f"ambiguous: the patch at {at} must remove one of the groups at "
                              f"{', '.join(names)}; write {written}")


def _on_board(point: Point, size: int, where: str) -> int:
    if not (0 <= point.file < size and 0 <= point.rank < size):
        raise IllegalMoveError(f"{where}: {point} is off the {size}×{size} board")
    return point.index(size)


def _file_rank(index: int, size: int) -> tuple[int, int]:
    rank, file = divmod(index, size)
    return file, rank


def _point(index: int, size: int) -> Point:
    return _points(size)[index]


@cache
def _points(size: int) -> tuple[Point, ...]:
    return tuple(Point(*_file_rank(index, size)) for index in range(size * size))


def _name(index: int, size: int) -> str:
    return str(_point(index, size))


def _piece_name(piece: str) -> str:
    colour = COLOURS[piece.lower() == "w"]
    return f"a {colour.lower()} {'stone' if piece in STONES else 'marker'}"
