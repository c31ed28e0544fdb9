"""The fuzz harness: hostile input to the library, the command line and the HTTP API, and
the properties that must hold for every input (``make fuzz``; a short budget runs in
``make test`` through ``tests/test_fuzz.py``).

For every input the library must

- never raise: every record is a ``Record`` or a ``RecordError`` whose code is one the
  spec lists, in its place (``index``), located;
- never fail on a record (``internal-error``), neither in reading, nor in adjudicating,
  nor in converting;
- lose no record: the good records around a broken one come out as they come out alone;
- write only what it reads back: every record ``convert`` writes, in either notation, is
  read back as the same record;
- take less than a second.

A share of the inputs also goes through ``arbiter adjudicate``/``validate``/``convert``
(exit status 0 or 1, no traceback, one report per record the library reads) and through the
API's ``/adjudicate``, ``/validate`` and ``/convert`` with a random Content-Type (a JSON
answer, no 5xx, one report per record). Usage::

    python -m fuzz.harness --budget 100000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import read_records
from arbiter.service.core.batch import convert_item, output_parts, report_for
from fuzz import build_under_test
from fuzz.inputs import Input, Inputs

ROOT = Path(__file__).resolve().parents[1]
SLOW = 1.0
"""Seconds no input may take in ``make fuzz`` (the test suite's short run, on a machine
that may be busy, takes only a hang as a finding: :data:`HANG`)."""
HANG = 60.0
"""Seconds after which an input is taken as hung, whatever else the machine is doing."""


def spec_codes() -> set[str]:
    """Every error code the spec's tables list (spec/grn.md, spec/json.md)."""
    codes: set[str] = set()
    for name in ("grn.md", "json.md"):
        text = (ROOT / "spec" / name).read_text(encoding="utf-8")
        for row in re.findall(r"^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \|", text, re.M):
            codes.update(re.findall(r"`([a-z-]+)`", row))
    return codes


@dataclass
class Tally:
    """What a run found: counts, and every finding with the input that caused it."""

    inputs: int = 0
    records: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    findings: list[tuple[str, str, bytes]] = field(default_factory=list)
    slowest: tuple[float, str, bytes] = (0.0, "", b"")
    seconds: float = 0.0
    peak_mb: float = 0.0
    cli_runs: int = 0
    api_requests: int = 0

    def find(self, what: str, item: Input, detail: str = "") -> None:
        self.findings.append((what, detail[:300], item.data[:2000]))

    def summary(self) -> str:
        found = Counter(what for what, _, _ in self.findings)
        return (
            f"{self.inputs} library inputs ({dict(self.kinds)}), {self.records} records, "
            f"{self.cli_runs} CLI runs, {self.api_requests} API requests in "
            f"{self.seconds:.0f} s; findings: {dict(found) or 'none'}; slowest input "
            f"{self.slowest[0] * 1000:.0f} ms ({self.slowest[1]}); peak memory "
            f"{self.peak_mb:.0f} MB"
        )


CODES = spec_codes()


def check_library(
    item: Input, tally: Tally, slow: float = SLOW
) -> list[Record | RecordError] | None:
    """Read, adjudicate and convert one input as a batch would; note every property it
    breaks. Returns what was read (None if the reading itself failed)."""
    began = time.perf_counter()
    try:
        items = list(read_records(item.data, fmt=item.fmt))  # type: ignore[arg-type]
        reports = [report_for(one) for one in items]
        converted = [
            convert_item(one, to=to, file=None, position=n)
            for n, one in enumerate(items)
            for to in ("grn", "json")
        ]
    except Exception as err:  # a crash: the one thing that must never happen
        tally.find("crash", item, f"{type(err).__name__}: {err}")
        return None
    took = time.perf_counter() - began
    if took > tally.slowest[0]:
        tally.slowest = (took, item.kind, item.data[:2000])
    if took > slow:
        tally.find("slow", item, f"{took:.2f} s")
    tally.records += len(items)
    for position, (one, report) in enumerate(zip(items, reports, strict=True)):
        _check_item(item, position, one, report.errors, tally)
    for result in converted:
        if result.error is not None and result.error.code == "internal-error":
            tally.find("crash", item, result.error.message)
        elif result.text is not None and result.record is not None:
            _check_round_trip(item, result.record, result.text, tally)
    if item.intact:
        _check_nothing_lost(item, items, tally)
    return items


def _check_item(
    item: Input,
    position: int,
    one: Record | RecordError,
    errors: list[dict[str, Any]],
    tally: Tally,
) -> None:
    if one.index != position:
        tally.find("misplaced", item, f"record {position} has index {one.index}")
    if isinstance(one, RecordError) and one.line is None and one.pointer is None:
        tally.find("unlocated", item, str(one))
    for error in errors:
        code = str(error["code"])
        if code == "internal-error":
            tally.find("crash", item, str(error["message"]))
        elif code not in CODES:
            tally.find("unknown code", item, code)


def _check_round_trip(item: Input, record: Record, text: str, tally: Tally) -> None:
    to = "json" if text.startswith("{") else "grn"
    written = "".join(output_parts([text], to))  # type: ignore[arg-type]
    back = list(read_records(written.encode("utf-8", "surrogatepass"), fmt=to))  # type: ignore[arg-type]
    if back != [record]:
        tally.find("round trip", item, f"{to}: {back[:1]!r}"[:300])


def _check_nothing_lost(item: Input, items: list[Record | RecordError], tally: Tally) -> None:
    first, last = (list(read_records(alone, fmt=item.fmt)) for alone in item.intact)  # type: ignore[arg-type]
    if len(items) < 3 or items[:1] != first or items[-1:] != last:
        tally.find("lost", item, f"{len(items)} items: {[type(i).__name__ for i in items]}")


def run(
    budget: int,
    seed_value: int,
    *,
    cli_share: float = 0.005,
    api_share: float = 0.02,
    slow: float = SLOW,
) -> Tally:
    """Feed ``budget`` inputs to the library, a share of them to the CLI and the API; an
    input that takes more than ``slow`` seconds is a finding."""
    from fuzz.surfaces import Surfaces

    rng = random.Random(seed_value)
    began = time.perf_counter()
    inputs = Inputs(rng, legal=min(150, max(10, budget // 50)), grammar=min(400, budget // 5 + 5))
    tally = Tally()
    with Surfaces() as surfaces:
        for _ in range(budget):
            item = inputs.draw()
            tally.inputs += 1
            tally.kinds[item.kind] += 1
            items = check_library(item, tally, slow)
            if items is None:
                continue
            if rng.random() < cli_share:
                surfaces.cli(item, items, tally)
            if rng.random() < api_share:
                surfaces.api(rng, item, items, tally)
    tally.seconds = time.perf_counter() - began
    tally.peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=100_000, help="library inputs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write each finding's input under here")
    options = parser.parse_args(argv)
    tally = run(options.budget, options.seed)
    print(f"{build_under_test()}: {tally.summary()}")
    for number, (what, detail, data) in enumerate(tally.findings[:20]):
        print(f"  {what}: {detail}\n    input: {data[:200]!r}")
        if options.save:
            options.save.mkdir(parents=True, exist_ok=True)
            (options.save / f"{number:03d}-{what.replace(' ', '-')}.bin").write_bytes(data)
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
