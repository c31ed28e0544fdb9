"""The three rating steps, as pure functions of numbers (``spec/ratings.md`` §2).

Each step is written from its published description and keeps the order of the floating
point operations of Abstract Play's raters (``recranks``, with ``glicko2-lite`` and
``ts-trueskill``), so that the same games give the same numbers to the last few bits:
sums are folded left from 0 in the order of the games, powers of two are taken as powers,
and a value handed back is rebuilt the way those libraries rebuild it.
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

__all__ = [
    "ELO_K",
    "ELO_START",
    "GLICKO_START",
    "TRUESKILL_START",
    "Glicko",
    "Opponent",
    "TrueSkill",
    "TrueSkillError",
    "elo",
    "glicko2",
    "glicko2_idle",
    "trueskill",
]

ELO_START: Final = 1200.0
ELO_K: Final = 30.0

GLICKO_SCALE: Final = 173.7178
"""Glickman's factor between the Glicko scale and the Glicko-2 scale."""
GLICKO_CENTRE: Final = 1500.0
GLICKO_TAU: Final = 0.5
GLICKO_EPSILON: Final = 0.000001

TRUESKILL_MU: Final = 25.0
TRUESKILL_SIGMA: Final = TRUESKILL_MU / 3
TRUESKILL_BETA: Final = 25 / 9
TRUESKILL_TAU: Final = TRUESKILL_SIGMA / 100
TRUESKILL_DRAW_PROBABILITY: Final = 0.1
TRUESKILL_MIN_DELTA: Final = 0.0001


class Glicko(NamedTuple):
    """A Glicko-2 rating on the Glicko scale: rating, rating deviation, volatility."""

    rating: float
    rd: float
    volatility: float


class Opponent(NamedTuple):
    """One game of a rating period seen from the player rated: the opponent's rating and
    deviation at the start of the period, and the player's score (1, ½ or 0)."""

    rating: float
    rd: float
    score: float


class TrueSkill(NamedTuple):
    """A TrueSkill rating: the mean and the standard deviation of the skill."""

    mu: float
    sigma: float


GLICKO_START: Final = Glicko(GLICKO_CENTRE, 350.0, 0.06)
TRUESKILL_START: Final = TrueSkill(TRUESKILL_MU, TRUESKILL_SIGMA)


class TrueSkillError(Exception):
    """The TrueSkill update left the range its formulas hold in (an upset so large that
    the truncated Gaussian's variance factor is not between 0 and 1); Abstract Play's
    rater stops there."""


# --- Elo -------------------------------------------------------------------------------


def elo(first: float, second: float, score: float, k: float = ELO_K) -> tuple[float, float]:
    """Both players' Elo ratings after one game in which the first scored ``score`` (1, ½
    or 0): each moves by K times its score less its expected score."""
    expected_first = 1 / (1 + 10 ** ((second - first) / 400))
    expected_second = 1 / (1 + 10 ** ((first - second) / 400))
    return (
        first + k * (score - expected_first),
        second + k * ((1 - score) - expected_second),
    )


# --- Glicko-2 (Glickman, "Example of the Glicko-2 system", steps 2 to 8) ---------------


def glicko2(player: Glicko, games: list[Opponent], tau: float = GLICKO_TAU) -> Glicko:
    """The player's rating after a rating period with ``games`` (at least one), every
    opponent taken at the start of the period. Glickman's steps 2 to 8, the volatility
    found by the Illinois iteration of step 5 to within ``GLICKO_EPSILON``."""
    mu = (player.rating - GLICKO_CENTRE) / GLICKO_SCALE
    phi = player.rd / GLICKO_SCALE
    scaled = [_scaled(mu, game) for game in games]
    v = 1 / _fold_variance(scaled)
    delta = v * _fold_improvement(scaled)
    volatility = _volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(volatility**2 + phi**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * _fold_improvement(scaled)
    return Glicko(GLICKO_SCALE * mu_new + GLICKO_CENTRE, GLICKO_SCALE * phi_new, volatility)


def glicko2_idle(player: Glicko) -> Glicko:
    """The player's rating after a rating period without games: only the deviation
    grows, by the volatility (Glickman's step 6 for a player who did not compete)."""
    phi = player.rd / GLICKO_SCALE
    phi_star = math.sqrt(phi**2 + player.volatility**2)
    return Glicko(player.rating, GLICKO_SCALE * phi_star, player.volatility)


def _scaled(mu: float, game: Opponent) -> tuple[float, float, float]:
    """g(φⱼ), E(μ, μⱼ, φⱼ) and the score of one game, on the Glicko-2 scale."""
    mu_j = (game.rating - GLICKO_CENTRE) / GLICKO_SCALE
    g = _g(game.rd / GLICKO_SCALE)
    expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
    return g, expected, game.score


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _fold_variance(scaled: list[tuple[float, float, float]]) -> float:
    total = 0.0
    for g, expected, _ in scaled:
        total = total + g**2 * expected * (1 - expected)
    return total


def _fold_improvement(scaled: list[tuple[float, float, float]]) -> float:
    total = 0.0
    for g, expected, score in scaled:
        total = total + g * (score - expected)
    return total


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's f by the Illinois method."""
    a = math.log(sigma**2)
    start = a
    phi2 = phi**2
    d2 = delta**2

    def f(x: float) -> float:
        ex = math.exp(x)
        denominator = phi2 + v + ex
        return (ex * (d2 - phi2 - v - ex)) / (2 * denominator**2) - (x - start) / tau**2

    if delta**2 > phi**2 + v:
        b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        b = a - k * tau
    fa, fb = f(a), f(b)
    while abs(b - a) > GLICKO_EPSILON:
        c = a + (a - b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            a, fa = b, fb
        else:
            fa = fa / 2
        b, fb = c, fc
    return math.exp(a / 2)


# --- TrueSkill (Herbrich, Minka and Graepel 2006): two players, one game ---------------


_Gaussian = tuple[float, float]
"""A Gaussian by its precision and its precision times its mean, as the factor graph
passes them."""


def _of(mu: float, sigma: float) -> _Gaussian:
    pi = sigma**-2
    return pi, pi * mu


def _mu(g: _Gaussian) -> float:
    return g[1] / g[0] if g[0] else g[0]


def _sigma(g: _Gaussian) -> float:
    return math.sqrt(1 / g[0]) if g[0] else math.inf


def _times(a: _Gaussian, b: _Gaussian) -> _Gaussian:
    return a[0] + b[0], a[1] + b[1]


def _over(a: _Gaussian, b: _Gaussian) -> _Gaussian:
    return a[0] - b[0], a[1] - b[1]


def trueskill(
    winner: TrueSkill, loser: TrueSkill, drawn: bool = False, beta: float = TRUESKILL_BETA
) -> tuple[TrueSkill, TrueSkill]:
    """The two players' ratings after a game that ``winner`` won (or that was drawn: then
    the order does not matter). The message passing of TrueSkill's factor graph for two
    teams of one, in its order of operations: priors with the dynamics τ added,
    performances, the difference truncated until it moves by at most 0.0001, and back.

    Raises :class:`TrueSkillError` where the update leaves its range."""
    variance = beta**2
    margin = _draw_margin(beta)
    priors = (_prior(winner), _prior(loser))
    to_perf = (_likelihood(priors[0], variance), _likelihood(priors[1], variance))
    to_team = (_sum1(to_perf[0]), _sum1(to_perf[1]))
    nothing: _Gaussian = (0.0, 0.0)
    diff, to_diff, from_trunc = nothing, nothing, nothing
    for _ in range(11):
        message = _sum2(to_team[0], to_team[1], 1.0, -1.0)
        diff, to_diff = _times(_over(diff, to_diff), message), message
        value = _truncate(_over(diff, from_trunc), margin, drawn)
        from_trunc = _over(_times(value, from_trunc), diff)
        moved = _delta(diff, value)
        diff = value
        if moved <= TRUESKILL_MIN_DELTA:
            break
    up_first = _sum2(_over(diff, to_diff), to_team[1], 1.0, 1.0)
    team_first = _times(to_team[0], up_first)
    up_second = _sum2(_over(team_first, up_first), _over(diff, to_diff), 1.0, -1.0)
    team = (team_first, _times(to_team[1], up_second))
    first = _posterior(priors[0], to_perf[0], to_team[0], team[0], variance)
    second = _posterior(priors[1], to_perf[1], to_team[1], team[1], variance)
    return first, second


def _posterior(
    prior: _Gaussian, to_perf: _Gaussian, to_team: _Gaussian, team: _Gaussian, variance: float
) -> TrueSkill:
    """A player's rating from the messages that come back up to it."""
    perf = _times(to_perf, _sum1(_over(team, to_team)))
    message = _over(perf, to_perf)
    a = 1.0 / (variance * message[0] + 1.0)
    rating = _times(prior, (a * message[0], a * message[1]))
    return _rebuilt(_mu(rating), _sigma(rating))


def _prior(rating: TrueSkill) -> _Gaussian:
    given = _of(rating.mu, rating.sigma)
    sigma = math.sqrt(_sigma(given) ** 2 + TRUESKILL_TAU**2)
    return _of(_mu(given), sigma)


def _likelihood(value: _Gaussian, variance: float) -> _Gaussian:
    a = 1.0 / (variance * value[0] + 1.0)
    return a * value[0], a * value[1]


def _sum1(term: _Gaussian) -> _Gaussian:
    """A sum factor's message for a sum of one term of weight 1."""
    mu = 0.0 + 1.0 * _mu(term)
    pi = 1.0 / (0.0 + 1.0**2 / term[0])
    return pi, pi * mu


def _sum2(first: _Gaussian, second: _Gaussian, c1: float, c2: float) -> _Gaussian:
    """A sum factor's message for ``c1·first + c2·second``."""
    mu = 0.0 + c1 * _mu(first)
    pi_inv = 0.0 + c1**2 / first[0]
    mu = mu + c2 * _mu(second)
    pi_inv = pi_inv + c2**2 / second[0]
    pi = 1.0 / pi_inv
    return pi, pi * mu


def _truncate(div: _Gaussian, margin: float, drawn: bool) -> _Gaussian:
    pi, tau = div
    sqrt_pi = math.sqrt(pi)
    diff, scaled_margin = tau / sqrt_pi, margin * sqrt_pi
    if drawn:
        v, w = _v_draw(diff, scaled_margin), _w_draw(diff, scaled_margin)
    else:
        v, w = _v_win(diff, scaled_margin), _w_win(diff, scaled_margin)
    denominator = 1.0 - w
    return pi / denominator, (tau + sqrt_pi * v) / denominator


def _delta(old: _Gaussian, new: _Gaussian) -> float:
    pi_delta = abs(old[0] - new[0])
    if pi_delta == math.inf:
        return 0.0
    return max(abs(old[1] - new[1]), math.sqrt(pi_delta))


def _rebuilt(mu: float, sigma: float) -> TrueSkill:
    """A rating as the library hands it back: rebuilt from its mean and deviation."""
    again = _of(mu, sigma)
    return TrueSkill(_mu(again), _sigma(again))


def _v_win(diff: float, margin: float) -> float:
    x = diff - margin
    denominator = _cdf(x)
    return _pdf(x) / denominator if denominator else -x


def _w_win(diff: float, margin: float) -> float:
    x = diff - margin
    v = _v_win(diff, margin)
    w = v * (v + x)
    if 0 < w < 1:
        return w
    raise TrueSkillError("the TrueSkill update of a win left its range")


def _v_draw(diff: float, margin: float) -> float:
    absolute = abs(diff)
    a, b = margin - absolute, -margin - absolute
    denominator = _cdf(a) - _cdf(b)
    numerator = _pdf(b) - _pdf(a)
    return (numerator / denominator if denominator else a) * (-1 if diff < 0 else 1)


def _w_draw(diff: float, margin: float) -> float:
    absolute = abs(diff)
    a, b = margin - absolute, -margin - absolute
    denominator = _cdf(a) - _cdf(b)
    if not denominator:
        raise TrueSkillError("the TrueSkill update of a draw left its range")
    v = _v_draw(absolute, margin)
    return v**2 + (a * _pdf(a) - b * _pdf(b)) / denominator


def _erfc(x: float) -> float:
    """The complementary error function by the Chebyshev fit of Numerical Recipes
    (fractional error below 1.2e-7), the one TrueSkill's libraries use."""
    z = abs(x)
    t = 1 / (1 + z / 2)
    # fmt: off
    r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (
        0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (
            1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    # fmt: on
    return r if x >= 0 else 2 - r


def _erfc_inverse(y: float) -> float:
    """The inverse of :func:`_erfc`: a rational first guess refined by two Newton steps."""
    if y >= 2:
        return -100.0
    if y <= 0:
        return 100.0
    half = y if y < 1 else 2 - y
    t = math.sqrt(-2 * math.log(half / 2))
    r = -0.70711 * ((2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t)
    for _ in range(2):
        error = _erfc(r) - half
        r = r + error / (1.12837916709551257 * math.exp(-(r * r)) - r * error)
    return r if y < 1 else -r


def _cdf(x: float) -> float:
    return 0.5 * _erfc(-(x - 0) / (1.0 * math.sqrt(2)))


def _pdf(x: float) -> float:
    return math.exp(-((x - 0) ** 2) / (2 * 1)) / (1.0 * math.sqrt(2 * math.pi))


def _ppf(p: float) -> float:
    return 0 - 1.0 * math.sqrt(2) * _erfc_inverse(2 * p)


def _draw_margin(beta: float) -> float:
    return _ppf((TRUESKILL_DRAW_PROBABILITY + 1) / 2) * math.sqrt(2) * beta
