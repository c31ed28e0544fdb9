"""The audit trail (spec/events.md §6): every change an entry, chained by hash; the
database refuses to change or delete an entry or an upload; a change made behind the
service's back is found, and where."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError, IntegrityError, InternalError

from arbiter.service.events.chain import GENESIS, digest
from arbiter.service.events.migrate import open_store
from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS, post_files


def run_event(client: FlaskClient) -> tuple[str, str]:
    """An event with every kind of change: its id and director token."""
    event, token = create(client, rounds=5)
    player = body(
        client.post(
            f"/api/v1/events/{event}/tokens", json={"label": "player-07"}, headers=bearer(token)
        )
    )["token"]
    post_files(client, event, token, *ROUNDS[:2])
    post_files(client, event, player, ROUNDS[2])
    client.post(f"/api/v1/events/{event}/records/7/confirm", headers=bearer(token))
    client.post(
        f"/api/v1/events/{event}/records/1/exclude",
        json={"reason": "wrong round"},
        headers=bearer(token),
    )
    client.put(
        f"/api/v1/events/{event}/records/2/result",
        json={"result": "Orange+R", "reason": "Blue resigned on the sheet"},
        headers=bearer(token),
    )
    client.delete(
        f"/api/v1/events/{event}/tokens/2", json={"reason": "done"}, headers=bearer(token)
    )
    client.patch(f"/api/v1/events/{event}", json={"rounds": 6}, headers=bearer(token))
    client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token))
    return event, token


def test_every_change_is_an_entry_chained_to_the_one_before(client: FlaskClient) -> None:
    event, _ = run_event(client)
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    assert [e["action"] for e in log] == [
        "event-created",
        "token-issued",
        "uploaded",
        "uploaded",
        "uploaded",
        "confirmed",
        "excluded",
        "result-set",
        "token-revoked",
        "event-changed",
        "finalised",
    ]
    assert [e["number"] for e in log] == list(range(1, 12))
    assert [e["token"] for e in log] == [1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1]
    prev = GENESIS
    for entry in log:
        assert entry["prev"] == prev
        assert entry["hash"] == digest({k: v for k, v in entry.items() if k != "hash"})
        prev = entry["hash"]
    assert log[6]["reason"] == "wrong round" and log[6]["details"] == {
        "record": 1,
        "was": "accepted",
    }
    verdict = body(client.get(f"/api/v1/events/{event}/verify"))
    assert verdict == {"event": event, "valid": True, "entries": 11, "problems": []}


def _sql(app: Flask, statement: str, **values: Any) -> None:
    store = open_store(app.config["DATABASE"])
    with store.engine.begin() as conn:
        conn.execute(text(statement), values)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE log SET reason = 'no reason' WHERE number = 7",
        "DELETE FROM log WHERE number = 11",
        "UPDATE uploads SET data = :data WHERE number = 1",
        "DELETE FROM uploads WHERE number = 3",
    ],
)
def test_the_database_refuses_to_change_the_trail_or_an_upload(
    app: Flask, client: FlaskClient, statement: str
) -> None:
    event, _ = run_event(client)
    with pytest.raises((IntegrityError, InternalError, DatabaseError)) as caught:
        _sql(app, statement, data=b"x")
    assert "append-only" in str(caught.value)
    assert body(client.get(f"/api/v1/events/{event}/verify"))["valid"] is True


def _drop_guards(app: Flask) -> None:
    """What someone with the database's keys could do: remove the triggers."""
    if app.config["DATABASE"].startswith("sqlite"):
        for table in ("log", "uploads"):
            for change in ("update", "delete"):
                _sql(app, f"DROP TRIGGER {table}_no_{change}")
    else:
        for table in ("log", "uploads"):
            _sql(app, f"DROP TRIGGER {table}_append_only ON {table}")


@pytest.mark.parametrize(
    ("statement", "problem"),
    [
        (
            "UPDATE records SET status = 'accepted' WHERE number = 1",
            "record 1: its status is 'accepted'; the trail says 'excluded'",
        ),
        (
            "UPDATE records SET official_result = 'Blue+F' WHERE number = 3",
            "record 3: its official_result is 'Blue+F'; the trail says None",
        ),
        (
            "UPDATE records SET report = replace(report, 'Orange', 'Blue') WHERE number = 4",
            "record 4: its header or report was changed",
        ),
        (
            "UPDATE tokens SET role = 'director' WHERE number = 2",
            "token 2: its role is 'director'; the trail says 'upload'",
        ),
        (
            "UPDATE tokens SET revoked_at = NULL WHERE number = 2",
            "token 2: its revoked_at is None; the trail says",
        ),
        ("UPDATE events SET rounds = 9", "the event's rounds is 9; the trail says 6"),
        (
            "UPDATE log SET reason = 'a better reason' WHERE number = 7",
            "entry 7: its content does not match its hash",
        ),
        ("DELETE FROM log WHERE number = 8", "entry 8: it is missing (entry 9 follows entry 7)"),
        (
            "UPDATE uploads SET data = :data WHERE number = 1",
            "upload 1: its bytes do not match its SHA-256",
        ),
        ("DELETE FROM records WHERE number = 6", "record 6 is in the trail but not in the tables"),
    ],
)
def test_a_change_behind_the_services_back_is_found(
    app: Flask, client: FlaskClient, statement: str, problem: str
) -> None:
    event, _ = run_event(client)
    _drop_guards(app)
    _sql(app, statement, data=b'[Game "Pilo"]')
    verdict = body(client.get(f"/api/v1/events/{event}/verify"))
    assert verdict["valid"] is False
    assert any(found.startswith(problem) for found in verdict["problems"]), verdict["problems"]


def test_an_entry_rewritten_with_a_new_hash_still_breaks_the_chain(
    app: Flask, client: FlaskClient
) -> None:
    # Rehashing the changed entry is not enough: the next entry holds the old hash.
    event, _ = run_event(client)
    _drop_guards(app)
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    entry = {**log[6], "reason": "a better reason"}
    new_hash = digest({k: v for k, v in entry.items() if k != "hash"})
    _sql(
        app, "UPDATE log SET reason = :r, hash = :h WHERE number = 7", r=entry["reason"], h=new_hash
    )
    problems = body(client.get(f"/api/v1/events/{event}/verify"))["problems"]
    assert problems == ["entry 8: it does not follow the entry before it"]
