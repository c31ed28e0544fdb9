"""The one test harness of the five engines: positions from Setup strings, moves from GRN
words, the position after some moves, and assertions on refusals.

Every engine test module drives its game through a ``Harness``, so that a rule test reads as
the notation writes a game: ``after(setup("3/1,b,1/3"), "c3")``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import arbiter
from arbiter.adjudicator.base import Rules
from arbiter.notation.ast import Move, Point
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.position import format_position, parse_position


class Harness:
    """Drives one game's rules with the notation's own strings."""

    def __init__(self, game: str) -> None:
        self.rules: Rules[Any] = arbiter.get_rules(game)
        self.name = self.rules.name

    def setup(self, text: str, *, komi: int | None = None, **fields: Any) -> Any:
        """The state of a Setup string (its size is its number of ranks), with ``fields`` of
        the state (``ply``, ``turn``, ``mover``...) set afterwards."""
        size = text.count("/") + 1
        grid = parse_position(text, self.rules.description, size)
        state = self.rules.initial_state(size, komi=komi, setup=grid)
        return state._replace(**fields) if fields else state

    def move(self, token: str | Move) -> Move:
        """A GRN word as a move of this game (a move object is returned as it is)."""
        return token if not isinstance(token, str) else arbiter.parse_move(self.name, token)

    def play(self, state: Any, *tokens: str | Move) -> Any:
        for token in tokens:
            state = self.rules.play(state, self.move(token))
        return state

    def after(self, state: Any, *tokens: str | Move) -> str:
        """The position after ``tokens``, in the position notation."""
        return self.board(self.play(state, *tokens))

    def refused(self, state: Any, token: str | Move, message: str) -> None:
        """Assert that ``token`` is refused with exactly ``message``."""
        with pytest.raises(IllegalMoveError) as info:
            self.rules.play(state, self.move(token))
        assert info.value.message == message

    def illegal(self, state: Any, token: str | Move, fragment: str) -> None:
        """Assert that ``token`` is refused with a message that contains ``fragment``."""
        with pytest.raises(IllegalMoveError, match=re.escape(fragment)):
            self.rules.play(state, self.move(token))

    def legal(self, state: Any) -> list[str]:
        return [str(m) for m in self.rules.legal_moves(state)]

    def board(self, state: Any) -> str:
        return format_position(self.rules.position(state))

    def at(self, state: Any, square: str) -> str:
        """What stands on ``square``, bottom to top."""
        point = Point.parse(square)
        return self.rules.position(state)[point.rank][point.file]
