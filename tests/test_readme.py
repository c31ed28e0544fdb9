"""The README's first lines hold as written: what arbiter is and a first example, then the two
commands, the test command being the one CI runs; the commands whose output it shows give
that output; and the library examples of the README and docs/ run as written (doctest)."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
WITH_EXAMPLES = [
    README,
    *(p for p in sorted((ROOT / "docs").glob("*.md")) if ">>> " in p.read_text(encoding="utf-8")),
]


@pytest.mark.parametrize("path", WITH_EXAMPLES, ids=[p.name for p in WITH_EXAMPLES])
def test_the_library_examples_run(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples read samples/ from the checkout
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_library_guide_has_its_examples() -> None:
    assert ROOT / "docs" / "library.md" in WITH_EXAMPLES
    assert ROOT / "docs" / "pairings.md" in WITH_EXAMPLES


def test_readme_opens_with_what_it_is_then_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# arbiter" and lines[2].startswith("arbiter is ")
    made = [(n, line.split("#")[0].strip()) for n, line in enumerate(lines) if line[:5] == "make "]
    assert [command for _, command in made[:2]] == ["make demo", "make test"]
    assert made[1][0] < 45, "the two commands stand near the top"


def test_the_readme_test_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in ci if line.strip() and not line.startswith("#")]
    assert commands[-1] == "make test"
    assert "make test    # " in README.read_text(encoding="utf-8")


def blocks(text: str) -> list[list[str]]:
    """The fenced code blocks of a Markdown text, as their lines."""
    found: list[list[str]] = []
    block: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("```"):
            if block is None:
                block = []
            else:
                found.append(block)
                block = None
        elif block is not None:
            block.append(line)
    return found


def shown_runs() -> list[tuple[str, list[str]]]:
    """Each README block that shows an ``arbiter`` command and its whole output."""
    return [
        (lines[0][2:], lines[1:])
        for lines in blocks(README.read_text(encoding="utf-8"))
        if lines and lines[0].startswith("$ arbiter ") and not any("..." in x for x in lines)
    ]


def test_the_readme_shows_commands_with_their_output() -> None:
    assert len(shown_runs()) >= 2


@pytest.mark.parametrize("command, shown", shown_runs(), ids=[c for c, _ in shown_runs()])
def test_a_command_shown_gives_the_output_shown(command: str, shown: list[str]) -> None:
    """Standard output as shown, line for line; and the summary on standard error, where
    it is shown, its time aside."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    argv = [sys.executable, "-m", "arbiter", *shlex.split(command)[1:]]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, check=False)
    summary = [line for line in shown if line.startswith("arbiter: ")]
    assert run.stdout.splitlines() == [line for line in shown if line not in summary]

    def timeless(lines: list[str]) -> list[str]:
        return [re.sub(r"\d+\.\d+ s\b.*", "S", line) for line in lines]

    if summary:
        said = [line for line in run.stderr.splitlines() if line.startswith("arbiter: ")]
        assert timeless(summary) == timeless(said)


def test_the_server_is_one_make_command_away() -> None:
    """``make serve`` runs the ``arbiter`` command ``make demo`` installed, as the README
    says, and the README says how to reach it."""
    alone = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    shown = subprocess.run(
        ["make", "--no-print-directory", "-n", "serve", "ARGS=--port 9000"],
        cwd=ROOT, capture_output=True, text=True, env=alone,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == ".venv/bin/arbiter serve --port 9000"
    text = README.read_text(encoding="utf-8")
    assert "`make serve`" in text and ". .venv/bin/activate" in text
