"""FIDE's rating performances (C.07 art. 10 on B.02's tables 8.1a and 8.1b): the tables at
their edges, the performance of a full and of a zero score, and agreement with gacrux's own
computation (FIDE's reference tool) on random fields."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.pairing.performance import (
    average_rating,
    expected_score,
    perfect_performance,
    performance_rating,
    rating_difference,
)


def test_the_expected_score_table_at_its_bounds() -> None:
    """Table 8.1b: 0-3 points of difference .50, 4-10 .51, ..., 620-735 .99, above 1.00."""
    cases = {0: 50, 3: 50, 4: 51, 10: 51, 11: 52, 344: 88, 345: 89, 619: 98, 620: 99,
             735: 99, 736: 100, 2000: 100}  # fmt: skip
    for difference, hundredths in cases.items():
        assert expected_score(1500 + difference, [1500]) == Fraction(hundredths, 100)
        assert expected_score(1500 - difference, [1500]) == Fraction(100 - hundredths, 100)


def test_the_rating_difference_table() -> None:
    """Table 8.1a: 100% +800, 99% +677, 67% +125, 50% 0, 25% -193, 0% -800."""
    got = [rating_difference(p) for p in (100, 99, 67, 50, 25, 1, 0)]
    assert got == [800, 677, 125, 0, -193, -677, -800]


def test_the_performance_rating_rounds_half_up() -> None:
    """Two of three is 66.67%, read 67 (+125); 1 of 8 is 12.5%, read 13 (-322); the average
    1766.67 is read 1767 and 1766.5 is read 1767."""
    assert performance_rating(Fraction(2), [1600, 2000, 1700]) == 1767 + 125
    assert performance_rating(Fraction(1), [1500] * 7 + [1600]) == 1513 - 322
    assert average_rating([1766, 1767]) == 1767
    assert performance_rating(Fraction(0), []) is None


def test_the_perfect_performance_of_a_full_and_of_a_zero_score() -> None:
    """A full score: the lowest rating expecting 1.00 of every game, 736 above the highest
    opponent (at 735 above, .99). No point: the lowest opponent's rating minus 800."""
    assert perfect_performance(Fraction(2), [1500, 1600]) == 2336
    assert expected_score(2335, [1500, 1600]) < 2
    assert perfect_performance(Fraction(0), [1500, 1600]) == 700
    assert perfect_performance(Fraction(1), []) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 3000), min_size=1, max_size=12),
    st.data(),
)
def test_the_performances_agree_with_gacrux(ratings: list[int], data: st.DataObject) -> None:
    from decimal import Decimal

    from gacrux import rating

    halves = data.draw(st.integers(0, 2 * len(ratings)))
    score = Fraction(halves, 2)
    theirs = Decimal(halves) / 2
    assert performance_rating(score, ratings) == rating.ComputeTournamentPerformanceRating(
        theirs, ratings
    )
    assert perfect_performance(score, ratings) == rating.ComputePerfectTournamentPerformance(
        theirs, ratings
    )
