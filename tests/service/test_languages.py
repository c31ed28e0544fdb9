"""The pages' languages (``src/arbiter/service/web/README.md``): every message has its
translation in every language, the catalogue template says what the sources say, each
language is the one asked for (``?lang=``, then the cookie, then ``Accept-Language``), and
what a page shows of the games is named as their rules and FIDE's handbook name it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from arbiter.adjudicator.tiebreaks import EXPLANATIONS, TITLES
from arbiter.service.web import catalogues, create_app
from arbiter.service.web.languages import DEFAULT, LANGUAGES
from arbiter.service.web.words import TIEBREAKS

OTHERS = [code for code in LANGUAGES if code != DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def keys(catalogue: Catalog) -> set[tuple[str | None, str]]:
    """Each message of ``catalogue`` by its context and (singular) text."""
    found = set()
    for message in catalogue:
        if not message.id:
            continue
        text = message.id if isinstance(message.id, str) else message.id[0]
        found.add((message.context, text))
    return found


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"DATABASE": f"sqlite:///{tmp_path / 'events.db'}",
                       "WEBHOOK_DELIVERY": False})  # fmt: skip


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_every_language_but_english_has_its_catalogue() -> None:
    assert catalogues.languages() == sorted(OTHERS)


@pytest.mark.checkout_only  # the catalogues' sources: the wheel holds them compiled
@pytest.mark.parametrize("code", OTHERS)
def test_every_message_has_its_translation(code: str) -> None:
    template = keys(read(catalogues.TEMPLATE))
    catalogue = read(catalogues.source(code))
    assert keys(catalogue) == template, "merge the template in: make catalogues"
    for message in catalogue:
        if not message.id:
            continue
        given = message.string
        strings = [str(one) for one in given] if isinstance(given, (tuple, list)) else [str(given)]
        assert all(strings), (code, message.id)
        assert not message.fuzzy, (code, message.id)
        english = (
            [str(one) for one in message.id]
            if isinstance(message.id, (tuple, list))
            else [str(message.id)]
        )
        wanted = set(PLACEHOLDER.findall(english[-1]))
        for said in strings:  # every value said, none made up
            assert set(PLACEHOLDER.findall(said)) == wanted, (code, message.id, said)


@pytest.mark.checkout_only  # extracts from the checkout's sources
def test_the_template_holds_every_message_of_the_sources_and_no_other() -> None:
    from tools.catalogues import extract

    assert keys(extract()) == keys(read(catalogues.TEMPLATE)), "extract again: make catalogues"


def test_the_compiled_catalogues_translate() -> None:
    from arbiter.service.web.languages import translations

    assert translations("es").gettext("Standings") == "Clasificación"
    assert translations("fr").gettext("Standings") == "Classement"
    assert translations("en").gettext("Standings") == "Standings"


def test_a_page_is_in_the_language_asked_then_the_cookie_then_the_browsers(
    client: FlaskClient,
) -> None:
    def lang(answer: object) -> str:
        found = re.search(r'<html lang="([a-z]+)">', answer.get_data(as_text=True))  # type: ignore[attr-defined]
        assert found is not None
        return found.group(1)

    plain = client.get("/")
    assert lang(plain) == "en" and plain.headers["Content-Language"] == "en"
    assert "lang" not in plain.headers.get("Set-Cookie", "")
    browser = client.get("/", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert lang(browser) == "fr" and "Classement" in browser.get_data(as_text=True)
    assert {"Accept-Language", "Cookie"} <= set(browser.vary)
    assert lang(client.get("/", headers={"Accept-Language": "de, es;q=0.5"})) == "es"
    assert lang(client.get("/", headers={"Accept-Language": "de"})) == "en"
    asked = client.get("/?lang=es", headers={"Accept-Language": "fr"})
    assert lang(asked) == "es" and "lang=es" in asked.headers["Set-Cookie"]
    kept = client.get("/events", headers={"Accept-Language": "fr"})  # the cookie now
    assert lang(kept) == "es" and "Torneos" in kept.get_data(as_text=True)
    assert lang(client.get("/?lang=xx", headers={"Accept-Language": "fr"})) == "es"
    assert lang(client.get("/?lang=en")) == "en"
    assert lang(client.get("/")) == "en"


def test_the_switch_keeps_the_page_and_its_query(client: FlaskClient) -> None:
    shown = client.get("/ratings?pool=nope&lang=fr").get_data(as_text=True)
    links = dict(re.findall(r'<a href="([^"]+)" lang="([a-z]+)"', shown))
    assert set(links.values()) == set(LANGUAGES)
    assert "/ratings?pool=nope&amp;lang=es" in links
    assert 'lang="fr" hreflang="fr" aria-current="true"' in shown


def test_the_api_answers_in_english_whatever_the_language(client: FlaskClient) -> None:
    answer = client.post("/api/v1/adjudicate?lang=es", data=b"",
                         headers={"Accept-Language": "es"})  # fmt: skip
    error = answer.get_json()["error"]
    assert error["code"] == "empty-body" and error["message"].startswith("the request")
    assert "Content-Language" not in answer.headers and "Set-Cookie" not in answer.headers


def test_a_missing_page_says_the_meaning_of_its_code(client: FlaskClient) -> None:
    english = client.get("/events/nosuchevent").get_data(as_text=True)
    assert "No such event" in english and "there is no event" in english
    spanish = client.get("/events/nosuchevent?lang=es")
    assert spanish.status_code == 404
    assert "No existe ese torneo" in spanish.get_data(as_text=True)
    assert "there is no event" not in spanish.get_data(as_text=True)


def test_numbers_and_times_are_written_for_the_language(app: Flask) -> None:
    from arbiter.service.web.languages import minute, number, signed

    at = "2026-11-25T17:02:03.456Z"
    with app.test_request_context("/?lang=en"):
        assert (number(2.5), minute(at), signed(12.2)) == ("2.5", "2026-11-25 17:02 UTC", "+12")
    with app.test_request_context("/?lang=es"):
        assert (number(2.5), number(2000), minute(at)) == ("2,5", "2000", "25 nov 2026 17:02 UTC")
    with app.test_request_context("/?lang=fr"):
        assert (number(2.5), number(1.25, 1)) == ("2,5", "1,2")
        assert minute(at) == "25 nov. 2026 17:02 UTC"


def test_the_tie_breaks_are_the_adjudicators_in_english() -> None:
    assert {name: title for name, (title, _, _) in TIEBREAKS.items()} == TITLES
    assert {name: said for name, (_, _, said) in TIEBREAKS.items()} == EXPLANATIONS


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("es", {"Buchholz": "Buchholz", "Sonneborn-Berger": "Sonneborn-Berger",
                "Direct encounter": "Encuentro directo", "Blue": "Azul", "Orange": "Naranja",
                "Black": "Negro", "White": "Blanco", "Red": "Rojo"}),
        ("fr", {"Buchholz": "Buchholz", "Sonneborn-Berger": "Sonneborn-Berger",
                "Direct encounter": "Confrontation directe", "Blue": "Bleu",
                "Orange": "Orange", "Black": "Noir", "White": "Blanc", "Red": "Rouge"}),
    ],
)  # fmt: skip
def test_the_games_and_tie_breaks_are_named_as_their_players_name_them(
    code: str, names: dict[str, str]
) -> None:
    from arbiter.service.web.languages import translations

    said = translations(code)
    assert {english: said.gettext(english) for english in names} == names


def test_what_a_user_typed_is_escaped_in_every_language(client: FlaskClient) -> None:
    typed = "<b>x</b>“"
    for code in LANGUAGES:
        shown = client.get(f"/ratings?pool={typed}&lang={code}").get_data(as_text=True)
        assert "<b>x</b>" not in shown and "&lt;b&gt;x&lt;/b&gt;" in shown


@pytest.mark.checkout_only  # reads the catalogue template
def test_the_scripts_are_handed_every_message_they_say(app: Flask) -> None:
    from arbiter.service.web.script_words import messages, words

    template = read(catalogues.TEMPLATE)
    said = {
        str(message.id)
        for message in template
        if message.id and any("/static/" in path for path, _line in message.locations)
    }
    assert set(messages()) == said
    with app.test_request_context("/?lang=fr"):
        handed = words(["rounds.js"])["messages"]
    assert set(handed) == set(messages("dom.js", "times.js", "rounds.js"))
    assert handed["%(winner)s won (%(result)s)"].endswith("gagné (%(result)s)")
