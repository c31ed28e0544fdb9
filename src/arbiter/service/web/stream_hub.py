"""The pages' streams under ``arbiter serve`` (``spec/events.md`` §10.1), held without a
thread each.

waitress gives each request a thread of its pool (``--threads``, 4 by default) until its
answer ends; a stream never ends, so 4 open pages would take every thread. Instead the
channel (:class:`~arbiter.service.web.front.JsonChannel`) hands a stream's request to
:meth:`StreamHub.takes`, in the task's thread: once the event is known to exist, it writes
the answer's head and the first event itself, lets the thread go, and adds the connection
to the listeners of this process's :class:`StreamHub`. The hub's one thread asks, a few
times a second and in one statement, the versions of every event listened to, and when one
changed, or when a quiet stream is due its keep-alive comment, has the server's event loop
write the event to each connection listening (through waitress's trigger: the loop owns the
connections' buffers, and flushes them at once).

A connection whose reader does not keep up (more than :data:`BUFFERED` bytes unsent) is
closed, and so is one the event loop found silent longer than ``--channel-timeout`` (its
buffer not emptied in that time): a stream whose buffer is empty is alive, and the hub says
so to the loop's timeout. There are at most :data:`MAX_LISTENERS` streams per process and
:data:`MAX_PER_EVENT` per event; beyond, 503 ``too-many-streams`` (the page then polls).
"""

# waitress's channels are typed as Any: their attributes are its internals.
# pyright: reportAttributeAccessIssue=false

from __future__ import annotations

import logging
import threading
import time
from email.utils import formatdate
from typing import TYPE_CHECKING, Any

from waitress.channel import ClientDisconnected

from arbiter.service.web.streams import (
    COMMENT,
    HEADERS,
    KEEP_ALIVE,
    message,
    opening,
    stream_path_id,
)

if TYPE_CHECKING:
    from flask import Flask

    from arbiter.service.events.store import Store
    from arbiter.service.web.front import EarlyRefusal

log = logging.getLogger("arbiter.serve")

TICK = 0.25
"""Seconds between two reads of the versions listened to: a change reaches its streams
within about this time (and the database is asked four times a second, in one statement,
however many streams are open)."""
MAX_LISTENERS = 5000
"""Streams one process holds at most (each is an open connection: ``--connection-limit``
bounds them too)."""
MAX_PER_EVENT = 2000
"""Streams of one event one process holds at most."""
BUFFERED = 64 * 1024
"""Bytes a stream may have unsent before it is closed as a reader that does not keep up."""


class StreamHub:
    """The streams one server process holds, by event, and the thread that feeds them.
    ``server`` is waitress's server (its trigger wakes the event loop); ``app`` the Flask
    application, whose store the versions are read from."""

    def __init__(self, app: Flask, server: Any) -> None:
        self.app = app
        self.server = server
        self.lock = threading.Lock()
        self.events: dict[str, _Listeners] = {}
        self.count = 0
        self.stopped = threading.Event()
        self.store: Store | None = None
        self.failing = False
        self.thread = threading.Thread(target=self._run, name="arbiter-streams", daemon=True)
        self.thread.start()

    # --- in a task's thread ----------------------------------------------------------------

    def takes(self, channel: Any) -> bool:
        """Whether the channel's first request, a stream of an event that exists, was taken
        here: its answer started, the connection now listening. False leaves the request to
        the application as any other (it answers a missing event's 404, or a database that
        does not answer); a stream over the limits is left to it with a 503 refusal set."""
        request = channel.requests[0]
        if request.error is not None or request.command != "GET":
            return False
        event_id = stream_path_id(request.path)
        if event_id is None:
            return False
        began = time.perf_counter()
        current = self._version(event_id)
        if current is None:
            return False
        refusal = self._refusal(event_id)
        if refusal is not None:
            request.error = refusal
            return False
        head = _head(request.version) + opening(current)
        try:
            channel.write_soon(head)
        except ClientDisconnected:
            _settle(channel, listening=False)
            return True
        _settle(channel, listening=True)
        self._add(channel, event_id, current)
        access = getattr(channel.server, "access_log", None)
        if access is not None:  # logged once, as it starts: it may stay open for hours
            target = request.path + (f"?{request.query}" if request.query else "")
            remote = channel.addr[0] if getattr(channel, "addr", None) else "-"
            access.write(remote, "GET", _printable(target), f"HTTP/{request.version}", 200,
                         len(head), time.perf_counter() - began)  # fmt: skip
        return True

    def _version(self, event_id: str) -> int | None:
        """The event's version; None when it does not exist or cannot be read now."""
        from arbiter.service.events.common import DatabaseError, EventError
        from arbiter.service.events.reading import version

        try:
            return version(self._store(), event_id)
        except (EventError, DatabaseError):
            return None

    def _store(self) -> Store:
        if self.store is None:
            from arbiter.service.web.events_api import store

            with self.app.app_context():
                self.store = store()
        return self.store

    def _refusal(self, event_id: str) -> EarlyRefusal | None:
        from arbiter.service.web.front import EarlyRefusal

        with self.lock:
            listening = self.events.get(event_id)
            full = self.count >= MAX_LISTENERS or (
                listening is not None and len(listening.channels) >= MAX_PER_EVENT
            )
        if not full:
            return None
        message = "this server holds as many streams as it can; ask the event's version instead"
        return EarlyRefusal(503, "too-many-streams", message, headers=(("Retry-After", "30"),))

    def _add(self, channel: Any, event_id: str, current: int) -> None:
        with self.lock:
            listening = self.events.setdefault(event_id, _Listeners(current))
            listening.channels.add(channel)
            self.count += 1
            missed = listening.version if listening.version > current else None
        if missed is not None:  # a change the hub saw after this stream read its version
            self.server.trigger.pull_trigger(lambda: _send(channel, message(missed)))

    # --- in the hub's thread ---------------------------------------------------------------

    def _run(self) -> None:
        keep_alive = time.monotonic() + KEEP_ALIVE
        while not self.stopped.wait(TICK):
            try:
                due = time.monotonic() >= keep_alive
                if due:
                    keep_alive = time.monotonic() + KEEP_ALIVE
                self._tick(due)
            except Exception:  # a bug here must not end every stream's updates
                log.exception("the streams' thread failed a round")

    def _tick(self, keep_alive: bool) -> None:
        """One round: forget closed streams, read the versions listened to, and have the
        event loop write what changed (and the keep-alive comment when it is due)."""
        from arbiter.service.events.common import DatabaseError
        from arbiter.service.events.reading import event_versions

        with self.lock:
            self._forget_closed()
            asked = list(self.events)
        if not asked:
            return
        try:
            versions = event_versions(self._store(), asked)
        except DatabaseError as err:
            if not self.failing:
                log.warning("the streams cannot read the events' versions: %s", err)
            self.failing = True
            versions = None
        else:
            self.failing = False
        deliveries = self._deliveries(versions, keep_alive)
        if deliveries:
            self.server.trigger.pull_trigger(lambda: _deliver(deliveries))

    def _forget_closed(self) -> None:
        """Drop the streams whose connection closed; mark the others alive for the loop's
        timeout when they have nothing unsent. Under the lock."""
        now = time.time()
        for event_id, listening in list(self.events.items()):
            closed = {one for one in listening.channels if not one.connected}
            listening.channels -= closed
            self.count -= len(closed)
            if not listening.channels:
                del self.events[event_id]
            for one in listening.channels:
                if not one.total_outbufs_len:
                    one.last_activity = now

    def _deliveries(
        self, versions: dict[str, int] | None, keep_alive: bool
    ) -> list[tuple[list[Any], bytes | None]]:
        """What to write to whom: each event's new version to its streams, the keep-alive
        comment to the others when it is due, and None (close) to the streams of an event
        that no longer exists."""
        found: list[tuple[list[Any], bytes | None]] = []
        with self.lock:
            for event_id, listening in self.events.items():
                if versions is not None and event_id not in versions:
                    found.append((list(listening.channels), None))
                elif versions is not None and versions[event_id] != listening.version:
                    listening.version = versions[event_id]
                    found.append((list(listening.channels), message(listening.version)))
                elif keep_alive:
                    found.append((list(listening.channels), COMMENT))
        return found

    # --- in the event loop ------------------------------------------------------------------

    def stop(self) -> None:
        """Stop following the events, and close every stream once what it has unsent is
        out (on SIGTERM: the browsers connect again, to another worker or a later server)."""
        self.stopped.set()
        with self.lock:
            channels = [one for listening in self.events.values() for one in listening.channels]
            self.events.clear()
            self.count = 0
        for one in channels:
            one.close_when_flushed = True


class _Listeners:
    """The streams of one event and the last version they were sent."""

    __slots__ = ("channels", "version")

    def __init__(self, version: int) -> None:
        self.version = version
        self.channels: set[Any] = set()


def _deliver(deliveries: list[tuple[list[Any], bytes | None]]) -> None:
    """In the event loop: write each message to its streams (None: close them)."""
    for channels, data in deliveries:
        for channel in channels:
            if data is None:
                channel.close_when_flushed = True
            else:
                _send(channel, data)


def _send(channel: Any, data: bytes) -> None:
    """In the event loop: put ``data`` in the stream's buffer, which the loop then sends;
    close a stream whose reader lets more than :data:`BUFFERED` bytes wait."""
    if not channel.connected or channel.will_close or channel.close_when_flushed:
        return
    if channel.total_outbufs_len > BUFFERED:
        log.info("a stream closed: its reader does not keep up")
        channel.will_close = True
        return
    with channel.outbuf_lock:
        channel.outbufs[-1].append(data)
        channel.current_outbuf_count += len(data)
        channel.total_outbufs_len += len(data)


def _settle(channel: Any, listening: bool) -> None:
    """The request answered as far as the task goes: no request is under way any more (the
    loop then sends what is buffered at once, however small), and whatever the client
    sends on this connection from now on is read and dropped (``JsonChannel.streaming``)."""
    with channel.requests_lock:
        for request in channel.requests:
            request.close()
        channel.requests = []
        channel.streaming = True
        if not listening:
            channel.close_when_flushed = True
    channel.last_activity = time.time()
    channel.server.pull_trigger()


def _head(version: str) -> bytes:
    """The head of a stream's answer: no length and no chunks, the body ends when the
    connection closes (which HTTP/1.0 and HTTP/1.1 readers alike understand)."""
    from arbiter.service.web.front import SECURITY_HEADERS

    protocol = "HTTP/1.1" if version == "1.1" else "HTTP/1.0"
    lines = [
        f"{protocol} 200 OK",
        *(f"{name}: {value}" for name, value in HEADERS),
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS),
        "Connection: close",
        f"Date: {formatdate(usegmt=True)}",
        "Server: arbiter",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)[:2000]
