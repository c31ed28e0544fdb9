"""The cost check: an input ten times larger may cost at most about twenty times more.

Random fuzzing finds a quadratic path only when it happens to draw a long enough run of the
character that triggers it; this looks for one on purpose. Every shape below is an input
grown by one parameter (a run of one delimiter alone, before a record, in its movetext,
inside each of its tag values, inside a comment; JSON nesting, long strings and arrays;
many records, moves, lines and comments). Each is adjudicated and, apart, converted to
JSON, as the command line and the API do, at 100, 1,000, ... units, and the time of each
size must stay within :data:`RATIO` times the one before (a linear path gives ten; a
quadratic one a hundred), and within :data:`SECONDS_PER_MIB` per MiB of input. Usage::

    python -m fuzz.cost                      # 100 to 100,000 units (make test runs this)
    python -m fuzz.cost --largest 1000000    # and to a million, about a MiB (make fuzz)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arbiter.notation.sources import read_records
from arbiter.service.batch import convert_item, report_for
from fuzz import build_under_test
from fuzz.inputs import DELIMITERS

ROOT = Path(__file__).resolve().parents[1]
RATIO = 20.0
"""How much more ten times the input may cost (linear is 10)."""
FLOOR = 0.004
"""Seconds below which a time is noise: the smaller input's time is taken as at least this."""
SLACK = 0.05
"""Seconds of noise allowed on top of the ratio (a garbage collection, caches that a
megabyte no longer fits, a busy machine): a quadratic path still shows, as 100 times."""
SECONDS_PER_MIB = 1.0
"""The most any input may cost per MiB and operation (a second at least) in the compiled
build, which users install."""
PURE_SLOWER = 2.0
"""How much more the pure-Python build (the editable install) may take: it runs the same
code about half as fast (README, Performance)."""
BASE = (ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn").read_bytes()
"""A real record with tags, a comment-free movetext and a result."""
HEAD, _, MOVES = BASE.partition(b"\n\n")


@dataclass(frozen=True)
class Shape:
    """An input that grows with ``n``, and the notation to read it as (None: sniffed)."""

    name: str
    make: Callable[[int], bytes]
    fmt: str | None = None


def _in_tag(tag: bytes) -> Callable[[bytes], Callable[[int], bytes]]:
    def grow(run: bytes) -> Callable[[int], bytes]:
        def make(n: int) -> bytes:
            line = b"[" + tag + b' "' + run * n + b'"]\n'
            return line + BASE if tag != b"Event" else BASE.replace(b"\n", b"\n" + line, 1)

        return make

    return grow


def shapes() -> list[Shape]:
    """Every shape, by delimiter and place, and the structural ones."""
    found: list[Shape] = []
    for run in DELIMITERS:
        shown = run.decode().encode("unicode_escape").decode()
        found += [
            Shape(f"{shown!r} alone (GRN)", lambda n, r=run: r * n, "grn"),
            Shape(f"{shown!r} alone (sniffed)", lambda n, r=run: r * n),
            Shape(f"{shown!r} before a record", lambda n, r=run: r * n + b"\n" + BASE),
            Shape(f"{shown!r} in the movetext", lambda n, r=run: HEAD + b"\n\n" + r * n + MOVES),
            Shape(
                f"{shown!r} in a comment",
                lambda n, r=run: HEAD + b"\n\n{" + r.replace(b"}", b")") * n + b"} " + MOVES,
            ),  # fmt: skip
            Shape(f"{shown!r} in a JSON string", lambda n, r=run: _json_with(r * n), "json"),
        ]
        for tag in (b"Game", b"Size", b"Setup", b"Result", b"Event"):
            found.append(Shape(f"{shown!r} in the {tag.decode()} tag", _in_tag(tag)(run)))
    found += [
        Shape("nested JSON arrays", lambda n: b"[" * n + b"]" * n, "json"),
        Shape("nested JSON objects", lambda n: b'{"a":' * n + b"1" + b"}" * n, "json"),
        Shape("an open JSON string", lambda n: b'{"game": "' + b"x" * n, "json"),
        Shape(
            "many JSON records",
            lambda n: b"[" + b",".join([_json_with(b"x")] * (n // 50)) + b"]",
            "json",
        ),  # fmt: skip
        Shape("many GRN records", lambda n: b"\n".join([BASE] * (n // 200))),
        Shape("many moves", lambda n: HEAD + b"\n\n" + b"1. c3 swap " * (n // 10) + b"*"),
        Shape("many comments", lambda n: HEAD + b"\n\n" + b"{c} " * (n // 4) + MOVES),
        Shape("many tags", lambda n: b"".join(b'[T%d "v"]\n' % i for i in range(n // 10)) + BASE),
        Shape("many Game lines", lambda n: b'[Game "Pilo"]\n' * (n // 14)),
        Shape("one long line of digits", lambda n: HEAD + b"\n\n1" + b"0" * n + b". c3 *"),
        Shape(
            "a Setup of many commas",
            lambda n: (
                HEAD.replace(b"[Result", b'[Setup "' + b"," * n + b'"]\n[Result', 1)
                + b"\n\n"
                + MOVES
            ),
        ),  # fmt: skip
        Shape(
            "a Setup of many ranks",
            lambda n: (
                HEAD.replace(b"[Result", b'[Setup "' + b"6/" * (n // 2) + b'6"]\n[Result', 1)
                + b"\n\n"
                + MOVES
            ),
        ),  # fmt: skip
    ]
    return found


def _json_with(value: bytes) -> bytes:
    text = json.dumps(value.decode("utf-8", "replace"))
    return b'{"game": "Pilo", "size": 6, "tags": [{"name": "Event", "value": ' + text.encode() \
        + b'}], "moves": [{"type": "place", "at": "c3"}], "result": "*"}'  # fmt: skip


def adjudicate(data: bytes, fmt: str | None) -> None:
    """What ``arbiter adjudicate`` and ``POST /adjudicate`` do with an input."""
    for item in read_records(data, fmt=fmt):  # type: ignore[arg-type]
        report_for(item).to_dict()


def convert(data: bytes, fmt: str | None) -> None:
    """What ``arbiter convert --to json`` and ``POST /convert?to=json`` do with an input."""
    for position, item in enumerate(read_records(data, fmt=fmt)):  # type: ignore[arg-type]
        convert_item(item, to="json", file=None, position=position)


OPERATIONS: dict[str, Callable[[bytes, str | None], None]] = {
    "adjudicate": adjudicate,
    "convert": convert,
}


def cost(operation: Callable[[bytes, str | None], None], data: bytes, fmt: str | None) -> float:
    """Seconds ``operation`` takes on ``data``: the best of three runs."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        operation(data, fmt)
        best = min(best, time.perf_counter() - began)
    return best


@dataclass(frozen=True)
class Finding:
    """One shape at two sizes, ten times apart."""

    shape: str
    small: float
    large: float
    size: int

    @property
    def ratio(self) -> float:
        return self.large / max(self.small, FLOOR)

    def within(self, seconds_per_mib: float) -> bool:
        """Whether the larger input cost at most RATIO times the smaller (give or take
        SLACK) and at most ``seconds_per_mib`` per MiB (a second at least)."""
        budget = max(1.0, seconds_per_mib * self.size / 2**20)
        return self.large <= RATIO * max(self.small, FLOOR) + SLACK and self.large <= budget

    def __str__(self) -> str:
        return (
            f"{self.shape}: {self.small * 1000:.1f} ms, then {self.large * 1000:.1f} ms at "
            f"{self.size:,} bytes ({self.ratio:.1f}×)"
        )


def check(sizes: list[int]) -> tuple[list[Finding], list[Finding]]:
    """Every shape and operation at each of ``sizes`` (each ten times the one before): (the
    findings, every measurement). Several decades, because the limits of spec/grn.md §9
    cut a long run short above some size, which would hide a quadratic path below it."""
    findings, measured = [], []
    budget = SECONDS_PER_MIB * (PURE_SLOWER if "pure" in build_under_test() else 1)
    for shape in shapes():
        for name, operation in OPERATIONS.items():
            label = f"{name}: {shape.name}"
            small = cost(operation, shape.make(sizes[0]), shape.fmt)
            for n in sizes[1:]:
                data = shape.make(n)
                found = Finding(label, small, cost(operation, data, shape.fmt), len(data))
                measured.append(found)
                if not found.within(budget):  # once more, in case the machine was busy
                    found = Finding(label, small, cost(operation, data, shape.fmt), len(data))
                    if not found.within(budget):
                        findings.append(found)
                small = found.large
    return findings, measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--largest", type=int, default=100_000, help="units of the largest input (from 100 up)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every measurement")
    options = parser.parse_args(argv)
    sizes = [100]
    while sizes[-1] < options.largest:
        sizes.append(sizes[-1] * 10)
    began = time.perf_counter()
    findings, measured = check(sizes)
    for one in measured if options.verbose else []:
        print(f"  {one}")
    worst = max(measured, key=lambda m: m.ratio)
    large = [m for m in measured if m.size >= 100_000] or measured
    dearest = max(large, key=lambda m: m.large / m.size)
    print(
        f"{build_under_test()}: {len(shapes())} shapes, "
        f"{len(OPERATIONS)} operations, at {', '.join(f'{n:,}' for n in sizes)} units in "
        f"{time.perf_counter() - began:.0f} s; largest ratio: {worst}; most time per MiB (inputs "
        f"of 100 KB or more): {dearest.large / dearest.size * 2**20:.2f} s ({dearest}); "
        f"findings: {len(findings)}"
    )
    for one in findings:
        print(f"  {one}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
