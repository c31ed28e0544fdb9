"""An upload is checked before its body is read (spec/events.md §4): a token, an event or a
role that would be refused costs no adjudication, and under ``arbiter serve`` the refusal
comes as soon as the request's headers are in, before the body is sent at all."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.service.events import operations
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS
from tests.events.test_server import HANG, Server, new_event, upload

BIG = ROUNDS[0].read_bytes() * 4000
"""About 2.3 MB of records."""


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The records the adjudicator is given, counted (by their file, for the message)."""
    counted: list[str] = []
    report_for = operations.report_for

    def counting(item: Any, *, file: str | None = None) -> Any:
        counted.append(str(file))
        return report_for(item, file=file)

    monkeypatch.setattr(operations, "report_for", counting)
    yield counted


def test_an_upload_refused_anyway_never_reaches_the_adjudicator(
    client: FlaskClient, reads: list[str]
) -> None:
    event, token = create(client)
    other, other_token = create(client, name="Other")
    player = body(
        client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"}, headers=bearer(token))
    )["token"]
    client.delete(
        f"/api/v1/events/{event}/tokens/2", json={"reason": "lost"}, headers=bearer(token)
    )
    finalised, final_token = create(client, name="Done")
    client.post(f"/api/v1/events/{finalised}/finalise", headers=bearer(final_token))
    cases = [
        (event, None, 401, "missing-token"),
        (event, "arb_" + "x" * 43, 401, "bad-token"),
        (event, player, 401, "revoked-token"),
        (event, other_token, 403, "wrong-event"),
        ("nosuchevent", token, 404, "no-such-event"),
        (finalised, final_token, 409, "event-finalised"),
    ]
    for target, secret, status, code in cases:
        answer = client.post(
            f"/api/v1/events/{target}/records",
            data=BIG,
            headers=bearer(secret) if secret else {},
            content_type="text/plain",
        )
        assert (answer.status_code, body(answer)["error"]["code"]) == (status, code)
    assert reads == []
    assert (
        client.post(
            f"/api/v1/events/{event}/records",
            data=ROUNDS[0].read_bytes(),
            headers=bearer(token),
            content_type="text/plain",
        ).status_code
        == 201
    )
    assert len(reads) == 3
    del other


def headers_only(url: str, event: str, token: str | None, *, expect: bool = False) -> bytes:
    """Send an upload's headers, announcing 10 MB of body, and never the body: what the
    server answers (at most a hang's wait for it)."""
    host, port = url.removeprefix("http://").split(":")
    lines = [
        f"POST /api/v1/events/{event}/records HTTP/1.1",
        f"Host: {host}",
        "Content-Type: text/plain",
        f"Content-Length: {10 * 1024 * 1024}",
        *([f"Authorization: Bearer {token}"] if token else []),
        *(["Expect: 100-continue"] if expect else []),
    ]
    with socket.create_connection((host, int(port)), timeout=HANG) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not _whole(answer):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def _whole(answer: bytes) -> bool:
    head, _, rest = answer.partition(b"\r\n\r\n")
    if head.startswith(b"HTTP/1.1 100"):
        return True
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    return len(rest) >= length


def error_of(answer: bytes) -> tuple[int, str, bytes]:
    head, _, rest = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    return status, json.loads(rest)["error"]["code"], head


def test_a_refused_upload_is_answered_before_its_body(tmp_path: Any) -> None:
    server = Server(f"sqlite:///{tmp_path / 'e.sqlite3'}")
    try:
        event, token = new_event(server.url)
        status, code, head = error_of(headers_only(server.url, event, "arb_made_up"))
        assert (status, code) == (401, "bad-token")
        assert b'www-authenticate: bearer realm="arbiter"' in head.lower()
        assert error_of(headers_only(server.url, event, None))[:2] == (401, "missing-token")
        assert error_of(headers_only(server.url, "nosuchevent", token))[:2] == (
            404,
            "no-such-event",
        )
        expecting = error_of(headers_only(server.url, event, "arb_made_up", expect=True))
        assert expecting[:2] == (401, "bad-token")  # instead of 100 Continue
        invited = headers_only(server.url, event, token, expect=True)
        assert invited.startswith(b"HTTP/1.1 100 Continue")  # admitted: the body is asked for
        assert upload(server.url, event, token, ROUNDS[0].read_bytes())[0] == 201
    finally:
        server.stop()
    lines = server.stderr().splitlines()
    refused = [line for line in lines if '"POST /api/v1/events/' in line and " 401 " in line]
    assert len(refused) == 3  # each refusal has its line in the access log
