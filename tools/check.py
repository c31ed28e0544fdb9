"""``make test``: every check, each run whatever the others gave, then one summary.

The steps are lint and format (ruff), types (mypy, pyright), the build of the wheel as pip
ships it (``tools/shipped.py``), and the test suite twice: on the checkout (pure Python) and
on that wheel (compiled by mypyc where a C compiler is present). A failed step does not stop
the next: the compiled wheel is what users install, and its run must be reported even when
the checkout's failed. The summary gives each step's status and time; the exit status is 1
when any step failed.

Usage: ``python tools/check.py [--only STEP ...]`` (the steps by name: ``ruff``, ``format``,
``mypy``, ``pyright``, ``wheel``, ``tests``, ``tests-wheel``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
LINTED = ["src", "tests", "bench", "tools", "fuzz", "setup.py"]
"""The folders and files ruff checks (the package is src/arbiter; the links at the top are
for reading and are not checked twice)."""


@dataclass(frozen=True)
class Step:
    """One check: its name, the command, and the step it needs (None: none)."""

    name: str
    command: list[str]
    needs: str | None = None


STEPS = [
    Step("ruff", [str(BIN / "ruff"), "check", *LINTED]),
    Step("format", [str(BIN / "ruff"), "format", "--check", *LINTED]),
    Step("mypy", [str(BIN / "mypy")]),
    Step("pyright", [str(BIN / "pyright"), "--pythonpath", sys.executable]),
    Step("wheel", [sys.executable, "tools/shipped.py"]),
    Step("tests", [sys.executable, "-m", "pytest"]),
    Step("tests-wheel", [sys.executable, "-m", "pytest", "--shipped"], needs="wheel"),
]


@dataclass(frozen=True)
class Outcome:
    step: Step
    status: str
    seconds: float


def run(step: Step, done: dict[str, Outcome]) -> Outcome:
    """Run ``step`` in the repository's root, its output going straight to ours."""
    if step.needs is not None and done[step.needs].status != "passed":
        return Outcome(step, f"not run: {step.needs} failed", 0.0)
    shown = " ".join([Path(step.command[0]).name, *step.command[1:]])
    print(f"\n== {step.name}: {shown}", flush=True)
    began = time.monotonic()
    code = subprocess.call(step.command, cwd=ROOT)
    status = "passed" if code == 0 else f"failed (exit {code})"
    return Outcome(step, status, time.monotonic() - began)


def summary(outcomes: list[Outcome], seconds: float) -> str:
    lines = ["", "== make test: summary"]
    lines += [f"  {o.step.name:<12} {o.status:<28} {o.seconds:6.0f} s" for o in outcomes]
    failed = [o.step.name for o in outcomes if o.status != "passed"]
    verdict = f"FAILED: {', '.join(failed)}" if failed else "all passed"
    lines.append(f"  {verdict} in {seconds / 60:.1f} min")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=[s.name for s in STEPS], metavar="STEP")
    options = parser.parse_args(argv)
    wanted = [s for s in STEPS if not options.only or s.name in options.only]
    began = time.monotonic()
    done: dict[str, Outcome] = {}
    for step in wanted:
        if step.needs is not None and step.needs not in done:
            done[step.needs] = run(next(s for s in STEPS if s.name == step.needs), done)
        done[step.name] = run(step, done)
    outcomes = list(done.values())
    print(summary(outcomes, time.monotonic() - began), flush=True)
    return 0 if all(o.status == "passed" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
