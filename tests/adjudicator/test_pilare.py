"""Tests of the Pilare rules (spec/rules/pilare.md, RULINGS.md "Pilare").

Positions are built from the position notation of the Setup tag (top rank first). Each
ruling test names the other reading it would fail under.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.pilare import (
    DESCRIPTION,
    EQUIPMENT,
    PilareRules,
    State,
    count_legal_moves,
    count_paths,
)
from arbiter.notation.ast import Capture, Pass, Place, Point, Sow
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.games import find_game
from arbiter.notation.position import format_position
from tests.adjudicator.harness import Harness
from tests.budget import examples

RULES = PilareRules()
SPEC = find_game("pilare")
SPEC_FILE = Path(__file__).resolve().parents[2] / "spec" / "rules" / "pilare.md"
STEPS = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}
BACK = {"n": "s", "s": "n", "e": "w", "w": "e"}


HARNESS = Harness("Pilare")
sow, play, at, illegal = HARNESS.move, HARNESS.play, HARNESS.at, HARNESS.illegal


def setup(text: str, size: int | None = None) -> State:
    """The state of a Setup string; ``size`` (its number of ranks by default) must agree."""
    state: State = HARNESS.setup(text)
    assert size is None or state.size == size
    return state


def stacks(squares: dict[str, str], size: int = 6, *, black_corner: bool = True) -> State:
    """A position holding only ``squares`` (square -> stack, bottom man first); with
    ``black_corner`` a lone Black man on the top-right corner keeps Black in the game."""
    rows = [[""] * size for _ in range(size)]
    if black_corner:
        rows[size - 1][size - 1] = "b"
    for square, stack in squares.items():
        point = Point.parse(square)
        rows[point.rank][point.file] = stack
    return RULES.initial_state(size, setup=tuple(map(tuple, rows)))


# --- the standard position -------------------------------------------------------------


def test_standard_positions_are_the_spec_strings() -> None:
    spec_text = SPEC_FILE.read_text(encoding="utf-8")
    assert sorted(DESCRIPTION.start) == [6, 8]
    for size, text in DESCRIPTION.start.items():
        assert f"    {text}\n" in spec_text
        assert format_position(RULES.position(RULES.initial_state(size))) == text


def test_the_equipment_is_the_published_one() -> None:
    """Counted from the standard starts, it is what the published text lists (section 1)."""
    assert EQUIPMENT == {6: {"r": 10, "b": 10, "n": 36}, 8: {"r": 14, "b": 14, "n": 64}}


@pytest.mark.parametrize(
    "size, red, black",
    [
        (6, "a1 b1 c1 d1 e1 f1 a2 a3 f2 f3", "a6 b6 c6 d6 e6 f6 a4 a5 f4 f5"),
        (
            8,
            "a1 b1 c1 d1 e1 f1 g1 h1 a2 a3 a4 h2 h3 h4",
            "a8 b8 c8 d8 e8 f8 g8 h8 a5 a6 a7 h5 h6 h7",
        ),
    ],
)
def test_standard_position_men_on_a_neutral_base(size: int, red: str, black: str) -> None:
    # Other reading: coloured men stand directly on the board (the text's "36 neutral men"
    # would then not fill every square). Here every square has a neutral man at the bottom.
    state = RULES.initial_state(size)
    for square in red.split():
        assert at(state, square) == "nr"
    for square in black.split():
        assert at(state, square) == "nb"
    assert all(stack[0] == "n" for stack in state.board)
    assert sum(stack == "n" for stack in state.board) == size * size - len(red.split()) * 2
    coloured = len(red.split())  # 10 or 14 men each
    assert RULES.details(state)["men"] == {
        "Red": coloured,
        "Black": coloured,
        "neutral": size * size,
    }


def test_red_moves_first_then_black() -> None:
    # Other reading: Black first (as in some stacking games). RULINGS: Red, then Black.
    state = RULES.initial_state(6)
    assert RULES.to_move(state) == "Red"
    illegal(state, "a6:se", "a6 is topped by Black")
    state = play(state, "a1:nn")
    assert RULES.to_move(state) == "Black"
    illegal(state, "b1:nn", "b1 is topped by Red")
    assert RULES.to_move(play(state, "a6:ss")) == "Red"


# --- sowing ------------------------------------------------------------------------------


def test_circle_back_to_the_source_square() -> None:
    # Other reading: the emptied source may not be entered again. RULINGS: it may.
    state = stacks({"c3": "nbnr"})
    after = RULES.play(state, sow("c3:nesw"))
    # Bottom man first: n to c4, b to d4, n to d3, and the top r back onto c3.
    assert (at(after, "c4"), at(after, "d4"), at(after, "d3"), at(after, "c3")) == (
        "n",
        "b",
        "n",
        "r",
    )


def test_path_over_occupied_squares_adds_men_on_top_in_order() -> None:
    # c3 holds (bottom to top) b, n, b, n, r; c4 already holds n, r. Path "nnesw" (the
    # last w steps from d4 to c4, allowed: it does not reverse the s just before it) passes
    # c4 twice: c4 gets the 1st man (b) and later the 5th (r); c5 the 2nd (n), d5 the 3rd
    # (b), d4 the 4th (n). Other reading (top man first) would give c4 = "nrrb".
    state = stacks({"c3": "bnbnr", "c4": "nr"})
    after = RULES.play(state, sow("c3:nnesw"))
    assert at(after, "c3") == ""
    assert at(after, "c4") == "nrbr"  # n r were there; then b (1st man), then r (5th man)
    assert at(after, "c5") == "n"
    assert at(after, "d5") == "b"
    assert at(after, "d4") == "n"


def test_turn_back_is_only_the_immediately_previous_step() -> None:
    # Other reading: a path may never re-enter a square it has visited. Here "nen" does
    # not turn back and "nesw" comes back to its start; only "ns"-like pairs are banned.
    two = stacks({"c3": "rr"})
    RULES.play(two, sow("c3:ne"))
    illegal(two, "c3:ns", "step 2 turns back (s right after n, back to c3)")
    illegal(two, "c3:ew", "step 2 turns back (w right after e, back to c3)")
    three = stacks({"c3": "rrr"})
    assert at(RULES.play(three, sow("c3:nen")), "d5") == "r"
    illegal(three, "c3:nsn", "step 2 turns back")
    illegal(three, "c3:nwe", "step 3 turns back (e right after w, back to c4)")
    four = stacks({"c3": "rrrr"})
    assert at(RULES.play(four, sow("c3:nesw")), "c3") == "r"


def test_stack_topped_by_the_opponent_cannot_move_even_with_own_men_inside() -> None:
    # Other reading: a player may move any stack containing their men. RULINGS: top only.
    state = stacks({"c3": "rrb", "d3": "nrn", "f3": "r"})
    illegal(state, "c3:nnn", "c3 is topped by Black")
    illegal(state, "d3:nnn", "d3 is topped by a neutral man")
    illegal(state, "e3:n", "e3 is empty")
    RULES.play(state, sow("f3:n"))


@pytest.mark.parametrize(
    "size, move, reason",
    [
        (6, "a1:sesese", "step 1 leaves the board at a0 (south of a1)"),
        (6, "a1:wnnnnn", "step 1 leaves the board west of a1"),
        (6, "a1:nnnnnn", "step 6 leaves the board at a7 (north of a6)"),
        (6, "a1:eeeeee", "step 6 leaves the board at g1 (east of f1)"),
        (6, "a1:nnnnwn", "step 5 leaves the board west of a5"),
        (8, "a1:nnnnnn", None),  # six steps north stay on an 8×8 board
        (8, "c1:eeeeee", "step 6 leaves the board at i1 (east of h1)"),
        (8, "c6:nnnwsw", "step 3 leaves the board at c9 (north of c8)"),
    ],
)
def test_off_board_steps_name_the_square_beyond_the_edge(
    size: int, move: str, reason: str | None
) -> None:
    state = stacks({move[:2]: "r" * 6}, size)
    if reason is None:
        RULES.play(state, sow(move))
    else:
        illegal(state, move, reason)


def test_off_board_north_on_8x8_names_h9() -> None:
    state = stacks({"h7": "rrrr"}, 8, black_corner=False)
    illegal(state, "h7:nnss", "step 2 leaves the board at h9 (north of h8)")


def test_path_length_must_equal_height() -> None:
    # Other reading: a stack may be sown partly or with leftover steps. It may not.
    state = stacks({"c3": "nbnr"})
    illegal(state, "c3:nne", "the path has 3 steps but the stack on c3 has 4 men")
    illegal(state, "c3:nnenn", "the path has 5 steps but the stack on c3 has 4 men")
    one = stacks({"c3": "r"})
    illegal(one, "c3:nn", "the path has 2 steps but the stack on c3 has 1 man")


def test_other_move_forms_and_bad_letters_are_illegal_not_crashes() -> None:
    state = RULES.initial_state(6)
    for move in (Pass(), Place(Point.parse("c3")), Capture(Point.parse("a1"), Point.parse("a2"))):
        with pytest.raises(IllegalMoveError, match="is not a Pilare move"):
            RULES.play(state, move)
    illegal(state, Sow(Point.parse("a1"), "nx"), "step 2 is 'x'; a path uses only n, s, e, w")
    with pytest.raises(IllegalMoveError, match="k3 is off the 6×6 board"):
        RULES.play(state, Sow(Point.parse("k3"), "nn"))
    assert RULES.play(state, Sow(Point.parse("a1"), "NE")) == play(state, "a1:ne")


# --- the end of the game -----------------------------------------------------------------


def test_covering_the_last_topped_stack_wins() -> None:
    # Black's only topped stack is d4; Red covers it. Other reading: Black, still owning
    # men (buried in d4 and under c6's neutral top), plays on or passes. RULINGS: Black loses.
    state = setup("2,bn,3/6/3,nb,2/3,r,2/6/r,5")
    assert RULES.outcome(state) is None
    after = RULES.play(state, sow("d3:n"))
    outcome = RULES.outcome(after)
    assert outcome is not None
    assert outcome.winner == "Red" and outcome.scores is None and outcome.tiebreak is None
    assert outcome.result(RULES.colours) == "Red"
    assert outcome.details == {
        "reason": "Black has no stack topped by Black",
        "topped": {"Red": 2, "Black": 0},
        "men": {"Red": 2, "Black": 2, "neutral": 2},
        "tallest": 3,
    }
    assert list(RULES.legal_moves(after)) == []
    assert count_legal_moves(after) == 0
    with pytest.raises(
        IllegalMoveError, match="the game is over: Black has no stack topped by Black"
    ):
        RULES.play(after, sow("d4:nnn"))


def test_no_topped_stack_at_the_start_loses_at_once() -> None:
    # A setup where Red (to move) tops nothing: Black has won before any move. Other
    # reading: Red passes. RULINGS: no pass; Red loses.
    state = setup("6/6/6/6/2,rb,3/6")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winner == "Black"
    assert outcome.details["topped"] == {"Red": 0, "Black": 1}
    with pytest.raises(IllegalMoveError, match="the game is over: Red has no stack topped by Red"):
        RULES.play(state, sow("c3:nn"))


def test_the_mover_always_keeps_a_topped_stack() -> None:
    # Red's first man covers Red's only other topped stack (b1), yet Red's top man always
    # lands last and tops b2, so the game goes on with Black to move, never with Red out.
    state = stacks({"a1": "nr", "b1": "r", "f1": "b"})
    after = RULES.play(state, sow("a1:en"))
    assert at(after, "b1") == "rn"
    assert RULES.details(after)["topped"] == {"Red": 1, "Black": 2}  # b2; f1 and f6
    assert RULES.outcome(after) is None


def test_unfinished_details() -> None:
    details = RULES.details(RULES.initial_state(8))
    assert details == {
        "topped": {"Red": 14, "Black": 14},
        "men": {"Red": 14, "Black": 14, "neutral": 64},
        "tallest": 2,
    }


# --- setups -------------------------------------------------------------------------------


def test_non_standard_setup_is_played_from() -> None:
    text = "nb,1,bb,3/6/2,nnr,3/6/6/r,4,bn"
    state = setup(text)
    assert format_position(RULES.position(state)) == text
    assert RULES.to_move(state) == "Red"
    assert count_legal_moves(state) == count_paths(6, Point.parse("c4"), 3) + count_paths(
        6, Point.parse("a1"), 1
    )
    # Red: c4 "nnr" drops n on c5, n on c6 ("bb" -> "bbn"), r on b6. Black: a6 "nb" drops
    # n on b6 ("r" -> "rn") and b on b5.
    after = play(state, "c4:nnw", "a6:es")
    assert format_position(RULES.position(after)) == "1,rn,bbn,3/1,b,n,3/6/6/6/r,4,bn"
    assert RULES.details(after)["topped"] == {"Red": 1, "Black": 1}  # a1; b5


@pytest.mark.parametrize(
    "size, grid, reason",
    [
        (6, "r,5/6/6/6/6/6", None),
        (6, "6/6/6/6/6/rrrrrrrrrrr,5", "the setup has 11 Red men; a 6×6 game has only 10"),
        (
            8,
            "8/8/8/8/8/8/8/" + "b" * 15 + ",7",
            "the setup has 15 Black men; a 8×8 game has only 14",
        ),
    ],
)
def test_setup_material_limits(size: int, grid: str, reason: str | None) -> None:
    if reason is None:
        setup(grid, size)
        return
    with pytest.raises(ValueError, match=re.escape(reason)):
        setup(grid, size)


def test_bad_initial_state_arguments() -> None:
    with pytest.raises(ValueError, match="Pilare is played on sizes 6 or 8, not 7"):
        RULES.initial_state(7)
    with pytest.raises(ValueError, match="no komi"):
        RULES.initial_state(6, komi=0)
    with pytest.raises(ValueError, match="the setup is not a 6×6 position"):
        RULES.initial_state(6, setup=(("",) * 6,) * 5)
    bad = (("x",) + ("",) * 5,) + (("",) * 6,) * 5
    with pytest.raises(ValueError, match="a1: 'x' is no Pilare piece"):
        RULES.initial_state(6, setup=bad)
    with pytest.raises(ValueError, match="the setup has 58 neutral men; a 6×6 game has only 36"):
        setup("/".join(["n,n,n,n,n,n"] * 5 + ["nnnnnnnnnnnnnnnnnnnnnnnnnnnn,b,b,b,b,r"]))


# --- counting -----------------------------------------------------------------------------


def brute_force_paths(size: int, origin: Point, height: int) -> int:
    """Count paths by trying all 4^height letter strings, independently of the engine."""
    total = 0
    for letters in itertools.product("ensw", repeat=height):
        file, rank, ok = origin.file, origin.rank, True
        for i, letter in enumerate(letters):
            if i and BACK[letter] == letters[i - 1]:
                ok = False
                break
            file, rank = file + STEPS[letter][0], rank + STEPS[letter][1]
            if not (0 <= file < size and 0 <= rank < size):
                ok = False
                break
        total += ok
    return total


@pytest.mark.parametrize(
    "size, square",
    [
        (6, "a1"),
        (6, "c1"),
        (6, "c3"),
        (6, "d4"),
        (8, "a1"),
        (8, "h5"),
        (8, "d4"),
        (8, "e5"),
    ],
)
def test_count_paths_against_brute_force_and_the_engine(size: int, square: str) -> None:
    origin = Point.parse(square)
    for height in range(1, 7):
        expected = brute_force_paths(size, origin, height)
        assert count_paths(size, origin, height) == expected, height
        if height <= 5:
            # The engine's own play() and legal_moves agree on a lone stack of that height.
            rows = [[""] * size for _ in range(size)]
            rows[origin.rank][origin.file] = "r" * height
            state = RULES.initial_state(size, setup=tuple(map(tuple, rows)))
            listed = [str(m) for m in RULES.legal_moves(state)]
            assert len(listed) == count_legal_moves(state) == expected
            assert listed == sorted(listed)
            playable = sum(
                RULES.is_legal(state, Sow(origin, "".join(p)))
                for p in itertools.product("ensw", repeat=height)
            )
            assert playable == expected


def test_count_paths_by_hand() -> None:
    # Height 1: a corner has 2 neighbours, an edge 3, the centre 4.
    # Height 2 from a1: n to a2 then n or e (2); e to b1 then e or n (2): 4.
    # Height 2 from c3 on 6×6: 4 first steps, each to a square with 4 neighbours, one of
    # which is the way back: 4·3 = 12. Height h in the open: 4·3^(h-1) at most.
    a1, c1, c3 = Point.parse("a1"), Point.parse("c1"), Point.parse("c3")
    assert [count_paths(6, a1, 1), count_paths(6, c1, 1), count_paths(6, c3, 1)] == [2, 3, 4]
    assert [count_paths(6, a1, 2), count_paths(6, c3, 2)] == [4, 12]
    assert count_paths(6, c3, 0) == 1  # the empty path
    assert count_paths(8, Point.parse("d4"), 3) == 4 * 3 * 3  # d4 is 3 squares from edges
    with pytest.raises(ValueError):
        count_paths(6, Point.parse("g1"), 2)


def test_count_legal_moves_standard_positions_by_hand() -> None:
    # 6×6, Red: every stack is "nr" (height 2). Paths of 2 steps:
    #   a1, f1 (corners): 4 each (see test_count_paths_by_hand)             =  8
    #   b1, e1: n to an inner square (3 ways on) + e/w along the edge (2)
    #           + towards the corner (1)                                     = 12
    #   c1, d1: n (3) + two ways along the edge (2 + 2)                      = 14
    #   a2, f2: up the edge (2) + down to the corner (1) + inwards (3)       = 12
    #   a3, f3: up (2) + down (2) + inwards (3)                              = 14
    #   total 60. By symmetry Black also has 60.
    # 8×8, Red: corners 8; b1, g1 12; c1-f1 4×7 = 28; a2, h2 12; a3, a4, h3, h4 4×7 = 28
    #   total 88.
    six, eight = RULES.initial_state(6), RULES.initial_state(8)
    assert count_legal_moves(six) == 60 == len(list(RULES.legal_moves(six)))
    assert count_legal_moves(eight) == 88 == len(list(RULES.legal_moves(eight)))
    black = play(six, "c1:nn")
    assert count_legal_moves(black) == 60


def test_legal_moves_order_and_laziness() -> None:
    six = RULES.initial_state(6)
    first = [str(m) for m in itertools.islice(RULES.legal_moves(six), 6)]
    assert first == ["a1:ee", "a1:en", "a1:ne", "a1:nn", "b1:ee", "b1:en"]
    # A stack of 40 on 8×8 has about 3.5·10^17 paths: counting is instant, listing lazy.
    # The first path in sorted order runs east to h4, north to h8, then circles the 2×2
    # block g7-h8 with "wsen" (each letter the smallest that is neither off nor back).
    tall = setup("8/8/8/8/3," + "n" * 39 + "r,4/8/8/7,b", 8)
    assert count_legal_moves(tall) == 349_080_892_909_389_816
    first_move = next(iter(RULES.legal_moves(tall)))
    assert str(first_move) == "d4:eeeennnn" + "wsen" * 8
    RULES.play(tall, first_move)


# --- hypothesis: random games -------------------------------------------------------------


def random_move(data: st.DataObject, state: State) -> Sow:
    """A random legal move drawn step by step (never listing all paths): a random stack
    topped by the mover, then at each step a random direction that stays on the board and
    does not turn back."""
    size, mine = state.size, "rb"[state.ply % 2]
    origins = [i for i, stack in enumerate(state.board) if stack and stack[-1] == mine]
    start = data.draw(st.sampled_from(origins))
    file, rank, path = start % size, start // size, ""
    for _ in state.board[start]:
        options = [
            letter
            for letter, (df, dr) in STEPS.items()
            if 0 <= file + df < size
            and 0 <= rank + dr < size
            and not (path and BACK[letter] == path[-1])
        ]
        letter = data.draw(st.sampled_from(options))
        path += letter
        file, rank = file + STEPS[letter][0], rank + STEPS[letter][1]
    return Sow(Point(start % size, start // size), path)


def snapshot(state: State) -> tuple[object, ...]:
    return (state.size, tuple(state.board), state.ply, state.topped)


@settings(max_examples=examples(40), deadline=None)
@given(st.data(), st.sampled_from(DESCRIPTION.sizes))
def test_random_games_never_raise_and_never_mutate(data: st.DataObject, size: int) -> None:
    state = RULES.initial_state(size)
    men = RULES.details(state)["men"]
    for _ in range(80):
        outcome = RULES.outcome(state)
        # The game is over exactly when there is no legal move.
        assert (outcome is None) == (next(iter(RULES.legal_moves(state)), None) is not None)
        assert (outcome is None) == (count_legal_moves(state) > 0)
        if outcome is not None:
            break
        move = random_move(data, state)
        before = snapshot(state)
        after = RULES.play(state, move)
        assert snapshot(state) == before
        assert after.ply == state.ply + 1
        # The incremental topped counts agree with a recount; no man appears or vanishes.
        tops = [stack[-1] for stack in after.board if stack]
        assert after.topped == (tops.count("r"), tops.count("b"))
        assert RULES.details(after)["men"] == men
        state = after


def corrupt(data: st.DataObject, state: State, move: Sow) -> Sow:
    """A move that is certainly illegal here, made from a legal one."""
    size, path = state.size, move.path
    kinds = ["longer", "shorter", "other-origin"] + (["turn-back"] if len(path) > 1 else [])
    kind = data.draw(st.sampled_from(kinds))
    if kind == "longer":
        return Sow(move.origin, path + path[-1])
    if kind == "shorter":
        return Sow(move.origin, path[:-1])
    if kind == "turn-back":
        i = data.draw(st.integers(1, len(path) - 1))
        return Sow(move.origin, path[:i] + BACK[path[i - 1]] + path[i + 1 :])
    mine = "rb"[state.ply % 2]
    others = [i for i, stack in enumerate(state.board) if not stack or stack[-1] != mine]
    start = data.draw(st.sampled_from(others))
    return Sow(Point(start % size, start // size), path)


@settings(max_examples=examples(40), deadline=None)
@given(st.data(), st.sampled_from(DESCRIPTION.sizes), st.integers(0, 40))
def test_a_corrupted_move_is_caught_at_its_ply(
    data: st.DataObject, size: int, bad_ply: int
) -> None:
    state = RULES.initial_state(size)
    for ply in range(bad_ply + 1):
        assume(RULES.outcome(state) is None)
        move = random_move(data, state)
        if ply == bad_ply:
            bad = corrupt(data, state, move)
            with pytest.raises(IllegalMoveError):
                RULES.play(state, bad)
            break
        state = RULES.play(state, move)  # every ply before the corrupted one is fine


@st.composite
def small_setups(draw: st.DrawFn) -> State:
    """A sparse position (a few short stacks), where random games often reach their end."""
    size = draw(st.sampled_from(DESCRIPTION.sizes))
    # At most 5 stacks of at most 2 men: never more men of a colour than a 6x6 game has.
    squares = draw(st.lists(st.integers(0, size * size - 1), min_size=1, max_size=5, unique=True))
    rows = [[""] * size for _ in range(size)]
    for square in squares:
        rows[square // size][square % size] = draw(st.text("rbn", min_size=1, max_size=2))
    return RULES.initial_state(size, setup=tuple(map(tuple, rows)))


@settings(max_examples=examples(50), deadline=None)
@given(st.data(), small_setups())
def test_random_games_from_setups_end_exactly_when_no_move_is_left(
    data: st.DataObject, state: State
) -> None:
    for _ in range(150):
        count = count_legal_moves(state)
        if count <= 300:
            # Listing and counting agree, the list has no repeats and every move plays.
            listed = list(RULES.legal_moves(state))
            assert len(listed) == len(set(listed)) == count
            assert all(RULES.is_legal(state, move) for move in listed)
        outcome = RULES.outcome(state)
        assert (outcome is None) == (count > 0)
        if outcome is not None:
            assert outcome.winner != RULES.to_move(state)
            assert outcome.details["topped"][RULES.to_move(state)] == 0
            break
        state = RULES.play(state, random_move(data, state))
