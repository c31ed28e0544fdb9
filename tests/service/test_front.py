"""What stands in front of the application (spec/api.md §4 to §6), on a real ``arbiter
serve``: JSON for every refusal whichever layer refuses, an oversized body refused before it
is read even when the client waits for ``100 Continue``, idle and half-sent connections that
cannot lock anyone out, and a SIGTERM that lets the requests under way finish."""

from __future__ import annotations

import fcntl
import json
import queue
import signal
import socket
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from arbiter.service.web import create_app
from arbiter.service.web.front import LINGER_IDLE
from tests.service.records import FINISHED_GRN
from tests.service.test_serve import copy_lines, post, serve_command, wait_until_healthy

HANG = 60.0
"""Seconds after which a read is taken as hung: far more than any answer here takes, on a
machine however busy, and less than the waits a broken server would make."""


class Server:
    """A real ``arbiter serve`` process on a free port: its URL and its process."""

    def __init__(self, *options: str) -> None:
        command = [*serve_command(), "--host", "127.0.0.1", "--port", "0", *options]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=copy_lines, args=(self.process.stderr, lines), daemon=True).start()
        self.url = wait_until_healthy(self.process, lines)
        self.port = int(self.url.rsplit(":", 1)[1])

    def raw(self, data: bytes, *, wait: float = HANG) -> bytes:
        """Send ``data`` as it is and return all the server answers before it closes (the
        server may answer and close before it has read everything sent)."""
        answer = b""
        with socket.create_connection(("127.0.0.1", self.port), timeout=wait) as sock:
            try:
                sock.sendall(data)
                while chunk := sock.recv(65536):
                    answer += chunk
            except (BrokenPipeError, ConnectionResetError):
                pass
        return answer

    def terminate(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.signalled = True

    signalled = False

    def stop(self) -> int:
        if not self.signalled and self.process.poll() is None:
            self.terminate()
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout=10)
        finally:
            if self.process.stderr is not None:
                self.process.stderr.close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server("--threads", "2", "--max-body", "1M")
    try:
        yield running
    finally:
        running.stop()


def split(answer: bytes) -> tuple[str, dict[str, str], Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return status, headers, json.loads(body)


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"GARBAGE\r\n\r\n", 400, "bad-request"),
        (
            b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            400,
            "bad-request",
        ),
        (b"POST /api/v1/adjudicate HTTP/1.1\r\nHost x\r\n\r\n", 400, "bad-request"),
        (
            b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"zz\r\nabc\r\n",
            400,
            "bad-request",
        ),
        (
            b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            501,
            "not-implemented",
        ),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
            431,
            "headers-too-large",
        ),
        (
            b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n",
            413,
            "body-too-large",
        ),
        (
            b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"100000\r\n"
            + b"x" * 0x100000
            + b"\r\n"
            + b"100000\r\n"
            + b"x" * 0x100000
            + b"\r\n0\r\n\r\n",
            413,
            "body-too-large",
        ),
    ],
    ids=[
        "request-line",
        "content-length",
        "header",
        "chunks",
        "encoding",
        "headers-size",
        "body-size",
        "chunked-size",
    ],
)
def test_every_malformed_request_gets_a_json_error(
    server: Server, request_bytes: bytes, status: int, code: str
) -> None:
    line, headers, body = split(server.raw(request_bytes))
    assert line.split()[1] == str(status)
    assert headers["content-type"] == "application/json"
    assert (body["error"]["code"], body["error"]["status"]) == (code, status)


def test_an_oversized_body_announced_with_expect_100_continue_is_refused_unread(
    server: Server,
) -> None:
    head = (
        b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 18874368\r\nExpect: 100-continue\r\n\r\n"
    )
    # The body is never sent: a server that waited for it would close the silent connection
    # after its channel timeout with no answer at all (or the read would time out).
    answer = server.raw(head)
    assert not answer.startswith(b"HTTP/1.1 100")
    line, _, body = split(answer)
    assert line.startswith("HTTP/1.1 413") and body["error"]["limit"] == 1024 * 1024


def test_a_python_client_sending_20_mb_reads_the_413(server: Server) -> None:
    # urllib sends the whole body before it reads: a server that closes at once resets the
    # connection under it ("connection reset by peer"); a lingering close lets it read.
    for _ in range(2):  # and the server still serves the next client
        status, kind, body = post(
            f"{server.url}/api/v1/adjudicate", b" " * 20_000_000, "text/plain"
        )
        assert (status, kind) == (413, "application/json")
        assert json.loads(body)["error"] == {
            "status": 413,
            "code": "body-too-large",
            "message": "the request body is larger than the limit of 1048576 bytes",
            "limit": 1048576,
        }


def test_the_lingering_close_after_a_refusal_is_bounded(server: Server) -> None:
    # After the 413 the server stops writing at once (the answer, then end of stream), and
    # closes the connection once the client has been silent for LINGER_IDLE seconds. The
    # client stays silent past that, then sends a byte: once the server has closed, the
    # byte is answered with a reset. A byte sent while it still lingers (a busy machine may
    # not have run its loop yet) is read and dropped, and the client goes silent again.
    head = (
        b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 50000000\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG) as sock:
        sock.sendall(head + b"x" * 100_000)
        answer = b""
        while chunk := sock.recv(65536):  # ends at the server's end of stream
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 413")
        deadline = time.monotonic() + HANG
        with pytest.raises((BrokenPipeError, ConnectionResetError)):
            while time.monotonic() < deadline:
                time.sleep(LINGER_IDLE + 0.5)  # silent past the bound
                sock.sendall(b"x")
                time.sleep(0.2)  # the reset, if the server has closed, comes back
                sock.sendall(b"x")


def test_a_body_under_the_limit_is_invited_with_100_continue(server: Server) -> None:
    body = FINISHED_GRN.encode()
    head = (
        b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        b"Connection: close\r\nExpect: 100-continue\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        assert sock.recv(64).startswith(b"HTTP/1.1 100 Continue")
        sock.sendall(body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert b'"valid": true' in answer or b'"valid":true' in answer


def test_half_open_connections_lock_nobody_out() -> None:
    # The half-open connections stay open for the channel timeout, 300 s here: a good
    # request locked out behind them would wait that long, far past the read's deadline.
    patient = Server("--threads", "2", "--channel-timeout", "300")
    idle = []
    try:
        post(f"{patient.url}/api/v1/adjudicate", FINISHED_GRN.encode(), "text/plain")  # warm
        for number in range(200):
            sock = socket.create_connection(("127.0.0.1", patient.port), timeout=HANG)
            sock.sendall(
                b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\n" if number % 2 else b"PO"
            )
            idle.append(sock)
        status, _, answer = post(
            f"{patient.url}/api/v1/adjudicate", FINISHED_GRN.encode(), "text/plain"
        )
    finally:
        for sock in idle:
            sock.close()
        patient.stop()
    assert status == 200 and json.loads(answer)["valid"] is True


def test_a_silent_connection_is_closed_after_the_timeout() -> None:
    quick = Server("--channel-timeout", "2")
    try:
        with socket.create_connection(("127.0.0.1", quick.port), timeout=HANG) as sock:
            sock.sendall(b"POST /api/v1/adjudicate HTTP/1.1\r\n")
            assert sock.recv(100) == b""  # closed by the server, long before the read's deadline
    finally:
        quick.stop()


def delivered(sock: socket.socket) -> None:
    """Wait until everything sent on ``sock`` has been read by the process at its other end
    (Linux: nothing left in this socket's send queue, nor in the peer's receive queue as
    /proc/net/tcp shows it), for at most :data:`HANG` seconds."""
    ours = sock.getsockname()[1]
    theirs = sock.getpeername()[1]
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        unsent = struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]
        if unsent == 0 and _receive_queue(theirs, ours) == 0:
            return
        time.sleep(0.02)
    pytest.fail("the server did not read the request")


def _receive_queue(local: int, remote: int) -> int | None:
    """The bytes waiting to be read on the 127.0.0.1 socket from ``local`` to ``remote``."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == local and int(fields[2].split(":")[1], 16) == remote:
            return int(fields[4].split(":")[1], 16)
    return None


def test_sigterm_lets_the_request_under_way_finish_and_exits_zero() -> None:
    slow = Server("--threads", "1", "--max-body", "8M")
    body = ((FINISHED_GRN + "\n") * 1500).encode()  # a few seconds of adjudication
    head = (
        b"POST /api/v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
        + f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    )
    try:
        with socket.create_connection(("127.0.0.1", slow.port), timeout=HANG) as sock:
            sock.sendall(head + body)
            delivered(sock)  # the whole request read: it is under way
            slow.terminate()
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    finally:
        status = slow.stop()
    assert status == 0
    line, headers, report = split(answer)
    assert line.startswith("HTTP/1.1 200") and headers["content-type"] == "application/json"
    assert report["count"] == 1500


# --- the WSGI middleware, under any server -----------------------------------------------------


def call(app: Flask, environ: dict[str, Any]) -> tuple[str, Any]:
    base = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/v1/adjudicate",
        "SERVER_NAME": "x",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": _Unread(),
        "wsgi.errors": None,
    }
    started: list[str] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: object = None
    ) -> Callable[[bytes], object]:
        started.append(status)
        return _no_write

    body = b"".join(app.wsgi_app({**base, **environ}, start_response))
    return started[0], json.loads(body)


def _no_write(data: bytes) -> None:
    raise AssertionError("the app wrote its body through start_response's write()")


class _Unread:
    """A request body that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the body was read")

    readline = read


def test_the_middleware_refuses_an_oversized_body_without_reading_it() -> None:
    app = create_app({"MAX_CONTENT_LENGTH": 1000})
    status, body = call(app, {"CONTENT_LENGTH": "1001", "CONTENT_TYPE": "text/plain"})
    assert status.startswith("413") and body["error"]["limit"] == 1000


def test_the_middleware_refuses_a_content_length_that_is_no_number() -> None:
    status, body = call(create_app(), {"CONTENT_LENGTH": "12abc"})
    assert status.startswith("400") and body["error"]["code"] == "bad-request"


def test_a_failure_that_escapes_the_application_is_a_json_500() -> None:
    app = create_app()

    def broken(environ: object, start_response: object) -> list[bytes]:
        raise RuntimeError("escaped")

    app.wsgi_app.app = broken  # type: ignore[attr-defined]
    status, body = call(app, {"CONTENT_LENGTH": "3"})
    assert status.startswith("500") and body["error"]["code"] == "internal-error"


def test_convert_says_when_to_is_missing(client: Any) -> None:
    response = client.post("/api/v1/convert", data=FINISHED_GRN, content_type="text/plain")
    assert response.status_code == 400
    assert "it is missing" in response.get_json()["error"]["message"]
