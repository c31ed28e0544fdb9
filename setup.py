"""Build hook: compile the modules that every replay runs with mypyc when building a wheel.

Everything else about the distribution is in ``pyproject.toml``. The compiled modules are
the very same source, type-checked by ``mypy --strict``; where mypyc or a C compiler is
missing, or ``ARBITER_PURE=1`` is set, or the install is editable (so that an edited file
takes effect at once), the wheel holds the pure-Python modules alone, which behave the same
(a test compares the two on the samples and on generated games: ``tests/test_compiled.py``).

mypyc names a module by its folders: ``src/arbiter/notation/board.py`` is
``arbiter.notation.board``, as installed. Only a command that builds a wheel compiles:
setuptools also runs this file to learn the metadata (``egg_info``, ``dist_info``), where
compiling would be thrown away.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}
"""The setuptools commands that make the modules a wheel ships."""
COMPILED = [
    "src/arbiter/notation/plain.py",
    "src/arbiter/notation/point.py",
    "src/arbiter/notation/forms.py",
    "src/arbiter/notation/ast.py",
    "src/arbiter/notation/games.py",
    "src/arbiter/notation/position.py",
    "src/arbiter/notation/results.py",
    "src/arbiter/notation/build.py",
    "src/arbiter/notation/grn_scan.py",
    "src/arbiter/notation/grn_reader.py",
    "src/arbiter/notation/json_form.py",
    "src/arbiter/notation/abstractplay.py",
    "src/arbiter/adjudicator/board.py",
    "src/arbiter/adjudicator/base.py",
    "src/arbiter/adjudicator/patch_scoring.py",
    "src/arbiter/adjudicator/capture_games.py",
    "src/arbiter/adjudicator/pilo.py",
    "src/arbiter/adjudicator/petrify.py",
    "src/arbiter/adjudicator/pletore.py",
    "src/arbiter/adjudicator/implo_board.py",
    "src/arbiter/adjudicator/implo_turn.py",
    "src/arbiter/adjudicator/implo.py",
    "src/arbiter/adjudicator/pilare.py",
    "src/arbiter/adjudicator/verdict.py",
    "src/arbiter/adjudicator/replay.py",
    "src/arbiter/adjudicator/hints.py",
    "src/arbiter/ratings/maths.py",
    "src/arbiter/ratings/abstractplay.py",
]
"""The hot path of reading and replaying a record (paths from the repository's root)."""


def wanted() -> bool:
    """Whether this run compiles: only when it builds a wheel (not an editable one, whose
    edited files must take effect at once), and not when told not to."""
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


def extensions() -> list[object]:
    if not set(sys.argv[1:]) & BUILDS:
        return []  # metadata only
    clean()
    if not wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("arbiter: mypyc is not available; building pure Python", file=sys.stderr)
        return []
    try:
        paths = [str(ROOT / path) for path in COMPILED]
        modules = mypycify(paths, opt_level="3", debug_level="0", group_name="arbiter._compiled")
    except SystemExit:  # mypyc's type check refused the sources: they still run as Python
        print("arbiter: mypyc could not compile; building pure Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # no C compiler: the pure-Python module stays
    return [*modules, *c_modules()]


def c_modules() -> list[object]:
    """The modules written in C, each optional like the compiled ones (where one cannot be
    built, the Python code it stands in for runs):

    - ``arbiter._tuples`` (``src/arbiter/_tuples.c``): named tuples built in one step; without
      it, ``arbiter.notation.ast.make`` uses ``tuple.__new__``;
    - ``arbiter._implo`` (``src/arbiter/_implo.c``): Implo's board fills; without it,
      ``arbiter.adjudicator.implo_board`` runs its own;
    - ``arbiter._pilare`` (``src/arbiter/_pilare.c``): a Pilare sowing; without it,
      ``arbiter.adjudicator.pilare`` sows in Python."""
    from setuptools import Extension

    return [
        Extension(f"arbiter.{name}", [f"src/arbiter/{name}.c"], optional=True)
        for name in ("_tuples", "_implo", "_pilare")
    ]


class BuildWithCatalogues(build_py):
    """``build_py``, and then the pages' catalogues compiled into the build (each
    ``translations/<code>/LC_MESSAGES/messages.po`` to its ``.mo``; the wheel holds the
    ``.mo`` alone). Compiled by ``arbiter.service.web.catalogues``, loaded by its path: the
    package itself is not imported to build it."""

    def run(self) -> None:
        super().run()
        import importlib.util

        web = ROOT / "src" / "arbiter" / "service" / "web"
        spec = importlib.util.spec_from_file_location("_catalogues", web / "catalogues.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        target = Path(self.build_lib) / "arbiter" / "service" / "web"
        for made in module.compile_all(web, target):
            print(f"arbiter: compiled {made.relative_to(self.build_lib)}", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_py": BuildWithCatalogues})
