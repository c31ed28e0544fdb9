"""Tests for the Petrify engine (``spec/rules/petrify.md``).

What Petrify shares with Pilo (passing, pie rule, patch scoring, tie-break) is tested in
``test_pilo.py``; here are Petrify's own rules: eight directions, any enemy disk, and the
mounds and barricades a capture may not complete, with the ring of virtual blocks.

Positions are written in the Setup notation, top rank first. Each ruling test says, in its
name or a comment, the other reading it rules out; under that reading the test would fail.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.base import get_rules
from arbiter.adjudicator.capture_games import BLUE, ORANGE
from arbiter.adjudicator.petrify import PetrifyRules, State, completed
from arbiter.notation.ast import Move, Point
from tests.adjudicator.harness import Harness
from tests.budget import examples
from tests.strategies import histories

RULES = PetrifyRules()
P = Point.parse


HARNESS = Harness("Petrify")
move, play, refused, legal, board = (
    HARNESS.move,
    HARNESS.play,
    HARNESS.refused,
    HARNESS.legal,
    HARNESS.board,
)


def setup(text: str, turn: int = BLUE, ply: int = 0) -> State:
    """A state from a Setup string; ``turn`` and ``ply`` set who moves and how far we are."""
    state: State = HARNESS.setup(text, turn=turn, ply=ply)
    return state


def test_registered_by_name() -> None:
    assert isinstance(get_rules("PETRIFY"), PetrifyRules)
    assert RULES.colours == ("Blue", "Orange")


# Setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3/3/bb,2", "a1: 'bb' is a stack, but a Petrify square holds one piece at most"),
        ("3/3/bx,2", "a1: 'bx' is a stack, but a Petrify square holds one piece at most"),
        ("3/3/x,2", "a1 is part of a mound with the edge of the board"),
        ("4/4/4/1,x,x,1", "b1 is part of a mound with c1 and the edge of the board"),
        ("4/1,x,x,1/1,x,x,1/4", "b2 is part of a mound with c2, b3 and c3"),
        ("5/3,x,1/2,x,2/1,x,3/5", "b2 is part of a barricade with c3 and d4"),
        ("4/4/2,x,1/1,x,2", "b1 is part of a barricade with c2 and the edge of the board"),
        ("4/x,3/1,x,2/4", "b2 is part of a barricade with a3 and the edge of the board"),
    ],
)
def test_setup_rejects_what_play_cannot_reach(text: str, reason: str) -> None:
    # Every block was left by a capture that may not complete a formation.
    with pytest.raises(ValueError, match=reason):
        setup(text)


def test_setup_with_lone_blocks() -> None:
    assert board(setup("4/x,3/2,x,1/4")) == "4/x,3/2,x,1/4"


# Captures ----------------------------------------------------------------------------------


def test_diagonal_capture() -> None:
    # Pilo allows only rows and columns; Petrify all eight lines. The mover stays one disk.
    state = play(setup("3/1,b,1/o,2"), "b2xa1")
    assert board(state) == "3/1,x,1/b,2"
    assert RULES.to_move(state) == "Orange"


def test_capture_over_friendly_disks_at_a_distance() -> None:
    state = play(setup("5/3,o,1/2,b,2/1,b,3/5"), "b2xd4")
    assert board(state) == "5/3,b,1/2,b,2/1,x,3/5"


def test_capture_blocked_by_an_enemy_disk_in_between() -> None:
    state = setup("5/3,o,1/2,o,2/1,b,3/5")
    refused(state, "b2xd4", "b2xd4: an Orange disk on c3 is in the way")
    assert "b2xc3" in legal(state) and "b2xd4" not in legal(state)


def test_capture_blocked_by_a_block_in_between() -> None:
    refused(setup("5/3,o,1/2,x,2/1,b,3/5"), "b2xd4", "b2xd4: a block on c3 is in the way")


def test_capture_needs_a_line() -> None:
    refused(
        setup("5/5/2,o,2/5/1,b,3"),
        "b1xc3",
        "b1xc3: b1 and c3 are not on one row, column or diagonal",
    )


# Mounds and barricades ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "token", "corner"),
    [
        ("4/4/4/b,o,2", "a1xb1", "a1"),
        ("4/4/4/2,o,b", "d1xc1", "d1"),
        ("b,o,2/4/4/4", "a4xb4", "a4"),
        ("2,o,b/4/4/4", "d4xc4", "d4"),
    ],
)
def test_capture_from_a_corner_is_never_legal(text: str, token: str, corner: str) -> None:
    # The ring's corner and its two neighbours make a mound with any block in the corner.
    # Other reading (no ring, or a ring without corners): the capture would be legal.
    state = setup(text)
    refused(
        state,
        token,
        f"{token}: the block left on {corner} would complete a mound with the edge of the board",
    )
    assert token not in legal(state)


def test_edge_mound() -> None:
    # A block on c1 beside the block on b1: with the two ring squares below, a mound.
    # Other reading (edges are not blocks): two blocks side by side are no formation.
    state = setup("5/5/5/5/1,x,b,o,1")
    refused(
        state,
        "c1xd1",
        "c1xd1: the block left on c1 would complete a mound with b1 and the edge of the board",
    )


def test_a_lone_block_on_the_edge_is_legal() -> None:
    # Nothing beyond the ring counts. The line c1, d0 (ring), e-1 (beyond) is no barricade.
    # Other reading (all outside the board is blocks): every edge capture would be illegal.
    assert board(play(setup("5/5/5/5/2,b,o,1"), "c1xd1")) == "5/5/5/5/2,x,b,1"


def test_edge_barricade_through_the_ring() -> None:
    # Ring square left of a2, the block on a3, and b4 make a diagonal line of three.
    # Other reading (edges are not blocks): two blocks on a diagonal are no formation.
    state = setup("5/1,b,o,2/x,4/5/5")
    refused(
        state,
        "b4xc4",
        "b4xc4: the block left on b4 would complete a barricade with a3 and the edge of the board",
    )


def test_barricade_with_a_ring_corner() -> None:
    # Ring corner below-left of a1, a1 and b2. A block on a1 cannot arise in play (it is
    # itself a mound with the ring), so the rule is checked on the board directly.
    # Other reading (ring without corners): no barricade.
    board_ = ("x",) + ("",) * 15
    found = completed(board_, 4, P("b2").index(4))
    assert found is not None and found.kind == "barricade" and found.edge
    assert found.others == (0,)


def test_interior_mound() -> None:
    state = setup("5/5/1,x,b,1,o/1,x,x,2/5")
    refused(state, "c3xe3", "c3xe3: the block left on c3 would complete a mound with b2, c2 and b3")


@pytest.mark.parametrize(
    ("text", "token", "message"),
    [
        # b2, c3 and the block d4 would leave: d4 at an end of the line.
        (
            "5/3,b,o/2,x,2/1,x,3/5",
            "d4xe4",
            "the block left on d4 would complete a barricade with b2 and c3",
        ),
        # b2 and d4 with c3 between them: the middle of the line.
        (
            "5/3,x,1/2,b,o,1/1,x,3/5",
            "c3xd3",
            "the block left on c3 would complete a barricade with b2 and d4",
        ),
        # The other diagonal: b4, c3 and d2.
        (
            "5/1,x,3/2,x,2/3,b,o/5",
            "d2xe2",
            "the block left on d2 would complete a barricade with c3 and b4",
        ),
    ],
)
def test_interior_barricade(text: str, token: str, message: str) -> None:
    refused(setup(text), token, f"{token}: {message}")


def test_blocks_in_a_straight_orthogonal_line_are_legal() -> None:
    # Only diagonal lines are barricades: b2, c2 and then d2 in a row is fine.
    assert board(play(setup("5/5/5/1,x,x,b,o/5"), "d2xe2")) == "5/5/5/1,x,x,x,b/5"


# Passing -------------------------------------------------------------------------------------


def test_pass_when_every_capture_would_form_a_mound() -> None:
    # The board is full; Blue's b1 sees Orange disks, but a block on b1 next to c1 makes an
    # edge mound. Other reading (the pass check ignores formations): the pass is refused.
    state = setup("o,o,o,o/o,o,o,o/o,o,o,o/o,b,x,o")
    assert legal(state) == ["pass"]
    assert play(state, "pass").passes == 1


def test_pass_refused_while_a_capture_exists() -> None:
    refused(
        setup("o,o,o,o/o,o,o,o/o,o,b,o/o,o,x,o"),
        "pass",
        "cannot pass: a board play is available (e.g. c2xd2)",
    )


# Move counts ---------------------------------------------------------------------------------

COUNT = "4/1,o,2/b,b,1,o/o,1,x,1"


def test_move_count_blue() -> None:
    # 10 empty squares. a2 takes d2 (over b2 and c2), a1 (down) and b3 (diagonal): 3.
    # b2 sees b3, d2 and a1, but a block on b2 would make a barricade with c1 and the ring
    # square below d1, so b2 may not move. 10 + 3 = 13.
    assert legal(setup(COUNT))[10:] == ["a2xd2", "a2xa1", "a2xb3"]


def test_move_count_orange() -> None:
    # 10 empty squares. a1 is a corner: never. d2 would make a barricade with c1 and the ring
    # below b1. b3 takes b2 (down) and a2 (diagonal). 10 + 2 = 12.
    state = setup(COUNT, turn=ORANGE)
    assert len(legal(state)) == 12
    assert legal(state)[10:] == ["b3xb2", "b3xa2"]


def test_move_count_empty_board() -> None:
    assert len(legal(RULES.initial_state(8))) == 64
    assert legal(play(RULES.initial_state(3), "b2"))[-1] == "swap"  # 8 squares and swap


# Properties ----------------------------------------------------------------------------------


def games(limit: int = 70) -> st.SearchStrategy[list[tuple[State, Move]]]:
    """A random legal game on 3x3 to 5x5: the states before each move and the moves."""
    return histories("Petrify", (3, 4, 5), limit)  # type: ignore[return-value]


@settings(max_examples=examples(40), deadline=None)
@given(games())
def test_random_games_follow_the_rules(history: list[tuple[State, Move]]) -> None:
    for state, chosen in history[:-1]:
        snapshot = tuple(state)
        after = RULES.play(state, chosen)
        assert tuple(state) == snapshot  # never changed in place
        # No position reached in play holds a formation, so each is a valid Setup.
        assert RULES.initial_state(after.size, setup=RULES.position(after)).board == after.board
    for state, _ in history:
        assert (RULES.outcome(state) is None) == bool(list(RULES.legal_moves(state)))
    outcome = RULES.outcome(history[-1][0])
    if outcome is not None:
        assert outcome.scores is not None
        for colour in RULES.colours:
            owned = outcome.details[colour]["patches"]
            assert outcome.scores[colour] == sum(p["size"] for p in owned)


def formation_by_scanning(board: tuple[str, ...], size: int, square: int) -> bool:
    """Reference for ``completed``: lay the board inside a grid two squares wider whose
    outer ring is all blocks, put a block on ``square``, and scan the whole grid for a 2×2
    of blocks or a diagonal line of three that includes ``square``."""
    wide = size + 2
    grid = [[f in (0, wide - 1) or r in (0, wide - 1) for f in range(wide)] for r in range(wide)]
    for index, cell in enumerate(board):
        grid[index // size + 1][index % size + 1] = cell == "x" or index == square
    mine = (square % size + 1, square // size + 1)
    shapes = [
        [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)]
        for f in range(wide - 1)
        for r in range(wide - 1)
    ]
    shapes += [
        [(f, r), (f + 1, r + 1), (f + 2, r + 2)] for f in range(wide - 2) for r in range(wide - 2)
    ]
    shapes += [
        [(f, r), (f + 1, r - 1), (f + 2, r - 2)] for f in range(wide - 2) for r in range(2, wide)
    ]
    return any(mine in shape and all(grid[r][f] for f, r in shape) for shape in shapes)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.sampled_from(["", "b", "o", "x", "x"]), min_size=n * n, max_size=n * n),
        )
    )
)
def test_formations_agree_with_a_scan_of_the_ringed_board(case: tuple[int, list[str]]) -> None:
    size, cells = case
    board_ = tuple(cells)
    for square in range(size * size):
        assert (completed(board_, size, square) is not None) == formation_by_scanning(
            board_, size, square
        )
