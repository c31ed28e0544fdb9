"""The Petrify rules engine: single disks that capture along eight lines, and never leave a
mound or a barricade of blocks behind.

Implements ``spec/rules/petrify.md``. What Petrify shares with Pilo (turns, pie rule,
passing, scoring of patches with pair removal, tie-break) is in
:mod:`arbiter.adjudicator.capture_games`; this module adds what is Petrify's own: eight
directions, any enemy disk as a target, and the formations.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from arbiter.adjudicator.board import DIAGONAL, ORTHOGONAL, geometry
from arbiter.adjudicator.capture_games import CaptureRules, CaptureState, Pieces
from arbiter.notation.games import GameDescription, Piece

DESCRIPTION = GameDescription(
    name="Petrify",
    colours=("Blue", "Orange"),
    sizes=tuple(range(3, 20)),
    moves=("place", "move", "pass", "swap"),
    pieces=(Piece("b", "Blue disk"), Piece("o", "Orange disk"), Piece("x", "block")),
    scored=True,
)
PIECES: Final = Pieces(DESCRIPTION)
BLOCK: Final = PIECES.block
EIGHT = ORTHOGONAL + DIAGONAL
EDGE = "the edge of the board"


State = CaptureState
"""A Petrify position (the capture games' state): each cell is ``""``, ``"b"``, ``"o"`` or
``"x"`` (a block)."""


class Formation(NamedTuple):
    """A mound or barricade that a block on some square would complete.

    ``others`` are the real squares that must hold blocks too; ``edge`` says whether squares
    of the ring of virtual blocks around the board take part (they always hold blocks)."""

    kind: str
    others: tuple[int, ...]
    edge: bool


class PetrifyRules(CaptureRules):
    """Petrify (Luis Bolaños Mures, 2021) as ``spec/rules/petrify.md`` states it."""

    description = DESCRIPTION
    pieces = PIECES
    directions = EIGHT
    piece = "disk"
    lines = "one row, column or diagonal"

    def _board_fault(self, board: tuple[str, ...], size: int) -> str | None:
        # Every block was left by a capture that may not complete a formation, so a position
        # with one cannot arise in play.
        for square, cell in enumerate(board):
            found = completed(board, size, square) if cell == BLOCK else None
            if found:
                return f"{geometry(size).names[square]} is part of {_words(found, size)}"
        return None

    def _may_leave(self, board: tuple[str, ...], size: int, origin: int) -> bool:
        return completed(board, size, origin) is None

    def _why_not_leave(self, board: tuple[str, ...], size: int, origin: int) -> str:
        found = completed(board, size, origin)
        assert found is not None
        return (
            f"the block left on {geometry(size).names[origin]} would complete {_words(found, size)}"
        )

    def _landed(self, mover: str) -> str:
        return mover


def completed(board: tuple[str, ...], size: int, square: int) -> Formation | None:
    """The first mound or barricade that a block on ``square`` would complete, or None.

    The ring of virtual blocks counts; squares beyond it do not (see ``spec/rules/petrify.md``,
    "Mounds and barricades")."""
    for shape in formations(size)[square]:
        for other in shape.others:
            if board[other] != BLOCK:
                break
        else:
            return shape
    return None


@cache
def formations(size: int) -> tuple[tuple[Formation, ...], ...]:
    """For each square, every mound and barricade through it that fits inside the ring."""
    return tuple(
        tuple(_shapes(square % size, square // size, size)) for square in range(size * size)
    )


def _shapes(file: int, rank: int, size: int) -> list[Formation]:
    """The 2×2 squares and diagonal lines of three through (file, rank), mounds first, that
    lie within the ring; a shape reaching beyond the ring can never be all blocks."""
    mounds = [
        [(file + df + a, rank + dr + b) for a in (0, 1) for b in (0, 1)]
        for df in (-1, 0)
        for dr in (-1, 0)
    ]
    barricades = [
        [(file + (k + j) * dx, rank + (k + j) * dy) for j in range(3)]
        for dx, dy in ((1, 1), (1, -1))
        for k in (-2, -1, 0)
    ]
    shapes = [("mound", cells) for cells in mounds] + [("barricade", c) for c in barricades]
    out = []
    for kind, cells in shapes:
        if all(-1 <= f <= size and -1 <= r <= size for f, r in cells):
            inside = [(f, r) for f, r in cells if 0 <= f < size and 0 <= r < size]
            others = tuple(sorted(r * size + f for f, r in inside if (f, r) != (file, rank)))
            out.append(Formation(kind, others, len(inside) < len(cells)))
    return out


def _words(shape: Formation, size: int) -> str:
    """``shape`` in words: "a mound with b1 and the edge of the board"."""
    parts = [geometry(size).names[other] for other in shape.others]
    if shape.edge:
        parts.append(EDGE)
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"a {shape.kind} with {joined}"
