"""How each game looks in a diagram: board, piece shapes and colours (``spec/diagrams.md``).

Everything is derived from the game's description (:class:`GameDescription`): the board
kind (squares or points), the colours, and each piece's name, whose first word names its
owner's colour ("Blue disk", "white marker") or none ("block", "neutral man") and whose last
word names its shape (disk, stone, marker, block, man); the shape of a game's pieces also
says how its stacks are drawn (a man is a bar of a column). A game registered later gets a
sensible look from its description alone: no letter, colour or stack style is keyed by a
game's name, and the table :data:`BOARDS` only gives the five games their own board tints,
any other game getting the tint of its kind of board (:data:`DEFAULT_BOARDS`).

The palette is chosen to survive black-and-white print and colour-blind eyes: the two
colours of a game always differ strongly in lightness (dark blue against light orange,
black against white, a light red against black), shapes tell stones from markers and
blocks, and every mark of a move is told by its shape and line style, not by its colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from arbiter.notation.games import GameDescription

Shape = Literal["disk", "stone", "marker", "block", "man"]
StackStyle = Literal["height", "column"]


@dataclass(frozen=True, slots=True)
class Paint:
    """The colours of one kind of piece: ``fill``, its outline ``stroke``, and ``ink`` for
    what is drawn on top of it (a stack's height, the last-move ring) so that it shows."""

    fill: str
    stroke: str
    ink: str


@dataclass(frozen=True, slots=True)
class PieceLook:
    """One letter of the position notation as it is drawn: its shape, owner and paint.

    ``owner`` is the index of the colour in the description (0 first player), or None for a
    neutral piece."""

    letter: str
    shape: Shape
    owner: int | None
    paint: Paint


@dataclass(frozen=True, slots=True)
class Board:
    """A board's paint: ``fill`` (and ``alternate`` for a chequered board of squares),
    ``line`` for its grid and ``label`` for the coordinates."""

    fill: str
    line: str
    label: str
    alternate: str | None = None


@dataclass(frozen=True, slots=True)
class Look:
    """Everything a diagram of one game needs to know beyond the position."""

    game: GameDescription
    board: Board
    pieces: Mapping[str, PieceLook]
    colours: tuple[Paint, Paint]
    """The paint of each colour's pieces (for control marks and the side to move)."""
    stacks: StackStyle | None
    """How a square holding several pieces is drawn; None when the game has no stacks."""

    @property
    def points(self) -> bool:
        """Pieces stand on the intersections of lines rather than in squares."""
        return self.game.board == "points"


# Colour names the games use, with a paint each. The two colours of a game must differ in
# lightness (black-and-white print): Blue and Red are dark or middling, Orange and White light.
NAMED: Mapping[str, Paint] = {
    "blue": Paint("#1b56b0", "#0f356e", "#ffffff"),
    "orange": Paint("#f6a230", "#9a5a06", "#1a1a1a"),
    "black": Paint("#1c1c1c", "#000000", "#ffffff"),
    "white": Paint("#f8f8f5", "#3a3a3a", "#1a1a1a"),
    "red": Paint("#e0483c", "#8c1c14", "#ffffff"),
    "green": Paint("#1e7d4f", "#0f4a2e", "#ffffff"),
    "purple": Paint("#c9a6e4", "#5c3680", "#1a1a1a"),
    "yellow": Paint("#f2d43d", "#8a7412", "#1a1a1a"),
    "brown": Paint("#6b4226", "#3b2414", "#ffffff"),
    "grey": Paint("#8a8a8a", "#444444", "#ffffff"),
    "gray": Paint("#8a8a8a", "#444444", "#ffffff"),
}
FALLBACK = (Paint("#2b2b5c", "#111133", "#ffffff"), Paint("#f2f0e6", "#3a3a3a", "#1a1a1a"))
"""Paints for colours with no name above: one dark, one light."""

BLOCK = Paint("#8f8f8f", "#4d4d4d", "#ffffff")
NEUTRAL = Paint("#f1ead8", "#6e6048", "#1a1a1a")

BOARDS: Mapping[str, Board] = {
    "Pilo": Board("#ecdcb6", "#8b7349", "#5f4a26"),
    "Petrify": Board("#dfe2d8", "#7c8474", "#4a5244"),
    "Pilare": Board("#d9e1e4", "#71828a", "#44535a", alternate="#b3c2c8"),
    "Implo": Board("#edd49c", "#4f3a1c", "#4f3a1c"),
    "Pletore": Board("#ddb670", "#3f2c12", "#3f2c12"),
}
"""The five games' own board tints, so that each is known at a glance; a tint is a matter
of taste that no fact of a description decides, so it is keyed by name, and any other game
is drawn with :data:`DEFAULT_BOARDS`."""

DEFAULT_BOARDS: Mapping[str, Board] = {
    "squares": Board("#ebe4d3", "#7d7461", "#4f4636"),
    "points": Board("#e4c583", "#4a3818", "#4a3818"),
}
"""The board of any game without a tint of its own, by its kind of board."""

SHAPES: Mapping[str, Shape] = {
    "disk": "disk",
    "disc": "disk",
    "dot": "disk",
    "checker": "disk",
    "piece": "disk",
    "stone": "stone",
    "marker": "marker",
    "block": "block",
    "man": "man",
    "men": "man",
}
"""The last word of a piece's name, and the shape it is drawn as."""


def look(game: GameDescription) -> Look:
    """The look of ``game``, derived from its description (built once per description)."""
    cached = _LOOKS.get(game.name)
    if cached is None or cached.game is not game:
        cached = _LOOKS[game.name] = _build(game)
    return cached


_LOOKS: dict[str, Look] = {}
"""Looks by game name; a description is not hashable (its ``start`` is a mapping)."""


def _build(game: GameDescription) -> Look:
    colours = (_paint(game.colours[0], 0), _paint(game.colours[1], 1))
    pieces = {
        piece.letter: _piece(piece.letter, piece.name, game, colours) for piece in game.pieces
    }
    stacks = _stack_style(pieces.values()) if game.stacks else None
    board = BOARDS.get(game.name, DEFAULT_BOARDS[game.board])
    return Look(game, board, pieces, colours, stacks)


def _stack_style(pieces: Iterable[PieceLook]) -> StackStyle:
    """Stacks of men are drawn as columns, every man in its place from the bottom up, since
    a man is drawn as a bar of a column; stacks of disks by their height, a stack whose
    colours mix being a column all the same (:func:`arbiter.diagram.svg.fragment`). The
    description does not say whether a game's stacks may mix colours, only what its pieces
    are: games whose stacks mix (Pilare) play with men, those whose stacks are of one colour
    (Pilo) with disks."""
    return "column" if any(piece.shape == "man" for piece in pieces) else "height"


def _paint(colour: str, index: int) -> Paint:
    return NAMED.get(colour.lower(), FALLBACK[index])


def _piece(
    letter: str, name: str, game: GameDescription, colours: tuple[Paint, Paint]
) -> PieceLook:
    """A piece's look from its name: "Blue disk" is Blue's disk, "block" nobody's block."""
    words = name.lower().split()
    owner = next((i for i, c in enumerate(game.colours) if words and words[0] == c.lower()), None)
    shape = SHAPES.get(words[-1] if words else "", "disk" if owner is not None else "block")
    if shape in ("disk", "stone") and game.board == "points":
        shape = "stone"
    elif shape == "stone":
        shape = "disk"
    if owner is not None:
        paint = colours[owner]
    else:
        paint = BLOCK if shape == "block" else NEUTRAL
    return PieceLook(letter, shape, owner, paint)
