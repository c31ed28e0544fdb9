"""How soon an event's change reaches its pages' streams (``make bench-stream``;
``docs/performance.md``; spec/events.md §10.1).

One ``arbiter serve`` on its defaults (4 threads), one event, 200 streams open on
``/events/ID/stream`` at once (raw sockets, read by one thread of this process with a
selector, as 200 browsers' EventSources would read them). Then the director renames the
event 30 times (``PATCH /api/v1/events/ID``, a change like any other: it bumps the version),
0.5 to 1 s apart; for each change and each stream, the time from the change's answer to the
stream's receipt of the new version. Prints p50, p95 and the longest over every (change,
stream) pair, the deliveries missing (none expected), and how long a plain read of the
event took while the 200 streams were open. On a SQLite file, then on PostgreSQL (Debian's
binaries, a Unix socket) where it is installed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import selectors
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # tools/, when run from the benchmark's environment

from events_load import Server, percentile, request  # noqa: E402 - make bench-events' own, beside

from tools.postgres import Postgres, binaries  # noqa: E402

VERSION = re.compile(rb'event: version\ndata: \{"version": (\d+)\}\n\n')
WAIT = 30.0
"""Seconds after the last change within which every stream must have heard of it."""


class Streams:
    """``count`` streams of one event, read by one thread: when each heard each version."""

    def __init__(self, port: int, event: str, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.heard: list[dict[int, float]] = [{} for _ in range(count)]
        self.buffers = [b""] * count
        self.closed = 0
        self.stopping = False
        asked = f"GET /events/{event}/stream HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
        for number in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            sock.sendall(asked)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, number)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopping:
            for key, _ in self.selector.select(timeout=0.1):
                now = time.perf_counter()
                sock, number = key.fileobj, key.data
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.selector.unregister(sock)
                    self.closed += 1
                    continue
                data = self.buffers[number] + chunk
                end = 0
                for found in VERSION.finditer(data):
                    self.heard[number].setdefault(int(found.group(1)), now)
                    end = found.end()
                self.buffers[number] = data[end:][-4096:]

    def all_heard(self, version: int) -> bool:
        return all(version in heard for heard in self.heard)

    def close(self) -> None:
        self.stopping = True
        self.thread.join(timeout=10)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


def bench(kind: str, url: str, streams: int, changes: int, seed: int) -> str:
    server = Server("--database", url)
    try:
        status, made = request(
            server.port,
            "POST",
            "/api/v1/events",
            json.dumps({"name": "Stream Open", "game": "Pilo"}).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 201, made
        event, token = json.loads(made)["id"], json.loads(made)["token"]
        readers = Streams(server.port, event, streams)
        try:
            return _measure(kind, server.port, event, token, readers, changes, seed)
        finally:
            readers.close()
    finally:
        server.stop()


def _measure(
    kind: str, port: int, event: str, token: str, readers: Streams, changes: int, seed: int
) -> str:
    deadline = time.monotonic() + WAIT
    while not readers.all_heard(1):
        if time.monotonic() > deadline:
            raise SystemExit(f"not every stream opened within {WAIT} s")
        time.sleep(0.05)
    began = time.perf_counter()
    status, _ = request(port, "GET", f"/api/v1/events/{event}")
    read_ms = (time.perf_counter() - began) * 1000
    assert status == 200
    rng = random.Random(seed)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    answered: dict[int, float] = {}
    for number in range(changes):
        time.sleep(rng.uniform(0.5, 1.0))  # not in step with the server's rounds
        body = json.dumps({"name": f"Stream Open {number}"}).encode()
        status, raw = request(port, "PATCH", f"/api/v1/events/{event}", body, headers)
        answered[json.loads(raw)["version"]] = time.perf_counter()
        assert status == 200, raw
    last = max(answered)
    deadline = time.monotonic() + WAIT
    while not readers.all_heard(last) and time.monotonic() < deadline:
        time.sleep(0.05)
    latencies = [
        heard[version] - at
        for version, at in answered.items()
        for heard in readers.heard
        if version in heard
    ]
    missing = len(answered) * len(readers.heard) - len(latencies)
    return (
        f"| {kind} | {len(readers.heard)} | {len(answered)} | {len(latencies)} | "
        f"{percentile(latencies, 0.5):.0f} ms | {percentile(latencies, 0.95):.0f} ms | "
        f"{max(latencies) * 1000:.0f} ms | {missing} | {readers.closed} | {read_ms:.1f} ms |"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    import arbiter

    print(
        f"arbiter {arbiter.__version__}: one `arbiter serve` on its defaults, {args.streams} "
        f"streams of one event, {args.changes} changes; from each change's answer to each "
        "stream's receipt of the new version\n"
    )
    print(
        "| database | streams | changes | deliveries | p50 | p95 | longest | missing | "
        "streams closed | a read meanwhile |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/events.sqlite3"
        print(bench("SQLite file", url, args.streams, args.changes, args.seed), flush=True)
    found = binaries()
    if found is None:
        print("| PostgreSQL | not installed | | | | | | | | |")
        return
    postgres = Postgres(found)
    try:
        url = postgres.new_database()
        print(bench("PostgreSQL (socket)", url, args.streams, args.changes, args.seed))
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
