"""Implo: the rules engine, as stated in ``spec/rules/implo.md``.

A turn places a stone, then resolves every patch (an empty territory of at most four points)
in an order the mover chooses. The record says which choices were made (``d4/e5/a1:b2``);
this module checks those choices, fills in the ones that are forced, refuses the ones left
open (``AmbiguousMoveError``), and remembers the fully written canonical form of each turn in
``State.last_move`` so that a writer can print it.

The board is a flat tuple of one-letter strings indexed by ``rank * size + file``: ``""``
empty, ``b``/``w`` stones, ``B``/``W`` markers (the Setup letters). All flood fills are
local: a territory is explored only until it proves too big to be a patch, a stone group
only when a patch next to it is resolved, and a removal needs no fill at all (see
``_resolve``). ``play`` is the hot path of every replay; ``legal_moves`` may be slower.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
VISITED = "."
"""Marks the empty points a fill has met, on a scratch copy of the board (see
``_placed_patches``)."""
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
        # This runs once per ply of every record replayed, so it is written out flat; the
        # common turn (nothing to resolve, nothing written) builds its state at once.
        if state.empty == 0:
            raise IllegalMoveError("the game is over (the board is full)")
        if type(move) is not ImploPlace:
            if isinstance(move, Swap):
                return _swap(state)
            if isinstance(move, Place):
                move = ImploPlace(move.at)
            if not isinstance(move, ImploPlace):
                raise IllegalMoveError(f"{move} is not an Implo move: every turn places a stone")
        size, point = state.size, move.at
        file, rank = point.file, point.rank
        if not (0 <= file < size and 0 <= rank < size):
            raise IllegalMoveError(f"{point} is off the {size}×{size} board")
        at = rank * size + file  # point.index(size)
        board = state.board
        if board[at]:
            raise IllegalMoveError(f"{point} is occupied (by {_piece_name(board[at])})")
        mover = state.mover
        cells = list(board)
        cells[at] = STONES[mover]
        placed = tuple(cells)  # the next board, unless a patch is resolved
        nbrs = _neighbours(size)
        pending = _placed_patches(cells, nbrs, at)  # leaves marks in cells
        steps = move.resolve
        # A move whose steps are all kept as written is equal to its canonical form: it is
        # that form, unless a class differs (dataclass equality compares classes).
        exact = type(move) is ImploPlace and type(point) is Point and type(steps) is tuple
        if not (pending or steps):
            canonical = move if exact else ImploPlace(_point(at, size))
            return _state(size, placed, 1 - mover, state.ply + 1, state.empty - 1, canonical,
                          mover)
        cells = list(placed)
        done: list[Resolve] = []  # the steps as the canonical writer writes them
        kept = _write(cells, nbrs, _arounds(size), pending, mover, size, steps, done)
        if pending:  # the record stops here: only forced steps may be left out
            turn = _Turn(size, nbrs, cells, pending, mover, at, done)
            while turn.pending:
                turn.forced()
        canonical = (move if exact and kept == len(done)
                     else ImploPlace(_point(at, size), tuple(done)))
        return _state(size, tuple(cells), 1 - mover, state.ply + 1, cells.count(EMPTY),
                      canonical, mover)

    def canonical_move(self, state: State, move: Move) -> Move:
        """``move`` as the canonical writer prints it, every step written.

        Raises what ``play`` raises."""
        after = self.play(state, move)
        return after.last_move if after.last_move is not None else move

    def outcome(self, state: State) -> Outcome | None:
        """The winner once the board is full (see ``spec/rules/implo.md``, "End")."""
        if not _over(state):
            return None
        sizes = _marker_groups(state)
        figures = _figures_of(state, sizes)
        stones = figures["stones"]
        size = _deciding_size(*sizes)
        if size is not None:
            counts = [sizes[colour].get(size, 0) for colour in (0, 1)]
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
    point (rank, then file), the point the canonical form names it by; it always holds every
    patch on the board. ``play`` needs one only for steps a record leaves out (see
    ``_write``); ``legal_moves`` walks the choices with copies of it."""

    __slots__ = ("size", "nbrs", "arounds", "cells", "pending", "mover", "at", "steps")

    def __init__(self, size: int, nbrs: tuple[tuple[int, ...], ...], cells: list[str],
                 pending: list[tuple[int, ...]], mover: int, at: int,
                 steps: list[Resolve]) -> None:
        self.size, self.nbrs, self.arounds, self.cells = size, nbrs, _arounds(size), cells
        self.pending, self.mover, self.at, self.steps = pending, mover, at, steps

    @classmethod
    def placed(cls, state: State, at: int) -> _Turn:
        """The turn just after the mover's stone lands on ``at`` (an empty point)."""
        cells = list(state.board)
        cells[at] = STONES[state.mover]
        nbrs = _neighbours(state.size)
        pending = _placed_patches(cells.copy(), nbrs, at)
        return cls(state.size, nbrs, cells, pending, state.mover, at, [])

    def copy(self) -> _Turn:
        return _Turn(self.size, self.nbrs, self.cells.copy(), self.pending.copy(), self.mover,
                     self.at, self.steps.copy())

    def options(self, patch: tuple[int, ...]) -> tuple[int, list[list[int]]]:
        """The owner of ``patch`` and the owner's tied biggest adjacent groups (see
        ``_options``)."""
        return _options(self.cells, self.nbrs, self.arounds, patch, self.mover)

    def apply(self, patch: tuple[int, ...], owner: int, group: Sequence[int],
              tied: bool) -> None:
        """Resolve ``patch`` (see ``_resolve``); the step is recorded as the canonical writer
        names it."""
        _resolve(self.cells, self.nbrs, self.pending, patch, owner, group)
        size = self.size
        remove = _point(group[0], size) if tied else None
        self.steps.append(Resolve(_point(patch[0], size), remove))

    def forced(self) -> None:
        """Apply the next step when it is forced. Raises ``AmbiguousMoveError`` if not."""
        if len(self.pending) > 1:
            names = ", ".join(_name(patch[0], self.size) for patch in sorted(self.pending))
            raise AmbiguousMoveError(f"ambiguous: patches at {names} remain; write the order")
        patch = self.pending[0]
        owner, biggest = self.options(patch)
        if len(biggest) > 1:
            raise _tie_error(patch, biggest, self.size)
        self.apply(patch, owner, biggest[0] if biggest else [], False)


def _write(cells: list[str], nbrs: tuple[tuple[int, ...], ...],
           arounds: dict[tuple[int, ...], tuple[int, ...]], pending: list[tuple[int, ...]],
           mover: int, size: int, steps: tuple[Resolve, ...], done: list[Resolve]) -> int:
    """Apply a turn's written steps in order, each appended to ``done`` as the canonical
    writer writes it; return how many of them were written that way (and appended as they
    are). Raises ``IllegalMoveError`` if one names no current patch or a wrong group;
    ``AmbiguousMoveError`` if a needed group is unnamed."""
    record = done.append
    kept = 0
    for number, step in enumerate(steps, 1):
        named = step.patch
        file, rank = named.file, named.rank
        if not (0 <= file < size and 0 <= rank < size):
            raise IllegalMoveError(
                f"step {number} ({step}): {named} is off the {size}×{size} board")
        index = rank * size + file  # named.index(size)
        for patch in pending:
            if index in patch:
                break
        else:
            raise _not_a_patch(cells, pending, named, index, f"step {number} ({step})")
        owner, biggest = _options(cells, nbrs, arounds, patch, mover)
        group: Sequence[int]
        remove = step.remove
        if remove is not None:
            stone = _on_board(remove, size, step, number)
            for group in biggest:
                if stone in group:
                    break
            else:
                raise _wrong_group(remove, patch, owner, biggest, size,
                                   f"step {number} ({step})")
            tied = len(biggest) > 1
            canonical = tied and stone == group[0] and type(remove) is Point
        elif len(biggest) > 1:
            raise _tie_error(patch, biggest, size)
        else:
            group = biggest[0] if biggest else []
            tied, canonical = False, True
        _resolve(cells, nbrs, pending, patch, owner, group)
        if canonical and index == patch[0] and type(step) is Resolve and type(named) is Point:
            record(step)  # the record's own step: it is the canonical one
            kept += 1
        else:
            record(Resolve(_point(patch[0], size), _point(group[0], size) if tied else None))
    return kept


def _not_a_patch(cells: list[str], pending: list[tuple[int, ...]], point: Point, index: int,
                 where: str) -> IllegalMoveError:
    if not pending:
        return IllegalMoveError(f"{where}: no patch remains to resolve")
    content = cells[index]
    why = (f"it holds {_piece_name(content)}" if content
           else f"its territory has more than {PATCH_MAX} points")
    return IllegalMoveError(f"{where}: {point} is not in a patch ({why})")


def _options(cells: list[str], nbrs: tuple[tuple[int, ...], ...],
             arounds: dict[tuple[int, ...], tuple[int, ...]], patch: tuple[int, ...],
             mover: int) -> tuple[int, list[list[int]]]:
    """The owner of ``patch`` and the owner's tied biggest adjacent groups, each sorted, the
    one with the lowest stone first (a new list: the caller may keep it).

    Ownership compares the biggest adjacent group of each colour, not stone totals; a tie
    (0 against 0 included) gives the patch to the mover's opponent."""
    around = arounds.get(patch)
    if around is None:
        around = arounds[patch] = _around(patch, nbrs)
    black = white = 0  # the biggest adjacent group of each colour ...
    blacks: list[list[int]] = []  # ... and the groups of that size
    whites: list[list[int]] = []
    seen: list[int] | None = None  # the stones of the groups of two or more filled so far
    for q in around:
        stone = cells[q]
        if stone == "b" or stone == "w":
            if seen is not None and q in seen:
                continue
            group = [q]
            for x in group:  # grows while it is walked: a breadth-first fill
                for y in nbrs[x]:
                    if cells[y] == stone and y not in group:
                        group.append(y)
            size = len(group)
            if size > 1:  # a single stone is met once: ``around`` has no repeats
                if seen is None:
                    seen = group.copy()
                else:
                    seen += group
            if stone == "b":
                if size > black:
                    black, blacks = size, [group]
                elif size == black:
                    blacks.append(group)
            elif size > white:
                white, whites = size, [group]
            elif size == white:
                whites.append(group)
    owner = 0 if black > white else 1 if white > black else 1 - mover
    tops = whites if owner else blacks
    for group in tops:
        group.sort()
    if len(tops) > 1:
        tops.sort()  # by lowest stone: the groups are disjoint
    return owner, tops


def _resolve(cells: list[str], nbrs: tuple[tuple[int, ...], ...],
             pending: list[tuple[int, ...]], patch: tuple[int, ...], owner: int,
             group: Sequence[int]) -> None:
    """Resolve ``patch``: markers of ``owner`` on it, ``group`` removed, ``pending`` updated.

    The removed stones' points are empty now: with the empty points next to them they form
    one territory, which takes in every patch next to the group, and is a new patch if still
    small enough. No fill is needed: a turn starts without a patch and ``pending`` holds
    every patch, so an empty point outside ``pending`` lies in a territory of more than
    ``PATCH_MAX`` points."""
    marker = MARKERS[owner]
    for p in patch:
        cells[p] = marker
    pending.remove(patch)
    if not group:
        return
    for p in group:
        cells[p] = EMPTY
    small = len(group) <= PATCH_MAX
    if not pending:  # the usual case: no other patch to take in
        if small:
            for p in group:
                for q in nbrs[p]:
                    if not cells[q] and q not in group:
                        return  # q lies in a territory of more than PATCH_MAX points
            pending.append(tuple(sorted(group)))
        return
    merged = list(group)
    for p in group:
        for q in nbrs[p]:
            if not cells[q] and q not in merged:
                for other in pending:
                    if q in other:
                        pending.remove(other)
                        merged += other
                        break
                else:  # q lies in a territory of more than PATCH_MAX points
                    if not pending:
                        return
                    small = False
    if small and len(merged) <= PATCH_MAX:
        merged.sort()
        pending.append(tuple(merged))


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
        for group in biggest or [[]]:
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


def _state(size: int, board: tuple[str, ...], mover: int, ply: int, empty: int,
           last_move: ImploPlace | None, last_mover: int | None) -> State:
    """The state after a turn, its fields given in order."""
    return State(size, board, mover, ply, empty, last_move, last_mover)


def _placed_patches(scratch: list[str], nbrs: tuple[tuple[int, ...], ...],
                    at: int) -> list[tuple[int, ...]]:
    """The patches (sorted tuples) on ``scratch``, a copy of the board where a stone just
    landed on ``at``: only the territory that held ``at`` can have split, and each of its
    pieces holds an empty neighbour of ``at``. One fill per piece, stopped as soon as it has
    found more than ``PATCH_MAX`` points.

    The fills mark the points they meet with ``VISITED`` in ``scratch`` (and leave them so):
    a fill needs no list of the points met, a neighbour of ``at`` met by an earlier fill needs
    no fill, and a fill that meets a point of an earlier one is in a piece already found too
    big (a patch, once found, is a whole territory)."""
    pending: list[tuple[int, ...]] = []
    for start in nbrs[at]:
        if scratch[start]:  # a piece, or a point of a piece already explored
            continue
        scratch[start] = VISITED
        members = [start]
        for p in members:  # grows while it is walked: a breadth-first fill
            for q in nbrs[p]:
                piece = scratch[q]
                if not piece:
                    scratch[q] = VISITED
                    members.append(q)
                    if len(members) > PATCH_MAX:
                        break
                elif piece is VISITED and q not in members:
                    break
            else:
                continue
            break
        else:
            members.sort()
            pending.append(tuple(members))
    return pending


def _over(state: State) -> bool:
    """The game ends when a turn leaves no empty point (a setup always has one)."""
    return state.empty == 0


def _figures(state: State) -> dict[str, Any]:
    """Marker groups per colour by size (sizes as strings, ascending) and stones per colour."""
    return _figures_of(state, _marker_groups(state))


def _figures_of(state: State, sizes: tuple[dict[int, int], dict[int, int]]) -> dict[str, Any]:
    board = state.board
    return {
        "marker_groups": {colour: {str(k): v for k, v in sorted(counts.items())}
                          for colour, counts in zip(COLOURS, sizes, strict=True)},
        "stones": {COLOURS[0]: board.count(STONES[0]), COLOURS[1]: board.count(STONES[1])},
    }


def _marker_groups(state: State) -> tuple[dict[int, int], dict[int, int]]:
    """The number of marker groups of each size, for each colour."""
    nbrs = _neighbours(state.size)
    cells = list(state.board)  # a marker met by a fill is emptied here: it is not met again
    counts: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for marker, sizes in zip(MARKERS, counts, strict=True):
        left, p = cells.count(marker), 0
        while left:
            p = cells.index(marker, p)  # the next marker not met yet
            cells[p] = EMPTY
            group = [p]
            for x in group:  # grows while it is walked: a breadth-first fill
                for q in nbrs[x]:
                    if cells[q] == marker:
                        cells[q] = EMPTY
                        group.append(q)
            size = len(group)
            left -= size
            sizes[size] = sizes.get(size, 0) + 1
    return counts


def _deciding_size(black: dict[int, int], white: dict[int, int]) -> int | None:
    """The largest group size at which Black and White have different marker-group counts."""
    for size in sorted(black.keys() | white.keys(), reverse=True):
        if black.get(size, 0) != white.get(size, 0):
            return size
    return None


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


def _around(patch: tuple[int, ...], nbrs: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The points next to ``patch``, each once."""
    around: list[int] = []
    for p in patch:
        for q in nbrs[p]:
            if q not in patch and q not in around:
                around.append(q)
    return tuple(around)


@cache
def _arounds(size: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    """``_around`` of the patches met so far on a ``size`` board, by patch: a few thousand
    shapes at most (the polyominoes of up to four points that fit on the board)."""
    return {}


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every flat index on a ``size`` board."""
    table = []
    for index in range(size * size):
        rank, file = divmod(index, size)
        steps = ((rank - 1, file), (rank + 1, file), (rank, file - 1), (rank, file + 1))
        table.append(tuple(r * size + f for r, f in steps if 0 <= r < size and 0 <= f < size))
    return tuple(table)


def _tie_error(patch: tuple[int, ...], biggest: Sequence[Sequence[int]],
               size: int) -> AmbiguousMoveError:
    at = _name(patch[0], size)
    names = [_name(g[0], size) for g in biggest]
    forms = [f"{at}:{name}" for name in names]
    written = ", ".join(forms[:-1]) + " or " + forms[-1]
    return AmbiguousMoveError(f"ambiguous: the patch at {at} must remove one of the groups at "
                              f"{', '.join(names)}; write {written}")


def _wrong_group(point: Point, patch: tuple[int, ...], owner: int,
                 biggest: Sequence[Sequence[int]], size: int, where: str) -> IllegalMoveError:
    at = _name(patch[0], size)
    if not biggest:
        return IllegalMoveError(
            f"{where}: the patch at {at} goes to {COLOURS[owner]}, who has no stone next "
            f"to it, so nothing is removed; drop ':{point}'")
    groups = ", ".join(_name(g[0], size) for g in biggest)
    kind = "the group" if len(biggest) == 1 else "one of the groups"
    return IllegalMoveError(
        f"{where}: {point} is not a stone of a biggest {COLOURS[owner]} group next to the "
        f"patch at {at}; the patch must remove {kind} at {groups}")


def _on_board(point: Point, size: int, step: Resolve, number: int) -> int:
    """The index of ``point``, named in the ``number``-th written ``step``."""
    file, rank = point.file, point.rank
    if not (0 <= file < size and 0 <= rank < size):
        raise IllegalMoveError(f"step {number} ({step}): {point} is off the {size}×{size} board")
    return rank * size + file  # point.index(size)


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
