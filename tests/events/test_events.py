"""Events kept on the server (spec/events.md), through the API, on SQLite and PostgreSQL:
an event from its creation to its final standings, corrections with reasons, the audit
trail, and every refusal."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.service.cli.main import main
from tests.events.conftest import bearer, body, create

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ROOT / "samples" / "tournament"
ROUNDS = sorted(TOURNAMENT.iterdir())


def files(*paths: Path) -> dict[str, Any]:
    return {"file": [(io.BytesIO(path.read_bytes()), path.name) for path in paths]}


def post_files(client: FlaskClient, event: str, token: str | None, *paths: Path) -> Any:
    headers = bearer(token) if token else {}
    return client.post(
        f"/api/v1/events/{event}/records",
        data=files(*paths),
        headers=headers,
        content_type="multipart/form-data",
    )


UNTAGGED = b'[Game "Pilo"]\n[Size "6"]\n[Site'
"""The start of the one record of the tournament without an Event tag (a friendly game)."""


def cli_standings(*args: str) -> Any:
    """What ``arbiter standings`` prints for the tournament's files, named as uploaded, each
    record given to the event as an upload gives it: with the event's Event tag."""
    tagged = UNTAGGED.replace(b"[Site", b'[Event "Autumn Open"]\n[Site')
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        for path in ROUNDS:
            Path(path.name).write_bytes(path.read_bytes().replace(UNTAGGED, tagged))
        done = CliRunner().invoke(main, ["standings", *args, *(path.name for path in ROUNDS)])
    return done.stdout


def test_an_event_from_creation_to_final_standings(client: FlaskClient) -> None:
    answer = client.post(
        "/api/v1/events", json={"name": "Autumn Open", "game": "pilo", "rounds": 5}
    )
    assert answer.status_code == 201
    created = answer.json
    assert created is not None
    event, token = created["id"], created["token"]
    assert created["game"] == "Pilo" and created["rounds"] == 5 and created["rounds_played"] == 0
    assert created["url"] == f"http://localhost/events/{event}"
    assert answer.headers["Location"] == f"http://localhost/api/v1/events/{event}"
    assert token.startswith("arb_") and len(token) > 40

    for path in ROUNDS:  # round by round, as a director uploads them
        answer = post_files(client, event, token, path)
        assert answer.status_code == 201, answer.json
        (upload,) = body(answer)["uploads"]
        assert upload["file"] == path.name and not upload["duplicate"]
        assert upload["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert all(one["status"] == "accepted" for one in upload["records"])

    standings = client.get(f"/api/v1/events/{event}/standings")
    assert standings.status_code == 200
    assert standings.json == json.loads(cli_standings("--json"))
    for fmt in ("csv", "html", "table"):
        kept = client.get(f"/api/v1/events/{event}/standings?format={fmt}").data.decode()
        assert kept == cli_standings("--format", fmt)
    trf = client.get(f"/api/v1/events/{event}/standings?format=trf").data.decode()
    head = body(client.get(f"/api/v1/events/{event}"))["head"]
    line = f"### head: entry {head['entry']}, hash {head['hash']}\n"
    assert line in trf  # the kept event's TRF is the command's, with the head it was made at
    assert trf.replace(line, "") == cli_standings("--format", "trf", "--total-rounds", "5")

    summary = body(client.get(f"/api/v1/events/{event}"))
    assert summary["rounds_played"] == 4 and summary["records"]["accepted"] == 16
    listed = body(client.get(f"/api/v1/events/{event}/records"))["records"]
    assert [(r["file"], r["index"]) for r in listed] == [
        (path.name, index) for path in ROUNDS for index in range(4 if "uploads" in path.name else 3)
    ]
    assert {
        r["round"] for r in body(client.get(f"/api/v1/events/{event}/records?round=2"))["records"]
    } == {2}

    done = client.post(
        f"/api/v1/events/{event}/finalise", json={"reason": "last round"}, headers=bearer(token)
    )
    assert done.status_code == 200 and body(done)["finalised_at"]
    refused = post_files(client, event, token, ROUNDS[0])
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "event-finalised"
    assert body(client.get(f"/api/v1/events/{event}/verify"))["valid"] is True


def test_a_correction_with_its_reason_in_the_log_the_standings_and_the_trf(
    client: FlaskClient,
) -> None:
    event, token = create(client, rounds=6)
    post_files(client, event, token, *ROUNDS)
    records = body(client.get(f"/api/v1/events/{event}/records"))["records"]
    target = next(r for r in records if r["file"] == "round-1.grn" and r["index"] == 2)
    before = body(client.get(f"/api/v1/events/{event}/standings"))
    blue, orange = target["players"]["Blue"], target["players"]["Orange"]
    assert target["adjudicated_result"].startswith("Orange")

    answer = client.put(
        f"/api/v1/events/{event}/records/{target['record']}/result",
        json={"result": "blue+f", "reason": f"{orange} did not come to the board"},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.json
    assert body(answer)["official_result"] == "Blue+F" == body(answer)["result"]
    assert body(answer)["adjudicated_result"] == target["adjudicated_result"]  # kept beside it
    after = body(client.get(f"/api/v1/events/{event}/standings"))
    line = {s["player"]: s for s in after["standings"]}
    old = {s["player"]: s for s in before["standings"]}
    assert line[blue]["points"] == old[blue]["points"] + 1
    assert line[blue]["forfeit_wins"] == old[blue]["forfeit_wins"] + 1
    assert line[orange]["points"] == old[orange]["points"] - 1

    entry = body(client.get(f"/api/v1/events/{event}/log"))["log"][-1]
    assert entry["action"] == "result-set" and entry["token"] == 1
    assert entry["reason"] == f"{orange} did not come to the board"
    assert entry["details"] == {
        "record": target["record"],
        "result": "Blue+F",
        "adjudicated": target["adjudicated_result"],
        "valid": True,
        "was": None,
    }
    trf = client.get(f"/api/v1/events/{event}/standings?format=trf").data.decode().splitlines()
    assert trf[2:4] == ["142 6", "XXR 6"]
    comment = next(line for line in trf if line.startswith("###"))
    assert f"record {target['record']} (round 1, {blue} v {orange}, round-1.grn #3)" in comment
    assert "official result Blue+F (adjudicated Orange+" in comment
    assert comment.endswith(f"reason: {orange} did not come to the board")
    assert f"{blue:<33}" in "\n".join(trf)  # its 001 line gains the forfeit win:
    assert any(line.startswith("001") and blue in line and " w +" in line for line in trf)

    cleared = client.delete(
        f"/api/v1/events/{event}/records/{target['record']}/result",
        json={"reason": "the game was played after all"},
        headers=bearer(token),
    )
    assert cleared.status_code == 200 and body(cleared)["official_result"] is None
    assert client.get(f"/api/v1/events/{event}/standings").json == before


def test_an_excluded_record_stops_counting_and_can_count_again(client: FlaskClient) -> None:
    event, token = create(client)
    post_files(client, event, token, *ROUNDS)
    before = body(client.get(f"/api/v1/events/{event}/standings"))
    first = 1
    answer = client.post(
        f"/api/v1/events/{event}/records/{first}/exclude",
        json={"reason": "played in the wrong round"},
        headers=bearer(token),
    )
    assert answer.status_code == 200 and body(answer)["status"] == "excluded"
    after = body(client.get(f"/api/v1/events/{event}/standings"))
    assert (
        sum(s["games"] for s in after["standings"])
        == sum(s["games"] for s in before["standings"]) - 2
    )
    no_reason = client.post(
        f"/api/v1/events/{event}/records/{first}/reinstate", headers=bearer(token)
    )
    assert no_reason.status_code == 400 and body(no_reason)["error"]["field"] == "reason"
    back = client.post(
        f"/api/v1/events/{event}/records/{first}/reinstate",
        json={"reason": "it was right"},
        headers=bearer(token),
    )
    assert back.status_code == 200 and body(back)["status"] == "accepted"
    assert client.get(f"/api/v1/events/{event}/standings").json == before
    actions = [e["action"] for e in body(client.get(f"/api/v1/events/{event}/log"))["log"]]
    assert actions[-2:] == ["excluded", "reinstated"]


def test_the_same_bytes_sent_twice_are_one_upload(client: FlaskClient) -> None:
    event, token = create(client)
    first = post_files(client, event, token, ROUNDS[0])
    again = post_files(client, event, token, ROUNDS[0], ROUNDS[0])
    assert (first.status_code, again.status_code) == (201, 200)
    assert [u["duplicate"] for u in body(again)["uploads"]] == [True, True]
    assert body(again)["uploads"][0]["records"] == body(first)["uploads"][0]["records"]
    assert len(body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"]) == 1
    assert body(client.get(f"/api/v1/events/{event}"))["records"]["total"] == 3


def test_uploads_are_kept_as_sent_and_a_bad_record_blocks_none_beside_it(
    client: FlaskClient,
) -> None:
    event, token = create(client)
    good = ROUNDS[0].read_bytes()
    data = good + b'\n[Game "Pilo"]\n[Size "6"]\n\n1. c3 c3 *\n' + good.replace(b"Round", b"Rnd")
    answer = client.post(
        f"/api/v1/events/{event}/records",
        data=data,
        headers=bearer(token),
        content_type="text/plain",
    )
    assert answer.status_code == 201
    reports = [one["report"] for one in body(answer)["uploads"][0]["records"]]
    assert [r["valid"] for r in reports] == [True, True, True, False, True, True, True]
    assert reports[3]["errors"][0]["code"] == "illegal-move"
    assert (body(answer)["count"], body(answer)["invalid"]) == (7, 1)
    sha = body(answer)["uploads"][0]["sha256"]
    kept = client.get(f"/api/v1/events/{event}/uploads/{sha}")
    assert kept.status_code == 200 and kept.data == data
    assert kept.headers["Content-Type"].startswith("text/plain")
    listed = body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"]
    assert listed[0]["records"] == 7 and listed[0]["token"] == 1 and listed[0]["size"] == len(data)


def test_a_players_upload_waits_for_the_directors_confirmation(client: FlaskClient) -> None:
    event, token = create(client)
    issued = client.post(
        f"/api/v1/events/{event}/tokens",
        json={"role": "upload", "label": "player-07"},
        headers=bearer(token),
    )
    assert issued.status_code == 201 and body(issued)["number"] == 2
    player = body(issued)["token"]
    answer = post_files(client, event, player, ROUNDS[0])
    assert answer.status_code == 201
    numbers = [one["record"] for one in body(answer)["uploads"][0]["records"]]
    assert {one["status"] for one in body(answer)["uploads"][0]["records"]} == {"pending"}
    assert body(client.get(f"/api/v1/events/{event}/standings"))["standings"] == []
    refused = client.post(
        f"/api/v1/events/{event}/records/{numbers[0]}/confirm", headers=bearer(player)
    )
    assert refused.status_code == 403 and body(refused)["error"]["code"] == "not-allowed"
    receipts = []
    for number in numbers:
        done = client.post(
            f"/api/v1/events/{event}/records/{number}/confirm", headers=bearer(token)
        )
        assert done.status_code == 200 and body(done)["status"] == "accepted"
        receipts.append(body(done)["receipt"])
    assert len(body(client.get(f"/api/v1/events/{event}/standings"))["standings"]) == 6
    entries = len(body(client.get(f"/api/v1/events/{event}/log"))["log"])
    again = client.post(
        f"/api/v1/events/{event}/records/{numbers[0]}/confirm", headers=bearer(token)
    )  # a confirmation sent twice is answered as the first, and written once
    assert again.status_code == 200 and body(again)["receipt"] == receipts[0]
    assert len(body(client.get(f"/api/v1/events/{event}/log"))["log"]) == entries
    director = post_files(client, event, token, ROUNDS[1])
    counted = body(director)["uploads"][0]["records"][0]["record"]
    never = client.post(f"/api/v1/events/{event}/records/{counted}/confirm", headers=bearer(token))
    assert never.status_code == 409 and body(never)["error"]["code"] == "not-pending"
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    assert [e["token"] for e in log if e["action"] == "uploaded"] == [2, 1]


def test_an_event_may_count_players_uploads_at_once(client: FlaskClient) -> None:
    event, token = create(client, confirm_uploads=False)
    player = body(
        client.post(
            f"/api/v1/events/{event}/tokens", json={"label": "deputy"}, headers=bearer(token)
        )
    )["token"]
    answer = post_files(client, event, player, ROUNDS[0])
    assert {one["status"] for one in body(answer)["uploads"][0]["records"]} == {"accepted"}


def test_tokens_are_listed_without_secrets_and_revoked(client: FlaskClient) -> None:
    event, token = create(client)
    player = body(
        client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"}, headers=bearer(token))
    )
    listed = body(client.get(f"/api/v1/events/{event}/tokens", headers=bearer(token)))["tokens"]
    assert [(t["number"], t["role"], t["label"]) for t in listed] == [
        (1, "director", "director"),
        (2, "upload", "p"),
    ]
    assert player["token"] not in json.dumps(listed) and token not in json.dumps(listed)
    revoked = client.delete(
        f"/api/v1/events/{event}/tokens/2", json={"reason": "lost"}, headers=bearer(token)
    )
    assert revoked.status_code == 200 and body(revoked)["revoked_at"]
    refused = post_files(client, event, player["token"], ROUNDS[0])
    assert refused.status_code == 401 and body(refused)["error"]["code"] == "revoked-token"
    last = client.delete(f"/api/v1/events/{event}/tokens/1", headers=bearer(token))
    assert last.status_code == 409 and body(last)["error"]["code"] == "last-director-token"


def test_every_refusal_is_json_with_its_status(client: FlaskClient) -> None:
    event, token = create(client)
    other, other_token = create(client, name="Other")
    player = body(
        client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"}, headers=bearer(token))
    )["token"]
    cases = [
        (post_files(client, event, None, ROUNDS[0]), 401, "missing-token"),
        (post_files(client, event, "arb_nonsense", ROUNDS[0]), 401, "bad-token"),
        (post_files(client, event, other_token, ROUNDS[0]), 403, "wrong-event"),
        (
            client.post(
                f"/api/v1/events/{event}/records/1/exclude",
                json={"reason": "x"},
                headers=bearer(player),
            ),
            403,
            "not-allowed",
        ),
        (
            client.patch(f"/api/v1/events/{event}", json={"rounds": 7}, headers=bearer(player)),
            403,
            "not-allowed",
        ),
        (
            client.post(
                f"/api/v1/events/{event}/tokens", json={"label": "x"}, headers=bearer(player)
            ),
            403,
            "not-allowed",
        ),
        (client.get(f"/api/v1/events/{event}/tokens", headers=bearer(player)), 403, "not-allowed"),
        (client.get("/api/v1/events/nosuchevent"), 404, "no-such-event"),
        (post_files(client, "nosuchevent", token, ROUNDS[0]), 404, "no-such-event"),
        (client.get(f"/api/v1/events/{event}/records/99"), 404, "no-such-record"),
        (client.get(f"/api/v1/events/{event}/records/12908414394381221888"), 404, "no-such-record"),
        (
            client.post(
                f"/api/v1/events/{event}/records/111598847994572948111360/exclude",
                json={"reason": "x"},
                headers=bearer(token),
            ),
            404,
            "no-such-record",
        ),
        (client.post("/api/v1/events", json={"name": "x", "game": "Chess"}), 400, "bad-field"),
        (client.post("/api/v1/events", json={"game": "Pilo"}), 400, "bad-field"),
        (
            client.post("/api/v1/events", json={"name": "x", "game": "Pilo", "rounds": 0}),
            400,
            "bad-field",
        ),
        (
            client.post("/api/v1/events", json={"name": "x", "game": "Pilo", "tiebreaks": ["elo"]}),
            400,
            "bad-field",
        ),
        (
            client.post("/api/v1/events", json={"name": "x", "game": "Pilo", "tiebreaks": "wins"}),
            400,
            "bad-field",
        ),
        (
            client.post("/api/v1/events", json={"name": " \u00a0 ", "game": "Pilo"}),
            400,
            "bad-field",
        ),
        (
            client.post("/api/v1/events", data="[1]", content_type="application/json"),
            400,
            "bad-json",
        ),
        (
            client.post(
                f"/api/v1/events/{event}/records",
                data=b"",
                headers=bearer(token),
                content_type="text/plain",
            ),
            400,
            "empty-body",
        ),
        (client.get(f"/api/v1/events/{event}/standings?format=pdf"), 400, "bad-parameter"),
        (client.get(f"/api/v1/events/{event}/uploads/{'0' * 64}"), 404, "no-such-upload"),
    ]
    for answer, status, code in cases:
        assert (answer.status_code, body(answer)["error"]["code"]) == (status, code), answer.json
        assert body(answer)["error"]["status"] == status
    assert cases[0][0].headers["WWW-Authenticate"] == 'Bearer realm="arbiter"'
    del other


def test_a_result_must_be_one_of_the_game(client: FlaskClient) -> None:
    event, token = create(client)
    post_files(client, event, token, ROUNDS[0])
    for result in ("1-0", "*", "Red+R", "", None, "Blue+" + "9" * 50):
        answer = client.put(
            f"/api/v1/events/{event}/records/1/result",
            json={"result": result, "reason": "x"},
            headers=bearer(token),
        )
        assert answer.status_code == 422 and body(answer)["error"]["code"] == "bad-result", result


def test_the_planned_rounds_change_and_may_not_fall_below_those_played(
    client: FlaskClient,
) -> None:
    event, token = create(client)
    post_files(client, event, token, *ROUNDS)
    changed = client.patch(
        f"/api/v1/events/{event}", json={"rounds": 7, "reason": "one more"}, headers=bearer(token)
    )
    assert changed.status_code == 200 and body(changed)["rounds"] == 7
    assert "XXR 7" in client.get(f"/api/v1/events/{event}/standings?format=trf").data.decode()
    below = client.patch(f"/api/v1/events/{event}", json={"rounds": 3}, headers=bearer(token))
    assert below.status_code == 409 and body(below)["error"]["code"] == "rounds-below-played"
    order = client.patch(
        f"/api/v1/events/{event}", json={"tiebreaks": ["wins", "sb"]}, headers=bearer(token)
    )
    assert body(order)["tiebreaks"] == ["wins", "sonneborn-berger"]
    assert body(client.get(f"/api/v1/events/{event}/standings"))["tiebreak_order"] == [
        "wins",
        "sonneborn-berger",
    ]


def test_an_event_holds_a_bounded_number_of_records(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter.service.events import common

    monkeypatch.setattr(common, "MAX_RECORDS", 5)
    event, token = create(client)
    assert post_files(client, event, token, ROUNDS[0]).status_code == 201
    full = post_files(client, event, token, ROUNDS[1])
    assert full.status_code == 422 and body(full)["error"]["code"] == "event-full"
    assert body(client.get(f"/api/v1/events/{event}"))["records"]["total"] == 3  # nothing kept


def test_etags_let_a_page_poll_cheaply(client: FlaskClient) -> None:
    event, token = create(client)
    first = client.get(f"/api/v1/events/{event}/standings")
    same = client.get(
        f"/api/v1/events/{event}/standings", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert same.status_code == 304 and not same.data
    post_files(client, event, token, ROUNDS[0])
    changed = client.get(
        f"/api/v1/events/{event}/standings", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_every_refusal_of_the_events_layer_has_one_http_status() -> None:
    from arbiter.service.events.common import CODES
    from arbiter.service.web.events_api import STATUS

    assert sorted(STATUS) == sorted(CODES)
    assert set(STATUS.values()) <= {400, 401, 403, 404, 409, 422}


def test_a_database_that_does_not_answer_is_503(tmp_path: Path) -> None:
    from arbiter.service.web import create_app

    for url, message in (
        (
            f"postgresql://nobody@/x?host={tmp_path}",
            "the database does not answer; try again shortly",
        ),
        ("mysql://x/y", "is not a database URL arbiter can use"),
    ):
        client = create_app({"TESTING": True, "DATABASE": url}).test_client()
        for path in ("/api/v1/events/someevent", "/api/v1/events"):
            answer = client.get(path)
            assert answer.status_code == 503, (url, path)
            error = body(answer)["error"]
            assert error["code"] == "database-unavailable" and message in error["message"]
