"""``--jobs N`` of ``adjudicate``, ``validate`` and ``convert``: the work in worker processes,
keeping input order.

The main process reads files and cuts them into records (cheap, GRN or JSON, in bounded
memory); workers parse, replay and render (or convert) batches of records (the expensive part), and
send back only the text each record prints, so that the main process has little more to do than
write it. Results are taken in task order, so output order equals input order whatever the
workers' speed.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import BinaryIO, TypeVar

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.chunk import Chunk
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import Notation, Unit, read_unit, split_source
from arbiter.service.cli.converted import ConvertedLines, converted_lines, unreadable_lines
from arbiter.service.cli.progress import Tally
from arbiter.service.cli.unreadable import Unreadable
from arbiter.service.core.batch import convert_item, report_for

T = TypeVar("T")

BATCH = 64
"""Records per task: large enough to amortise inter-process traffic, small enough to
keep every worker busy on small files."""


@dataclass(frozen=True, slots=True)
class Task:
    """A unit of work: the text of some records of one file, or a file that could not be
    read (from its start, or from where reading failed)."""

    file: str
    units: tuple[Unit, ...] = ()
    unreadable: RecordError | None = None
    fmt: Notation | None = None

    @property
    def size(self) -> int:
        """About how many bytes of the file the task holds (for the progress bar)."""
        return sum(
            len(unit.text) if isinstance(unit, Chunk) else len(unit.data) for unit in self.units
        )


AHEAD = 4
"""Tasks in flight per worker. Submitting every task at once would read the whole input
ahead of the workers; a bounded window keeps memory flat on files of any size."""

Paths = Sequence[str | Unreadable]
"""The files to read, in order; a path that could not be listed stands as :class:`Unreadable`."""


def parallel_rendered(
    paths: Paths,
    jobs: int,
    fmt: Notation | None,
    render: Callable[[Report], str],
    tally: Tally | None = None,
    encoding: str = "utf-8",
) -> Iterator[tuple[bool, str]]:
    """Whether each record is valid and its report as ``render`` (a module-level function,
    sent to the workers by name) writes it, computed by ``jobs`` processes, in order."""
    yield from _run(paths, jobs, fmt, partial(render_task, render), tally, encoding)


def parallel_converted(
    paths: Paths, jobs: int, fmt: Notation | None, to: Notation, encoding: str = "utf-8"
) -> Iterator[ConvertedLines]:
    """What ``arbiter convert --to TO`` writes of each record (and of each file that cannot
    be read), computed by ``jobs`` processes, in order."""
    yield from _run(paths, jobs, fmt, partial(convert_task, to), None, encoding)


def _run(paths: Paths, jobs: int, fmt: Notation | None, work: Callable[[Task], list[T]],
         tally: Tally | None, encoding: str) -> Iterator[T]:  # fmt: skip
    # A worker process that dies (killed by the system, say) fails the run with
    # BrokenProcessPool, which the command reports, instead of leaving it waiting forever.
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context())
    try:
        pending: deque[Future[list[T]]] = deque()
        for task in tasks(paths, fmt, encoding=encoding):
            if tally is not None:
                tally.read_bytes += task.size
            pending.append(pool.submit(work, task))
            if len(pending) >= jobs * AHEAD:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:  # also when the reader stopped early (| head): drop the work not started
        pool.shutdown(wait=True, cancel_futures=True)


def tasks(
    paths: Paths, fmt: Notation | None, batch: int = BATCH, encoding: str = "utf-8"
) -> Iterator[Task]:
    """The work of ``paths`` cut into tasks of ``batch`` records (a file that cannot be read,
    or stops being readable, is a task that says so, in its place), in input order. The
    files are decoded from ``encoding`` here: the workers are sent UTF-8 text."""
    for name in paths:
        if isinstance(name, Unreadable):
            yield Task(name.path, unreadable=name.error())
            continue
        sent = 0
        try:
            for task in _file_tasks(name, fmt, batch, encoding):
                sent += len(task.units)
                yield task
        except OSError as err:
            problem = RecordError(
                f"cannot read {name}: {err.strerror or err}", code="io-error", index=sent, file=name
            )
            yield Task(name, unreadable=problem)


def _file_tasks(name: str, fmt: Notation | None, batch_size: int, encoding: str) -> Iterator[Task]:
    stream: BinaryIO = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    try:
        batch: list[Unit] = []
        for unit in split_source(stream, file=name, fmt=fmt, encoding=encoding):
            batch.append(unit)
            if len(batch) == batch_size:
                yield Task(name, tuple(batch), fmt=fmt)
                batch = []
        if batch:
            yield Task(name, tuple(batch), fmt=fmt)
    finally:
        if name != "-":
            stream.close()


def render_task(render: Callable[[Report], str], task: Task) -> list[tuple[bool, str]]:
    """Whether each record of ``task`` is valid, and its report as ``render`` writes it
    (what a worker process, or a worker of a cluster, sends back)."""
    return [(report.valid, render(report)) for report in _work(task)]


def convert_task(to: Notation, task: Task) -> list[ConvertedLines]:
    """What ``convert`` writes of each record of ``task`` (what a worker sends back)."""
    if task.unreadable is not None:
        return [unreadable_lines(task.file, task.unreadable)]
    file, fmt = task.file, task.fmt
    return [
        converted_lines(file, convert_item(read_unit(unit, file=file, fmt=fmt), to=to,
                                           file=file, position=unit.index), to)
        for unit in task.units
    ]  # fmt: skip


def _work(task: Task) -> list[Report]:
    if task.unreadable is not None:
        return [error_report(task.unreadable, file=task.file)]
    file, fmt = task.file, task.fmt
    return [report_for(read_unit(unit, file=file, fmt=fmt), file=file) for unit in task.units]
