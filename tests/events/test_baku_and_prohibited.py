"""Baku acceleration and prohibited pairs in a paired event (spec/pairings.md §13), through
the API on SQLite and PostgreSQL: a Baku event is paired exactly as ``arbiter pair`` pairs
its TRF, and the acceleration is fixed once round 1 is paired; a prohibited pair is never
paired by the engine, warned of in a pairing by hand, set after round 1 only warned and
with a reason, and taken back without changing the rounds paired under it. The TRF carries
both (records 250 and 260), and ``arbiter pair --check`` and bbpPairings' checker (when
``ARBITER_BBP`` names it) find every round as paired; verification and archives hold the
new entries. And the TRF's line ends as asked (``line_ends``)."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from arbiter.pairing import pair, read_trf
from arbiter.pairing.generate import baku
from arbiter.service.cli.main import main
from arbiter.service.web import create_app
from tests.events.conftest import bearer, body
from tests.events.test_archive import db
from tests.events.test_trail import _sql

BBP = os.environ.get("ARBITER_BBP")


def call(
    client: FlaskClient, method: str, path: str, token: str | None, payload: Any = None
) -> Any:
    headers = bearer(token) if token else {}
    return client.open(path, method=method, json=payload, headers=headers)


def swiss(client: FlaskClient, players: int, rounds: int, **fields: Any) -> tuple[str, str]:
    """A Dutch event of ``players`` players rated from 2400 down, ``rounds`` planned."""
    made = client.post(
        "/api/v1/events",
        json={"name": "Baku Open", "game": "Pilo", "rounds": rounds, "pairing": "dutch",
              **fields},
    )  # fmt: skip
    assert made.status_code == 201, made.json
    event, token = body(made)["id"], body(made)["token"]
    entered = [{"name": f"Player {n:02d}", "rating": 2400 - 10 * n} for n in range(1, players + 1)]
    added = call(client, "POST", f"/api/v1/events/{event}/players", token, {"players": entered})
    assert added.status_code == 201, added.json
    return event, token


def pairs(round_view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(b["first_number"], b["second_number"]) for b in round_view["boards"]]


def play(client: FlaskClient, base: str, token: str, round_view: dict[str, Any]) -> None:
    """Give every board of the round its result: the lower number wins, but on the last
    board, where the higher does (so that scores spread, and a colour is not all)."""
    boards = round_view["boards"]
    for board in boards:
        lower_first = board["first_number"] < board["second_number"]
        first_wins = lower_first != (board["board"] == len(boards))
        given = call(client, "PUT", f"{base}/rounds/{round_view['round']}/boards/{board['board']}"
                     "/result", token, {"result": "1-0" if first_wins else "0-1",
                                        "reason": "the score sheet"})  # fmt: skip
        assert given.status_code == 200, given.json


def trf_of(client: FlaskClient, base: str, ends: str | None = None) -> str:
    query = "" if ends is None else f"&line_ends={ends}"
    answer = client.get(f"{base}/standings?format=trf{query}")
    assert answer.status_code == 200, answer.json
    return answer.get_data(as_text=True)


def arbiter_pair(path: Path, *args: str) -> Any:
    return CliRunner().invoke(main, ["pair", str(path), *args])


def checked(trf: str, tmp_path: Path) -> None:
    """``arbiter pair --check`` finds every round as paired and the ranks as the file's
    list gives them; so does bbpPairings' checker, when ``ARBITER_BBP`` names it."""
    path = tmp_path / "event.trf"
    path.write_bytes(trf.encode())
    done = arbiter_pair(path, "--check", "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["differences"] == []
    if BBP:
        ran = subprocess.run([BBP, "--dutch", str(path), "-c"], capture_output=True, text=True)
        said = ran.stdout + ran.stderr
        assert ran.returncode == 0 and "Checker pairings" not in said, said


def valid(client: FlaskClient, base: str) -> None:
    assert body(client.get(f"{base}/verify"))["problems"] == []


# --- Baku acceleration ----------------------------------------------------------------------


def test_a_baku_event_pairs_as_arbiter_pair_pairs_its_trf(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, token = swiss(client, 16, 7, acceleration="baku")
    base = f"/api/v1/events/{event}"
    assert body(client.get(base))["acceleration"] == "baku"
    trf = trf_of(client, base, "cr")
    assert "\n" not in trf
    # the library's own Baku: group A the first 8 (half of 16, rounded to an even number),
    # a point in rounds 1-2 and half a point in rounds 3-4 (the first half of 7 rounds,
    # rounded up, are accelerated; the first half of those, rounded up, by a point)
    assert baku(tuple(range(1, 17)), 7) == read_trf(trf).accelerations
    assert [line for line in trf.split("\r") if line.startswith("250")] == [
        "250       1.0   1   2    1    8",
        "250       0.5   3   4    1    8",
    ]
    path = tmp_path / "before.trf"
    path.write_bytes(trf.encode())
    done = arbiter_pair(path, "--json")
    assert done.exit_code == 0, done.output
    expected = [(b["first"], b["second"]) for b in json.loads(done.output)["boards"]]
    one = body(call(client, "POST", f"{base}/rounds", token))
    assert pairs(one) == expected
    # and not as an event without the acceleration: group A meets itself in round 1
    plain = pair(replace(read_trf(trf), accelerations=()), "dutch")
    assert {(b.first, b.second) for b in plain.boards} != set(expected)
    assert all(max(board) <= 8 or min(board) > 8 for board in expected)
    for number in range(1, 7):
        round_view = one if number == 1 else body(call(client, "POST", f"{base}/rounds", token))
        play(client, base, token, round_view)
    trf = trf_of(client, base)
    assert read_trf(trf).rounds_paired == 6
    checked(trf, tmp_path)
    valid(client, base)


def test_the_acceleration_is_a_dutch_events_and_fixed_once_round_one_is_paired(
    client: FlaskClient,
) -> None:
    for refused in (
        {"name": "RR", "game": "Pilo", "pairing": "round-robin", "acceleration": "baku"},
        {"name": "Open", "game": "Pilo", "acceleration": "baku"},
        {"name": "Open", "game": "Pilo", "rounds": 5, "pairing": "dutch", "acceleration": "x"},
    ):
        made = client.post("/api/v1/events", json=refused)
        assert made.status_code == 400 and body(made)["error"]["field"] == "acceleration"
    event, token = swiss(client, 12, 7)
    base = f"/api/v1/events/{event}"
    assert body(client.get(base))["acceleration"] == "none"
    assert "250" not in [line[:3] for line in trf_of(client, base).splitlines()]
    changed = call(client, "PATCH", base, token, {"acceleration": "baku"})
    assert changed.status_code == 200 and body(changed)["acceleration"] == "baku"
    assert [line[:3] for line in trf_of(client, base).splitlines()].count("250") == 2
    assert call(client, "PATCH", base, token, {"rounds": 9}).status_code == 200  # before: free
    one = body(call(client, "POST", f"{base}/rounds", token))
    assert all(max(board) <= 6 or min(board) > 6 for board in pairs(one))  # group A: 6 of 12
    late = call(client, "PATCH", base, token, {"acceleration": "none"})
    assert late.status_code == 409 and body(late)["error"]["code"] == "acceleration-fixed"
    same = call(client, "PATCH", base, token, {"acceleration": "baku", "name": "Baku Open II"})
    assert same.status_code == 200  # nothing of the acceleration changes
    # 9 rounds: 5 accelerated, a point in 1-3; 10 rounds the same; 7 rounds 4, a point in 1-2
    assert call(client, "PATCH", base, token, {"rounds": 10}).status_code == 200
    fewer = call(client, "PATCH", base, token, {"rounds": 7})
    assert fewer.status_code == 409 and body(fewer)["error"] == {
        **body(fewer)["error"],
        "code": "acceleration-fixed",
        "field": "rounds",
    }
    words = [entry["details"] for entry in body(client.get(f"{base}/log"))["log"]]
    assert {"acceleration": "baku"} in words
    valid(client, base)
    page = client.get(f"/events/{event}/log").get_data(as_text=True)
    assert "changed the acceleration to baku" in page


def test_an_event_created_accelerated_says_so_in_its_first_entry(client: FlaskClient) -> None:
    event, _ = swiss(client, 4, 3, acceleration="baku")
    created = body(client.get(f"/api/v1/events/{event}/log"))["log"][0]
    assert created["details"]["acceleration"] == "baku"
    plain, _ = swiss(client, 4, 3)
    assert (
        "acceleration" not in body(client.get(f"/api/v1/events/{plain}/log"))["log"][0]["details"]
    )


# --- prohibited pairs -----------------------------------------------------------------------


def test_a_prohibited_pair_is_never_paired_by_the_engine(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, token = swiss(client, 10, 5)
    base = f"/api/v1/events/{event}"
    # unprohibited, round 1 pairs 1-6, 7-2, 3-8, 9-4, 5-10 (the top half against the bottom)
    assert (1, 6) in pairs(body(call(client, "POST", f"{base}/rounds", token, {"draft": True})))
    call(client, "DELETE", f"{base}/rounds/1", token, {"reason": "prohibitions first"})
    first = call(client, "POST", f"{base}/prohibited", token, {"players": [1, 6]})
    assert first.status_code == 201, first.json
    assert body(first)["players"] == [{"number": 1, "name": "Player 01"},
                                      {"number": 6, "name": "Player 06"}]  # fmt: skip
    assert (body(first)["from_round"], body(first)["to_round"]) == (1, 5)
    family = call(client, "POST", f"{base}/prohibited", token, {"players": [2, 3, 7]})
    assert family.status_code == 201 and body(family)["number"] == 2
    valid(client, base)
    again = call(client, "POST", f"{base}/prohibited", token, {"players": [6, 1]})
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert body(again)["number"] == 1
    kept = {frozenset((1, 6)), frozenset((2, 3)), frozenset((2, 7)), frozenset((3, 7))}
    for _ in range(5):
        round_view = body(call(client, "POST", f"{base}/rounds", token))
        assert not {frozenset(board) for board in pairs(round_view)} & kept, round_view
        play(client, base, token, round_view)
    trf = trf_of(client, base)
    assert [line for line in trf.splitlines() if line.startswith("260")] == [
        "260   1   5    1    6",
        "260   1   5    2    3    7",
    ]
    assert "### PRO" in trf
    checked(trf, tmp_path)
    valid(client, base)


def test_a_prohibition_added_after_round_one_is_warned_and_needs_a_reason(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, token = swiss(client, 8, 4)
    base = f"/api/v1/events/{event}"
    one = body(call(client, "POST", f"{base}/rounds", token))
    play(client, base, token, one)
    asked = {"players": [1, 2]}
    warned = call(client, "POST", f"{base}/prohibited", token, asked)
    assert warned.status_code == 409 and body(warned)["error"]["code"] == "pairing-warnings"
    assert "leaves FIDE's mode" in body(warned)["error"]["warnings"][0]
    unexplained = call(client, "POST", f"{base}/prohibited", token, {**asked, "confirm": True})
    assert unexplained.status_code == 400 and body(unexplained)["error"]["field"] == "reason"
    past = call(client, "POST", f"{base}/prohibited", token,
                {**asked, "from_round": 1, "confirm": True, "reason": "siblings"})  # fmt: skip
    assert past.status_code == 409 and body(past)["error"]["code"] == "round-already-paired"
    beyond = call(client, "POST", f"{base}/prohibited", token,
                  {**asked, "to_round": 5, "confirm": True, "reason": "siblings"})  # fmt: skip
    assert beyond.status_code == 400 and body(beyond)["error"]["field"] == "to_round"
    made = call(client, "POST", f"{base}/prohibited", token,
                {**asked, "confirm": True, "reason": "siblings"})  # fmt: skip
    assert made.status_code == 201, made.json
    assert (body(made)["from_round"], body(made)["to_round"]) == (2, 4)
    entry = body(client.get(f"{base}/log"))["log"][-1]
    assert entry["action"] == "prohibited-added" and entry["reason"] == "siblings"
    assert entry["details"]["after"] == 1 and entry["details"]["first_round"] == 2
    for _ in range(3):
        round_view = body(call(client, "POST", f"{base}/rounds", token))
        assert (1, 2) not in pairs(round_view) and (2, 1) not in pairs(round_view)
        play(client, base, token, round_view)
    trf = trf_of(client, base)
    line = next(line for line in trf.splitlines() if line.startswith("### PRO"))
    assert "(added after round 1 was paired); reason: siblings" in line
    assert "260   2   4    1    2" in trf.splitlines()
    checked(trf, tmp_path)
    valid(client, base)


def test_a_prohibition_taken_back_keeps_the_rounds_paired_under_it(
    client: FlaskClient, tmp_path: Path
) -> None:
    event, token = swiss(client, 8, 4)
    base = f"/api/v1/events/{event}"
    call(client, "POST", f"{base}/prohibited", token, {"players": [3, 4]})
    early = body(call(client, "POST", f"{base}/prohibited", token, {"players": [5, 6]}))
    gone = call(client, "DELETE", f"{base}/prohibited/{early['number']}", token)
    assert gone.status_code == 200 and body(gone)["active"] is False  # before round 1: no reason
    assert body(gone)["to_round"] < body(gone)["from_round"]  # it held in no round
    play(client, base, token, body(call(client, "POST", f"{base}/rounds", token)))
    unexplained = call(client, "DELETE", f"{base}/prohibited/1", token)
    assert unexplained.status_code == 400 and body(unexplained)["error"]["field"] == "reason"
    taken = call(client, "DELETE", f"{base}/prohibited/1?reason=a%20mistake", token)
    assert taken.status_code == 200, taken.json
    assert (body(taken)["from_round"], body(taken)["to_round"]) == (1, 1)
    again = call(client, "DELETE", f"{base}/prohibited/1", token, {"reason": "again"})
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    missing = call(client, "DELETE", f"{base}/prohibited/9", token, {"reason": "none"})
    assert missing.status_code == 404 and body(missing)["error"]["code"] == "no-such-prohibition"
    play(client, base, token, body(call(client, "POST", f"{base}/rounds", token)))
    trf = trf_of(client, base)
    held = [line for line in trf.splitlines() if line.startswith("260")]
    assert held == ["260   1   1    3    4"]
    assert "it held in round 1, paired already" in trf
    checked(trf, tmp_path)
    listed = body(call(client, "GET", f"{base}/prohibited", token))["prohibited"]
    assert [(p["number"], p["active"]) for p in listed] == [(1, False), (2, False)]
    valid(client, base)


def test_a_pairing_by_hand_is_warned_of_a_prohibited_pair(client: FlaskClient) -> None:
    event, token = swiss(client, 4, 3)
    base = f"/api/v1/events/{event}"
    call(client, "POST", f"{base}/prohibited", token, {"players": [1, 2], "to_round": 1})
    engine = body(call(client, "POST", f"{base}/rounds", token))
    assert {frozenset(board) for board in pairs(engine)} == {frozenset((1, 3)), frozenset((2, 4))}
    by_hand = {"boards": [{"first": 1, "second": 2}, {"first": 3, "second": 4}],
               "reason": "seeded by hand"}  # fmt: skip
    warned = call(client, "PUT", f"{base}/rounds/1", token, by_hand)
    assert warned.status_code == 409 and body(warned)["error"]["code"] == "pairing-warnings"
    assert "1 - 2: a prohibited pair in round 1" in body(warned)["error"]["warnings"]
    done = call(client, "PUT", f"{base}/rounds/1", token, {**by_hand, "confirm": True})
    assert done.status_code == 200, done.json
    valid(client, base)


def test_what_a_prohibition_may_name_and_who_may_read_them(client: FlaskClient) -> None:
    made = client.post("/api/v1/events", json={"name": "RR", "game": "Pilo",
                                               "pairing": "round-robin"})  # fmt: skip
    robin, robin_token = body(made)["id"], body(made)["token"]
    call(client, "POST", f"/api/v1/events/{robin}/players", robin_token,
         {"players": [{"name": "A"}, {"name": "B"}]})  # fmt: skip
    refused = call(client, "POST", f"/api/v1/events/{robin}/prohibited", robin_token,
                   {"players": [1, 2]})  # fmt: skip
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "round-robin-table"
    event, token = swiss(client, 4, 3)
    base = f"/api/v1/events/{event}"
    for payload, field in (
        ({"players": [1]}, "players"),
        ({"players": [1, 1]}, "players"),
        ({"players": [1, 2], "from_round": 3, "to_round": 2}, "from_round"),
        ({"players": [1, 2], "colour": "blue"}, "colour"),
    ):
        bad = call(client, "POST", f"{base}/prohibited", token, payload)
        assert bad.status_code == 400 and body(bad)["error"]["field"] == field, payload
    unknown = call(client, "POST", f"{base}/prohibited", token, {"players": [1, 9]})
    assert unknown.status_code == 404 and body(unknown)["error"]["code"] == "no-such-player"
    assert client.get(f"{base}/prohibited").status_code == 401
    deputy = {"role": "upload", "label": "deputy"}
    uploader = body(call(client, "POST", f"{base}/tokens", token, deputy))
    assert call(client, "GET", f"{base}/prohibited", uploader["token"]).status_code == 403
    refused = call(client, "POST", f"{base}/prohibited", uploader["token"], {"players": [1, 2]})
    assert refused.status_code == 403
    listed = call(client, "GET", f"{base}/prohibited", token)
    assert listed.status_code == 200 and body(listed) == {"prohibited": []}
    assert listed.headers["Cache-Control"] == "private, no-store"


def test_a_player_named_in_a_prohibition_is_not_taken_out_until_it_is_taken_back(
    client: FlaskClient,
) -> None:
    event, token = swiss(client, 4, 3)
    base = f"/api/v1/events/{event}"
    call(client, "POST", f"{base}/prohibited", token, {"players": [2, 4]})
    refused = call(client, "DELETE", f"{base}/players/4", token, {"reason": "entered twice"})
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "player-prohibited"
    call(client, "DELETE", f"{base}/prohibited/1", token)
    assert call(client, "DELETE", f"{base}/players/4", token,
                {"reason": "entered twice"}).status_code == 200  # fmt: skip
    listed = body(call(client, "GET", f"{base}/prohibited", token))["prohibited"]
    assert listed[0]["players"][1] == {"number": None, "name": None}
    valid(client, base)


def test_prohibitions_are_verified_and_carried_by_an_archive(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    event, token = swiss(client, 6, 3, acceleration="baku")
    base = f"/api/v1/events/{event}"
    call(client, "POST", f"{base}/prohibited", token, {"players": [1, 2], "to_round": 2})
    call(client, "POST", f"{base}/prohibited", token, {"players": [3, 4, 5]})
    call(client, "DELETE", f"{base}/prohibited/2", token)
    play(client, base, token, body(call(client, "POST", f"{base}/rounds", token)))
    archive = tmp_path / "baku.zip"
    code, _, said = db("export", "--database", app.config["DATABASE"], event, "-o", str(archive))
    assert code == 0, said
    target = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    code, _, said = db("import", "--database", target, str(archive))
    assert code == 0, said
    copy = create_app({"DATABASE": target}).test_client()
    for path in ("", "/rounds/1", "/log", "/verify", "/standings?format=trf"):
        assert copy.get(base + path).data == client.get(base + path).data, path
    mine, theirs = (
        call(copy, "GET", f"{base}/prohibited", token),
        call(client, "GET", f"{base}/prohibited", token),
    )
    assert mine.status_code == 200 and mine.data == theirs.data
    _sql(app, "UPDATE prohibitions SET last_round = 3 WHERE number = 1")
    _sql(app, "UPDATE events SET acceleration = 'none'")
    problems = body(client.get(f"{base}/verify"))["problems"]
    assert "prohibition 1: its last_round is 3; the trail says 2" in problems, problems
    assert "the event's acceleration is 'none'; the trail says 'baku'" in problems, problems
    _sql(app, "UPDATE prohibitions SET players = 'not json' WHERE number = 2")
    problems = body(client.get(f"{base}/verify"))["problems"]
    assert any(p.startswith("prohibition 2: its players are not a list") for p in problems)


# --- the TRF's line ends --------------------------------------------------------------------


@pytest.mark.parametrize("paired", [True, False])
def test_the_trf_ends_its_lines_as_asked(client: FlaskClient, paired: bool) -> None:
    if paired:
        event, _ = swiss(client, 4, 3)
    else:
        event = body(client.post("/api/v1/events", json={"name": "Open", "game": "Pilo"}))["id"]
    base = f"/api/v1/events/{event}"
    lf = trf_of(client, base)
    assert "\r" not in lf and lf.endswith("\n")  # the default, as before
    assert trf_of(client, base, "lf") == lf
    assert trf_of(client, base, "cr") == lf.replace("\n", "\r")
    assert trf_of(client, base, "crlf") == lf.replace("\n", "\r\n")
    if paired:
        assert read_trf(trf_of(client, base, "cr")).players == read_trf(lf).players
    bad = client.get(f"{base}/standings?format=trf&line_ends=nl")
    assert bad.status_code == 400 and body(bad)["error"]["parameter"] == "line_ends"
    assert (
        client.get(f"{base}/standings?format=csv&line_ends=cr").data
        == client.get(f"{base}/standings?format=csv").data
    )  # the other formats' lines are theirs
