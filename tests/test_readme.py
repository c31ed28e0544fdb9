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
