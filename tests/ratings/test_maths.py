"""The three rating steps against cases worked by hand or published (``spec/ratings.md`` §2)."""

from __future__ import annotations

import pytest

from arbiter.ratings.maths import (
    GLICKO_START,
    TRUESKILL_START,
    Glicko,
    Opponent,
    TrueSkill,
    elo,
    glicko2,
    glicko2_idle,
    trueskill,
)


def test_elo_sequence_worked_by_hand() -> None:
    # 1200 v 1200 drawn: both expected ½, nothing moves.
    assert elo(1200, 1200, 0.5) == (1200, 1200)
    # 1200 v 1200, the first loses: 1200 - 30·½ = 1185, 1200 + 30·½ = 1215.
    assert elo(1200, 1200, 0) == (1185, 1215)
    # 1200 beats 1185: 10^(-15/400) = 0.9172759, so the winner expected 1 / 1.9172759 =
    # 0.5215733: 1200 + 30·0.4784267 = 1214.3528 and 1185 - 14.3528 = 1170.6472.
    won, lost = elo(1200, 1185, 1)
    assert won == pytest.approx(1214.3528, abs=1e-4)
    assert lost == pytest.approx(1170.6472, abs=1e-4)


def test_glickman_example() -> None:
    # Glickman, "Example of the Glicko-2 system", section "Example calculation": a player
    # of 1500 / 200 / 0.06 beats 1400 / 30 and loses to 1550 / 100 and 1700 / 300 (tau 0.5):
    # 1464.06, 151.52, 0.05999 in the paper, which rounds every step (unrounded: 1464.05).
    after = glicko2(
        Glicko(1500, 200, 0.06),
        [Opponent(1400, 30, 1), Opponent(1550, 100, 0), Opponent(1700, 300, 0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko_idle_period_grows_the_deviation_only() -> None:
    # phi* = sqrt(phi² + sigma²) on the Glicko-2 scale: 200 / 173.7178 = 1.151293, and
    # sqrt(1.151293² + 0.06²) · 173.7178 = 200.27 (Glickman, step 6 for a player who did not play).
    after = glicko2_idle(Glicko(1500, 200, 0.06))
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(200.2714, abs=1e-4)


def test_glicko_first_game_matches_the_reference_program() -> None:
    # glicko2-lite 4.0.0 (Abstract Play's) on a first game between new players.
    after = glicko2(GLICKO_START, [Opponent(1500, 350, 1)])
    assert after == (1662.3108939062977, 290.31896371798047, 0.05999967537233814)


def test_trueskill_pair_matches_the_reference_program() -> None:
    # ts-trueskill 3.3.0 with beta 25/9 (Abstract Play's), new players, the first wins.
    won, lost = trueskill(TRUESKILL_START, TRUESKILL_START)
    assert won == (29.60293153034965, 7.020464033652921)
    assert lost.mu == pytest.approx(20.39706846965034, abs=1e-12)
    assert lost.sigma == won.sigma


def test_trueskill_draw_keeps_equal_players_equal_and_narrows_them() -> None:
    first, second = trueskill(TRUESKILL_START, TRUESKILL_START, drawn=True)
    assert first.mu == pytest.approx(25) and second.mu == pytest.approx(25)
    assert first.sigma < TRUESKILL_START.sigma


def test_trueskill_win_of_the_weaker_moves_more() -> None:
    strong, weak = TrueSkill(30, 4), TrueSkill(20, 4)
    up_weak, _ = trueskill(weak, strong)
    up_strong, _ = trueskill(strong, weak)
    assert up_weak.mu - weak.mu > up_strong.mu - strong.mu > 0
