"""Text diagrams for terminals (``spec/diagrams.md``, "Text diagrams"): ``arbiter show``.

A board is printed rank by rank, top rank first, with file letters above and below and rank
numbers on both sides. Each square or point is one slot: a mark on its left, the piece, a
mark on its right. Unicode uses ● ○ for the two colours' stones and disks, ■ □ for markers, ▒
for blocks, box-drawing lines for a board of points and · for an empty square; ASCII uses
the position notation's letters, ``+`` and ``.``. A stack of one colour is its piece and its
height (``●3``, ``b3``); a stack of several colours, and any square of a game whose stacks
are columns of men, is its letters, bottom to top (``nnr``, ``r``).
The last move's squares are marked ``( )``, a refused move's ``> <``.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.diagram.frames import Frame
from arbiter.diagram.look import Look, PieceLook, look
from arbiter.notation.ast import FILES, Move, Point

SYMBOLS = {"disk": "●○", "stone": "●○", "marker": "■□", "block": "▒▒", "man": "●○"}
"""Unicode symbols by shape, for the first and second colour (blocks are nobody's)."""
CORNERS = "┌┬┐├┼┤└┴┘"
LAST = "()"
REFUSED = "><"


def render_text(frame: Frame, *, ascii: bool = False) -> str:
    """The board of ``frame`` as text, then its caption; a legend when a move is marked."""
    style = look(frame.game)
    grid = frame.position.grid
    size = len(grid)
    tokens = [[_token(style, cell, ascii) for cell in row] for row in grid]
    width = max(1, *(len(token) for row in tokens for token in row))
    marks = _marks(frame, size)
    files = "".join(f" {FILES[f]:^{width}} " for f in range(size))
    lines = [f"   {files}"]
    for rank in range(size - 1, -1, -1):
        row = "".join(
            _slot(style, tokens[rank][file], width, file, rank, size, marks, ascii)
            for file in range(size)
        )
        lines.append(f"{rank + 1:>2} {row} {rank + 1}")
    lines.append(f"   {files}")
    lines.extend(frame.caption())
    legend = [
        f"{mark[0]}…{mark[1]} {meaning}"
        for mark, meaning in ((LAST, "last move"), (REFUSED, "refused move"))
        if mark in marks.values()
    ]
    if legend:
        lines.append("   ".join(legend))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _token(style: Look, cell: str, ascii: bool) -> str:
    """What one square shows ("" when it is empty)."""
    if not cell:
        return ""
    if len(cell) > 1 and (style.stacks == "column" or cell.strip(cell[0])):
        return cell
    piece = style.pieces[cell[0]]
    symbol = piece.letter if ascii or style.stacks == "column" else _symbol(piece)
    return symbol + (str(len(cell)) if len(cell) > 1 else "")


def _symbol(piece: PieceLook) -> str:
    symbols = SYMBOLS[piece.shape]
    return symbols[piece.owner or 0] if piece.owner is not None or piece.shape == "block" else "◌"


def _slot(
    style: Look,
    token: str,
    width: int,
    file: int,
    rank: int,
    size: int,
    marks: dict[Point, str],
    ascii: bool,
) -> str:
    """One square or point: its left mark, its piece (or the empty board), its right mark."""
    lines = style.points and not ascii
    fill = "─" if lines else " "
    if not token:
        token = _empty(file, rank, size, lines, ascii, style.points)
    body = token.center(width, fill)
    left = fill if lines and file > 0 else " "
    right = fill if lines and file < size - 1 else " "
    mark = marks.get(Point(file, rank))
    if mark:
        left, right = mark[0], mark[1]
    return f"{left}{body}{right}"


def _empty(file: int, rank: int, size: int, lines: bool, ascii: bool, points: bool) -> str:
    if not lines:
        return "+" if points else ("." if ascii else "·")
    row = 0 if rank == size - 1 else (2 if rank == 0 else 1)
    column = 0 if file == 0 else (2 if file == size - 1 else 1)
    return CORNERS[row * 3 + column]


def _marks(frame: Frame, size: int) -> dict[Point, str]:
    """The squares to bracket: the last move's, then the refused move's (which win)."""
    marks = dict.fromkeys(_squares(frame.last, size), LAST)
    if frame.refused is not None:
        marks.update(dict.fromkeys(_squares(frame.refused, size), REFUSED))
    return marks


def _squares(move: Move | None, size: int) -> Sequence[Point]:
    """The squares a move is seen on: where it starts and where it ends, as far as it
    stays on the board (one square for a placement or a flip; none for a pass)."""
    squares = () if move is None else move.trace(size).squares
    return squares[:1] + squares[-1:] if len(squares) > 1 else squares
