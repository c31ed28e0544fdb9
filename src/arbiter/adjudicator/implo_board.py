"""Implo's board mechanics: patches, their owners, resolving them, marker groups.

Implements the sections "Patches", "Owner", "Resolving" and "End" of ``spec/rules/implo.md``
on a board that is ``bytes`` (between turns) or a ``bytearray`` (during a turn) indexed by
``rank * size + file``: 0 (:data:`EMPTY`) for an empty point, else a piece's code, one more
than its place among the pieces of the game's description (see :class:`Pieces`). Bytes, not
a tuple of letters: a placement copies one block of memory, and the board is not an object
the cycle collector walks. The description is the game's module's,
:mod:`arbiter.adjudicator.implo`, which imports this one; so this one takes the codes it
needs as arguments (see :class:`Pieces`).

All flood fills are local: a territory is explored only until it proves too big to be a
patch, a stone group only when a patch next to it is resolved, and a removal needs no fill
at all (see :func:`resolve`). The four fills (:func:`placed_patches`, :func:`options`,
:func:`put_down`, :func:`count_marker_groups`) also exist in C, in the optional module
``arbiter._implo`` (``src/arbiter/_implo.c``): :func:`patches_after`, :func:`patch_options`,
:func:`settle` and :func:`marker_groups` call it where the build has it, and the Python
functions where not. The Python ones are the reading the rules are tested against; the C ones
are held to them (``tests/adjudicator/test_implo_core.py``). The turn itself (which steps,
in which order) is :mod:`arbiter.adjudicator.implo_turn`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from arbiter.adjudicator.board import geometry
from arbiter.notation.ast import Point, c_module
from arbiter.notation.games import GameDescription

EMPTY: Final = 0
EMPTY_LETTER: Final = ""
"""An empty point in a board of Setup letters (``Geometry.grid``, the position notation)."""
"""The code of an empty point (falsy, as a test of a cell reads it)."""
PATCH_MAX: Final = 4
"""A territory of at most this many points is a patch."""

Patch = tuple[int, ...]
"""A patch as the sorted tuple of its points: ``patch[0]`` is its lowest point (rank, then
file), the point the canonical form names it by."""
Neighbours = tuple[tuple[int, ...], ...]
"""The orthogonal neighbours of every point (``Geometry.neighbours``)."""


class Tables:
    """What the mechanics look up on a board of one size, at every turn: found with
    :func:`tables`, a dictionary lookup, where ``geometry`` is a call through a cache."""

    __slots__ = ("neighbours", "rings", "points", "arounds")

    def __init__(self, size: int) -> None:
        table = geometry(size)
        self.neighbours: Final[Neighbours] = table.neighbours
        self.rings: Final[tuple[tuple[int, ...], ...]] = tuple(
            tuple(
                (rank + dr) * size + file + df
                if 0 <= file + df < size and 0 <= rank + dr < size
                else rank * size + file
                for df, dr in RING
            )
            for rank in range(size)
            for file in range(size)
        )
        """The eight points around each point, in the order of :data:`RING`; the point
        itself where the board ends (it holds a stone when the ring is read, so it is
        never empty)."""
        self.points: Final[tuple[Point, ...]] = table.points
        self.arounds: Final[dict[Patch, tuple[int, ...]]] = {}
        """The points next to each patch met so far, by patch: a few thousand shapes at
        most (the polyominoes of up to four points that fit on the board)."""


RING: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""The steps (files, ranks) to the eight points around a point, going round: each is next
to the one before (and the last to the first); the even ones are its neighbours."""

_TABLES: Final[dict[int, Tables]] = {}


_C: Final[Any] = c_module("_implo")
_C_PATCHES: Final[Any] = None if _C is None else _C.patches
_C_PLACE: Final[Any] = None if _C is None else _C.place
_C_OPTIONS: Final[Any] = None if _C is None else _C.options
_C_SETTLE: Final[Any] = None if _C is None else _C.settle
_C_MARKER_GROUPS: Final[Any] = None if _C is None else _C.marker_groups


def tables(size: int) -> Tables:
    """The tables of a ``size``×``size`` board (built once per size)."""
    found = _TABLES.get(size)
    if found is None:
        found = _TABLES[size] = Tables(size)
    return found


class Pieces:
    """The colours and piece codes of a description whose pieces are each colour's stone,
    then each colour's marker, by colour (0 for the first colour), ready for the mechanics.

    A piece's code on the board is one more than its place in the description's pieces
    (0 is :data:`EMPTY`): ``letters[code]`` is its Setup letter. The game's module builds one
    from its description, once, and hands it over: this module cannot read the description
    where it is written (that module imports this one)."""

    __slots__ = ("colours", "stones", "markers", "names", "letters", "codes")

    def __init__(self, game: GameDescription) -> None:
        self.colours: Final = game.colours
        self.stones: Final = (1, 2)
        self.markers: Final = (3, 4)
        self.letters: Final[tuple[str, ...]] = (EMPTY_LETTER,) + tuple(
            piece.letter for piece in game.pieces
        )
        """The Setup letter of each code (``""`` for an empty point)."""
        self.codes: Final[Mapping[str, int]] = {
            letter: code for code, letter in enumerate(self.letters)
        }
        """The code of each Setup letter."""
        self.names: Final[Mapping[int, str]] = {
            code + 1: f"a {piece.name}" for code, piece in enumerate(game.pieces)
        }
        """Each piece in words, by code, for messages: "a black stone"."""

    def board(self, cells: Sequence[str]) -> bytes:
        """A board of Setup letters (``""`` empty) as codes. Raises ``ValueError`` for a
        letter that is not one of the game's pieces."""
        try:
            return bytes([self.codes[cell] for cell in cells])
        except KeyError as err:
            raise ValueError(f"{err.args[0]!r} is not a piece of the game") from None

    def cells(self, board: bytes) -> tuple[str, ...]:
        """A board of codes as Setup letters (``""`` empty)."""
        letters = self.letters
        return tuple([letters[board[i]] for i in range(len(board))])


def surrounded_openly(cells: bytes, ring: tuple[int, ...]) -> bool:
    """Whether each empty neighbour of a point that holds a stone lies in a territory too
    big to be a patch, as the eight points around it (``ring``, one of :attr:`Tables.rings`)
    show: see :data:`OPEN_RINGS`.

    Eight reads and a table, no fill: on a board still open (many turns of a game) it is
    enough to know that a stone placed there makes no patch."""
    mask = 0
    bit = 1
    for point in ring:
        if not cells[point]:
            mask |= bit
        bit <<= 1
    return OPEN_RINGS[mask]


def _open_ring(mask: int) -> bool:
    """Whether every neighbour set in ``mask`` (bits in the order of :data:`RING`, a set bit
    an empty point) is in a run of more than ``PATCH_MAX`` set bits, going round."""
    if mask == 255:
        return True
    start = 0  # a clear bit
    while mask >> start & 1:
        start += 1
    run = 0
    neighbour = False
    for step in range(1, 9):  # round the ring, back to ``start``: the last run is closed
        k = (start + step) % 8
        if mask >> k & 1:
            run += 1
            neighbour = neighbour or k % 2 == 0
        else:
            if neighbour and run <= PATCH_MAX:
                return False
            run = 0
            neighbour = False
    return True


OPEN_RINGS: Final = tuple(_open_ring(mask) for mask in range(256))
"""For each set of empty points around a point (a mask, bits in the order of :data:`RING`),
whether it shows that each empty neighbour of the point is in a territory of more than
``PATCH_MAX`` points: going round, consecutive points are next to each other, so a run of
more than ``PATCH_MAX`` empty ones lies in one territory."""


def place_stone(board: bytes, size: int, at: int, stone: int) -> tuple[bytes, list[Patch]]:
    """``board`` with the stone ``stone`` (a code) on the empty point ``at``, and the patches
    that makes (:func:`patches_after`); in one call into C where the build has it."""
    if _C_PLACE is None:
        after = board[:at] + bytes((stone,)) + board[at + 1 :]
        return after, patches_after(after, size, at)
    found: tuple[bytes, list[Patch]] = _C_PLACE(board, size, at, stone)
    return found


def patches_after(board: bytes, size: int, at: int) -> list[Patch]:
    """The patches on ``board`` next to ``at``, where a stone just landed: none when the
    ring test (:func:`surrounded_openly`) shows it, else what :func:`placed_patches` finds;
    both in C where the build has it."""
    if _C_PATCHES is None:
        table = tables(size)
        if surrounded_openly(board, table.rings[at]):
            return []
        return placed_patches(board, table.neighbours, at)
    found: list[Patch] = _C_PATCHES(board, size, at)
    return found


def placed_patches(board: bytes, nbrs: Neighbours, at: int) -> list[Patch]:
    """The patches on ``board``, where a stone just landed on ``at``: only the territory that
    held ``at`` can have split, and each of its pieces holds an empty neighbour of ``at``.
    One fill per piece, stopped as soon as it has found more than ``PATCH_MAX`` points.

    The points every fill met are kept in one short list (at most four per neighbour of
    ``at``): a neighbour met by an earlier fill needs no fill, and a fill that meets a point
    of an earlier one is in a piece already found too big (a patch, once found, is a whole
    territory). The board is read, never written: it stays ``bytes``, whose cells compiled
    code reads as native ints. Loops over lists of native ints, not ``in``: compiled, a
    generic membership test costs more than the whole fill."""
    pending: list[Patch] = []
    met: list[int] = []  # the points of the pieces explored so far
    for start in nbrs[at]:
        if board[start] or contains(met, start):  # a piece, or in a piece already explored
            continue
        members = [start]
        small = True
        i = 0
        while small and i < len(members):  # ``members`` grows while it is walked
            for q in nbrs[members[i]]:
                if not board[q] and not contains(members, q):
                    if len(members) == PATCH_MAX or contains(met, q):
                        small = False
                        break
                    members.append(q)
            i += 1
        if small:
            members.sort()
            pending.append(tuple(members))
        met += members
    return pending


def contains(points: list[int], point: int) -> bool:
    """``point in points``, compared as native ints."""
    for p in points:
        if p == point:
            return True
    return False


def territory(cells: bytes, nbrs: Neighbours, start: int) -> Patch | None:
    """The territory of the empty point ``start`` (sorted) if it is a patch, else None.
    Stops exploring as soon as it has found more than ``PATCH_MAX`` points."""
    members = [start]  # at most five points: a list is the fastest set here
    for p in members:  # grows while it is walked: a breadth-first fill
        for q in nbrs[p]:
            if cells[q] == EMPTY and q not in members:
                members.append(q)
                if len(members) > PATCH_MAX:
                    return None
    return tuple(sorted(members))


def patch_options(
    cells: bytearray, size: int, patch: Patch, mover: int, stones: tuple[int, int]
) -> tuple[int, list[list[int]]]:
    """The owner of ``patch`` and the owner's tied biggest adjacent groups, as
    :func:`options` gives them, found in C where the build has it."""
    if _C_OPTIONS is None:
        table = tables(size)
        return options(cells, table.neighbours, table.arounds, patch, mover, stones)
    found: tuple[int, list[list[int]]] = _C_OPTIONS(cells, size, patch, mover, stones[0], stones[1])
    return found


def options(
    cells: bytearray,
    nbrs: Neighbours,
    arounds: dict[Patch, tuple[int, ...]],
    patch: Patch,
    mover: int,
    stones: tuple[int, int],
) -> tuple[int, list[list[int]]]:
    """The owner of ``patch`` and the owner's tied biggest adjacent groups, each sorted, the
    one with the lowest stone first (a new list: the caller may keep it). ``stones`` are the
    stone codes of the two colours (:attr:`Pieces.stones`).

    Ownership compares the biggest adjacent group of each colour, not stone totals; a tie
    (0 against 0 included) gives the patch to the mover's opponent. Written out flat, with
    the codes in locals, because every resolution of every replay runs it."""
    around = arounds.get(patch)
    if around is None:
        around = arounds[patch] = _around(patch, nbrs)
    black_stone, white_stone = stones
    black = white = 0  # the biggest adjacent group of each colour ...
    blacks: list[list[int]] = []  # ... and the groups of that size
    whites: list[list[int]] = []
    seen: list[int] | None = None  # the stones of the groups of two or more filled so far
    for q in around:
        stone = cells[q]
        if stone == black_stone or stone == white_stone:
            if seen is not None and contains(seen, q):
                continue
            group = [q]
            for x in group:  # grows while it is walked: a breadth-first fill
                for y in nbrs[x]:
                    if cells[y] == stone and not contains(group, y):
                        group.append(y)
            size = len(group)
            if size > 1:  # a single stone is met once: ``around`` has no repeats
                if seen is None:
                    seen = group.copy()
                else:
                    seen += group
            if stone == black_stone:
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


def resolve(
    cells: bytearray,
    size: int,
    pending: list[Patch],
    patch: Patch,
    marker: int,
    group: list[int],
) -> int:
    """Resolve ``patch``: its owner's ``marker`` on it, ``group`` removed, ``pending`` updated.
    Returns the change in the number of empty points (the turn keeps count of them).

    The removed stones' points are empty now: with the empty points next to them they form
    one territory, which takes in every patch next to the group, and is a new patch if still
    small enough. No fill is needed: a turn starts without a patch and ``pending`` holds
    every patch, so an empty point outside ``pending`` lies in a territory of more than
    ``PATCH_MAX`` points. Kept in one piece: it runs once per resolution of every replay."""
    opened = settle(cells, size, patch, marker, group)
    pending.remove(patch)
    change = len(group) - len(patch)
    if not group:
        return change
    if not opened:  # nothing empty next to the group: its points are a territory alone
        if len(group) <= PATCH_MAX:
            pending.append(tuple(sorted(group)))
        return change
    if not pending:  # the usual case: what is empty next to it lies in a big territory
        return change
    nbrs = tables(size).neighbours
    merged = group.copy()
    small = len(group) <= PATCH_MAX
    for p in group:
        for q in nbrs[p]:
            if not cells[q] and not contains(merged, q):
                for other in pending:
                    if q in other:
                        pending.remove(other)
                        merged += other
                        break
                else:  # q lies in a territory of more than PATCH_MAX points
                    if not pending:
                        return change
                    small = False
    if small and len(merged) <= PATCH_MAX:
        merged.sort()
        pending.append(tuple(merged))
    return change


def settle(cells: bytearray, size: int, patch: Patch, marker: int, group: list[int]) -> bool:
    """Put ``marker`` on every point of ``patch`` and remove ``group``; return whether an
    empty point outside ``group`` touches it (in C where the build has it)."""
    if _C_SETTLE is not None:
        opened: bool = _C_SETTLE(cells, size, patch, marker, group)
        return opened
    return put_down(cells, size, patch, marker, group)


def put_down(cells: bytearray, size: int, patch: Patch, marker: int, group: list[int]) -> bool:
    """:func:`settle`, in Python."""
    for p in patch:
        cells[p] = marker
    for p in group:
        cells[p] = EMPTY
    return _open_next_to(group, cells, tables(size).neighbours)


def _open_next_to(group: list[int], cells: bytearray, nbrs: Neighbours) -> bool:
    """Whether an empty point outside ``group`` touches it: with no patch pending, such a
    point lies in a territory of more than ``PATCH_MAX`` points."""
    for p in group:
        for q in nbrs[p]:
            if not cells[q] and not contains(group, q):
                return True
    return False


def _around(patch: Patch, nbrs: Neighbours) -> tuple[int, ...]:
    """The points next to ``patch``, each once."""
    around: list[int] = []
    for p in patch:
        for q in nbrs[p]:
            if q not in patch and q not in around:
                around.append(q)
    return tuple(around)


def marker_groups(
    board: bytes, size: int, markers: tuple[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """The number of marker groups of each size, for each colour (its marker in
    ``markers``). One pass over the board, each group filled from its first point (in C
    where the build has it)."""
    if _C_MARKER_GROUPS is not None:
        counted: tuple[dict[int, int], dict[int, int]] = _C_MARKER_GROUPS(
            board, size, markers[0], markers[1]
        )
        return counted
    return count_marker_groups(board, size, markers)


def count_marker_groups(
    board: bytes, size: int, markers: tuple[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """:func:`marker_groups`, in Python."""
    nbrs = tables(size).neighbours
    cells = list(board)  # a marker met by a fill is emptied here: it is not met again
    black, white = markers
    counts: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for p in range(len(cells)):
        marker = cells[p]
        if marker != black and marker != white:
            continue
        cells[p] = EMPTY
        group = [p]
        i = 0
        while i < len(group):  # ``group`` grows while it is walked: a breadth-first fill
            for q in nbrs[group[i]]:
                if cells[q] == marker:
                    cells[q] = EMPTY
                    group.append(q)
            i += 1
        sizes = counts[0] if marker == black else counts[1]
        found = len(group)
        sizes[found] = sizes.get(found, 0) + 1
    return counts


def deciding_size(black: dict[int, int], white: dict[int, int]) -> int | None:
    """The largest group size at which Black and White have different marker-group counts."""
    # The largest size either colour has, by loops: compiled, ``max(..., default=0)`` is a
    # generic call.
    size = 0
    for found in black:
        size = max(size, found)
    for found in white:
        size = max(size, found)
    while size > 0:
        if black.get(size, 0) != white.get(size, 0):
            return size
        size -= 1
    return None
