"""``arbiter repair``: a corrected copy, the file as it was but for the moves corrected and
their notes; the input is never replaced; usage errors exit with 2, corrections that
cannot be applied with 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import arbiter
from arbiter.adjudicator.replay import Report
from arbiter.notation.ast import Record
from arbiter.service.cli.main import main
from arbiter.service.core import repairs
from tests.service.suggested import BLITZ, SLIPPED, SUGGESTIONS

REPAIRED = BLITZ.replace("3. e2 c2", "3. e2 {was: e1} c2")


@pytest.fixture
def slipped(tmp_path: Path) -> Path:
    path = tmp_path / "blitz.grn"
    path.write_bytes(SLIPPED.encode())
    return path


def test_a_slipped_copy_is_repaired_back_and_then_adjudicates_valid(
    runner: CliRunner, slipped: Path, tmp_path: Path
) -> None:
    out = tmp_path / "fixed.grn"
    result = runner.invoke(main, ["repair", str(slipped), "--apply", "5:e2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == REPAIRED.encode() and slipped.read_bytes() == SLIPPED.encode()
    assert result.stderr.splitlines() == [
        "arbiter: record 1, ply 5: e1 corrected to e2",
        f"arbiter: {out}: record 1 is valid: Blue+5",
    ]
    checked = runner.invoke(main, ["adjudicate", "--json", str(out)])
    assert checked.exit_code == 0 and json.loads(checked.stdout)["result"] == "Blue+5"


def test_corrections_apply_in_order_to_standard_output(runner: CliRunner, slipped: Path) -> None:
    result = runner.invoke(
        main, ["repair", str(slipped), "--apply", "5:e2", "--apply", "5:E3", "-o", "-"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == BLITZ.replace("3. e2 c2", "3. e3 {was: e2; was: e1} c2")
    assert result.stderr.splitlines()[1:] == [
        "arbiter: record 1, ply 5: e2 corrected to e3",
        "arbiter: the copy: record 1 is still not valid: illegal-move: ply 7: e3 is occupied "
        "by a Blue stack",
    ]


def test_standard_input_and_json_records(runner: CliRunner) -> None:
    record = arbiter.parse_record(SLIPPED)
    text = arbiter.write_json(record)
    result = runner.invoke(main, ["repair", "-", "--apply", "5:e2", "-o", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["moves"][4] == {
        "type": "place",
        "at": "e2",
        "comment": "was: e1",
    }


def test_a_record_of_several_is_named(runner: CliRunner, tmp_path: Path) -> None:
    both = tmp_path / "both.grn"
    both.write_text(BLITZ + "\n" + SLIPPED, encoding="utf-8")
    command = ["repair", str(both), "--apply", "5:e2", "-o", "-"]
    unnamed = runner.invoke(main, command)
    assert unnamed.exit_code == 2 and "FILE holds 2 records: name one with --record N" in (
        unnamed.stderr
    )
    assert runner.invoke(main, [*command, "--record", "3"]).exit_code == 2
    named = runner.invoke(main, [*command, "--record", "2"])
    assert named.exit_code == 0 and named.stdout == BLITZ + "\n" + REPAIRED


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--apply", "5e2", "-o", "-"], "a correction is written PLY:MOVE"),
        (["--apply", "5:e2"], "Missing option '-o' / '--output'"),
        (["-o", "-"], "Missing option '--apply'"),
        (["--apply", "5:e2", "-o", "SAME"], "may not replace FILE"),
    ],
)
def test_usage_errors_exit_with_two(
    runner: CliRunner, slipped: Path, options: list[str], message: str
) -> None:
    options = [str(slipped) if option == "SAME" else option for option in options]
    result = runner.invoke(main, ["repair", str(slipped), *options])
    assert result.exit_code == 2 and message in result.stderr
    assert slipped.read_bytes() == SLIPPED.encode()


@pytest.mark.parametrize(
    ("correction", "message"),
    [
        ("99:e2", "record 1: there is no ply 99: the record has 51 plies"),
        (
            "5:z9",
            "record 1: 'z9' is no move of Pilo: 'z9' names a square that no board has "
            "(files a to s, ranks 1 to 19)",
        ),
        ("5:e1", "record 1: ply 5 already holds e1"),
    ],
)
def test_a_correction_that_cannot_be_applied_exits_with_one(
    runner: CliRunner, slipped: Path, tmp_path: Path, correction: str, message: str
) -> None:
    out = tmp_path / "fixed.grn"
    result = runner.invoke(main, ["repair", str(slipped), "--apply", correction, "-o", str(out)])
    assert result.exit_code == 1 and result.stderr == f"arbiter: {slipped}: {message}\n"
    assert not out.exists()


def test_a_file_that_cannot_be_read(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "missing.grn"
    result = runner.invoke(main, ["repair", str(missing), "--apply", "5:e2", "-o", "-"])
    assert result.exit_code == 1 and "io-error: cannot read" in result.stderr


UNREADABLE = BLITZ.replace("3. e2 c2", "3. 2e c2")


def test_a_record_that_cannot_be_read_is_repaired_where_it_is_told(
    runner: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "unreadable.grn"
    path.write_text(UNREADABLE, encoding="utf-8")
    told = runner.invoke(main, ["repair", str(path), "--apply", "5:e2@10:22", "-o", "-"])
    assert told.exit_code == 0 and told.stdout == BLITZ.replace("3. e2", "3. e2 {was: 2e}")
    hopeless = tmp_path / "hopeless.grn"  # no suggestion of the search says where ply 5 is
    hopeless.write_text(BLITZ.replace("3. e2 c2", "3. qqq c2"), encoding="utf-8")
    untold = runner.invoke(main, ["repair", str(hopeless), "--apply", "5:e2", "-o", "-"])
    assert untold.exit_code == 1 and "give where the move of the correction stands" in (
        untold.stderr
    )


def test_or_where_its_suggestion_says(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "unreadable.grn"
    path.write_text(UNREADABLE, encoding="utf-8")

    def suggested(item: Record | Exception, **_: Any) -> Report:
        errors: list[dict[str, object]] = [{"code": "syntax-error", "message": "unexpected"}]
        errors[0]["suggestions"] = [{**SUGGESTIONS[0], "written": "2e"}]
        return Report(file=None, index=0, errors=errors)

    monkeypatch.setattr(repairs, "report_for", suggested)
    result = runner.invoke(main, ["repair", str(path), "--apply", "5:E2", "-o", "-"])
    assert result.exit_code == 0 and result.stdout == BLITZ.replace("3. e2", "3. e2 {was: 2e}")
