"""The event as it happens (spec/pairings.md §9), through the API on SQLite and PostgreSQL:
players check in (by the director or with their own token) and only they are paired; a
round paired as a draft is the director's alone until published; players report their own
boards, two reports that agree give the result, two that differ make the board disputed
until the director decides. The trail replays it all (verification)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.web import create_app
from tests.events.conftest import bearer, body
from tests.events.test_archive import db
from tests.events.test_paired import game_text, upload
from tests.events.test_trail import _sql

NAMES = [("Ana", 2100), ("Bo", 2000), ("Cy", 1900), ("Di", 1800), ("Ed", 1700), ("Flo", 1600)]


def call(
    client: FlaskClient, method: str, path: str, token: str | None, payload: Any = None
) -> Any:
    headers = bearer(token) if token else {}
    return client.open(path, method=method, json=payload, headers=headers)


@pytest.fixture
def live(client: FlaskClient) -> tuple[str, str]:
    """A Dutch event of six players that checks its players in."""
    made = client.post(
        "/api/v1/events",
        json={"name": "Hall Open", "game": "Pilo", "rounds": 3, "pairing": "dutch",
              "check_in": True},
    )  # fmt: skip
    assert made.status_code == 201, made.json
    event, token = body(made)["id"], body(made)["token"]
    players = [{"name": name, "rating": rating} for name, rating in NAMES]
    added = call(client, "POST", f"/api/v1/events/{event}/players", token, {"players": players})
    assert added.status_code == 201, added.json
    return event, token


def player_token(client: FlaskClient, event: str, director: str, number: int) -> str:
    made = call(client, "POST", f"/api/v1/events/{event}/tokens", director,
                {"role": "player", "label": f"player {number}", "player": number})  # fmt: skip
    assert made.status_code == 201, made.json
    return str(body(made)["token"])


def test_only_the_players_checked_in_are_paired_and_the_others_are_absent(
    client: FlaskClient, live: tuple[str, str]
) -> None:
    event, director = live
    base = f"/api/v1/events/{event}"
    assert body(client.get(base))["check_in"] is True
    mine = player_token(client, event, director, 2)
    assert call(client, "POST", f"{base}/players/2/check-in", mine).status_code == 200
    refused = call(client, "POST", f"{base}/players/3/check-in", mine)
    assert refused.status_code == 403 and body(refused)["error"]["code"] == "not-your-player"
    for number in (1, 3, 4, 5):
        checked = call(client, "POST", f"{base}/players/{number}/check-in", director)
        assert checked.status_code == 200
    again = call(client, "POST", f"{base}/players/5/check-in", director)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    undone = call(client, "DELETE", f"{base}/players/5/check-in", director)
    assert undone.status_code == 200 and body(undone)["checked_in"] is False
    twice = call(client, "DELETE", f"{base}/players/5/check-in", director)  # sent again
    assert twice.status_code == 200 and twice.headers.get("Idempotent-Replayed") == "true"
    assert body(twice)["receipt"] == body(undone)["receipt"]
    never = call(client, "DELETE", f"{base}/players/6/check-in", director)
    assert never.status_code == 404 and body(never)["error"]["code"] == "not-checked-in"
    listed = {p["number"]: p["checked_in"] for p in body(client.get(f"{base}/players"))["players"]}
    assert listed == {1: True, 2: True, 3: True, 4: True, 5: False, 6: False}
    paired = call(client, "POST", f"{base}/rounds", director)
    assert paired.status_code == 201, paired.json
    round_one = body(paired)
    seated = {n for b in round_one["boards"] for n in (b["first_number"], b["second_number"])}
    assert seated == {1, 2, 3, 4}
    away = {bye["number"]: bye["kind"] for bye in round_one["byes"]}
    assert away == {5: "not-checked-in", 6: "not-checked-in"}
    late = call(client, "POST", f"{base}/players/6/check-in", director, {"round": 1})
    assert late.status_code == 409 and body(late)["error"]["code"] == "round-already-paired"
    for board in (1, 2):
        call(client, "PUT", f"{base}/rounds/1/boards/{board}/result", director,
             {"result": "1-0", "reason": "over the board"})  # fmt: skip
    trf = client.get(f"{base}/standings?format=trf").get_data(as_text=True)
    lines = [line for line in trf.splitlines() if line[:3] == "001"]
    rounds = {int(line[4:8]): line[91:101].rstrip() for line in lines}
    assert rounds[5] == rounds[6] == "0000 - Z", trf
    assert rounds[1][:4] != "0000"
    assert "### CHK" in trf
    assert body(client.get(f"{base}/verify"))["valid"] is True


def test_an_event_without_check_in_refuses_one(client: FlaskClient) -> None:
    made = client.post("/api/v1/events", json={"name": "Open", "game": "Pilo", "rounds": 3,
                                               "pairing": "dutch"})  # fmt: skip
    event, director = body(made)["id"], body(made)["token"]
    call(client, "POST", f"/api/v1/events/{event}/players", director, {"name": "Ana"})
    refused = call(client, "POST", f"/api/v1/events/{event}/players/1/check-in", director)
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "no-check-in"
    unpaired = client.post("/api/v1/events", json={"name": "U", "game": "Pilo", "check_in": True})
    assert unpaired.status_code == 400 and body(unpaired)["error"]["field"] == "check_in"


def test_a_draft_is_the_directors_until_published(
    client: FlaskClient, live: tuple[str, str]
) -> None:
    event, director = live
    base = f"/api/v1/events/{event}"
    for number in (1, 2, 3, 4):
        call(client, "POST", f"{base}/players/{number}/check-in", director)
    drafted = call(client, "POST", f"{base}/rounds", director, {"draft": True})
    assert drafted.status_code == 201 and body(drafted)["draft"] is True
    assert len(body(drafted)["boards"]) == 2
    hidden = client.get(f"{base}/rounds/1")
    assert hidden.status_code == 404 and body(hidden)["error"]["code"] == "no-such-round"
    assert body(client.get(f"{base}/rounds"))["rounds"] == []
    assert client.get(f"/events/{event}/rounds/1").status_code == 404
    shown = call(client, "GET", f"{base}/rounds/1", director)
    assert shown.status_code == 200 and body(shown)["draft"] is True
    assert "no-store" in shown.headers["Cache-Control"]
    # a record of the draft's players finds no board; the draft takes no result
    first = body(drafted)["boards"][0]
    kept = upload(
        client,
        event,
        director,
        game_text("Hall Open", 1, first["first"], first["second"], first["first"]),
    )
    assert kept["placement"] == "wrong-round"
    given = call(client, "PUT", f"{base}/rounds/1/boards/1/result", director,
                 {"result": "1-0", "reason": "no-show"})  # fmt: skip
    assert given.status_code == 409 and body(given)["error"]["code"] == "round-is-draft"
    # a late arrival checks in; the draft is paired again and takes them
    call(client, "POST", f"{base}/players/5/check-in", director)
    call(client, "POST", f"{base}/players/6/check-in", director)
    again = call(client, "POST", f"{base}/rounds", director, {"draft": True})
    assert again.status_code == 201 and len(body(again)["boards"]) == 3
    pairings = [e for e in body(client.get(f"{base}/log"))["log"] if e["action"] == "round-paired"]
    assert [e["details"] for e in pairings] == [
        {"round": 1, "boards": [], "byes": [], "draft": True, "withheld": True}
    ] * 2
    trf = client.get(f"{base}/standings?format=trf").get_data(as_text=True)
    assert "its boards shown once published" in trf and " 1:" not in trf
    published = call(client, "POST", f"{base}/rounds/1/publish", director)
    assert published.status_code == 200 and body(published)["draft"] is False
    twice = call(client, "POST", f"{base}/rounds/1/publish", director)
    assert twice.status_code == 200 and twice.headers.get("Idempotent-Replayed") == "true"
    public = client.get(f"{base}/rounds/1")
    assert public.status_code == 200 and len(body(public)["boards"]) == 3
    trail = body(client.get(f"{base}/log"))["log"]
    assert [e["action"] for e in trail].count("round-paired") == 2
    assert trail[-1]["action"] == "round-published"
    shown = [e["details"] for e in trail if e["action"] == "round-paired"]
    assert len(shown[0]["boards"]) == 2 and len(shown[1]["boards"]) == 3
    assert body(client.get(f"{base}/verify"))["valid"] is True


def test_players_report_their_boards_and_the_director_decides_a_dispute(
    client: FlaskClient, live: tuple[str, str]
) -> None:
    event, director = live
    base = f"/api/v1/events/{event}"
    tokens = {n: player_token(client, event, director, n) for n in range(1, 7)}
    for number in range(1, 7):
        checked = call(client, "POST", f"{base}/players/{number}/check-in", tokens[number])
        assert checked.status_code == 200
    boards = body(call(client, "POST", f"{base}/rounds", director))["boards"]
    one, two, three = boards
    path = f"{base}/rounds/1/boards"
    # board 1: both players report 1-0: it is the board's result
    first = call(client, "POST", f"{path}/1/report", tokens[one["first_number"]], {"result": "1-0"})
    assert first.status_code == 200, first.json
    assert body(first)["boards"][0]["state"] == "reported"
    agreed = call(client, "POST", f"{path}/1/report", tokens[one["second_number"]],
                  {"result": "1-0"})  # fmt: skip
    board = body(agreed)["boards"][0]
    assert (board["state"], board["result"]) == ("result", "1-0")
    late = call(client, "POST", f"{path}/1/report", tokens[one["second_number"]], {"result": "0-1"})
    assert late.status_code == 409 and body(late)["error"]["code"] == "board-has-a-result"
    # board 2: they differ: disputed, then the director decides
    call(client, "POST", f"{path}/2/report", tokens[two["first_number"]], {"result": "1-0"})
    split = call(client, "POST", f"{path}/2/report", tokens[two["second_number"]],
                 {"result": "0-1"})  # fmt: skip
    assert body(split)["boards"][1]["state"] == "disputed"
    assert body(split)["boards"][1]["reports"] == {"first": "1-0", "second": "0-1"}
    assert body(split)["waiting"] == [2, 3]
    decided = call(client, "PUT", f"{path}/2/result", director,
                   {"result": "0-1", "reason": "the scoresheet shows Orange won"})  # fmt: skip
    assert body(decided)["boards"][1]["state"] == "director"
    # who may report: not another board's player, not an upload token, not the director
    other = call(client, "POST", f"{path}/3/report", tokens[one["first_number"]], {"result": "1-0"})
    assert other.status_code == 403 and body(other)["error"]["code"] == "not-your-board"
    upload_token = body(call(client, "POST", f"{base}/tokens", director,
                             {"role": "upload", "label": "deputy"}))["token"]  # fmt: skip
    deputy = call(client, "POST", f"{path}/3/report", upload_token, {"result": "1-0"})
    assert deputy.status_code == 403 and body(deputy)["error"]["code"] == "not-allowed"
    own = call(client, "POST", f"{path}/3/report", director, {"result": "1-0"})
    assert own.status_code == 403
    bad = call(client, "POST", f"{path}/3/report", tokens[three["first_number"]], {"result": "2-0"})
    assert bad.status_code == 400 and body(bad)["error"]["field"] == "result"
    # board 3 agreed, so the round is finished and the next pairs with the reported points
    for seat in ("first_number", "second_number"):
        call(client, "POST", f"{path}/3/report", tokens[three[seat]], {"result": "0-1"})
    table = body(client.get(f"{base}/players"))["players"]
    points = {p["number"]: p["points"] for p in table}
    assert points[one["first_number"]] == 1 and points[one["second_number"]] == 0
    assert points[two["second_number"]] == 1 and points[three["second_number"]] == 1
    assert body(client.get(f"{base}/verify"))["valid"] is True
    for number in range(1, 7):
        call(client, "POST", f"{base}/players/{number}/check-in", tokens[number])
    assert call(client, "POST", f"{base}/rounds", director).status_code == 201


def test_check_ins_and_reports_are_verified_and_carried_by_an_archive(
    app: Flask, client: FlaskClient, live: tuple[str, str], tmp_path: Path
) -> None:
    event, director = live
    base = f"/api/v1/events/{event}"
    tokens = {n: player_token(client, event, director, n) for n in range(1, 7)}
    for number in range(1, 6):
        call(client, "POST", f"{base}/players/{number}/check-in", tokens[number])
    boards = body(call(client, "POST", f"{base}/rounds", director, {"draft": True}))["boards"]
    call(client, "POST", f"{base}/rounds/1/publish", director)
    first = boards[0]
    call(client, "POST", f"{base}/rounds/1/boards/1/report", tokens[first["first_number"]],
         {"result": "1-0"})  # fmt: skip
    archive = tmp_path / "live.zip"
    code, _, said = db("export", "--database", app.config["DATABASE"], event, "-o", str(archive))
    assert code == 0, said
    target = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    code, _, said = db("import", "--database", target, str(archive))
    assert code == 0, said
    copy = create_app({"DATABASE": target}).test_client()
    for path in ("/players", "/rounds/1", "/log", "/verify"):
        assert copy.get(base + path).data == client.get(base + path).data, path
    _sql(app, "UPDATE reports SET result = '0-1'")
    _sql(app, "DELETE FROM checkins WHERE player = 1")
    problems = body(client.get(f"{base}/verify"))["problems"]
    assert any(p.startswith("report of round, board, by player 1, 1,") for p in problems), problems
    assert any(p.startswith("check-in for round, by player 1, ") for p in problems), problems
