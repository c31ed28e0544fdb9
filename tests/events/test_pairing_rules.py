"""A paired event's pairing rules as FIDE's checklist asks for them (spec/events.md, "Paired
events"): a pairing by hand told what it breaks before it is applied, and kept with it; a
round robin that refuses Buchholz; a change of the tie-breaks after round 1 that needs a
reason and leaves a ``### TBC`` line with the list it replaced."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.events.conftest import bearer, body


def call(
    client: FlaskClient, path: str, token: str, payload: Any = None, method: str = "POST"
) -> TestResponse:
    return client.open(path, method=method, json=payload, headers=bearer(token))


def made(client: FlaskClient, **fields: Any) -> tuple[str, str]:
    answer = client.post("/api/v1/events", json={"name": "Club", "game": "Pilo", **fields})
    assert answer.status_code == 201, answer.json
    return body(answer)["id"], body(answer)["token"]


def trf(client: FlaskClient, event: str) -> list[str]:
    text = client.get(f"/api/v1/events/{event}/standings?format=trf").data.decode()
    return text.splitlines()


def played_round_one(client: FlaskClient, base: str, token: str) -> list[tuple[int, int]]:
    names = [("Ann", 2100), ("Bo", 2000), ("Cy", 1900), ("Di", 1800)]
    call(
        client, f"{base}/players", token, {"players": [{"name": n, "rating": r} for n, r in names]}
    )
    paired = body(call(client, f"{base}/rounds", token))
    for board in paired["boards"]:
        done = call(client, f"{base}/rounds/1/boards/{board['board']}/result", token,
                    {"result": "1-0", "reason": "played"}, "PUT")  # fmt: skip
        assert done.status_code == 200, done.json
    return [(b["first_number"], b["second_number"]) for b in paired["boards"]]


def test_a_pairing_by_hand_is_told_what_it_breaks_and_keeps_it(client: FlaskClient) -> None:
    event, token = made(client, rounds=5, pairing="dutch")
    base = f"/api/v1/events/{event}"
    first = played_round_one(client, base, token)
    call(client, f"{base}/rounds", token)  # round 2 by the system, then by hand
    (a, b), (c, d) = first
    again = {"boards": [{"first": a, "second": b}, {"first": c, "second": d}], "reason": "seeded"}
    refused = call(client, f"{base}/rounds/2", token, again, "PUT")
    assert refused.status_code == 409
    error = body(refused)["error"]
    assert error["code"] == "pairing-warnings"
    assert f"{a} - {b}: they met in round 1" in error["warnings"]
    assert f"{a} would have the first seat for the third game running" not in error["warnings"]
    assert f"{a} - {b}: they met in round 1" in error["message"]
    applied = call(client, f"{base}/rounds/2", token, {**again, "confirm": True}, "PUT")
    assert applied.status_code == 200, applied.json
    entry = body(client.get(f"{base}/log"))["log"][-1]
    assert entry["action"] == "round-replaced"
    assert entry["details"]["warnings"] == error["warnings"]
    [line] = [one for one in trf(client, event) if one.startswith("### MPA")]
    assert f"warned: {a} - {b}: they met in round 1" in line
    assert body(client.get(f"{base}/verify"))["problems"] == []


def test_a_round_robin_refuses_buchholz_and_is_given_its_own_order(client: FlaskClient) -> None:
    refused = client.post("/api/v1/events", json={
        "name": "RR", "game": "Pilo", "pairing": "round-robin", "tiebreaks": ["buchholz"],
    })  # fmt: skip
    assert refused.status_code == 400
    assert (
        body(refused)["error"]["field"] == "tiebreaks"
        and "Buchholz" in body(refused)["error"]["message"]
    )
    event, token = made(client, pairing="round-robin")
    summary = body(client.get(f"/api/v1/events/{event}"))
    assert "buchholz" not in summary["tiebreaks"] and summary["tiebreaks"][0] == "direct"
    change = call(client, f"/api/v1/events/{event}", token, {"tiebreaks": ["bh", "sb"]}, "PATCH")
    assert change.status_code == 400 and body(change)["error"]["field"] == "tiebreaks"
    swiss, _ = made(client, pairing="dutch", rounds=5, tiebreaks=["buchholz"])
    assert body(client.get(f"/api/v1/events/{swiss}"))["tiebreaks"][0] == "buchholz"


def test_the_tiebreaks_changed_after_round_one_need_a_reason_and_leave_a_line(
    client: FlaskClient,
) -> None:
    event, token = made(client, rounds=5, pairing="dutch", tiebreaks=["buchholz", "wins"])
    base = f"/api/v1/events/{event}"
    before = call(client, base, token, {"tiebreaks": ["wins", "buchholz"]}, "PATCH")
    assert before.status_code == 200, before.json  # before round 1: no reason needed
    played_round_one(client, base, token)
    bare = call(client, base, token, {"tiebreaks": ["sonneborn-berger"]}, "PATCH")
    assert bare.status_code == 400 and body(bare)["error"]["field"] == "reason"
    assert "after round 1" in body(bare)["error"]["message"]
    told = call(
        client, base, token, {"tiebreaks": ["sonneborn-berger"], "reason": "rules"}, "PATCH"
    )
    assert told.status_code == 200, told.json
    [line] = [one for one in trf(client, event) if one.startswith("### TBC")]
    assert "tie-breaks changed after round 1 from wins,buchholz to sonneborn-berger" in line
    assert line.endswith("reason: rules")
    assert body(client.get(f"{base}/verify"))["problems"] == []


def test_the_desk_offers_the_tiebreaks_as_they_stand_with_a_reason_kept_for_a_change(
    client: FlaskClient,
) -> None:
    event, _ = made(client, rounds=5, pairing="dutch", tiebreaks=["wins", "buchholz"])
    page = client.get(f"/events/{event}/desk").get_data(as_text=True)
    box = page[page.index('<fieldset id="settings-tiebreaks"') :]
    box = box[: box.index("</fieldset>")]
    assert 'data-tiebreaks="wins,buchholz"' in box
    chosen = [part.split('"', 1)[0] for part in box.split('<option value="')[1:]
              if part.split(">", 1)[0].endswith(" selected")]  # fmt: skip
    assert chosen == ["wins", "buchholz"]
    assert '<label id="settings-why" hidden>' in page and 'id="settings-reason"' in page
