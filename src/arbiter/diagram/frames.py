"""A record as the sequence of its positions, one per ply (``spec/diagrams.md``, "Plies").

:func:`frames` replays a record once and keeps every position it reaches, with the move that
led to it, who played it and who is to move. A record whose moves stop being legal gets one
more frame at the ply of the refused move: the position before it, with the refused move and
the error. The command line (``arbiter show``, ``arbiter diagram``), the HTTP API
(``/api/v1/diagram``, ``/api/v1/positions``) and the page's viewer all take their plies from
here, so they cannot disagree about what a ply shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from arbiter.adjudicator.base import Rules, get_rules
from arbiter.adjudicator.game import Game, Position
from arbiter.adjudicator.replay import starting_state
from arbiter.notation.ast import Location, Move, Record
from arbiter.notation.errors import IllegalMoveError, RecordError
from arbiter.notation.games import GameDescription, find_game


@runtime_checkable
class ControlRules(Protocol):
    """Rules that can say which colour controls each point (Pletore)."""

    def control_map(self, state: Any) -> tuple[str | None, ...]: ...


@dataclass(frozen=True, slots=True)
class Frame:
    """One ply of a record: the position after ``ply`` turns (0 is the start).

    ``last`` is the move that led to the position and ``mover`` the colour that played it.
    In the extra frame of an invalid record, ``refused`` is the move that was refused at
    this ply, ``mover`` the colour that tried it, ``error`` why, and the position (and
    ``last``) are those before it. ``to_move`` is None once the rules have ended the game,
    and ``result`` is then the official result. ``where`` locates this ply's move in its
    source. ``state`` is the engine's state, for whatever else a drawing asks the rules."""

    ply: int
    position: Position
    game: GameDescription
    last: Move | None = None
    mover: str | None = None
    to_move: str | None = None
    result: str | None = None
    refused: Move | None = None
    error: RecordError | None = field(default=None, compare=False)  # exceptions compare by identity
    where: Location | None = None
    state: Any = field(default=None, compare=False, repr=False)

    @property
    def move(self) -> Move | None:
        """The move of this ply: the refused one, else the one that was played."""
        return self.refused if self.refused is not None else self.last

    @property
    def number(self) -> int:
        """The move number this ply carries in GRN (``N.`` counts pairs of turns)."""
        return (self.ply + 1) // 2

    def control(self) -> tuple[str | None, ...] | None:
        """The colour controlling each point (flat, a1 first), for games whose rules can say
        (Pletore); None for the others."""
        rules = get_rules(self.game.name)
        if not isinstance(rules, ControlRules) or self.state is None:
            return None
        return rules.control_map(self.state)

    def caption(self) -> tuple[str, str]:
        """Two lines that say what the diagram shows: the game and the ply with its move,
        then who is to move, the result, or why the move was refused."""
        game = f"{self.game.name} {self.position.size}×{self.position.size}"
        move = self.move
        if move is None:
            head = f"{game} · start" if self.ply == 0 else f"{game} · ply {self.ply}"
        else:
            refused = " refused" if self.refused is not None else ""
            head = f"{game} · ply {self.ply} · {self.number}. {self.mover} {move}{refused}"
        if self.error is not None:
            return head, f"{self.error.code}: {self.error.message}"
        if self.to_move is None:
            return head, f"Game over: {self.result}" if self.result else "Game over"
        return head, f"{self.to_move} to move"


@dataclass(frozen=True, slots=True)
class Frames:
    """Every frame of one record, ply 0 first; ``error`` is the refused move's error, whose
    frame is the last one. Indexing by ply gives that ply's frame."""

    record: Record
    game: GameDescription
    items: tuple[Frame, ...]
    error: RecordError | None = None

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Frame]:
        return iter(self.items)

    def __getitem__(self, ply: int) -> Frame:
        return self.items[ply]

    @property
    def last_ply(self) -> int:
        """The last ply that can be drawn: the end of the record, or the refused move."""
        return len(self.items) - 1

    @property
    def refused(self) -> Frame | None:
        """The frame of the refused move, if a move was refused."""
        return self.items[-1] if self.error is not None else None

    def at(self, ply: int | None = None) -> Frame:
        """The frame of ``ply`` (the last one when None).

        Raises ``ValueError`` saying which plies there are when ``ply`` is not one of them."""
        if ply is None:
            return self.items[-1]
        if 0 <= ply < len(self.items):
            return self.items[ply]
        raise ValueError(_no_such_ply(ply, self.items[-1], self.record))


def frames(record: Record) -> Frames:
    """Replay ``record`` and return every position it reaches, stopping at the first illegal
    move, which gets a frame of its own (see :class:`Frame`).

    Raises ``RecordError`` (code ``bad-setup``) if the record's Setup is not a position of
    its game, and ``ValueError`` for an unknown game."""
    items = tuple(iter_frames(record))
    return Frames(record, items[0].game, items, items[-1].error)


def frame_at(record: Record, ply: int | None = None) -> Frame:
    """The frame of ``ply`` in ``record`` (the last one when None), replaying no further
    than needed and keeping no other frame: a long record costs time, not memory.

    Raises what :func:`frames` raises, and ``ValueError`` saying which plies there are when
    the record does not reach ``ply``."""
    last = None
    for frame in iter_frames(record):
        if frame.ply == ply:
            return frame
        last = frame
    assert last is not None  # there is always ply 0
    if ply is None:
        return last
    raise ValueError(_no_such_ply(ply, last, record))


def iter_frames(record: Record) -> Iterator[Frame]:
    """The frames of ``record`` one by one, as :func:`frames` lists them (raising the same,
    on the first step)."""
    rules, state = starting_state(record)
    before = _frame(rules, record, 0, state)
    yield before
    for ply, turn in enumerate(record.turns, 1):
        mover = rules.to_move(state)
        try:
            state = rules.play(state, turn.move)
        except IllegalMoveError as err:
            err.located(ply=ply, move=str(turn.move), where=turn.where)
            yield Frame(
                ply,
                before.position,
                before.game,
                last=before.last,
                mover=mover,
                to_move=before.to_move,
                result=before.result,
                refused=turn.move,
                error=err,
                where=turn.where,
                state=before.state,
            )
            return
        before = _frame(rules, record, ply, state, turn.move, mover, turn.where)
        yield before


def _no_such_ply(ply: int, last: Frame, record: Record) -> str:
    """Why ``ply`` cannot be shown, given the last frame there is."""
    turns = len(record.turns)
    if last.refused is not None:
        reason = f"the move at ply {last.ply} is refused, so no later ply is reached"
    else:
        reason = f"the record has {turns} {'ply' if turns == 1 else 'plies'}"
    return f"no ply {ply}: {reason}; plies 0 to {last.ply} can be shown"


def _frame(
    rules: Rules[Any],
    record: Record,
    ply: int,
    state: Any,
    last: Move | None = None,
    mover: str | None = None,
    where: Location | None = None,
) -> Frame:
    over = rules.is_over(state)
    outcome = rules.outcome(state) if over else None
    return Frame(
        ply,
        Position(rules.name, record.size, rules.position(state)),
        rules.description,
        last=last,
        mover=mover,
        to_move=None if over else rules.to_move(state),
        result=outcome.result(rules.colours) if outcome is not None else None,
        where=where,
        state=state,
    )


def game_frame(game: Game) -> Frame:
    """The frame of a game being played: its position now and its last move."""
    last = game.moves[-1] if game.moves else None
    over = game.is_over()
    return Frame(
        game.ply,
        game.position,
        game.description,
        last=last,
        mover=game.last_mover,
        to_move=None if over else game.to_move,
        result=game.result if over else None,
        state=game.state,
    )


def position_frame(
    position: Position, *, last: Move | None = None, refused: Move | None = None
) -> Frame:
    """A frame of a bare position, with the moves to mark given by the caller. Its state is
    built from the position so that control can be shown; the side to move is unknown.

    Raises ``KeyError`` for an unknown game."""
    game = find_game(position.game)
    state = None
    try:
        rules = get_rules(game.name)
        state = rules.initial_state(
            position.size, komi=0 if game.komi else None, setup=position.grid
        )
    except ValueError:  # a position the rules would not start from: draw it, without control
        state = None
    return Frame(0, position, game, last=last, refused=refused, state=state)
