"""Every page in every language (``src/arbiter/service/web/README.md``): an event with the
states a page can show (a paired event with a result given, a record's result set by the
director, an excluded record, an invalid record, a bye; an event without pairings), each of
its pages, the desk, the upload page, the front page, the events, the ratings and the pages
that say what is missing, in Spanish and French, show no English but names and notation:
no message of the catalogue left in English, no sentence of the lower layers the phrase book
does not know, no English word."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import render_template
from flask.testing import FlaskClient

from arbiter.service.web import words
from arbiter.service.web.languages import DEFAULT, LANGUAGES, translations
from tests.events.conftest import bearer, body, create
from tests.events.test_desk import PLAYERS, Desk, boards_of, game

OTHERS = [code for code in LANGUAGES if code != DEFAULT]
TOURNAMENT = Path(__file__).resolve().parents[2] / "samples" / "tournament"
TEMPLATE = (
    Path(__file__).resolve().parents[2]
    / "src"
    / "arbiter"
    / "service"
    / "web"
    / ("translations/messages.pot")
)
"""The catalogue template of the checkout (a wheel holds the catalogues compiled alone)."""
ENGLISH = re.compile(
    r"\b(the|and|of|is|are|was|with|for|by|to|its|waits|counts|round|board|record|records|"
    r"won|lost|player|players|game|games|none|yes|valid|invalid|excluded|paired)\b"
)
"""Words a page in another language has no reason to show (a tag's name, a player's or an
event's name are taken out of the text first)."""

KEPT = ["Desk Open", "Autumn Open", "Ana Ruiz", "Bo Chen", "Ilić", "P5", "Cy Dee", "Di Eve",
        "Abstract Play", "a second sheet", "a clock fell", "did not come", "away"]  # fmt: skip
"""Names, notation and the director's reasons (typed in English here), which stay as they
are written."""

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def text_of(page: str) -> str:
    """What a reader sees of a page: no scripts, no tags, no code."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.DOTALL)
    page = re.sub(r"<(code|pre|svg)\b.*?</\1>", " ", page, flags=re.DOTALL)
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page))
    shown = re.sub(r"https?://\S+|player-\d+", " ", shown)
    for name in KEPT:
        shown = shown.replace(name, " ")
    return " ".join(shown.split())


def english_messages() -> list[str]:
    """The catalogue's messages of more than one word (what a page might leave in English)."""
    with TEMPLATE.open("rb") as handle:
        template = read_po(handle)
    found = []
    for message in template:
        text = message.id if isinstance(message.id, str) else message.id[0] if message.id else ""
        plain = re.sub(r"<[^>]+>|%\(\w+\)s", "\0", text)
        found.extend(part.strip() for part in plain.split("\0") if len(part.strip().split()) > 2)
    return found


def paired_event(client: FlaskClient) -> tuple[Desk, list[str]]:
    """A paired event in play: round 1 with a record, a result given, the next round with a
    bye; a record whose result the director set, one excluded, one that cannot be read."""
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/rounds")
    (a, b), (c, d) = boards_of(desk, 1).values()
    kept = desk.upload(game("Desk Open", 1, a, b, a))
    desk.ok("PUT", "/rounds/1/boards/2/result", {"result": "+-", "reason": f"{d} did not come"})
    other = desk.upload(game("Desk Open", 1, c, d, c))
    desk.ok("POST", f"/records/{other['record']}/exclude", {"reason": "a second sheet"})
    wrong = desk.upload(game("Desk Open", 1, a, b, b).replace("Blue+R", "Blue+5"))
    desk.ok("PUT", f"/records/{wrong['record']}/result",
            {"result": "Orange+F", "reason": "a clock fell"})  # fmt: skip
    desk.upload('[Game "Pilo"]\n[Size "6"]\n[Round "1"]\n1. z9 *\n')
    desk.ok("POST", "/players", {"players": [{"name": "Cy Dee", "rating": 1500}]})
    desk.ok("POST", "/players/1/byes", {"kind": "half", "round": 2, "reason": "away"})
    desk.ok("POST", "/rounds")
    pages = ["", "/rounds/1", "/rounds/2", "/players/1", "/players/2", "/players/5",
             "/find?name=i", "/find?name=zzz", f"/records/{kept['record']}",
             f"/records/{other['record']}", f"/records/{wrong['record']}", "/rounds/1/boards/2",
             "/log", "/desk", "/upload", "/upload?player=1", "/rounds/9"]  # fmt: skip
    return desk, pages


def unpaired_event(client: FlaskClient) -> tuple[str, list[str]]:
    """An event whose records are uploaded, one with a record that cannot count."""
    event, token = create(client, rounds=2, confirm_uploads=False)
    sent = game("Autumn Open", 1, "Cy Dee", "Di Eve", "Cy Dee")
    for text in (
        sent,
        game("Autumn Open", 2, "Di Eve", "Cy Dee", "Cy Dee"),
        game("", 1, "Cy Dee", "Di Eve", "Di Eve").replace('[Event ""]\n', ""),
    ):
        answer = client.post(f"/api/v1/events/{event}/records", data=text,
                             headers={**bearer(token), "Content-Type": "text/plain"})  # fmt: skip
        assert answer.status_code in (200, 201), body(answer)
    return event, ["", "/rounds/1", "/players/1", "/records/1", "/records/3", "/log", "/desk",
                   "/upload"]  # fmt: skip


def sample_event(client: FlaskClient) -> tuple[str, list[str]]:
    """The sample tournament uploaded to an event without pairings: records refused at a
    move with their repair hints, one of no round, one of another event's."""
    event, token = create(client, rounds=5, confirm_uploads=False)
    for path in sorted(TOURNAMENT.iterdir()):
        client.post(f"/api/v1/events/{event}/records", data=path.read_bytes(),
                    headers={**bearer(token), "Content-Type": "text/plain"})  # fmt: skip
    return event, ["", "/desk", "/rounds/4", "/records/14", "/records/12", "/log"]


def seen(client: FlaskClient, path: str, code: str) -> tuple[int, str]:
    words.MISSED.clear()
    joined = "&" if "?" in path else "?"
    answer = client.get(f"{path}{joined}lang={code}")
    page = answer.get_data(as_text=True)
    assert f'<html lang="{code}">' in page, path
    assert answer.headers["Content-Language"] == code
    assert not words.MISSED, (path, words.MISSED)
    handed = re.search(r'id="arbiter-words" data-scripts="([^"]*)"', page)
    assert handed is not None, path  # the scripts the page loads are handed their words
    assert set(re.findall(r'<script src="/static/([\w.]+)"', page)) <= set(handed[1].split())
    return answer.status_code, text_of(page)


def no_english(path: str, text: str, messages: list[str]) -> None:
    left = [message for message in messages if message in text]
    around = [text[max(0, text.find(one) - 80) : text.find(one) + 80] for one in left[:2]]
    assert not left, (path, left[:5], around)
    found = ENGLISH.search(text)
    assert found is None, (path, text[max(0, found.start() - 80) : found.end() + 80])


@pytest.mark.parametrize("code", OTHERS)
def test_every_page_reads_in_the_language_with_no_english_left(
    client: FlaskClient, code: str
) -> None:
    messages = [one for one in english_messages() if translations(code).gettext(one) != one]
    desk, pages = paired_event(client)
    event, plain = unpaired_event(client)
    sample, sampled = sample_event(client)
    site: list[tuple[str, int]] = [("/", 200), ("/events", 200), ("/ratings", 200),
                                   ("/ratings?pool=Pilo%206x6", 200), ("/ratings?pool=nope", 404),
                                   ("/events/nosuchevent", 404)]  # fmt: skip
    site += [(f"/events/{desk.id}{path}", 404 if path == "/rounds/9" else 200) for path in pages]
    site += [(f"/events/{event}{path}", 200) for path in plain]
    site += [(f"/events/{sample}{path}", 200) for path in sampled]
    for path, status in site:
        answer, text = seen(client, path, code)
        assert answer == status, path
        no_english(path, text, messages)


@pytest.mark.parametrize("code", OTHERS)
def test_the_unavailable_page_reads_in_the_language(client: FlaskClient, code: str) -> None:
    from arbiter.service.web.codes import error_text

    app: Any = client.application
    with app.test_request_context(f"/events/x?lang={code}"):
        message = error_text("database-unavailable", "the database does not answer")
        page = render_template("unavailable.html", message=message)
    assert f'<html lang="{code}">' in page
    no_english("unavailable", text_of(page), english_messages())


@pytest.mark.parametrize("code", OTHERS)
def test_an_accelerated_event_with_prohibited_pairs_reads_in_the_language(
    client: FlaskClient, code: str
) -> None:
    messages = [one for one in english_messages() if translations(code).gettext(one) != one]
    desk = Desk(client)
    desk.ok("POST", "/players", {"players": [{"name": n, "rating": r} for n, r in PLAYERS]})
    desk.ok("POST", "/prohibited", {"players": [1, 2], "to_round": 1})
    desk.ok("POST", "/prohibited", {"players": [1, 3]})
    desk.ok("DELETE", "/prohibited/2")
    desk.ok("PATCH", "", {"acceleration": "baku"})
    desk.ok("POST", "/rounds")
    desk.ok("POST", "/prohibited", {"players": [2, 3], "confirm": True, "reason": "away"})
    desk.ok("DELETE", "/prohibited/1", {"reason": "away"})
    desk.ok("DELETE", "/prohibited/3", {"reason": "away"})
    for path in ("/log", "/desk", ""):
        answer, text = seen(client, f"/events/{desk.id}{path}", code)
        assert answer == 200, path
        no_english(path, text, messages)
