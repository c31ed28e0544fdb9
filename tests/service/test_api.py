"""The endpoints of ``/api/v1`` through Flask's test client (``spec/api.md``)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.notation.json_schema import record_schema
from arbiter.service.cli.main import main
from arbiter.service.core.batch import adjudicate_source, game_rows
from tests.service.records import BROKEN_GRN, FINISHED_GRN, ILLEGAL_GRN, UNFINISHED_JSON

ROOT = Path(__file__).resolve().parents[2]


def upload(*files: tuple[str, str]) -> dict[str, Any]:
    """A multipart body with each (name, text) as a file under the field 'file'."""
    return {
        "data": {"file": [(io.BytesIO(text.encode()), name) for name, text in files]},
        "content_type": "multipart/form-data",
    }


# --- /adjudicate -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-grn",
        "application/octet-stream",
        None,
    ],
)
def test_adjudicate_grn_body(client: FlaskClient, content_type: str | None) -> None:
    response = client.post("/api/v1/adjudicate", data=FINISHED_GRN, content_type=content_type)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["valid"], body["count"], body["invalid"]) == (True, 1, 0)
    (report,) = body["reports"]
    assert report["file"] is None
    assert (report["game"], report["result"], report["winner"]) == ("Pletore", "White+7", "White")
    assert report["winner_player"] == "player-05"


@pytest.mark.parametrize("content_type", ["application/json", None])
def test_adjudicate_json_body(client: FlaskClient, content_type: str | None) -> None:
    response = client.post("/api/v1/adjudicate", data=UNFINISHED_JSON, content_type=content_type)
    assert response.status_code == 200
    (report,) = response.get_json()["reports"]
    assert (report["valid"], report["finished"], report["result"]) == (True, False, "*")
    assert report["plies"] == 2


def test_content_type_decides_over_content(client: FlaskClient) -> None:
    """A JSON record sent as text/plain is read as GRN, and fails as GRN does."""
    response = client.post("/api/v1/adjudicate", data=UNFINISHED_JSON, content_type="text/plain")
    (report,) = response.get_json()["reports"]
    assert not report["valid"]
    assert report["errors"][0]["code"] == "syntax-error"


def test_reports_are_those_of_the_library(client: FlaskClient) -> None:
    text = FINISHED_GRN + "\n" + ILLEGAL_GRN
    response = client.post("/api/v1/adjudicate", data=text, content_type="text/plain")
    expected = [report.to_dict() for report in adjudicate_source(text)]
    assert response.get_json()["reports"] == expected


def test_reports_are_those_of_the_cli(
    client: FlaskClient, runner: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "round3.grn"
    path.write_text(FINISHED_GRN + "\n" + BROKEN_GRN + "\n" + ILLEGAL_GRN, encoding="utf-8")
    cli = runner.invoke(main, ["adjudicate", "--json", str(path)])
    assert cli.exit_code == 1
    from_cli = [json.loads(line) for line in cli.stdout.splitlines()]
    for report in from_cli:
        report["file"] = "round3.grn"
    response = client.post("/api/v1/adjudicate", **upload(("round3.grn", path.read_text())))
    assert response.get_json()["reports"] == from_cli


def test_reports_keep_the_key_order_of_the_cli(client: FlaskClient) -> None:
    response = client.post("/api/v1/adjudicate", data=FINISHED_GRN, content_type="text/plain")
    (expected,) = adjudicate_source(FINISHED_GRN)
    assert list(json.loads(response.data)["reports"][0]) == list(expected.to_dict())


def test_a_broken_record_never_stops_the_batch(client: FlaskClient) -> None:
    text = "\n".join([FINISHED_GRN, BROKEN_GRN, ILLEGAL_GRN, FINISHED_GRN])
    response = client.post("/api/v1/adjudicate", data=text, content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["valid"], body["count"], body["invalid"]) == (False, 4, 2)
    reports = body["reports"]
    assert [report["valid"] for report in reports] == [True, False, False, True]
    assert [report["index"] for report in reports] == [0, 1, 2, 3]
    assert reports[1]["errors"][0]["code"] == "bad-size"
    refused = reports[2]["errors"][0]
    assert all(hint["ply"] <= 2 for hint in refused.pop("suggestions"))  # spec/hints.md
    assert refused == {
        "code": "illegal-move",
        "message": refused["message"],
        "ply": 2,
        "move": "d4",
        "line": 21,
        "column": 7,
    }


def test_a_json_array_with_a_broken_record(client: FlaskClient) -> None:
    good = json.loads(UNFINISHED_JSON)
    body = json.dumps([good, {"game": "Pilo", "size": 40}, good])
    response = client.post("/api/v1/adjudicate", data=body, content_type="application/json")
    reports = response.get_json()["reports"]
    assert [report["valid"] for report in reports] == [True, False, True]
    assert reports[1]["errors"][0]["pointer"] == "/size"


def test_a_body_that_is_not_json_is_an_invalid_record(client: FlaskClient) -> None:
    response = client.post("/api/v1/adjudicate", data="{not json", content_type="application/json")
    assert response.status_code == 200
    (report,) = response.get_json()["reports"]
    assert report["errors"][0]["code"] == "bad-json"


def test_a_body_with_no_record(client: FlaskClient) -> None:
    # No record is not a clean batch (spec/api.md 3.2), as the CLI's "no records found".
    response = client.post("/api/v1/adjudicate", data="[]", content_type="application/json")
    assert response.get_json() == {"valid": False, "count": 0, "invalid": 0, "reports": []}
    response = client.post("/api/v1/validate", data="\n \n", content_type="text/plain")
    assert response.get_json() == {"valid": False, "count": 0, "invalid": 0, "problems": []}


def test_multipart_with_two_files(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/adjudicate",
        **upload(("round3.grn", FINISHED_GRN + "\n" + ILLEGAL_GRN), ("club.json", UNFINISHED_JSON)),
    )
    assert response.status_code == 200
    reports = response.get_json()["reports"]
    assert [(r["file"], r["index"], r["valid"]) for r in reports] == [
        ("round3.grn", 0, True),
        ("round3.grn", 1, False),
        ("club.json", 0, True),
    ]


def test_the_file_name_decides_the_notation(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/adjudicate",
        **upload(
            ("looks-like-json.grn", UNFINISHED_JSON),
            ("looks-like-grn.json", FINISHED_GRN),
            ("no-extension", UNFINISHED_JSON),
        ),
    )
    codes = [
        report["errors"][0]["code"] if report["errors"] else None
        for report in response.get_json()["reports"]
    ]
    assert codes == ["syntax-error", "bad-json", None]


def test_multipart_ignores_fields_that_are_not_files(client: FlaskClient) -> None:
    data = {"note": "not a file", "file": (io.BytesIO(FINISHED_GRN.encode()), "a.grn")}
    response = client.post("/api/v1/adjudicate", data=data, content_type="multipart/form-data")
    assert [report["file"] for report in response.get_json()["reports"]] == ["a.grn"]


def test_an_unused_file_input_is_skipped(client: FlaskClient) -> None:
    data = {"file": [(io.BytesIO(b""), ""), (io.BytesIO(FINISHED_GRN.encode()), "a.grn")]}
    response = client.post("/api/v1/adjudicate", data=data, content_type="multipart/form-data")
    assert response.get_json()["count"] == 1


# --- /validate ---------------------------------------------------------------------------


def test_validate_lists_only_the_problems(client: FlaskClient) -> None:
    text = "\n".join([FINISHED_GRN, BROKEN_GRN, ILLEGAL_GRN])
    response = client.post("/api/v1/validate", data=text, content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["valid"], body["count"], body["invalid"]) == (False, 3, 2)
    assert [(p["file"], p["index"], p["code"]) for p in body["problems"]] == [
        (None, 1, "bad-size"),
        (None, 2, "illegal-move"),
    ]
    assert body["problems"][1]["ply"] == 2


def test_validate_of_valid_records(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/validate", **upload(("a.grn", FINISHED_GRN), ("b.json", UNFINISHED_JSON))
    )
    assert response.get_json() == {"valid": True, "count": 2, "invalid": 0, "problems": []}


def test_validate_agrees_with_the_cli(
    client: FlaskClient, runner: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "mixed.grn"
    path.write_text("\n".join([ILLEGAL_GRN, FINISHED_GRN, BROKEN_GRN]), encoding="utf-8")
    cli = runner.invoke(main, ["validate", str(path)])
    response = client.post("/api/v1/validate", **upload(("mixed.grn", path.read_text())))
    problems = response.get_json()["problems"]
    lines = [line for line in cli.stdout.splitlines() if not line.startswith("  ")]
    hints = [line for line in cli.stdout.splitlines() if line.startswith("  did you mean ")]
    assert len(hints) == sum(min(3, len(problem.get("suggestions", []))) for problem in problems)
    assert len(lines) == len(problems)
    for line, problem in zip(lines, problems, strict=True):
        assert f":{problem['line']}:{problem['column']}: {problem['code']}: " in line


# --- /convert ----------------------------------------------------------------------------


def test_convert_grn_to_json(client: FlaskClient) -> None:
    response = client.post("/api/v1/convert?to=json", data=FINISHED_GRN, content_type="text/plain")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    [record] = response.get_json()  # always an array, whatever the number of records
    assert (record["game"], record["size"], record["komi"], record["result"]) == (
        "Pletore",
        5,
        2,
        "White+7",
    )
    assert record["tags"] == [{"name": "Event", "value": "Beginners' lesson"}]


def test_convert_json_to_grn(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/convert?to=grn", data=UNFINISHED_JSON, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.mimetype_params["charset"] == "utf-8"
    assert response.text.startswith('[Game "Pletore"]\n[Size "5"]\n[Komi "2"]\n')
    assert response.text.endswith("1. c3 b2 *\n")


def test_convert_round_trip(client: FlaskClient) -> None:
    as_json = client.post("/api/v1/convert?to=json", data=FINISHED_GRN).data
    as_grn = client.post(
        "/api/v1/convert?to=grn", data=as_json, content_type="application/json"
    ).text
    again = client.post("/api/v1/convert?to=grn", data=as_grn, content_type="text/plain").text
    assert as_grn == again
    assert client.post("/api/v1/convert?to=json", data=as_grn).data == as_json


def test_convert_several_files_into_one_json_array(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/convert?to=json",
        **upload(("a.grn", FINISHED_GRN + "\n" + FINISHED_GRN), ("b.json", UNFINISHED_JSON)),
    )
    records = response.get_json()
    assert [record["result"] for record in records] == ["White+7", "White+7", "*"]


def test_convert_keeps_an_illegal_record_as_written(client: FlaskClient) -> None:
    response = client.post("/api/v1/convert?to=grn", data=ILLEGAL_GRN, content_type="text/plain")
    assert response.status_code == 200
    assert response.text.endswith("1. d4 d4 Blue+3\n")


def test_convert_with_an_unreadable_record(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/convert?to=grn",
        **upload(("a.grn", FINISHED_GRN + "\n" + BROKEN_GRN), ("b.json", UNFINISHED_JSON)),
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["status"]) == ("unreadable-records", 422)
    assert [(p["file"], p["index"], p["code"], p["line"]) for p in error["problems"]] == [
        ("a.grn", 1, "bad-size", 13)
    ]
    assert error["output"].count("[Game ") == 2  # the two readable records, converted


def test_convert_with_nothing_readable(client: FlaskClient) -> None:
    response = client.post("/api/v1/convert?to=json", data=BROKEN_GRN, content_type="text/plain")
    assert response.status_code == 422
    assert response.get_json()["error"]["output"] is None


@pytest.mark.parametrize("query", ["", "?to=", "?to=pgn", "?to=GRN", "?format=grn"])
def test_convert_needs_a_known_target(client: FlaskClient, query: str) -> None:
    response = client.post(f"/api/v1/convert{query}", data=FINISHED_GRN, content_type="text/plain")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["code"], error["parameter"]) == ("bad-parameter", "to")


# --- reference endpoints -----------------------------------------------------------------


def test_games(client: FlaskClient, runner: CliRunner) -> None:
    response = client.get("/api/v1/games")
    assert response.status_code == 200
    games = response.get_json()["games"]
    assert games == game_rows()
    assert json.loads(runner.invoke(main, ["games", "--json"]).output) == games
    assert {game["name"] for game in games} == {"Pilo", "Petrify", "Implo", "Pletore", "Pilare"}


def test_schema(client: FlaskClient) -> None:
    response = client.get("/api/v1/schema")
    assert response.status_code == 200
    assert response.mimetype == "application/schema+json"
    assert json.loads(response.data) == record_schema()


@pytest.mark.parametrize("path", ["/health", "/api/v1/health"])
def test_health(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok"
    assert isinstance(body["version"], str)


def test_openapi_documents(client: FlaskClient) -> None:
    # For the five games the served document is the file; the enums come from the games,
    # and the record schema, which the file refers to, is held in full (test_openapi.py).
    written = yaml.safe_load(
        (ROOT / "src" / "arbiter" / "service" / "web" / "openapi.yaml").read_text(encoding="utf-8")
    )
    as_yaml = client.get("/api/v1/openapi.yaml")
    assert as_yaml.status_code == 200
    assert as_yaml.mimetype == "application/yaml"
    served = yaml.safe_load(as_yaml.text)
    schemas = served["components"]["schemas"]
    assert (
        schemas["RecordSource"]["description"]
        == (written["components"]["schemas"]["RecordSource"]["description"])
    )
    schemas["RecordSource"] = written["components"]["schemas"]["RecordSource"]
    assert served == written, (
        "service/web/openapi.yaml does not name the registered games in its enums; update it "
        "(and its copy spec/openapi.yaml)"
    )
    as_json = client.get("/api/v1/openapi.json").get_json()
    as_json["components"]["schemas"]["RecordSource"] = schemas["RecordSource"]
    assert as_json == written


def test_index_page(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.text
    assert "/api/v1/adjudicate" in page
    assert "http://" not in page and "https://" not in page  # no external assets
