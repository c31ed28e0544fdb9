"""Small helpers the engine tests share: positions from Setup strings, moves from GRN words,
and assertions on refusals."""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.adjudicator.base import Rules
from arbiter.notation.ast import Move
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.grn_reader import parse_move
from arbiter.notation.position import format_position, parse_position


class Harness:
    """Drives one game's rules with the notation's own strings."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def setup(self, text: str) -> Any:
        """The state of a Setup string (its size is its number of ranks)."""
        size = text.count("/") + 1
        grid = parse_position(text, self.rules.description, size)
        return self.rules.initial_state(size, setup=grid)

    def move(self, token: str) -> Move:
        return parse_move(token)

    def play(self, state: Any, *tokens: str) -> Any:
        for token in tokens:
            state = self.rules.play(state, parse_move(token))
        return state

    def refused(self, state: Any, token: str, message: str) -> None:
        """Assert that ``token`` is refused with exactly ``message``."""
        with pytest.raises(IllegalMoveError) as info:
            self.rules.play(state, parse_move(token))
        assert info.value.message == message

    def legal(self, state: Any) -> list[str]:
        return [str(m) for m in self.rules.legal_moves(state)]

    def board(self, state: Any) -> str:
        return format_position(self.rules.position(state))
