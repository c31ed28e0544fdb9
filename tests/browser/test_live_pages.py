"""An event's pages follow its stream in chromium (spec/events.md §10.1): a result uploaded
elsewhere appears on the public page and the player's page without a reload, long before
the 20-second poll would have asked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.events.test_server import GAME, call
from tests.service.test_serve import running_server

SEEN = 10_000
"""Milliseconds a page is given to show a change: half the poll's period, so that only the
stream can have brought it."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live")
    with running_server("--database", f"sqlite:///{folder / 'events.sqlite3'}") as url:
        yield url


def test_a_result_appears_on_the_open_pages_without_a_reload(browser: Any, site: str) -> None:
    status, made = call(f"{site}/api/v1/events", "POST", {"name": "Live Open", "game": "Pilo"})
    assert status == 201
    event, token = made["id"], made["token"]
    context = browser.new_context()
    problems: list[str] = []
    try:
        public, player = context.new_page(), context.new_page()
        for page in (public, player):
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        public.goto(f"{site}/events/{event}")
        public.evaluate("window.notReloaded = true")
        assert "player-21" not in public.inner_text("#live")
        status, _ = call(f"{site}/api/v1/events/{event}/records", "POST", GAME.encode(), token,
                         "text/plain")  # fmt: skip
        assert status == 201
        public.wait_for_function(
            "() => document.getElementById('live').textContent.includes('player-21')", timeout=SEEN
        )
        assert public.evaluate("window.notReloaded") is True
        assert public.locator("#updated").is_visible()

        player.goto(f"{site}/events/{event}/players/1")
        player.evaluate("window.notReloaded = true")
        before = player.inner_text("#live")
        status, _ = call(f"{site}/api/v1/events/{event}/records/1/exclude", "POST",
                         {"reason": "a test"}, token)  # fmt: skip
        assert status == 200
        player.wait_for_function(
            "(before) => document.getElementById('live').innerText !== before",
            arg=before,
            timeout=SEEN,
        )
        assert player.evaluate("window.notReloaded") is True
    finally:
        context.close()
    assert problems == []
