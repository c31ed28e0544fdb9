"""Build the package as ``pip install`` ships it, once per change of its sources.

``make test`` runs part of the suite a second time on the installed wheel, whose hot modules
are compiled by mypyc where a C compiler is present (``setup.py``), because that is what
users run. This builds the wheel as pip does (an isolated build environment holding only what
``pyproject.toml`` asks for) and installs it without its dependencies under
``build/shipped/site``; the suite's own environment supplies them. A stamp of the sources'
digest skips the build (about a minute) when nothing it is made from has changed.

Usage: ``python tools/shipped.py`` prints the site folder. ``--force`` rebuilds.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "shipped"
SITE = OUT / "site"
STAMP = OUT / "sources.sha256"
SOURCES = ("src",)
BUILD_FILES = ("setup.py", "pyproject.toml", "README.md")


MADE_HERE = (".so", ".mo")
"""What a checkout makes from its sources as it runs (a C module built in place, a catalogue
compiled from its ``.po`` on first use, the ``.egg-info`` a build of the checkout
rewrites): not sources of the wheel, so that a test run of the
checkout beside one of the wheel never has the wheel built again under it."""


def digest() -> str:
    """The SHA-256 of every file the wheel is made from, with their paths."""
    files = [ROOT / name for name in BUILD_FILES]
    tracked = _tracked()
    if tracked is not None:  # a git checkout: its sources are the files git keeps
        files.extend(path for path in tracked if path.is_file())
    for folder in SOURCES if tracked is None else ():
        files.extend(
            path
            for path in (ROOT / folder).rglob("*")
            if path.is_file()
            and "__pycache__" not in path.parts
            and not any(part.endswith(".egg-info") for part in path.parts)
            and path.suffix not in MADE_HERE
        )
    total = hashlib.sha256()
    for path in sorted(files):
        total.update(str(path.relative_to(ROOT)).encode() + b"\0")
        total.update(path.read_bytes())
    return total.hexdigest()


def _tracked() -> list[Path] | None:
    """The files git keeps under the sources (None outside a git checkout)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--", *SOURCES], cwd=ROOT,
                                capture_output=True, check=True).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    return [ROOT / name for name in listed.decode().split("\0") if name]


def wheel_file() -> Path:
    """The wheel of the last build."""
    [built] = (OUT / "wheel").glob("*.whl")
    return built


def build(force: bool = False) -> Path:
    """The site folder holding the installed wheel, built again when the sources changed."""
    wanted = digest()
    if not force and STAMP.is_file() and STAMP.read_text() == wanted and SITE.is_dir():
        return SITE
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "wheel").mkdir(parents=True)
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(OUT / "wheel"), str(ROOT)])
    _run([*pip, "install", "--quiet", "--no-deps", "--target", str(SITE), str(wheel_file())])
    STAMP.write_text(wanted)
    return SITE


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"shipped: {' '.join(command[2:4])} failed")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if nothing changed")
    print(build(parser.parse_args().force))
    return 0


if __name__ == "__main__":
    sys.exit(main())
