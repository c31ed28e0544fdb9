"""The events' pages in chromium, against a real ``arbiter serve`` keeping events in a real
database (spec/events.md §10): a director creates an event and runs it from the desk, a
player reads the public page in another browser without the token, every page fits a
phone (390 px) and a desktop (1280 px) and passes an accessibility audit (axe-core), and a
player named ``<img src=x onerror=alert(1)>`` is shown as text everywhere."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import screenshot, serious_findings
from tests.service.test_serve import LOCAL, running_server

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = sorted((ROOT / "samples" / "tournament").iterdir())
HOSTILE = "<img src=x onerror=alert(1)>"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server with its own SQLite database."""
    folder = tmp_path_factory.mktemp("events")
    with running_server("--database", f"sqlite:///{folder / 'events.sqlite3'}") as url:
        yield url


@pytest.fixture(scope="module")
def round_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The tournament's files, with player-01 renamed to something that would be markup."""
    folder = tmp_path_factory.mktemp("rounds")
    out = []
    for path in ROUNDS:
        copy = folder / path.name
        copy.write_bytes(path.read_bytes().replace(b"player-01", HOSTILE.encode()))
        out.append(copy)
    return out


def watched(
    browser: Any, viewport: dict[str, int], site: str, locale: str | None = None
) -> tuple[Any, Any, list[str]]:
    """A new context and page whose problems (a failed request, a script error, a dialog:
    markup that ran) are collected; ``locale``: the browser's language (``es-ES``), which
    its ``Accept-Language`` asks for."""
    context = browser.new_context(viewport=viewport, **({"locale": locale} if locale else {}))
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on(
        "request",
        lambda r: None if r.url.startswith(site) else problems.append(f"outside: {r.url}"),
    )
    return context, page, problems


WIDER = """() => Array.from(document.querySelectorAll("body *"))
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
  .filter((e) => !(e.parentElement && e.parentElement.closest(".scroll"))
                 || getComputedStyle(e).position === "absolute")
  .slice(0, 5).map((e) => e.tagName + "." + e.className + " " + e.getBoundingClientRect().right)"""
"""The elements that stick out of the page at its width (those in a scrolling box do not)."""


def api(site: str, path: str) -> Any:
    with LOCAL.open(urllib.request.Request(f"{site}{path}"), timeout=30) as answer:
        raw = answer.read()
        kind = answer.headers.get_content_type()
    return json.loads(raw) if kind == "application/json" else raw.decode()


def created_event(browser: Any, site: str, round_files: list[Path]) -> tuple[str, str]:
    """Create an event on the events page and run it from the desk: the rounds uploaded,
    one result corrected with a reason, the planned rounds set, a player's token issued."""
    context, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/events")
    page.fill("#new-name", f"Autumn Open {HOSTILE}")
    page.select_option("#new-game", "Pilo")
    page.fill("#new-rounds", "5")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created:not(:empty)")
    if page.locator("#created code.secret").count() == 0:  # warned: another has that name
        page.click("#create button[type=submit]")
    token = page.text_content("#created code.secret") or ""
    assert token.startswith("arb_")
    page.click("#created a:text('Go to the director')")
    page.wait_for_selector("#who:text('Using a director')")
    event = page.url.rsplit("/", 2)[-2]
    assert token not in page.url

    page.set_input_files("#upload-files", [str(path) for path in round_files])
    page.click("#upload")
    page.wait_for_selector("#upload-result li")
    assert page.locator("#upload-result li").count() == 16
    assert "illegal-move" in page.text_content("#upload-result") or ""
    page.wait_for_selector("#desk-records tr.record")
    assert page.locator("#desk-records tr.record").count() == 16

    page.fill("#correct-record", "3")
    page.select_option("#correct-action", "set-result")
    page.fill("#correct-result", "Blue+F")
    page.fill("#correct-reason", "Orange did not come to the board")
    page.click("#correct button[type=submit]")
    page.wait_for_selector("#correct-note:text('official result Blue+F: counts')")

    page.fill("#planned", "6")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings-note:text('6 planned rounds')")
    page.fill("#issue-label", "player-07")
    page.click("#issue button[type=submit]")
    page.wait_for_selector("#issued .link-box input")  # an upload token comes as a link
    assert "#token=arb_" in page.input_value("#issued .link-box input")
    page.wait_for_selector("#tokens tbody tr >> nth=1")
    screenshot(page, "desk-in-use-1280")
    context.close()
    assert problems == []
    return event, token


def test_a_director_runs_an_event_and_a_player_reads_it_without_the_token(
    browser: Any, site: str, round_files: list[Path]
) -> None:
    event, token = created_event(browser, site, round_files)
    context, page, problems = watched(browser, PHONE, site)  # another browser, no token
    page.goto(f"{site}/events/{event}")
    document = api(site, f"/api/v1/events/{event}/standings")
    shown = [
        [cell.strip() for cell in row.split("\t")]
        for row in page.inner_text("table.standings tbody").strip().splitlines()
    ]
    assert [(int(r[0]), r[1], int(r[2])) for r in shown] == [
        (s["rank"], s["player"], s["points"]) for s in document["standings"]
    ]
    # short headings on a phone, each named in full in the legend under the table
    assert page.locator("table.standings thead th").all_inner_texts()[4:] == [
        "BH",
        "SB",
        "Wins",
        "DE",
        "Mgn",
    ]
    assert page.locator("dl.tiebreaks dt").all_inner_texts()[0] == "BH, Buchholz"
    assert page.locator("td.player", has_text=HOSTILE).count() >= 2  # text, not an image
    assert page.locator("img").count() == 0
    corrections = page.inner_text("h2:text('Corrections') + ul")
    assert "official result Blue+F (the adjudicator: Orange+2)" in corrections
    assert "reason: Orange did not come to the board" in corrections
    games = page.inner_text("section[aria-labelledby=round-1] table.games")
    assert "Blue+F" in games and "official" in games and "Orange+2, valid" in games
    page.locator("button.view").first.click()
    page.wait_for_selector("#v-board svg")
    screenshot(page, "event-390-viewer")
    trf = api(site, f"/api/v1/events/{event}/standings?format=trf")
    assert "XXR 6" in trf and "### " in trf and "Orange did not come to the board" in trf
    assert token not in page.content()
    context.close()
    assert problems == []


def test_every_page_fits_a_phone_and_a_desktop_and_passes_the_audit(
    browser: Any, site: str, round_files: list[Path]
) -> None:
    event, _ = created_event(browser, site, round_files)
    pages = {
        "index": "/",
        "events": "/events",
        "event": f"/events/{event}",
        "desk": f"/events/{event}/desk",
        "standings-html": f"/api/v1/events/{event}/standings?format=html",
    }
    for size, viewport in (("390", PHONE), ("1280", DESKTOP)):
        context, page, problems = watched(browser, viewport, site)
        for name, path in pages.items():
            page.goto(f"{site}{path}")
            page.wait_for_load_state("networkidle")
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{name} at {size} px is {width[0]} px wide: " + str(
                page.evaluate(WIDER)
            )
            screenshot(page, f"{name}-{size}")
            serious = serious_findings(page)
            assert serious == [], f"{name} at {size} px: {serious}"
        context.close()
        assert problems == []


def test_the_standings_view_of_the_front_page_keeps_its_list_of_files(
    browser: Any, site: str
) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/")
    page.set_input_files("#standings-files", [str(path) for path in ROUNDS[:2]])
    page.wait_for_selector("#standings-out table")  # computed as soon as files are added
    assert page.locator("#standings-list li").count() == 2
    page.set_input_files("#standings-files", [str(ROUNDS[0])])  # already in the list
    page.wait_for_selector("#standings-status:text('Already in the list')")
    assert page.locator("#standings-list li").count() == 2
    before = page.inner_text("#standings-out table")
    page.click("#standings-list li >> nth=1 >> button")  # take round 2 out
    page.wait_for_function("document.querySelectorAll('#standings-list li').length === 1")
    page.wait_for_function(
        "before => { const t = document.querySelector('#standings-out table');"
        " return t !== null && t.innerText !== before; }",
        arg=before,
    )
    assert "Buchholz" in page.inner_text("#standings-out th >> nth=4")
    assert page.locator("#standings-out dl.tiebreaks dt").count() == 5
    page.fill("#standings-rounds", "7")
    with page.expect_download() as download:
        page.click("button[data-standings-format=trf]")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "XXR 7" in text
    context.close()
    assert problems == []
