"""Fixtures for the events tests: every test that takes ``database`` runs twice, on a new
SQLite file and on a new database of a real PostgreSQL server (Debian's binaries, started
once for the session on a Unix socket in a temporary folder).

Without PostgreSQL the PostgreSQL half is skipped on a developer's machine and fails in CI
(``CI=true``), where ``make test`` installs it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from arbiter.service.web import create_app
from tools.postgres import Postgres, binaries


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    found = binaries()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL is not installed; CI must install Debian's postgresql")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    server = Postgres(found)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'events.sqlite3'}"
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def body(response: TestResponse) -> dict[str, Any]:
    """The JSON object a response of the API carries."""
    data = response.json
    assert isinstance(data, dict), data
    return data


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **fields: Any) -> tuple[str, str]:
    """A new event (a Pilo event named Autumn Open unless told otherwise): id and token."""
    answer = client.post("/api/v1/events", json={"name": "Autumn Open", "game": "Pilo", **fields})
    assert answer.status_code == 201, answer.json
    created = body(answer)
    return created["id"], created["token"]
