"""``arbiter serve --workers N``: N server processes on one listening socket (``spec/api.md``
§6, ``spec/events.md`` §9).

The parent binds the port, then forks the workers, each a whole waitress server with its
threads; the kernel hands each new connection to one of them. The parent only watches: a
worker that dies is started again, and SIGTERM or SIGINT is passed on to every worker, each
of which lets its requests under way finish before it exits; then the parent exits 0.
Nothing is shared between the workers but the socket and the database, which each opens
on its first event request (after the fork).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

STOP_WAIT = 40.0
"""Seconds the parent waits for the workers to drain before it kills them."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0: a free port) and listening."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    sock.bind(address)
    sock.listen(1024)
    return sock


def serve_forked(run: Callable[[], None], workers: int) -> None:
    """Run ``run`` (one server, until it is told to stop) in ``workers`` child processes,
    and keep that many running until SIGTERM or SIGINT; then stop them and return."""
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    children: set[int] = set()
    try:
        while not stopping:
            while len(children) < workers and not stopping:
                children.add(_fork(run, previous))
            pid, status = os.waitpid(-1, os.WNOHANG)  # polled: a signal must end the wait
            if pid == 0:
                time.sleep(0.1)
            elif pid in children:
                children.discard(pid)
                if not stopping:
                    print(
                        f"arbiter: worker {pid} ended ({_how(status)}); starting another",
                        file=sys.stderr,
                        flush=True,
                    )
                    time.sleep(0.2)  # a worker that dies at once must not spin
    finally:
        _stop(children)


def _fork(run: Callable[[], None], handlers: dict[signal.Signals, Any]) -> int:
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    for sig, handler in handlers.items():  # the worker's own server sets its handlers
        signal.signal(sig, handler)
    leave_with(parent)
    code = 0
    try:
        run()
    except BaseException as err:  # the worker must end here, never return to the parent's loop
        print(f"arbiter: worker failed: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        code = 1
    finally:
        os._exit(code)


def leave_with(parent: int) -> None:
    """Make this worker stop, as on SIGTERM (its requests under way finish), when
    ``parent`` is gone, even killed with SIGKILL, which it cannot pass on: else the workers
    would serve on as orphans, holding the port, and a restart could not bind it. On Linux
    the kernel sends the signal at once (``prctl(PR_SET_PDEATHSIG)``); elsewhere, and in
    case the parent died before that was set, a thread looks every :data:`ORPHAN_CHECK`
    seconds."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        pass
    threading.Thread(target=_watch, args=(parent,), name="orphan-check", daemon=True).start()


PR_SET_PDEATHSIG = 1
ORPHAN_CHECK = 1.0
"""Seconds between two looks at the parent, where the kernel does not tell."""


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os.kill(os.getpid(), signal.SIGTERM)


def _stop(children: set[int]) -> None:
    for pid in children:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    while children and time.monotonic() < deadline:
        pid, _ = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.05)
        children.discard(pid)
    for pid in children:
        _signal(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
