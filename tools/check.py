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
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "build" / "check"
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
    beside: bool = False
    """Whether the step runs beside the others (its output kept until it ends)."""


STEPS = [
    Step("ruff", [str(BIN / "ruff"), "check", *LINTED]),
    Step("format", [str(BIN / "ruff"), "format", "--check", *LINTED]),
    Step("mypy", [str(BIN / "mypy")]),
    Step("pyright", [str(BIN / "pyright"), "--pythonpath", sys.executable]),
    Step("wheel", [sys.executable, "tools/shipped.py"]),
    Step("tests", [sys.executable, "-m", "pytest"], beside=True),
    Step("tests-wheel", [sys.executable, "-m", "pytest", "--shipped"], needs="wheel", beside=True),
]


@dataclass(frozen=True)
class Outcome:
    step: Step
    status: str
    seconds: float


def _shown(step: Step) -> str:
    return " ".join([Path(step.command[0]).name, *step.command[1:]])


def _status(code: int) -> str:
    return "passed" if code == 0 else f"failed (exit {code})"


def run(step: Step, done: dict[str, Outcome]) -> Outcome:
    """Run ``step`` in the repository's root, its output going straight to ours."""
    if step.needs is not None and done[step.needs].status != "passed":
        return Outcome(step, f"not run: {step.needs} failed", 0.0)
    print(f"\n== {step.name}: {_shown(step)}", flush=True)
    began = time.monotonic()
    code = subprocess.call(step.command, cwd=ROOT)
    return Outcome(step, _status(code), time.monotonic() - began)


@dataclass
class Running:
    """A step running beside the others: its process, its log, when it began."""

    step: Step
    process: subprocess.Popen[bytes]
    log: IO[bytes]
    path: Path
    began: float

    @classmethod
    def start(cls, step: Step) -> Running:
        LOGS.mkdir(parents=True, exist_ok=True)
        path = LOGS / f"{step.name}.log"
        log = path.open("wb")
        print(f"\n== {step.name}: {_shown(step)} (started beside; output in {path})", flush=True)
        process = subprocess.Popen(step.command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        return cls(step, process, log, path, time.monotonic())

    def finish(self) -> Outcome:
        """Wait for the step, then show its output whole."""
        code = self.process.wait()
        seconds = time.monotonic() - self.began
        self.log.close()
        print(f"\n== {self.step.name}: {_shown(self.step)} (ended after {seconds:.0f} s)")
        sys.stdout.flush()
        sys.stdout.buffer.write(self.path.read_bytes())
        sys.stdout.flush()
        return Outcome(self.step, _status(code), seconds)


def summary(outcomes: list[Outcome], seconds: float) -> str:
    lines = ["", "== make test: summary"]
    lines += [f"  {o.step.name:<12} {o.status:<28} {o.seconds:6.0f} s" for o in outcomes]
    failed = [o.step.name for o in outcomes if o.status != "passed"]
    verdict = f"FAILED: {', '.join(failed)}" if failed else "all passed"
    lines.append(f"  {verdict} in {seconds / 60:.1f} min")
    return "\n".join(lines)


def run_all(wanted: list[Step], serial: bool) -> list[Outcome]:
    """Each wanted step (and the steps they need), in order; a step that runs beside the
    others starts once what it needs has ended, and is waited for at the end."""
    done: dict[str, Outcome] = {}
    running: list[Running] = []
    try:
        for step in wanted:
            if step.needs is not None and step.needs not in done:
                done[step.needs] = run(next(s for s in STEPS if s.name == step.needs), done)
            needed = done.get(step.needs) if step.needs is not None else None
            if step.beside and not serial and (needed is None or needed.status == "passed"):
                running.append(Running.start(step))
            else:
                done[step.name] = run(step, done)
        for one in running:
            done[one.step.name] = one.finish()
    finally:  # interrupted: what still runs beside stops too
        for one in running:
            if one.process.poll() is None:
                one.process.terminate()
    return [done[s.name] for s in STEPS if s.name in done]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=[s.name for s in STEPS], metavar="STEP")
    parser.add_argument("--serial", action="store_true", help="one step at a time")
    options = parser.parse_args(argv)
    wanted = [s for s in STEPS if not options.only or s.name in options.only]
    if not options.serial:  # what runs beside and needs nothing starts first
        wanted.sort(key=lambda s: not s.beside or s.needs is not None)
    began = time.monotonic()
    outcomes = run_all(wanted, options.serial)
    print(summary(outcomes, time.monotonic() - began), flush=True)
    return 0 if all(o.status == "passed" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
