"""The command line under bad input (spec/cli.md): no traceback, ever; every file and
directory that cannot be read is an io-error in its place; empty input is not a clean batch;
a failure of the program on one record is that record's error and the batch goes on; and
``convert`` behaves as ``adjudicate`` does, on directories too, in bounded memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arbiter.notation import limits
from arbiter.notation.json_reader import read_json
from arbiter.notation.sources import read_records
from arbiter.service.cli.main import main
from arbiter.service.cli.streams import convert_paths

GOOD = '[Game "Pilo"]\n[Size "3"]\n[Result "*"]\n\n1. b2 a1 *\n'
OTHER = '[Game "Pletore"]\n[Size "3"]\n[Komi "1"]\n\n1. b2 *\n'
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, stdin: str | bytes | None = None) -> Result:
    result = runner.invoke(main, list(args), input=stdin)
    assert isinstance(result.exception, SystemExit | None), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


# --- convert ----------------------------------------------------------------------------------


def test_convert_a_directory_converts_every_record_in_it(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.grn").write_text(GOOD + "\n" + OTHER, encoding="utf-8")
    (tmp_path / "sub" / "b.json").write_text(json.dumps({"game": "Pilo", "size": 4}), "utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    result = run(runner, "convert", str(tmp_path), "--to", "json")
    assert result.exit_code == 0, result.stderr
    assert [r["size"] for r in json.loads(result.stdout)] == [3, 3, 4]


@pytest.mark.parametrize("count", [0, 1, 2])
def test_convert_to_json_is_always_an_array(runner: CliRunner, tmp_path: Path, count: int) -> None:
    path = tmp_path / "in.grn"
    path.write_text("\n".join([GOOD] * count), encoding="utf-8")
    result = run(runner, "convert", str(path), "--to", "json")
    converted = json.loads(result.stdout)
    assert isinstance(converted, list) and len(converted) == count
    assert result.exit_code == (0 if count else 1)


def test_convert_a_missing_file_is_an_io_error(runner: CliRunner, tmp_path: Path) -> None:
    result = run(runner, "convert", str(tmp_path / "missing.grn"), "--to", "grn")
    assert result.exit_code == 1
    assert "io-error: cannot read" in result.stderr and "missing.grn" in result.stderr


def test_convert_to_an_unwritable_output_is_an_io_error(runner: CliRunner, tmp_path: Path) -> None:
    source = tmp_path / "in.grn"
    source.write_text(GOOD, encoding="utf-8")
    target = tmp_path / "no" / "such" / "dir" / "out.json"
    result = run(runner, "convert", str(source), "--to", "json", "-o", str(target))
    assert result.exit_code == 1
    assert "io-error: cannot write" in result.stderr


def test_convert_refuses_what_its_reader_would_not_read_back(tmp_path: Path) -> None:
    # GRN writes '"' as itself in a comment, JSON as '\"': a GRN record under the size
    # limit can be over it as JSON. Such a record is refused, located; the others go on.
    quotes = "{" + '"' * 60_000 + "}"
    moves = " ".join(f"{point}1 {quotes}" for point in "abcdefghijkl")
    big = '[Game "Pilo"]\n[Size "12"]\n\n' + moves + " *\n"
    assert len(big) < limits.MAX_RECORD_BYTES
    source = tmp_path / "in.grn"
    source.write_text(GOOD + "\n" + big + "\n" + GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", str(source), "--to", "json"])
    assert result.exit_code == 1
    assert "record 2: line 7, column 7: too-large: the record cannot be converted" in result.stderr
    back = read_json(result.stdout)
    assert len(back) == 2 and all(not isinstance(item, Exception) for item in back)


def test_what_convert_writes_reads_back(tmp_path: Path) -> None:
    samples = [str(p) for p in sorted((ROOT / "samples").rglob("*.grn"))]
    out = tmp_path / "all.json"
    convert_paths(tuple(samples[:1]) + (str(ROOT / "samples"),), "json", str(out))
    back = list(read_records(out))
    assert back and all(not isinstance(item, Exception) for item in back)
    again = tmp_path / "all.grn"
    assert convert_paths((str(out),), "grn", str(again)) == 0
    assert [r for r in read_records(again)] == back


def test_convert_streams_in_bounded_memory(tmp_path: Path) -> None:
    def peak(count: int) -> float:
        source = tmp_path / f"in-{count}.grn"
        source.write_text("\n".join([GOOD] * count), encoding="utf-8")
        tracemalloc.start()
        try:
            assert convert_paths((str(source),), "json", str(tmp_path / "out.json")) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(200), peak(4_000)
    # Holding every record would take about 30 times the small peak; garbage the collector
    # has not reached yet makes the peaks move from run to run (about 2 times here).
    assert large < 4 * small, (small, large)


# --- empty and unreadable input --------------------------------------------------------------


@pytest.mark.parametrize("command", [["adjudicate"], ["validate"], ["convert", "--to", "grn"]])
@pytest.mark.parametrize("what", ["empty file", "blank file", "empty directory", "stdin"])
def test_no_records_is_said_and_exits_one(
    runner: CliRunner, tmp_path: Path, command: list[str], what: str
) -> None:
    path = tmp_path / "in.grn"
    path.write_text("\n  \n" if what == "blank file" else "", encoding="utf-8")
    target = {"empty directory": str(tmp_path / "empty"), "stdin": "-"}.get(what, str(path))
    (tmp_path / "empty").mkdir()
    result = run(runner, command[0], *command[1:], target, stdin="")
    assert result.exit_code == 1
    assert "arbiter: no records found" in result.stderr


def _unlistable(monkeypatch: pytest.MonkeyPatch, locked: Path) -> None:
    """Make ``locked`` a directory that cannot be listed, as mode 000 makes it for anyone
    but root (the tests may run as root, whom no mode stops)."""
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(locked))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_unreadable_directory_is_an_io_error_in_its_place(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    (tmp_path / "a.grn").write_text(GOOD, encoding="utf-8")
    locked = tmp_path / "b-locked"
    locked.mkdir()
    (locked / "hidden.grn").write_text(GOOD, encoding="utf-8")
    (tmp_path / "c.grn").write_text(GOOD, encoding="utf-8")
    _unlistable(monkeypatch, locked)
    result = run(runner, "adjudicate", "--json", "--jobs", jobs, str(tmp_path))
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    codes = [r["errors"][0]["code"] if r["errors"] else None for r in reports]
    names = [Path(r["file"]).name for r in reports]
    assert list(zip(names, codes, strict=True)) == [
        ("a.grn", None),
        ("b-locked", "io-error"),
        ("c.grn", None),
    ]
    validate = run(runner, "validate", str(locked))
    assert validate.exit_code == 1 and "io-error" in validate.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a directory whatever its mode")
def test_a_directory_of_mode_000_is_an_io_error(runner: CliRunner, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.grn").write_text(GOOD, encoding="utf-8")
    locked.chmod(0)
    try:
        result = run(runner, "validate", str(tmp_path))
    finally:
        locked.chmod(0o755)
    assert result.exit_code == 1 and "io-error" in result.stdout


def test_json_after_any_amount_of_white_space_is_json(runner: CliRunner, tmp_path: Path) -> None:
    text = " " * 5_000 + "\n" * 3 + json.dumps({"game": "Pilo", "size": 5})
    result = run(runner, "adjudicate", "--json", "-", stdin=text)
    [report] = [json.loads(line) for line in result.stdout.splitlines()]
    assert report["valid"] and result.exit_code == 0
    path = tmp_path / "spaced"
    path.write_text(text, encoding="utf-8")
    parallel = run(runner, "adjudicate", "--json", "--jobs", "2", str(path))
    assert [json.loads(line)["valid"] for line in parallel.stdout.splitlines()] == [True]


# --- JSON strings that cannot be encoded, the same in every command ---------------------------


def test_a_lone_surrogate_is_invalid_in_every_command(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"game":"Pilo","size":5,"players":{"Blue":"\\ud800"}}', encoding="utf-8")
    validate = run(runner, "validate", str(path))
    assert validate.exit_code == 1 and "encoding" in validate.stdout
    adjudicate = run(runner, "adjudicate", "--json", str(path))
    [report] = [json.loads(line) for line in adjudicate.stdout.splitlines()]
    assert adjudicate.exit_code == 1 and report["errors"][0]["code"] == "encoding"
    convert = run(runner, "convert", str(path), "--to", "grn")
    assert convert.exit_code == 1 and "encoding" in convert.stderr


# --- the program's own failures ------------------------------------------------------------


def test_a_failure_on_one_record_is_its_error_and_the_batch_goes_on(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arbiter.service.core.batch as batch

    real = batch.adjudicate

    def failing(record: Any, **kwargs: Any) -> Any:
        if record.game == "Pletore":
            raise ZeroDivisionError("a bug")
        return real(record, **kwargs)

    monkeypatch.setattr(batch, "adjudicate", failing)
    path = tmp_path / "in.grn"
    path.write_text(GOOD + "\n" + OTHER + "\n" + GOOD, encoding="utf-8")
    result = run(runner, "adjudicate", "--json", str(path))
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["valid"] for r in reports] == [True, False, True]
    assert reports[1]["errors"][0]["code"] == "internal-error"
    assert "ZeroDivisionError: a bug" in reports[1]["errors"][0]["message"]
    assert result.exit_code == 1


def test_a_failure_outside_any_record_is_one_line(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arbiter.service.cli.main as cli

    def broken() -> list[dict[str, object]]:
        raise RuntimeError("no games")

    monkeypatch.setattr(cli, "game_rows", broken)
    result = run(runner, "games", "--json")
    assert result.exit_code == 1
    assert result.stderr.strip() == "arbiter: internal error: RuntimeError: no games"


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    path = tmp_path / "many.grn"
    path.write_text("\n".join([GOOD] * 3000), encoding="utf-8")
    script = Path(sys.executable).with_name("arbiter")
    command = f"'{script}' adjudicate --json '{path}' | head -1"
    done = subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.count("\n") == 1
    assert done.stderr == ""
