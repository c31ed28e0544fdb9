"""What a record can say of each game: its description, and the registry of games.

See ``spec/grn.md`` sections 2 ("Tags"), 5 ("Move forms by game"), 6 ("Results") and 7
("Position notation"). A game is described once, by a :class:`GameDescription` that its rules
class owns (``arbiter.adjudicator``); registering the rules registers the description here,
and everything that depends on a game's facts reads them from this registry: the readers and
the writer, the JSON schema, ``arbiter games``, the OpenAPI description and the tests.
The rules of play are not described here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Final, Literal

from arbiter.notation.plain import Plain

MOVE_FORMS = ("place", "move", "pass", "swap", "flip", "button", "sow")
"""Every move form of the notation, by its JSON ``type`` (``spec/grn.md`` section 5)."""

FORM_NAMES: Mapping[str, str] = {
    "place": "placement",
    "move": "capturing move",
    "pass": "pass",
    "swap": "swap",
    "flip": "flip",
    "button": "button",
    "sow": "sowing move",
}
"""Each move form in words, for messages."""

BoardKind = Literal["squares", "points"]

_COLOUR = re.compile(r"[A-Z][a-z]+")
_KEYWORDS = ("pass", "swap", "button")


class Piece(Plain):
    """One letter of the position notation and what it stands for ("Blue disk")."""

    __slots__ = ("letter", "name")
    _fields = ("letter", "name")

    def __init__(self, letter: str, name: str) -> None:
        self.letter: Final = letter
        self.name: Final = name


class GameDescription(Plain):
    """The facts about one game that records, readers and writers depend on.

    ``colours`` puts the first player's colour first. ``moves`` lists the game's move forms
    (JSON ``type`` values, see :data:`MOVE_FORMS`). ``pieces`` are the letters of the position
    notation; ``stacks`` says whether a square may hold several of them. ``scored`` games
    give results with a points margin (``Orange+6``), ``half_points`` ones may end in ``.5``;
    ``komi`` games need a ``Komi`` tag; ``resolve`` is Implo's resolution steps. ``board``
    says whether pieces stand on squares or on points (intersections). ``start`` gives, per
    size, the standard starting position in the position notation where it is not an empty
    board. Raises ``ValueError`` from the constructor when the description cannot be used.
    """

    __slots__ = (
        "name", "colours", "sizes", "moves", "pieces", "stacks", "scored", "half_points",
        "komi", "resolve", "board", "start", "aliases",
    )  # fmt: skip
    _fields = (
        "name", "colours", "sizes", "moves", "pieces", "stacks", "scored", "half_points",
        "komi", "resolve", "board", "start", "aliases",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        colours: tuple[str, str],
        sizes: tuple[int, ...],
        moves: tuple[str, ...],
        pieces: tuple[Piece, ...],
        stacks: bool = False,
        scored: bool = False,
        half_points: bool = False,
        komi: bool = False,
        resolve: bool = False,
        board: BoardKind = "squares",
        start: Mapping[int, str] | None = None,
        aliases: tuple[str, ...] = (),
    ) -> None:
        self.name: Final = name
        self.colours: Final = colours
        self.sizes: Final = sizes
        self.moves: Final = moves
        self.pieces: Final = pieces
        self.stacks: Final = stacks
        self.scored: Final = scored
        self.half_points: Final = half_points
        self.komi: Final = komi
        self.resolve: Final = resolve
        self.board: Final = board
        self.start: Final[Mapping[int, str]] = {} if start is None else start
        self.aliases: Final = aliases
        problem = _problem(self)
        if problem:
            raise ValueError(f"game description {name!r}: {problem}")

    @property
    def pie(self) -> bool:
        """The pie rule: ``swap`` as the second turn."""
        return "swap" in self.moves

    @property
    def button(self) -> bool:
        """Pletore's button: ``button`` is a move."""
        return "button" in self.moves

    @property
    def letters(self) -> str:
        """The position notation's letters, in the order of ``pieces``."""
        return "".join(piece.letter for piece in self.pieces)

    @property
    def min_size(self) -> int:
        return min(self.sizes)

    @property
    def max_size(self) -> int:
        return max(self.sizes)

    @property
    def sizes_text(self) -> str:
        """The sizes as people write them: "3 to 19", "6 or 8"."""
        if len(self.sizes) > 2 and self.sizes == tuple(range(self.min_size, self.max_size + 1)):
            return f"{self.min_size} to {self.max_size}"
        *rest, last = map(str, self.sizes)
        return f"{', '.join(rest)} or {last}" if rest else last

    @property
    def called(self) -> str:
        """The name with its indefinite article, for messages: "a Pilo", "an Implo"."""
        return f"{'an' if self.name[0] in 'AEIOU' else 'a'} {self.name}"

    def opponent(self, colour: str) -> str:
        """The other colour."""
        return self.colours[1] if colour == self.colours[0] else self.colours[0]


def _problem(game: GameDescription) -> str | None:
    """Why a description cannot be used by the notation (None if it can)."""
    if not re.fullmatch(r"[A-Z][A-Za-z]*", game.name):
        return "the name must be a capitalised word"
    if len(set(game.colours)) != 2 or not all(map(_COLOUR.fullmatch, game.colours)):
        return "two different colours, each a capitalised word, are needed"
    if any(c.lower().startswith(_KEYWORDS) for c in game.colours):
        return "a colour may not begin with a move keyword"
    if not game.sizes or not all(3 <= size <= 19 for size in game.sizes):
        return "sizes must lie between 3 and 19 (files a to s)"
    if not game.moves or not set(game.moves) <= set(MOVE_FORMS):
        return f"moves must be some of {', '.join(MOVE_FORMS)}"
    letters = game.letters
    if len(set(letters)) != len(letters) or not all(c.isascii() and c.isalpha() for c in letters):
        return "each piece needs its own letter"
    if game.half_points and not game.scored:
        return "half points need a scored game"
    return None


GAMES: dict[str, GameDescription] = {}
"""Every registered game by its name and aliases, lower case."""

_ORDER: list[GameDescription] = []
_generation = 0


def register_game(game: GameDescription) -> GameDescription:
    """Make ``game`` known to the notation (by name and aliases, any case); return it.

    Registering the same description again does nothing. Raises ``ValueError`` if another
    game already has one of its names."""
    global _generation
    keys = [key.lower() for key in (game.name, *game.aliases)]
    for key in keys:
        if key in GAMES and GAMES[key] != game:
            raise ValueError(f"a game named {key!r} is already registered")
    if game in _ORDER:
        return game
    for key in keys:
        GAMES[key] = game
    _ORDER.append(game)
    _generation += 1
    return game


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (for tests and plugins). Raises ``KeyError`` if unknown."""
    global _generation
    game = find_game(name)
    for key in [key for key, value in GAMES.items() if value == game]:
        del GAMES[key]
    _ORDER.remove(game)
    _generation += 1


def all_games() -> Iterator[GameDescription]:
    """The registered games, in the order they were registered."""
    return iter(tuple(_ORDER))


def generation() -> int:
    """A number that changes whenever a game is registered or forgotten; lets whatever is
    built from the registry (the JSON schema's validator) know when to build again."""
    return _generation


def find_game(name: str) -> GameDescription:
    """Look a game up by name or alias, ignoring case and surrounding white space.

    Raises ``KeyError`` whose message lists the known games."""
    try:
        return GAMES[name.strip(" \t\r\n").lower()]
    except KeyError:
        known = ", ".join(game.name for game in _ORDER)
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise KeyError(f"unknown game {shown!r}; known games: {known}") from None
