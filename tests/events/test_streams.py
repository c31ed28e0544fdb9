"""An event's stream (spec/events.md §10.1): its versions read in one statement, the WSGI
route any server runs, and ``arbiter serve``, where open streams hold no worker thread."""

from __future__ import annotations

import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.events.reading import event_versions
from arbiter.service.web import streams
from arbiter.service.web.events_api import store
from tests.events.conftest import bearer, body, create
from tests.events.test_server import HANG, Server, call, new_event

VERSION = re.compile(rb'event: version\ndata: \{"version": (\d+)\}\n\n')


def test_the_versions_of_several_events_are_read_at_once(app: Flask, client: FlaskClient) -> None:
    first, _ = create(client)
    second, token = create(client, name="Winter Open")
    client.patch(f"/api/v1/events/{second}", json={"name": "Winter Cup"}, headers=bearer(token))
    with app.app_context():
        found = event_versions(store(), [first, second, second, "no-such", "x" * 500, "\x00"])
    assert found == {first: 1, second: 2}


def test_the_route_sends_the_version_then_each_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "POLL_SECONDS", 0.01)
    event, token = create(client)
    answer = client.get(f"/events/{event}/stream", buffered=False)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["X-Accel-Buffering"] == "no"
    chunks = iter(answer.response)
    assert next(chunks) == b'retry: 3000\nevent: version\ndata: {"version": 1}\n\n'
    changed = client.patch(
        f"/api/v1/events/{event}", json={"name": "Spring Open"}, headers=bearer(token)
    )
    assert changed.status_code == 200
    assert next(chunks) == streams.message(body(changed)["version"])
    answer.close()


def test_the_route_of_no_event_is_404(client: FlaskClient) -> None:
    answer = client.get("/events/no-such-event/stream")
    assert answer.status_code == 404
    assert body(answer)["error"]["code"] == "no-such-event"
    event, _ = create(client)
    head = client.head(f"/events/{event}/stream")
    assert head.status_code == 200 and head.data == b""


# --- under arbiter serve ----------------------------------------------------------------


class Reader:
    """A stream read over a raw socket, as a browser's EventSource reads it."""

    def __init__(self, url: str, event: str) -> None:
        where = urlsplit(url)
        self.sock = socket.create_connection((where.hostname, where.port), timeout=HANG)
        asked = f"GET /events/{event}/stream HTTP/1.1\r\nHost: x\r\n"
        self.sock.sendall(f"{asked}Accept: text/event-stream\r\n\r\n".encode())
        self.data = b""

    def head(self) -> str:
        while b"\r\n\r\n" not in self.data:
            self._more()
        head, _, self.data = self.data.partition(b"\r\n\r\n")
        return head.decode("latin-1")

    def version(self) -> int:
        """The next version the stream tells."""
        while (found := VERSION.search(self.data)) is None:
            self._more()
        self.data = self.data[found.end() :]
        return int(found.group(1))

    def rest(self) -> bytes:
        """What the stream sends until the server closes it."""
        while chunk := self.sock.recv(65536):
            self.data += chunk
        return self.data

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        assert chunk, f"the stream ended: {self.data!r}"
        self.data += chunk


@pytest.fixture
def small_server(tmp_path: Path) -> Iterator[Server]:
    """A server of two threads, whose silent connections are closed after a second, on
    SQLite (the hub's one statement is read on both databases above)."""
    database = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    running = Server(database, "--threads", "2", "--channel-timeout", "1")
    try:
        yield running
    finally:
        running.stop()


def test_streams_hold_no_thread_and_each_is_told_every_change(small_server: Server) -> None:
    url = small_server.url
    event, token = new_event(url)
    readers = [Reader(url, event) for _ in range(20)]
    try:
        for reader in readers:
            assert reader.head().startswith("HTTP/1.1 200 ")
            assert reader.version() == 1
        # Twenty streams on two threads: requests are answered all the same.
        for _ in range(4):
            status, found = call(f"{url}/api/v1/events/{event}")
            assert (status, found["version"]) == (200, 1)
        time.sleep(2.5)  # past the channel timeout: a live stream is not closed as silent
        status, changed = call(f"{url}/api/v1/events/{event}", "PATCH", {"name": "Blitz"}, token)
        assert status == 200
        assert [reader.version() for reader in readers] == [changed["version"]] * 20
        status, missing = call(f"{url}/events/no-such-event/stream")
        assert (status, missing["error"]["code"]) == (404, "no-such-event")
        assert small_server.stop(signal.SIGTERM) == 0
        for reader in readers:  # closed on SIGTERM, nothing more sent
            assert reader.rest() == b""
    finally:
        for reader in readers:
            reader.sock.close()
    logged = [line for line in small_server.stderr().splitlines() if "/stream " in line]
    assert len([line for line in logged if '" 200 ' in line]) == 20, logged
