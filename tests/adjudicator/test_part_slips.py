"""Repair hints for a slip in one part of a move (``spec/hints.md``, "Move slips"): two squares
of an Implo placement exchanged, whichever two; a look-alike kept among the first three when a
likelier slip of the same move also replays as claimed; an earlier slip whose effect reaches
the refused move through many plies of Implo patches. Each is written into a real record (the
samples); none was found before these corrections were searched for.
"""

from __future__ import annotations

import pytest

from arbiter.adjudicator import hints
from tests.adjudicator.test_hand_slips import suggestions_for

IMPLO = "implo/valid/01-club-ladder-8x8.grn"


@pytest.mark.parametrize(
    ("ply", "written", "meant", "slip"),
    [
        # a step's patch and the group it removes exchanged (the second and third squares)
        (4, "b1/a2:a1", "b1/a1:a2", "two squares swapped"),
        # the patches of two steps exchanged, another square between them
        (16, "g2/g1:h1/h2:g2", "g2/h2:h1/g1:g2", "two squares swapped"),
        # the stone placed and a step's group exchanged
        (13, "c2/b1:d1", "d1/b1:c2", "two squares swapped"),
    ],
)
def test_two_squares_of_an_implo_placement_exchanged_are_put_back(
    ply: int, written: str, meant: str, slip: str
) -> None:
    error, found = suggestions_for(IMPLO, ply, written)
    assert error["ply"] == ply
    assert found[0] == (ply, meant, slip), found


def test_any_two_squares_of_a_move_exchanged_are_slips_and_next_to_each_other_cheaper() -> None:
    found = {slip.text: (slip.cost, slip.what) for slip in hints.slips("g2/h2:h1/g1:g2")}
    assert found["h2/g2:h1/g1:g2"] == (1.0, "the two squares swapped")  # the first two
    assert found["g2/h1:h2/g1:g2"] == (1.0, "two squares swapped")  # next to each other
    assert found["g2/g1:h1/h2:g2"] == (hints.SWAP_COST, "two squares swapped")
    assert found["g2/h2:g2/g1:h1"] == (hints.SWAP_COST, "two squares swapped")  # third, last


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant"),
    [
        # d8 for d6 (6/8): d7, one rank off, also replays to the claimed result, and is cheaper
        ("pletore/valid/01-ladder-9x9-button.grn", 10, "d8", "d6"),
        # i8 for i6: i7 and i9 both replay as claimed, one rank off each
        ("pletore/valid/01-ladder-9x9-button.grn", 22, "i8", "i6"),
    ],
)
def test_a_look_alike_is_kept_when_a_cheaper_slip_also_replays_as_claimed(
    sample: str, ply: int, written: str, meant: str
) -> None:
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == ply
    assert found[0][0] == ply and found[0][1] != meant and found[0][2] != "a look-alike character"
    assert (ply, meant, "a look-alike character") in found[:3], found


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant", "earlier"),
    [
        # c2 for e2 (c/e): c1 at ply 22 or at ply 8 (each one rank off) also replays as claimed
        ("petrify/valid/04-league-9x9-resigned.grn", 22, "c2", "e2", 8),
        # c2 for a2 (a/c, a fainter look-alike): c1, here or at ply 8, also replays as claimed
        ("petrify/valid/04-league-9x9-resigned.grn", 12, "c2", "a2", 8),
    ],
)
def test_the_refused_move_is_still_searched_once_an_earlier_correction_replays(
    sample: str, ply: int, written: str, meant: str, earlier: int
) -> None:
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == ply
    assert [entry[0] for entry in found] == [earlier, ply, ply], found
    assert found[2][:2] == (ply, meant)


@pytest.mark.parametrize(
    ("sample", "ply", "written", "meant", "refused"),
    [
        # g8 for g3 (3/8) at ply 17 is legal; it changes the patches until ply 51 is refused
        ("implo/valid/04-swap-10x10.grn", 17, "g8", "g3", 51),
        ("implo/valid/01-club-ladder-8x8.grn", 26, "d8", "d3", 29),
    ],
)
def test_an_implo_slip_whose_effect_reaches_far_is_found_within_the_budget(
    sample: str, ply: int, written: str, meant: str, refused: int
) -> None:
    error, found = suggestions_for(sample, ply, written)
    assert error["ply"] == refused
    assert found[0][:2] == (ply, meant), found
