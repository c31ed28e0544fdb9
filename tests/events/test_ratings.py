"""The server's rating list (spec/ratings.md §6, spec/pairings.md §8): every event's games
that count, each with the result that counts (the director's where set), rated in the
default mode; a player's Elo before and after an event and their performance; a new paired
event's players rated from a pool, so that the pairing numbers follow those ratings."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import arbiter
from arbiter.notation.ast import Tag
from arbiter.notation.grn_writer import write_grn
from arbiter.ratings import maths
from arbiter.service import create_app
from tests.events.conftest import bearer, body, create

POOL = "Pilo 6x6"


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": f"sqlite:///{tmp_path / 'events.db'}"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def game(event: str, round_number: int, blue: str, orange: str, result: str, day: int) -> str:
    """A short legal Pilo game that ends with ``result`` claimed (a resignation, or ``*``)."""
    played = arbiter.Game("Pilo", 6)
    for _ in range(4):
        played.play(next(iter(played.legal_moves())))
    tags = (Tag("Event", event), Tag("Round", str(round_number)), Tag("Date", f"2026.03.{day:02}"))
    record = played.record().replace(tags=tags, players=(("Blue", blue), ("Orange", orange)),
                                      result=result)  # fmt: skip
    return write_grn(record)


def upload(client: FlaskClient, event: str, token: str, *texts: str) -> list[dict[str, Any]]:
    answer = client.post(f"/api/v1/events/{event}/records", data="\n".join(texts).encode(),
                         content_type="text/plain", headers=bearer(token))  # fmt: skip
    assert answer.status_code in (200, 201), answer.json
    return list(body(answer)["uploads"][0]["records"])


def official(client: FlaskClient, event: str, token: str, number: int, result: str) -> Any:
    """The director sets record ``number``'s official result."""
    path = f"/api/v1/events/{event}/records/{number}/result"
    return client.put(path, json={"result": result, "reason": "r"}, headers=bearer(token))


def listed(client: FlaskClient, query: str = "") -> dict[tuple[str, str], dict[str, str]]:
    answer = client.get(f"/ratings?format=csv{query}")
    assert answer.status_code == 200 and answer.content_type.startswith("text/csv")
    rows = csv.DictReader(io.StringIO(answer.get_data(as_text=True)))
    return {(row["pool"], row["player"]): row for row in rows}


def test_the_list_rates_the_result_that_counts_and_follows_every_change(
    client: FlaskClient,
) -> None:
    event, token = create(client, name="Spring")
    first, unfinished = upload(client, event, token, game("Spring", 1, "Ana", "Bo", "Blue+R", 1),
                               game("Spring", 2, "Cy", "Ana", "*", 2))  # fmt: skip
    assert {row["player"] for row in listed(client).values()} == {"Ana", "Bo"}  # * is no game
    # the director's official results: the unfinished game won by Cy, the first by Bo
    for number, result in ((unfinished["record"], "Blue+R"), (first["record"], "Orange+R")):
        answer = official(client, event, token, number, result)
        assert answer.status_code == 200, answer.json
    rows = listed(client)
    assert {player: row["wins"] for (_, player), row in rows.items()} == {
        "Ana": "0", "Bo": "1", "Cy": "1",
    }  # fmt: skip
    bo, ana = maths.elo(maths.ELO_START, maths.ELO_START, 1.0)
    cy, ana = maths.elo(maths.ELO_START, ana, 1.0)
    assert float(rows[POOL, "Ana"]["elo"]) == ana
    # a forfeit set by the director takes the game out of the list
    assert official(client, event, token, first["record"], "Orange+F").status_code == 200
    assert set(listed(client)) == {(POOL, "Ana"), (POOL, "Cy")}


def test_a_players_page_gives_elo_before_and_after_the_event_and_the_performance(
    client: FlaskClient,
) -> None:
    early, early_token = create(client, name="Early")
    upload(client, early, early_token, game("Early", 1, "Ana", "Bo", "Blue+R", 1))
    late, late_token = create(client, name="Late")
    upload(client, late, late_token, game("Late", 1, "Cy", "Ana", "Orange+R", 5),
           game("Late", 2, "Ana", "Bo", "Orange+R", 6))  # fmt: skip
    before, bo = maths.elo(maths.ELO_START, maths.ELO_START, 1.0)
    _, ana = maths.elo(maths.ELO_START, before, 0.0)  # Ana won as Orange, against Cy at 1200
    after, _ = maths.elo(ana, bo, 0.0)  # and lost to Bo
    performance = (maths.ELO_START + bo + 400 * (1 - 1)) / 2
    page = client.get(f"/events/{late}/players/{_number(client, late, 'Ana')}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'<span class="nums">{before:.0f}</span> before this event' in text
    assert f'<span class="nums">{after:.0f}</span> after it' in text
    assert f'performance <span class="nums">{performance:.0f}</span>' in text


def _number(client: FlaskClient, event: str, name: str) -> int:
    found = client.get(f"/events/{event}/find?name={name}")
    assert found.status_code == 303, found.status_code
    return int(found.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def test_a_paired_event_takes_its_players_ratings_from_a_pool(client: FlaskClient) -> None:
    rated, token = create(client, name="Rated")
    upload(client, rated, token, game("Rated", 1, "Ana", "Bo", "Blue+R", 1),
           game("Rated", 2, "Bo", "Cy", "Orange+R", 2))  # fmt: skip
    rows = listed(client)
    paired, director = create(client, name="Paired", pairing="dutch", rounds=3)
    given = [{"name": "Bo"}, {"name": "Zed"}, {"name": " Cy "}, {"name": "Ana", "rating": 1000}]
    answer = client.post(f"/api/v1/events/{paired}/players", headers=bearer(director),
                         json={"players": given, "ratings_from": POOL})  # fmt: skip
    assert answer.status_code == 201, answer.json
    players = {p["name"]: p for p in body(answer)["players"]}
    assert players["Bo"]["rating"] == round(float(rows[POOL, "Bo"]["elo"]))
    assert players["Cy"]["rating"] == round(float(rows[POOL, "Cy"]["elo"]))
    assert players["Ana"]["rating"] == 1000  # a rating given stays
    assert players["Zed"]["rating"] is None  # not in the pool: unrated
    by_rating = sorted(("Bo", "Cy"), key=lambda name: -players[name]["rating"])
    numbers = [p["name"] for p in sorted(players.values(), key=lambda p: p["number"])]
    assert numbers == [*by_rating, "Ana", "Zed"]


@pytest.mark.parametrize(
    ("ratings_from", "status", "code"),
    [("Pilo 9x9", 422, "no-such-pool"), (7, 400, "bad-field"), ("", 400, "bad-field")],
)
def test_a_pool_that_is_not_in_the_list_is_refused(
    client: FlaskClient, ratings_from: object, status: int, code: str
) -> None:
    paired, director = create(client, name="Paired", pairing="dutch", rounds=3)
    given = {"players": [{"name": "Ana"}], "ratings_from": ratings_from}
    answer = client.post(f"/api/v1/events/{paired}/players", headers=bearer(director), json=given)
    assert answer.status_code == status
    assert body(answer)["error"]["code"] == code
    assert client.get(f"/api/v1/events/{paired}/players").json == {"players": []}


def test_ratings_from_goes_with_a_list_of_players(client: FlaskClient) -> None:
    paired, director = create(client, name="Paired", pairing="dutch", rounds=3)
    answer = client.post(f"/api/v1/events/{paired}/players", headers=bearer(director),
                         json={"name": "Ana", "ratings_from": POOL})  # fmt: skip
    assert answer.status_code == 400 and body(answer)["error"]["field"] == "ratings_from"


def test_the_page_escapes_names_and_says_what_is_missing(client: FlaskClient) -> None:
    event, token = create(client, name="Spring")
    upload(client, event, token, game("Spring", 1, "<b>Ana</b>", "Bo", "Blue+R", 1))
    page = client.get("/ratings").get_data(as_text=True)
    assert "&lt;b&gt;Ana&lt;/b&gt;" in page and "<b>Ana" not in page
    assert client.get("/ratings?pool=Pilo+6x6").status_code == 200
    missing = client.get("/ratings?pool=%3Ci%3Enone")
    assert missing.status_code == 404 and "&lt;i&gt;none" in missing.get_data(as_text=True)
    wrong = client.get("/ratings?format=xml")
    assert wrong.status_code == 400 and wrong.json is not None


def test_two_events_of_one_name_are_two_events(client: FlaskClient) -> None:
    for _ in range(2):
        event, token = create(client, name="Open")
        upload(client, event, token, game("Open", 1, "Ana", "Bo", "Blue+R", 1))
    assert listed(client)[POOL, "Ana"]["games"] == "2"
