"""``arbiter adjudicate --scheduler ADDRESS``: adjudicate on a Dask cluster (``spec/cli.md``,
"Archives beyond one machine").

The client reads the files and cuts them into tasks of records, as ``--jobs`` does; the
cluster's workers, each with this package installed, read, replay and render the records
of a task and send back the text. The client keeps a bounded window of tasks in flight and
takes the results in task order, so the output is in input order and the client's memory
does not grow with the archive. Needs the ``cluster`` extra (``distributed``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from arbiter.adjudicator.replay import Report
from arbiter.notation.sources import Notation
from arbiter.service.cli.parallel import Paths, render_task, tasks
from arbiter.service.cli.progress import Tally

BATCH = 256
"""Records per task: a cluster task costs a few milliseconds to schedule, so tasks are
larger than those of ``--jobs``."""
IN_FLIGHT_PER_WORKER = 4


class ClusterError(Exception):
    """The cluster cannot be used: ``distributed`` is missing, or the scheduler does not
    answer."""


def cluster_rendered(
    names: Paths,
    address: str,
    fmt: Notation | None,
    render: Callable[[Report], str],
    tally: Tally | None = None,
    encoding: str = "utf-8",
) -> Iterator[tuple[bool, str]]:
    """Whether each record of ``names`` (their bytes decoded from ``encoding`` here) is valid
    and its report as ``render`` writes it, computed by the workers of the Dask scheduler at
    ``address``, in input order.

    Raises :class:`ClusterError` when the cluster cannot be reached."""
    client = _connect(address)
    try:
        window = max(IN_FLIGHT_PER_WORKER * _threads(client), IN_FLIGHT_PER_WORKER)
        work = partial(render_task, render)
        pending: deque[Any] = deque()  # futures, in input order
        for task in tasks(names, fmt, BATCH, encoding):
            if tally is not None:
                tally.read_bytes += task.size
            pending.append(client.submit(work, task, pure=False))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except (OSError, TimeoutError) as err:  # the scheduler or a worker went away
        raise ClusterError(f"the Dask cluster at {address} failed: {err}") from None
    finally:
        client.close()


def _connect(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            "--scheduler needs the 'distributed' package: pip install 'arbiter-grn[cluster]'"
        ) from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}") from None


def _threads(client: Any) -> int:
    """The worker threads of the cluster (at least one)."""
    threads: int = sum(client.nthreads().values())
    return max(threads, 1)
