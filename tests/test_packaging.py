"""The distribution as a user installs it: one import package, ``arbiter``, that works away
from the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

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
    for code in ("es", "fr"):  # the catalogues, compiled when the wheel is built
        assert f"arbiter/service/web/translations/{code}/LC_MESSAGES/messages.mo" in names
        assert f"arbiter/service/web/translations/{code}/LC_MESSAGES/messages.po" not in names
    for asset in (
        "dom.js",
        "index.js",
        "viewer.js",
        "viewer.css",
        "site.css",
        "event.js",
        "live.js",
        "desk.js",
        "times.js",
        "game.js",
        "upload.js",
        "favicon.svg",
    ):
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


def link_less_copy(destination: Path) -> Path:
    """The checkout's files (tracked, and new ones not ignored) as a clone without links
    makes them (Git for Windows' default, ``core.symlinks=false``): each link a plain file
    holding its target."""
    command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source, target = ROOT / name, destination / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the work tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.write_text(os.readlink(source), encoding="utf-8")
        else:
            target.write_bytes(source.read_bytes())
    return destination


@pytest.mark.checkout_only  # builds from the checkout's files
def test_a_checkout_without_links_builds_the_whole_package(tmp_path: Path) -> None:
    clone = link_less_copy(tmp_path / "clone")
    assert (clone / "notation").is_file()  # the link at the top is a plain file there
    env = {**os.environ, "ARBITER_PURE": "1"}  # pure Python: the same files, built quickly
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(tmp_path / "out"), str(clone)],
                   env=env, capture_output=True, check=True)  # fmt: skip
    [built] = (tmp_path / "out").glob("*.whl")
    names = set(zipfile.ZipFile(built).namelist())
    package = ROOT / "src"
    expected = {
        path.relative_to(package).as_posix()
        for path in (package / "arbiter").rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.name != "README.md"
        and path.suffix != ".c"  # the sources of the C modules: the wheel holds them built
        and path.suffix not in (".po", ".pot")  # the catalogues' sources: compiled, below
    }
    assert expected <= names, sorted(expected - names)[:10]
    assert len([name for name in names if name.endswith(".py")]) > 90
