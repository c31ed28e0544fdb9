"""The pages' languages: which one a request is answered in, the translations of its words
(gettext catalogues, :mod:`.catalogues`), and dates, times and numbers written for it
(Babel). The API answers in English whatever the language: its codes are the contract.

The language of a page is ``?lang=`` when it names one of :data:`LANGUAGES`, else the
``lang`` cookie that the switch on every page sets (a page asked with ``?lang=`` sets it),
else the best of the browser's ``Accept-Language``, else English. ``<html lang>`` says it,
and so does the answer's ``Content-Language``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import cache
from typing import Any
from urllib.parse import urlencode

from babel.dates import format_date
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import Flask, Response, g, request

from arbiter.service.web import catalogues

LANGUAGES: Mapping[str, str] = {"en": "English", "es": "Español", "fr": "Français"}
"""Every language of the pages, by its code, with its name in itself (the switch's words).
Adding a language is its catalogue and its code here (the web folder's README)."""

DEFAULT = "en"
"""The language of the sources: its catalogue is the messages themselves."""

COOKIE = "lang"
YEAR = 365 * 24 * 3600


# --- which language ----------------------------------------------------------------------


def _asked() -> str | None:
    """The language ``?lang=`` names, when it is one of ours."""
    asked = request.args.get("lang", "")
    return asked if asked in LANGUAGES else None


def choose() -> str:
    """The language of this request: ``?lang=``, the cookie, ``Accept-Language``, English."""
    asked = _asked()
    if asked is not None:
        return asked
    kept = request.cookies.get(COOKIE, "")
    if kept in LANGUAGES:
        return kept
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT) or DEFAULT


def language() -> str:
    """The language of the request being answered (English outside a request)."""
    try:
        found = g.get("language")
    except RuntimeError:  # no application context: a test, the command line
        return DEFAULT
    if found is None:
        found = g.language = choose()
    return str(found)


# --- translations ------------------------------------------------------------------------


@cache
def _translations(code: str) -> NullTranslations:
    data = catalogues.compiled(code) if code != DEFAULT else None
    if data is None:
        return NullTranslations()
    return Translations(io.BytesIO(data), domain=catalogues.DOMAIN)


def translations(code: str | None = None) -> NullTranslations:
    """The catalogue of ``code`` (the request's language by default), compiled once per
    process."""
    return _translations(code or language())


def _format(text: str, values: Mapping[str, Any]) -> str:
    return text % values if values else text


def gettext(message: str, **values: Any) -> str:
    """``message`` in the request's language, its ``%(name)s`` filled with ``values``."""
    return _format(translations().gettext(message), values)


_ = gettext


def ngettext(singular: str, plural: str, count: int, **values: Any) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the request's language;
    ``%(num)s`` is ``count``, written for the language."""
    said = translations().ngettext(singular, plural, count)
    return _format(said, {"num": number(count), **values})


def pgettext(context: str, message: str, **values: Any) -> str:
    """``message`` as it is said in ``context`` (one English word, two meanings)."""
    return _format(str(translations().pgettext(context, message)), values)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues, to be translated where it is shown."""
    return message


# --- numbers, dates and times ------------------------------------------------------------


def number(value: float | int | None, decimals: int | None = None) -> str:
    """A number written for the language, its decimal sign the language's (``2.5``,
    ``2,5``), never grouped (a rating is ``2000``, as FIDE writes it): whole values without
    decimals, ``decimals`` fixed when given; empty for None."""
    if value is None:
        return ""
    if decimals is not None:
        pattern = "0" + ("." + "0" * decimals if decimals else "")
    else:
        pattern = "0.###"
    return format_decimal(value, format=pattern, locale=language())


def signed(value: float) -> str:
    """A difference with its sign, whole (``+12``, ``-3``)."""
    return format_decimal(value, format="+0;-0", locale=language())


def _instant(at: str) -> datetime | None:
    try:
        found = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=UTC)


def minute(at: str | None) -> str:
    """A time of the trail (``2026-11-25T17:02:03.456Z``) to the minute, in UTC, as the
    language writes it: what a page shows until its script puts it in the reader's zone."""
    found = _instant(at) if at else None
    if found is None:
        return "-"
    found = found.astimezone(UTC)
    if language() == DEFAULT:  # as spec/events.md §10 writes it
        return found.strftime("%Y-%m-%d %H:%M UTC")
    day = format_date(found.date(), format="medium", locale=language())
    return f"{day} {found:%H:%M} UTC"


def day(at: str | None) -> str:
    """The day of a time, as the language writes it (``25 nov 2026``)."""
    found = _instant(at) if at else None
    if found is None:
        return "-"
    if language() == DEFAULT:
        return found.astimezone(UTC).strftime("%Y-%m-%d")
    return format_date(found.astimezone(UTC).date(), format="medium", locale=language())


# --- the switch, the cookie, the headers -------------------------------------------------


def switch() -> list[dict[str, Any]]:
    """The links of the language switch: this page in each language."""
    args = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
    current = language()
    return [
        {
            "code": code,
            "name": name,
            "url": request.path + "?" + urlencode([*args, ("lang", code)]),
            "current": code == current,
        }
        for code, name in LANGUAGES.items()
    ]


_PAGE = re.compile(r"text/html\b")


def _after(response: Response) -> Response:
    """A page says its language (``Content-Language``) and that it depends on the cookie
    and ``Accept-Language``; a page asked with ``?lang=`` keeps that choice in the cookie."""
    if not _PAGE.match(response.content_type or ""):
        return response
    response.headers["Content-Language"] = language()
    response.vary.update(("Accept-Language", "Cookie"))
    asked = _asked()
    if asked is not None and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=YEAR, samesite="Lax", httponly=True)
    return response


def install(app: Flask, extra: Mapping[str, Callable[..., Any]] | None = None) -> None:
    """Give ``app``'s templates the gettext functions (Jinja's i18n extension, new style:
    placeholders are escaped, ``%(name)s``), the language, the switch and the formats."""
    env = app.jinja_env
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: translations().gettext(message),
        lambda singular, plural, count: translations().ngettext(singular, plural, count),
        newstyle=True,
        pgettext=lambda context, message: translations().pgettext(context, message),
    )
    env.globals.update(
        language=language,
        languages=switch,
        number=number,
        signed=signed,
        **(extra or {}),
    )
    env.filters.update(minute=minute, day=day)
    app.after_request(_after)
