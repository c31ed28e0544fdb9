"""The distribution as a user installs it: one import package, ``arbiter``, that works away
from the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn"


def test_the_wheel_adds_no_top_level_name_but_arbiter(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"arbiter"}
    assert "arbiter/notation/grammar/grn.lark" in names
    assert "arbiter/service/web/openapi.yaml" in names
    assert "arbiter/py.typed" in names
    assert "arbiter/diagram/svg.py" in names
    assert "arbiter/service/web/templates/index.html" in names
    for asset in ("viewer.js", "viewer.css", "site.css", "event.js", "desk.js", "favicon.svg"):
        assert f"arbiter/service/web/static/{asset}" in names


def test_the_installed_package_reads_and_adjudicates_outside_the_repo(
    installed: Path, tmp_path: Path
) -> None:
    site = installed
    (tmp_path / "x.grn").write_bytes(SAMPLE.read_bytes())
    script = (
        "import pathlib, arbiter, arbiter.notation.grn_reader as g\n"
        "r = arbiter.adjudicate(next(iter(arbiter.read_records(pathlib.Path('x.grn')))))\n"
        f"print(r.result, arbiter.__file__.startswith({str(site)!r}),"
        f" g.__file__.startswith({str(site)!r}))\n"
        "print(arbiter.svg(arbiter.Game('Implo', 5)).startswith('<svg'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert run.stdout.split() == ["Blue+5", "True", "True", "True"]
    module = subprocess.run([sys.executable, "-m", "arbiter", "games", "--json"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, check=True)  # fmt: skip
    assert '"name": "Pilare"' in module.stdout
