"""Where people see repair suggestions: under each error in ``arbiter validate``, after the
first error in the table of ``adjudicate``, as they are in its JSON and in the API's
answers; in words that say what the correction achieves, escaped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from arbiter.service.cli.main import main
from arbiter.service.core.suggestions import first_hint, suggestion_lines
from tests.service.suggested import SLIPPED, SUGGESTIONS

ERROR = {"code": "illegal-move", "message": "e1 is occupied", "suggestions": SUGGESTIONS}


def test_the_best_three_are_said_each_with_what_it_achieves() -> None:
    assert suggestion_lines(ERROR, "Blue+5") == [
        "did you mean ply 5 e2 (written e1: rank off by one; then the game replays to "
        "Blue+5, as claimed)",
        'did you mean ply 5 f1 (written e1: <img src=x onerror="hacked=1">\\x1b[2J; then '
        "that ply is legal)",
        "did you mean ply 1 d1 (written e1: file off by one; then the game replays to "
        "Orange+2, not the claimed Blue+5)",
    ]


@pytest.mark.parametrize(
    ("suggestion", "claimed", "said"),
    [
        ({"replays": True, "result": "Orange+2", "claimed": False}, "*", "replays to Orange+2)"),
        ({"replays": True, "result": None}, "Blue+5", "(then every move is legal)"),
        ({"replays": False, "written": "c\n3"}, None, "(written c\\n3; then that ply is legal)"),
        ({"replays": True, "result": "Blue", "claimed": True, "slip": ""}, "Blue", "as claimed)"),
    ],
)
def test_each_outcome_in_words(suggestion: dict[str, Any], claimed: str | None, said: str) -> None:
    line = suggestion_lines({"suggestions": [{"ply": 3, "move": "c4", **suggestion}]}, claimed)
    assert line[0].startswith("did you mean ply 3 c4 (") and line[0].endswith(said)


def test_suggestions_without_a_ply_and_move_are_passed_over() -> None:
    error = {"suggestions": [{"move": "c4"}, "c4", {"ply": "3", "move": "c4"}]}
    assert suggestion_lines(error, None) == [] and first_hint(error) == ""
    assert suggestion_lines({"suggestions": None}, None) == []


@pytest.fixture
def slipped(tmp_path: Path) -> Path:
    path = tmp_path / "blitz.grn"
    path.write_text(SLIPPED, encoding="utf-8")
    return path


@pytest.mark.usefixtures("suggesting")
def test_validate_prints_them_under_the_error(runner: CliRunner, slipped: Path) -> None:
    result = runner.invoke(main, ["validate", str(slipped)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{slipped}:10:22: illegal-move: e1 is occupied by a Blue stack (ply 5, e1)",
        *(f"  {line}" for line in suggestion_lines(ERROR, "Blue+5")),
    ]


@pytest.mark.usefixtures("suggesting")
def test_the_table_names_the_best_one(runner: CliRunner, slipped: Path) -> None:
    result = runner.invoke(main, ["adjudicate", str(slipped)])
    row = result.stdout.splitlines()[1]
    assert row.endswith(
        "illegal-move: ply 5: e1 is occupied by a Blue stack; did you mean ply 5 e2?"
    )


@pytest.mark.usefixtures("suggesting")
def test_json_reports_carry_them_as_they_are(runner: CliRunner, slipped: Path) -> None:
    result = runner.invoke(main, ["adjudicate", "--json", str(slipped)])
    assert json.loads(result.stdout)["errors"][0]["suggestions"] == SUGGESTIONS


@pytest.mark.usefixtures("suggesting")
def test_the_api_answers_carry_them(client: FlaskClient) -> None:
    headers = {"Content-Type": "text/plain"}
    reports = client.post("/api/v1/adjudicate", data=SLIPPED, headers=headers).get_json()
    assert reports["reports"][0]["errors"][0]["suggestions"] == SUGGESTIONS
    problems = client.post("/api/v1/validate", data=SLIPPED, headers=headers).get_json()
    assert problems["problems"][0]["suggestions"] == SUGGESTIONS
