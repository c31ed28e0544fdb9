"""arbiter's own ratings (``spec/ratings.md`` §4): official results, players by name, a pool
per game and board size, date order, Glicko-2's periods with Glickman's step for a player
who did not play. Each test is written so that another reading of its rule fails it."""

from __future__ import annotations

import json
from typing import Any

import arbiter
from arbiter.adjudicator.abstractplay import abstractplay_object
from arbiter.ratings import maths, rate

ANA, BO, CY, DI = "Ana", "Bo", "Cy", "Di"


def grn(
    winner: str,
    loser: str,
    date: str | None = "2025.01.01",
    game: str = "Pilo",
    size: int = 4,
    how: str = "R",
    swap: bool = False,
    first_wins: bool = True,
) -> str:
    """A record in which ``winner`` beats ``loser`` by ``how`` (R, T, F) after one move
    (and the pie, with ``swap``); ``winner`` holds the first colour at the start unless
    ``first_wins`` is false."""
    played = arbiter.Game(game, size=size, komi=0 if game == "Pletore" else None)
    first, second = played.description.colours
    played.play(played.rules.written(played.state, next(played.legal_moves())))
    if swap:
        played.play("swap")
    start = {first: winner, second: loser} if first_wins else {first: loser, second: winner}
    # colours in a result are as at the end: a swap gives each player the other colour
    holds = first if first_wins != swap else second
    tags = {} if date is None else {"Date": date}
    record = played.record(players=start, tags=tags, result=f"{holds}+{how}")
    return arbiter.write_grn(record)


def run(*texts: str) -> dict[str, Any]:
    return rate([(f"{n}.grn", text.encode()) for n, text in enumerate(texts)]).to_dict()


def elo_of(result: dict[str, Any], pool: str) -> dict[str, float]:
    found = next(p for p in result["pools"] if p["pool"] == pool)
    return {p["player"]: p["elo"] for p in found["players"]}


def test_a_pool_per_game_and_board_size() -> None:
    result = run(grn(ANA, BO), grn(ANA, BO, size=6), grn(ANA, BO, game="Pletore", size=5))
    assert [p["pool"] for p in result["pools"]] == ["Pilo 4x4", "Pilo 6x6", "Pletore 5x5"]
    for pool in result["pools"]:  # each the first game of its two players
        assert pool["rated"] == 1
        assert elo_of(result, pool["pool"]) == {ANA: 1215, BO: 1185}


def test_the_winner_is_the_player_named_whatever_the_colours() -> None:
    # Ana starts with the first colour, the pie gives her the second, and the result names
    # the second colour: Ana won. Reading the colour as the player tags give it would make
    # Bo the winner.
    result = run(grn(ANA, BO, swap=True), grn(ANA, CY, first_wins=False))
    assert elo_of(result, "Pilo 4x4")[ANA] > 1229
    assert elo_of(result, "Pilo 4x4")[BO] == 1185


def test_a_player_is_one_player_however_the_name_is_spaced() -> None:
    result = run(grn(ANA, "Bo  Lee"), grn(" Bo Lee ", CY, date="2025.01.02"))
    players = {p["player"]: p for p in result["pools"][0]["players"]}
    assert set(players) == {ANA, "Bo Lee", CY}
    assert (players["Bo Lee"]["games"], players["Bo Lee"]["wins"]) == (2, 1)


def test_a_forfeit_is_not_rated_a_resignation_and_a_loss_on_time_are() -> None:
    result = run(grn(ANA, BO, how="F"), grn(ANA, BO, how="T"), grn(BO, ANA, how="R"))
    assert [(e["index"], e["file"], e["reason"]) for e in result["excluded"]] == [
        (0, "0.grn", "forfeit")
    ]
    assert result["pools"][0]["rated"] == 2


def test_a_game_without_an_official_result_or_a_date_is_said_not_dropped() -> None:
    unfinished = grn(ANA, BO).replace("Blue+R", "*")
    result = run(unfinished, grn(ANA, BO, date=None), grn(ANA, BO, date="2025.??.??"))
    assert [e["reason"] for e in result["excluded"]] == ["no-result", "no-date", "no-date"]
    assert result["pools"] == []


def test_elo_reads_the_games_in_date_order_not_in_file_order() -> None:
    later = grn(ANA, BO, date="2025.03.01")
    earlier = grn(CY, ANA, date="2025.02.01")
    cy, ana = maths.elo(maths.ELO_START, maths.ELO_START, 1.0)
    ana, bo = maths.elo(ana, maths.ELO_START, 1.0)
    assert elo_of(run(later, earlier), "Pilo 4x4") == {ANA: ana, BO: bo, CY: cy}


def glicko_of(result: dict[str, Any], player: str) -> maths.Glicko:
    found = next(p for p in result["pools"][0]["players"] if p["player"] == player)
    return maths.Glicko(**found["glicko"])


def test_a_player_absent_from_a_period_gets_glickmans_idle_step() -> None:
    # Ana and Bo play on day 0; Cy and Di 130 days later, in the third period: the second
    # period has no game. Ana is rated in the first and idle in the next two.
    result = run(grn(ANA, BO), grn(CY, DI, date="2025.05.11"))
    after = maths.glicko2(maths.GLICKO_START, [maths.Opponent(1500, 350, 1.0)])
    idle = maths.glicko2_idle
    assert glicko_of(result, ANA) == idle(idle(after))
    assert glicko_of(result, ANA).rd > after.rd  # not kept as it was, as Abstract Play does
    assert glicko_of(result, ANA).rating == after.rating
    # Cy and Di played in the last period: no period after the last game is rated
    assert glicko_of(result, CY) == after


def test_the_idle_step_grows_the_deviation_by_the_volatility() -> None:
    before = maths.Glicko(1700.0, 80.0, 0.06)
    phi = before.rd / maths.GLICKO_SCALE
    grown = maths.glicko2_idle(before)
    assert grown.rd == (phi * phi + before.volatility**2) ** 0.5 * maths.GLICKO_SCALE
    assert (grown.rating, grown.volatility) == (before.rating, before.volatility)


def test_a_second_record_of_a_pairing_in_an_events_round_is_rated_once() -> None:
    def of(round_number: str, text: str) -> str:
        return f'[Event "Open"]\n[Round "{round_number}"]\n{text}'

    again = of("1", grn(BO, ANA, first_wins=False))  # either colours, either winner
    result = run(of("1", grn(ANA, BO)), again, of("2", grn(ANA, BO)), grn(ANA, BO))
    assert [(e["file"], e["reason"]) for e in result["excluded"]] == [("1.grn", "duplicate")]
    assert "0.grn record 0" in result["excluded"][0]["message"]
    assert result["pools"][0]["rated"] == 3  # another round, and a game of no event, count


def test_abstract_play_records_are_rated_by_their_players_names() -> None:
    played = arbiter.Game("Pletore", size=5, komi=0)
    while not played.is_over():
        played.play(next(played.legal_moves()))
    value = abstractplay_object(played.record(players={"Black": ANA, "White": BO}))
    value["header"]["date-end"] = "2025-03-01T10:00:00.000Z"
    result = rate([("site.json", json.dumps([value]).encode())])
    assert result.excluded == ()
    assert result.pools[0].pool == "Pletore 5x5"
    assert [(p.player, p.games) for p in result.pools[0].players] == [(ANA, 1), (BO, 1)]
