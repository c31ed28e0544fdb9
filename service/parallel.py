"""``arbiter adjudicate --jobs N``: adjudicate in worker processes, keeping input order.

The main process reads files and cuts GRN into records (cheap); workers parse, replay and
render batches of records (the expensive part), and send back only the text each record
prints, so that the main process has little more to do than write it. Results are taken in
task order, so output order equals input order whatever the workers' speed.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from multiprocessing.pool import AsyncResult
from typing import BinaryIO, TypeVar

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_reader import Chunk, iter_lines, read_chunk, split_records
from arbiter.notation.sources import Format, format_for_name, read_records, sniff_format
from arbiter.service.batch import report_for
from arbiter.service.progress import Tally

T = TypeVar("T")

BATCH = 64
"""Records per task: large enough to amortise inter-process traffic, small enough to
keep every worker busy on small files."""


@dataclass(frozen=True, slots=True)
class Task:
    """A unit of work: GRN chunks, a whole JSON file, or a file that could not be read."""

    file: str
    chunks: tuple[Chunk, ...] = ()
    json: bytes | None = None
    unreadable: str | None = None
    fmt: Format = "json"

    @property
    def size(self) -> int:
        """About how many bytes of the file the task holds (for the progress bar)."""
        return len(self.json or b"") + sum(len(chunk.text) for chunk in self.chunks)


AHEAD = 4
"""Tasks in flight per worker. ``Pool.imap`` would read the whole input ahead of the
workers; a bounded window keeps memory flat on files of any size."""


def parallel_reports(paths: list[str], jobs: int, fmt: Format | None = None) -> Iterator[Report]:
    """Reports of every record in ``paths``, computed by ``jobs`` processes, in order;
    ``fmt`` names the notation of every file (else each file's name or content tells)."""
    yield from _run(paths, jobs, fmt, _work, None)


def parallel_rendered(
    paths: list[str],
    jobs: int,
    fmt: Format | None,
    render: Callable[[Report], str],
    tally: Tally | None = None,
) -> Iterator[tuple[bool, str]]:
    """Whether each record is valid and its report as ``render`` (a module-level function,
    sent to the workers by name) writes it, computed by ``jobs`` processes, in order."""
    yield from _run(paths, jobs, fmt, partial(render_task, render), tally)


def _run(paths: list[str], jobs: int, fmt: Format | None, work: Callable[[Task], list[T]],
         tally: Tally | None) -> Iterator[T]:  # fmt: skip
    with multiprocessing.get_context().Pool(jobs) as pool:
        pending: deque[AsyncResult[list[T]]] = deque()
        for task in tasks(paths, fmt):
            if tally is not None:
                tally.read_bytes += task.size
            pending.append(pool.apply_async(work, (task,)))
            if len(pending) >= jobs * AHEAD:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def tasks(paths: list[str], fmt: Format | None, batch: int = BATCH) -> Iterator[Task]:
    """The work of ``paths`` cut into tasks of ``batch`` GRN records (a JSON file is one
    task, read whole; a file that cannot be read is a task that says so), in input order."""
    for name in paths:
        try:
            yield from _file_tasks(name, fmt, batch)
        except OSError as err:
            yield Task(name, unreadable=f"cannot read {name}: {err.strerror or err}")


def _file_tasks(name: str, fmt: Format | None, batch_size: int) -> Iterator[Task]:
    stream: BinaryIO = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    try:
        fmt = fmt or format_for_name(name) or sniff_format(stream.peek(4096))  # type: ignore[attr-defined]
        if fmt != "grn":
            yield Task(name, json=stream.read(), fmt=fmt)
            return
        batch: list[Chunk] = []
        for chunk in split_records(iter_lines(stream)):
            batch.append(chunk)
            if len(batch) == batch_size:
                yield Task(name, tuple(batch))
                batch = []
        if batch:
            yield Task(name, tuple(batch))
    finally:
        if name != "-":
            stream.close()


def render_task(render: Callable[[Report], str], task: Task) -> list[tuple[bool, str]]:
    """Whether each record of ``task`` is valid, and its report as ``render`` writes it
    (what a worker process, or a worker of a cluster, sends back)."""
    return [(report.valid, render(report)) for report in _work(task)]


def _work(task: Task) -> list[Report]:
    if task.unreadable is not None:
        err = RecordError(task.unreadable, code="io-error", index=0, file=task.file)
        return [error_report(err, file=task.file)]
    if task.json is not None:
        items = list(read_records(task.json, file=task.file, fmt=task.fmt))
    else:
        items = [read_chunk(chunk, file=task.file) for chunk in task.chunks]
    return [report_for(item, file=task.file) for item in items]
