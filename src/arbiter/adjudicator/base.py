"""The one interface every game's rules implement, and the registry of games.

See ``spec/rules/README.md`` section "The rules interface". A rules object is stateless; states
are immutable values owned by whoever holds them, so a replay is just a sequence of states.
What is the same for every game is written here once: the checks of a starting position
against the game's description, the game-over check, and the dispatch of a move to the
game's handler for its form. A game states its end once, in ``_game_over``: the refusal of
a move, the end of the move list and ``outcome`` all ask it, so they cannot disagree.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from arbiter.adjudicator.board import geometry
from arbiter.notation.ast import Grid, Move
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import (
    GameDescription,
    find_game,
    forms_of,
    register_game,
    unregister_game,
)
from arbiter.notation.plain import Plain
from arbiter.notation.position import parse_position

S = TypeVar("S")
"""A game's own (immutable) state type."""
R = TypeVar("R", bound="type[Rules[Any]]")


class Outcome(Plain):
    """How a finished game ended, by colour (colours as they stand at the end).

    ``scores`` is None for games without points; a score is a whole number or a whole
    number and a half. ``tiebreak`` is a sentence when a tie-break decided the winner.
    ``details`` carries game-specific figures for the report (Pletore's score breakdown,
    Implo's marker groups, ...), all JSON-ready.
    """

    _fields = ("winner", "scores", "tiebreak", "details")
    __slots__ = _fields

    def __init__(
        self,
        winner: str,
        scores: Mapping[str, float] | None = None,
        tiebreak: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        self.winner: Final = winner
        self.scores: Final = scores
        self.tiebreak: Final = tiebreak
        self.details: Final[Mapping[str, Any]] = {} if details is None else details

    def result(self, colours: tuple[str, str]) -> str:
        """The canonical result string: ``Orange+6`` or ``White+3.5`` for scored games,
        ``Black`` otherwise. The margin is written exactly (never in exponent form)."""
        if self.scores is None:
            return self.winner
        loser = colours[1] if self.winner == colours[0] else colours[0]
        return f"{self.winner}+{margin_text(self.scores[self.winner] - self.scores[loser])}"


def margin_text(margin: float) -> str:
    """A non-negative whole or half number as results write it: ``6``, ``0``, ``7.5``."""
    twice = round(margin * 2)
    return str(twice // 2) + (".5" if twice % 2 else "")


@mypyc_attr(allow_interpreted_subclasses=True)  # a game may be added without compiling
class Rules(ABC, Generic[S]):
    """The rules of one game. A subclass sets ``description``, implements the abstract
    methods, and one handler per move form of its description, named by the form
    (``MoveForm.handler``: ``_place``, ``_capture``, ``_pass``, ``_swap``, ``_flip``,
    ``_button``, ``_sow``, or a new form's), each ``(state, move) -> state`` raising
    ``IllegalMoveError`` with the reason a move is refused.

    Every method that takes a state leaves it unchanged.
    """

    description: ClassVar[GameDescription]
    sight: ClassVar[bool] = False
    """Whether what a point is worth to a player is decided by the stones it sees along its
    rank and its file, up to the first each way, however far (Pletore's control): the repair
    hints then look along those lines from a refused move (``spec/hints.md``, "Where")."""

    def __init__(self) -> None:
        game = self.description
        handlers: dict[type, Callable[[S, Any], S]] = {}
        for form in forms_of(game):
            handlers[form] = getattr(self, form.form.handler)
        self._handlers = handlers

    @property
    def name(self) -> str:
        return self.description.name

    @property
    def colours(self) -> tuple[str, str]:
        return self.description.colours

    # The interface -------------------------------------------------------------------------

    def initial_state(self, size: int, *, komi: int | None = None, setup: Grid | None = None) -> S:
        """The position before the first move: the standard one, or ``setup`` (a grid in
        the position notation's letters, ``grid[rank][file]``). The first colour moves.

        Raises ``ValueError`` for a size the game does not have, a missing or unwanted komi,
        or a setup that is not a position of this game."""
        game = self.description
        if isinstance(size, bool) or not isinstance(size, int) or size not in game.sizes:
            raise ValueError(f"{game.name} is played on sizes {game.sizes_text}, not {size!r}")
        if game.komi != (komi is not None):
            raise ValueError(
                f"{game.name} needs a komi" if game.komi else f"{game.name} has no komi"
            )
        if komi is not None and (isinstance(komi, bool) or not isinstance(komi, int)):
            raise ValueError(f"komi must be a whole number, not {komi!r}")
        if setup is None and size in game.start:
            setup = parse_position(game.start[size], game, size)
        cells = None if setup is None else self._setup_cells(setup, size)
        return self._initial(size, komi, cells)

    def play(self, state: S, move: Move) -> S:
        """Check ``move`` and return the state after it.

        Raises ``IllegalMoveError`` (or ``AmbiguousMoveError``) with a reason a person can
        read if the move is not legal here, including when the game is already over or the
        move is of a form the game does not have."""
        over = self._game_over(state)
        if over is not None:
            raise IllegalMoveError(over)
        handler = self._handlers.get(type(move))
        if handler is None:
            raise IllegalMoveError(f"{str(move)!r} is not {self.description.called} move")
        return handler(state, move)

    def legal_moves(self, state: S) -> Iterator[Move]:
        """Every legal move, in the order the game's page documents (none once the game is
        over). May be very long for Pilare: take what you need."""
        if self._game_over(state) is not None:
            return iter(())
        return self._legal_moves(state)

    def is_legal(self, state: S, move: Move) -> bool:
        """True if ``play(state, move)`` would succeed."""
        try:
            self.play(state, move)
        except IllegalMoveError:
            return False
        return True

    def is_over(self, state: S) -> bool:
        """True once the rules have ended the game."""
        return self._game_over(state) is not None

    @abstractmethod
    def to_move(self, state: S) -> str:
        """The colour whose turn it is."""

    def outcome(self, state: S) -> Outcome | None:
        """The outcome if the game is over under the rules, else None."""
        return None if self._game_over(state) is None else self._outcome(state)

    @abstractmethod
    def position(self, state: S) -> Grid:
        """The board as a grid of stacks (``grid[rank][file]``, see ``spec/grn.md`` §7)."""

    def written(self, after: S, move: Move) -> Move:
        """``move``, which led to the state ``after``, as the canonical writer writes it.
        The same move by default; Implo fills in the resolution steps a record left out."""
        return move

    def random_move(self, state: S, choose: Callable[[Sequence[Any]], Any]) -> Move | None:
        """A legal move picked by ``choose`` (``random.choice``, or a hypothesis draw), for
        generating games; None once the game is over. By default it lists the legal moves;
        a game whose lists can be enormous draws its move step by step instead."""
        moves = list(self.legal_moves(state))
        return choose(moves) if moves else None

    def details(self, state: S) -> Mapping[str, Any]:
        """Game-specific figures for the report of an unfinished game (default: none)."""
        return {}

    # What each game supplies ---------------------------------------------------------------

    @abstractmethod
    def _initial(self, size: int, komi: int | None, cells: tuple[str, ...] | None) -> S:
        """The starting state: an empty board when ``cells`` is None, else that board
        (flat, checked against the description). Raises ``ValueError`` for a setup the game
        cannot have."""

    @abstractmethod
    def _game_over(self, state: S) -> str | None:
        """Why no move may be played any more (a sentence), or None while the game goes on.
        Called before every move: keep it cheap."""

    @abstractmethod
    def _outcome(self, state: S) -> Outcome:
        """The outcome of a state whose game is over (``_game_over`` gave a reason): the
        game's scoring alone, which takes the end for granted rather than testing it again."""

    @abstractmethod
    def _legal_moves(self, state: S) -> Iterator[Move]:
        """The legal moves of a state whose game is not over."""

    def _setup_cells(self, setup: Grid, size: int) -> tuple[str, ...]:
        """The flat board of a setup grid, its letters and stacking checked against the
        description. Raises ``ValueError`` naming the square at fault."""
        game = self.description
        cells = geometry(size).flat(setup)
        for index, cell in enumerate(cells):
            wrong = next((letter for letter in cell if letter not in game.letters), None)
            if wrong is not None:
                letters = ", ".join(f"{p.letter} ({p.name})" for p in game.pieces)
                raise ValueError(
                    f"{geometry(size).names[index]}: {wrong!r} is no {game.name} "
                    f"piece; the letters are {letters}"
                )
            if len(cell) > 1 and not game.stacks:
                raise ValueError(
                    f"{geometry(size).names[index]}: {cell!r} is a stack, but "
                    f"{game.called} square holds one piece at most"
                )
        return cells


def check_pie(ply: int) -> None:
    """Raise ``IllegalMoveError`` unless a swap at ``ply`` (turns played before it) is legal:
    the pie rule allows it only as the second turn."""
    if ply != 1:
        raise IllegalMoveError("swap is only legal as the second turn")


RULES: dict[str, type[Rules[Any]]] = {}
"""Every registered rules class by its game's name and aliases, lower case."""

_INSTANCES: dict[type[Rules[Any]], Rules[Any]] = {}


def register(cls: R) -> R:
    """Class decorator: make a game's rules and its description findable by name and
    aliases. Raises ``ValueError`` if another game has one of those names."""
    register_game(cls.description)
    for key in (cls.description.name, *cls.description.aliases):
        RULES[key.lower()] = cls
    return cls


def unregister(name: str) -> None:
    """Forget the game ``name`` and its rules (for tests and plugins).

    Raises ``ValueError`` if no such game is registered."""
    cls = RULES.get(name.strip().lower())
    if cls is None:
        raise ValueError(f"no game {name!r} is registered")
    unregister_game(cls.description.name)
    for key in [key for key, value in RULES.items() if value is cls]:
        del RULES[key]
    _INSTANCES.pop(cls, None)


def get_rules(name: str) -> Rules[Any]:
    """The rules of game ``name`` (any case, or an alias); one shared, stateless object.

    Raises ``ValueError`` naming the known games."""
    cls = RULES.get(name.strip().lower())
    if cls is None:
        try:
            find_game(name)
        except KeyError as err:
            raise ValueError(err.args[0]) from None
        raise ValueError(f"the game {name!r} has no rules registered")
    rules = _INSTANCES.get(cls)
    if rules is None:
        rules = _INSTANCES[cls] = cls()
    return rules
