"""``arbiter serve``: its options, and a real waitress server on a local port."""

from __future__ import annotations

import contextlib
import hashlib
import json
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import CliRunner

from arbiter.service.cli.main import main
from arbiter.service.events.migrate import head
from arbiter.service.web import DEFAULT_MAX_BODY
from tests.service.records import FINISHED_GRN

START_TIMEOUT = 60.0
REQUEST_TIMEOUT = 60.0
LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Talks to the local server directly, whatever proxy the environment names."""


# --- options, with the server replaced by a stand-in --------------------------------------


class FakeSocket:
    """Stands for the listening socket ``serve`` binds: remembers where it was asked to."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    def getsockname(self) -> tuple[str, int]:
        return self.host, self.port or 54321

    def close(self) -> None:
        return None


class FakeServer:
    """Records how ``serve`` built its server, and returns from ``run`` at once."""

    calls: list[dict[str, Any]] = []
    delivering: list[Any] = []
    """The apps whose deliverer of webhooks a worker started."""

    @staticmethod
    def deliverer(app: Any) -> None:
        FakeServer.delivering.append(app)

    def __init__(self, app: Any, sockets: list[FakeSocket], **options: Any) -> None:
        from arbiter.service.web.access_log import Logged

        (sock,) = sockets
        logged = isinstance(app, Logged)  # the access log stands in front of the application
        app = app.app if logged else app
        FakeServer.calls.append(
            {"app": app, "logged": logged, "host": sock.host, "port": sock.port, **options}
        )

    def run(self) -> None:
        return None

    def close(self) -> None:
        return None


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    import waitress  # type: ignore[import-untyped]

    import arbiter.service.web.front
    import arbiter.service.web.webhooks_api
    import arbiter.service.web.workers

    FakeServer.calls = []
    FakeServer.delivering = []
    monkeypatch.setattr(waitress, "create_server", FakeServer)
    monkeypatch.setattr(arbiter.service.web.workers, "listening_socket", FakeSocket)
    monkeypatch.setattr(
        arbiter.service.web.front, "serve_until_stopped", lambda server: server.run()
    )
    # each worker's deliverer of webhooks would poll the database for the rest of the session
    monkeypatch.setattr(arbiter.service.web.webhooks_api, "start_for", FakeServer.deliverer)
    for name in (
        "ARBITER_HOST",
        "ARBITER_PORT",
        "ARBITER_THREADS",
        "ARBITER_MAX_BODY",
        "ARBITER_CONNECTION_LIMIT",
        "ARBITER_CHANNEL_TIMEOUT",
        "ARBITER_WORKERS",
        "ARBITER_CREATION_KEY",
        "ARBITER_ALLOW_PRIVATE_WEBHOOKS",
    ):
        monkeypatch.delenv(name, raising=False)
    yield FakeServer.calls


def test_serve_defaults(runner: CliRunner, fake_server: list[dict[str, Any]]) -> None:
    result = runner.invoke(main, ["serve"])
    assert result.exit_code == 0, result.output
    (call,) = fake_server
    assert (call["host"], call["port"], call["threads"]) == ("127.0.0.1", 8000, 4)
    assert call["app"].config["MAX_CONTENT_LENGTH"] == DEFAULT_MAX_BODY
    assert "http://127.0.0.1:8000/" in result.stderr
    assert call["logged"] is True  # the access log is on by default


def test_serve_options(runner: CliRunner, fake_server: list[dict[str, Any]]) -> None:
    result = runner.invoke(
        main, ["serve", "--host", "::1", "--port", "0", "--threads", "8", "--max-body", "2M"]
    )
    assert result.exit_code == 0, result.output
    (call,) = fake_server
    assert (call["host"], call["port"], call["threads"]) == ("::1", 0, 8)
    assert call["app"].config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    assert "http://[::1]:54321/" in result.stderr


def test_serve_reads_the_environment(runner: CliRunner, fake_server: list[dict[str, Any]]) -> None:
    env = {
        "ARBITER_HOST": "127.0.0.2",
        "ARBITER_PORT": "8123",
        "ARBITER_THREADS": "2",
        "ARBITER_MAX_BODY": "4096",
    }
    result = runner.invoke(main, ["serve"], env=env)
    assert result.exit_code == 0, result.output
    (call,) = fake_server
    assert (call["host"], call["port"], call["threads"]) == ("127.0.0.2", 8123, 2)
    assert call["app"].config["MAX_CONTENT_LENGTH"] == 4096
    # An option given on the command line wins over the environment.
    runner.invoke(main, ["serve", "--threads", "3"], env=env)
    assert fake_server[-1]["threads"] == 3


@pytest.mark.parametrize(
    ("text", "size"),
    [("1024", 1024), ("512K", 512 * 1024), ("16m", 16 * 1024**2), ("1GiB", 1024**3)],
)
def test_max_body_sizes(
    runner: CliRunner, fake_server: list[dict[str, Any]], text: str, size: int
) -> None:
    assert runner.invoke(main, ["serve", "--max-body", text]).exit_code == 0
    assert fake_server[-1]["app"].config["MAX_CONTENT_LENGTH"] == size


@pytest.mark.parametrize(
    "args",
    [
        ["--max-body", "0"],
        ["--max-body", "lots"],
        ["--max-body", "-5"],
        ["--port", "70000"],
        ["--threads", "0"],
    ],
)
def test_serve_usage_errors(
    runner: CliRunner, fake_server: list[dict[str, Any]], args: list[str]
) -> None:
    result = runner.invoke(main, ["serve", *args])
    assert result.exit_code == 2
    assert not fake_server


# --- the real server ----------------------------------------------------------------------


def serve_command() -> list[str]:
    """The installed console script if there is one, else the same entry point run by the
    current interpreter."""
    script = Path(sys.executable).with_name("arbiter")
    if script.exists():
        return [str(script), "serve"]
    return [sys.executable, "-c", "from arbiter.service.cli.main import main; main()", "serve"]


@contextlib.contextmanager
def running_server(*options: str) -> Iterator[str]:
    """A real ``arbiter serve`` on a free port of 127.0.0.1 with ``options``; yields its base
    URL once it answers, and always stops the process afterwards."""
    command = [*serve_command(), "--host", "127.0.0.1", "--port", "0", *options]
    with subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=copy_lines, args=(process.stderr, lines), daemon=True)
        reader.start()
        try:
            yield wait_until_healthy(process, lines)
        finally:
            stop(process)
            reader.join(timeout=5)


@pytest.fixture
def server() -> Iterator[str]:
    """A real server with two threads and a 4 KiB body limit; its base URL."""
    with running_server("--threads", "2", "--max-body", "4K") as url:
        yield url


def copy_lines(stream: IO[str] | None, lines: queue.Queue[str]) -> None:
    """Put each line of ``stream`` on ``lines`` until it ends (so the pipe never fills)."""
    assert stream is not None
    for line in stream:
        lines.put(line)


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def wait_until_healthy(process: subprocess.Popen[str], lines: queue.Queue[str]) -> str:
    """The base URL the server announced, once ``/health`` answers; fails after a bounded
    wait, or as soon as the process exits."""
    deadline = time.monotonic() + START_TIMEOUT
    url = None
    while url is None:
        if time.monotonic() > deadline:
            pytest.fail(f"the server announced no address within {START_TIMEOUT} s")
        try:
            found = re.search(r"serving (http://127\.0\.0\.1:\d+)/", lines.get(timeout=0.2))
            url = found.group(1) if found else None
        except queue.Empty:
            if process.poll() is not None:
                pytest.fail(f"the server exited with status {process.returncode}")
    while time.monotonic() < deadline:
        try:
            with LOCAL.open(f"{url}/health", timeout=REQUEST_TIMEOUT) as response:
                if json.load(response)["status"] == "ok":
                    return url
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"the server exited with status {process.returncode}")
            time.sleep(0.1)
    pytest.fail(f"/health did not answer within {START_TIMEOUT} s")


def post(url: str, data: bytes, content_type: str) -> tuple[int, str, Any]:
    request = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": content_type}
    )
    try:
        with LOCAL.open(request, timeout=REQUEST_TIMEOUT) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers.get_content_type(), error.read()


def test_real_server_round_trip(server: str) -> None:
    status, kind, body = post(f"{server}/api/v1/adjudicate", FINISHED_GRN.encode(), "text/plain")
    assert (status, kind) == (200, "application/json")
    (report,) = json.loads(body)["reports"]
    assert (report["valid"], report["result"]) == (True, "White+7")

    status, kind, body = post(
        f"{server}/api/v1/convert?to=json", FINISHED_GRN.encode(), "application/x-grn"
    )
    assert (status, kind) == (200, "application/json")
    status, kind, back = post(f"{server}/api/v1/convert?to=grn", body, "application/json")
    assert (status, kind) == (200, "text/plain")
    assert back.decode().startswith('[Game "Pletore"]')


def test_real_server_errors_are_json(server: str) -> None:
    status, kind, body = post(f"{server}/api/v1/adjudicate", b" " * 5000, "text/plain")
    assert (status, kind) == (413, "application/json")
    assert json.loads(body)["error"]["limit"] == 4096
    with pytest.raises(urllib.error.HTTPError) as caught:
        LOCAL.open(f"{server}/no/such/page", timeout=REQUEST_TIMEOUT)
    with caught.value as error:
        assert error.code == 404
        assert json.load(error)["error"]["code"] == "not-found"


def test_real_server_answers_requests_in_parallel(server: str) -> None:
    """Several clients at once (the server has two worker threads) get the same reports."""
    body = (FINISHED_GRN + "\n") * 3
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(
            pool.map(
                lambda _: post(f"{server}/api/v1/adjudicate", body.encode(), "text/plain"),
                range(12),
            )
        )
    assert {(status, kind) for status, kind, _ in answers} == {(200, "application/json")}
    reports = [json.loads(data)["reports"] for _, _, data in answers]
    assert all(report == reports[0] for report in reports)
    assert [report["valid"] for report in reports[0]] == [True, True, True]


def test_serve_keeps_events_where_told_and_hashes_the_creation_key(
    runner: CliRunner, fake_server: list[dict[str, Any]], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = runner.invoke(main, ["serve", "--database", url, "--creation-key", "s3cret"])
    assert result.exit_code == 0, result.output
    config = fake_server[-1]["app"].config
    assert config["DATABASE"] == url and (tmp_path / "x.sqlite3").is_file()
    assert config["EVENT_CREATION_KEY_SHA256"] == hashlib.sha256(b"s3cret").hexdigest()
    assert "s3cret" not in result.stderr and "s3cret" not in repr(dict(config))
    assert f"events kept in {url} (schema created -> {head()})" in result.stderr
    again = runner.invoke(main, ["serve"], env={"ARBITER_DATABASE": url})
    assert f"events kept in {url}\n" in again.stderr  # up to date: nothing to say


def test_serve_starts_a_deliverer_and_may_let_webhooks_reach_private_addresses(
    runner: CliRunner, fake_server: list[dict[str, Any]], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = runner.invoke(main, ["serve", "--database", url])
    assert result.exit_code == 0, result.output
    assert fake_server[-1]["app"].config["ALLOW_PRIVATE_WEBHOOKS"] is False
    assert FakeServer.delivering == [fake_server[-1]["app"]]
    assert "private" not in result.stderr
    env = {"ARBITER_ALLOW_PRIVATE_WEBHOOKS": "1"}
    allowed = runner.invoke(main, ["serve", "--database", url], env=env)
    assert fake_server[-1]["app"].config["ALLOW_PRIVATE_WEBHOOKS"] is True
    assert "webhooks may reach private and loopback addresses" in allowed.stderr


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://x@y/z", "is not a database URL arbiter can use"),
        ("sqlite:///:memory:", "a SQLite database must be a file"),
    ],
)
def test_serve_refuses_a_database_it_cannot_use(
    runner: CliRunner, fake_server: list[dict[str, Any]], url: str, said: str
) -> None:
    result = runner.invoke(main, ["serve", "--database", url])
    assert result.exit_code == 2 and said in result.stderr and not fake_server
