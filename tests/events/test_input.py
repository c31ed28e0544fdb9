"""What a client sends never makes the events layer answer 500 (spec/api.md §4), on SQLite
and PostgreSQL: JSON nested too deep, a NUL or a lone surrogate in a name, label, reason or
file name, a file name too long, an id that cannot name an event. Each is a 4xx with its
code, and nothing a client sent is written to a log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from arbiter.service.events import operations, storage
from arbiter.service.events.common import EventError
from arbiter.service.events.migrate import open_store
from arbiter.service.events.operations import Upload
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS

DEEP = "[" * 1000 + "]" * 1000
MARK = "secret-of-the-client"
"""Written in what the requests send, and looked for in the logs."""


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log line of the test, of every logger, whatever its level."""
    with caplog.at_level(logging.DEBUG):
        yield caplog


def refusal(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert (answer.status_code, body(answer)["error"]["code"]) == (status, code), answer.json
    error: dict[str, Any] = body(answer)["error"]
    return error


def send_json(client: FlaskClient, method: str, path: str, data: str, token: str) -> Any:
    """``data`` sent as a JSON body with ``method`` to ``path``, with the event's token."""
    return client.open(
        path, method=method, data=data, content_type="application/json", headers=bearer(token)
    )


def json_bodies(event: str) -> list[tuple[str, str]]:
    """Every route of an event that reads a JSON body, as (method, path)."""
    base = f"/api/v1/events/{event}"
    return [
        ("POST", "/api/v1/events"),
        ("PATCH", base),
        ("POST", f"{base}/finalise"),
        ("POST", f"{base}/tokens"),
        ("DELETE", f"{base}/tokens/2"),
        ("POST", f"{base}/records/1/confirm"),
        ("POST", f"{base}/records/1/exclude"),
        ("POST", f"{base}/records/1/reinstate"),
        ("PUT", f"{base}/records/1/result"),
        ("DELETE", f"{base}/records/1/result"),
    ]


def test_json_nested_too_deep_is_bad_json_in_every_body(
    client: FlaskClient, logged: pytest.LogCaptureFixture
) -> None:
    event, token = create(client)
    for method, path in json_bodies(event):
        for data in (DEEP, '{"name": ' + DEEP + "}", "[" * 100_000):
            answer = send_json(client, method, path, data, token)
            refusal(answer, 400, "bad-json")
    assert not [line for line in logged.records if line.levelno >= logging.ERROR]


def test_a_nul_or_a_lone_surrogate_is_a_bad_field_wherever_text_is_kept(
    client: FlaskClient, logged: pytest.LogCaptureFixture
) -> None:
    event, token = create(client)
    client.post(
        f"/api/v1/events/{event}/records",
        data=ROUNDS[0].read_bytes(),
        headers=bearer(token),
        content_type="text/plain",
    )
    base = f"/api/v1/events/{event}"
    for bad in ("\\u0000", "\\ud800", "\\udfff"):
        text = f'"{MARK} {bad}"'
        cases = [
            ("POST", "/api/v1/events", f'{{"name": {text}, "game": "Pilo"}}', "name"),
            ("PATCH", base, f'{{"name": {text}}}', "name"),
            ("PATCH", base, f'{{"rounds": 5, "reason": {text}}}', "reason"),
            ("POST", f"{base}/tokens", f'{{"label": {text}}}', "label"),
            ("POST", f"{base}/records/1/exclude", f'{{"reason": {text}}}', "reason"),
            (
                "PUT",
                f"{base}/records/1/result",
                f'{{"result": "Blue", "reason": {text}}}',
                "reason",
            ),
            ("POST", f"{base}/finalise", f'{{"reason": {text}}}', "reason"),
        ]
        for method, path, data, field in cases:
            answer = send_json(client, method, path, data, token)
            assert refusal(answer, 400, "bad-field")["field"] == field, (path, data)
    nul_query = client.post(f"{base}/records/1/exclude?reason=a%00b", headers=bearer(token))
    assert refusal(nul_query, 400, "bad-field")["field"] == "reason"
    assert body(client.get(base))["version"] == 2  # nothing was changed
    assert MARK not in logged.text
    assert not [line for line in logged.records if line.levelno >= logging.ERROR]


def test_a_file_name_is_kept_whole_or_refused(client: FlaskClient, database: str) -> None:
    event, token = create(client)
    long = "r" * 400 + ".grn"
    parts = [(long.encode(), ROUNDS[0].read_bytes()), (b"round\x00-2.grn", ROUNDS[1].read_bytes())]
    answer = client.post(
        f"/api/v1/events/{event}/records",
        data=b"".join(
            b'--b\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n\r\n%s\r\n'
            % part
            for part in parts
        )
        + b"--b--\r\n",
        headers=bearer(token),
        content_type="multipart/form-data; boundary=b",
    )
    assert answer.status_code == 201, answer.json
    kept = [one["file"] for one in body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"]]
    assert kept == [long[-255:], "round-2.grn"]  # the web face's last 255 characters
    store = open_store(database)
    for name in ("s" * 256 + ".grn", "a\x00.grn", "a\udc80.grn", ""):
        with pytest.raises(EventError) as refused:
            operations.upload(store, event, token, [Upload(name, ROUNDS[2].read_bytes())])
        assert (refused.value.code, refused.value.extra) == ("bad-field", {"field": "file"})
    assert len(body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"]) == 2


def test_an_id_that_cannot_name_an_event_names_none(
    client: FlaskClient, logged: pytest.LogCaptureFixture
) -> None:
    event, token = create(client)
    for bad in ("%00", "a%00b", "x" * 17, "%ED%A0%80", "%C0%80"):
        for path in (
            "",
            "/records",
            "/records/1",
            "/records?format=grn",
            "/uploads",
            "/log",
            "/verify",
            "/standings",
            "/standings?format=trf",
            "/tokens",
        ):
            refusal(
                client.get(f"/api/v1/events/{bad}{path}", headers=bearer(token)),
                404,
                "no-such-event",
            )
        for method, path in [("POST", "/records"), ("PATCH", ""), ("POST", "/finalise")]:
            answer = client.open(
                f"/api/v1/events/{bad}{path}",
                method=method,
                data=ROUNDS[0].read_bytes(),
                headers=bearer(token),
                content_type="text/plain" if path else "application/json",
            )
            assert answer.status_code in (400, 404), answer.json
        for page in ("", "/desk"):
            assert client.get(f"/events/{bad}{page}").status_code == 404
    for sha in ("%00", "0" * 63 + "%00", "g" * 64, "0" * 65):
        refusal(client.get(f"/api/v1/events/{event}/uploads/{sha}"), 404, "no-such-upload")
    assert not [line for line in logged.records if line.levelno >= logging.ERROR]


def test_a_statement_that_fails_never_shows_its_values(database: str) -> None:
    """A bug that reaches the database still logs nothing a client sent: the error of a
    statement names it, not its values (an event's name, a record's bytes)."""
    from arbiter.service.events.rows import EventRow, UploadRow

    store = open_store(database)
    event = EventRow("e" * 13, MARK, "Pilo", None, None, True, "2026", None, 1)
    upload = UploadRow(event.id, 1, "0" * 64, "r.grn", "grn", 9, MARK.encode(), 1, "2026")
    with storage.writing(store) as tx:
        storage.insert_event(tx, event)
        storage.insert_upload(tx, upload)
    with pytest.raises(Exception) as event_again, storage.writing(store) as tx:
        storage.insert_event(tx, event)
    with pytest.raises(Exception) as upload_again, storage.writing(store) as tx:
        storage.insert_upload(tx, upload)
    for failed in (event_again, upload_again):
        said = str(failed.value)
        assert "insert" in said.lower() and MARK not in said and repr(MARK.encode()) not in said
