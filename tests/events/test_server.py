"""Events on a real ``arbiter serve`` with a real database (SQLite file, PostgreSQL): clients
uploading at once, the server killed with ``kill -9`` while uploads stream, two servers on
one database, ``--workers``, and what the server must never show (spec/events.md §8-9)."""

from __future__ import annotations

import hashlib
import http.client
import json
import queue
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_serve import LOCAL, copy_lines, serve_command, wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]
HANG = 60.0
"""Seconds after which a wait is taken as hung, on a machine however busy."""
GAME = (ROOT / "samples" / "pilo" / "valid" / "02-blitz-6x6.grn").read_text(encoding="utf-8")


class Server:
    """A real ``arbiter serve`` on a free port of 127.0.0.1, with ``--database``."""

    def __init__(self, database: str, *options: str) -> None:
        command = [*serve_command(), "--port", "0", "--database", database, *options]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(
            target=copy_lines, args=(self.process.stderr, self.lines), daemon=True
        )
        self.reader.start()
        self.url = wait_until_healthy(self.process, self.lines)

    def stderr(self) -> str:
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                return "".join(self.seen)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(timeout=10)
        self.reader.join(timeout=10)
        if self.process.stderr is not None:
            self.process.stderr.close()
        return code


@pytest.fixture
def server(database: str) -> Iterator[Server]:
    running = Server(database, "--threads", "8")
    try:
        yield running
    finally:
        running.stop()


def call(
    url: str,
    method: str = "GET",
    data: Any = None,
    token: str | None = None,
    kind: str = "application/json",
) -> tuple[int, Any]:
    body = json.dumps(data).encode() if isinstance(data, dict) else data
    headers = {"Content-Type": kind}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with LOCAL.open(request, timeout=30) as answer:
            raw = answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        with error:
            raw, status = error.read(), error.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


def new_event(url: str) -> tuple[str, str]:
    status, made = call(f"{url}/api/v1/events", "POST", {"name": "Rapid", "game": "Pilo"})
    assert status == 201, made
    return made["id"], made["token"]


def game(number: int) -> bytes:
    """A valid record, different for each number (its Round and players)."""
    text = GAME.replace('[Round "5"]', f'[Round "{number}"]')
    text = text.replace("player-21", f"player-{number:04d}a").replace(
        "player-04", f"player-{number:04d}b"
    )
    return text.encode()


def upload(url: str, event: str, token: str, data: bytes) -> tuple[int, Any]:
    return call(f"{url}/api/v1/events/{event}/records", "POST", data, token, "text/plain")


def test_eight_clients_uploading_at_once_lose_nothing_and_count_nothing_twice(
    server: Server,
) -> None:
    event, token = new_event(server.url)
    sent = [game(n) for n in range(1, 41)]

    def client(number: int) -> list[int]:
        mine = sent[number::8]
        statuses = [upload(server.url, event, token, data)[0] for data in mine]
        statuses.append(upload(server.url, event, token, sent[0])[0])  # the same file by all
        return statuses

    with ThreadPoolExecutor(8) as pool:
        statuses = [s for found in pool.map(client, range(8)) for s in found]
    assert sorted(statuses).count(201) == 40 and statuses.count(200) == 8
    _, uploads = call(f"{server.url}/api/v1/events/{event}/uploads")
    assert sorted(u["sha256"] for u in uploads["uploads"]) == sorted(
        hashlib.sha256(data).hexdigest() for data in sent
    )
    _, records = call(f"{server.url}/api/v1/events/{event}/records")
    assert sorted(r["round"] for r in records["records"]) == list(range(1, 41))
    _, log = call(f"{server.url}/api/v1/events/{event}/log")
    assert [e["number"] for e in log["log"]] == list(range(1, 42))
    _, verdict = call(f"{server.url}/api/v1/events/{event}/verify")
    assert verdict["valid"] is True


def test_every_answered_upload_survives_kill_9_of_the_server(database: str) -> None:
    first = Server(database, "--threads", "4")
    event, token = new_event(first.url)
    answered: list[str] = []
    stop = threading.Event()

    def client(number: int) -> None:
        count = 0
        while not stop.is_set():
            count += 1
            data = game(number * 1000 + count)
            try:
                status, _ = upload(first.url, event, token, data)
            except (OSError, http.client.HTTPException):  # killed under it: not answered
                return
            if status == 201:
                answered.append(hashlib.sha256(data).hexdigest())

    threads = [threading.Thread(target=client, args=(n,)) for n in range(1, 5)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + HANG
    while len(answered) <= 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    first.stop(signal.SIGKILL)  # while the uploads stream
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answered) > 10
    second = Server(database)
    try:
        _, uploads = call(f"{second.url}/api/v1/events/{event}/uploads")
        kept = {u["sha256"] for u in uploads["uploads"]}
        assert set(answered) <= kept
        _, verdict = call(f"{second.url}/api/v1/events/{event}/verify")
        assert verdict["valid"] is True, verdict
        status, _ = upload(second.url, event, token, game(99_999))  # and it goes on
        assert status == 201
    finally:
        second.stop()


def test_two_servers_on_one_database_keep_one_event(database: str) -> None:
    one, two = Server(database), Server(database)
    try:
        event, token = new_event(one.url)

        def client(number: int) -> int:
            url = (one, two)[number % 2].url
            return upload(url, event, token, game(number))[0]

        with ThreadPoolExecutor(6) as pool:
            assert set(pool.map(client, range(1, 31))) == {201}
        for server in (one, two):
            _, records = call(f"{server.url}/api/v1/events/{event}/records")
            assert sorted(r["round"] for r in records["records"]) == list(range(1, 31))
        _, first = call(f"{one.url}/api/v1/events/{event}/standings")
        _, second = call(f"{two.url}/api/v1/events/{event}/standings")
        assert first == second and len(first["standings"]) == 60  # two new players a game
    finally:
        assert one.stop() == 0 and two.stop() == 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_workers_share_the_port_and_the_database(database: str) -> None:
    server = Server(database, "--workers", "2", "--threads", "2")
    try:
        deadline = time.monotonic() + HANG  # one worker answered; the other may be starting
        while len(children(server.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(children(server.process.pid)) == 2
        event, token = new_event(server.url)
        with ThreadPoolExecutor(4) as pool:
            statuses = list(
                pool.map(lambda n: upload(server.url, event, token, game(n))[0], range(1, 13))
            )
        assert statuses == [201] * 12
        _, verdict = call(f"{server.url}/api/v1/events/{event}/verify")
        assert verdict["valid"] is True and verdict["entries"] == 13
    finally:
        assert server.stop() == 0


def test_tokens_are_never_shown_by_the_server_nor_kept_in_the_database(
    database: str, tmp_path: Path
) -> None:
    server = Server(database)
    try:
        event, token = new_event(server.url)
        _, player = call(
            f"{server.url}/api/v1/events/{event}/tokens", "POST", {"label": "p"}, token
        )
        upload(server.url, event, token, game(1))
        upload(server.url, event, player["token"], game(2))
        call(
            f"{server.url}/api/v1/events/{event}/records/1/exclude",
            "POST",
            {"reason": "test"},
            "arb_wrong",
        )
    finally:
        server.stop()
    said = server.stderr()
    for secret in (token, player["token"]):
        assert secret not in said and secret[4:20] not in said
    if database.startswith("sqlite"):
        path = Path(database.removeprefix("sqlite:///"))
        stored = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
        assert token.encode() not in stored and player["token"].encode() not in stored
        assert hashlib.sha256(token.encode()).hexdigest().encode() in stored


def test_a_creation_key_guards_the_creation_of_events(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}", "--creation-key", "k3y-of-the-club")
    try:
        url = f"{server.url}/api/v1/events"
        fields = {"name": "Club", "game": "Implo"}
        assert call(url, "POST", fields)[0] == 401
        assert call(url, "POST", fields, "wrong")[0] == 403
        status, made = call(url, "POST", fields, "k3y-of-the-club")
        assert status == 201 and made["game"] == "Implo"
    finally:
        server.stop()
    assert "k3y-of-the-club" not in server.stderr()


def test_the_access_log_has_a_line_per_request_and_never_a_record_or_a_token(
    tmp_path: Path,
) -> None:
    server = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}")
    try:
        event, token = new_event(server.url)
        record = game(7)
        for number in range(60):  # some of them refused
            if number % 3 == 0:
                upload(server.url, event, token, record)
            elif number % 3 == 1:
                call(f"{server.url}/api/v1/events/{event}/standings?format=pdf")  # 400
            else:
                call(f"{server.url}/api/v1/adjudicate", "POST", b"", kind="text/plain")  # 400
    finally:
        server.stop()
    lines = [line for line in server.stderr().splitlines() if '"' in line]
    assert len(lines) >= 61  # the creation and the 60 requests
    pattern = re.compile(
        r"^127\.0\.0\.1 - - \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "
        r'"(GET|POST) /\S+ HTTP/1\.1" (200|201|400) \d+ \d+\.\d{6}$'
    )
    assert all(pattern.match(line) for line in lines), lines[:3]
    assert sum(" 400 " in line for line in lines) == 40
    said = server.stderr()
    assert token not in said and token[4:20] not in said
    assert "player-0007a" not in said and "[Game" not in said


def test_the_access_log_can_be_json_lines_or_off(tmp_path: Path) -> None:
    for style in ("json", "off"):
        server = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}", "--access-log", style)
        try:
            call(f"{server.url}/api/v1/games")
            call(f"{server.url}/api/v1/events/none?a=b")
        finally:
            server.stop()
        lines = [line for line in server.stderr().splitlines() if line.startswith("{")]
        if style == "off":
            assert lines == []
            continue
        entries = [json.loads(line) for line in lines]
        last = entries[-1]
        assert (last["method"], last["path"], last["query"], last["status"]) == (
            "GET",
            "/api/v1/events/none",
            "a=b",
            404,
        )
        assert last["bytes"] > 0 and last["seconds"] >= 0 and last["time"].endswith("Z")
