"""The replays of a rating run shared among processes (``--jobs``), keeping order.

The records are read and parsed once, by the process of the command. Once they are in
memory it forks ``jobs - 1`` worker processes, which inherit them as they are, and then
works beside them: each process takes the next range of records not yet taken (a counter in
shared memory) until none is left, so that a process slowed by other work on the machine
takes fewer. A worker sends back only what it found of each record of its ranges (a note, a
rated game, an exclusion: small values, pickled). The parts are joined in the order of the
records, so that the run gives the same values whatever the number of processes. Where the
system cannot fork (Windows), or there is too little to share, the work is done in the
process itself.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["WorkerLost", "available_cores", "can_share", "mapped", "mapped_beside"]

T = TypeVar("T")
R = TypeVar("R")
M = TypeVar("M")

SHARED_FROM = 500
"""Fewer items than this are done in the process itself: forking costs more."""
PARTS_PER_PROCESS = 16
"""Ranges per process, about: small enough that none waits long for the last."""
SMALLEST_PART = 16

_WORK: list[tuple[Callable[[Any], list[Any]], Sequence[Any], list[tuple[int, int]], Any]] = []
"""The function, the items, their ranges and the shared counter of the ranges taken: set
before the workers are forked, which inherit it."""


class WorkerLost(RuntimeError):
    """A worker process ended without sending its results (killed by the system, say)."""


def available_cores() -> int:
    """The processors this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system
        return max(1, os.cpu_count() or 1)


def can_share(count: int, jobs: int) -> bool:
    """Whether :func:`mapped` shares ``count`` items among ``jobs`` processes."""
    return jobs > 1 and count >= SHARED_FROM and "fork" in multiprocessing.get_all_start_methods()


def mapped(function: Callable[[T], list[R]], items: Sequence[T], jobs: int) -> list[R]:
    """``function`` of each of ``items``, joined in their order, computed by this process
    and ``jobs - 1`` forked workers where :func:`can_share` says so, else by this process
    alone. The result is the same either way; a failure in a worker is raised here (a
    worker that dies raises :class:`WorkerLost`)."""
    return mapped_beside(function, items, jobs, lambda: None)[0]


def mapped_beside(
    function: Callable[[T], list[R]], items: Sequence[T], jobs: int, meanwhile: Callable[[], M]
) -> tuple[list[R], M]:
    """:func:`mapped`, and what ``meanwhile`` returns, which this process runs first: once
    the workers are forked, while they start on the items."""
    if not can_share(len(items), jobs):
        beside = meanwhile()
        return [found for item in items for found in function(item)], beside
    size = max(SMALLEST_PART, -(-len(items) // (jobs * PARTS_PER_PROCESS)))
    bounds = [(start, min(start + size, len(items))) for start in range(0, len(items), size)]
    context = multiprocessing.get_context("fork")
    _WORK.append((function, items, bounds, context.Value("q", 0)))
    for stream in (sys.stdout, sys.stderr):  # a child must not write what is buffered here
        if stream is not None:
            stream.flush()
    workers: list[tuple[Any, Any]] = []
    finished = False
    try:
        for _ in range(jobs - 1):
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(writer,), daemon=True)
            process.start()
            writer.close()
            workers.append((process, reader))
        beside = meanwhile()
        done = _take_parts()
        for _process, reader in workers:
            try:
                found = reader.recv()
            except EOFError:
                raise WorkerLost("a worker process ended without its results") from None
            if isinstance(found, BaseException):
                raise found
            done.update(found)
        finished = True
        return [found for part in range(len(bounds)) for found in done[part]], beside
    finally:
        for process, reader in workers:
            if not finished:  # stopped early (a failure, an interruption): no more work
                process.terminate()
            process.join()
            reader.close()
        _WORK.pop()


def _take_parts() -> dict[int, list[Any]]:
    """The results of each range this process takes, by the range's number, until every
    range is taken."""
    function, items, bounds, counter = _WORK[-1]
    done: dict[int, list[Any]] = {}
    while True:
        with counter.get_lock():
            part = counter.value
            counter.value = part + 1
        if part >= len(bounds):
            return done
        start, stop = bounds[part]
        done[part] = [found for item in items[start:stop] for found in function(item)]


def _worker(writer: Any) -> None:
    """A forked worker: its ranges' results sent back, or the error that stopped it."""
    try:
        writer.send(_take_parts())
    except BaseException as error:  # noqa: BLE001 (given to the process that waits)
        try:
            writer.send(error)
        except Exception:  # an error that does not pickle: said in words
            writer.send(RuntimeError(f"{type(error).__name__}: {error}"))
    finally:
        writer.close()
