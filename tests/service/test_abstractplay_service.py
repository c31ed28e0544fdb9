"""Abstract Play records through the command line, the HTTP API and a real server
(spec/abstractplay.md, spec/cli.md, spec/api.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.service.cli.main import main
from tests.service.records import FINISHED_GRN
from tests.service.test_serve import post, server  # noqa: F401  (the real-server fixture)

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "samples" / "pletore" / "valid"
INVALID = ROOT / "samples" / "pletore" / "invalid"
DOWNLOADS = sorted(
    p for p in VALID.glob("*-abstractplay-*.json") if not p.name.endswith(".expected.json")
)
OCCUPIED = INVALID / "06-abstractplay-occupied-point.json"
PILO = '[Game "Pilo"]\n[Size "4"]\n\n1. b2 swap 2. c3 Blue+R\n'


def json_lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def header(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["header"]
    return value


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    """The three real downloads, in a folder of their own."""
    for path in DOWNLOADS:
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


# --- the command line -------------------------------------------------------------------------


def test_three_downloads() -> None:
    assert len(DOWNLOADS) == 3


def test_adjudicate_gives_the_site_s_winners_and_scores(runner: CliRunner, downloads: Path) -> None:
    result = runner.invoke(main, ["adjudicate", "--json", str(downloads)])
    assert result.exit_code == 0, result.output
    for report, path in zip(json_lines(result.stdout), DOWNLOADS, strict=True):
        seats = header(path)["players"]
        winner = next(seat for seat in seats if seat["result"] == 1)
        totals = {colour: d["total"] for colour, d in report["details"].items()}
        assert report["winner_player"] == winner["name"]
        assert totals == {"Black": seats[0]["score"], "White": seats[1]["score"]}
    table = runner.invoke(main, ["adjudicate", str(downloads)]).stdout
    assert "White+15   White (Aaron)" in table and "Black+25.5 Black (Brontë)" in table


def test_jobs_read_downloads_as_one_process_does(runner: CliRunner, downloads: Path) -> None:
    one = runner.invoke(main, ["adjudicate", "--json", str(downloads)])
    two = runner.invoke(main, ["adjudicate", "--json", "--jobs", "2", str(downloads)])
    forced = runner.invoke(
        main, ["adjudicate", "--json", "--jobs", "2", "--from", "abstractplay", str(downloads)]
    )
    assert one.stdout == two.stdout == forced.stdout


def test_from_abstractplay_on_standard_input(runner: CliRunner) -> None:
    text = DOWNLOADS[1].read_text(encoding="utf-8")
    result = runner.invoke(
        main, ["adjudicate", "--json", "--from", "abstractplay", "-"], input=text
    )
    assert result.exit_code == 0
    assert json_lines(result.stdout)[0]["result"] == "White+R"
    as_grn = runner.invoke(main, ["adjudicate", "--json", "--from", "grn", "-"], input=text)
    assert as_grn.exit_code == 1
    assert json_lines(as_grn.stdout)[0]["errors"][0]["code"] == "syntax-error"


def test_from_abstractplay_refuses_the_project_s_json(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "ours.json"
    path.write_text('{"game": "Pletore", "size": 5, "komi": 0}', encoding="utf-8")
    assert runner.invoke(main, ["validate", str(path)]).exit_code == 0
    result = runner.invoke(main, ["validate", "--from", "abstractplay", str(path)])
    assert result.exit_code == 1
    assert f"{path}:record 1/game: schema:" in result.output


def test_validate_locates_by_round_and_seat(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", str(OCCUPIED)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{OCCUPIED}:record 1/moves/2/1: illegal-move: f6 is occupied (ply 4, f6)"
    )


def test_convert_there_and_back(runner: CliRunner, downloads: Path, tmp_path: Path) -> None:
    source = downloads / DOWNLOADS[0].name
    grn = tmp_path / "game.grn"
    back = tmp_path / "back.json"
    assert (
        runner.invoke(main, ["convert", str(source), "--to", "grn", "-o", str(grn)]).exit_code == 0
    )
    result = runner.invoke(main, ["convert", str(grn), "--to", "abstractplay", "-o", str(back)])
    assert (result.exit_code, result.output) == (0, "")  # nothing was left out
    assert json.loads(back.read_text("utf-8")) == json.loads(source.read_text("utf-8"))
    again = runner.invoke(main, ["convert", str(back), "--to", "grn"])
    assert again.output == grn.read_text("utf-8")


def test_convert_several_records_to_an_array_and_skip_what_cannot_go(
    runner: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "mixed.grn"
    lesson = (VALID / "05-lesson-5x5.grn").read_text("utf-8").replace("1. e5", "{note} 1. e5")
    lesson = lesson.replace("[Black ", '[Annotator "Ana"]\n[Black ')
    path.write_text(lesson + "\n" + PILO + "\n" + FINISHED_GRN, encoding="utf-8")
    result = runner.invoke(main, ["convert", str(path), "--to", "abstractplay"])
    assert result.exit_code == 1
    written = json.loads(result.stdout)
    assert [len(item["moves"]) for item in written] == [14, 14]
    assert "record 2: cannot-convert: Abstract Play records are written for Pletore only" in (
        result.stderr
    )
    assert "record 1: Abstract Play records cannot hold 1 comment(s), tag 'Annotator'; " in (
        result.stderr
    )


def test_convert_one_record_gives_an_object(runner: CliRunner) -> None:
    result = runner.invoke(main, ["convert", "-", "--to", "abstractplay"], input=FINISHED_GRN)
    assert result.exit_code == 0
    assert set(json.loads(result.stdout)) == {"header", "moves"}


# --- the HTTP API -------------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["application/json", "application/octet-stream", None])
def test_api_adjudicates_a_download(client: FlaskClient, content_type: str | None) -> None:
    body = DOWNLOADS[2].read_bytes()
    response = client.post("/api/v1/adjudicate", data=body, content_type=content_type)
    assert response.status_code == 200
    (report,) = response.get_json()["reports"]
    assert (report["result"], report["winner_player"]) == ("Black+25.5", "Brontë")


def test_api_validate_locates_by_round_and_seat(client: FlaskClient) -> None:
    response = client.post("/api/v1/validate", data=OCCUPIED.read_bytes())
    (problem,) = response.get_json()["problems"]
    assert (problem["code"], problem["pointer"], problem["ply"]) == (
        "illegal-move",
        "/moves/2/1",
        4,
    )


def test_api_converts_to_and_from_abstractplay(client: FlaskClient) -> None:
    original = DOWNLOADS[1].read_bytes()
    grn = client.post("/api/v1/convert?to=grn", data=original, content_type="application/json")
    assert grn.status_code == 200
    back = client.post("/api/v1/convert?to=abstractplay", data=grn.data, content_type="text/plain")
    assert (back.status_code, back.mimetype) == (200, "application/json")
    assert back.get_json() == json.loads(original)


def test_api_refuses_what_abstractplay_cannot_hold(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/convert?to=abstractplay",
        data=PILO + "\n" + FINISHED_GRN,
        content_type="text/plain",
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert [(p["index"], p["code"]) for p in error["problems"]] == [(0, "cannot-convert")]
    assert json.loads(error["output"])["header"]["players"][1]["result"] == 1


def test_api_names_abstractplay_among_the_targets(client: FlaskClient) -> None:
    response = client.post("/api/v1/convert?to=sgf", data=FINISHED_GRN, content_type="text/plain")
    assert response.status_code == 400
    assert "'abstractplay'" in response.get_json()["error"]["message"]


def test_the_page_offers_the_conversion(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'data-path="/api/v1/convert?to=abstractplay"' in page


def test_a_real_server_converts_and_adjudicates_a_download(server: str) -> None:  # noqa: F811
    status, kind, body = post(
        f"{server}/api/v1/convert?to=grn", DOWNLOADS[0].read_bytes(), "application/json"
    )
    assert (status, kind) == (200, "text/plain")
    status, kind, back = post(f"{server}/api/v1/convert?to=abstractplay", body, "text/plain")
    assert (status, kind) == (200, "application/json")
    status, _, answer = post(f"{server}/api/v1/adjudicate", back, "application/json")
    (report,) = json.loads(answer)["reports"]
    assert (status, report["result"], report["winner_player"]) == (200, "White+15", "Aaron")
