"""Progress on standard error: a bar on a terminal, a summary line at the end, nothing of it
on standard output; ``--quiet`` silences both (spec/cli.md, "Progress")."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import arbiter
from arbiter.service.cli import progress
from arbiter.service.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_counts_records_and_bytes_and_clears_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    tally = progress.Tally(total_bytes=1000)

    def items() -> list[bool]:
        out = []
        for valid in (True, False, True, True):
            tally.read_bytes += 250
            out.append(valid)
        return out

    seen = list(progress.watched(items(), tally, quiet=False, valid=bool))
    assert seen == [True, False, True, True]
    drawn = screen.getvalue()
    assert "\r[" in drawn and "100% 4 records" in drawn and "ETA" in drawn
    assert drawn.endswith("\r\x1b[K")  # the bar leaves no trace
    assert tally.summary().startswith("4 records, 3 valid, 1 invalid, ")


def test_quiet_or_no_terminal_draws_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    for stream, quiet in ((Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr(sys, "stderr", stream)
        tally = progress.Tally(total_bytes=None)
        assert list(progress.watched([True], tally, quiet=quiet, valid=bool)) == [True]
        assert stream.getvalue() == ""


def test_every_run_ends_with_a_summary_on_standard_error() -> None:
    runner = CliRunner()
    path = str(SAMPLES / "pilo" / "invalid" / "11-batch-with-broken-record.grn")
    result = runner.invoke(main, ["adjudicate", "--json", path])
    assert [json.loads(line)["index"] for line in result.stdout.splitlines()] == [0, 1, 2]
    assert result.stderr.startswith("arbiter: 3 records, 2 valid, 1 invalid, ")
    assert result.exit_code == 1
    quiet = runner.invoke(main, ["adjudicate", "--json", "--quiet", path])
    assert quiet.stderr == "" and quiet.stdout == result.stdout
    checked = runner.invoke(main, ["validate", path])
    assert checked.stderr.startswith("arbiter: 3 records, 2 valid, 1 invalid")


def test_no_records_is_said_and_is_not_success(tmp_path: Path) -> None:
    (tmp_path / "empty.grn").write_text("\n\n", encoding="utf-8")
    for command in (["adjudicate", str(tmp_path)], ["validate", "--quiet", str(tmp_path)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1
        assert result.stderr == "arbiter: no records found\n"


def test_a_terminal_sees_the_bar_and_the_json_goes_untouched_to_standard_output(
    tmp_path: Path,
) -> None:
    # A real process with a pseudo-terminal as standard error.
    record = (SAMPLES / "pilo" / "valid" / "02-blitz-6x6.grn").read_text(encoding="utf-8")
    path = tmp_path / "many.grn"
    path.write_text("\n".join([record] * 300), encoding="utf-8")
    leader, follower = pty.openpty()
    code = (
        "import sys; from arbiter.service.cli import progress; progress.DELAY = 0.0; "
        "progress.INTERVAL = 0.0; from arbiter.service.cli.main import main; "
        "main(['adjudicate', '--json', sys.argv[1]])"
    )
    run = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                           stderr=follower)  # fmt: skip
    os.close(follower)
    screen = bytearray()

    def drain() -> None:  # the terminal is read as the process writes, or it would block
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:
                return
            if not data:
                return
            screen.extend(data)

    reader = threading.Thread(target=drain)
    reader.start()
    stdout, _ = run.communicate(timeout=120)
    reader.join(timeout=10)
    os.close(leader)
    lines = stdout.decode().splitlines()
    assert len(lines) == 300 and all(json.loads(line)["valid"] for line in lines)
    assert b"\r[" in screen and b"% " in screen and b"ETA" in screen  # the bar was drawn
    assert b"arbiter: 300 records, 300 valid, 0 invalid, " in screen


@pytest.mark.parametrize("columns", [30, 50, 80, 200])
def test_the_bar_fits_the_terminal_whatever_its_width(
    monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    # In a 50-column terminal a wider bar wrapped, and every redraw added a line.
    monkeypatch.setenv("COLUMNS", str(columns))
    tally = progress.Tally(total_bytes=10**9)
    tally.read_bytes, tally.records = 3 * 10**8, 1_234_567
    monkeypatch.setattr(progress.time, "perf_counter", lambda: tally.start + 10)  # 10 s in
    line = progress.Bar(tally, Terminal()).line()
    assert len(line) <= columns - 1
    if columns >= 80:  # room for the bar and every figure
        assert line.startswith("[#") and line.endswith("1,234,567 records, 123,457/s, ETA 23 s")


def test_the_table_fits_a_terminal_and_keeps_whole_names_in_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter.service.cli.runs import table_header, table_row

    folder = tmp_path / ("a-folder-with-a-name-long-enough-to-be-cut-on-a-terminal" * 2)
    folder.mkdir()
    path = folder / "round-1.grn"
    path.write_bytes((SAMPLES / "pilo" / "invalid").glob("*.grn").__next__().read_bytes())
    piped = CliRunner().invoke(main, ["adjudicate", str(path)])
    rows = piped.stdout.splitlines()
    assert rows[1].startswith(str(path) + " ")  # the whole name, the whole error
    assert len(rows[1]) > 200 and not rows[1].endswith("…")
    record = next(arbiter.read_records(path))
    assert isinstance(record, arbiter.Record), record
    report = arbiter.adjudicate(record, file=str(path))
    for columns in (50, 80, 120):
        lines = [table_header(columns), table_row(report, columns)]
        assert all(len(line) <= columns - 1 for line in lines), (columns, lines)
        assert lines[1].split()[0].startswith("…") and lines[1].endswith("…")


def test_bytes_are_counted_only_for_a_bar() -> None:
    """The bytes read feed the bar's share done, which needs the files' sizes: a run that
    knows them counts every byte read, one that does not (no bar: a pipe, ``--quiet``)
    reads the file directly and counts none."""
    from arbiter.service.cli.streams import adjudicated_paths

    path = SAMPLES / "pilo" / "valid" / "02-blitz-6x6.grn"
    sized = progress.Tally(total_bytes=path.stat().st_size)
    unsized = progress.Tally(total_bytes=None)
    assert [r.valid for _, r in adjudicated_paths([str(path)], tally=sized)] == [True]
    assert [r.valid for _, r in adjudicated_paths([str(path)], tally=unsized)] == [True]
    assert (sized.read_bytes, unsized.read_bytes) == (path.stat().st_size, 0)
    assert not progress.bar_wanted(quiet=True)
