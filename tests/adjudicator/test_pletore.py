"""Tests for the Pletore engine (``spec/rules/pletore.md``).

Positions are written in the Setup notation, top rank first: "3/1,b,1/w,2" is a 3x3 board
with b on b2 and w on a1. Each ruling test names, in a comment, the other reading it rules
out; under that reading the test would fail.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator.game import Game
from arbiter.adjudicator.pletore import BLACK, EMPTY, WHITE, PletoreRules, State
from arbiter.notation.ast import Button, Flip, Move, Pass, Place, Point, Swap
from arbiter.notation.errors import IllegalMoveError
from arbiter.notation.position import format_position
from tests.adjudicator.harness import Harness
from tests.budget import examples

RULES = PletoreRules()
P = Point.parse


HARNESS = Harness("Pletore")
move, play, refused, legal = HARNESS.move, HARNESS.play, HARNESS.refused, HARNESS.legal


def setup(text: str, komi: int = 0, ply: int = 0) -> State:
    """A state from a Setup string; ``ply`` 1 makes it White's turn (as after a Black turn)."""
    state: State = HARNESS.setup(text, komi=komi, ply=ply)
    return state


def rot(point: Point, size: int) -> Point:
    return Point(size - 1 - point.file, size - 1 - point.rank)


# --- setup and the start ------------------------------------------------------------------


def test_initial_state_is_empty_black_to_move() -> None:
    state = RULES.initial_state(9, komi=6)
    assert RULES.to_move(state) == "Black"
    assert format_position(RULES.position(state)) == "/".join(["9"] * 9)
    assert RULES.outcome(state) is None


@pytest.mark.parametrize("size", [3, 4, 10, 19])
def test_sizes_odd_and_even_are_accepted(size: int) -> None:
    assert len(RULES.position(RULES.initial_state(size, komi=0))) == size


@pytest.mark.parametrize(
    ("size", "komi", "setup_grid", "match"),
    [
        (2, 0, None, "3 to 19"),
        (20, 0, None, "3 to 19"),
        (9, None, None, "needs a komi"),
        (
            3,
            0,
            (("b", "", ""), ("", "", ""), ("", "", "bw")),
            "c3: 'bw' is a stack, but a Pletore square holds one piece at most",
        ),
        (3, 0, (("", "", ""), ("", "", "")), "the setup is not a 3×3 position"),
    ],
)
def test_initial_state_rejects(size: int, komi: object, setup_grid: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        RULES.initial_state(size, komi=komi, setup=setup_grid)  # type: ignore[arg-type]


@pytest.mark.parametrize("komi", [6.5, "6", True])
def test_a_game_refuses_a_komi_that_is_not_a_whole_number(komi: object) -> None:
    # The front door checks the type (the compiled engine would refuse it at the call).
    with pytest.raises(ValueError, match="komi must be a whole number, not "):
        Game("Pletore", 9, komi=komi)  # type: ignore[arg-type]


def test_position_round_trips_setup() -> None:
    text = "1,b,1/w,1,b/3"
    assert format_position(RULES.position(setup(text))) == text


# --- sight, pinch and control -------------------------------------------------------------

# c3 sees b3 (White) to its left; a3 (Black) stands behind b3 and is not seen. c5 is Black.
BEHIND = "2,b,2/5/b,w,3/5/5"


def test_sight_stops_at_the_first_stone() -> None:
    # Other reading: any stone on the line counts, so a3 would give Black its horizontal
    # pinch of c3 and Black would control c3 (White could not place there).
    state = setup(BEHIND, ply=1)
    assert RULES.controller(state, P("c3")) is None
    assert "c3" in legal(state)
    # Without the white stone in between, a3 is seen and Black controls c3.
    assert RULES.controller(setup("2,b,2/5/b,4/5/5"), P("c3")) == "Black"


def test_sight_runs_across_empty_points_up_to_the_edge() -> None:
    # e3 sees a3 across three empty points; it has nothing to its right (no wrapping).
    state = setup("4,b/5/b,4/5/5")
    assert RULES.controller(state, P("e3")) == "Black"  # left: a3, up: e5
    assert RULES.controller(state, P("a5")) == "Black"  # right: e5, down: a3
    assert RULES.controller(state, P("c1")) is None  # nothing vertical


def test_occupied_point_can_be_controlled_and_flipped() -> None:
    # Other reading: only empty points are controlled, so no flip would ever be legal.
    state = setup("1,b,1/b,w,1/3")  # b2 (White) sees a2 and b3, both Black
    assert RULES.controller(state, P("b2")) == "Black"
    after = play(state, "b2x")
    assert format_position(RULES.position(after)) == "1,b,1/b,b,1/3"
    assert RULES.to_move(after) == "White"


def test_flip_refused_without_control() -> None:
    state = setup("1,b,1/1,w,1/3")  # b2 sees b3 only vertically: no pinch
    refused(state, Flip(P("b2")), "cannot flip b2: Black does not control it")


def test_flip_refused_on_empty_or_own_stone() -> None:
    state = setup("1,b,1/b,w,1/3")
    with pytest.raises(IllegalMoveError, match="cannot flip c1: it is empty"):
        RULES.play(state, Flip(P("c1")))
    with pytest.raises(IllegalMoveError, match="cannot flip a2: the stone is Black's own"):
        RULES.play(state, Flip(P("a2")))


def test_white_flips_too() -> None:
    state = setup("1,w,1/w,b,1/3", ply=1)
    assert "b2x" in legal(state)
    assert format_position(RULES.position(play(state, "b2x"))) == "1,w,1/w,w,1/3"


# --- placement ----------------------------------------------------------------------------


def test_placement_on_point_controlled_by_opponent_refused() -> None:
    state = setup("1,w,1/w,2/3")  # a3 is controlled by White (b3 and a2)
    refused(state, Place(P("a3")), "a3 is controlled by White")


def test_placement_on_point_controlled_by_self_allowed() -> None:
    state = setup("1,w,1/w,2/3", ply=1)
    assert RULES.to_move(state) == "White"
    assert format_position(RULES.position(play(state, "a3"))) == "w,w,1/w,2/3"


def test_placement_on_point_pinched_by_both_allowed() -> None:
    # Other reading: a point the opponent pinches is barred even if you pinch it too.
    state = setup("2,w,2/5/b,3,w/5/2,b,2")  # c3 sees a3 b, e3 w, c1 b, c5 w
    assert RULES.controller(state, P("c3")) is None
    play(state, "c3")  # Black
    play(state._replace(ply=1), "c3")  # White


def test_placement_on_occupied_point_refused() -> None:
    refused(setup("3/1,b,1/3", ply=1), Place(P("b2")), "b2 is occupied")


def test_off_board_point_refused() -> None:
    with pytest.raises(IllegalMoveError, match="d4 is off the 3×3 board"):
        RULES.play(RULES.initial_state(3, komi=0), Place(P("d4")))


def test_move_the_game_does_not_have_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="'swap' is not a Pletore move"):
        RULES.play(RULES.initial_state(3, komi=0), Swap())


# --- passing and the end ------------------------------------------------------------------

UNPINCHED = "w,w,w/b,1,b/w,w,w"  # b2 sees Black left and right, White up and down: no pinch
CONTROLLED = "w,w,w/b,1,b/w,b,w"  # now b1 is Black: Black pinches b2, White does not


def test_pass_refused_while_an_empty_point_is_unpinched() -> None:
    refused(setup(UNPINCHED), Pass(), "cannot pass: b2 is not controlled")
    assert legal(setup(UNPINCHED)) == ["b2"]


def test_pass_refused_while_an_empty_point_is_pinched_by_both() -> None:
    # Other reading: "controlled" as "pinched by someone". b2 is pinched by both here.
    state = setup("w,b,w/b,1,w/w,w,w")
    assert RULES.controller(state, P("b2")) is None
    with pytest.raises(IllegalMoveError, match="cannot pass: b2 is not controlled"):
        RULES.play(state, Pass())


def test_pass_allowed_when_every_empty_point_is_controlled() -> None:
    state = setup(CONTROLLED)
    assert RULES.controller(state, P("b2")) == "Black"
    assert play(state, "pass").passes == 1
    # a1 and c1 (White) see b1 and a2/c2 (Black): Black controls them too.
    assert legal(state) == ["a1x", "c1x", "b2", "pass"]


def test_pass_allowed_on_a_full_board() -> None:
    state = setup("b,w,b/w,b,w/b,w,b")
    assert "pass" in legal(state)


# a3 is controlled by White (b3, a2), c1 by Black (b1, c2).
TWO_TERRITORIES = "1,w,w/w,b,b/w,b,1"


def test_two_passes_in_a_row_end_the_game() -> None:
    state = play(setup(TWO_TERRITORIES), "pass", "pass")
    assert list(RULES.legal_moves(state)) == []
    with pytest.raises(IllegalMoveError, match="the game is over \\(both players passed\\)"):
        RULES.play(state, Pass())
    outcome = RULES.outcome(state)
    assert outcome is not None
    # Black: b2 c2 b1 + c1 = 4; White: b3 c3 a2 a1 + a3 = 5.
    assert outcome.scores == {"Black": 4, "White": 5}
    assert outcome.result(RULES.colours) == "White+1"


def test_passes_not_in_a_row_do_not_end_the_game() -> None:
    # Other reading: any two passes end it. Here White plays on its own a3 in between.
    state = play(setup(TWO_TERRITORIES), "pass", "a3", "pass")
    assert RULES.outcome(state) is None
    state = play(state, "pass")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == {"Black": 4, "White": 5}


# --- the button ---------------------------------------------------------------------------


def test_button_makes_pass_illegal_until_taken() -> None:
    state = setup(CONTROLLED, komi=1)  # 3 and 1 are both odd: the button is in play
    assert legal(state) == ["a1x", "c1x", "b2", "button"]
    refused(state, Pass(), "the button must be taken before passing")
    state = play(state, "button")
    assert RULES.to_move(state) == "White"
    assert legal(state) == ["b1x", "pass"]  # b1 sees a1, c1 and b3, all White
    state = play(state, "pass", "pass")
    outcome = RULES.outcome(state)
    assert outcome is not None
    # Black: 3 stones + b2 + 0.5 = 4.5; White: 5 stones + komi 1 = 6.
    assert outcome.scores == {"Black": 4.5, "White": 6}
    assert outcome.winner == "White"
    assert outcome.result(RULES.colours) == "White+1.5"
    assert outcome.details["Black"] == {
        "stones": 3,
        "controlled": 1,
        "komi": 0,
        "button": 0.5,
        "total": 4.5,
    }
    assert outcome.details["White"] == {
        "stones": 5,
        "controlled": 0,
        "komi": 1,
        "button": 0,
        "total": 6,
    }


def test_button_may_be_taken_by_white() -> None:
    state = play(RULES.initial_state(4, komi=0), "a1", "button")
    assert state.button == WHITE
    assert "button" not in legal(state)


def test_button_is_an_alternative_to_a_board_play_not_a_duty() -> None:
    state = RULES.initial_state(5, komi=7)
    assert len(legal(state)) == 26  # 25 placements + the button
    assert RULES.play(state, Place(P("c3"))).button == EMPTY


def test_button_taken_only_once() -> None:
    state = play(RULES.initial_state(5, komi=-1), "button")
    refused(state, Button(), "the button has already been taken")


@pytest.mark.parametrize(("size", "komi"), [(7, 6), (8, 5), (8, -3), (3, 0), (4, -1)])
def test_button_not_in_play_with_different_parity(size: int, komi: int) -> None:
    state = RULES.initial_state(size, komi=komi)
    assert "button" not in legal(state)
    refused(state, Button(), f"the button is not in play (komi {komi}, size {size})")


@pytest.mark.parametrize(("size", "komi"), [(7, 5), (8, 6), (8, 0), (5, -3), (4, -2)])
def test_button_in_play_with_same_parity(size: int, komi: int) -> None:
    # Negative komi: -3 is odd like 5 (other reading: parity of |komi| gives the same, but a
    # sign-sensitive remainder such as C's -3 % 2 == -1 would wrongly say "not in play").
    assert "button" in legal(RULES.initial_state(size, komi=komi))


def test_pass_without_button_in_play_is_allowed_at_once() -> None:
    assert "pass" in legal(setup(CONTROLLED, komi=0))
    assert "pass" not in legal(setup(CONTROLLED, komi=-1))


# --- the mirror rule ----------------------------------------------------------------------


@pytest.mark.parametrize("black", [str(Point(f, r)) for f in range(4) for r in range(4)])
def test_mirror_rule_refuses_exactly_the_180_degree_point(black: str) -> None:
    state = play(RULES.initial_state(4, komi=1), black)
    answer = rot(P(black), 4)
    everything = {str(Point(f, r)) for f in range(4) for r in range(4)}
    assert set(legal(state)) == everything - {black, str(answer)}
    refused(state, Place(answer), f"mirror rule: {answer} answers {black}")


def test_mirror_rule_message_on_a_big_board() -> None:
    state = play(RULES.initial_state(8, komi=7), "e4")
    refused(state, Place(P("d5")), "mirror rule: d5 answers e4")


@pytest.mark.parametrize("black", ["a1", "c2", "e2", "b4"])
def test_no_mirror_rule_on_odd_boards(black: str) -> None:
    state = play(RULES.initial_state(5, komi=0), black)
    assert len(legal(state)) == 24  # every empty point, the 180-degree one included
    play(state, str(rot(P(black), 5)))


# A mirrored 4x4 setup (swapping colours = turning by 180 degrees) with two empty points:
# a1 is Black's (b1, a2) and d4 White's (c4, d3); the stone b2 is Black's (a2, b1) and c3
# White's (b3, c4).
MIRRORED = "b,w,w,1/b,w,b,w/b,w,b,w/1,b,b,w"


def test_mirror_rule_binds_white_first_turn_even_when_it_is_a_pass() -> None:
    # Choice: "White's first turn" is ply 2 whatever it is. Other reading (White's first
    # placement): the pass would be allowed, leaving the mirrored position.
    state = play(setup(MIRRORED, komi=1), "pass")
    assert legal(state) == ["c3x", "d4"]
    refused(
        state,
        Pass(),
        "mirror rule: after pass, swapping the colours would give the board turned by 180 degrees",
    )
    play(state, "d4")


def test_mirror_rule_binds_ply_two_after_black_took_the_button() -> None:
    # Black's button is Black's first turn; White's first turn is still ply 2.
    state = play(setup(MIRRORED, komi=0), "button")
    assert legal(state) == ["c3x", "d4"]
    refused(
        state,
        Pass(),
        "mirror rule: after pass, swapping the colours would give the board turned by 180 degrees",
    )


def test_mirror_rule_only_binds_white_first_turn() -> None:
    # Other reading (White's first board play is bound): 1. a1 button 2. pass d4 leaves the
    # board mirrored with d4, White's first board play, and would be refused. Here ply 4 is
    # free.
    state = play(setup(MIRRORED, komi=0), "a1", "button", "pass", "d4")
    assert format_position(RULES.position(state)) == "b,w,w,w/b,w,b,w/b,w,b,w/b,b,b,w"


def test_mirror_rule_is_about_the_position_not_the_last_stone() -> None:
    # A setup already mirrored (a1 b, d4 w): after Black's b1, White's answer c4 keeps the
    # position mirrored and is refused; on a setup that is not mirrored it is allowed.
    state = play(setup("3,w/4/4/b,3", komi=1), "b1")
    refused(state, Place(P("c4")), "mirror rule: c4 answers b1")
    state = play(setup("4/4/4/b,3", komi=1), "b1")
    play(state, "c4")


def test_mirror_rule_waived_when_white_has_no_other_turn() -> None:
    # Choice: the ranks alternate b, w, b, w from rank 1 up: swapping colours equals turning
    # the board. Nothing is controlled and no point is empty, so passing is the only turn.
    # Refusing it would leave White with no legal turn; the rule then does not apply.
    state = setup("w,w,w,w/b,b,b,b/w,w,w,w/b,b,b,b", komi=1)
    assert legal(state) == ["pass"]
    state = play(state, "pass")
    assert legal(state) == ["pass"]
    outcome = RULES.outcome(play(state, "pass"))
    assert outcome is not None and outcome.result(RULES.colours) == "White+1"


# --- scoring ------------------------------------------------------------------------------


def test_negative_komi_is_subtracted_from_white() -> None:
    state = play(setup(TWO_TERRITORIES, komi=-2), "pass", "pass")
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == {"Black": 4, "White": 3}
    assert outcome.details["White"]["komi"] == -2
    assert outcome.result(RULES.colours) == "Black+1"


def test_details_of_an_unfinished_game() -> None:
    details = RULES.details(setup(TWO_TERRITORIES, komi=6))
    assert details == {
        "Black": {"stones": 3, "controlled": 1, "komi": 0, "button": 0, "total": 4},
        "White": {"stones": 4, "controlled": 1, "komi": 6, "button": 0, "total": 11},
    }


def test_a_tie_is_an_internal_error() -> None:
    # Ties cannot arise from legal play (spec "Ties"); a forged state must not get a winner.
    forged = State(3, 0, bytes(9), ply=2, passes=2)
    with pytest.raises(RuntimeError, match="tied"):
        RULES.outcome(forged)


# --- move counts (each counted by hand) ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "komi", "ply", "count"),
    [
        # Empty 5x5, komi 0 (parities differ): 25 placements, no button, no pass.
        ("5/5/5/5/5", 0, 0, 25),
        # Empty 5x5, komi 1: 25 placements and the button.
        ("5/5/5/5/5", 1, 0, 26),
        # One black stone, White to move on 5x5: a lone stone pinches nothing: 24 placements.
        ("5/5/2,b,2/5/5", 0, 1, 24),
        # Black to move: b2 (White) is Black's (a2, b3): 1 flip; a3 is Black's, c3/c2/a1/b1/c1
        # nobody's: 6 placements. No pass (c3 is uncontrolled), no button: 7.
        ("1,b,1/b,w,1/3", 0, 0, 7),
        # Same board, White to move: a3 is Black's, so 5 placements; White controls no black
        # stone: 5.
        ("1,b,1/b,w,1/3", 0, 1, 5),
        # TWO_TERRITORIES, Black: c1 (own), pass; a3 is White's; no flips (b2 is pinched by
        # both, the other white stones lack a black vertical sight): 2.
        (TWO_TERRITORIES, 0, 0, 2),
        # Same, White: a3 and pass: 2.
        (TWO_TERRITORIES, 0, 1, 2),
        # Same with komi 1: the button replaces the pass: c1, button.
        (TWO_TERRITORIES, 1, 0, 2),
    ],
)
def test_move_counts(text: str, komi: int, ply: int, count: int) -> None:
    assert len(legal(setup(text, komi=komi, ply=ply))) == count


def test_move_order_is_board_order_then_button() -> None:
    assert legal(setup("1,b,1/b,w,1/3")) == ["a1", "b1", "c1", "b2x", "c2", "a3", "c3"]
    assert legal(setup(TWO_TERRITORIES, komi=1)) == ["c1", "button"]


# --- properties ---------------------------------------------------------------------------


def brute_control(board: tuple[int, ...], size: int) -> list[int]:
    """Control straight from the definitions, with no rays: q is seen from p when both lie
    on one row or column and every point strictly between them is empty."""
    stones = {(i % size, i // size): board[i] for i in range(size * size) if board[i]}
    out = []
    for i in range(size * size):
        pf, pr = i % size, i // size
        horizontal: set[int] = set()
        vertical: set[int] = set()
        for (qf, qr), colour in stones.items():
            if (qf, qr) == (pf, pr) or (qf != pf and qr != pr):
                continue
            if qr == pr:
                between = [(f, pr) for f in range(min(pf, qf) + 1, max(pf, qf))]
            else:
                between = [(pf, r) for r in range(min(pr, qr) + 1, max(pr, qr))]
            if any(b in stones for b in between):
                continue
            (horizontal if qr == pr else vertical).add(colour)
        pinch = {c for c in (BLACK, WHITE) if c in horizontal and c in vertical}
        out.append(pinch.pop() if len(pinch) == 1 else EMPTY)
    return out


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, tuple[int, ...]]:
    size = draw(st.integers(3, 8))
    board = draw(
        st.lists(
            st.sampled_from([EMPTY, EMPTY, BLACK, WHITE]),
            min_size=size * size,
            max_size=size * size,
        )
    )
    return size, tuple(board)


@settings(max_examples=examples(60), deadline=None)
@given(boards())
def test_control_matches_brute_force(sized: tuple[int, tuple[int, ...]]) -> None:
    size, board = sized
    state = State(size, 0, bytes(board))
    expected = [{BLACK: "Black", WHITE: "White"}.get(c) for c in brute_control(board, size)]
    assert list(RULES.control_map(state)) == expected
    points = [Point(i % size, i // size) for i in range(size * size)]
    assert [RULES.controller(state, p) for p in points] == expected


def universe(size: int) -> list[Move]:
    points = [Point(i % size, i // size) for i in range(size * size)]
    return [*map(Place, points), *map(Flip, points), Pass(), Button()]


@st.composite
def games(draw: st.DrawFn) -> tuple[State, list[State], list[Move]]:
    """A random legal game on a small board; passes are taken often so that games end."""
    size = draw(st.integers(3, 6))
    state = RULES.initial_state(size, komi=draw(st.integers(-4, 4)))
    start, states, moves = state, [state], []
    for _ in range(40):
        options = list(RULES.legal_moves(state))
        if not options:
            break
        if Pass() in options and draw(st.booleans()):
            chosen: Move = Pass()
        else:
            chosen = options[draw(st.integers(0, len(options) - 1))]
        state = RULES.play(state, chosen)
        states.append(state)
        moves.append(chosen)
    return start, states, moves


@settings(max_examples=examples(40), deadline=None)
@given(games())
def test_random_games_replay_without_mutation(game: tuple[State, list[State], list[Move]]) -> None:
    start, states, moves = game
    snapshots = [tuple(s) for s in states]
    state = start
    for i, m in enumerate(moves):
        state = RULES.play(state, m)
        assert state == states[i + 1]
    assert [tuple(s) for s in states] == snapshots


@settings(max_examples=examples(30), deadline=None)
@given(games())
def test_play_accepts_exactly_legal_moves(game: tuple[State, list[State], list[Move]]) -> None:
    _, states, _ = game
    for state in states:
        listed = list(RULES.legal_moves(state))
        assert len(listed) == len(set(listed))
        for candidate in universe(state.size):
            assert RULES.is_legal(state, candidate) == (candidate in listed), candidate
        assert (RULES.outcome(state) is not None) == (not listed)


@settings(max_examples=examples(40), deadline=None)
@given(games(), st.data())
def test_an_illegal_move_is_refused_at_its_ply(
    game: tuple[State, list[State], list[Move]], data: st.DataObject
) -> None:
    start, states, moves = game
    ply = data.draw(st.integers(0, len(moves)))
    legal_here = set(RULES.legal_moves(states[ply]))
    outside = [m for m in universe(start.size) if m not in legal_here]
    bad = data.draw(st.sampled_from(outside))
    state = start
    for m in moves[:ply]:
        state = RULES.play(state, m)
    with pytest.raises(IllegalMoveError):
        RULES.play(state, bad)


@settings(max_examples=examples(40), deadline=None)
@given(games())
def test_finished_games_never_tie(game: tuple[State, list[State], list[Move]]) -> None:
    final = game[1][-1]
    outcome = RULES.outcome(final)
    if outcome is not None:
        assert outcome.scores is not None
        black, white = outcome.scores["Black"], outcome.scores["White"]
        assert black != white
        assert black + white == final.size**2 + final.komi + (0.5 if final.button else 0)
        assert outcome.details == RULES.details(final)
