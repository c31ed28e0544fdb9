"""Run ``mypy --strict`` on the ``arbiter`` package as it is installed.

The repository keeps ``notation/``, ``adjudicator/`` and ``service/`` at its top level and
installs them as ``arbiter.notation`` and so on (``pyproject.toml``, package-dir). mypy finds
a module's name from its folders, so it checks a tree of links laid out like the installed
package (``build/typecheck/arbiter/notation`` -> ``notation/``); its messages are printed
with the real paths. Usage: ``python tools/typecheck.py [mypy options]``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"
SUBPACKAGES = {
    "notation": "notation",
    "adjudicator": "adjudicator",
    "service": "service",
    "diagram": "diagram",
}


def link_tree() -> Path:
    """Build ``build/typecheck/arbiter``: links to the files of ``arbiter/`` and to the
    subpackage folders. Returns the package folder."""
    shutil.rmtree(TREE, ignore_errors=True)
    package = TREE / "arbiter"
    package.mkdir(parents=True)
    for item in (ROOT / "arbiter").iterdir():
        if item.suffix in (".py", ".typed"):
            (package / item.name).symlink_to(item)
    for name, folder in SUBPACKAGES.items():
        (package / name).symlink_to(ROOT / folder, target_is_directory=True)
    return package


def main() -> int:
    package = link_tree()
    command = [sys.executable, "-m", "mypy", *sys.argv[1:], str(package.relative_to(ROOT))]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    prefix = f"{package.relative_to(ROOT)}{os.sep}"
    for stream, text in ((sys.stdout, result.stdout), (sys.stderr, result.stderr)):
        lines = [_real_path(line, prefix) for line in text.splitlines()]
        if lines:
            print("\n".join(lines), file=stream)
    return result.returncode


def _real_path(line: str, prefix: str) -> str:
    """``build/typecheck/arbiter/notation/x.py:3: ...`` -> ``notation/x.py:3: ...``."""
    if not line.startswith(prefix):
        return line
    rest = line[len(prefix) :]
    first, sep, tail = rest.partition(os.sep)
    if first in SUBPACKAGES and sep:
        return f"{SUBPACKAGES[first]}{os.sep}{tail}"
    return f"arbiter{os.sep}{rest}"


if __name__ == "__main__":
    sys.exit(main())
