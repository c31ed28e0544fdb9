"""A game to play move by move: the programmer's front door to the rules engines.

``Game`` keeps the states of one game as they were reached, so that a program can play
moves written as text or as move objects, ask for the legal moves, look at the position,
take moves back, and get a record of the game in the end (``docs/library.md``).
Everything it decides, it asks the game's :class:`~arbiter.adjudicator.base.Rules`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.adjudicator.base import Outcome, Rules, get_rules
from arbiter.adjudicator.board import geometry
from arbiter.notation.ast import Grid, Move, Point, Record, Tag, Turn
from arbiter.notation.build import check_move
from arbiter.notation.errors import IllegalMoveError, RecordError
from arbiter.notation.games import GameDescription
from arbiter.notation.grn_reader import parse_move as parse_word
from arbiter.notation.position import format_position, parse_position


@dataclass(frozen=True, slots=True)
class Position:
    """A board as the position notation describes it (``spec/grn.md`` §7).

    ``grid[rank][file]`` is a square's pieces, bottom to top, in the game's letters ("" for
    an empty square). ``str(position)`` is its text (``3/1,b,1/w,2``), and
    ``position["b2"]`` what stands on a square."""

    game: str
    size: int
    grid: Grid

    def __str__(self) -> str:
        return format_position(self.grid)

    @property
    def text(self) -> str:
        """The position notation of this board."""
        return format_position(self.grid)

    def __getitem__(self, square: str | Point) -> str:
        point = Point.parse(square) if isinstance(square, str) else square
        if not geometry(self.size).on_board(point):
            raise KeyError(f"{point} is off the {self.size}×{self.size} board")
        return self.grid[point.rank][point.file]


class Game:
    """One game of ``name`` (any case) on a ``size`` board, from the standard start or from
    ``setup`` (a position in the notation of ``spec/grn.md`` §7, or a grid).

    >>> game = Game("Pletore", size=5, komi=0)
    >>> game.play("c3")
    Place(at=Point.parse('c3'))
    >>> game.to_move, game.ply
    ('White', 1)

    Raises ``ValueError`` for an unknown game, a size it does not have, a komi it needs or
    does not have, or a setup that is not one of its positions."""

    def __init__(
        self, name: str, size: int, *, komi: int | None = None, setup: str | Grid | None = None
    ) -> None:
        self.rules: Rules[Any] = get_rules(name)
        self.description: GameDescription = self.rules.description
        _check_whole(size, f"{name} is played on sizes {self.description.sizes_text}")
        _check_whole(komi, "komi must be a whole number")
        self.size = size
        self.komi = komi
        grid = parse_position(setup, self.description, size) if isinstance(setup, str) else setup
        grid = None if grid is None else _grid(grid)
        self.setup: str | None = format_position(grid) if grid is not None else None
        self._states: list[Any] = [self.rules.initial_state(size, komi=komi, setup=grid)]
        self._moves: list[Move] = []
        self._swaps: list[bool] = [False]

    @classmethod
    def from_record(cls, record: Record) -> Game:
        """The game a record's moves reach. Raises ``RecordError`` (``IllegalMoveError``
        with its ply) at the first move that cannot be played."""
        game = cls(record.game, record.size, komi=record.komi, setup=record.setup)
        for ply, turn in enumerate(record.turns, 1):
            try:
                game.play(turn.move)
            except IllegalMoveError as err:
                raise err.located(ply=ply, move=str(turn.move), where=turn.where) from None
        return game

    # Playing -------------------------------------------------------------------------------

    def play(self, move: str | Move) -> Move:
        """Play ``move`` (GRN text such as ``"d4"``, ``"c3xc5"``, ``"pass"``, or a move
        object) and return it as the canonical writer writes it (Implo: every resolution
        step filled in).

        Raises ``NotationSyntaxError`` for text that is no move, ``InvalidRecordError`` for
        a form the game does not have or a square off the board, ``IllegalMoveError`` (with
        its ``ply``) for a move the rules refuse here; the game is then unchanged."""
        ply = len(self._moves) + 1
        try:
            parsed = self.parse(move)
        except RecordError as err:  # a live game has no lines: the ply and the move say where
            err.line = err.column = err.pointer = None
            raise err.located(ply=ply, move=move if isinstance(move, str) else str(move)) from None
        try:
            state = self.rules.play(self.state, parsed)
        except IllegalMoveError as err:
            raise err.located(ply=ply, move=str(parsed)) from None
        self._states.append(state)
        self._moves.append(self.rules.written(state, parsed))
        self._swaps.append(self._swaps[-1] != (parsed.type == "swap"))
        return self._moves[-1]

    def undo(self) -> Move:
        """Take the last move back and return it. Raises ``IndexError`` at the start."""
        if not self._moves:
            raise IndexError("no move to take back")
        self._states.pop()
        self._swaps.pop()
        return self._moves.pop()

    def parse(self, move: str | Move) -> Move:
        """``move`` as a move object of this game, checked for its form and board, not for
        legality. Raises what :meth:`play` raises for the text itself."""
        if isinstance(move, str):
            return check_move(parse_word(move.strip()), self.description, self.size)
        if not isinstance(move, Move):
            raise TypeError(f"a move is its text or a move object, not {type(move).__name__}")
        return check_move(move, self.description, self.size)

    def legal_moves(self) -> Iterator[Move]:
        """The legal moves, lazily, in the order the game's rules page documents (none once
        the game is over). Pilare's can be very many: take what you need."""
        return self.rules.legal_moves(self.state)

    def is_legal(self, move: str | Move) -> bool:
        """True if :meth:`play` would accept ``move``."""
        try:
            return self.rules.is_legal(self.state, self.parse(move))
        except RecordError:  # text that is no move of this game
            return False

    # Looking -------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The engine's state now (an immutable value of the game's own type)."""
        return self._states[-1]

    @property
    def position(self) -> Position:
        """The board now."""
        return Position(self.description.name, self.size, self.rules.position(self.state))

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played so far, as the canonical writer writes them."""
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        """How many turns have been played (a swap and a pass are turns)."""
        return len(self._moves)

    @property
    def last_mover(self) -> str | None:
        """The colour that played the last move (None before the first)."""
        return self.rules.to_move(self._states[-2]) if self._moves else None

    @property
    def to_move(self) -> str:
        """The colour whose turn it is."""
        return self.rules.to_move(self.state)

    @property
    def swapped(self) -> bool:
        """Whether the pie rule was used: each player now holds the other's first colour."""
        return self._swaps[-1]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended under the rules, or None while it goes on."""
        return self.rules.outcome(self.state)

    def is_over(self) -> bool:
        return self.rules.is_over(self.state)

    @property
    def result(self) -> str:
        """The official result string (``Orange+6``, ``Black``), or ``*`` while the game
        goes on."""
        outcome = self.outcome
        return outcome.result(self.description.colours) if outcome else "*"

    def record(
        self,
        *,
        players: Mapping[str, str] | None = None,
        tags: Mapping[str, str] | None = None,
        result: str | None = None,
    ) -> Record:
        """A record of the game so far: players by their colour at the start, other tags in
        order, and ``result`` (by default the official one, ``*`` while the game goes on)."""
        colours = self.description.colours
        named = dict(players or {})
        return Record(
            game=self.description.name,
            size=self.size,
            komi=self.komi,
            setup=self.setup,
            players=tuple((colour, named[colour]) for colour in colours if colour in named),
            tags=tuple(Tag(name, value) for name, value in (tags or {}).items()),
            turns=tuple(Turn(move) for move in self._moves),
            result=self.result if result is None else result,
        )

    def __repr__(self) -> str:
        komi = f", komi={self.komi}" if self.komi is not None else ""
        setup = f", setup={self.setup!r}" if self.setup is not None else ""
        moves = f", moves={[str(move) for move in self._moves]}" if self._moves else ""
        return f"Game({self.description.name!r}, size={self.size}{komi}{setup}{moves})"


# The front door checks what it is given, so that both builds answer alike: the engines it
# calls are compiled in the wheel, where an argument of another type than the one declared
# is refused with a TypeError at the call, not where the pure code would fail.


def _check_whole(value: object, refusal: str) -> None:
    """Raise ``ValueError`` (``refusal``, then the value) unless ``value`` is None or an int
    (a bool is not)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{refusal}, not {value!r}")


def _grid(setup: object) -> Grid:
    """A setup given as ranks of squares (lists or tuples of strings), as a grid."""
    if isinstance(setup, str | bytes) or not isinstance(setup, Sequence):
        raise TypeError(f"a setup is a position's text or its ranks, not {type(setup).__name__}")
    ranks = []
    for rank in setup:
        if isinstance(rank, str | bytes) or not isinstance(rank, Sequence):
            raise TypeError(f"a rank of a setup is a sequence of squares, not {rank!r}")
        if not all(isinstance(square, str) for square in rank):
            raise TypeError(f"a square of a setup is a string of pieces, in {rank!r}")
        ranks.append(tuple(rank))
    return tuple(ranks)
