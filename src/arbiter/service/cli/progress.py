"""What a long run shows on standard error: a progress bar on a terminal, and a summary line
at the end (``spec/cli.md``, "Progress"). Nothing of it goes to standard output.

The bar counts records and the bytes of the files read so far; the estimated time left
comes from the bytes, since how many records a file holds is known only once it is read.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TypeVar

T = TypeVar("T")

INTERVAL = 0.25
"""Seconds between two redrawings of the bar."""
DELAY = 1.0
"""Seconds before the bar first appears: a short run shows none."""
WIDTH = 24


class Tally:
    """Records seen, valid and invalid, bytes read out of those the files hold, and time."""

    def __init__(self, total_bytes: int | None, skipped: int = 0) -> None:
        self.total_bytes = total_bytes
        self.skipped = skipped  # files of a directory passed over (not .grn or .json)
        self.read_bytes = 0
        self.records = 0
        self.invalid = 0
        self.start = time.perf_counter()

    def count(self, valid: bool) -> None:
        self.records += 1
        self.invalid += not valid

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def summary(self) -> str:
        """The last line of every run: ``1,200 records, 1,198 valid, 2 invalid, 3.1 s``."""
        skipped = f", {self.skipped} file{'s' if self.skipped != 1 else ''} skipped"
        skipped = skipped if self.skipped else ""
        if not self.records:
            return "no records found" + skipped
        rate = f" ({self.records / self.seconds:,.0f} records/s)" if self.seconds >= 1 else ""
        return (f"{self.records:,} record{'s' if self.records != 1 else ''}, "
                f"{self.records - self.invalid:,} valid, {self.invalid:,} invalid, "
                f"{self.seconds:.1f} s{rate}{skipped}")  # fmt: skip


class Bar:
    """A progress bar redrawn in place on a terminal (carriage return, no new line)."""

    def __init__(self, tally: Tally, stream: IO[str]) -> None:
        self.tally = tally
        self.stream = stream
        self.drawn = 0.0
        self.shown = False

    def update(self) -> None:
        now = time.perf_counter()
        if now - self.tally.start < DELAY or now - self.drawn < INTERVAL:
            return
        self.drawn = now
        self.shown = True
        self.stream.write("\r" + self.line() + "\x1b[K")
        self.stream.flush()

    def line(self) -> str:
        """The bar and its figures, never wider than the terminal less one column (a line
        that wrapped could not be redrawn in place): the bar shrinks first, then goes."""
        tally = self.tally
        columns = (terminal_columns(self.stream) or 80) - 1
        rate = tally.records / max(tally.seconds, 1e-9)
        text = f"{tally.records:,} records, {rate:,.0f}/s"
        if tally.total_bytes and tally.read_bytes:
            done = min(tally.read_bytes / tally.total_bytes, 1.0)
            left = tally.seconds * (1 - done) / done if done else 0.0
            text = f"{done:4.0%} {text}, ETA {left:.0f} s"
            width = min(WIDTH, columns - len(text) - 3)
            if width >= 5:
                filled = round(done * width)
                text = f"[{'#' * filled}{'.' * (width - filled)}] {text}"
        return text[:columns]

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def terminal_columns(stream: IO[str]) -> int | None:
    """The width of the terminal ``stream`` writes to, or None when it is not a terminal
    (a pipe, a file). ``COLUMNS`` wins, as for ``ls`` and ``git``."""
    try:
        if not stream.isatty():
            return None
        given = os.environ.get("COLUMNS", "")
        return (
            int(given)
            if given.isdigit() and int(given) > 0
            else os.get_terminal_size(stream.fileno()).columns
        )
    except (OSError, ValueError, AttributeError):
        return None


def file_sizes(names: Iterable[object]) -> int | None:
    """The bytes the named files hold, or None when one of them is not a regular file (or
    not a file name at all: a directory that could not be listed)."""
    total = 0
    for name in names:
        try:
            if not isinstance(name, str) or name == "-" or not os.path.isfile(name):
                return None
            total += os.path.getsize(name)
        except OSError:
            return None
    return total


def bar_wanted(quiet: bool) -> bool:
    """Whether a run draws a progress bar: unless ``quiet``, on a terminal. Only then does
    it need the files' sizes and the bytes read, which cost a call per line read."""
    return not quiet and sys.stderr.isatty()


def watched(items: Iterable[T], tally: Tally, *, quiet: bool,
            valid: Callable[[T], bool]) -> Iterator[T]:  # fmt: skip
    """``items`` passed through, counted in ``tally``; with a terminal on standard error and
    unless ``quiet``, a bar is drawn while they come."""
    bar = Bar(tally, sys.stderr) if bar_wanted(quiet) else None
    try:
        for item in items:
            tally.count(valid(item))
            if bar is not None:
                bar.update()
            yield item
    finally:
        if bar is not None:
            bar.close()


class CountingReader:
    """A binary stream that adds the bytes read from it to a tally."""

    def __init__(self, stream: IO[bytes], tally: Tally) -> None:
        self._stream = stream
        self._tally = tally

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        self._tally.read_bytes += len(data)
        return data

    def readline(self, size: int = -1) -> bytes:
        data = self._stream.readline(size)
        self._tally.read_bytes += len(data)
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:
        count = self._stream.readinto(buffer)  # type: ignore[attr-defined]
        self._tally.read_bytes += count or 0
        return count  # type: ignore[no-any-return]
