"""Rating performances as FIDE computes them for its tie-breaks (Handbook C.07 art. 10, on
the tables of the Rating Regulations B.02 art. 8.1), for ``TPR``, ``PTP``, ``APRO`` and
``APPO`` (``spec/pairings.md`` §10).

FIDE works from two published tables, not from a formula: the normal curve they were drawn
from does not give back every entry, and a tie-break must agree with every other program to
the point. Both are written here as FIDE prints them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

__all__ = [
    "average_rating",
    "expected_score",
    "performance_rating",
    "perfect_performance",
    "rating_difference",
]

_PD_UPPER_BOUNDS = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315,
    328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip
"""B.02 table 8.1b: a rating difference up to the k-th bound gives the higher-rated player
an expected score of 0.50 + k/100; above the last, 1.00."""

_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip
"""B.02 table 8.1a: the rating difference ``dp`` of a percentage score of 50 + k (k from 0
to 50); below 50 the same with the sign turned."""


def _expected_hundredths(difference: int) -> int:
    """The expected score, in hundredths, of the player rated ``difference`` points above
    the other (table 8.1b; below zero, its complement)."""
    k = bisect_left(_PD_UPPER_BOUNDS, abs(difference))  # the first bound not below it
    return 50 + k if difference >= 0 else 50 - k


def expected_score(rating: int, opponents: Sequence[int]) -> Fraction:
    """The sum of the expected scores of a player rated ``rating`` against ``opponents``."""
    return Fraction(sum(_expected_hundredths(rating - o) for o in opponents), 100)


def rating_difference(percent: int) -> int:
    """``dp`` of table 8.1a for a percentage score from 0 to 100."""
    if not 0 <= percent <= 100:
        raise ValueError(f"a percentage score is from 0 to 100, not {percent}")
    return _DP_FROM_HALF[percent - 50] if percent >= 50 else -_DP_FROM_HALF[50 - percent]


def _half_up(value: Fraction) -> int:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def average_rating(ratings: Sequence[int]) -> int | None:
    """The average of ``ratings`` rounded half up to the whole number (C.07 10.1), or None
    without any."""
    return _half_up(Fraction(sum(ratings), len(ratings))) if ratings else None


def performance_rating(score: Fraction, opponents: Sequence[int]) -> int | None:
    """TPR (C.07 10.2): the opponents' average rating plus ``dp`` of the percentage score
    (rounded half up to a whole percent), or None without any opponent."""
    average = average_rating(opponents)
    if average is None:
        return None
    return average + rating_difference(_half_up(100 * score / len(opponents)))


def perfect_performance(score: Fraction, opponents: Sequence[int]) -> int | None:
    """PTP (C.07 10.3): the lowest whole rating whose expected score against ``opponents``
    reaches ``score``; with no point scored, the lowest opponent's rating minus 800. None
    without any opponent.

    The expected score only grows with the rating, so the lowest such rating is found by
    halving an interval that holds it: 800 points of difference already expect a full
    score of every game, so the highest opponent's rating plus 800 always reaches it."""
    if not opponents:
        return None
    if score <= 0:
        return min(opponents) - 800
    low, high = min(opponents) - 801, max(opponents) + 800  # expected(low) < score <= ...
    while high - low > 1:
        middle = (low + high) // 2
        if expected_score(middle, opponents) >= score:
            high = middle
        else:
            low = middle
    return high
