"""``GET /events/ID/stream``: an event's version pushed as server-sent events
(``spec/events.md`` §10.1), which its public, round and player pages and the desk follow to
update themselves without a reload.

The answer is ``text/event-stream``: first ``retry: 3000`` and an event ``version`` with the
version now, then one such event each time the version changes, and a comment line every
:data:`KEEP_ALIVE` seconds so that a proxy or a client does not take a quiet stream for a
dead one. A client only ever needs the last version: a change it missed while it was away
is told by the first event of the next stream.

Two ways serve it. Under ``arbiter serve``, :mod:`.stream_hub` takes the request in the
server's channel, writes this answer's head itself and hands the connection to one thread
per process that follows every event listened to (a stream then holds no worker thread).
Under any other WSGI server this module's route answers with a generator that asks the
version about once a second and ends after :data:`LIFETIME` seconds (the browser connects
again): each such stream holds a thread of that server while it is open.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from flask import Blueprint, Response, request

from arbiter.service.web.events_api import call, store

if TYPE_CHECKING:
    from arbiter.service.events.store import Store

bp = Blueprint("streams", __name__)

STREAM_PATH = re.compile("/events/([^/]+)/stream")
"""A stream's path (as WSGI gives it, its bytes as Latin-1), the event's id in it."""
RETRY_MS = 3000
"""How long a browser waits before it connects again to a stream cut (the ``retry`` field)."""
KEEP_ALIVE = 15.0
"""Seconds between two comment lines on a quiet stream."""
POLL_SECONDS = 1.0
"""How often a stream of the WSGI route asks the event's version."""
LIFETIME = 300.0
"""Seconds a stream of the WSGI route lasts before it ends (the browser connects again): a
thread of a WSGI server is held for a bounded time, never for as long as a page is open."""

HEADERS = (
    ("Content-Type", "text/event-stream"),
    ("Cache-Control", "no-store"),
    ("X-Accel-Buffering", "no"),  # nginx: pass each event on at once, do not buffer them
)
"""The headers of a stream's answer, however it is served."""
COMMENT = b": keep-alive\n\n"
"""The comment line sent on a quiet stream (a line starting with ``:`` is no event)."""


def message(version: int) -> bytes:
    """The event that tells a stream's reader the version ``version``."""
    return b'event: version\ndata: {"version": %d}\n\n' % version


def opening(version: int) -> bytes:
    """What a stream starts with: how long to wait before connecting again, and the version
    now."""
    return b"retry: %d\n" % RETRY_MS + message(version)


@bp.get("/events/<event_id>/stream")
def stream(event_id: str) -> Response:
    """The event's version, then each change of it, as server-sent events; 404
    ``no-such-event`` for an event that does not exist."""
    from arbiter.service.events.reading import version

    current = call(version, event_id)
    if request.method == "HEAD":
        return Response(b"", headers=list(HEADERS))
    found = store()
    return Response(_follow(found, event_id, current), headers=list(HEADERS))


def _follow(found: Store, event_id: str, current: int) -> Iterator[bytes]:
    """The stream of the WSGI route: the opening, then the version each time it changes,
    asked every :data:`POLL_SECONDS`, a comment every :data:`KEEP_ALIVE` seconds; it ends
    after :data:`LIFETIME` seconds, and when the event or the database can no longer be
    read (the browser connects again, and learns which)."""
    from arbiter.service.events.common import DatabaseError, EventError
    from arbiter.service.events.reading import version

    yield opening(current)
    started = quiet_since = time.monotonic()
    while time.monotonic() - started < LIFETIME:
        time.sleep(POLL_SECONDS)
        try:
            now = version(found, event_id)
        except (EventError, DatabaseError) as err:
            logging.getLogger("arbiter.serve").info("a stream of %r ends: %s", event_id, err)
            return
        if now != current:
            current = now
            quiet_since = time.monotonic()
            yield message(current)
        elif time.monotonic() - quiet_since >= KEEP_ALIVE:
            quiet_since = time.monotonic()
            yield COMMENT


def stream_path_id(path: str) -> str | None:
    """The event's id in a stream's WSGI path (its bytes as Latin-1, as waitress gives
    them), or None when ``path`` is no stream's."""
    found = STREAM_PATH.fullmatch(path)
    if found is None:
        return None
    return found.group(1).encode("latin-1").decode("utf-8", "replace")
