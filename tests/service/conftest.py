"""Fixtures for the HTTP API and the CLI: the ``app``, ``client`` and ``runner`` of Flask's
tutorial. The app has a small body limit, so that the 413 tests need no big bodies."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.web import create_app
from tests.service.records import MAX_BODY
from tests.service.suggested import with_suggestions


@pytest.fixture
def app() -> Flask:
    return create_app({"TESTING": True, "MAX_CONTENT_LENGTH": MAX_BODY})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def suggesting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's reports of the slipped record of :mod:`tests.service.suggested` carry
    its suggestions, as the search would add them."""
    from arbiter.service.core import batch, diagrams

    monkeypatch.setattr(batch, "adjudicate", with_suggestions(batch.adjudicate))
    monkeypatch.setattr(diagrams, "adjudicate", with_suggestions(diagrams.adjudicate))
