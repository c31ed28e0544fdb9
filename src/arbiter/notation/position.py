"""The position notation used by the ``Setup`` tag and by reports (``spec/grn.md``).

Ranks are written from the top rank down, separated by ``/``; within a rank the squares go
from file a rightwards, separated by ``,``. A square is its pieces from the bottom up, one
letter each (the game's letters, see :mod:`notation.games`), or a number ``k`` standing for
``k`` empty squares in a row. Example (Pletore, 3×3): ``3/1,b,1/w,2``.
"""

from __future__ import annotations

from arbiter.notation.ast import Grid
from arbiter.notation.games import GameDescription
from arbiter.notation.limits import BLANK, MAX_DIGITS, ascii_number


class TooManyDigits(ValueError):
    """A count of empty squares of more than MAX_DIGITS digits."""


def parse_position(text: str, spec: GameDescription, size: int) -> Grid:
    """Read a position of ``size``×``size`` for ``spec``'s game.

    Raises ``ValueError`` with a reason if the text is not such a position
    (:class:`TooManyDigits` for a count too long to be one). Counts are ASCII digits, and
    no count is expanded past the end of its rank, whatever it says."""
    rows = text.strip(BLANK).split("/")
    if len(rows) != size:
        raise ValueError(f"the position has {len(rows)} ranks, the board {size}")
    grid = [_parse_rank(row, spec, size, size - i) for i, row in enumerate(rows)]
    return tuple(reversed(grid))


def _parse_rank(row: str, spec: GameDescription, size: int, rank: int) -> tuple[str, ...]:
    squares: list[str] = []
    for cell in row.split(","):
        cell = cell.strip(BLANK)
        if ascii_number(cell) and not cell.startswith("0"):
            if len(cell) > MAX_DIGITS:
                raise TooManyDigits(f"rank {rank}: the count {cell[:12]}... has too many digits")
            if len(squares) + int(cell) > size:
                raise ValueError(f"rank {rank} has more than {size} squares, the board {size}")
            squares.extend([""] * int(cell))
        elif cell and all(letter in spec.letters for letter in cell):
            squares.append(cell)
        else:
            allowed = ", ".join(spec.letters)
            shown = cell if len(cell) <= 20 else cell[:17] + "..."
            raise ValueError(
                f"rank {rank}: {shown!r} is neither a count of empty squares nor a stack of "
                f"{allowed}"
            )
    if len(squares) != size:
        raise ValueError(f"rank {rank} has {len(squares)} squares, the board {size}")
    return tuple(squares)


def format_position(grid: Grid) -> str:
    """Write ``grid`` canonically: top rank first, runs of empty squares as one number."""
    return "/".join([_format_rank(row) for row in reversed(grid)])


def _format_rank(row: tuple[str, ...]) -> str:
    for square in row:
        if not square:
            break
    else:  # a full rank (all of a finished Implo or Pilo board): no run to count
        return ",".join(row)
    cells: list[str] = []
    empty = 0
    for square in row:
        if square:
            if empty:
                cells.append(str(empty))
                empty = 0
            cells.append(square)
        else:
            empty += 1
    if empty:
        cells.append(str(empty))
    return ",".join(cells)
