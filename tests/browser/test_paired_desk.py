"""A director runs a 7-round Swiss of 13 players from the desk alone, in chromium, against a
real ``arbiter serve`` (spec/pairings.md): the event created paired, the players added, a
half-point bye and a withdrawal given, each round paired, its records uploaded onto their
boards, a forfeit given without a record; then the public page shows every round, and the
TRF pairs again exactly as the event was paired."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.pairing import check, read_trf
from tests.browser.conftest import screenshot
from tests.browser.test_event_pages import DESKTOP, PHONE, api, site, watched
from tests.events.test_paired import NAMES, game_text
from tests.events.test_server import call

__all__ = ["site"]  # the module's server fixture, shared


def test_a_swiss_run_from_the_desk(browser: Any, site: str, tmp_path: Path) -> None:
    context, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/events")
    page.fill("#new-name", "Winter Swiss")
    page.select_option("#new-game", "Pilo")
    page.fill("#new-rounds", "7")
    page.select_option("#new-pairing", "dutch")
    page.click("#create button[type=submit]")
    page.click("#created a:text('Go to the director')")
    page.wait_for_selector("#who:text('Using a director')")
    event = page.url.rsplit("/", 2)[-2]

    for name, rating in [*NAMES, ("Moen", 1980)]:
        page.fill("#player-name", name)
        page.fill("#player-rating", "" if rating is None else str(rating))
        page.click("#player-add button[type=submit]")
        page.wait_for_selector(f"#players-note:text('{name} is number')")
    assert page.locator("#players tbody tr").count() == 13
    page.fill("#act-player", "11")  # Juhl (number 11 in FIDE's order) asks for a half-point bye
    page.select_option("#act-kind", "half")
    page.fill("#act-round", "2")
    page.click("#player-act button[type=submit]")
    page.wait_for_selector("#players-note:text('Juhl: done')")

    for round_number in range(1, 8):
        if round_number == 4:  # Fink withdraws from round 4 on
            page.fill("#act-player", "7")
            page.select_option("#act-kind", "withdraw")
            page.fill("#act-round", "4")
            page.fill("#act-reason", "ill")
            page.click("#player-act button[type=submit]")
            page.wait_for_selector("#players-note:text('Fink: done')")
        page.click("#pair-next")
        page.wait_for_selector(f"#rounds-note:text('Round {round_number} is paired')")
        paired = api(site, f"/api/v1/events/{event}/rounds/{round_number}")
        files = []
        for board in paired["boards"]:
            if round_number == 2 and board["board"] == 1:
                continue  # a forfeit, given below without a record
            first, second = board["first"], board["second"]
            winner = first if (round_number + board["board"]) % 3 else second
            path = tmp_path / f"r{round_number}-b{board['board']}.grn"
            path.write_text(game_text("Winter Swiss", round_number, first, second, winner))
            files.append(str(path))
        page.set_input_files("#upload-files", files)
        page.click("#upload")
        page.wait_for_selector(f"#upload-result p:text('{len(files)} record(s)')")
        if round_number == 2:
            page.fill("#board-round", "2")
            page.fill("#board-number", "1")
            page.select_option("#board-result", "+-")
            page.fill("#board-reason", "no show")
            page.click("#board-act button[type=submit]")
            page.wait_for_selector("#rounds-note:text('board 1: done')")
        assert api(site, f"/api/v1/events/{event}/rounds/{round_number}")["waiting"] == []
    page.click("#pair-next")
    page.wait_for_selector("#rounds-note:text('planned rounds are all paired')")
    page.reload()
    page.wait_for_selector("#round-shown table")
    screenshot(page, "desk-paired-1280")
    context.close()
    assert problems == [f"409 {site}/api/v1/events/{event}/rounds"]  # the eighth round, refused

    trf = api(site, f"/api/v1/events/{event}/standings?format=trf")
    tournament = read_trf(trf)
    assert tournament.rounds_paired == 7 and len(tournament.players) == 13
    assert check(tournament, "dutch") == []
    assert "### BYE" in trf and "### WDR" in trf and "### RES" in trf

    reader, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events/{event}")
    for round_number in range(1, 8):
        assert page.locator(f"#round-{round_number}").count() == 1
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    screenshot(page, "event-paired-390")
    reader.close()
    assert problems == []


def dutch_event(base: str, name: str, players: int) -> tuple[str, str]:
    """A three-round Dutch event of Pilo, made through the API at ``base``, with the first
    ``players`` of the sample names: its id and its director's token."""
    status, made = call(base, "POST", {"name": name, "game": "Pilo", "rounds": 3,
                                       "pairing": "dutch"})  # fmt: skip
    assert status == 201, made
    event, director = str(made["id"]), str(made["token"])
    listed = [{"name": n, "rating": rating} for n, rating in NAMES[:players]]
    assert call(f"{base}/{event}/players", "POST", {"players": listed}, director)[0] == 201
    return event, director


def open_desk(page: Any, site: str, event: str, director: str) -> None:
    """The event's desk, its director's token kept for the tab as the desk keeps it."""
    page.goto(f"{site}/events/{event}/desk")
    page.evaluate(f"sessionStorage.setItem('arbiter-token:{event}', '{director}')")
    page.reload()
    page.wait_for_selector("#who:text('Using a director')")


def test_the_desk_warns_of_a_change_of_tiebreaks_after_round_one_and_asks_why(
    browser: Any, site: str
) -> None:
    base = f"{site}/api/v1/events"
    event, director = dutch_event(base, "Tie Open", 4)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    asked: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    open_desk(page, site, event, director)
    # before round 1: saved at once, nothing asked
    page.select_option("#settings-tiebreaks select[name=tiebreak-1]", "wins")
    page.select_option("#settings-tiebreaks select[name=tiebreak-3]", "buchholz")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings-note:text('Saved')")
    assert call(f"{base}/{event}")[1]["tiebreaks"][:3] == ["wins", "sonneborn-berger", "buchholz"]
    assert page.locator("#settings-why").is_hidden() and asked == []
    assert call(f"{base}/{event}/rounds", "POST", {}, director)[0] == 201
    # after it: warned, and nothing sent until the reason is given and the change confirmed
    page.select_option("#settings-tiebreaks select[name=tiebreak-1]", "direct")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings-note:text('Round 1 is paired')")
    assert page.locator("#settings-why").is_visible() and asked == []
    assert call(f"{base}/{event}")[1]["tiebreaks"][0] == "wins"
    page.fill("#settings-reason", "the rules of the event")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings-note:text('Saved')")
    assert len(asked) == 1 and "after round 1" in asked[0]
    assert call(f"{base}/{event}")[1]["tiebreaks"][0] == "direct"
    trf = api(site, f"/api/v1/events/{event}/standings?format=trf")
    [line] = [one for one in trf.splitlines() if one.startswith("### TBC")]
    assert line.endswith("reason: the rules of the event")
    # saving the rest alone sends no change of the tie-breaks, and asks nothing
    page.fill("#planned", "4")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#settings-note:text('Saved: 4 planned rounds')")
    assert len(asked) == 1 and page.locator("#settings-why").is_hidden()
    context.close()
    assert errors == []


def test_a_round_robin_is_offered_its_own_tie_breaks_when_created(browser: Any, site: str) -> None:
    """The form offers the tie-breaks of the kind chosen: a round robin's have no Buchholz
    (FIDE C.07; the server refuses it for a round robin), so one is created as it comes; the
    director's own order is kept whatever kind is chosen after."""
    context, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events")

    def offered() -> list[str]:
        return [page.locator(f"#new-tiebreaks select[name=tiebreak-{n}]").input_value()
                for n in range(1, 6)]  # fmt: skip

    assert offered() == ["buchholz", "sonneborn-berger", "wins", "direct", "margin"]
    page.select_option("#new-pairing", "round-robin")
    assert offered() == ["direct", "sonneborn-berger", "wins", "margin", ""]
    page.fill("#new-name", "Spring round robin")
    page.select_option("#new-game", "Pletore")
    screenshot(page, "events-round-robin-390", "#create")
    page.click("#create button[type=submit]")
    link = page.locator("#created a:text('Go to the director')")
    link.wait_for()
    assert split_words(page, "#events-list td:not(.name)") == []  # the row the page adds
    event = (link.get_attribute("href") or "").split("/")[2]
    made = api(site, f"/api/v1/events/{event}")
    assert (made["pairing"], made["tiebreaks"]) == (
        "round-robin", ["direct", "sonneborn-berger", "wins", "margin"]
    )  # fmt: skip
    page.select_option("#new-tiebreaks select[name=tiebreak-1]", "margin")
    page.select_option("#new-pairing", "dutch")  # the director picked: kept
    assert offered() == ["margin", "sonneborn-berger", "wins", "margin", ""]
    page.goto(f"{site}/events")
    screenshot(page, "events-list-390", "#events-box")
    assert split_words(page, "#events-list td:not(.name)") == []
    assert problems == []
    context.close()


def split_words(page: Any, cells: str) -> list[str]:
    """The words of ``cells`` that the page breaks across two lines (a short cell, a game's
    name or "in progress", must not be cut inside a word to make room for a long name)."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const split = [];
            for (const cell of document.querySelectorAll(selector)) {
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const match of node.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(node, match.index);
                        range.setEnd(node, match.index + match[0].length);
                        const lines = new Set([...range.getClientRects()].map(r => r.top));
                        if (lines.size > 1) split.push(match[0]);
                    }
                }
            }
            return split;
        }""",
        cells,
    )
    return found


def test_a_round_robin_left_early_reads_on_a_phone(browser: Any, site: str) -> None:
    """Six players: Ed leaves after round 1 (left out of the standings, with the reason
    shown), Flo after round 3 (half the games played: ranked, and marked as withdrawn);
    their boards are forfeits, so every round is paired. The page fits a phone."""
    base = f"{site}/api/v1/events"
    status, made = call(base, "POST", {"name": "Spring round robin", "game": "Pilo",
                                       "pairing": "round-robin"})  # fmt: skip
    assert status == 201, made
    event, director = made["id"], made["token"]
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    status, added = call(f"{base}/{event}/players", "POST",
                         {"players": [{"name": n} for n in names]}, director)  # fmt: skip
    number = {p["name"]: p["number"] for p in added["players"]}
    for round_number in range(1, 6):
        if round_number in (2, 4):
            name = "Ed" if round_number == 2 else "Flo"
            gone = call(f"{base}/{event}/players/{number[name]}/withdraw", "POST",
                        {"round": round_number, "reason": "left"}, director)  # fmt: skip
            assert gone[0] == 200, gone
        status, paired = call(f"{base}/{event}/rounds", "POST", {}, director)
        assert status == 201, paired
        for board in paired["boards"]:
            if board["result"] is None:
                done = call(f"{base}/{event}/rounds/{round_number}/boards/{board['board']}/result",
                            "PUT", {"result": "1-0", "reason": "played"}, director)  # fmt: skip
                assert done[0] == 200, done
    reader, page, problems = watched(browser, PHONE, site)
    page.goto(f"{site}/events/{event}")
    ranked = page.locator("#standings-1 + div table.standings, section table.standings").first
    assert "Ed" not in ranked.inner_text()
    assert "withdrawn from round 4" in ranked.inner_text()
    assert page.locator("p.note:has-text('Ed withdrew from round 2')").count() == 1
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    screenshot(page, "round-robin-left-early-390", "section[aria-labelledby=standings-1]")
    reader.close()
    assert problems == []
    wide, page, problems = watched(browser, DESKTOP, site)
    page.goto(f"{site}/events/{event}")
    assert "withdrawn from round 4" in page.locator("section table.standings").first.inner_text()
    screenshot(page, "round-robin-left-early-1280", "section[aria-labelledby=standings-1]")
    wide.close()
    assert problems == []


def test_a_round_paired_by_hand_shows_the_systems_pairing_when_it_differs(
    browser: Any, site: str
) -> None:
    """FIDE's checklist (Q69): a pairing by hand that differs from the system's is
    warned of. The desk says the round is paired by hand and, when the system pairs it
    otherwise, shows the system's pairing; when the hand gives the system's own, no more."""
    base = f"{site}/api/v1/events"
    event, director = dutch_event(base, "Hand Open", 5)
    status, engine = call(f"{base}/{event}/rounds", "POST", {}, director)
    assert status == 201, engine
    pairs = ", ".join(f"{b['first_number']}-{b['second_number']}" for b in engine["boards"])
    [bye] = [b["number"] for b in engine["byes"] if b["kind"] == "pairing"]
    context, page, problems = watched(browser, DESKTOP, site)
    open_desk(page, site, event, director)
    page.fill("#manual-boards", "1 2\n3 4\nbye 5")
    page.fill("#manual-reason", "seeded by hand")
    page.click("#manual button[type=submit]")
    note = f"Round 1 is paired by hand. The system pairs it otherwise: {pairs}; bye {bye}."
    page.wait_for_selector(f"#rounds-note:text('{note}')")
    own = "\n".join(f"{b['first_number']} {b['second_number']}" for b in engine["boards"])
    page.fill("#manual-boards", f"{own}\nbye {bye}")
    page.click("#manual button[type=submit]")
    page.wait_for_selector("#rounds-note:text-is('Round 1 is paired by hand.')")
    context.close()
    assert problems == []
