"""The Pilo rules engine: stacks that capture enemy stacks of their own height.

Implements ``spec/rules/pilo.md``. What Pilo shares with Petrify (turns, pie rule, passing,
scoring of patches with pair removal, tie-break) is in
:mod:`arbiter.adjudicator.capture_games`; this module adds what is Pilo's own: orthogonal
moves, equal heights, a capture that adds a disk.
"""

from __future__ import annotations

from typing import Final

from arbiter.adjudicator.board import ORTHOGONAL, geometry
from arbiter.adjudicator.capture_games import CaptureRules, CaptureState, Pieces
from arbiter.notation.games import GameDescription, Piece

DESCRIPTION = GameDescription(
    name="Pilo",
    colours=("Blue", "Orange"),
    sizes=tuple(range(3, 20)),
    moves=("place", "move", "pass", "swap"),
    pieces=(Piece("b", "Blue disk"), Piece("o", "Orange disk"), Piece("x", "block")),
    stacks=True,
    scored=True,
)
PIECES: Final = Pieces(DESCRIPTION)
BLOCK: Final = PIECES.block


State = CaptureState
"""A Pilo position (the capture games' state): each cell is ``""``, ``"x"`` (a block) or a
one-coloured stack such as ``"bbb"`` (Blue, height 3), bottom to top, as in the Setup
notation."""


class PiloRules(CaptureRules):
    """Pilo (Luis Bolaños Mures, 2021) as ``spec/rules/pilo.md`` states it."""

    description = DESCRIPTION
    pieces = PIECES
    directions = ORTHOGONAL
    piece = "stack"
    lines = "one row or column"

    def _square_fault(self, cell: str) -> str | None:
        # A stack only ever grows by capturing, which adds a disk of the mover's own colour,
        # and a block stands alone on a square that a stack left.
        if BLOCK in cell:
            return None if cell == BLOCK else "a block stands alone on its square"
        if cell.strip(cell[0]):
            return f"{cell!r} mixes colours, but a stack is all of one colour"
        return None

    def _may_take(self, mover: str, enemy: str) -> bool:
        return len(mover) == len(enemy)

    def _why_not_take(self, board: tuple[str, ...], size: int, origin: int, target: int) -> str:
        names = geometry(size).names
        return (
            f"the stack on {names[origin]} has height {len(board[origin])} "
            f"but the one on {names[target]} has height {len(board[target])}"
        )

    def _landed(self, mover: str) -> str:
        return mover + mover[0]
