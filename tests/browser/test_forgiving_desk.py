"""A director runs a 4-round Swiss from the desk alone, in chromium, against a real
``arbiter serve``, through the usual mistakes (spec/events.md §5, §10; spec/pairings.md §8):
every button double-clicked, a player entered by mistake and removed, a rating and a name
corrected, a bye asked for and cancelled, a withdrawal taken back, records with names
written loosely, one misspelt and placed from the desk's suggestion in a click, a swapped
game, a forfeit. Not one request is refused; the TRF pairs again as the event was paired;
the receipts kept by the browser verify; the pages say who won.

With ``ARBITER_BBP`` naming a bbpPairings binary, its checker reads the TRF too."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from arbiter.pairing import check, read_trf
from tests.browser.conftest import screenshot
from tests.browser.test_event_pages import DESKTOP, PHONE, WIDER, api, site, watched
from tests.events.test_desk import game

__all__ = ["site"]  # the module's server fixture, shared

PLAYERS = [
    ("Ana Ruiz", 2100),
    ("Bo Chen", 1700),  # typed wrong: 1900, corrected before round 1
    ("Ilić Marko", 2000),
    ("Søren Dahl", 1950),
    ("P5", 1850),
    ("Emil Eze", 1800),
    ("Fay Fink", 1750),
    ("Gus Gaal", 1650),
    ("Hana Holm", 1600),
]


def loose(name: str, how: int) -> str:
    """``name`` as a scoresheet writes it: in lower case, without accents, as ``Surname,
    Given``, or with a trailing space."""
    given, _, surname = name.partition(" ")
    plain = name.replace("ć", "c").replace("ø", "o")
    return [name.lower(), plain, f"{surname}, {given}" if surname else name.lower(), name + " "][
        how % 4
    ]


CUT = """() => Array.from(document.querySelectorAll('td.num, .nums')).filter((e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
  return lines.size > 1;
}).map((e) => e.tagName + '.' + e.className + ': ' + e.textContent)"""
"""The numbers (ranks, points, ratings) whose text is on more than one line."""


def click_twice(page: Any, selector: str) -> None:
    """A double click, as an impatient director gives it."""
    page.locator(selector).first.dblclick()


def no_refusal(page: Any, note: str) -> None:
    assert "warning" not in (page.get_attribute(note, "class") or ""), page.inner_text(note)


def player_button(page: Any, name: str, text: str) -> Any:
    row = page.locator("#players tbody tr", has_text=name)
    return row.get_by_role("button", name=f"{text} ({name})")


def fix(page: Any, player: str, button: str, reason: str, **fields: str) -> None:
    """Fill the desk's correction form from a player's button, and apply it twice over."""
    player_button(page, player, button).click()
    for field, value in fields.items():
        page.fill(f"#fix-{field}", value)
    page.fill("#fix-reason", reason)
    click_twice(page, "#player-fix button[type=submit]")
    page.wait_for_function("() => document.getElementById('fix-reason').value === ''")
    no_refusal(page, "#players-note")


def test_a_swiss_run_from_the_desk_through_every_mistake(
    browser: Any, site: str, tmp_path: Path
) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/events")
    page.fill("#new-name", "Forgiving Swiss")
    page.select_option("#new-game", "Pilo")
    page.fill("#new-rounds", "4")
    page.select_option("#new-pairing", "dutch")
    click_twice(page, "#create button[type=submit]")
    page.click("#created a:text('Go to the director')")
    page.wait_for_selector("#who:text('Using a director')")
    event = page.url.rsplit("/", 2)[-2]
    base = f"/api/v1/events/{event}"
    named = [e for e in api(site, "/api/v1/events")["events"] if e["name"] == "Forgiving Swiss"]
    assert len(named) == 1  # created once

    for name, rating in [*PLAYERS[:4], ("Mistake Person", 1900), *PLAYERS[4:]]:
        page.fill("#player-name", name)
        page.fill("#player-rating", str(rating))
        click_twice(page, "#player-add button[type=submit]")
        page.wait_for_selector(f"#players-note:text('{name} is number')")
    fix(page, "Mistake Person", "Remove…", "entered twice")
    fix(page, "Bo Chen", "Correct…", "rating typed wrong", rating="1900")
    players = {p["name"]: p for p in api(site, f"{base}/players")["players"]}
    assert "Mistake Person" not in players and len(players) == 9
    assert players["Bo Chen"]["number"] == 4  # FIDE's order again: 2100, 2000, 1950, 1900
    page.fill("#act-player", str(players["Emil Eze"]["number"]))
    page.select_option("#act-kind", "half")
    page.fill("#act-round", "2")
    click_twice(page, "#player-act button[type=submit]")
    page.wait_for_selector("#players-note:text('Emil Eze: done')")
    fix(page, "Emil Eze", "Cancel round 2 bye…", "plays after all")
    assert api(site, f"{base}/players")["players"][players["Emil Eze"]["number"] - 1]["byes"] == []

    misspelt = placed = swapped = forfeit = 0
    for round_number in range(1, 5):
        if round_number == 2:  # Fay withdraws from round 2 (and comes back after it)
            page.fill("#act-player", str(players["Fay Fink"]["number"]))
            page.select_option("#act-kind", "withdraw")
            page.fill("#act-round", "2")
            page.fill("#act-reason", "train late")
            click_twice(page, "#player-act button[type=submit]")
            page.wait_for_selector("#players-note:text('Fay Fink: done')")
        click_twice(page, "#pair-next")
        page.wait_for_selector(f"#rounds-note:text('Round {round_number} is paired')")
        no_refusal(page, "#rounds-note")
        if round_number == 2:
            fix(page, "Fay Fink", "Take the withdrawal back…", "arrived")
            fix(page, "Hana Holm", "Correct…", "name misspelt on entry", name="Hanna Holm")
        paired = api(site, f"{base}/rounds/{round_number}")
        files = []
        for board in paired["boards"]:
            first, second, number = board["first"], board["second"], board["board"]
            if round_number == 1 and number == 1:
                page.fill("#board-round", "1")
                page.fill("#board-number", "1")
                page.select_option("#board-result", "+-")
                page.fill("#board-reason", "no show")
                click_twice(page, "#board-act button[type=submit]")
                page.wait_for_selector("#rounds-note:text('board 1: done')")
                forfeit += 1
                continue
            winner = first if (round_number + number) % 2 else second
            blue, orange = loose(first, number + round_number), loose(second, number)
            if round_number == 1 and number == 2:
                orange = second[:-1] + "x"  # misspelt: fits no board
                misspelt += 1
            swap = round_number == 3 and number == 2
            swapped += swap
            path = tmp_path / f"r{round_number}-b{number}.grn"
            path.write_text(game("Forgiving Swiss", round_number, blue, orange,
                                 blue if winner == first else orange, swap=swap))  # fmt: skip
            files.append(str(path))
        page.set_input_files("#upload-files", files)
        click_twice(page, "#upload")
        page.wait_for_selector(f"#upload-result p:text('{len(files)} record(s)')")
        assert "sent before" not in page.inner_text("#upload-result")
        if round_number == 1:
            place = page.locator("form.place").first
            assert "Did you mean round 1 board 2" in place.inner_text()
            place.locator("button").dblclick()
            page.wait_for_selector("#records-note:text('is placed on round 1 board 2')")
            placed += 1
        finished = api(site, f"{base}/rounds/{round_number}")
        assert finished["waiting"] == [], finished
    assert (misspelt, placed, swapped, forfeit) == (1, 1, 1, 1)
    click_twice(page, "#pair-next")  # every planned round paired: refused, and said so
    page.wait_for_selector("#rounds-note:text('planned rounds are all paired')")
    assert problems == [f"409 {site}{base}/rounds"]
    problems.clear()

    # the receipts this browser kept: listed, checked in one click, downloaded
    kept = page.locator("#receipts tbody tr").count()
    log = api(site, f"{base}/log")["log"]
    click_twice(page, "#receipts-check")
    page.wait_for_selector(f"#receipts-note:text('All {kept} receipt(s) hold')")
    with page.expect_download() as done:
        page.click("#receipts-download")
    receipts = json.loads(Path(done.value.path()).read_text())
    assert len(receipts) == kept and {r["event"] for r in receipts} == {event}
    entries = {(entry["number"], entry["hash"]) for entry in log}
    assert {(r["entry"], r["hash"]) for r in receipts} <= entries
    assert max(r["entry"] for r in receipts) == len(log)  # the last change's, kept too
    assert kept >= 25  # one a change made: players, corrections, rounds, uploads, a placement
    screenshot(page, "desk-forgiving-1280")
    context.close()
    assert problems == []

    # the TRF pairs again as the event was paired, with every change in its comments
    trf = api(site, f"{base}/standings?format=trf")
    tournament = read_trf(trf)
    assert tournament.rounds_paired == 4 and len(tournament.players) == 9
    assert check(tournament, "dutch") == []
    for code in ("### DEL", "### CHG", "### BYE", "### WDR", "### PLC", "### RES"):
        assert code in trf, code
    assert "Hanna Holm" in trf and "Mistake" not in trf.split("###", 1)[0]
    bbp = os.environ.get("ARBITER_BBP")
    if bbp:
        path = tmp_path / "event.trf"
        path.write_text(trf)
        checked = subprocess.run([bbp, "--dutch", str(path), "-c"], capture_output=True, text=True)
        said = checked.stdout + checked.stderr  # a round header each, and any discrepancy
        assert checked.returncode == 0 and "Checker pairings" not in said, said

    # the pages say who won, on a phone, without a number cut in two
    reader, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events/{event}/rounds/1")
    shown = page.inner_text("main")
    assert " won, " in shown and "won by forfeit" in shown and "given by the director" in shown
    assert page.evaluate(WIDER) == []
    screenshot(page, "round-forgiving-390")
    assert page.evaluate(CUT) == []
    page.goto(f"{site}/events/{event}")
    assert "all 4 rounds played" in page.inner_text("#meta")
    reader.close()
    assert problems == []
