"""The fuzz harness against a real ``arbiter serve`` (``make fuzz``): hostile HTTP on the
wire, then schemathesis with every phase (examples, coverage, fuzzing, stateful) in both
modes, then SIGTERM, which must let the server exit with status 0. Prints what it found,
the server's peak memory, and exits 1 on any finding. Usage::

    python -m fuzz.live --requests 2000 --examples 200
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from fuzz import build_under_test
from fuzz.surfaces import hostile_http

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def start_server(threads: int = 4) -> tuple[subprocess.Popen[str], int]:
    """``arbiter serve`` on a free local port; returns the process and the port."""
    process = subprocess.Popen(
        [str(BIN / "arbiter"), "serve", "--port", "0", "--threads", str(threads)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    found = line = None
    for line in process.stderr:  # the database's line first, then the address
        if found := re.search(r"serving http://127\.0\.0\.1:(\d+)/", line):
            break
    if not found:
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    port = int(found.group(1))
    # Keep reading what the server writes (its access log has a line per request): a full
    # pipe would stop it.
    threading.Thread(target=process.stderr.read, daemon=True).start()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for _ in range(100):
        try:
            with opener.open(f"http://127.0.0.1:{port}/health", timeout=2):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server does not answer /health")


def peak_memory_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(found.group(1)) / 1024 if found else float("nan")


def schemathesis_run(port: int, examples: int, seed: int) -> int:
    """schemathesis against the server, every phase, both modes; its exit status."""
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(ROOT / "fuzz" / "schemathesis.toml"),
        "run",
        f"http://127.0.0.1:{port}/api/v1/openapi.yaml",
        "--checks",
        "all",
        "--exclude-checks",
        "ignored_auth,use_after_free,ensure_resource_availability,object_level_authorization",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--mode",
        "all",
        "--max-examples",
        str(examples),
        "--max-response-time",
        "1",
        "--seed",
        str(seed),
        # One worker: CPython 3.11's ast.parse, which hypothesis calls to describe its
        # strategies, is not safe in several threads at once ("AST constructor recursion
        # depth mismatch").
        "--workers",
        "1",
        "--suppress-health-check",
        "all",
    ]
    event, token = kept_event(port)
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "ARBITER_EVENT": event,
                   "ARBITER_TOKEN": token}  # fmt: skip
    return subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode


def kept_event(port: int) -> tuple[str, str]:
    """An event with the tournament's records, for schemathesis to test the event routes on
    (fuzz/schemathesis.toml names it and its director's token): its id and token."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    base = f"http://127.0.0.1:{port}/api/v1/events"

    def post(url: str, body: bytes, kind: str, token: str | None = None) -> dict[str, str]:
        headers = {"Content-Type": kind, **({"Authorization": f"Bearer {token}"} if token else {})}
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        with opener.open(request, timeout=30) as answer:
            found: dict[str, str] = json.loads(answer.read())
            return found

    made = post(base, b'{"name": "Fuzzed Open", "game": "Pilo", "rounds": 5}', "application/json")
    for path in sorted((ROOT / "samples" / "tournament").glob("*.grn")):
        post(f"{base}/{made['id']}/records", path.read_bytes(), "text/plain", made["token"])
    post(f"{base}/{made['id']}/tokens", b'{"label": "a player"}', "application/json",
         made["token"])  # fmt: skip
    return made["id"], made["token"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="hostile HTTP requests")
    parser.add_argument("--examples", type=int, default=200, help="schemathesis examples")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    process, port = start_server()
    began = time.monotonic()
    try:
        problems = hostile_http(port, options.requests, options.seed)
        wire = time.monotonic() - began
        status = schemathesis_run(port, options.examples, options.seed)
        memory = peak_memory_mb(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    print(
        f"{build_under_test()}: {options.requests} hostile requests on the wire in {wire:.0f} s: "
        f"{len(problems)} problem(s); schemathesis exit status {status}; the server's peak "
        f"memory {memory:.0f} MB; exit status after SIGTERM {code}"
    )
    for problem in problems[:20]:
        print("  " + problem)
    return 0 if not problems and status == 0 and code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
