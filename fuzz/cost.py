"""The cost check: an input ten times larger may cost at most about ten times more.

Random fuzzing finds a quadratic path only when it happens to draw a long enough run of the
character that triggers it; this looks for one on purpose. Every shape below is an input
grown by one parameter (a run of one delimiter alone, before a record, in its movetext,
inside each of its tag values, inside a comment; JSON nesting, long strings and arrays;
many records, moves, lines and comments). Each is adjudicated and, apart, converted to
JSON, as the command line and the API do, at 100, 1,000, ... units, and measured two ways
that a busy machine does not change (:mod:`fuzz.work`):

- the calls it makes: each size may make at most :data:`RATIO` times the calls of the size
  before (a linear path makes ten times as many, a quadratic one a hundred);
- at 100,000 units and more, its processor time against that of adjudicating real records
  of as many bytes, taken in turns: at most :data:`MOST_RELATIVE` times (every shape costs
  at most about 2.4 times the reference; a regular expression that rescans the text from
  every ``{`` cost hundreds of times). This is what sees work inside one built-in call,
  which the calls do not.

Usage::

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
from functools import partial
from pathlib import Path

from arbiter.notation.sources import read_records
from arbiter.service.core.batch import convert_item, report_for
from fuzz import build_under_test
from fuzz.inputs import DELIMITERS
from fuzz.work import calls, relative_costs

ROOT = Path(__file__).resolve().parents[1]
RATIO = 20
"""How many more calls ten times the input may make (linear is 10, quadratic 100)."""
FLOOR = 200
"""Calls below which a count is fixed cost, not growth: the smaller input's count is taken
as at least this (the compiled build makes few calls that the profiler sees)."""
MOST_RELATIVE = 30.0
"""How many times the processor time of adjudicating real records of as many bytes an input
of 100,000 units or more may take. Shapes take 0.3 to 2.4 times it; load slows both alike;
a regular expression that rescanned the text from every ``{`` took 77 times it."""
RELATIVE_FROM = 100_000
"""The size from which processor time is compared too (below it, fixed costs dominate)."""
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
        Shape("many GRN records", lambda n: b"\n".join([BASE] * max(1, n // 200))),
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


def reference(size: int) -> bytes:
    """Real records of about ``size`` bytes: what reading and adjudicating normally costs."""
    return b"\n".join([BASE] * max(1, size // len(BASE)))


@dataclass(frozen=True)
class Finding:
    """One shape and operation at two sizes ten times apart (their calls), or at one size
    against the reference (its relative processor time)."""

    shape: str
    size: int
    small: int = 0
    large: int = 0
    relative: float = 0.0

    @property
    def ratio(self) -> float:
        return self.large / max(self.small, FLOOR)

    def within(self) -> bool:
        return self.ratio <= RATIO and self.relative <= MOST_RELATIVE

    def __str__(self) -> str:
        if self.relative:
            return f"{self.shape}: {self.relative:.1f}× the reference at {self.size:,} bytes"
        return (
            f"{self.shape}: {self.small:,} calls, then {self.large:,} at {self.size:,} bytes "
            f"({self.ratio:.1f}×)"
        )


def check(sizes: list[int], *, count_to: int | None = None) -> tuple[list[Finding], list[Finding]]:
    """Every shape and operation at each of ``sizes`` (each ten times the one before): (the
    findings, every measurement). Several decades, because the limits of spec/grn.md §9
    cut a long run short above some size, which would hide a quadratic path below it. The
    calls are counted up to ``count_to`` units (all sizes by default); above it, only the
    processor time is compared."""
    measured: list[Finding] = []
    for shape in shapes():
        for name, operation in OPERATIONS.items():
            measured += _counted(shape, name, operation, sizes, count_to)
        for n in sizes:
            if n >= RELATIVE_FROM:
                measured += _relative(shape, shape.make(n))
    return [m for m in measured if not m.within()], measured


def _counted(
    shape: Shape,
    name: str,
    operation: Callable[[bytes, str | None], None],
    sizes: list[int],
    count_to: int | None,
) -> list[Finding]:
    """The calls of ``operation`` on ``shape`` from one size to the next."""
    found = []
    small = calls(lambda: operation(shape.make(sizes[0]), shape.fmt))
    for n in sizes[1:]:
        if count_to is not None and n > count_to:
            break
        data = shape.make(n)
        large = calls(lambda data=data: operation(data, shape.fmt))  # type: ignore[misc]
        found.append(Finding(f"{name}: {shape.name}", len(data), small, large))
        small = large
    return found


def _relative(shape: Shape, data: bytes) -> list[Finding]:
    """Each operation's processor time on ``data`` against the reference's of as many bytes;
    measured again with more runs when one is over the limit (a moment's noise is not a
    finding)."""
    base = reference(len(data))
    works = [partial(operation, data, shape.fmt) for operation in OPERATIONS.values()]
    for runs in (1, 5):
        costs = relative_costs(works, partial(adjudicate, base, None), runs=runs)
        found = [
            Finding(f"{name}: {shape.name}", len(data), relative=cost)
            for name, cost in zip(OPERATIONS, costs, strict=True)
        ]
        if all(one.within() for one in found):
            break
    return found


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
    steps = [m for m in measured if not m.relative]
    worst = max(steps, key=lambda m: m.ratio)
    dearest = max((m for m in measured if m.relative), key=lambda m: m.relative)
    print(
        f"{build_under_test()}: {len(shapes())} shapes, "
        f"{len(OPERATIONS)} operations, at {', '.join(f'{n:,}' for n in sizes)} units in "
        f"{time.perf_counter() - began:.0f} s; most calls for ten times the input: {worst}; "
        f"most processor time against the reference: {dearest}; findings: {len(findings)}"
    )
    for one in findings:
        print(f"  {one}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
