"""``arbiter show`` and ``arbiter diagram`` (spec/cli.md): a record of a file at a ply, as
text or SVG; exit statuses; the plies of every sample through the command itself."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.diagram.frames import frames
from arbiter.notation.ast import Record
from arbiter.notation.sources import read_records
from arbiter.service.cli.main import main
from tests.budget import stride

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(
    p
    for p in (ROOT / "samples").rglob("*")
    if p.suffix in (".grn", ".json") and not p.name.endswith(".expected.json")
)
VALID = '[Game "Pilo"]\n[Size "4"]\n\n1. b2 c3 2. d4 a1 *\n'
ILLEGAL = '[Game "Pilo"]\n[Size "4"]\n\n1. b2 b2 2. c3 c2 *\n'
BROKEN = '[Game "Pilo"]\n[Size "40"]\n\n1. b2 *\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "batch.grn"
    path.write_text(VALID + "\n" + ILLEGAL + "\n" + BROKEN, encoding="utf-8")
    return path


def test_show_prints_the_board_the_move_and_the_side_to_move(
    runner: CliRunner, batch: Path
) -> None:
    result = runner.invoke(main, ["show", str(batch), "--ply", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[3] == " 2  · (●) ·  ·  2"
    assert lines[6:8] == ["Pilo 4×4 · ply 1 · 1. Blue b2", "Orange to move"]
    ascii_result = runner.invoke(main, ["show", str(batch), "--ply", "1", "--ascii"])
    assert ascii_result.stdout.splitlines()[3] == " 2  . (b) .  .  2"


def test_show_defaults_to_the_last_ply(runner: CliRunner, batch: Path) -> None:
    result = runner.invoke(main, ["show", str(batch)])
    assert "Pilo 4×4 · ply 4 · 2. Orange a1" in result.stdout


def test_an_invalid_record_shows_its_refused_move_and_exits_1(
    runner: CliRunner, batch: Path
) -> None:
    result = runner.invoke(main, ["show", str(batch), "--index", "1"])
    assert result.exit_code == 1
    assert "Pilo 4×4 · ply 2 · 1. Orange b2 refused" in result.stdout
    assert " 2  · >●< ·  ·  2" in result.stdout
    assert "record 2 is not valid: illegal-move at ply 2" in result.stderr
    earlier = runner.invoke(main, ["show", str(batch), "--index", "1", "--ply", "1"])
    assert earlier.exit_code == 1 and "Orange to move" in earlier.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ply", "5"], "no ply 5: the record has 4 plies; plies 0 to 4 can be shown"),
        (["--index", "1", "--ply", "3"], "no ply 3: the move at ply 2 is refused"),
        (["--index", "3"], "no record 3: 3 records were read (numbered from 0)"),
        (["--ply", "-1"], "-1 is not in the range x>=0"),
    ],
)
@pytest.mark.parametrize("command", ["show", "diagram"])
def test_a_ply_or_record_that_does_not_exist_is_a_usage_error(
    runner: CliRunner, batch: Path, command: str, args: list[str], message: str
) -> None:
    result = runner.invoke(main, [command, str(batch), *args])
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


@pytest.mark.parametrize("command", ["show", "diagram"])
def test_an_unreadable_record_or_file_exits_1(
    runner: CliRunner, batch: Path, tmp_path: Path, command: str
) -> None:
    result = runner.invoke(main, [command, str(batch), "--index", "2"])
    assert result.exit_code == 1 and result.stdout == ""
    assert "record 2 cannot be shown" in result.stderr and "bad-size" in result.stderr
    missing = runner.invoke(main, [command, str(tmp_path / "missing.grn")])
    assert missing.exit_code == 1 and "cannot read" in missing.stderr


def test_diagram_writes_svg_to_stdout_or_a_file(
    runner: CliRunner, batch: Path, tmp_path: Path
) -> None:
    result = runner.invoke(main, ["diagram", str(batch), "--ply", "2", "--width", "300"])
    assert result.exit_code == 0
    root = ET.fromstring(result.stdout)
    assert root.get("width") == "300"
    out = tmp_path / "out.svg"
    written = runner.invoke(
        main, ["diagram", str(batch), "-i", "1", "-o", str(out), "--no-caption"]
    )
    assert written.exit_code == 1 and written.stdout == ""
    assert "stroke-dasharray" in out.read_text(encoding="utf-8")  # the refused move
    assert "refused" not in out.read_text(encoding="utf-8").split("</title>")[1]


def test_diagram_reads_standard_input_and_draws_control(runner: CliRunner) -> None:
    record = '[Game "Pletore"]\n[Size "5"]\n[Komi "0"]\n\n1. b1 e4 2. a2 d5 *\n'
    plain = runner.invoke(main, ["diagram", "-"], input=record)
    marked = runner.invoke(main, ["diagram", "-", "--control", "--no-coordinates"], input=record)
    assert plain.exit_code == marked.exit_code == 0
    # Black pinches a1 and b2, White d4 and e5.
    assert marked.stdout.count('width="10"') == 4 and plain.stdout.count('width="10"') == 0
    assert ">a</text>" in plain.stdout and ">a</text>" not in marked.stdout


def sample_records() -> list[tuple[str, int, int]]:
    """Every sample record that can be replayed: its file, its index, and its last ply."""
    cases = []
    for path in SAMPLES:
        for item in read_records(path):
            if not isinstance(item, Record):
                continue
            try:
                last = frames(item).last_ply
            except ValueError:  # a bad Setup: no plies
                continue
            cases.append((str(path), item.index, last))
    return cases


def test_diagram_draws_every_ply_of_every_sample(runner: CliRunner) -> None:
    """The command itself, for every ply of every sample (every fifth, and the last, in
    the short run): well-formed SVG, the start and the end differ, and ``show`` prints the
    first, middle and last plies."""
    drawn = 0
    for path, index, last in sample_records():
        pictures = []
        for ply in sorted({*range(0, last + 1, stride(5)), last}):
            result = runner.invoke(main, ["diagram", path, "-i", str(index), "-p", str(ply)])
            assert result.exit_code in (0, 1), (path, ply, result.stderr)
            ET.fromstring(result.stdout)
            pictures.append(result.stdout)
        assert last == 0 or pictures[0] != pictures[-1], path
        drawn += len(pictures)
        for ply in sorted({0, last // 2, last}):
            shown = runner.invoke(main, ["show", path, "-i", str(index), "-p", str(ply)])
            assert f"· ply {ply}" in shown.stdout or (ply == 0 and "· start" in shown.stdout)
    assert drawn > 2000 // stride(5)
