"""``arbiter adjudicate --jobs N``: adjudicate in worker processes, keeping input order.

The main process reads files and cuts them into records (cheap, GRN or JSON); workers parse
and replay batches of records (the expensive part). ``Pool.imap`` returns results in task order, so
output order equals input order whatever the workers' speed.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from typing import BinaryIO

from arbiter.adjudicator.replay import Report, error_report
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import Format, Unit, read_unit, split_source
from arbiter.service.batch import report_for
from arbiter.service.cli_io import Unreadable

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
    fmt: Format | None = None


AHEAD = 4
"""Tasks in flight per worker. ``Pool.imap`` would read the whole input ahead of the
workers; a bounded window keeps memory flat on files of any size."""


def parallel_reports(
    paths: Sequence[str | Unreadable], jobs: int, fmt: Format | None = None
) -> Iterator[Report]:
    """Reports of every record in ``paths``, computed by ``jobs`` processes, in order (a
    path that could not be listed gives its ``io-error`` in its place); ``fmt`` names the
    notation of every file (else each file's name or content tells)."""
    with multiprocessing.get_context().Pool(jobs) as pool:
        pending: deque[AsyncResult[list[Report]]] = deque()
        for task in _tasks(paths, fmt):
            pending.append(pool.apply_async(_work, (task,)))
            if len(pending) >= jobs * AHEAD:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def _tasks(paths: Sequence[str | Unreadable], fmt: Format | None) -> Iterator[Task]:
    for name in paths:
        if isinstance(name, Unreadable):
            yield Task(name.path, unreadable=name.error())
            continue
        sent = 0
        try:
            for task in _file_tasks(name, fmt):
                sent += len(task.units)
                yield task
        except OSError as err:
            problem = RecordError(
                f"cannot read {name}: {err.strerror or err}", code="io-error", index=sent, file=name
            )
            yield Task(name, unreadable=problem)


def _file_tasks(name: str, fmt: Format | None) -> Iterator[Task]:
    stream: BinaryIO = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    try:
        batch: list[Unit] = []
        for unit in split_source(stream, file=name, fmt=fmt):
            batch.append(unit)
            if len(batch) == BATCH:
                yield Task(name, tuple(batch), fmt=fmt)
                batch = []
        if batch:
            yield Task(name, tuple(batch), fmt=fmt)
    finally:
        if name != "-":
            stream.close()


def _work(task: Task) -> list[Report]:
    if task.unreadable is not None:
        return [error_report(task.unreadable, file=task.file)]
    file, fmt = task.file, task.fmt
    return [report_for(read_unit(unit, file=file, fmt=fmt), file=file) for unit in task.units]
