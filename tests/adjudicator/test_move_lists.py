"""Properties of Pilo's and Petrify's move lists, which share their move forms: ``play``
accepts exactly the moves ``legal_moves`` lists, and refuses any other at its ply."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator import get_rules
from arbiter.adjudicator.base import Rules
from arbiter.notation.ast import Pass
from arbiter.notation.errors import IllegalMoveError
from tests.budget import examples
from tests.strategies import every_move_form, histories

GAMES = ["Pilo", "Petrify"]


def drawn_state(game: str, data: st.DataObject) -> tuple[Rules[Any], Any]:
    """The game's rules and a position drawn from a random game of up to 40 plies."""
    history = data.draw(histories(game, (3, 4, 5), 40))
    return get_rules(game), data.draw(st.sampled_from([s for s, _ in history]))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_play_accepts_exactly_the_legal_moves(game: str, data: st.DataObject) -> None:
    rules, state = drawn_state(game, data)
    allowed = set(rules.legal_moves(state))
    for candidate in every_move_form(game, state.size):
        if candidate in allowed:
            rules.play(state, candidate)
        else:
            with pytest.raises(IllegalMoveError):
                rules.play(state, candidate)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_an_illegal_move_is_refused_at_its_ply(game: str, data: st.DataObject) -> None:
    rules = get_rules(game)
    history = data.draw(histories(game, (3, 4, 5), 40))
    ply = data.draw(st.integers(0, len(history) - 1))
    state = history[ply][0]
    allowed = set(rules.legal_moves(state))
    size = state.size  # type: ignore[attr-defined]
    bad = data.draw(st.sampled_from([m for m in every_move_form(game, size) if m not in allowed]))
    replayed = rules.initial_state(size)
    for _, earlier in history[:ply]:
        replayed = rules.play(replayed, earlier)
    assert replayed == state
    with pytest.raises(IllegalMoveError):
        rules.play(replayed, bad)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=examples(40), deadline=None)
@given(data=st.data())
def test_a_refused_pass_names_the_first_legal_board_play(game: str, data: st.DataObject) -> None:
    rules, state = drawn_state(game, data)
    first = next(iter(rules.legal_moves(state)), None)
    if rules.is_over(state) or first is None or first == Pass():
        return
    with pytest.raises(IllegalMoveError, match=re.escape(f"(e.g. {first})")):
        rules.play(state, Pass())
