"""Repair hints for the slips a hand makes copying a scoresheet (``spec/hints.md``, "Move
slips"): handwritten look-alikes (``a``/``d``, ``c``/``e``, ``b``/``h``, ``6``/``8``,
``3``/``8``, ``1``/``4``, ``2``/``7``, and the fainter ``3``/``5``), one part of a move of
several miscopied while the others were copied right, a Pilare path with a direction
dropped, doubled or two swapped. Each is written into a real record (the samples), and the
move meant must come first among the suggestions, at the slip or at the later move it makes
refused. The a/d, 1/4, 6/8, 2/7 and 3/5 slips, the miscopied Implo step and capture origin,
and the Pilare paths were not found before these slips were searched; c/e, b/h and 3/8 were
(the old table had them), and stay found now that a look-alike is read in a square only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbiter.adjudicator import hints
from arbiter.notation.build import check_move, move_in_game
from arbiter.notation.errors import RecordError
from arbiter.notation.games import find_game
from arbiter.notation.grn_scan import move_of_text
from tests.adjudicator.test_hints import first_error, slipped

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def suggestions_for(sample: str, ply: int, word: str) -> tuple[dict[str, Any], list[Any]]:
    """The first error of ``sample`` with the move of ``ply`` written ``word``, and its
    suggestions as (ply, move, slip)."""
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    error = first_error(slipped(ply, word, text))
    found = [(s["ply"], s["move"], s["slip"]) for s in error.get("suggestions", [])]
    return error, found


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant", "slip", "refused"),
    [
        # a capture whose origin is a look-alike of the right one (a/d): no hint before
        ("pilo/valid/01-club-ladder-8x8-swap.grn", 26, "d5xa4", "a5xa4", "look-alike", 26),
        ("petrify/valid/01-club-ladder-8x8-swap.grn", 32, "a2xg2", "d2xg2", "look-alike", 32),
        # a placement off by a look-alike rank (2/7)
        ("pilo/valid/01-club-ladder-8x8-swap.grn", 25, "h7", "h2", "look-alike", 25),
        # one resolution step of an Implo placement miscopied (a/d), the rest right
        ("implo/valid/01-club-ladder-8x8.grn", 4, "b1/d1:a2", "b1/a1:a2", "look-alike", 4),
        # a placement with seven steps (26 characters), one of them miscopied (5/3)
        (
            "implo/valid/01-club-ladder-8x8.grn", 59, "f4/e4:d4/d4:d3/d5/g4:g6/g6",
            "f4/e4:d4/d4:d5/d5/g4:g6/g6", "look-alike", 59,
        ),
        # c/e, b/h and 3/8 in one part of an Implo placement, the others right: the part
        # corrected is the one miscopied (the placement, a step's first or second square)
        ("implo/valid/01-club-ladder-8x8.grn", 13, "d1/b1:e2", "d1/b1:c2", "look-alike", 13),
        ("implo/valid/01-club-ladder-8x8.grn", 5, "g4/b4:h3", "g4/h4:h3", "look-alike", 5),
        ("implo/valid/01-club-ladder-8x8.grn", 24, "f7/f3:e8", "f7/f8:e8", "look-alike", 24),
        ("implo/valid/01-club-ladder-8x8.grn", 29, "c2/e1/c2:c4", "e2/e1/c2:c4", "look-alike", 29),
        # 5/6, a look-alike and a neighbour both: the cheaper slip names it
        ("implo/valid/01-club-ladder-8x8.grn", 25, "g6/h5", "g6/h6", "rank off by one", 25),
        # legal slips, refused later: c/e, b/h, 3/8
        ("implo/valid/01-club-ladder-8x8.grn", 6, "e1", "c1", "look-alike", 13),
        ("implo/valid/01-club-ladder-8x8.grn", 3, "b3", "h3", "look-alike", 5),
        ("implo/valid/01-club-ladder-8x8.grn", 14, "e3", "e8", "look-alike", 24),
        # legal slips, refused later: a/d, 1/4, 6/8 and 3/5
        ("pilo/valid/01-club-ladder-8x8-swap.grn", 1, "d5", "a5", "look-alike", 26),
        ("pilo/valid/02-blitz-6x6.grn", 10, "b4", "b1", "look-alike", 17),
        ("pilo/valid/01-club-ladder-8x8-swap.grn", 17, "g8", "g6", "look-alike", 19),
        ("pilo/valid/01-club-ladder-8x8-swap.grn", 10, "g5", "g3", "look-alike", 15),
        # a Pilare path with a direction dropped in its middle: shorter than its stack
        ("pilare/valid/adjourned_6x6.grn", 8, "f5:wne", "f5:swne", "dropped", 8),
        # one doubled: longer than its stack (an earlier ply was suggested first before)
        ("pilare/valid/adjourned_6x6.grn", 10, "d5:nee", "d5:ne", "dropped", 10),
        # two directions swapped, a legal sowing refused at the next ply
        ("pilare/valid/adjourned_6x6.grn", 3, "f4:nwn", "f4:nnw", "two directions", 4),
    ],
)  # fmt: skip
def test_a_hand_slip_is_corrected_first(
    sample: str, ply: int, written: str, meant: str, slip: str, refused: int
) -> None:
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == refused
    assert found[0][:2] == (ply, meant), found
    assert slip in found[0][2]


def test_a_path_is_fitted_to_its_stack_before_an_earlier_ply_is_suggested() -> None:
    # d5:nee for d5:ne: three steps for a stack of two. The path with one direction fewer
    # replays; so does a correction at ply 8, which came first before (both the same cost).
    error, found = suggestions_for("pilare/valid/adjourned_6x6.grn", 10, "d5:nee")
    assert error["message"] == "the path has 3 steps but the stack on d5 has 2 men"
    assert found[0] == (10, "d5:ne", "a direction dropped")
    assert all(ply == 10 for ply, _, _ in found[:1])


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant", "refused", "first"),
    [
        # f5 for g5, a legal move, refused two plies later: f4 (rank off by one) and g5 (file
        # off by one) at ply 52 both replay to the claimed result
        ("implo/valid/01-club-ladder-8x8.grn", 52, "f5", "g5", 54, "f4"),
        # c1 for a1 (a look-alike), refused 15 plies later: b1, one file off, mends it too
        ("implo/valid/02-swap-6x6-stones-tiebreak.grn", 4, "c1", "a1", 19, "b1"),
    ],
)  # fmt: skip
def test_a_second_mending_of_an_earlier_move_is_listed(
    sample: str, ply: int, written: str, meant: str, refused: int, first: str
) -> None:
    # The search used to end at the first correction of the earlier move that replays as
    # claimed, and list no other way of mending that move.
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == refused
    assert found[0][:2] == (ply, first)
    assert found[1][:2] == (ply, meant)


def test_a_pass_refused_is_searched_around_the_square_its_refusal_names() -> None:
    # e5 for f5 at ply 20 leaves f5 uncontrolled; the pass at ply 39 is then refused. A pass
    # touches no square: the search looks around f5, which the refusal names.
    error, found = suggestions_for("pletore/valid/01-ladder-9x9-button.grn", 20, "e5")
    assert (error["ply"], error["message"]) == (39, "cannot pass: f5 is not controlled")
    assert found[0] == (20, "f5", "file off by one")


@pytest.mark.parametrize(
    ("ply", "written", "meant", "refused"), [(50, "g5", "h5", 51), (16, "e4", "f4", 74)]
)
def test_a_territory_is_searched_through_its_empty_squares(
    ply: int, written: str, meant: str, refused: int
) -> None:
    # g5 for h5 at ply 50 leaves h5 empty, joined to the patch the next move resolves, which
    # is then no patch; h5 is two empty squares from the squares that move names. e4 for f4
    # at ply 16 fills the patch at e2 that ply 74 resolves, 58 plies later.
    error, found = suggestions_for("implo/valid/04-swap-10x10.grn", ply, written)
    assert error["ply"] == refused
    assert found[0] == (ply, meant, "file off by one")


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant", "refused"),
    [
        ("implo/valid/01-club-ladder-8x8.grn", 48, "g3", "f3", 51),
        ("implo/valid/04-swap-10x10.grn", 30, "a5", "a6", 38),
    ],
)
def test_a_slip_next_to_the_refused_move_is_found(
    sample: str, ply: int, written: str, meant: str, refused: int
) -> None:
    # The slip changes what stands next to the refused move's squares, not on them.
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == refused
    assert found[0][:2] == (ply, meant)


def test_an_earlier_slip_comes_first_when_both_replay_as_claimed() -> None:
    # e8 for e7 at ply 2 is legal; e7 at ply 20 is then refused. Writing e7 at ply 2 or
    # e7 at ply 20 (for e8 there) both replay to the claimed result, at the same cost: the
    # earlier slip comes first, the refused move's correction second.
    error, found = suggestions_for("pletore/valid/02-open-8x8-komi0.grn", 2, "e8")
    assert error["ply"] == 20
    assert [entry[:2] for entry in found[:2]] == [(2, "e7"), (20, "e7")]


def test_the_look_alikes_of_handwriting_and_their_costs() -> None:
    found = {slip.text: (slip.cost, slip.what) for slip in hints.slips("d6")}
    alike = "a look-alike character"
    assert found["a6"] == (1.2, alike) and found["d8"] == (1.2, alike)  # a/d, 6/8
    assert found["d5"] == (1.0, "rank off by one")  # cheaper than 5/6
    found = {slip.text: (slip.cost, slip.what) for slip in hints.slips("b3")}
    assert found["b5"] == (1.3, alike)  # 3/5: fainter
    assert found["h3"] == (1.2, alike) and found["b8"] == (1.2, alike)
    found = {slip.text: (slip.cost, slip.what) for slip in hints.slips("c3:nwn")}
    assert found["c3:nnw"] == (1.3, "two directions swapped")
    assert found["c3:wnn"] == (1.3, "two directions swapped")


@pytest.mark.parametrize(
    "text", ["d4", "t4", "d20", "d4x", "b1xd1", "b1xk1", "c3:ne", "d4/e5/a1:b2", "swap", "pass"]
)
@pytest.mark.parametrize(("game", "size"), [("Pilo", 8), ("Implo", 9), ("Pilare", 6)])
def test_a_move_is_read_in_a_game_as_the_reader_checks_it(text: str, game: str, size: int) -> None:
    move = move_of_text(text)
    if move is None:
        return
    try:
        checked = check_move(move, find_game(game), size)
    except RecordError:
        assert move_in_game(move, find_game(game), size) is None
    else:
        assert move_in_game(move, find_game(game), size) == checked
