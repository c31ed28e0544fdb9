"""``--jobs``: worker processes keep the input order, and a worker that dies ends the run
with an error instead of leaving it waiting."""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.adjudicator.replay import Report
from arbiter.service.cli import main
from arbiter.service.parallel import parallel_rendered

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
