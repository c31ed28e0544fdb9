"""The README's library example runs as written (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_readme_opens_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    commands = [line.split("#")[0].strip() for line in lines[:6] if line.startswith("make ")]
    assert commands == ["make demo", "make test"]


def test_the_server_is_one_make_command_away() -> None:
    """``make serve`` runs the ``arbiter`` command ``make demo`` installed, as the README
    says, and the README says how to reach it."""
    import os
    import subprocess

    root = README.parent
    alone = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    shown = subprocess.run(
        ["make", "--no-print-directory", "-n", "serve", "ARGS=--port 9000"],
        cwd=root, capture_output=True, text=True, env=alone,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == ".venv/bin/arbiter serve --port 9000"
    text = README.read_text(encoding="utf-8")
    assert "`make serve`" in text and ". .venv/bin/activate" in text
