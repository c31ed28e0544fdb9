"""Build hook: compile the modules that every replay runs with mypyc when building a wheel.

Everything else about the distribution is in ``pyproject.toml``. The compiled modules are
the very same source, type-checked by ``mypy --strict``; where mypyc or a C compiler is
missing, or ``ARBITER_PURE=1`` is set, or the install is editable (so that an edited file
takes effect at once), the wheel holds the pure-Python modules alone, which behave the same
(a test compares the two on the samples and on generated games: ``tests/test_compiled.py``).

mypyc names a module by its folders, and the repository keeps ``notation/`` and
``adjudicator/`` at the top level while installing them as ``arbiter.notation`` and
``arbiter.adjudicator``; so the sources are copied into ``build/mypyc-src/arbiter/`` first
and compiled from there.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
STAGE = ROOT / "build" / "mypyc-src"
LAYERS = {"notation": "notation", "adjudicator": "adjudicator"}
COMPILED = [
    "notation/plain.py",
    "notation/ast.py",
    "notation/games.py",
    "notation/position.py",
    "notation/build.py",
    "notation/grn_scan.py",
    "notation/grn_reader.py",
    "adjudicator/board.py",
    "adjudicator/base.py",
    "adjudicator/patch_scoring.py",
    "adjudicator/capture_games.py",
    "adjudicator/pilo.py",
    "adjudicator/petrify.py",
    "adjudicator/pletore.py",
    "adjudicator/implo_board.py",
    "adjudicator/implo_turn.py",
    "adjudicator/implo.py",
    "adjudicator/pilare.py",
    "adjudicator/replay.py",
]
"""The hot path of reading and replaying a record (repository paths)."""


def wanted() -> bool:
    """Whether this build compiles: not for editable installs, not when told not to."""
    if os.environ.get("ARBITER_PURE", "") not in ("", "0"):
        return False
    return not any(arg.startswith("editable") for arg in sys.argv[1:])


def clean() -> None:
    """Forget what an earlier build left in ``build/``: setuptools would put its compiled
    modules (under their old names) into this wheel too."""
    for pattern in ("build/lib*", "build/temp*", "build/__native*"):
        for stale in ROOT.glob(pattern):
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
            else:
                stale.unlink(missing_ok=True)


def stage() -> list[str]:
    """Copy the layers as installed into ``build/mypyc-src``; the compiled modules' paths.

    The front door, ``arbiter/__init__.py``, is left out (an empty one stands in): it imports
    every layer, and the compiled modules need none of what it brings."""
    shutil.rmtree(STAGE, ignore_errors=True)
    package = STAGE / "arbiter"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name, folder in LAYERS.items():
        shutil.copytree(ROOT / folder, package / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))  # fmt: skip
    return [str(package / path) for path in COMPILED]


def extensions() -> list[object]:
    clean()
    if not wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("arbiter: mypyc is not available; building pure Python", file=sys.stderr)
        return []
    try:
        modules = mypycify(stage(), opt_level="3", debug_level="0", group_name="arbiter._compiled")
    except SystemExit:  # mypyc's type check refused the sources: they still run as Python
        print("arbiter: mypyc could not compile; building pure Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # no C compiler: the pure-Python module stays
    return list(modules)


setup(ext_modules=extensions())
