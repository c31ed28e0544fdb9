"""Tests of the Implo engine against spec/rules/implo.md and RULINGS.md (Implo section).

Positions are written in the position notation (top rank first, ``/`` between ranks, ``,``
between points, a number for a run of empty points): ``b``/``w`` stones, ``B``/``W`` markers.
Each rule test names the other reading it rules out.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arbiter.adjudicator import implo_turn
from arbiter.adjudicator.implo import COLOURS, MARKERS, PIECES, STONES, ImploRules, State
from arbiter.adjudicator.implo_board import (
    deciding_size,
    marker_groups,
    placed_patches,
    surrounded_openly,
    tables,
)
from arbiter.notation.ast import ImploPlace, Move, Pass, Place, Point, Resolve, Swap
from arbiter.notation.errors import AmbiguousMoveError, IllegalMoveError
from arbiter.notation.games import find_game
from arbiter.notation.position import format_position, parse_position
from tests.adjudicator.harness import Harness
from tests.budget import examples

RULES = ImploRules()
Game = tuple[list[State], list[Move]]
"""A random game: the states it went through and the moves played."""
BLACK, WHITE = 0, 1


HARNESS = Harness("Implo")


def start(text: str, mover: int = BLACK, ply: int = 6) -> State:
    """A position from a diagram, ``mover`` to play; ply 6 keeps the pie rule out of the way."""
    state: State = HARNESS.setup(text, mover=mover, ply=ply)
    return state


def finished(text: str, last_mover: int) -> State:
    """A full board after ``last_mover``'s turn (the end position of a game)."""
    board = tuple(cell for row in reversed(text.split("/")) for cell in row.split(","))
    assert "" not in board
    size = len(text.split("/"))
    return State(size, PIECES.board(board), 1 - last_mover, 30, 0, None, last_mover)


def letters(state: State) -> list[str]:
    """The engine's board (codes) as Setup letters, ``""`` for an empty point."""
    return list(PIECES.cells(state.board))


def codes(board: list[str]) -> bytes:
    """A board of Setup letters as the engine's codes, for its board mechanics."""
    return PIECES.board(board)


def move(text: str) -> ImploPlace:
    """``d4/e5/a1:b2`` as a move object."""
    played = HARNESS.move(text)
    assert isinstance(played, ImploPlace)
    return played


def after(state: State, text: str) -> str:
    """The position after ``text``, as a diagram."""
    return HARNESS.after(state, text)


def canonical(state: State, text: str) -> str:
    return str(RULES.play(state, move(text)).last_move)


def moves(state: State) -> list[str]:
    return HARNESS.legal(state)


# The rank-1 strip a1-e1 is closed off by rank 2. Black's c1 cuts it into A = {a1, b1} and
# B = {d1, e1}. A goes to White (group a2-b2-a3 of 3 against Black's c1-c2 of 2) and removes
# the white group; B goes to Black (2 against d2's 1) and removes c1-c2.
ORDER = "5/5/w,4/w,w,b,w,W/5"


class TestPatches:
    @pytest.mark.parametrize(
        ("setup", "expected"),
        [  # other reading: "at most five points" would resolve the first strip too
            ("5/5/5/w,w,w,w,1/5", "5/5/5/w,w,w,w,b/5"),  # a1-e1: five points, no patch
            ("5/5/5/w,w,w,w,1/b,4", "5/5/5/4,b/b,W,W,W,W"),  # b1-e1: four points, a patch
        ],
    )
    def test_a_territory_of_five_points_is_not_a_patch(self, setup: str, expected: str) -> None:
        assert after(start(setup), "e2") == expected

    def test_a_territory_of_five_points_needs_no_step(self) -> None:
        state = start("5/5/5/w,w,w,w,1/5")
        assert moves(state).count("e2") == 1
        with pytest.raises(IllegalMoveError, match=r"step 1 \(a1\): no patch remains"):
            RULES.play(state, move("e2/a1"))

    def test_ownership_compares_biggest_groups_not_stone_totals(self) -> None:
        # c3 is closed by Black's c2: next to it Black has c2, c4, d3 (3 stones, groups of 1),
        # White has b3 of the group a3-b3 (2 stones). Other reading (totals): Black, 3 to 2.
        state = start("5/2,b,2/w,w,1,b,1/5/5")
        assert after(state, "c2") == "5/2,b,2/2,W,b,1/2,b,2/5"

    @pytest.mark.parametrize(
        ("mover", "expected"),
        [  # c3 sees b3 (white), d3 (black) and the new c2 (the mover's): biggest groups of
            # 1 and 1, a tie. Other reading (a tie goes to the mover): the results swap.
            (BLACK, "5/2,B,2/2,W,b,1/2,b,2/5"),  # White owns; b3 removed
            (WHITE, "5/2,B,2/1,w,B,2/2,w,2/5"),  # Black owns; d3 removed
        ],
    )
    def test_a_tie_for_ownership_goes_to_the_movers_opponent(
        self, mover: int, expected: str
    ) -> None:
        state = start("5/2,B,2/1,w,1,b,1/5/5", mover=mover)
        assert after(state, "c2") == expected

    def test_patch_without_adjacent_stones_gets_markers_and_removes_nothing(self) -> None:
        # Black's c1 closes b1: White's a1 against Black's c1, 1 to 1, so White owns it (the
        # mover's opponent) and a1 goes. a1 is then a patch touching no stone at all (0 to 0):
        # White's again, markers only. Other reading (0/0 is nobody's): a1 stays empty.
        state = start("5/5/5/B,B,3/w,4")
        assert after(state, "c1") == "5/5/5/B,B,3/W,W,b,2"
        assert canonical(state, "c1") == "c1/b1/a1"

    def test_zero_to_zero_goes_to_the_movers_opponent_for_white_too(self) -> None:
        # White's c1 closes b1, owned by White (1 to 0) with a tie between a1 and c1; taking
        # a1 leaves a1 a 0-to-0 patch that goes to Black, the opponent of White.
        state = start("5/5/5/B,B,3/w,4", mover=WHITE)
        assert after(state, "c1/b1:a1") == "5/5/5/B,B,3/B,W,w,2"

    def test_removal_creates_a_patch_resolved_in_the_same_turn(self) -> None:
        # Black's d1 closes {a1,b1,c1} (White's, removes a2-b2-a3) and {e1} (Black's: d1 is
        # the only stone next to it, so d1 goes). Done in that order, d1's point is then a new
        # patch between markers and d2, resolved in the same turn: White's, removing d2.
        # Other reading (new patches wait for the next turn): d1 would stay empty.
        state = start(ORDER)
        assert after(state, "d1/a1/e1/d1") == "5/5/5/2,b,1,W/W,W,W,W,B"
        assert canonical(state, "d1/a1/e1") == "d1/a1/e1/d1"

    def test_removal_merging_patches_resolves_the_merged_patch(self) -> None:
        # In the other order, freeing d1 joins it to {a1,b1,c1}: one patch of 4, named a1.
        state = start(ORDER)
        assert canonical(state, "d1/e1") == "d1/e1/a1"
        assert after(state, "d1/e1") == "5/5/5/2,b,w,W/W,W,W,W,B"


class TestOrder:
    def test_order_matters(self) -> None:
        # A first: A's markers go down and White's a2-b2-a3 goes, then B removes c1-c2.
        # B first: c1-c2 goes, c1 joins A to the open board, and A is no longer a patch.
        # Other reading (a fixed order, or all patches at once): one result only.
        state = start(ORDER)
        a_first, b_first = after(state, "c1/a1/d1"), after(state, "c1/d1")
        assert a_first == "5/5/5/3,w,W/W,W,1,B,B"
        assert b_first == "5/5/w,4/w,w,1,w,W/3,B,B"
        outcomes = [RULES.details(RULES.play(state, move(t))) for t in ("c1/a1/d1", "c1/d1")]
        assert outcomes[0]["stones"] == {"Black": 0, "White": 1}
        assert outcomes[1]["stones"] == {"Black": 0, "White": 4}

    def test_unwritten_order_is_ambiguous(self) -> None:
        with pytest.raises(AmbiguousMoveError, match="patches at a1, d1 remain; write the order"):
            RULES.play(start(ORDER), move("c1"))

    def test_a_step_naming_a_vanished_patch_is_illegal(self) -> None:
        with pytest.raises(IllegalMoveError, match=r"step 2 \(a1\): no patch remains"):
            RULES.play(start(ORDER), move("c1/d1/a1"))

    def test_forced_steps_are_filled_in(self) -> None:
        # After A, only B is left and it has one biggest Black group: forced.
        state = start(ORDER)
        assert canonical(state, "c1/a1") == "c1/a1/d1"
        assert RULES.play(state, move("c1/a1")) == RULES.play(state, move("c1/a1/d1"))

    def test_a_step_must_name_a_current_patch(self) -> None:
        state = start(ORDER)
        with pytest.raises(
            IllegalMoveError,
            match=r"step 1 \(c2\): c2 is not in a patch "
            r"\(it holds a black stone\)",
        ):
            RULES.play(state, move("c1/c2"))
        with pytest.raises(
            IllegalMoveError,
            match=r"c3 is not in a patch \(its territory has "
            r"more than 4 points\)",
        ):
            RULES.play(state, move("c1/c3"))

    def test_steps_after_the_last_patch_are_illegal(self) -> None:
        with pytest.raises(IllegalMoveError, match=r"step 1 \(b3\): no patch remains"):
            RULES.play(start(ORDER), move("c3/b3"))


# White's d2 closes the patch {c1, a2, b2, c2}. Black owns it (3 against White's a1-b1 of 2),
# and two black groups of 3 tie: d1-e1-e2 and the L b3-b4-a4.
TIE = "5/b,b,3/W,b,B,2/4,b/w,w,1,b,b"


class TestTies:
    def test_tied_groups_need_a_named_group(self) -> None:
        state = start(TIE, mover=WHITE)
        with pytest.raises(
            AmbiguousMoveError,
            match="the patch at c1 must remove one of the groups at d1, b3; "
            "write d2/c1:d1 or d2/c1:b3",
        ):
            RULES.play(state, move("d2"))
        with pytest.raises(AmbiguousMoveError, match="write d2/c1:d1 or d2/c1:b3"):
            RULES.play(state, move("d2/c1"))

    def test_each_tied_group_can_be_named(self) -> None:
        state = start(TIE, mover=WHITE)
        assert after(state, "d2/c1:b4") == "5/5/W,1,B,2/B,B,B,w,b/w,w,B,b,b"
        assert after(state, "d2/c1:e2") == "5/b,b,3/W,b,B,2/B,B,B,w,1/w,w,B,2"

    @pytest.mark.parametrize("remove", ["a1", "c3", "d3", "d2"])
    def test_naming_another_group_is_illegal(self, remove: str) -> None:
        with pytest.raises(
            IllegalMoveError, match=f"{remove} is not a stone of a biggest Black group"
        ) as caught:
            RULES.play(start(TIE, mover=WHITE), move(f"d2/c1:{remove}"))
        assert not isinstance(caught.value, AmbiguousMoveError)

    def test_naming_the_unique_biggest_group_is_accepted_and_dropped(self) -> None:
        state = start(ORDER)
        assert canonical(state, "c1/a1:a3/d1:c2") == "c1/a1/d1"
        with pytest.raises(IllegalMoveError, match="must remove the group at c1"):
            RULES.play(state, move("c1/a1/d1:d2"))

    def test_naming_a_group_where_nothing_is_removed_is_illegal(self) -> None:
        with pytest.raises(IllegalMoveError, match="who has no stone next to it"):
            RULES.play(start("5/5/5/B,B,3/w,4"), move("c1/b1/a1:b1"))

    def test_canonical_names_are_lowest_by_rank_then_file(self) -> None:
        # The patch {c1, a2, b2, c2} is c1 (not a2, first by file); the L b3-b4-a4 is b3.
        # Other reading (file first): d2/a2:a4.
        state = start(TIE, mover=WHITE)
        assert canonical(state, "d2/a2:a4") == "d2/c1:b3"
        assert canonical(state, "d2/b2:d1") == "d2/c1:d1"
        assert canonical(start(ORDER), "c1/e1") == "c1/d1"

    def test_canonical_move_helper(self) -> None:
        state = start(TIE, mover=WHITE)
        assert RULES.written(RULES.play(state, move("d2/c2:a4")), move("d2/c2:a4")) == move(
            "d2/c1:b3"
        )
        swapped = RULES.play(state._replace(ply=1), Swap())
        assert RULES.written(swapped, Swap()) == Swap()


class TestWinner:
    def test_largest_unequal_size_decides_even_if_smaller_sizes_favour_the_other(self) -> None:
        # Size 4: one group each (tie). Size 3: Black 1, White 0 -> Black, although White has
        # more groups (3 to 2) and two singletons. Other readings: most groups (White), or
        # biggest group (a tie).
        result = RULES.outcome(finished("B,B,B,B/W,W,W,W/B,B,B,w/W,b,W,w", BLACK))
        assert result is not None
        assert (result.winner, result.scores, result.tiebreak) == ("Black", None, None)
        assert result.details == {
            "marker_groups": {"Black": {"3": 1, "4": 1}, "White": {"1": 2, "4": 1}},
            "stones": {"Black": 1, "White": 2},
            "decided_by": "marker groups of size 3",
        }

    def test_stones_decide_when_marker_groups_tie(self) -> None:
        # Two groups of 2 each; stones 5 to 3. Other reading (last mover loses at once):
        # Black made the last turn and would lose.
        result = RULES.outcome(finished("B,B,W,W/b,w,b,b/W,W,B,B/w,b,b,w", BLACK))
        assert result is not None and result.winner == "Black"
        assert result.tiebreak == (
            "marker groups tie at every size; Black has more stones on the board (5 to 3)"
        )
        assert result.details["decided_by"] == "stones"

    @pytest.mark.parametrize(("last", "winner"), [(BLACK, "White"), (WHITE, "Black")])
    def test_the_last_mover_loses_a_complete_tie(self, last: int, winner: str) -> None:
        result = RULES.outcome(finished("B,B,W,W/b,w,b,w/W,W,B,B/w,b,w,b", last))
        assert result is not None and result.winner == winner
        loser = COLOURS[last]
        assert (
            result.tiebreak == f"marker groups and stones tie; {loser} made the last turn and loses"
        )
        assert result.details["decided_by"] == "last mover"
        assert result.details["stones"] == {"Black": 4, "White": 4}

    def test_the_game_goes_on_while_a_point_is_empty(self) -> None:
        state = start(ORDER)
        assert RULES.outcome(state) is None
        assert RULES.details(state)["stones"] == {"Black": 1, "White": 4}

    def test_no_move_after_the_end(self) -> None:
        state = finished("B,B,W,W/b,w,b,w/W,W,B,B/w,b,w,b", BLACK)
        assert list(RULES.legal_moves(state)) == []
        with pytest.raises(IllegalMoveError, match=r"the game is over \(the board is full\)"):
            RULES.play(state, move("a1"))

    def test_a_played_ending(self) -> None:
        # Black's b2 closes a2-a1-b1-c1 (b2 against c2, 1 to 1: White's; c2 goes). c2 is then
        # Black's (b2 against nothing; b2 goes), and b2 a 0-to-0 patch for White. Full board:
        # White's group of 5 beats Black's group of 4 (c3-c2 with a3, b3).
        state = start("B,B,B/2,w/3")
        assert RULES.outcome(state) is None
        end = RULES.play(state, move("b2"))
        assert str(end.last_move) == "b2/a1/c2/b2"
        assert format_position(RULES.position(end)) == "B,B,B/W,W,B/W,W,W"
        result = RULES.outcome(end)
        assert result is not None and result.winner == "White"
        assert result.details["decided_by"] == "marker groups of size 5"


class TestTurns:
    def test_black_moves_first_and_turns_alternate(self) -> None:
        state = RULES.initial_state(5)
        assert RULES.to_move(state) == "Black"
        assert RULES.to_move(RULES.play(state, move("c3"))) == "White"

    def test_swap_only_as_second_turn_then_white_moves_again(self) -> None:
        state = RULES.initial_state(5)
        with pytest.raises(IllegalMoveError, match="swap is only legal as the second turn"):
            RULES.play(state, Swap())
        swapped = RULES.play(RULES.play(state, move("c3")), Swap())
        assert RULES.to_move(swapped) == "White"
        assert swapped.last_move is None
        third = RULES.play(swapped, move("b2"))
        assert RULES.to_move(third) == "Black"
        assert "swap" not in moves(third)
        with pytest.raises(IllegalMoveError, match="swap is only legal as the second turn"):
            RULES.play(third, Swap())

    def test_occupied_and_other_forms(self) -> None:
        state = RULES.play(RULES.initial_state(5), move("c3"))
        with pytest.raises(IllegalMoveError, match=r"c3 is occupied \(by a black stone\)"):
            RULES.play(state, move("c3"))
        with pytest.raises(IllegalMoveError, match="f1 is off the 5×5 board"):
            RULES.play(state, move("f1"))
        with pytest.raises(IllegalMoveError, match="not an Implo move"):
            RULES.play(state, Pass())

    def test_a_plain_place_is_a_placement_without_steps(self) -> None:
        state = start("5/5/5/B,B,3/w,4")
        assert RULES.play(state, Place(Point.parse("c1"))) == RULES.play(state, move("c1"))


class TestSetup:
    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("b,w,b/w,b,w/b,w,b", "no empty point"),
            ("3/b,b,b/2,w", "patch at a1"),  # a turn never starts with a patch on the board
            ("3/1,bw,1/3", "is a stack, but an Implo square holds one piece at most"),
        ],
    )
    def test_impossible_setups(self, text: str, reason: str) -> None:
        grid = parse_position(text, find_game("implo"), 3)
        with pytest.raises(ValueError, match=reason):
            RULES.initial_state(3, setup=grid)

    def test_a_possible_setup(self) -> None:
        # Seven open points in one territory; markers and stones anywhere.
        state = RULES.initial_state(3, setup=parse_position("3/3/b,W,w", find_game("implo"), 3))
        assert (state.empty, RULES.to_move(state), state.ply) == (6, "Black", 0)

    def test_komi_and_size(self) -> None:
        with pytest.raises(ValueError, match="no komi"):
            RULES.initial_state(5, komi=3)
        with pytest.raises(ValueError, match="3 to 19"):
            RULES.initial_state(2)

    def test_position_round_trip(self) -> None:
        assert format_position(RULES.position(start(TIE))) == TIE


class TestCounts:
    def test_empty_board(self) -> None:
        # Every point, no patch can appear: one stone leaves 24 connected points.
        assert moves(RULES.initial_state(5)) == [
            str(Point(f, r)) for r in range(5) for f in range(5)
        ]

    def test_second_turn_on_three_by_three(self) -> None:
        # After b2, White has the 8 ring points (the ring of 7 left is never a patch) and swap.
        state = RULES.play(RULES.initial_state(3), move("b2"))
        assert len(moves(state)) == 9 and moves(state)[-1] == "swap"

    def test_order_position(self) -> None:
        # 14 placements on ranks 3-5 (none cuts off a small territory). On rank 1:
        # a1 closes b1-e1 (White's, one way); e1 closes a1-d1 (one way); b1 closes a1 and
        # c1-e1, independent, 2 orders; c1: A then B, or B alone (A merges away), 2;
        # d1: a1-c1 then e1 then the freed d1, or e1 then the merged a1-d1, 2. 14+1+1+2+2+2.
        assert moves(start(ORDER)) == [
            "a1/b1",
            "b1/a1/c1",
            "b1/c1/a1",
            "c1/a1/d1",
            "c1/d1",
            "d1/a1/e1/d1",
            "d1/e1/a1",
            "e1/a1",
            "b3",
            "c3",
            "d3",
            "e3",
            "a4",
            "b4",
            "c4",
            "d4",
            "e4",
            "a5",
            "b5",
            "c5",
            "d5",
            "e5",
        ]

    def test_tie_position(self) -> None:
        # 15 empty points, each one move, plus one: c2 closes {a2,b2} and {c1}, both Black's
        # and independent (2 orders), and d2's patch has two tied groups (2 choices). b2, b5
        # and c5 close one patch each, with one way to resolve it.
        listed = moves(start(TIE, mover=WHITE))
        assert len(listed) == 17
        assert [m for m in listed if m.startswith("c2")] == ["c2/c1/a2", "c2/a2/c1"]
        assert [m for m in listed if m.startswith("d2")] == ["d2/c1:d1", "d2/c1:b3"]

    def test_past_the_cap_the_first_sequence_per_outcome(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # With a cap of 1, b1 (two orders, one result) and c1 (two results) list one each.
        monkeypatch.setattr(implo_turn, "SEQUENCE_CAP", 1)
        listed = moves(start(ORDER))
        assert [m for m in listed if m[:2] in ("b1", "c1")] == ["b1/a1/c1", "c1/a1/d1"]

    def test_an_exploding_cascade_is_sampled(self) -> None:
        # A checkerboard of single stones under an open top rank: every placement there
        # starts a cascade of tied singletons with a vast number of sequences. Each
        # placement lists at most SEQUENCE_CAP moves, all legal, canonical, with distinct
        # results.
        state = start("5/w,b,w,b,w/b,w,b,w,b/w,b,w,b,w/b,w,b,w,b")
        listed = [m for m in RULES.legal_moves(state) if isinstance(m, ImploPlace)]
        assert Counter(str(m.at) for m in listed) == {
            p: implo_turn.SEQUENCE_CAP for p in ("a5", "b5", "c5", "d5", "e5")
        }
        afters = [RULES.play(state, m) for m in listed]
        assert all(after.last_move == m for after, m in zip(afters, listed, strict=True))
        results = Counter((str(m.at), after.board) for m, after in zip(listed, afters, strict=True))
        assert max(results.values()) == 1


# --- A slow, obviously correct reference: every step recomputes the territories from scratch.


def _neighbours(size: int) -> list[list[int]]:
    """Orthogonal neighbours of every index, computed here independently of the engine."""
    out = []
    for i in range(size * size):
        rank, file = divmod(i, size)
        steps = ((rank - 1, file), (rank + 1, file), (rank, file - 1), (rank, file + 1))
        out.append([r * size + f for r, f in steps if 0 <= r < size and 0 <= f < size])
    return out


def _group(board: list[str], nbrs: list[list[int]], start: int) -> tuple[int, ...]:
    """The points connected to ``start`` through equal contents, sorted."""
    members, todo = {start}, [start]
    while todo:
        for q in nbrs[todo.pop()]:
            if board[q] == board[start] and q not in members:
                members.add(q)
                todo.append(q)
    return tuple(sorted(members))


def _name(index: int, size: int) -> str:
    return str(Point(index % size, index // size))


def _point(index: int, size: int) -> Point:
    return Point(index % size, index // size)


def _reference_patches(board: list[str], size: int) -> list[tuple[int, ...]]:
    nbrs = _neighbours(size)
    seen: set[int] = set()
    patches = []
    for p in range(size * size):
        if board[p] == "" and p not in seen:
            region = _group(board, nbrs, p)
            seen.update(region)
            if len(region) <= 4:
                patches.append(region)
    return patches


def _reference_choices(
    board: list[str], size: int, patch: tuple[int, ...], mover: int
) -> tuple[int, list[tuple[int, ...]]]:
    nbrs = _neighbours(size)
    groups = {_group(board, nbrs, q) for p in patch for q in nbrs[p] if board[q] in ("b", "w")}
    best = {c: max((len(g) for g in groups if board[g[0]] == c), default=0) for c in "bw"}
    owner = 0 if best["b"] > best["w"] else 1 if best["w"] > best["b"] else 1 - mover
    stone = "bw"[owner]
    return owner, sorted(g for g in groups if board[g[0]] == stone and len(g) == best[stone])


class _TooMany(Exception):
    pass


def _reference_apply(
    board: list[str], size: int, patch: tuple[int, ...], owner: int, group: tuple[int, ...]
) -> list[str]:
    board = board.copy()
    for p in patch:
        board[p] = "BW"[owner]
    for p in group:
        board[p] = ""
    return board


def _reference_turns(state: State, at: int, limit: int) -> list[tuple[str, tuple[str, ...]]]:
    """Every (move text, final board) for a placement on ``at``, by brute force. Raises
    ``_TooMany`` past ``limit`` sequences."""
    size = state.size
    board = letters(state)
    board[at] = "bw"[state.mover]
    out: list[tuple[str, tuple[str, ...]]] = []

    def walk(board: list[str], steps: list[str]) -> None:
        patches = sorted(_reference_patches(board, size))
        if not patches:
            out.append(("/".join([_name(at, size), *steps]), tuple(board)))
            if len(out) > limit:
                raise _TooMany
        for patch in patches:
            owner, biggest = _reference_choices(board, size, patch, state.mover)
            for group in biggest or [()]:
                step = _name(patch[0], size)
                if len(biggest) > 1:
                    step += ":" + _name(group[0], size)
                walk(_reference_apply(board, size, patch, owner, group), [*steps, step])

    walk(board, [])
    return out


def _reference_forced(state: State, full: ImploPlace, keep: int) -> bool:
    """Whether the steps after the first ``keep`` of ``full`` are each forced: one patch
    left, and no tie for the group to remove."""
    size = state.size
    board = letters(state)
    board[full.at.index(size)] = "bw"[state.mover]
    for i, step in enumerate(full.resolve):
        patches = _reference_patches(board, size)
        (patch,) = [p for p in patches if step.patch.index(size) in p]
        owner, biggest = _reference_choices(board, size, patch, state.mover)
        if i >= keep and (len(patches) > 1 or len(biggest) > 1):
            return False
        group = [g for g in biggest if step.remove is None or step.remove.index(size) in g]
        board = _reference_apply(board, size, patch, owner, group[0] if group else ())
    return True


@st.composite
def games(draw: st.DrawFn, max_plies: int = 40) -> Game:
    """A random game: sizes 3-6, moves drawn from legal_moves (random resolution choices)."""
    state = RULES.initial_state(draw(st.integers(3, 6)))
    states: list[State] = [state]
    played: list[Move] = []
    while len(played) < max_plies:
        legal = list(RULES.legal_moves(state))
        if not legal:
            break
        chosen = draw(st.sampled_from(legal))
        played.append(chosen)
        state = RULES.play(state, chosen)
        states.append(state)
    return states, played


PROPERTY = settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class TestProperties:
    @PROPERTY
    @given(games())
    def test_random_games(self, game: Game) -> None:
        states, played = game
        for before, chosen, nxt in zip(states[:-1], played, states[1:], strict=True):
            copy = before._replace()
            assert RULES.play(before, chosen) == nxt  # deterministic, and before unchanged
            assert before == copy
            if isinstance(chosen, ImploPlace):
                assert nxt.last_move == chosen  # legal_moves yields canonical moves
        for state in states:
            assert (RULES.outcome(state) is None) == bool(list(RULES.legal_moves(state)))
        final = states[-1]
        if RULES.outcome(final) is not None:
            assert "" not in letters(final)

    @PROPERTY
    @given(games(), st.data())
    def test_legal_moves_match_brute_force(self, game: Game, data: st.DataObject) -> None:
        # Up to the cap, the listed moves of a placement are exactly the brute-force ones.
        state = data.draw(st.sampled_from(game[0]))
        listed: dict[int, Counter[tuple[str, tuple[str, ...]]]] = {}
        for m in RULES.legal_moves(state):
            if isinstance(m, ImploPlace):
                key = (str(m), PIECES.cells(RULES.play(state, m).board))
                listed.setdefault(m.at.index(state.size), Counter())[key] += 1
        for at, cell in enumerate(letters(state)):
            if cell == "":
                try:
                    expected = Counter(_reference_turns(state, at, implo_turn.SEQUENCE_CAP))
                except _TooMany:
                    assert sum(listed[at].values()) <= implo_turn.SEQUENCE_CAP
                    continue
                assert listed[at] == expected

    @PROPERTY
    @given(games(), st.data())
    def test_dropping_a_needed_choice_is_ambiguous(self, game: Game, data: st.DataObject) -> None:
        states, played = game
        candidates = [i for i, m in enumerate(played) if isinstance(m, ImploPlace) and m.resolve]
        assume(candidates)
        ply = data.draw(st.sampled_from(candidates))
        state, full = states[ply], played[ply]
        assert isinstance(full, ImploPlace)
        keep = data.draw(st.integers(0, len(full.resolve) - 1))
        short = ImploPlace(full.at, full.resolve[:keep])
        if _reference_forced(state, full, keep):
            assert RULES.play(state, short) == states[ply + 1]
        else:
            with pytest.raises(AmbiguousMoveError):
                RULES.play(state, short)
        tied = [i for i, step in enumerate(full.resolve) if step.remove is not None]
        if tied:
            i = tied[0]
            dropped = full.resolve[:i] + (Resolve(full.resolve[i].patch),) + full.resolve[i + 1 :]
            with pytest.raises(AmbiguousMoveError, match="must remove one of the groups"):
                RULES.play(state, ImploPlace(full.at, dropped))

    @PROPERTY
    @given(games(), st.data())
    def test_a_move_outside_legal_moves_is_illegal_at_that_ply(
        self, game: Game, data: st.DataObject
    ) -> None:
        states, played = game
        assume(played)
        ply = data.draw(st.integers(0, len(played) - 1))
        state = states[ply]
        legal = set(RULES.legal_moves(state))
        occupied = [i for i, cell in enumerate(state.board) if cell]
        bad: list[Move] = [Swap()] if state.ply != 1 else []
        bad += [ImploPlace(_point(i, state.size)) for i in occupied]
        chosen = played[ply]
        if isinstance(chosen, ImploPlace):  # one step too many: it names the new stone
            bad.append(ImploPlace(chosen.at, (*chosen.resolve, Resolve(chosen.at))))
        assume(bad)
        wrong = data.draw(st.sampled_from(bad))
        assert wrong not in legal
        for before, good in zip(states, played[:ply], strict=False):
            RULES.play(before, good)  # every earlier ply still plays
        with pytest.raises(IllegalMoveError) as caught:
            RULES.play(state, wrong)
        assert not isinstance(caught.value, AmbiguousMoveError)


def _respelled(state: State, move: ImploPlace, data: st.DataObject) -> ImploPlace:
    """``move`` (canonical) with every patch named by a random point of it, and a removal
    named by a random stone of the group, also where the group is the only biggest one."""
    size = state.size
    board = letters(state)
    board[move.at.index(size)] = "bw"[state.mover]
    steps = []
    for step in move.resolve:
        (patch,) = [p for p in _reference_patches(board, size) if step.patch.index(size) in p]
        owner, biggest = _reference_choices(board, size, patch, state.mover)
        groups = [g for g in biggest if step.remove is None or step.remove.index(size) in g]
        group = groups[0] if groups else ()
        remove = None
        if group and (step.remove is not None or data.draw(st.booleans())):
            remove = _point(data.draw(st.sampled_from(group)), size)
        steps.append(Resolve(_point(data.draw(st.sampled_from(patch)), size), remove))
        board = _reference_apply(board, size, patch, owner, group)
    return ImploPlace(move.at, tuple(steps))


PIECE_OR_EMPTY = st.sampled_from(["", "", "", "b", "w", "B", "W"])


@st.composite
def placements(draw: st.DrawFn) -> tuple[int, list[str], int]:
    """Any board of 3 to 7 lines (patches allowed) and an empty point of it."""
    size = draw(st.integers(3, 7))
    board = draw(st.lists(PIECE_OR_EMPTY, min_size=size * size, max_size=size * size))
    at = draw(st.integers(0, size * size - 1))
    board[at] = ""
    return size, board, at


class TestFastPaths:
    """The engine takes shortcuts (see adjudicator/implo.py); these check them against the
    slow reference above."""

    def test_the_board_codes_follow_the_setup_letters(self) -> None:
        # The board is bytes: 0 empty, then b, w, B, W (the description's order); other
        # reading: codes in another order, which would swap stones and markers on reading.
        assert PIECES.board(["", "b", "w", "B", "W"]) == bytes([0, 1, 2, 3, 4])
        assert PIECES.cells(bytes([4, 0, 1])) == ("W", "", "b")
        assert RULES.position(start("2,W/b,1,B/w,2")) == (  # rank 1 first
            ("w", "", ""),
            ("b", "", "B"),
            ("", "", "W"),
        )
        with pytest.raises(ValueError, match="'x' is not a piece of the game"):
            PIECES.board(["x"])

    @settings(max_examples=examples(300), deadline=None)
    @given(placements(), st.sampled_from("bw"))
    def test_placement_finds_the_small_territories_next_to_it(
        self, placement: tuple[int, list[str], int], stone: str
    ) -> None:
        # Other reading: a full count of the board after the stone lands.
        size, board, at = placement
        board[at] = stone
        nbrs = _neighbours(size)
        expected = sorted(
            p for p in _reference_patches(board, size) if any(q in p for q in nbrs[at])
        )
        assert sorted(placed_patches(codes(board), tuple(map(tuple, nbrs)), at)) == expected

    @settings(max_examples=examples(300), deadline=None)
    @given(placements(), st.sampled_from("bw"))
    def test_the_ring_test_passes_only_placements_that_make_no_patch(
        self, placement: tuple[int, list[str], int], stone: str
    ) -> None:
        # Other reading: the full count above; the ring test may say False wrongly (then
        # the fills decide), never True wrongly.
        size, board, at = placement
        board[at] = stone
        nbrs = _neighbours(size)
        made = [p for p in _reference_patches(board, size) if any(q in p for q in nbrs[at])]
        if surrounded_openly(codes(board), tables(size).rings[at]):
            assert made == []

    @settings(max_examples=examples(300), deadline=None)
    @given(placements())
    def test_marker_groups_and_the_deciding_size(
        self, placement: tuple[int, list[str], int]
    ) -> None:
        # Other reading: every group found from each of its points, then counted once.
        size, board, _ = placement
        nbrs = _neighbours(size)
        expected: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        groups = {_group(board, nbrs, p) for p, cell in enumerate(board) if cell in ("B", "W")}
        for group in groups:
            expected[board[group[0]] == "W"][len(group)] += 1
        sizes = marker_groups(codes(board), size, MARKERS)
        assert sizes == (dict(expected[0]), dict(expected[1]))
        differing = [k for k in set(sizes[0]) | set(sizes[1]) if sizes[0].get(k) != sizes[1].get(k)]
        assert deciding_size(*sizes) == max(differing, default=None)

    def test_the_ring_test_sees_an_open_board(self) -> None:
        # A stone on d4 of an empty 8×8 board: all eight around it empty; on a1: its ring
        # is three points, too few to tell.
        board = bytearray(64)
        board[27] = board[0] = STONES[0]
        assert surrounded_openly(bytes(board), tables(8).rings[27])
        assert not surrounded_openly(bytes(board), tables(8).rings[0])

    @PROPERTY
    @given(games(), st.data())
    def test_any_spelling_of_a_turn_gives_the_same_state(
        self, game: Game, data: st.DataObject
    ) -> None:
        # Steps naming a patch by any of its points, and a group by any of its stones, give
        # the state of the canonical spelling, with the canonical form as last_move.
        states, played = game
        for before, chosen, after in zip(states[:-1], played, states[1:], strict=True):
            if isinstance(chosen, ImploPlace):
                respelled = _respelled(before, chosen, data)
                assert RULES.play(before, respelled) == after
                try:
                    bare = RULES.play(before, ImploPlace(chosen.at))
                except AmbiguousMoveError as err:
                    with pytest.raises(AmbiguousMoveError, match=re.escape(str(err))):
                        RULES.play(before, Place(chosen.at))
                else:
                    assert RULES.play(before, Place(chosen.at)) == bare

    @PROPERTY
    @given(games())
    def test_the_counts_kept_turn_by_turn_agree_with_the_board(self, game: Game) -> None:
        # play keeps the number of empty points, the ply and the colour to move as it goes,
        # instead of counting them; other reading: fields copied from the state before.
        states, moves = game
        for before, played, after in zip(states, moves, states[1:], strict=False):
            assert after.empty == letters(after).count("")
            assert after.ply == before.ply + 1
            swap = isinstance(played, Swap)
            assert after.mover == (before.mover if swap else 1 - before.mover)
            assert after.last_mover == before.mover
            assert (after.last_move is None) == swap
