"""Board geometry shared by every engine: flat indices, square names, neighbours, rays.

A board of side ``size`` is a flat tuple indexed by ``rank * size + file`` (a1 = 0, b1 = 1,
..., then rank 2), as ``spec/rules/README.md`` says. Every table here is built once per size
and cached, so engines look squares up instead of computing them in their hot paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from arbiter.notation.ast import STEPS, Grid, Point
from arbiter.notation.errors import IllegalMoveError

Direction = tuple[int, int]
"""A step on the board: (files to the right, ranks upwards)."""

RayTables = dict[tuple[Direction, ...], tuple[tuple[tuple[int, ...], ...], ...]]
"""For some tuples of directions, every index's ray in each of them."""

EAST: Final[Direction] = STEPS["e"]  # the compass of the notation's sowing paths
NORTH: Final[Direction] = STEPS["n"]
SOUTH: Final[Direction] = STEPS["s"]
WEST: Final[Direction] = STEPS["w"]
ORTHOGONAL: tuple[Direction, ...] = (EAST, WEST, NORTH, SOUTH)
DIAGONAL: tuple[Direction, ...] = ((1, 1), (-1, -1), (1, -1), (-1, 1))
OFF = -1
"""The index of the square beyond the edge in :meth:`Geometry.steps` tables."""


class Geometry:
    """The fixed tables of one board size; get one with :func:`geometry` (one per size, so
    two are equal only when they are the same object)."""

    __slots__ = ("size", "points", "names", "neighbours", "rows", "columns", "ray_tables")

    def __init__(
        self,
        size: int,
        points: tuple[Point, ...],
        names: tuple[str, ...],
        neighbours: tuple[tuple[int, ...], ...],
        rows: tuple[tuple[int, ...], ...],
        columns: tuple[tuple[int, ...], ...],
    ) -> None:
        self.size: Final = size
        self.points: Final = points
        """The point of every index."""
        self.names: Final = names
        """The notation of every index ("d4")."""
        self.neighbours: Final = neighbours
        """The orthogonal neighbours of every index that lie on the board."""
        self.rows: Final = rows
        """Rank by rank, the indices of each rank from file a rightwards."""
        self.columns: Final = columns
        """File by file, the indices of each file from rank 1 upwards."""
        self.ray_tables: Final[RayTables] = {}
        """:meth:`rays` already built, by directions (engines ask for them at every move)."""

    def index(self, point: Point) -> int:
        """The flat index of ``point``. Raises ``IllegalMoveError`` if it is off the board."""
        return point_index(point, self.size)

    def on_board(self, point: Point) -> bool:
        return 0 <= point.file < self.size and 0 <= point.rank < self.size

    def steps(self, direction: Direction) -> tuple[int, ...]:
        """For every index, the index one step away in ``direction`` (``OFF`` past the edge)."""
        return _steps(self.size, direction)

    def ray(self, start: int, direction: Direction) -> tuple[int, ...]:
        """The indices from the next square in ``direction`` to the edge, nearest first."""
        return _rays(self.size, direction)[start]

    def rays(self, directions: tuple[Direction, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For every index, its ray in each of ``directions`` (in that order)."""
        table = self.ray_tables.get(directions)
        if table is None:
            table = self.ray_tables[directions] = _ray_table(self.size, directions)
        return table

    def grid(self, board: Sequence[str]) -> Grid:
        """A flat board of cells as a grid (``grid[rank][file]``)."""
        size = self.size
        return tuple(tuple(board[rank * size : (rank + 1) * size]) for rank in range(size))

    def flat(self, grid: Grid) -> tuple[str, ...]:
        """A grid as a flat board. Raises ``ValueError`` if it is not ``size``×``size``."""
        size = self.size
        if len(grid) != size or any(len(rank) != size for rank in grid):
            raise ValueError(f"the setup is not a {size}×{size} position")
        return tuple(cell for rank in grid for cell in rank)


def point_index(point: Point, size: int) -> int:
    """The flat index of ``point`` on a ``size``×``size`` board (what :meth:`Geometry.index`
    gives, for an engine that has the size but not the tables: ``geometry`` is a call through
    a cache). Raises ``IllegalMoveError`` if it is off the board."""
    file, rank = point.file, point.rank
    if not (0 <= file < size and 0 <= rank < size):
        raise IllegalMoveError(f"{point} is off the {size}×{size} board")
    return rank * size + file


@cache
def geometry(size: int) -> Geometry:
    """The tables of a ``size``×``size`` board (built once per size)."""
    count = size * size
    points = tuple(Point(i % size, i // size) for i in range(count))
    tables = [_steps(size, direction) for direction in ORTHOGONAL]
    neighbours = tuple(tuple(t[i] for t in tables if t[i] != OFF) for i in range(count))
    return Geometry(
        size=size,
        points=points,
        names=tuple(map(str, points)),
        neighbours=neighbours,
        rows=tuple(tuple(r * size + f for f in range(size)) for r in range(size)),
        columns=tuple(tuple(r * size + f for r in range(size)) for f in range(size)),
    )


@cache
def _steps(size: int, direction: Direction) -> tuple[int, ...]:
    df, dr = direction
    out = []
    for i in range(size * size):
        file, rank = i % size + df, i // size + dr
        out.append(rank * size + file if 0 <= file < size and 0 <= rank < size else OFF)
    return tuple(out)


@cache
def _rays(size: int, direction: Direction) -> tuple[tuple[int, ...], ...]:
    step = _steps(size, direction)
    out = []
    for start in range(size * size):
        ray = []
        here = step[start]
        while here != OFF:
            ray.append(here)
            here = step[here]
        out.append(tuple(ray))
    return tuple(out)


@cache
def _ray_table(
    size: int, directions: tuple[Direction, ...]
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    by_direction = [_rays(size, d) for d in directions]
    return tuple(tuple(rays[i] for rays in by_direction) for i in range(size * size))
