"""Tests for the Pilo engine (``spec/rules/pilo.md``) and the patch scoring it shares with
Petrify (``adjudicator/patches.py``).

Positions are written in the Setup notation, top rank first: "x,x,x/3/bb,o,1" is a 3x3 board
with a row of blocks on rank 3, an empty rank 2, a Blue stack of height 2 on a1 and an Orange
disk on b1. Each ruling test says, in its name or a comment, the other reading it rules out;
under that reading the test would fail.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.base import get_rules
from arbiter.adjudicator.capture_games import BLUE, ORANGE, score_patches
from arbiter.adjudicator.pilo import PiloRules, State
from arbiter.notation.ast import Flip, Move, Point
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import find_game
from arbiter.notation.position import parse_position
from tests.adjudicator.harness import Harness
from tests.budget import examples
from tests.strategies import histories

RULES = PiloRules()
P = Point.parse


HARNESS = Harness("Pilo")
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
    assert isinstance(get_rules("PILO"), PiloRules)
    assert RULES.colours == ("Blue", "Orange")


# Setup and the start ---------------------------------------------------------------------


def test_empty_board_blue_first() -> None:
    state = RULES.initial_state(6)
    assert RULES.to_move(state) == "Blue"
    assert board(state) == "6/6/6/6/6/6"
    assert RULES.outcome(state) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3/3/bo,2", "a1: 'bo' mixes colours, but a stack is all of one colour"),
        ("3/3/obb,2", "a1: 'obb' mixes colours"),
        ("3/3/xb,2", "a1: a block stands alone on its square"),
        ("3/3/bx,2", "a1: a block stands alone on its square"),
        ("3/3/xx,2", "a1: a block stands alone on its square"),
    ],
)
def test_setup_rejects_squares_no_play_can_make(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        RULES.initial_state(3, setup=parse_position(text, find_game("pilo"), 3))


def test_setup_keeps_stacks_and_blocks() -> None:
    state = setup("bbb,x,oo/3/1,o,1")
    assert board(state) == "bbb,x,oo/3/1,o,1"
    assert state.empty == 5


@pytest.mark.parametrize(
    ("size", "komi", "reason"),
    [
        (2, None, "Pilo is played on sizes 3 to 19, not 2"),
        (20, None, "Pilo is played on sizes 3 to 19, not 20"),
        (6, 0, "Pilo has no komi"),
    ],
)
def test_bad_size_or_komi(size: int, komi: int | None, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        RULES.initial_state(size, komi=komi)


def test_setup_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="the setup is not a 3×3 position"):
        RULES.initial_state(3, setup=(("",) * 3,) * 2)


# Placing -----------------------------------------------------------------------------------


def test_place_then_orange() -> None:
    state = play(RULES.initial_state(4), "b2")
    assert board(state) == "4/4/1,b,2/4"
    assert RULES.to_move(state) == "Orange"
    assert state.last_play == BLUE


def test_place_on_occupied_square() -> None:
    state = setup("3/3/bb,x,1")
    refused(state, "a1", "a1 is occupied by a Blue stack")
    refused(state, "b1", "b1 is occupied by a block")


def test_place_off_the_board() -> None:
    refused(RULES.initial_state(3), "d4", "d4 is off the 3×3 board")


def test_a_move_pilo_does_not_have() -> None:
    with pytest.raises(IllegalMoveError, match="'a1x' is not a Pilo move"):
        RULES.play(RULES.initial_state(3), Flip(P("a1")))


# Capturing ---------------------------------------------------------------------------------


def test_capture_adds_a_disk_and_leaves_a_block() -> None:
    state = play(setup("x,x,x,x/4/4/bb,1,1,oo"), "a1xd1")
    assert board(state) == "x,x,x,x/4/4/x,2,bbb"
    assert state.empty == 10  # a capture empties no square and fills none
    assert RULES.to_move(state) == "Orange"


def test_stack_jumps_over_friendly_stacks() -> None:
    # Other reading: a stack may not pass over any stack. Then a1xd1 would be illegal.
    state = play(setup("4/4/4/b,bbb,b,o"), "a1xd1")
    assert board(state) == "4/4/4/x,bbb,b,bb"


def test_stack_may_not_jump_over_an_enemy_stack() -> None:
    # Other reading: only blocks stop a stack. Then a1xd1 would be legal.
    state = setup("4/4/4/b,oo,1,o")
    refused(state, "a1xd1", "a1xd1: an Orange stack on b1 is in the way")
    assert "a1xd1" not in legal(state)


def test_stack_may_not_jump_over_a_block() -> None:
    refused(setup("4/4/4/b,x,b,o"), "a1xd1", "a1xd1: a block on b1 is in the way")


def test_capture_needs_equal_heights() -> None:
    # Other reading: a taller stack may take a shorter one. Then c3xc1 would be legal.
    state = setup("2,bb/3/x,x,o")
    refused(state, "c3xc1", "c3xc1: the stack on c3 has height 2 but the one on c1 has height 1")
    refused(
        setup("2,b/3/x,x,oo"),
        "c3xc1",
        "c3xc1: the stack on c3 has height 1 but the one on c1 has height 2",
    )
    assert board(play(setup("2,bb/3/x,x,oo"), "c3xc1")) == "2,x/3/x,x,bbb"


def test_capture_goes_along_rows_and_columns_only() -> None:
    refused(setup("3/1,b,1/o,2"), "b2xa1", "b2xa1: b2 and a1 are not on one row or column")


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("a2xa1", "a2xa1: a2 is empty"),
        ("c3xa1", "c3xa1: c3 holds a block"),
        ("a1xa3", "a1xa3: the stack on a1 is Orange's, and Blue is to move"),
        ("a3xa2", "a3xa2: a2 is empty, and a move must end on an enemy stack"),
        ("a3xc3", "a3xc3: c3 holds a block, and a move must end on an enemy stack"),
        ("a3xb3", "a3xb3: the stack on b3 is the mover's own"),
        ("a3xa3", "a3xa3: a stack must move to another square"),
        ("a3xd3", "d3 is off the 3×3 board"),
    ],
)
def test_capture_refusals(token: str, message: str) -> None:
    refused(setup("b,b,x/3/o,2"), token, message)


# Passing and the end -------------------------------------------------------------------------


def test_pass_refused_while_an_empty_square_exists() -> None:
    # Other reading: a player without a capture may pass. Blue has none here, but c1 is empty.
    refused(setup("x,x,x/x,x,x/bb,o,1"), "pass", "cannot pass: a board play is available (e.g. c1)")


def test_pass_refused_while_a_capture_exists() -> None:
    # Other reading: a full board allows passing. Here a1xb1 is still possible.
    state = setup("x,x,x/x,x,x/b,o,x")
    refused(state, "pass", "cannot pass: a board play is available (e.g. a1xb1)")
    assert legal(state) == ["a1xb1"]


def test_pass_is_the_only_move_without_board_play() -> None:
    assert legal(setup("x,x,x/x,x,x/bb,o,x")) == ["pass"]


def test_two_passes_end_the_game() -> None:
    state = play(setup("x,x,x/x,x,x/bb,o,x", ply=6), "pass")
    assert RULES.outcome(state) is None  # one pass does not end it
    assert legal(state) == ["pass"]
    state = play(state, "pass")
    assert RULES.outcome(state) is not None
    assert legal(state) == []
    refused(state, "pass", "the game is over (both players passed)")
    refused(state, "a1", "the game is over (both players passed)")


def test_a_board_play_between_passes_restarts_the_count() -> None:
    # Orange passes, Blue captures, Orange passes: one pass in a row, the game goes on.
    # Orange's c1 meets Blue's b1 (height 2) first, so only Blue can capture (a1xc1).
    state = setup("x,x,x/x,x,x/b,bb,o", turn=ORANGE)
    state = play(state, "pass", "a1xc1", "pass")
    assert state.passes == 1 and RULES.outcome(state) is None


# Scoring -------------------------------------------------------------------------------------


def end(state: State) -> State:
    """Play the two passes that end a game where neither side has a board play."""
    return play(state, "pass", "pass")


def test_group_size_counts_squares_not_disks() -> None:
    # Blue's height-3 stack is a group of size 1; Orange's two disks a group of size 2.
    # Other reading (disks): Blue's group has size 3 and Blue would own the patch.
    outcome = RULES.outcome(end(setup("x,x,x/x,x,x/bbb,o,o")))
    assert outcome is not None
    assert outcome.scores == {"Blue": 0, "Orange": 3}
    assert outcome.details["Orange"]["patches"] == [{"at": "a1", "size": 3, "group": 2}]


def test_patch_whose_groups_all_cancel_is_nobodys() -> None:
    # Patch a1-b1: a Blue group and an Orange group, both of size 1 (one square each), cancel.
    # Other reading (sizes in disks): Blue's stack of 2 would beat Orange's disk, Blue+3.
    outcome = RULES.outcome(end(setup("b,x,x/x,x,x/bb,o,x")))
    assert outcome is not None
    assert outcome.scores == {"Blue": 1, "Orange": 0}
    assert outcome.details["unowned"] == [{"at": "a1", "size": 2}]
    assert outcome.details["Blue"] == {"score": 1, "patches": [{"at": "a3", "size": 1, "group": 1}]}


def test_pair_removal_leaves_a_smaller_group_that_decides() -> None:
    # One patch of 7 squares: Blue groups of 3 (a1-c1) and 1 (d2), Orange one group of 3
    # (a2-c2, height 2 so nothing can be taken). The two 3s cancel; Blue's 1 is left.
    # Other reading (biggest group wins without removal): a tie at 3, nobody's patch.
    outcome = RULES.outcome(end(setup("x,x,x,x/x,x,x,x/oo,oo,oo,b/b,b,b,x")))
    assert outcome is not None
    assert outcome.scores == {"Blue": 7, "Orange": 0}
    assert outcome.winner == "Blue"
    assert outcome.details["Blue"]["patches"] == [{"at": "a1", "size": 7, "group": 1}]


def test_pairs_go_one_at_a_time_so_a_surplus_group_survives() -> None:
    # Blue groups 2 (a1-b1) and 2 (c2-d2); Orange groups 2 (c1-d1) and 1 (a2). One pair of
    # 2s goes; Blue's other 2 is left and beats Orange's 1.
    # Other reading (every group of a size both colours have is removed): Orange's 1 wins.
    outcome = RULES.outcome(end(setup("x,x,x,x/x,x,x,x/oo,x,b,b/b,b,oo,oo")))
    assert outcome is not None
    assert outcome.result(RULES.colours) == "Blue+7"
    assert outcome.details["Blue"]["patches"] == [{"at": "a1", "size": 7, "group": 2}]


def test_the_biggest_leftover_wins_not_the_most_groups_or_squares() -> None:
    # Blue groups of 1 on a1, d1 and b2; Orange one group of 2 (b1-c1): nothing pairs, and
    # Orange's 2 is the biggest. Other readings (more groups, more squares): Blue's patch.
    outcome = RULES.outcome(end(setup("x,x,x,x/x,x,x,x/x,b,x,x/b,oo,oo,b")))
    assert outcome is not None
    assert outcome.result(RULES.colours) == "Orange+5"


def test_score_is_the_sum_of_patch_sizes() -> None:
    outcome = RULES.outcome(end(setup("b,x,o/x,x,x/b,b,x")))
    assert outcome is not None
    assert outcome.scores == {"Blue": 3, "Orange": 1}
    assert outcome.result(RULES.colours) == "Blue+2"
    assert outcome.tiebreak is None


def test_details_for_an_unfinished_game() -> None:
    details = RULES.details(setup("b,1,o/3/3"))
    assert details["Blue"]["score"] == 0 and details["Orange"]["score"] == 0
    assert details["unowned"] == [{"at": "a1", "size": 9}]


# Tie-break -----------------------------------------------------------------------------------


def test_tie_lost_by_the_last_board_play_even_after_passes() -> None:
    # Blue fills a1, then both pass: 2-2, and Blue made the last board play.
    # Other reading (the colour that passed first, or is to move at the end, loses): Blue+0.
    state = play(setup("x,x,x/b,x,o/1,x,o"), "a1", "pass")
    assert state.last_play == BLUE  # Orange's pass does not change who made it
    outcome = RULES.outcome(play(state, "pass"))
    assert outcome is not None
    assert outcome.result(RULES.colours) == "Orange+0"
    assert outcome.tiebreak == "scores tied at 2; Blue made the last board play and loses"


def test_a_capture_is_a_board_play_for_the_tie_break() -> None:
    # Blue places a1 (b,o,b), Orange takes a1: Orange 1 (a1), Blue 1 (c1); then two passes.
    # Other reading (only placements count): Blue made the last one and Orange would win.
    state = play(setup("x,x,x/x,x,x/1,o,b"), "a1", "b1xa1", "pass", "pass")
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert board(state) == "x,x,x/x,x,x/oo,x,b"
    assert outcome.result(RULES.colours) == "Blue+0"
    assert outcome.tiebreak == "scores tied at 1; Orange made the last board play and loses"


def test_a_swap_is_not_a_board_play_for_the_tie_break() -> None:
    # Blue fills a1, Orange swaps, then Orange and Blue pass: 2-2.
    # Other reading (a swap counts as a play): Orange would have made the last one.
    state = play(setup("x,x,x/b,x,o/1,x,o"), "a1", "swap", "pass", "pass")
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winner == "Orange"


def test_tie_without_any_board_play() -> None:
    # Choice (spec "Tie-break"): from a Setup with no board play, Orange counts as the last.
    outcome = RULES.outcome(end(setup("x,x,x/x,x,x/bb,o,x")))
    assert outcome is not None
    assert outcome.result(RULES.colours) == "Blue+0"
    assert outcome.tiebreak is not None and "no board play was made" in outcome.tiebreak


# Pie rule ------------------------------------------------------------------------------------


def test_swap_as_second_turn_then_orange_again() -> None:
    # Other reading (colours alternate after a swap): Blue would move next.
    state = play(RULES.initial_state(5), "c3")
    assert legal(state)[-1] == "swap"
    state = play(state, "swap")
    assert RULES.to_move(state) == "Orange"
    assert board(state) == "5/5/2,b,2/5/5"
    assert "swap" not in legal(state)


def test_swap_after_a_first_pass_breaks_the_run_of_passes() -> None:
    # Choice (spec "The end"): a swap is a turn, so pass, swap, pass is not two passes in a
    # row; the game ends only with the next pass.
    state = play(setup("x,x,x/x,x,x/bb,o,x"), "pass", "swap", "pass")
    assert RULES.outcome(state) is None and RULES.to_move(state) == "Blue"
    assert RULES.outcome(play(state, "pass")) is not None


@pytest.mark.parametrize("tokens", [(), ("c3", "d4"), ("c3", "swap")])
def test_swap_at_any_other_turn(tokens: tuple[str, ...]) -> None:
    refused(play(RULES.initial_state(5), *tokens), "swap", "swap is only legal as the second turn")


# Move counts ---------------------------------------------------------------------------------

COUNT = "4/o,3/b,b,o,1/bb,x,oo,b"


def test_move_count_empty_board_and_after_the_first_move() -> None:
    assert len(legal(RULES.initial_state(6))) == 36  # every square
    assert len(legal(play(RULES.initial_state(6), "a1"))) == 36  # 35 squares and swap


def test_move_count_blue() -> None:
    # 8 empty squares (d2, b3-d3, a4-d4). Captures: a2 takes c2 over b2 (friendly) and a3
    # upwards; b2 takes c2. a1 (height 2) meets a3 (height 1) and b1's block; d1 meets c1
    # (height 2) and nothing upwards. 8 + 3 = 11.
    assert legal(setup(COUNT)) == [
        "d2",
        "b3",
        "c3",
        "d3",
        "a4",
        "b4",
        "c4",
        "d4",
        "a2xc2",
        "a2xa3",
        "b2xc2",
    ]


def test_move_count_orange() -> None:
    # The same 8 placements. a3 takes a2; c2 takes b2; c1 (height 2) meets b1's block, d1
    # (height 1) and, upwards, only its own c2 and empty squares. 8 + 2 = 10.
    assert len(legal(setup(COUNT, turn=ORANGE))) == 10
    assert legal(setup(COUNT, turn=ORANGE))[8:] == ["c2xb2", "a3xa2"]


def test_move_count_long_lines() -> None:
    # 5x5: Blue disks fill rank 1 up to d1 and file a up to a4; Orange disks on e1 and a5.
    # 16 empty squares. Every Blue disk on rank 1 reaches e1 over its friends (a1, b1, c1,
    # d1), every one on file a reaches a5 (a1, a2, a3, a4): 16 + 8 = 24 moves.
    state = setup("o,4/b,4/b,4/b,4/b,b,b,b,o")
    assert legal(state)[16:] == [
        "a1xe1",
        "a1xa5",
        "b1xe1",
        "c1xe1",
        "d1xe1",
        "a2xa5",
        "a3xa5",
        "a4xa5",
    ]


# Properties ----------------------------------------------------------------------------------


def games(limit: int = 70) -> st.SearchStrategy[list[tuple[State, Move]]]:
    """A random legal game on 3x3 to 5x5: the states before each move and the moves."""
    return histories("Pilo", (3, 4, 5), limit)  # type: ignore[return-value]


@settings(max_examples=examples(40), deadline=None)
@given(games())
def test_random_games_follow_the_rules(history: list[tuple[State, Move]]) -> None:
    for state, chosen in history[:-1]:
        snapshot = tuple(state)
        after = RULES.play(state, chosen)
        assert tuple(state) == snapshot  # never changed in place
        assert after.ply == state.ply + 1
        assert after.empty == after.board.count("")
    final = history[-1][0]
    for state, _ in history:
        assert (RULES.outcome(state) is None) == bool(list(RULES.legal_moves(state)))
    assert final.passes < 2 or RULES.outcome(final) is not None


def owners_by_pairing(board_: tuple[str, ...], size: int) -> list[tuple[int, int | None, int]]:
    """Reference for the scoring: find patches and groups by brute force, then remove pairs
    of equal-sized Blue and Orange groups one pair at a time, as the rule text says. Each
    patch's size, owner and biggest group left, in the order of their first squares."""

    def linked(a: int, b: int) -> bool:
        return abs(a % size - b % size) + abs(a // size - b // size) == 1

    def regions(keep: list[int], same: Callable[[int, int], bool]) -> list[set[int]]:
        found: list[set[int]] = []
        for square in keep:
            touching = [r for r in found if any(linked(square, o) and same(square, o) for o in r)]
            merged = {square}.union(*touching)
            found = [r for r in found if r not in touching] + [merged]
        return sorted(found, key=min)

    owners: list[tuple[int, int | None, int]] = []
    for patch in regions([i for i, c in enumerate(board_) if c != "x"], lambda a, b: True):
        sizes: list[list[int]] = [[], []]
        disks = [i for i in patch if board_[i]]
        for group in regions(disks, lambda a, b: board_[a][0] == board_[b][0]):
            sizes["bo".index(board_[min(group)][0])].append(len(group))
        while any(s in sizes[1] for s in sizes[0]):
            paired = next(s for s in sizes[0] if s in sizes[1])
            sizes[0].remove(paired)
            sizes[1].remove(paired)
        best = [max(s, default=0) for s in sizes]
        owner = None if best == [0, 0] else int(best[1] > best[0])
        owners.append((len(patch), owner, 0 if owner is None else best[owner]))
    return owners


@settings(max_examples=examples(60), deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.sampled_from(["", "x", "b", "bb", "o", "oo", "ooo"]),
                min_size=n * n,
                max_size=n * n,
            ),
        )
    )
)
def test_scoring_agrees_with_removing_pairs_one_by_one(case: tuple[int, list[str]]) -> None:
    size, cells = case
    board_ = tuple(cells)
    found = [(p.size, p.owner, p.group) for p in score_patches(board_, size, RULES.pieces)]
    assert found == owners_by_pairing(board_, size)
