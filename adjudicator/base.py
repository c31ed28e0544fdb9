"""The one interface every game's rules implement, and the registry of games.

See ``spec/rules/README.md`` section "The rules interface". A rules object is stateless; states are
immutable values owned by whoever holds them, so a replay is just a sequence of states.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from notation.ast import Grid, Move
from notation.errors import IllegalMoveError


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, by colour (colours as they stand at the end).

    ``scores`` is None for games without points. ``tiebreak`` is a sentence when a tie-break
    decided the winner. ``details`` carries game-specific figures for the report (Pletore's
    score breakdown, Implo's marker groups, ...), all JSON-ready.
    """

    winner: str
    scores: Mapping[str, float] | None = None
    tiebreak: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def result(self, colours: tuple[str, str]) -> str:
        """The canonical result string: ``Orange+6`` for scored games, ``Black`` otherwise."""
        if self.scores is None:
            return self.winner
        loser = colours[1] if self.winner == colours[0] else colours[0]
        margin = self.scores[self.winner] - self.scores[loser]
        text = f"{margin:g}" if margin != int(margin) else str(int(margin))
        return f"{self.winner}+{text}"


class Rules(ABC):
    """The rules of one game. Subclasses set the class attributes and the abstract methods.

    States are opaque to callers; each game defines its own frozen ``State``. Every method
    that takes a state leaves it unchanged.
    """

    name: ClassVar[str]
    colours: ClassVar[tuple[str, str]]
    aliases: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def initial_state(self, size: int, *, komi: int | None = None,
                      setup: Grid | None = None) -> Any:
        """The position before the first move: standard, or ``setup`` (see ``spec/grn.md``).

        Raises ``ValueError`` if ``setup`` is not a position of this game."""

    @abstractmethod
    def to_move(self, state: Any) -> str:
        """The colour whose turn it is."""

    @abstractmethod
    def legal_moves(self, state: Any) -> Iterator[Move]:
        """Every legal move (none once the game is over). May be large for Pilare."""

    @abstractmethod
    def play(self, state: Any, move: Move) -> Any:
        """Check ``move`` and return the state after it.

        Raises ``IllegalMoveError`` (or ``AmbiguousMoveError``) with a reason a person can
        read if the move is not legal here, including when the game is already over."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The outcome if the game is over under the rules, else None."""

    @abstractmethod
    def position(self, state: Any) -> Grid:
        """The board as a grid of stacks (see ``spec/grn.md``, position notation)."""

    def is_legal(self, state: Any, move: Move) -> bool:
        """True if ``play(state, move)`` would succeed."""
        try:
            self.play(state, move)
        except IllegalMoveError:
            return False
        return True

    def random_move(self, state: Any, choose: Callable[[Sequence[Any]], Any]) -> Move | None:
        """A legal move picked by ``choose`` (``random.choice``, or a hypothesis draw), for
        generating games; None once the game is over. By default it lists the legal moves;
        a game whose lists can be enormous draws its move step by step instead."""
        moves = list(self.legal_moves(state))
        return choose(moves) if moves else None

    def details(self, state: Any) -> Mapping[str, Any]:
        """Game-specific figures for the report of an unfinished game (default: none)."""
        return {}


RULES: dict[str, type[Rules]] = {}


def register(cls: type[Rules]) -> type[Rules]:
    """Class decorator: make a game's rules findable by name and aliases."""
    for key in (cls.name, *cls.aliases):
        RULES[key.lower()] = cls
    return cls


def get_rules(name: str) -> Rules:
    """The rules of game ``name`` (any case). Raises ``ValueError`` naming the known games."""
    try:
        return RULES[name.strip().lower()]()
    except KeyError:
        known = ", ".join(sorted({cls.name for cls in RULES.values()}))
        raise ValueError(f"unknown game {name!r}; known games: {known}") from None
