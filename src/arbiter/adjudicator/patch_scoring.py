"""Scoring of Pilo and Petrify: patches, pair removal, and the tie-break.

Implements the sections "Scoring" and "Tie-break" that ``spec/rules/pilo.md`` and
``spec/rules/petrify.md`` share. Pure functions of a final board (cells are the Setup letters
of each square, bottom to top: ``""`` empty, else a block or a one-coloured stack) and, for
the tie-break, of the colour of the last board play. Each game names its letters and colours
in its own description; the scoring is handed them as :class:`Pieces`.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from arbiter.adjudicator.board import geometry
from arbiter.notation.games import GameDescription

BLUE: Final = 0
ORANGE: Final = 1
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

    Group and patch sizes count squares, so a stack of any height adds one. A group lies
    inside one patch (blocks separate patches, and a group holds no block), so each patch's
    groups are found by fills over the patch's own squares, right after the patch's fill.
    Runs once for every finished record: written out as plain loops over lists."""
    neighbours = geometry(size).neighbours
    block = pieces.block
    blue_disk = pieces.disks[BLUE]
    seen = [False] * len(board)  # squares met by a patch's fill
    grouped = [False] * len(board)  # stacks met by a group's fill
    results: list[PatchResult] = []
    for first, cell in enumerate(board):
        if cell == block or seen[first]:
            continue
        seen[first] = True
        members = [first]
        for square in members:  # grows while it is walked: a breadth-first fill
            for other in neighbours[square]:
                if not seen[other] and board[other] != block:
                    seen[other] = True
                    members.append(other)
        blue: list[int] = []
        orange: list[int] = []
        for square in members:
            letter = board[square][:1]
            if not letter or grouped[square]:
                continue
            grouped[square] = True
            group = [square]
            for stone in group:
                for other in neighbours[stone]:
                    if not grouped[other] and board[other][:1] == letter:
                        grouped[other] = True
                        group.append(other)
            (blue if letter == blue_disk else orange).append(len(group))
        owner, biggest = _owner(blue, orange)
        results.append(PatchResult(first, len(members), owner, biggest))
    return results


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


def _owner(blue: list[int], orange: list[int]) -> tuple[int | None, int]:
    """The owner after pair removal and the size of its biggest group left, from the sizes
    of each colour's groups.

    Removing pairs of equal sizes leaves, at each size, only the colour that had more groups
    of that size; so the biggest group left is at the largest size where the counts differ.
    That is where the two lists of sizes, each sorted from the largest, first differ: the
    colour whose size there is larger (or whose list goes on) owns the patch with it."""
    blue.sort(reverse=True)
    orange.sort(reverse=True)
    for mine, theirs in zip(blue, orange, strict=False):  # the longer one goes on
        if mine != theirs:
            return (BLUE, mine) if mine > theirs else (ORANGE, theirs)
    if len(blue) > len(orange):
        return BLUE, blue[len(orange)]
    if len(orange) > len(blue):
        return ORANGE, orange[len(blue)]
    return None, 0
