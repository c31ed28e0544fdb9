"""``--jobs``: worker processes keep the input order, and a worker that dies ends the run
with an error instead of leaving it waiting."""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.adjudicator.replay import Report
from arbiter.service.cli.main import main
from arbiter.service.cli.parallel import parallel_rendered

ROOT = Path(__file__).resolve().parents[2]


def _die(report: Report) -> str:
    os._exit(3)  # as a worker killed by the system would end


def test_a_worker_that_dies_ends_the_run_with_an_error() -> None:
    sample = str(next(ROOT.glob("samples/pilo/valid/*.grn")))
    with pytest.raises(BrokenProcessPool):
        list(parallel_rendered([sample], 2, None, _die))


def test_jobs_keep_the_input_order_of_many_files() -> None:
    samples = sorted(str(p) for p in ROOT.glob("samples/*/*/*.grn"))
    one = CliRunner().invoke(main, ["adjudicate", "--json", "--quiet", *samples])
    two = CliRunner().invoke(main, ["adjudicate", "--json", "--quiet", "--jobs", "2", *samples])
    assert two.exit_code == one.exit_code == 1  # some samples are broken on purpose
    assert two.stdout == one.stdout and one.stdout.count("\n") >= len(samples)


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--quiet"],  # problems on standard output; no timed summary
        ["convert", "--to", "json"],
        ["convert", "--to", "grn"],
        ["convert", "--to", "abstractplay", "--from", "json"],
    ],
    ids=["validate", "convert-json", "convert-grn", "convert-abstractplay"],
)
def test_validate_and_convert_with_jobs_print_what_they_print_without(
    command: list[str], tmp_path: Path
) -> None:
    # Every sample (broken ones too: errors on standard error, in their places) in one
    # folder, so that convert, which takes one path, reads them all.
    for number, path in enumerate(sorted(ROOT.glob("samples/*/*/*.*"))):
        if not path.name.endswith(".expected.json"):
            (tmp_path / f"{number:03d}{path.suffix}").write_bytes(path.read_bytes())
    (tmp_path / "zz-unreadable.grn").mkdir()  # a path that cannot be read, in its place
    paths = [str(tmp_path)] if command[0] == "convert" else sorted(map(str, tmp_path.iterdir()))
    argv = [command[0], *paths, *command[1:]]
    one = CliRunner().invoke(main, argv)
    two = CliRunner().invoke(main, [*argv, "--jobs", "2"])
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert one.exit_code == 1  # the broken samples, on stdout (validate) or stderr (convert)
    assert (one.stderr if command[0] == "convert" else one.stdout).count("\n") >= 10
    if command[0] == "convert":
        assert one.stdout.count("[Game" if "grn" in command else '"') > 20
