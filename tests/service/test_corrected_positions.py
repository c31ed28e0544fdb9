"""``apply=PLY:MOVE`` on ``/api/v1/positions`` and ``/api/v1/diagram`` (spec/api.md §3.6): a
record replayed as a corrected copy, without changing what was sent; 400 for a correction
not written so, 422 for one that cannot be applied."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient

import arbiter
from arbiter.notation.repair import CORRECTION_PATTERN
from tests.service.suggested import BLITZ, SLIPPED, SUGGESTIONS

ROOT = Path(__file__).resolve().parents[2]

OTHER = '[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 2. d4 a1 *\n'


def post(client: FlaskClient, query: str, body: str, kind: str = "text/plain") -> Any:
    return client.post(f"/api/v1/positions?{query}", data=body.encode(), content_type=kind)


def test_the_corrected_copy_is_replayed(client: FlaskClient) -> None:
    answer = post(client, "record=1&apply=5:E2", OTHER + "\n" + SLIPPED)
    assert answer.status_code == 200, answer.get_json()
    (entry,) = answer.get_json()["records"]
    assert entry["index"] == 1 and entry["corrections"] == [
        {"ply": 5, "move": "e2", "written": "e1"}
    ]
    assert entry["report"]["valid"] is True and entry["report"]["result"] == "Blue+5"
    assert entry["moves"][4]["move"] == "e2" and len(entry["frames"]) == 52
    as_sent = post(client, "record=1", OTHER + "\n" + SLIPPED).get_json()["records"][0]
    assert as_sent["report"]["valid"] is False and "corrections" not in as_sent


def test_corrections_apply_in_order_to_record_zero_by_default(client: FlaskClient) -> None:
    answer = post(client, "apply=5:e2&apply=6:c3", SLIPPED + "\n" + OTHER).get_json()
    (entry,) = answer["records"]
    assert [c["written"] for c in entry["corrections"]] == ["e1", "c2"]
    assert entry["refused_ply"] == 8


def test_an_uploaded_json_file_is_corrected_by_pointer(client: FlaskClient) -> None:
    text = arbiter.write_json(arbiter.parse_record(BLITZ)).replace('"at": "e2"', '"at": "z9"', 1)
    upload = {"file": [(_bytes(OTHER), "a.grn"), (_bytes(text), "b.json")]}
    answer = client.post("/api/v1/positions?record=1&apply=5:e2@/moves/4", data=upload)
    (entry,) = answer.get_json()["records"]
    assert entry["file"] == "b.json" and entry["report"]["valid"] is True
    assert entry["corrections"] == [{"ply": 5, "move": "e2", "written": "z9"}]


def _bytes(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode())


@pytest.mark.usefixtures("suggesting")
def test_a_record_that_cannot_be_read_is_corrected_where_its_suggestion_says(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter.adjudicator.replay import Report
    from arbiter.service.core import repairs

    unreadable = BLITZ.replace("3. e2 c2", "3. 2e c2")
    found = post(client, "apply=5:e2", unreadable)  # the search's own suggestion locates it
    assert found.status_code == 200
    hopeless = BLITZ.replace("3. e2 c2", "3. qqq c2")  # no suggestion says where ply 5 is
    refused = post(client, "apply=5:e2", hopeless)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "cannot-correct"

    def suggested(item: object, **_: Any) -> Report:
        errors: list[dict[str, object]] = [{"code": "syntax-error", "message": "unexpected"}]
        errors[0]["suggestions"] = [{**SUGGESTIONS[0], "written": "qqq"}]
        return Report(file=None, index=0, errors=errors)

    monkeypatch.setattr(repairs, "report_for", suggested)
    (entry,) = post(client, "apply=5:e2", hopeless).get_json()["records"]
    assert entry["report"]["valid"] and entry["corrections"][0]["written"] == "qqq"


def test_the_diagram_of_a_corrected_copy(client: FlaskClient) -> None:
    answer = client.post(
        "/api/v1/diagram?ply=5&apply=5:e2", data=SLIPPED.encode(), content_type="text/plain"
    )
    assert answer.status_code == 200 and "3. Blue e2" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "status", "code", "words"),
    [
        ("apply=e2", 400, "bad-parameter", "a correction is written PLY:MOVE"),
        ("apply=5:e2@7", 400, "bad-parameter", "not '5:e2@7'"),
        ("apply=5:+", 400, "bad-parameter", "not '5: '"),  # a blank move: the schema refuses it
        (
            "apply=99:e2",
            422,
            "cannot-correct",
            "record 0 cannot be corrected so: there is no ply 99",
        ),
        ("apply=5:z9", 422, "cannot-correct", "'z9' is no move of Pilo"),
        ("apply=5:e1", 422, "cannot-correct", "ply 5 already holds e1"),
        ("record=2&apply=5:e2", 422, "no-such-record", "no record 2: 1 record was read"),
    ],
)
def test_corrections_that_cannot_be_used(
    client: FlaskClient, query: str, status: int, code: str, words: str
) -> None:
    for path in ("positions", "diagram"):
        answer = client.post(
            f"/api/v1/{path}?{query}", data=SLIPPED.encode(), content_type="text/plain"
        )
        error = answer.get_json()["error"]
        assert (answer.status_code, error["code"]) == (status, code), error
        assert words in error["message"]
        if code != "no-such-record":
            assert error["parameter"] == "apply"


def test_json_bodies_are_corrected_too(client: FlaskClient) -> None:
    text = arbiter.write_json([arbiter.parse_record(OTHER), arbiter.parse_record(SLIPPED)])
    answer = post(client, "record=1&apply=5:e2", text, "application/json")
    (entry,) = answer.get_json()["records"]
    assert entry["report"]["valid"] and json.loads(text)[1]["moves"][4]["at"] == "e1"


@pytest.mark.parametrize(
    ("text", "taken"), [("5:e2", True), ("5:e2@3:14", True), ("5: ", False), ("5: e2", False)]
)
def test_the_api_description_takes_the_corrections_the_server_takes(text: str, taken: bool) -> None:
    described = yaml.safe_load(
        (ROOT / "src" / "arbiter" / "service" / "web" / "openapi.yaml").read_text(encoding="utf-8")
    )
    pattern = described["components"]["parameters"]["Apply"]["schema"]["items"]["pattern"]
    assert (re.search(pattern, text) is not None) == taken
    assert (re.fullmatch(CORRECTION_PATTERN, text.strip()) is not None) == taken
