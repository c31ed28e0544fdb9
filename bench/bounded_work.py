"""Bounded work under the lock (``make bench-bounded``; docs/performance.md; spec/pairings.md §8).

One ``arbiter serve`` (8 threads) on a SQLite file, then on a PostgreSQL database (Debian's
binaries, a Unix socket). Two events: a large one whose director adds 2,000 players in 4
requests of 500 and then pairs round 1 (1,000 boards), and a small one that takes an upload
of one record every 50 ms from 2 clients all the while. Prints the time of each addition
(whose growth should be linear in the players added, not in the players held), the
pairing's, and the latencies of the small event's uploads while the large event worked
(p50, p95, the longest) against those measured before it started, and the number of 503s
(expected: none). The clients are threads of this process, on the same machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # tools/ and bench/, when run from the benchmark's environment

from events_load import Server, games, request  # noqa: E402 - make bench-events' own, beside

from tools.postgres import Postgres, binaries  # noqa: E402

PLAYERS, PARTS = 2_000, 4


def create(port: int, name: str, pairing: str = "none") -> tuple[str, dict[str, str]]:
    fields: dict[str, object] = {"name": name, "game": "Pilo", "rounds": 9}
    if pairing != "none":
        fields["pairing"] = pairing
    status, body = request(port, "POST", "/api/v1/events", json.dumps(fields).encode(),
                           {"Content-Type": "application/json"})  # fmt: skip
    assert status == 201, body
    made = json.loads(body)
    return made["id"], {"Authorization": f"Bearer {made['token']}"}


class Uploads:
    """The small event's uploads, one record at a time, from 2 clients, until stopped."""

    def __init__(self, port: int, records: list[bytes]) -> None:
        self.port, self.records = port, records
        self.event, self.headers = create(port, "Small Open")
        self.latencies: list[tuple[float, float]] = []  # (when it started, how long)
        self.statuses: list[int] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.next = 0
        self.threads = [threading.Thread(target=self.client) for _ in range(2)]

    def client(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                record = self.records[self.next % len(self.records)]
                self.next += 1
            began = time.perf_counter()
            status, _ = request(self.port, "POST", f"/api/v1/events/{self.event}/records",
                                record, {**self.headers, "Content-Type": "text/plain"})  # fmt: skip
            with self.lock:
                self.latencies.append((began, time.perf_counter() - began))
                self.statuses.append(status)
            time.sleep(0.05)

    def __enter__(self) -> Uploads:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def between(self, start: float, end: float) -> list[float]:
        with self.lock:
            return [took for began, took in self.latencies if start <= began < end]


def shown(latencies: list[float]) -> str:
    if not latencies:
        return "no request"
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"{len(ordered)} uploads, p50 {statistics.median(ordered) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, longest {ordered[-1] * 1000:.1f} ms")  # fmt: skip


def run(database: str, records: list[bytes]) -> None:
    server = Server("--threads", "8", "--database", database)
    try:
        port = server.port
        with Uploads(port, records) as small:
            time.sleep(3)  # the small event's usual time, alone
            began = time.perf_counter()
            usual = small.between(0, began)
            event, headers = create(port, "Large Open", "dutch")
            rng = random.Random(2026)
            added = []
            for part in range(PARTS):
                size = PLAYERS // PARTS
                players = [{"name": f"Player {part * size + n:04d}",
                            "rating": rng.randint(1000, 2600)} for n in range(size)]  # fmt: skip
                start = time.perf_counter()
                status, body = request(port, "POST", f"/api/v1/events/{event}/players",
                                       json.dumps({"players": players}).encode(),
                                       {**headers, "Content-Type": "application/json"})  # fmt: skip
                added.append(time.perf_counter() - start)
                assert status == 201, body[:300]
            start = time.perf_counter()
            status, body = request(port, "POST", f"/api/v1/events/{event}/rounds", b"", headers)
            paired = time.perf_counter() - start
            assert status == 201, body[:300]
            boards = len(json.loads(body)["boards"])
            ended = time.perf_counter()
            time.sleep(1)
        during = small.between(began, ended)
        print(f"  adding {PLAYERS // PARTS} players to an event of 0, 500, 1,000, 1,500: "
              + ", ".join(f"{took:.2f} s" for took in added))  # fmt: skip
        print(f"  pairing round 1 ({boards} boards): {paired:.1f} s")
        print(f"  the small event's uploads, alone: {shown(usual)}")
        print(f"  the small event's uploads, meanwhile: {shown(during)}")
        errors = [status for status in small.statuses if status >= 500]
        print(f"  answers 5xx: {len(errors)} of {len(small.statuses)}")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="Bounded work under the lock")
    parser.add_argument("--no-postgresql", action="store_true")
    options = parser.parse_args()
    records = games()[:200]
    with tempfile.TemporaryDirectory() as folder:
        print("SQLite:")
        run(f"sqlite:///{Path(folder) / 'events.sqlite3'}", records)
    found = binaries()
    if found is None or options.no_postgresql:
        print("PostgreSQL: not run")
        return
    postgres = Postgres(found)
    try:
        print("PostgreSQL:")
        run(postgres.new_database(), records)
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
