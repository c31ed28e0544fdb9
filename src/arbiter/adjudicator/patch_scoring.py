"""Scoring of Pilo and Petrify: patches, pair removal, and the tie-break.

Implements the sections "Scoring" and "Tie-break" that ``spec/rules/pilo.md`` and
``spec/rules/petrify.md`` share. Pure functions of a final board (cells are the Setup letters
of each square, bottom to top: ``""`` empty, else a block or a one-coloured stack) and, for
the tie-break, of the colour of the last board play. Each game names its letters and colours
in its own description; the scoring is handed them as :class:`Pieces`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from arbiter.adjudicator.board import geometry
from arbiter.notation.games import GameDescription

BLUE, ORANGE = 0, 1
"""The colours by their place in the description: Blue (the first) moves first."""


class Pieces:
    """A capture game's colours and letters, by colour, as its rules and scoring use them.

    Built once by the game's module from its description, whose pieces are each colour's
    disk in the order of the colours, then the block (the Setup letters)."""

    __slots__ = ("colours", "disks", "block")

    def __init__(self, game: GameDescription) -> None:
        first, second, block = game.pieces
        self.colours: Final = game.colours
        self.disks: Final = (first.letter, second.letter)
        """The disk letter of each colour."""
        self.block: Final = block.letter


class PatchResult(NamedTuple):
    """One patch at the end: its first square (index), its size, owner and deciding group.

    ``group`` is the size of the biggest group left after pair removal (0 if none is left,
    and then ``owner`` is None)."""

    at: int
    size: int
    owner: int | None
    group: int


def score_patches(board: tuple[str, ...], size: int, pieces: Pieces) -> list[PatchResult]:
    """Every patch of ``board`` with its owner, in the order of their first squares
    (``spec/rules/pilo.md``, "Scoring").

    Group and patch sizes count squares, so a stack of any height adds one."""
    neighbours = geometry(size).neighbours
    block = pieces.block
    label = [-1] * len(board)
    firsts: list[int] = []
    areas: list[int] = []
    for i, cell in enumerate(board):
        if cell != block and label[i] < 0:
            areas.append(_fill(i, neighbours, label, len(firsts), lambda j: board[j] != block))
            firsts.append(i)
    groups = _group_sizes(board, neighbours, label, len(firsts), pieces)
    return [
        PatchResult(first, area, *_owner(*counts))
        for first, area, counts in zip(firsts, areas, groups, strict=True)
    ]


def scores(patches: list[PatchResult]) -> tuple[int, int]:
    """Blue's and Orange's scores: the sizes of the patches each owns, added up."""
    blue = sum(p.size for p in patches if p.owner == BLUE)
    orange = sum(p.size for p in patches if p.owner == ORANGE)
    return blue, orange


def patch_details(
    patches: list[PatchResult], size: int, colours: tuple[str, str]
) -> dict[str, Any]:
    """The JSON-ready ``Outcome.details``: per colour its score and the patches it owns,
    then the patches nobody owns (``spec/rules/pilo.md``, "Outcome details")."""
    names = geometry(size).names
    totals = scores(patches)
    out: dict[str, Any] = {
        colour: {
            "score": totals[c],
            "patches": [
                {"at": names[p.at], "size": p.size, "group": p.group}
                for p in patches
                if p.owner == c
            ],
        }
        for c, colour in enumerate(colours)
    }
    out["unowned"] = [{"at": names[p.at], "size": p.size} for p in patches if p.owner is None]
    return out


def tiebreak(last_play: int | None, score: int, colours: tuple[str, str]) -> tuple[int, str]:
    """The winner of a tie and the sentence that says why (``spec/rules/pilo.md``,
    "Tie-break"): whoever made the last board play loses."""
    if last_play is None:
        # Only a Setup game can end with no board play; the Setup stands for a position
        # with Blue to move, as if Orange had just played (spec: "Tie-break").
        return BLUE, (
            f"scores tied at {score} and no board play was made; {colours[ORANGE]} counts "
            "as having made the last one and loses"
        )
    loser = colours[last_play]
    return 1 - last_play, f"scores tied at {score}; {loser} made the last board play and loses"


def _group_sizes(
    board: tuple[str, ...],
    neighbours: tuple[tuple[int, ...], ...],
    patch_of: list[int],
    count: int,
    pieces: Pieces,
) -> list[tuple[Counter[int], Counter[int]]]:
    """Per patch, how many Blue and how many Orange groups it holds of each size."""
    groups = [(Counter[int](), Counter[int]()) for _ in range(count)]
    seen = [-1] * len(board)
    block, disks = pieces.block, pieces.disks
    for i, cell in enumerate(board):
        if cell and cell != block and seen[i] < 0:
            letter = cell[0]
            area = _fill(i, neighbours, seen, 0, _coloured(board, letter))
            groups[patch_of[i]][disks.index(letter)][area] += 1
    return groups


def _coloured(board: tuple[str, ...], letter: str) -> Callable[[int], bool]:
    """The test "square j holds a stack of the colour ``letter``", for :func:`_fill`."""
    return lambda j: board[j][:1] == letter


def _owner(blue: Counter[int], orange: Counter[int]) -> tuple[int | None, int]:
    """The owner after pair removal and the size of its biggest group left.

    Removing pairs of equal sizes leaves, at each size, only the colour that had more groups
    of that size; so the biggest group left is at the largest size where the counts differ."""
    for area in sorted(blue.keys() | orange.keys(), reverse=True):
        if blue[area] != orange[area]:
            return (BLUE if blue[area] > orange[area] else ORANGE), area
    return None, 0


def _fill(
    start: int,
    neighbours: tuple[tuple[int, ...], ...],
    label: list[int],
    value: int,
    inside: Callable[[int], bool],
) -> int:
    """Label the orthogonally connected squares around ``start`` for which ``inside`` holds
    (and that have no label yet) with ``value``; return how many there are."""
    label[start] = value
    todo = [start]
    count = 0
    while todo:
        square = todo.pop()
        count += 1
        for other in neighbours[square]:
            if label[other] < 0 and inside(other):
                label[other] = value
                todo.append(other)
    return count
