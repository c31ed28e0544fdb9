"""A page of an event is read in one transaction, with few statements (``spec/events.md``
§10): the event page and a paired round's page, on SQLite and PostgreSQL, each count the
statements the database is sent while the page is made, and hold them to a small number
whatever the event holds (its players, boards and records)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import event as sa_event

from arbiter.service.events.migrate import open_store
from tests.events.conftest import bearer, body
from tests.events.test_paired import game_text, upload

MOST_STATEMENTS = 10
"""The most statements a page may send, besides the ``BEGIN`` of its transaction (which
SQLite is sent as a statement, and PostgreSQL's driver sends on its own)."""


@contextmanager
def counted(database: str) -> Iterator[list[str]]:
    """The statements sent to ``database`` inside the block, and the transactions begun."""
    engine = open_store(database).engine
    sent: list[str] = []

    def statement(_conn: Any, _cursor: Any, text: str, *_: Any) -> None:
        sent.append(text.split(None, 1)[0].upper())

    def begun(_conn: Any) -> None:
        sent.append("TRANSACTION")

    sa_event.listen(engine, "before_cursor_execute", statement)
    sa_event.listen(engine, "begin", begun)
    try:
        yield sent
    finally:
        sa_event.remove(engine, "before_cursor_execute", statement)
        sa_event.remove(engine, "begin", begun)


def paired_event(client: FlaskClient, players: int) -> tuple[str, str, str]:
    """A Swiss of ``players`` players, round 1 paired, a record on its first board, a
    result given on its second: what a round page shows in the middle of a round."""
    made = client.post(
        "/api/v1/events",
        json={"name": "Reads Open", "game": "Pilo", "rounds": 5, "pairing": "dutch"},
    )
    event, token = body(made)["id"], body(made)["token"]
    names = [f"Player {n:03d}" for n in range(1, players + 1)]
    added = client.post(
        f"/api/v1/events/{event}/players",
        json={"players": [{"name": name, "rating": 2000 - n} for n, name in enumerate(names)]},
        headers=bearer(token),
    )
    assert added.status_code == 201, added.json
    paired = client.post(f"/api/v1/events/{event}/rounds", json={}, headers=bearer(token))
    assert paired.status_code == 201, paired.json
    boards = body(paired)["boards"]
    first, second = boards[0]["first"], boards[0]["second"]
    upload(client, event, token, game_text("Reads Open", 1, first, second, "first"))
    given = client.put(
        f"/api/v1/events/{event}/rounds/1/boards/2/result",
        json={"result": "1-0", "reason": "the score sheet"},
        headers=bearer(token),
    )
    assert given.status_code == 200, given.json
    return event, token, first


@pytest.mark.parametrize("players", [8, 40])
def test_a_paired_round_page_and_the_event_page_are_read_in_one_transaction(
    client: FlaskClient, database: str, players: int
) -> None:
    event, _, first = paired_event(client, players)
    for path in (f"/events/{event}/rounds/1", f"/events/{event}"):
        with counted(database) as sent:
            page = client.get(path)
        assert page.status_code == 200, path
        assert first in page.get_data(as_text=True)
        # the version of the event, asked to find the page kept, and the page's reads: one
        # read transaction
        assert sent.count("TRANSACTION") == 1, (path, sent)
        statements = [one for one in sent if one not in ("TRANSACTION", "BEGIN")]
        assert len(statements) <= MOST_STATEMENTS, (path, len(statements), sent)
        # the page kept for this version of the event costs the version alone
        with counted(database) as again:
            assert client.get(path).status_code == 200
        assert len([s for s in again if s not in ("TRANSACTION", "BEGIN")]) == 1, again
