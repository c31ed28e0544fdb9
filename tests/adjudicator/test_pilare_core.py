"""The optional C module ``arbiter._pilare`` (``src/arbiter/_pilare.c``), which the wheel
builds where a C compiler is present: its sowing gives the board and topped counts the
Python walk (``pilare.sown_in_python``) gives for every path that walk accepts, and None
for every path it refuses (the Python walk then words the error); bad arguments are a
TypeError or a ValueError, never a crash. Where the module is not built (a checkout run),
these tests are skipped; the wheel's run (``make test``) has it.

The Python walk is the reading the rule tests hold (``test_pilare.py``); the wheel's run of
those tests plays every ply through this module."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator import pilare
from arbiter.adjudicator.pilare import MEN, PilareRules, State, sown_in_python
from arbiter.notation.errors import IllegalMoveError
from tests.adjudicator.test_pilare import random_move
from tests.budget import examples

core = pytest.importorskip("arbiter._pilare")
RULES = PilareRules()


def c_sown(state: State, start: int, path: str) -> Any:
    return core.sow(state.board, state.size, start, path, *MEN, *state.topped)


def python_sown(state: State, start: int, path: str) -> tuple[tuple[str, ...], tuple[int, int]]:
    after = sown_in_python(state, start, state.board[start], path)
    return after.board, after.topped


@settings(max_examples=examples(60), deadline=None)
@given(st.data(), st.sampled_from(pilare.DESCRIPTION.sizes))
def test_every_sowing_of_a_random_game_is_the_python_one(data: st.DataObject, size: int) -> None:
    state = RULES.initial_state(size)
    for _ in range(60):
        if RULES.outcome(state) is not None:
            break
        move = random_move(data, state)
        start, path = move.origin.index(size), move.path
        assert c_sown(state, start, path) == python_sown(state, start, path)
        # Any other path of that length: the same sowing where Python accepts it, else None.
        other = data.draw(st.text("ensw" + "x", min_size=len(path), max_size=len(path)))
        try:
            expected: object = python_sown(state, start, other)
        except IllegalMoveError:
            expected = None
        assert c_sown(state, start, other) == expected
        state = RULES.play(state, move)


def test_the_engine_sows_through_the_c_module_where_it_is_built() -> None:
    assert pilare._C_SOW is core.sow  # noqa: SLF001


def test_a_path_back_over_its_start_drops_on_the_emptied_square() -> None:
    # A stack of four on b2 goes e, n, w, s round a 2×2 square: its last man lands on b2,
    # which the lift emptied.
    cells = [""] * 36
    cells[7] = "nrnr"  # b2
    state = RULES.initial_state(6, setup=tuple(tuple(cells[r * 6 : r * 6 + 6]) for r in range(6)))
    board, topped = c_sown(state, 7, "enws")
    assert board == python_sown(state, 7, "enws")[0] and board[7] == "r"
    assert topped == python_sown(state, 7, "enws")[1] == (2, 0)


GOOD = ("",) * 35 + ("r",)


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((GOOD, 6, 35, "s", "r", "b", 1), TypeError),  # too few
        (([*GOOD], 6, 35, "s", "r", "b", 1, 0), TypeError),  # a list
        ((GOOD, 6, 35, b"s", "r", "b", 1, 0), TypeError),
        ((GOOD, 6, 35, "s", "rb", "b", 1, 0), TypeError),  # a man is one letter
        ((GOOD, 6, 35, "s", "r", "b", 1.0, 0), TypeError),
        ((GOOD, 5, 35, "s", "r", "b", 1, 0), ValueError),  # 36 squares are not 5×5
        ((GOOD, 6, 36, "s", "r", "b", 1, 0), ValueError),
        ((GOOD, 6, -1, "s", "r", "b", 1, 0), ValueError),
        ((GOOD, 2**70, 0, "s", "r", "b", 1, 0), ValueError),
    ],
)
def test_bad_arguments_are_refused(arguments: tuple[Any, ...], error: type) -> None:
    with pytest.raises(error):
        core.sow(*arguments)


@pytest.mark.parametrize(
    ("board", "path"),
    [
        (GOOD, "ss"),  # longer than the stack
        (GOOD, "n"),  # off the board (f6 is the top right corner)
        (GOOD, "e"),
        (("",) * 35 + ("ré",), "ww"),  # not a stack of the game's letters
        (("",) * 34 + ("é", "rr"), "ws"),  # nor is the first square it reaches
        (("",) * 36, "w"),  # an empty square
    ],
)
def test_what_python_must_word_is_none(board: tuple[str, ...], path: str) -> None:
    assert core.sow(board, 6, 35, path, "r", "b", 1, 0) is None
