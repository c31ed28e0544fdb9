"""Repair suggestions on the page, in chromium: beside a refused move the viewer offers the
best three, escaped; "Show with this correction" replays the record as a corrected copy,
labelled as such, with a way back to the uploaded record; the table and the problem list
name them too; the page still passes the accessibility audit.

The reports come from a server in this process whose adjudication adds the suggestions of
:mod:`tests.service.suggested` (the search that makes them is not what is tested here).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from arbiter.service.core import batch, diagrams
from arbiter.service.web import create_app
from tests.browser.conftest import screenshot, serious_findings
from tests.service.suggested import SLIPPED, with_suggestions


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The application on a free port of 127.0.0.1, in a thread of this process, its
    reports carrying suggestions for the slipped record; its base URL."""
    patch = pytest.MonkeyPatch()
    patch.setattr(batch, "adjudicate", with_suggestions(batch.adjudicate))
    patch.setattr(diagrams, "adjudicate", with_suggestions(diagrams.adjudicate))
    served = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{served.server_port}"
    finally:
        served.shutdown()
        thread.join(timeout=10)
        served.server_close()
        patch.undo()


def test_suggestions_are_offered_and_a_corrected_copy_is_shown(page: Any) -> None:
    page.fill("#text", SLIPPED)
    page.click("button[data-path='/api/v1/adjudicate']")
    page.wait_for_selector("#v-suggestions li")
    assert "e1 is occupied by a Blue stack; did you mean ply 5 e2?" in page.inner_text("#out")
    items = page.locator("#v-suggestion-list li > span")
    assert items.all_text_contents() == [
        "ply 5 e2 (written e1: rank off by one; then the game replays to Blue+5, as claimed)",
        'ply 5 f1 (written e1: <img src=x onerror="hacked=1">\\x1b[2J; then that ply is legal)',
        "ply 1 d1 (written e1: file off by one; then the game replays to Orange+2, not the "
        "claimed Blue+5)",
    ]
    assert (
        page.locator("#viewer img").count() == 0 and page.evaluate("typeof hacked") == "undefined"
    )
    assert page.locator("#v-moves .v-move.refused").get_attribute("data-ply") == "5"
    assert serious_findings(page) == []
    screenshot(page, "suggestions", "#viewer")

    page.locator("#v-suggestion-list button").first.click()
    page.wait_for_selector("#v-corrected:not([hidden])")
    assert page.text_content("#v-title").startswith("Corrected copy of Pilo 6×6")
    assert page.text_content("#v-corrected-text") == (
        "A corrected copy, not the uploaded record: ply 5 e2 instead of e1. "
        "The uploaded record is unchanged."
    )
    assert "Result\tBlue+5\tBlue+5" in page.inner_text("#v-result")
    fixed = page.locator("#v-moves .v-move.corrected")
    assert fixed.count() == 1 and fixed.get_attribute("data-ply") == "5"
    assert fixed.text_content() == "e2" and page.locator("#v-moves .v-move.refused").count() == 0
    assert page.get_attribute("#v-board", "data-ply") == "51"
    assert page.is_hidden("#v-suggestions") and page.is_hidden("#v-error")
    assert page.text_content("#v-source-title") == "Source as uploaded (without the correction)"
    assert serious_findings(page) == []
    screenshot(page, "corrected-copy", "#viewer")

    page.click("#v-back")
    assert page.text_content("#v-title").startswith("Pilo 6×6")
    assert page.is_hidden("#v-corrected") and page.is_visible("#v-suggestions")
    assert page.locator("#v-moves .v-move.refused").count() == 1


def test_the_problem_list_says_them_and_a_phone_holds_them(page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.fill("#text", SLIPPED)
    page.click("button[data-path='/api/v1/validate']")
    page.wait_for_selector("#out pre")
    lines = page.text_content("#out pre").splitlines()
    assert lines[1:3] == [
        "  did you mean ply 5 e2 (written e1: rank off by one; then the game replays to "
        "Blue+5, as claimed)",
        '  did you mean ply 5 f1 (written e1: <img src=x onerror="hacked=1">\\x1b[2J; then '
        "that ply is legal)",
    ]
    page.click("button[data-path='/api/v1/adjudicate']")
    page.wait_for_selector("#v-suggestions li")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    screenshot(page, "suggestions-390", "#viewer")
