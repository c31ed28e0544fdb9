"""The pages players read and the desk that repairs, in chromium against a real ``arbiter
serve`` and database (spec/events.md §10): a paired event played through three rounds and an
event of uploads only; every page at 390 and 1280 px with no cell cut and no sideways scroll
of the page, and no serious finding of axe-core; a player found by name; a game's own link
opened in a fresh browser, fetching that record alone; a repair hint applied on the desk and
read on the trail's page; a player's token link that shows no director's control; a token
revoked only once confirmed; an event list that follows its form."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arbiter.service.web.languages import DEFAULT, LANGUAGES, translations
from tests.browser.conftest import screenshot, serious_findings
from tests.browser.test_event_pages import DESKTOP, PHONE, ROUNDS, WIDER, site, watched
from tests.events.test_pages_in_languages import english_messages
from tests.events.test_paired import NAMES, game_text
from tests.service.test_serve import LOCAL

__all__ = ["site"]  # the module's server fixture, shared


CUT = """() => Array.from(document.querySelectorAll("td, th"))
  .filter((c) => c.offsetParent !== null && c.scrollWidth > c.clientWidth + 1)
  .slice(0, 5).map((c) => c.tagName + " " + c.textContent.trim().slice(0, 40)
                          + " " + c.scrollWidth + ">" + c.clientWidth)"""
"""The table cells whose content does not fit them (cut, or spilling out)."""


def send(site: str, path: str, token: str | None = None, payload: Any = None,
         method: str = "POST", data: bytes | None = None) -> Any:  # fmt: skip
    """A request to the API, as a script would send it; its JSON answer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if payload is not None:
        data = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    elif data is not None:
        json_body = data.lstrip()[:1] == b"{" or data.lstrip()[1:].lstrip()[:1] == b"{"
        headers["Content-Type"] = "application/json" if json_body else "text/plain"
    asked = urllib.request.Request(f"{site}{path}", data=data, headers=headers,
                                   method=method if data is not None else "GET")  # fmt: skip
    with LOCAL.open(asked, timeout=60) as answer:
        return json.loads(answer.read())


@dataclass(frozen=True)
class Events:
    """The two events the pages are read on: their ids and director tokens."""

    paired: str
    paired_token: str
    uploads: str
    uploads_token: str


@pytest.fixture(scope="module")
def events(site: str) -> Iterator[Events]:
    """A Swiss of seven players, three rounds played (the last with a board that waits and a
    refused record on its board), and the sample tournament uploaded to an event without
    pairings."""
    made = send(site, "/api/v1/events", payload={"name": "Spring Swiss", "game": "Pilo",
                                                 "rounds": 4, "pairing": "dutch"})  # fmt: skip
    paired, token = made["id"], made["token"]
    base = f"/api/v1/events/{paired}"
    send(site, f"{base}/players", token, {"players": [{"name": n, "rating": r}
                                                      for n, r in NAMES[:7]]})  # fmt: skip
    for round_number in (1, 2, 3):
        boards = send(site, f"{base}/rounds", token, {})["boards"]
        for board in boards:
            if round_number == 3 and board["board"] == 3:
                continue  # waits for its record
            first, second = board["first"], board["second"]
            winner = first if (round_number + board["board"]) % 2 else second
            text = game_text("Spring Swiss", round_number, first, second, winner)
            send(site, f"{base}/records", token, data=text.encode())
    uploads = send(site, "/api/v1/events", payload={"name": "Autumn Open", "game": "Pilo",
                                                    "rounds": 5})  # fmt: skip
    for path in ROUNDS:
        send(site, f"/api/v1/events/{uploads['id']}/records", uploads["token"],
             data=path.read_bytes())  # fmt: skip
    yield Events(paired, token, uploads["id"], uploads["token"])


def signed_in(page: Any, site: str, event: str, token: str) -> None:
    """The desk of ``event``, with the director's token given."""
    page.goto(f"{site}/events/{event}/desk")
    page.fill("#token", token)
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#who:text('Using a director')")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_page_fits_a_phone_and_a_desktop_with_no_cell_cut(
    browser: Any, site: str, events: Events, code: str
) -> None:
    """In each language, asked by the browser as a player's is (``Accept-Language``)."""
    english = (
        []
        if code == "en"
        else [one for one in english_messages() if translations(code).gettext(one) != one]
    )
    pages = {}
    for kind, event in (("paired", events.paired), ("uploads", events.uploads)):
        pages |= {
            f"{kind}-event": f"/events/{event}",
            f"{kind}-round-1": f"/events/{event}/rounds/1",
            f"{kind}-round-3": f"/events/{event}/rounds/3",
            f"{kind}-player": f"/events/{event}/players/2",
            f"{kind}-log": f"/events/{event}/log",
            f"{kind}-desk": f"/events/{event}/desk",
            f"{kind}-find": f"/events/{event}/find?name=e",
            f"{kind}-upload": f"/events/{event}/upload?player=1",
        }
    pages |= {
        "paired-game": f"/events/{events.paired}/rounds/2/boards/1",
        "uploads-game": f"/events/{events.uploads}/records/14",
        "events": "/events",
    }
    for size, viewport in (("390", PHONE), ("1280", DESKTOP)):
        locale = None if code == DEFAULT else code  # the browser's Accept-Language
        context, page, problems = watched(browser, viewport, site, locale)
        for name, path in pages.items():
            page.goto(f"{site}{path}")
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.lang") == code, name
            shown = page.evaluate("document.body.innerText")
            left = [one for one in english if one in shown]
            assert left == [], f"{name} at {size} px in {code}: {left[:3]}"
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{name} at {size} px: " + str(page.evaluate(WIDER))
            assert page.evaluate(CUT) == [], f"{name} at {size} px: a cell is cut"
            screenshot(page, f"pages-{name}-{size}" + ("" if code == DEFAULT else f"-{code}"))
            serious = serious_findings(page)
            assert serious == [], f"{name} at {size} px: {serious}"
        context.close()
        assert problems == []


def test_a_round_is_shown_by_board_before_its_results(
    browser: Any, site: str, events: Events
) -> None:
    context, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events/{events.paired}/rounds/3")
    cards = page.locator("table.games tbody tr")
    assert cards.count() == 3
    assert page.locator("table.games tbody tr >> nth=2").inner_text().count("waits") >= 1
    assert "still to come" in page.inner_text("#meta")
    assert page.locator("h2:text('Standings after round 3')").count() == 1
    assert "pairing-allocated bye" in page.inner_text("main")
    # on a phone the games are cards: each cell says what it is
    label = page.evaluate(
        "getComputedStyle(document.querySelector('table.games td'), '::before').content"
    )
    assert label == '"Board"'
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden()
    screenshot(page, "pages-round-3-print")
    context.close()
    assert problems == []


def test_a_player_finds_their_name_and_their_games(browser: Any, site: str, events: Events) -> None:
    context, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events/{events.paired}")
    page.fill("form.find input[name=name]", "costa")
    page.click("form.find button[type=submit]")
    page.wait_for_selector("h1:text('Costa')")
    assert "/players/" in page.url
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 3
    first = page.inner_text("table.games tbody tr >> nth=0")
    assert "board" in first and ("won" in first or "lost" in first)
    page.go_back()
    page.click("table.standings th.player a >> nth=0")
    page.wait_for_selector("p.meta:text('place 1')")
    context.close()
    assert problems == []


def test_a_games_own_link_opens_that_record_alone_in_a_fresh_browser(
    browser: Any, site: str, events: Events
) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/events/{events.paired}/rounds/2")
    link = page.get_attribute("table.games tbody tr >> nth=0 >> a:text('Open')", "href")
    context.close()
    assert link == f"/events/{events.paired}/rounds/2/boards/1"

    fresh, page, problems = watched(browser, PHONE, site)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{site}{link}")
    page.wait_for_selector("#v-board svg")
    title = page.text_content("#v-title") or ""
    heading = page.text_content("h1") or ""
    assert title.startswith(f"{heading} — Pilo 6×6"), title
    assert heading.startswith("Round 2 · Board 1 · ")
    assert "Official result" in page.inner_text("dl.facts")
    assert not [url for url in asked if "/uploads/" in url]
    assert [url for url in asked if url.endswith("/text")]
    screenshot(page, "pages-game-own-link-390")
    fresh.close()
    assert problems == []


def test_a_hint_is_applied_on_the_desk_and_read_on_the_trail(
    browser: Any, site: str, events: Events
) -> None:
    context, page, problems = watched(browser, PHONE, site)
    signed_in(page, site, events.uploads, events.uploads_token)
    page.select_option("#records-filter", "attention")
    hint = page.locator("form.repair", has_text="ply 31 c4").first  # as the scoresheet has it
    refused = hint.get_attribute("data-record")
    status = page.inner_text(f"tr[data-record='{refused}'] .status")
    assert status.startswith("does not count: illegal-move at ply 31")
    hint.locator("input[name=reason]").fill("c3 copied for c4 from the scoresheet")
    screenshot(page, "pages-desk-hint-390")
    hint.locator("button").click()
    page.wait_for_selector("#records-note:text('repaired')")
    note = page.inner_text("#records-note")
    assert "its corrected copy is record 17, which counts" in note, note
    assert f"record {refused} is kept and does not count: excluded" in note
    page.goto(f"{site}/events/{events.uploads}/log")
    trail = page.inner_text("ol.trail")
    assert "c3 copied for c4 from the scoresheet" in trail
    assert f"corrected copy of record {refused} (ply 31 c4 for c3)" in trail
    assert "director (director token 1)" in trail
    screenshot(page, "pages-log-after-repair-390")
    context.close()
    assert problems == []


def test_a_players_link_uploads_and_shows_no_directors_control(
    browser: Any, site: str, events: Events, tmp_path: Path
) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    signed_in(page, site, events.paired, events.paired_token)
    page.wait_for_selector("#players tbody tr")
    page.click("#players tbody tr >> nth=4 >> button")
    link = page.input_value("#issued .link-box input")
    assert "#token=arb_" in link and "?player=5" in link
    name = page.inner_text("#players tbody tr >> nth=4 >> td >> nth=1")
    context.close()
    assert problems == []

    player, page, problems = watched(browser, PHONE, site)
    page.goto(link)
    page.wait_for_selector("#upload-who:text('Ready')")
    assert "#" not in page.url and "arb_" not in page.url  # the token left the address
    assert page.locator("h2#board-title").inner_text() == name
    for control in ("#pair-next", "#correct", "#issue", "#finalise", "form.repair", "#tokens"):
        assert page.locator(control).count() == 0, control
    rounds = send(site, f"/api/v1/events/{events.paired}/rounds/3")
    board = next(b for b in rounds["boards"] if b["board"] == 3)
    path = tmp_path / "mine.grn"
    path.write_text(game_text("Spring Swiss", 3, board["first"], board["second"], board["first"]))
    page.set_input_files("#upload-files", str(path))
    page.click("#upload")
    page.wait_for_selector("#upload-result li")
    assert "waits for the director's confirmation" in page.inner_text("#upload-result")
    screenshot(page, "pages-player-upload-390")
    # the same token on the desk: the director's controls are not shown to it
    page.goto(f"{site}/events/{events.paired}/desk")
    page.wait_for_selector("#who:text('upload token')")
    directors = page.locator("section[data-director]")
    assert directors.count() >= 4
    assert all(directors.nth(n).is_hidden() for n in range(directors.count()))
    assert page.locator("#upload").is_visible()
    player.close()
    # the desk learns the token's role by asking the director's list of tokens: refused
    assert problems == [f"403 {site}/api/v1/events/{events.paired}/tokens"]


def test_revoking_asks_first_and_the_list_follows_a_new_event(
    browser: Any, site: str, events: Events
) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    signed_in(page, site, events.uploads, events.uploads_token)
    page.fill("#issue-label", "deputy")
    page.click("#issue button[type=submit]")
    page.wait_for_selector("#tokens tbody tr >> nth=1")
    context.close()
    assert problems == []

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    asked: list[str] = []
    answers = iter([False, True])  # the first time, cancelled

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if next(answers):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    signed_in(page, site, events.uploads, events.uploads_token)
    page.wait_for_selector("#tokens tbody tr >> nth=1")
    revoke = page.locator("#tokens button[aria-label*='deputy']")
    revoke.click()
    assert asked and "Revoke token" in asked[0]
    assert "active" in page.inner_text("#tokens tbody tr >> nth=-1")
    revoke.click()
    page.wait_for_selector("#issued:text('is revoked')")
    assert len(asked) == 2

    page.goto(f"{site}/events")
    before = page.locator("#events-list tbody tr").count()
    page.fill("#new-name", "Autumn Open")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created:text('named')")
    assert page.locator("#events-list tbody tr").count() == before
    page.select_option("#new-tiebreaks select >> nth=0", "wins")
    page.click("#create button[type=submit]")  # the same name, once warned
    page.wait_for_selector("#created code.secret")
    assert page.locator("#events-list tbody tr").count() == before + 1
    made = page.get_attribute("#events-list tbody tr >> nth=0 >> a", "href") or ""
    shown = send(site, f"/api/v1{made}")
    assert shown["tiebreaks"][0] == "wins" and shown["name"] == "Autumn Open"
    context.close()
