"""The events service at load (``make bench-events``; ``docs/performance.md``).

An event of 200 players and 9 rounds: 900 random legal Pilo games (6×6, each played to its
end by the engine, seeded), each uploaded as its own request by one of 8 clients at once,
against one ``arbiter serve`` (8 threads) on a SQLite file and then on a PostgreSQL
database (Debian's binaries, a Unix socket). Then 8 clients read the standings, as pages
polling them would. Prints the latencies of both (p50, p95), the requests per second, and
checks that every upload is kept once and the trail verifies. Last, the stateless
``/api/v1/adjudicate`` with ``--workers 1`` and ``--workers 2``, requests per second at 8
clients. The clients are threads of this process, on the same machine as the server.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # tools/postgres.py, when run from the benchmark's environment

from tools.postgres import Postgres, binaries  # noqa: E402

PLAYERS, ROUNDS, CLIENTS = 200, 9, 8


def games(seed: int = 2026) -> list[bytes]:
    """900 records: round by round, the players paired at random, each game played out."""
    import arbiter

    rng = random.Random(seed)
    rules = arbiter.get_rules("Pilo")
    names = [f"player-{n:03d}" for n in range(1, PLAYERS + 1)]
    records = []
    for round_number in range(1, ROUNDS + 1):
        rng.shuffle(names)
        for board in range(PLAYERS // 2):
            state, moves = rules.initial_state(6), []
            while (move := rules.random_move(state, rng.choice)) is not None and len(moves) < 200:
                state = rules.play(state, move)
                moves.append(move)
            outcome = rules.outcome(state)
            record = arbiter.Record(
                game="Pilo",
                size=6,
                turns=tuple(arbiter.Turn(m) for m in moves),
                players=(("Blue", names[2 * board]), ("Orange", names[2 * board + 1])),
                tags=(arbiter.Tag("Event", "Bench Open"), arbiter.Tag("Round", str(round_number))),
                result=outcome.result(rules.colours) if outcome else "*",
            )
            records.append(arbiter.write_grn(record).encode())
    return records


class Server:
    def __init__(self, *options: str) -> None:
        command = [str(Path(sys.executable).with_name("arbiter")), "serve", "--port", "0", *options]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        found = None
        for line in self.process.stderr:
            if found := re.search(r"serving http://[^:]+:(\d+)/", line):
                break
        if found is None:
            raise SystemExit("arbiter serve did not start")
        self.port = int(found.group(1))
        _drain(self.process.stderr)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


def _drain(stream: IO[str]) -> None:
    threading.Thread(target=stream.read, daemon=True).start()


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def timed(jobs: list[Callable[[], int]], clients: int) -> tuple[list[float], list[int], float]:
    """Run ``jobs`` from ``clients`` threads; each job's latency and status, and the wall time."""
    latencies: list[float] = []
    statuses: list[int] = []
    lock = threading.Lock()
    queue = list(reversed(jobs))

    def client() -> None:
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop()
            began = time.perf_counter()
            status = job()
            took = time.perf_counter() - began
            with lock:
                latencies.append(took)
                statuses.append(status)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, statuses, time.perf_counter() - began


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def bench_database(kind: str, url: str, records: list[bytes]) -> str:
    server = Server("--database", url, "--threads", "8")
    try:
        status, body = request(
            server.port,
            "POST",
            "/api/v1/events",
            json.dumps({"name": "Bench Open", "game": "Pilo", "rounds": ROUNDS}).encode(),
            {"Content-Type": "application/json"},
        )
        made = json.loads(body)
        event, token = made["id"], made["token"]
        headers = {"Content-Type": "text/plain", "Authorization": f"Bearer {token}"}
        path = f"/api/v1/events/{event}/records"
        uploads = [
            (lambda data=data: request(server.port, "POST", path, data, headers)[0])
            for data in records
        ]
        up, up_status, up_wall = timed(uploads, CLIENTS)
        reads = [
            (lambda: request(server.port, "GET", f"/api/v1/events/{event}/standings")[0])
            for _ in range(800)
        ]
        read, read_status, read_wall = timed(reads, CLIENTS)
        _, kept = request(server.port, "GET", f"/api/v1/events/{event}")
        _, verdict = request(server.port, "GET", f"/api/v1/events/{event}/verify")
        counts = json.loads(kept)["records"]
        checked = json.loads(verdict)["valid"] and counts["total"] == len(records)
        bad = sum(s != 201 for s in up_status) + sum(s != 200 for s in read_status)
        return (
            f"| {kind} | {len(records)} uploads: {len(records) / up_wall:,.0f}/s, p50 "
            f"{percentile(up, 0.5):.1f} ms, p95 {percentile(up, 0.95):.1f} ms | {len(reads)} "
            f"standings: {len(reads) / read_wall:,.0f}/s, p50 {percentile(read, 0.5):.1f} ms, "
            f"p95 {percentile(read, 0.95):.1f} ms | {counts['total']} kept, "
            f"{'verifies' if checked else 'DOES NOT VERIFY'}, {bad} failed |"
        )
    finally:
        server.stop()


def bench_workers(record: bytes, seconds: float) -> tuple[float, float]:
    """Requests per second on /api/v1/adjudicate, 8 clients, with 1 and then 2 workers."""
    rates = []
    for workers in (1, 2):
        server = Server("--workers", str(workers), "--threads", "4")
        try:
            rates.append(hammer(server.port, record, seconds))
        finally:
            server.stop()
    return rates[0], rates[1]


def hammer(port: int, record: bytes, seconds: float) -> float:
    """Requests per second that CLIENTS keep-alive clients get on /api/v1/adjudicate."""
    stop = time.perf_counter() + seconds
    done = [0] * CLIENTS

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while time.perf_counter() < stop:
            connection.request(
                "POST", "/api/v1/adjudicate", body=record, headers={"Content-Type": "text/plain"}
            )
            connection.getresponse().read()
            done[number] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.perf_counter() - began)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each workers run")
    args = parser.parse_args(argv)
    import arbiter

    records = games()
    print(
        f"arbiter {arbiter.__version__}: {len(records)} records ({PLAYERS} players, {ROUNDS} "
        f"rounds), {CLIENTS} clients, one `arbiter serve` of 8 threads\n"
    )
    print("| database | uploads | standings reads | check |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        print(
            bench_database("SQLite file", f"sqlite:///{folder}/events.sqlite3", records), flush=True
        )
    found = binaries()
    if found is None:
        print("| PostgreSQL | not installed | | |")
    else:
        postgres = Postgres(found)
        try:
            print(
                bench_database("PostgreSQL (socket)", postgres.new_database(), records), flush=True
            )
        finally:
            postgres.stop()
    one, two = bench_workers(records[0], args.seconds)
    print(
        f"\n/api/v1/adjudicate, {CLIENTS} clients, {args.seconds:g} s each: --workers 1 "
        f"{one:,.0f} requests/s, --workers 2 {two:,.0f} requests/s ({two / one:.2f}×)"
    )


if __name__ == "__main__":
    main()
