"""The web page as a person uses it, in chromium: paste records, adjudicate, see each on its
board, step through the plies, find the refused move marked on the board, in the move list
and in the source; which input is judged is never in doubt; the viewer's pictures are the
API's; a long record is stepped through without asking the server again."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from arbiter.adjudicator import get_rules
from arbiter.diagram.svg import REFUSED
from arbiter.notation.ast import Record, Turn
from arbiter.notation.grn_writer import write_grn
from tests.browser.conftest import screenshot

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
VALID = (SAMPLES / "pilo" / "valid" / "02-blitz-6x6.grn").read_text(encoding="utf-8")
ILLEGAL = (SAMPLES / "petrify" / "invalid" / "04-barricade-7x7.grn").read_text(encoding="utf-8")
ONE_OF_EACH = {
    "pilo": "pilo/valid/01-club-ladder-8x8-swap.grn",
    "petrify": "petrify/valid/03-tiebreak-7x7.grn",
    "implo": "implo/valid/01-club-ladder-8x8.grn",
    "pletore": "pletore/valid/01-ladder-9x9-button.grn",
    "pilare": "pilare/invalid/turn_back_6x6.grn",
}


def adjudicate(page: Any, text: str) -> None:
    """Paste ``text``, press Adjudicate, and wait for the first record's board."""
    page.fill("#text", text)
    page.click("button[data-path='/api/v1/adjudicate']")
    page.wait_for_selector("#v-board svg")


def shown_ply(page: Any) -> int:
    return int(page.get_attribute("#v-board", "data-ply"))


def test_a_valid_record_is_shown_on_its_board_and_stepped_through(page: Any) -> None:
    adjudicate(page, VALID)
    assert page.text_content("#status").startswith("Judged the pasted text: 1 record(s), 0 invalid")
    assert shown_ply(page) == 51  # the last ply first
    assert "Game over: Blue+5" in page.text_content("#v-caption")
    result = page.inner_text("#v-result")
    assert "Result\tBlue+5\tBlue+5" in result
    assert "claim holds" in page.inner_text("#v-result tr.ok td:last-child")
    assert "Scores" in result and "Blue 14 · Orange 9" in result
    page.click("#v-first")
    assert shown_ply(page) == 0 and "Blue to move" in page.text_content("#v-caption")
    assert page.locator("#v-board svg g[transform]").count() == 0  # an empty board
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shown_ply(page) == 2
    current = page.locator("#v-moves .v-move.current")
    assert current.count() == 1 and current.get_attribute("data-ply") == "2"
    assert page.locator("#v-board svg g[transform]").count() == 2
    page.locator("#v-moves .v-move[data-ply='10']").click()
    assert shown_ply(page) == 10 and page.input_value("#v-slider") == "10"
    page.fill("#v-slider", "30")  # the slider, as a pointer would move it
    assert shown_ply(page) == 30
    page.keyboard.press("End")
    assert shown_ply(page) == 51
    screenshot(page, "valid-record")


def test_an_illegal_record_shows_the_refused_move(page: Any) -> None:
    adjudicate(page, ILLEGAL)
    assert "1 invalid" in page.text_content("#status")
    assert shown_ply(page) == 26 and page.get_attribute("#v-board", "data-refused") == "true"
    svg = page.inner_html("#v-board")
    assert f'stroke="{REFUSED}"' in svg and "stroke-dasharray" in svg
    assert "13. Orange c6xd6 refused" in page.text_content("#v-caption")
    refused = page.locator("#v-moves .v-move.refused")
    assert refused.count() == 1 and refused.get_attribute("data-ply") == "26"
    assert "current" in (refused.get_attribute("class") or "")
    assert page.locator("#v-moves .v-move.unplayed").count() == 72 - 26
    assert "barricade" in page.text_content("#v-error")
    error_line = page.locator("#v-source .error-line")
    assert error_line.count() == 1 and "13. c2 c6xd6" in error_line.text_content()
    screenshot(page, "refused-move")
    screenshot(page, "refused-move-board", "#v-board")
    page.keyboard.press("ArrowLeft")
    assert shown_ply(page) == 25 and "stroke-dasharray" not in page.inner_html("#v-board")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # no ply after the refused one
    assert shown_ply(page) == 26


def test_the_viewers_picture_is_the_apis_diagram(page: Any) -> None:
    adjudicate(page, ILLEGAL)
    for ply in (0, 13, 26):
        page.evaluate(f"arbiterViewer.go({ply})")
        drawn = page.request.post(
            f"{page.base_url}/api/v1/diagram?ply={ply}&caption=false",
            data=ILLEGAL.encode(),
            headers={"Content-Type": "text/plain"},
        )
        assert page.evaluate("arbiterViewer.current()") == drawn.text()


def test_pasting_text_drops_a_chosen_file(page: Any, tmp_path: Path) -> None:
    chosen = tmp_path / "implo.grn"
    chosen.write_text((SAMPLES / "implo/valid/01-club-ladder-8x8.grn").read_text("utf-8"))
    page.fill("#text", VALID)
    page.set_input_files("#files", str(chosen))
    note = page.text_content("#judging")
    assert "the chosen file implo.grn" in note and "text box is ignored" in note
    page.click("button[data-path='/api/v1/adjudicate']")
    page.wait_for_selector("#v-board svg")
    assert "Judged implo.grn" in page.text_content("#status")
    assert page.text_content("#v-title").startswith("Implo 8×8 — implo.grn")
    screenshot(page, "file-chosen")
    # Now a Petrify record is pasted: the file is dropped, and the pasted record is judged.
    page.fill("#text", "")
    page.locator("#text").press_sequentially(ILLEGAL[:40])
    page.fill("#text", ILLEGAL)
    assert page.evaluate("document.getElementById('files').files.length") == 0
    assert page.text_content("#judging") == "Judging: the pasted text."
    page.click("button[data-path='/api/v1/adjudicate']")
    # A locator's wait, not wait_for_function: a predicate given as text that is not true at
    # once is evaluated again by the page, which the page's policy (no eval) refuses.
    page.locator("#v-title", has_text=re.compile("^Petrify")).wait_for()
    assert "Judged the pasted text: 1 record(s), 1 invalid" in page.text_content("#status")


def test_the_placeholder_looks_like_one_and_the_icon_is_served(page: Any) -> None:
    style = page.evaluate(
        "(() => { const s = getComputedStyle(document.getElementById('text'), '::placeholder');"
        " return [s.color, s.fontStyle]; })()"
    )
    assert style == ["rgb(138, 138, 138)", "italic"]
    assert page.request.get(f"{page.base_url}/favicon.ico").status == 200
    screenshot(page, "empty-page")
    page.click("#example")
    page.click("button[data-path='/api/v1/adjudicate']")
    page.wait_for_selector("#v-board svg")
    assert "1 record(s), 0 invalid" in page.text_content("#status")


def test_pletore_control_can_be_shown(page: Any) -> None:
    adjudicate(page, (SAMPLES / "pletore/valid/05-lesson-5x5.grn").read_text("utf-8"))
    marks = "#v-board svg g[transform] > rect[width='10']"
    assert page.locator(marks).count() == 0
    page.check("#v-control")
    assert page.locator(marks).count() > 0
    screenshot(page, "pletore-control", "#viewer")


@pytest.mark.parametrize("game", sorted(ONE_OF_EACH))
def test_every_game_is_drawn(page: Any, game: str) -> None:
    adjudicate(page, (SAMPLES / ONE_OF_EACH[game]).read_text("utf-8"))
    page.evaluate(f"arbiterViewer.go({shown_ply(page) * 2 // 3})")
    assert page.text_content("#v-title").lower().startswith(game)
    screenshot(page, f"game-{game}", "#viewer")


def long_record() -> tuple[str, int]:
    """A random legal Pletore game on 19×19 of up to 400 plies (seeded), and its plies."""
    rules, rng = get_rules("Pletore"), random.Random(14)
    state, turns = rules.initial_state(19, komi=6), []
    while len(turns) < 400 and (move := rules.random_move(state, rng.choice)) is not None:
        state = rules.play(state, move)
        turns.append(Turn(move))
    return write_grn(Record(game="Pletore", size=19, komi=6, turns=tuple(turns))), len(turns)


def test_a_long_record_is_stepped_through_without_asking_the_server(page: Any) -> None:
    """Every ply of a 400-ply 19×19 record, one after the other inside the page, and a few
    steps by key; not one request to the server, and no more changes to the page for a
    step at the end of the record than for one at its start (the new picture, the current
    move and source line): a step never rebuilds the move list or the source. The changes
    are counted (a MutationObserver's records and the nodes they add or remove), not
    timed."""
    text, plies = long_record()
    assert plies > 350
    adjudicate(page, text)
    page.click("#v-first")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    changes = page.evaluate(
        """(plies) => {
          const observer = new MutationObserver(() => {});
          observer.observe(document.body,
            { subtree: true, childList: true, attributes: true, characterData: true });
          const counts = [];
          for (let ply = 1; ply <= plies; ply++) {
            arbiterViewer.go(ply);
            let count = 0;
            for (const change of observer.takeRecords()) {
              count += 1 + change.addedNodes.length + change.removedNodes.length;
            }
            counts.push(count);
          }
          observer.disconnect();
          return counts;
        }""",
        plies,
    )
    assert shown_ply(page) == plies and asked == []
    assert len(changes) == plies and min(changes) > 0
    assert max(changes[-20:]) <= max(changes[:20]) < 40, (changes[:20], changes[-20:])
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    assert shown_ply(page) == plies - 5 and asked == []
    screenshot(page, "long-record", "#v-board")
