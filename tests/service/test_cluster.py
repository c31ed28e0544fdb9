"""``arbiter adjudicate --scheduler``: a real Dask cluster (a LocalCluster of two worker
processes) gives exactly the output of ``--jobs 1``, in input order."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbiter.service.cli import cluster
from arbiter.service.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

if os.environ.get("CI") != "true":  # in CI the dev extras bring it, and it must be there
    pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    # None turns the dashboard off, as LocalCluster documents; its unannotated parameter is
    # typed from its default, a string.
    local = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,  # pyright: ignore[reportArgumentType]
    )
    with local:  # __enter__ gives the cluster itself, but is typed as a coroutine
        yield local.scheduler_address


def test_a_cluster_gives_the_output_of_one_process_in_input_order(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many records in one file, cut into several tasks, and every sample besides.
    monkeypatch.setattr(cluster, "BATCH", 7)
    records = [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.glob("*/valid/*.grn"))]
    (tmp_path / "archive.grn").write_text("\n".join(records * 4), encoding="utf-8")
    paths = [str(tmp_path / "archive.grn"), str(SAMPLES)]
    runner = CliRunner()
    one = runner.invoke(main, ["adjudicate", "--json", "--quiet", *paths])
    there = runner.invoke(main, ["adjudicate", "--json", "--quiet", "--scheduler", scheduler,
                                 *paths])  # fmt: skip
    assert there.stdout == one.stdout
    assert (there.exit_code, one.exit_code) == (1, 1)  # some samples are invalid on purpose
    assert one.stdout.count("\n") > 4 * len(records)
    table = runner.invoke(main, ["adjudicate", "--quiet", "--scheduler", scheduler, *paths])
    assert table.stdout == runner.invoke(main, ["adjudicate", "--quiet", *paths]).stdout


def test_the_scheduler_may_come_from_the_environment(scheduler: str) -> None:
    path = str(SAMPLES / "pilo" / "valid" / "02-blitz-6x6.grn")
    result = CliRunner().invoke(
        main, ["adjudicate", "--json", path], env={"ARBITER_SCHEDULER": scheduler}
    )
    assert result.exit_code == 0 and '"result": "Blue+5"' in result.stdout


def test_an_unreachable_scheduler_is_said_plainly() -> None:
    path = str(SAMPLES / "pilo" / "valid" / "02-blitz-6x6.grn")
    result = CliRunner().invoke(
        main, ["adjudicate", "--scheduler", "tcp://127.0.0.1:9", "--json", path]
    )
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
    both = CliRunner().invoke(main, ["adjudicate", "--jobs", "2", "--scheduler", "x", path])
    assert both.exit_code == 2 and "cannot be used together" in both.stderr
