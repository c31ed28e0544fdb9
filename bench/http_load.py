"""Load on the HTTP service: requests per second and latencies at several numbers of clients.

Starts ``arbiter serve`` (one process, waitress threads) on a free loopback port, unless
``--url`` names a running service, then for each number of clients keeps that many
connections busy for ``--seconds``, each client posting the same real record again and again
to ``/api/v1/adjudicate`` (a Pletore game of 107 plies played on Abstract Play, sent as GRN)
and timing each answer. Prints requests/s, the 50th, 95th and 99th percentiles of latency,
and any answer that was not a 200 with the record's report. The clients run in this
process, apart from the server's. Run with ``make bench-http``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

import arbiter

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "samples" / "pletore" / "valid" / "08-abstractplay-11x11-pie-swapped.json"


@dataclass
class Load:
    """What the clients of one run saw."""

    clients: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    failures: int = 0

    def line(self) -> str:
        ordered = sorted(self.latencies)
        rate = len(ordered) / self.seconds if self.seconds else 0.0

        def percentile(share: float) -> float:
            return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

        return (f"| {self.clients} | {len(ordered):,} | {rate:,.0f} | {percentile(0.50):.1f} | "
                f"{percentile(0.95):.1f} | {percentile(0.99):.1f} | {self.failures} |")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    args = _arguments(argv)
    record = next(iter(arbiter.read_records(str(RECORD))))
    assert isinstance(record, arbiter.Record), record
    body = arbiter.write_grn(record).encode()
    server = None if args.url else _start(args.threads)
    url = args.url or server[1]  # type: ignore[index]
    try:
        _warm(url, body)
        print(f"arbiter {arbiter.__version__}, one `arbiter serve` process with "
              f"{args.threads} threads; {len(body):,}-byte GRN record of 107 plies; "
              f"{args.seconds:g} s per row")  # fmt: skip
        print("\n| clients | requests | requests/s | p50 ms | p95 ms | p99 ms | failures |")
        print("|---|---|---|---|---|---|---|")
        for clients in args.clients:
            print(run(url, body, clients, args.seconds).line(), flush=True)
    finally:
        if server is not None:
            server[0].terminate()
            server[0].wait(timeout=30)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", default="8,32")
    parser.add_argument("--threads", type=int, default=8, help="the server's threads")
    parser.add_argument("--url", help="a running service, e.g. http://127.0.0.1:8000")
    args = parser.parse_args(argv)
    args.clients = [int(count) for count in args.clients.split(",")]
    return args


def _start(threads: int) -> tuple[subprocess.Popen[str], str]:
    command = [str(Path(sys.executable).with_name("arbiter")), "serve", "--port", "0",
               "--threads", str(threads)]  # fmt: skip
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    found = line = None
    for line in server.stderr:  # the database's line first, then the address
        if found := re.search(r"http://[^/ ]+/", line):
            break
    _drain(server.stderr)
    if found is None:
        server.terminate()
        raise SystemExit(f"arbiter serve did not start: {line}")
    return server, found.group().rstrip("/")


def _drain(stream: IO[str]) -> None:
    """Keep reading what the server logs (waitress warns when its queue of requests grows):
    a full pipe would stop the server."""
    threading.Thread(target=stream.read, daemon=True).start()


def _warm(url: str, body: bytes) -> None:
    """One request first, so that the server has loaded what it needs."""
    connection = _connection(url)
    status, _ = _post(connection, body)
    if status != 200:
        raise SystemExit(f"the service answered {status}")


def run(url: str, body: bytes, clients: int, seconds: float) -> Load:
    load = Load(clients)
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client() -> None:
        connection = _connection(url)
        mine: list[float] = []
        failed = 0
        while time.perf_counter() < stop:
            start = time.perf_counter()
            try:
                status, answer = _post(connection, body)
                ok = status == 200 and json.loads(answer)["reports"][0]["valid"]
            except (OSError, http.client.HTTPException, ValueError, KeyError):
                ok = False
                connection = _connection(url)
            mine.append(time.perf_counter() - start)
            failed += not ok
        with lock:
            load.latencies.extend(mine)
            load.failures += failed

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    load.seconds = time.perf_counter() - began
    return load


def _connection(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)


def _post(connection: http.client.HTTPConnection, body: bytes) -> tuple[int, bytes]:
    connection.request("POST", "/api/v1/adjudicate", body=body,
                       headers={"Content-Type": "text/plain"})  # fmt: skip
    response = connection.getresponse()
    return response.status, response.read()


if __name__ == "__main__":
    main()
