"""What one upload and one read of the standings cost the database, in statements
(spec/events.md §1): the event is locked by the first statement of a change and every other
one made while it is held is a round trip that the other writers wait for, so a change that
reads or writes more than it needs slows every upload of the event. Counted, never timed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from arbiter.service.events import store as stores
from arbiter.service.events.migrate import open_store
from arbiter.service.events.storage import ONE_STATEMENT_RECORDS
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files

# One record, the first game of round 1 of the tournament's files.
RECORD = b'[Game "Pilo"]\n[Size "6"]\n[Event "Autumn Open"]\n[Round "1"]\n[Blue "Ana"]\n'
RECORD += b'[Orange "Ben"]\n[Result "*"]\n\n1. b2 *\n'


@pytest.fixture
def statements(client: FlaskClient, database: str) -> Iterator[list[str]]:
    """The statements the app's database is sent from now on (the store's connections,
    opened by the first request)."""
    client.get("/api/v1/events")
    engine = open_store(database).engine
    sent: list[str] = []

    def sending(*args: Any) -> None:
        sent.append(args[2].split(None, 1)[0].upper())

    event.listen(engine, "before_cursor_execute", sending)
    yield sent
    event.remove(engine, "before_cursor_execute", sending)


def test_an_upload_is_one_read_and_three_statements_while_the_event_is_locked(
    client: FlaskClient, database: str, statements: list[str]
) -> None:
    event_id, token = create(client)
    sent = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
    statements.clear()
    answer = client.post(f"/api/v1/events/{event_id}/records", data=RECORD, headers=sent)
    assert answer.status_code == 201, answer.json
    if database.startswith("postgresql"):
        # the admission; then the lock, the token and the trail's end with what the event
        # holds, and the upload, its record and its entry in one statement
        assert statements == ["SELECT", "UPDATE", "SELECT", "WITH"]
    else:  # SQLite: each in its own statement, in a transaction of its own (BEGIN)
        read, write = ["BEGIN", "SELECT"], ["BEGIN", "UPDATE", "SELECT", "INSERT", "INSERT"]
        assert statements == [*read, *write, "INSERT"]
    statements.clear()  # the same bytes again: the upload kept, nothing written
    again = client.post(f"/api/v1/events/{event_id}/records", data=RECORD, headers=sent)
    assert again.status_code == 200 and body(again)["uploads"][0]["duplicate"] is True
    assert "INSERT" not in statements and "WITH" not in statements


def test_an_upload_of_many_files_keeps_each_once(client: FlaskClient) -> None:
    """Several sources in one request, one of them twice: each kept once, the trail one
    entry per source kept, and the version the trail's last entry."""
    event_id, token = create(client)
    answer = post_files(client, event_id, token, *ROUNDS, ROUNDS[0])
    assert answer.status_code == 201, answer.json
    uploads = body(answer)["uploads"]
    assert [u["duplicate"] for u in uploads] == [False] * len(ROUNDS) + [True]
    assert uploads[-1]["upload"] == uploads[0]["upload"]
    trail = body(client.get(f"/api/v1/events/{event_id}/log"))["log"]
    assert [entry["action"] for entry in trail] == ["event-created"] + ["uploaded"] * len(ROUNDS)
    summary = body(client.get(f"/api/v1/events/{event_id}"))
    assert summary["version"] == len(trail) and summary["records"]["total"] == sum(
        len(u["records"]) for u in uploads[:-1]
    )
    assert body(client.get(f"/api/v1/events/{event_id}/verify"))["valid"] is True


def test_a_read_of_the_standings_kept_is_one_statement(
    client: FlaskClient, database: str, statements: list[str]
) -> None:
    event_id, token = create(client)
    post_files(client, event_id, token, *ROUNDS)
    assert client.get(f"/api/v1/events/{event_id}/standings").status_code == 200
    statements.clear()
    assert client.get(f"/api/v1/events/{event_id}/standings").status_code == 200
    if database.startswith("postgresql"):
        assert statements == ["SELECT"]  # the version, outside a transaction
    else:
        assert statements == ["BEGIN", "SELECT"]


def test_a_connection_idle_in_the_pool_is_tried_before_it_is_used(
    client: FlaskClient, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One the server closed meanwhile (as a restart does) is replaced, and the request
    answered (with the wait before a try made long, the same request fails)."""
    if not database.startswith("postgresql"):
        pytest.skip("SQLite has no server to close a connection")
    event_id, token = create(client)
    other = create_engine(open_store(database).engine.url, poolclass=NullPool)
    with other.connect() as conn:  # not one of the pool's: every one of those is closed
        closed = conn.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ).scalar()
    assert closed
    monkeypatch.setattr(stores, "PING_AFTER_SECONDS", 0.0)
    answer = client.post(
        f"/api/v1/events/{event_id}/records",
        data=RECORD,
        headers={**bearer(token), "Content-Type": "text/plain"},
    )
    assert answer.status_code == 201, answer.json


def many(count: int) -> bytes:
    """A file of ``count`` records, each between other players."""
    return b"\n".join(
        RECORD.replace(b"Ana", f"Ana {n}".encode()).replace(b"Ben", f"Ben {n}".encode())
        for n in range(count)
    )


@pytest.mark.parametrize("count", [2, ONE_STATEMENT_RECORDS, ONE_STATEMENT_RECORDS + 1])
def test_an_upload_of_many_records_is_kept_whole(
    client: FlaskClient, database: str, statements: list[str], count: int
) -> None:
    """On PostgreSQL in one statement up to ONE_STATEMENT_RECORDS records, and beyond in one
    statement for the upload, one for its records and one for its entry."""
    event_id, token = create(client)
    sent = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
    statements.clear()
    answer = client.post(f"/api/v1/events/{event_id}/records", data=many(count), headers=sent)
    assert answer.status_code == 201, answer.json
    assert [r["record"] for r in body(answer)["uploads"][0]["records"]] == list(range(1, count + 1))
    if database.startswith("postgresql"):
        one = count <= ONE_STATEMENT_RECORDS
        assert statements[3:] == (["WITH"] if one else ["INSERT", "INSERT", "INSERT"])
    kept = body(client.get(f"/api/v1/events/{event_id}/records"))["records"]
    assert [(r["record"], r["players"]["Blue"]) for r in kept] == [
        (n + 1, f"Ana {n}") for n in range(count)
    ]
    assert body(client.get(f"/api/v1/events/{event_id}/verify"))["valid"] is True
