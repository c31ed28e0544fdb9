"""The scripts' words, from the one catalogue of the pages.

A script says each of its sentences as ``t("English text", {name: value})`` (``dom.js``);
the catalogues extract them from ``static/*.js`` as they extract the templates' (Babel's
JavaScript extractor, keyword ``t``). Every page hands its scripts their translations in a
JSON block (``<script type="application/json" id="arbiter-words">``, :func:`words`):
each message of the scripts with its translation in the page's language, the meaning of
each error code, and the games' colours; none in English, whose messages are the text.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.extract import extract_javascript

from arbiter.service.web.codes import API_CODES, EXCLUSIONS, RECORD_CODES
from arbiter.service.web.languages import DEFAULT, gettext, language
from arbiter.service.web.words import COLOURS, TERMINATIONS, TIEBREAKS

KEYWORDS = {"t": None}
"""The scripts' gettext: ``t(message, values)``."""


@cache
def _by_script() -> dict[str, tuple[str, ...]]:
    """The messages of each script, in the order it says them."""
    found: dict[str, tuple[str, ...]] = {}
    folder = resources.files("arbiter.service.web.static")
    for item in sorted(folder.iterdir(), key=lambda one: one.name):
        if not item.name.endswith(".js"):
            continue
        said: dict[str, None] = {}
        source = io.BytesIO(item.read_bytes())
        for _line, _function, call, _comments in extract_javascript(source, KEYWORDS, [], {}):
            # the message alone, or with what the call says after it (its values)
            message = call[0] if isinstance(call, (tuple, list)) and call else call
            if isinstance(message, str):
                said.setdefault(message, None)
        found[item.name] = tuple(said)
    return found


def messages(*scripts: str) -> tuple[str, ...]:
    """Every message ``scripts`` say (all the scripts by default), once each."""
    table = _by_script()
    chosen = scripts or tuple(table)
    return tuple(dict.fromkeys(m for name in chosen for m in table.get(name, ())))


ALWAYS = ("dom.js", "times.js")
"""The scripts every page loads (``base.html``)."""


def words(scripts: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    """What the page's ``scripts`` (beside :data:`ALWAYS`) say, in the page's language
    (empty tables in English)."""
    return _words(language(), tuple(dict.fromkeys((*ALWAYS, *scripts))))


@cache
def _words(code: str, scripts: tuple[str, ...]) -> dict[str, Any]:
    if code == DEFAULT:
        return {"messages": {}, "codes": {}, "recordCodes": {}, "exclusions": {}, "colours": {},
                "terminations": {}, "tiebreaks": {}}  # fmt: skip
    return {
        "messages": {message: gettext(message) for message in messages(*scripts)},
        "codes": {code: gettext(text) for code, text in API_CODES.items()},
        "recordCodes": {code: gettext(text) for code, text in RECORD_CODES.items()},
        "exclusions": {code: gettext(text) for code, text in EXCLUSIONS.items()},
        "colours": {name: gettext(text) for name, text in COLOURS.items()},
        "terminations": {word: gettext(text) for word, text in TERMINATIONS.items()},
        "tiebreaks": {
            name: [gettext(title), gettext(said)]
            for name, (title, _short, said) in TIEBREAKS.items()
        },
    }
