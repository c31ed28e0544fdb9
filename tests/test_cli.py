"""The ``arbiter`` command line: exit codes, output forms, batches that go on past errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arbiter.service.cli.main import main

ROOT = Path(__file__).resolve().parents[1]

FINISHED = (
    '[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n[Black "player-01"]\n'
    '[White "player-02"]\n[Result "White+1"]\n\n'
    "1. a3 b3 2. a1 a2 3. c3 a3x 4. c1 b2 5. c2 b1 6. pass pass White+1\n"
)
ILLEGAL = '[Game "Pletore"]\n[Size "3"]\n[Komi "0"]\n\n1. b2 b2 *\n'
BROKEN = '[Game "Pletore"]\n[Size "3"]\n\n1. b2 *\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    (tmp_path / "a.grn").write_text(FINISHED + "\n" + ILLEGAL, encoding="utf-8")
    (tmp_path / "b.grn").write_text(BROKEN + "\n" + FINISHED, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    return tmp_path


def json_lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def test_adjudicate_json_gives_one_report_per_record_in_order(
    runner: CliRunner, batch: Path
) -> None:
    result = runner.invoke(main, ["adjudicate", "--json", str(batch)])
    assert result.exit_code == 1
    reports = json_lines(result.stdout)
    assert [(Path(str(r["file"])).name, r["index"], r["valid"]) for r in reports] == [
        ("a.grn", 0, True),
        ("a.grn", 1, False),
        ("b.grn", 0, False),
        ("b.grn", 1, True),
    ]
    first = reports[0]
    assert first["finished"] is True and first["winner"] in ("Black", "White")
    assert reports[1]["errors"][0]["code"] == "illegal-move"
    assert reports[1]["errors"][0]["ply"] == 2
    assert reports[2]["errors"][0]["code"] == "missing-komi"


def test_adjudicate_all_valid_exits_zero_with_a_table(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "ok.grn"
    path.write_text(FINISHED, encoding="utf-8")
    result = runner.invoke(main, ["adjudicate", str(path)])
    assert result.exit_code == 0, result.output
    header, row = result.stdout.splitlines()
    assert header.split()[:3] == ["file", "#", "game"]
    assert "Pletore" in row and row.rstrip().endswith("ok")


def test_jobs_give_the_same_reports_in_the_same_order(runner: CliRunner, batch: Path) -> None:
    one = runner.invoke(main, ["adjudicate", "--json", str(batch)])
    two = runner.invoke(main, ["adjudicate", "--json", "--jobs", "2", str(batch)])
    assert one.stdout == two.stdout and two.exit_code == 1


def test_unreadable_path_is_reported_and_the_rest_is_still_read(
    runner: CliRunner, batch: Path
) -> None:
    result = runner.invoke(
        main, ["adjudicate", "--json", str(batch / "missing.grn"), str(batch / "a.grn")]
    )
    reports = json_lines(result.stdout)
    assert reports[0]["errors"][0]["code"] == "io-error"
    assert len(reports) == 3 and result.exit_code == 1


def test_standard_input(runner: CliRunner) -> None:
    result = runner.invoke(main, ["adjudicate", "--json", "-"], input=FINISHED)
    assert result.exit_code == 0 and json_lines(result.stdout)[0]["file"] == "-"


def test_validate_prints_only_problems_with_locations(runner: CliRunner, batch: Path) -> None:
    result = runner.invoke(main, ["validate", str(batch)])
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if not line.startswith("  ")]
    assert len(lines) == 2
    assert lines[0].endswith("a.grn:14:7: illegal-move: b2 is occupied (ply 2, b2)")
    assert lines[1].split(":")[1:4] == ["1", "7", " missing-komi"]
    hints = result.stdout.split("\n", 1)[1].split(lines[1])[0].splitlines()
    assert 1 <= len(hints) <= 3 and all(h.startswith("  did you mean ply ") for h in hints)


def test_usage_errors_exit_two(runner: CliRunner) -> None:
    assert runner.invoke(main, ["adjudicate"]).exit_code == 2
    assert runner.invoke(main, ["convert", "x.grn", "--to", "pgn"]).exit_code == 2
    assert runner.invoke(main, ["adjudicate", "--jobs", "0", "x"]).exit_code == 2


def test_convert_round_trip_is_canonical(runner: CliRunner, tmp_path: Path) -> None:
    source = tmp_path / "game.grn"
    source.write_text(FINISHED.replace("1. b2", "1.   B2"), encoding="utf-8")
    as_json = runner.invoke(
        main, ["convert", str(source), "--to", "json", "-o", str(tmp_path / "game.json")]
    )
    assert as_json.exit_code == 0, as_json.output
    back = runner.invoke(main, ["convert", str(tmp_path / "game.json"), "--to", "grn"])
    assert back.exit_code == 0
    assert back.output == FINISHED
    again = runner.invoke(main, ["convert", "-", "--to", "grn"], input=back.output)
    assert again.output == back.output


def test_convert_reports_broken_records_and_keeps_the_others(
    runner: CliRunner, batch: Path
) -> None:
    result = runner.invoke(main, ["convert", str(batch / "b.grn"), "--to", "grn"])
    assert result.exit_code == 1
    assert "missing-komi" in result.stderr
    assert result.stdout.count("[Game ") == 1


def test_games_lists_every_game(runner: CliRunner) -> None:
    result = runner.invoke(main, ["games", "--json"])
    names = [row["name"] for row in json.loads(result.output)]
    assert names == ["Pilo", "Petrify", "Implo", "Pletore", "Pilare"]
    text = runner.invoke(main, ["games"]).output
    assert "Pilare" in text and "6 or 8" in text


def test_files_of_a_folder_that_are_skipped_are_said_and_counted(
    runner: CliRunner, tmp_path: Path
) -> None:
    # What a user had: round1.txt was passed over without a word, and the run exited 0.
    record = (ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn").read_bytes()
    (tmp_path / "round1.txt").write_bytes(record)
    (tmp_path / "ROUND2.GRN").write_bytes(record)
    (tmp_path / ".DS_Store").write_bytes(b"\0")
    result = runner.invoke(main, ["adjudicate", "--json", str(tmp_path)])
    assert result.exit_code == 0 and result.stdout.count("\n") == 1  # ROUND2.GRN, any case
    assert result.stderr.splitlines()[0] == (
        f"arbiter: {tmp_path / 'round1.txt'}: skipped: not a .grn or .json file "
        "(give it by its name to read it)"
    )
    assert result.stderr.rstrip().endswith(", 1 file skipped")
    assert ".DS_Store" not in result.stderr
    named = runner.invoke(main, ["adjudicate", "--json", str(tmp_path / "round1.txt")])
    assert named.exit_code == 0 and '"valid": true' in named.stdout  # named: read as GRN
    (tmp_path / "ROUND2.GRN").unlink()
    only = runner.invoke(main, ["validate", str(tmp_path)])
    assert only.exit_code == 1
    assert only.stderr.splitlines()[-1] == "arbiter: no records found, 1 file skipped"
