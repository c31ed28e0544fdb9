"""What a record can say of each game: its description, and the registry of games.

See ``spec/grn.md`` sections 2 ("Tags"), 5 ("Move forms by game"), 6 ("Results") and 7
("Position notation"). A game is described once, by a :class:`GameDescription` that its rules
class owns (``arbiter.adjudicator``); registering the rules registers the description here,
and everything that depends on a game's facts reads them from this registry: the readers and
the writer, the JSON schema, ``arbiter games``, the OpenAPI description and the tests.
The rules of play are not described here.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from typing import Final, Literal

from arbiter.notation.ast import BUILT_IN_FORMS, Move
from arbiter.notation.forms import SQUARE
from arbiter.notation.plain import Plain

BoardKind = Literal["squares", "points"]

_COLOUR = re.compile(r"[A-Z][a-z]+")


class Piece(Plain):
    """One letter of the position notation and what it stands for ("Blue disk")."""

    _fields = ("letter", "name")
    __slots__ = _fields

    def __init__(self, letter: str, name: str) -> None:
        self.letter: Final = letter
        self.name: Final = name


class GameDescription(Plain):
    """The facts about one game that records, readers and writers depend on.

    ``colours`` puts the first player's colour first. ``moves`` lists the game's move forms
    (their JSON ``type``, see :func:`form_types`). ``pieces`` are the letters of the position
    notation; ``stacks`` says whether a square may hold several of them. ``scored`` games
    give results with a points margin (``Orange+6``), ``half_points`` ones may end in ``.5``;
    ``komi`` games need a ``Komi`` tag; ``resolve`` is Implo's resolution steps. ``board``
    says whether pieces stand on squares or on points (intersections). ``start`` gives, per
    size, the standard starting position in the position notation where it is not an empty
    board. Raises ``ValueError`` from the constructor when the description cannot be used.
    """

    _fields = (
        "name", "colours", "sizes", "moves", "pieces", "stacks", "scored", "half_points",
        "komi", "resolve", "board", "start", "aliases",
    )  # fmt: skip
    __slots__ = _fields

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
    if any(c.lower().startswith(_keywords()) for c in game.colours):
        return "a colour may not begin with a move keyword"
    if not game.sizes or not all(3 <= size <= 19 for size in game.sizes):
        return "sizes must lie between 3 and 19 (files a to s)"
    if not game.moves or not all(re.fullmatch(r"[a-z]+", kind) for kind in game.moves):
        return "moves must be move types (lower-case words)"
    letters = game.letters
    if len(set(letters)) != len(letters) or not all(c.isascii() and c.isalpha() for c in letters):
        return "each piece needs its own letter"
    if game.half_points and not game.scored:
        return "half points need a scored game"
    return None


def _keywords() -> tuple[str, ...]:
    return tuple(form.form.keyword for form in _FORMS if form.form.keyword)


_GAMES: dict[str, GameDescription] = {}
"""Every registered game by its name and aliases, lower case."""

_ORDER: list[GameDescription] = []
_generation = 0

BUILT_IN_GAMES = "arbiter.adjudicator"
"""The module whose import registers the built-in games: each game's description lives with
its rules, in its own module. The registry imports it at its first use, whatever was
imported first, so that the notation knows the five games without being told."""
_built_in_loaded = False


def _load_built_in() -> None:
    global _built_in_loaded
    if not _built_in_loaded:
        _built_in_loaded = True  # first: the import registers games, which comes back here
        importlib.import_module(BUILT_IN_GAMES)


def register_game(game: GameDescription) -> GameDescription:
    """Make ``game`` known to the notation (by name and aliases, any case); return it.

    Registering the same description again does nothing. Raises ``ValueError`` if another
    game already has one of its names, or if one of its moves is of no registered form."""
    global _generation
    _load_built_in()  # the built-in games come first in every list
    unknown = [kind for kind in game.moves if kind not in form_types()]
    if unknown:
        raise ValueError(
            f"game {game.name!r}: no move form {unknown[0]!r} is registered "
            f"(known: {', '.join(form_types())})"
        )
    keys = [key.lower() for key in (game.name, *game.aliases)]
    for key in keys:
        if key in _GAMES and _GAMES[key] != game:
            raise ValueError(f"a game named {key!r} is already registered")
    if game in _ORDER:
        return game
    for key in keys:
        _GAMES[key] = game
    _ORDER.append(game)
    _generation += 1
    return game


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (for tests and plugins). Raises ``KeyError`` if unknown."""
    global _generation
    game = find_game(name)
    for key in [key for key, value in _GAMES.items() if value == game]:
        del _GAMES[key]
    _ORDER.remove(game)
    _generation += 1


def all_games() -> Iterator[GameDescription]:
    """The registered games, in the order they were registered."""
    _load_built_in()
    return iter(tuple(_ORDER))


def generation() -> int:
    """A number that changes whenever a game or a move form is registered or forgotten;
    lets whatever is built from the registries (the JSON schema's validator, the GRN
    patterns) know when to build again."""
    _load_built_in()
    return _generation


# --- move forms ----------------------------------------------------------------------------

_FORMS: list[type[Move]] = list(BUILT_IN_FORMS)


def register_form(form: type[Move]) -> type[Move]:
    """Make the move form ``form`` (a subclass of :class:`~arbiter.notation.ast.Move`)
    known to the readers, the writers, the schema and the rules engines; return it.

    Registering it again does nothing. Raises ``ValueError`` if the form cannot be read
    apart from the others: its GRN terminal or keyword is taken, or its pattern is not a
    word that begins with a square (or its keyword)."""
    global _generation
    if form in _FORMS:
        return form
    facts = form.form
    problem = _form_problem(facts.type, facts.terminal, facts.pattern, facts.keyword)
    if problem:
        raise ValueError(f"move form {form.__name__}: {problem}")
    _FORMS.append(form)
    _generation += 1
    return form


def _form_problem(kind: str, terminal: str, pattern: str, keyword: str | None) -> str | None:
    if not re.fullmatch(r"[a-z]+", kind):
        return "its type must be a lower-case word"
    if not re.fullmatch(r"[A-Z][A-Z_]*", terminal) or terminal == "MOVE_NUMBER":
        return "its terminal must be an upper-case name of its own"
    if any(other.form.terminal == terminal for other in _FORMS):
        return f"the terminal {terminal} is taken"
    if keyword is not None:
        if keyword in _keywords():
            return f"the keyword {keyword!r} is taken"
        return None if pattern == f"(?i:{keyword})" else "a keyword's pattern is (?i:keyword)"
    try:
        re.compile(pattern)
    except re.error as err:
        return f"its pattern does not compile: {err}"
    return None if pattern.startswith(SQUARE) else f"its pattern must begin with {SQUARE}"


def unregister_form(form: type[Move]) -> None:
    """Forget the move form ``form`` (for tests and plugins). Raises ``ValueError`` if it
    is not registered."""
    global _generation
    _FORMS.remove(form)
    _generation += 1


def move_forms() -> tuple[type[Move], ...]:
    """The registered move forms, in the order they were registered."""
    return tuple(_FORMS)


def form_types() -> tuple[str, ...]:
    """Every move ``type`` of the registered forms, once each, in order."""
    return tuple(dict.fromkeys(form.form.type for form in _FORMS))


def forms_of(game: GameDescription) -> tuple[type[Move], ...]:
    """The forms a record of ``game`` may hold: those of its move types, a variant only
    where the game sets its flag."""
    return tuple(
        form
        for form in _FORMS
        if form.form.type in game.moves
        and (form.form.variant is None or getattr(game, form.form.variant) is True)
    )


def game_named(name: str) -> GameDescription | None:
    """The game ``name`` or an alias names, in any case (as written: no white space
    around it), or None."""
    _load_built_in()
    return _GAMES.get(name.lower())


def find_game(name: str) -> GameDescription:
    """Look a game up by name or alias, ignoring case and surrounding white space.

    Raises ``KeyError`` whose message lists the known games."""
    _load_built_in()
    try:
        return _GAMES[name.strip(" \t\r\n").lower()]
    except KeyError:
        known = ", ".join(game.name for game in _ORDER)
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise KeyError(f"unknown game {shown!r}; known games: {known}") from None
