"""The service under hostile load: good requests timed while a share of all requests are the
worst inputs known, and the server's memory watched (``make hostile-load``;
``docs/robustness.md``).

A real ``arbiter serve`` (4 threads, 16 MiB bodies) is started; ``--clients`` threads send
requests back to back for ``--seconds``. Each request is hostile with probability
``--hostile`` (a junk-array JSON record just under the body limit, 4,301-digit integers, a
Setup with huge run counts), else good (a finished 44-ply Pletore game, adjudicated). The
latency of every good request is recorded from the moment it is sent to the last byte of
its answer; the server's resident memory is read from /proc every 100 ms. Prints the
figures as a Markdown table row.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 16 * 1024 * 1024
GOOD = (ROOT / "samples" / "pletore" / "valid" / "01-ladder-9x9-button.grn").read_bytes()


def hostile_bodies(dense: bool) -> list[tuple[str, bytes, str]]:
    """The worst inputs known, each as (name, body, content type)."""
    head = b'{"game": "Pilo", "size": 3, "moves": ['
    junk = head + b"1," * ((LIMIT - len(head) - 1024) // 2) + b"1]}"
    digits = "9" * 4301
    bodies = [
        ("junk-array JSON at the limit", junk, "application/json"),
        (
            "4,301-digit integers",
            (
                f'[Game "Pletore"]\n[Size "5"]\n[Komi "{digits}"]\n\n1. c3 *\n\n'
                f'[Game "Pilo"]\n[Size "{digits}"]\n\n{digits}. c3 *\n'
            ).encode(),
            "text/plain",
        ),
        (
            "4,301-digit JSON number",
            ('{"game": "Pletore", "size": 5, "komi": ' + digits + "}").encode(),
            "application/json",
        ),
        (
            "huge Setups",
            b'[Game "Pilo"]\n[Size "3"]\n[Setup "100000000/3/3"]\n\n*\n'
            + b'[Game "Pilo"]\n[Size "19"]\n[Setup "'
            + b"/".join([b"999999999"] * 19)
            + b'"]\n\n*\n',
            "text/plain",
        ),
        (
            "huge JSON Setup",
            b'{"game": "Pilo", "size": 3, "setup": "99999999999/3/3"}',
            "application/json",
        ),
    ]
    if dense:
        brackets = b'[{"game": "Pilo", "size": 3}, {"x": [' + b"[]," * 300_000 + b"[]]}]"
        bodies.append(("dense brackets", brackets, "application/json"))
    return bodies


class Load:
    """Clients sending good and hostile requests, and what they saw."""

    def __init__(self, port: int, hostile: float, bodies: list[tuple[str, bytes, str]]) -> None:
        self.port = port
        self.hostile = hostile
        self.bodies = bodies
        self.good: list[float] = []
        self.bad_answers = 0
        self.hostile_times: dict[str, list[float]] = {name: [] for name, _, _ in bodies}
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def client(self, seed: int) -> None:
        rng = random.Random(seed)
        while not self.stop.is_set():
            if rng.random() < self.hostile:
                name, body, kind = rng.choice(self.bodies)
                took, status, _ = self.send(body, kind)
                with self.lock:
                    self.hostile_times[name].append(took)
                continue
            took, status, answer = self.send(GOOD, "text/plain")
            ok = status == 200 and json.loads(answer)["valid"] is True
            with self.lock:
                self.good.append(took)
                self.bad_answers += not ok

    def send(self, body: bytes, kind: str) -> tuple[float, int, bytes]:
        began = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(
                "POST", "/api/v1/adjudicate", body=body, headers={"Content-Type": kind}
            )
            response = connection.getresponse()
            answer = response.read()
            return time.perf_counter() - began, response.status, answer
        except OSError:
            return time.perf_counter() - began, 0, b""
        finally:
            connection.close()


def watch_memory(pid: int, stop: threading.Event, peak: list[float]) -> None:
    """Keep ``peak[0]`` at the largest resident memory of ``pid`` seen, in MB."""
    while not stop.is_set():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        if found:
            peak[0] = max(peak[0], int(found.group(1)) / 1024)
        time.sleep(0.1)


def start_server() -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "arbiter"), "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    found = None
    for line in process.stderr:  # the database's line first, then the address
        if found := re.search(r"serving http://[^ ]*:(\d+)/", line):
            break
    # Keep reading what the server logs (waitress warns when its queue grows): a full pipe
    # would stop the server.
    threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()  # type: ignore[union-attr]
    if not found:
        raise RuntimeError("the server did not start")
    return process, int(found.group(1))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--hostile", type=float, default=0.10)
    parser.add_argument("--dense", action="store_true", help="add dense-bracket JSON bodies")
    options = parser.parse_args()
    process, port = start_server()
    load = Load(port, options.hostile, hostile_bodies(options.dense))
    load.send(GOOD, "text/plain")  # the first request loads the grammar: not timed
    idle = load.send(GOOD, "text/plain")[0]
    peak = [0.0]
    watcher = threading.Thread(target=watch_memory, args=(process.pid, load.stop, peak))
    clients = [threading.Thread(target=load.client, args=(n,)) for n in range(options.clients)]
    for thread in [watcher, *clients]:
        thread.start()
    time.sleep(options.seconds)
    load.stop.set()
    for thread in [watcher, *clients]:
        thread.join()
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=60)
    good = load.good
    hostile = sum(len(times) for times in load.hostile_times.values())
    print(
        f"| {options.clients} | {options.hostile:.0%} | {len(good)} | {hostile} | "
        f"{statistics.median(good) * 1000:.1f} | {percentile(good, 0.99) * 1000:.1f} | "
        f"{max(good) * 1000:.0f} | {load.bad_answers} | {peak[0]:.0f} |"
    )
    print(f"one good request alone: {idle * 1000:.1f} ms; server exit status {code}")
    for name, times in load.hostile_times.items():
        if times:
            print(f"  {name}: {len(times)} sent, median {statistics.median(times) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
