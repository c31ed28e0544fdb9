"""Abstract Play's raters: each check that leaves a record out, the pools, the orders the
raters read in, and the numbers of the reference program (``spec/ratings.md`` §3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbiter.ratings import rate_abstractplay
from arbiter.ratings.abstractplay import RecordProblem, date_milliseconds


def record(gid: object = "1", a: str | None = "a", b: str | None = "b", ra: int = 1,
           rb: int = 0, end: str = "2025-01-01T00:00:00.000Z", rounds: int = 3,
           **header: Any) -> dict[str, Any]:  # fmt: skip
    players = [{"name": a, "result": ra}, {"name": b, "result": rb}]
    for player, user in zip(players, (a, b), strict=True):
        if user is not None:
            player["userid"] = user
    site: dict[str, Any] = {"name": "S"}
    if gid is not None:
        site["gameid"] = gid
    return {
        "header": {"game": {"name": "G"}, "site": site, "date-end": end, "players": players,
                   **header},
        "moves": [["x", "y"]] * rounds,
    }  # fmt: skip


def run(*records: dict[str, Any]) -> dict[str, Any]:
    return rate_abstractplay([("f.json", json.dumps(list(records)).encode())]).to_dict()


def reasons(result: dict[str, Any]) -> list[tuple[int, str, list[str]]]:
    return [(e["index"], e["reason"], e["raters"]) for e in result["excluded"]]


ALL = ["elo", "glicko", "trueskill"]


@pytest.mark.parametrize(
    ("second", "reason"),
    [
        (record(gid=None), "no-game-id"),
        (record(gid="1"), "duplicate"),
        (record(gid="2", players_extra=True), None),
        (record(gid="2", unrated=True), "unrated"),
        (record(gid="2", rounds=2), "too-short"),
        (record(gid="2", b=None), "no-user-id"),
        (record(gid="2", a=""), "no-user-id"),
    ],
)
def test_each_check_leaves_out_its_record(second: dict[str, Any], reason: str | None) -> None:
    result = run(record(gid="1"), second)
    assert reasons(result) == ([] if reason is None else [(1, reason, ALL)])
    assert result["pools"][0]["rated"] == (2 if reason is None else 1)


def test_three_players_are_not_rated() -> None:
    three = record(gid="2")
    three["header"]["players"].append({"name": "c", "userid": "c", "result": 0})
    assert reasons(run(record(), three)) == [(1, "not-two-players", ALL)]


def test_a_number_id_is_the_same_id_as_its_text() -> None:
    assert reasons(run(record(gid="7"), record(gid=7))) == [(1, "duplicate", ALL)]


def test_a_duplicate_counts_even_after_its_first_copy_was_left_out() -> None:
    # the id is taken before the later checks: an unrated first copy still makes the
    # second a duplicate
    result = run(record(gid="1", unrated=True), record(gid="1"))
    assert reasons(result) == [(0, "unrated", ALL), (1, "duplicate", ALL)]


def test_elo_keeps_the_earlier_copy_by_date_glicko_the_first_in_the_file() -> None:
    later = record(gid="1", end="2025-01-02T00:00:00.000Z")
    earlier = record(gid="1", a="c", end="2025-01-01T00:00:00.000Z")
    assert reasons(run(later, earlier)) == [(0, "duplicate", ["elo", "trueskill"]),
                                            (1, "duplicate", ["glicko"])]  # fmt: skip


def test_date_end_is_ordered_as_javascript_compares_it() -> None:
    # localeCompare puts ':' before '+': 10:00:00Z comes before 10:00+00:00 (the same
    # moment), though its code points come after. So b first loses to a, then beats c; in
    # code point order b would beat c first.
    one = record(gid="1", a="b", b="c", end="2025-01-01T10:00+00:00")
    two = record(gid="2", a="a", b="b", end="2025-01-01T10:00:00Z")
    players = {p["player"]: p for p in run(one, two)["pools"][0]["players"]}
    assert list(players) == ["a", "b", "c"]  # in the order Elo met them
    assert players["b"]["elo"] == pytest.approx(1185 + 30 * (1 - 1 / (1 + 10 ** (15 / 400))))


def test_pools_by_game_and_sorted_variants() -> None:
    one = record(gid="1", end="2025-01-01T00:00:00Z")
    one["header"]["game"]["variants"] = ["b", "a"]
    two = record(gid="2")
    two["header"]["game"]["variants"] = ["a", "b"]
    three = record(gid="3")
    assert [p["pool"] for p in run(one, two, three)["pools"]] == ["G (a|b)", "G (no variants)"]


def test_the_three_raters_match_the_reference_program() -> None:
    # recranks at 554e265 (ELOBasic, Glicko2 in one period, Trueskill with beta 25/9)
    # on these three records, run by node 20.
    result = run(
        record(gid="1", ra=1, rb=1, end="2025-01-01T00:00:00.000Z"),
        record(gid="2", ra=0, rb=1, end="2025-01-02T00:00:00.000Z"),
        record(gid="3", a="c", b="a", end="2025-01-03T00:00:00.000Z"),
    )
    a, b, c = result["pools"][0]["players"]
    assert (a["games"], a["wins"], a["losses"], a["draws"]) == (3, 0, 2, 1)
    assert a["elo"] == pytest.approx(1170.6471999915343, rel=1e-14)
    assert c["elo"] == pytest.approx(1214.3528000084657, rel=1e-14)
    assert b["elo"] == 1215
    assert a["glicko"]["rating"] == pytest.approx(1300.2494675240077, rel=1e-12)
    assert a["glicko"]["rd"] == pytest.approx(227.73540056713045, rel=1e-12)
    assert b["glicko"]["volatility"] == pytest.approx(0.05999883192119179, rel=1e-12)
    assert a["trueskill"]["mu"] == pytest.approx(20.011708551576024, rel=1e-13)
    assert b["trueskill"]["sigma"] == pytest.approx(5.284183705424005, rel=1e-13)
    assert c["trueskill"]["mu"] == pytest.approx(29.164639934947246, rel=1e-13)


def test_glicko_periods_carry_ratings_over() -> None:
    # two periods (61 days apart): b, absent from the second, keeps the first's rating
    first = record(gid="1", end="2025-01-01T00:00:00Z")
    second = record(gid="2", a="a", b="c", end="2025-03-03T00:00:00Z")
    players = {p["player"]: p for p in run(first, second)["pools"][0]["players"]}
    assert players["b"]["glicko"]["rating"] == pytest.approx(1337.6891060937023)
    assert players["a"]["glicko"]["rating"] > 1662.3108939062977


@pytest.mark.parametrize(
    ("obj", "pointer"),
    [
        ({"header": []}, "/header"),
        ({"header": {"game": {"name": 3}}}, "/header/site"),
        (dict(record(), header={**record()["header"], "unrated": "yes"}), "/header/unrated"),
        (dict(record(), header={**record()["header"], "date-end": "yesterday"}),
         "/header/date-end"),
    ],
)  # fmt: skip
def test_a_record_of_the_wrong_shape_is_left_out_where_it_fails(obj: Any, pointer: str) -> None:
    result = run(obj)
    assert result["excluded"][0]["reason"] == "unreadable"
    assert result["excluded"][0]["message"].startswith(pointer)


def test_dates_as_javascript_reads_them() -> None:
    assert date_milliseconds("1970-01-01T00:00:01.5Z") == 1500
    assert date_milliseconds("1970-01-01T01:00+01:00") == 0
    assert date_milliseconds("1970-01-02") == 86_400_000
    with pytest.raises(RecordProblem):
        date_milliseconds("2025-02-30T00:00Z")
