"""The fuzz harness's inputs through the command line and the HTTP API (in-process: click's
runner and Flask's test client over the real application), and hostile HTTP on the wire
against a real ``arbiter serve`` (:func:`hostile_http`)."""

from __future__ import annotations

import json
import random
import re
import socket
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from click.testing import CliRunner

from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.service.cli.main import main
from arbiter.service.web import create_app
from fuzz.inputs import Input

CONTENT_TYPES = [
    None,
    "text/plain",
    "application/x-grn",
    "application/json",
    "application/octet-stream",
    "text/plain; charset=latin-1",
    "application/xml",
    "multipart/form-data",
]
API_LIMIT = 1024 * 1024


class Surfaces:
    """The CLI and the API, with a scratch folder for the CLI's files."""

    def __enter__(self) -> Surfaces:
        self._folder = tempfile.TemporaryDirectory()
        self.folder = Path(self._folder.name)
        self.runner = CliRunner()
        self.client = create_app({"MAX_CONTENT_LENGTH": API_LIMIT}).test_client()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._folder.cleanup()

    def cli(self, item: Input, items: list[Record | RecordError], tally: Any) -> None:
        """``adjudicate --json``, ``validate`` and ``convert`` on the input as a file."""
        path = self.folder / f"input.{item.fmt or 'grn'}"
        path.write_bytes(item.data)
        for args in (
            ["adjudicate", "--json", str(path)],
            ["validate", str(path)],
            ["convert", str(path), "--to", "json"],
        ):
            tally.cli_runs += 1
            result = self.runner.invoke(main, args)
            shown = f"{args[0]}: exit {result.exit_code}: {result.exception!r}"
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
            if crashed or result.exit_code not in (0, 1):
                tally.find("cli crash", item, shown)
            elif "Traceback" in result.stdout + result.stderr:
                tally.find("cli traceback", item, shown)
            elif args[0] == "adjudicate" and len(result.stdout.splitlines()) != len(items):
                tally.find("cli lost", item, f"{len(items)} records, {result.stdout[:200]}")

    def api(
        self, rng: random.Random, item: Input, items: list[Record | RecordError], tally: Any
    ) -> None:
        """The input sent to an operation of the API with a random Content-Type."""
        path = rng.choice(
            [
                "/api/v1/adjudicate",
                "/api/v1/validate",
                "/api/v1/convert?to=grn",
                "/api/v1/convert?to=json",
                "/api/v1/convert?to=x",
            ]
        )
        kind = rng.choice(CONTENT_TYPES)
        tally.api_requests += 1
        if kind == "multipart/form-data":
            name = f"upload.{item.fmt or 'txt'}"
            files: dict[str, Any] = {"file": (_Stream(item.data), name)}
            response = self.client.post(path, data=files, content_type=kind)
        else:
            response = self.client.post(path, data=item.data, content_type=kind or "")
        if response.status_code >= 500 or response.mimetype not in (
            "application/json",
            "text/plain",
        ):
            tally.find("api error", item, f"{path} {kind}: {response.status_code}")
            return
        if response.mimetype != "application/json":
            return
        body = response.get_json()
        if response.status_code >= 400:
            if "error" not in body:
                tally.find("api error", item, f"{path}: {body!r}"[:300])
            return
        read_as = {"text/plain": "grn", "application/json": "json"}.get(kind or "")
        if "count" in body and read_as == item.fmt and body["count"] != len(items):
            tally.find("api lost", item, f"{path} {kind}: {body['count']} of {len(items)}")


class _Stream:
    """Bytes as the file object Flask's test client uploads."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.done = False

    def read(self, size: int = -1) -> bytes:
        if self.done:
            return b""
        self.done = True
        return self.data


# --- hostile HTTP on the wire -----------------------------------------------------------------

REQUEST_LINES = [
    b"POST /api/v1/adjudicate HTTP/1.1",
    b"GET /api/v1/games HTTP/1.0",
    b"POST /api/v1/convert?to=json HTTP/1.1",
    b"DELETE /health HTTP/1.1",
    b"POST /%ff%fe/%00 HTTP/1.1",
    b"GET /" + b"a" * 70_000 + b" HTTP/1.1",
    b"BREW /coffee HTCPCP/1.0",
    b"POST /api/v1/adjudicate?" + b"to=json&" * 2000 + b" HTTP/1.1",
    b"",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello
]
HEADERS = [
    b"Host: x",
    b"Content-Type: application/json",
    b"Content-Type: text/plain",
    b"Content-Type: multipart/form-data; boundary=zz",
    b"Content-Type: multipart/form-data",
    b"Content-Length: 5",
    b"Content-Length: -5",
    b"Content-Length: 99999999999999999999",
    b"Content-Length: 18874368",
    b"Transfer-Encoding: chunked",
    b"Transfer-Encoding: chunked, gzip",
    b"Expect: 100-continue",
    b"Expect: 200-ok",
    b"Connection: keep-alive",
    b"X-Junk: \xff\xfe",
    b"Bad header line",
    b" folded continuation",
    b"X-Big: " + b"b" * 5000,
]
BODIES = [
    b"",
    b'[Game "Pilo"]\n[Size "3"]\n\n1. b2 *\n',
    b'{"game": "Pilo", "size": 3}',
    b"5\r\nhello\r\n0\r\n\r\n",
    b"zz\r\n",
    b"--zz\r\nContent-Disposition: form-data; name=file; filename=a.grn\r\n\r\n1. b2\r\n--zz--\r\n",
    b"\x00" * 64,
]


def hostile_request(rng: random.Random) -> bytes:
    """A request put together from parts that are each wrong in some way, or right."""
    lines = [rng.choice(REQUEST_LINES)]
    lines += [rng.choice(HEADERS) for _ in range(rng.randrange(0, 6))]
    body = rng.choice(BODIES)
    if rng.random() < 0.5:
        lines.append(b"Content-Length: " + str(len(body)).encode())
    data = b"\r\n".join(lines) + b"\r\n\r\n" + body
    if rng.random() < 0.2:
        data = data[: rng.randrange(len(data) + 1)]
    return data


def hostile_http(port: int, count: int, seed_value: int) -> list[str]:
    """Send ``count`` hostile requests to a server on ``port``; return what went wrong: an
    answer that is neither a JSON error nor a success, a 5xx, or a server that stops
    answering /health."""
    rng = random.Random(seed_value)
    problems = []
    for _ in range(count):
        data = hostile_request(rng)
        answer = _exchange(port, data)
        problem = _judge(answer)
        if problem:
            problems.append(f"{problem}: {data[:120]!r} -> {answer[:160]!r}")
    health = _exchange(port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    if b'"status": "ok"' not in health and b'"status":"ok"' not in health:
        problems.append(f"the server no longer answers /health: {health[:200]!r}")
    return problems


def _exchange(port: int, data: bytes) -> bytes:
    answer = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)  # no more: the server must answer or close
            while chunk := sock.recv(65536):
                answer += chunk
    except (TimeoutError, ConnectionResetError, BrokenPipeError):
        pass
    return answer


def _judge(answer: bytes) -> str | None:
    """Why an answer is wrong, or None. No answer at all is right for a request that never
    ended (the server waits for the rest, then times out)."""
    if not answer:
        return None
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0]
    parts = status_line.split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        return "not HTTP"
    status = int(parts[1])
    if status >= 500 and status != 501:
        return f"status {status}"
    if status >= 400:
        if b"application/json" not in head.lower() or b'"error"' not in body[:4096]:
            return f"status {status} without a JSON error body"
        length = re.search(rb"content-length: *(\d+)", head.lower())
        try:
            json.loads(body[: int(length.group(1))] if length else body)
        except ValueError:
            return f"status {status} with a body that is not JSON"
    return None
