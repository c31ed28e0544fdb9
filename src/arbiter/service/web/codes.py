"""What each error code means, in the pages' languages: the codes of a record's errors (a
report's, ``spec/report.md``) and those of the API's refusals (``spec/api.md`` §4,
``spec/events.md`` §8). The API's ``message`` stays English, since programs read its
``code``; a page in English shows the message, which says more, and a page in another
language the meaning of its code (:func:`error_text`), beside the place it was found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.service.web.languages import DEFAULT, N_, gettext, language

RECORD_CODES: Mapping[str, str] = {
    "ambiguous-move": N_("the move leaves a choice unwritten"),
    "bad-comment": N_("a comment holds “}”, which GRN cannot write"),
    "bad-json": N_("the text is not JSON that can be read"),
    "bad-komi": N_("the komi is not a whole number"),
    "bad-move-number": N_("a move number does not match its turn"),
    "bad-pie": N_("the seats are said to be swapped, but no move swaps them"),
    "bad-result": N_("the result is not one of this game's"),
    "bad-setup": N_("the setup is not a position of this game"),
    "bad-size": N_("the board size is not one of this game's"),
    "cannot-convert": N_("the record cannot be written in that format"),
    "curly-quotes": N_("a tag's value is written between curly quotes"),
    "dash-for-x": N_("a capture is written with “-” instead of “x”"),
    "duplicate-tag": N_("a tag is written twice"),
    "encoding": N_("the text is not UTF-8"),
    "illegal-move": N_("illegal move"),
    "internal-error": N_("the program failed on this record"),
    "io-error": N_("the file cannot be read"),
    "komi-not-allowed": N_("this game has no komi"),
    "komi-out-of-range": N_("the komi is out of range"),
    "malformed-tag": N_("a tag line is broken"),
    "missing-dot": N_("a move number is written without its dot"),
    "missing-komi": N_("the komi is missing"),
    "missing-tag": N_("the game or the board size is missing"),
    "no-record": N_("no record"),
    "off-board": N_("a point off the board"),
    "pie-invoked": N_("the pie rule is used where it cannot be"),
    "result-conflict": N_("the result tag and the result after the moves differ"),
    "result-mismatch": N_("the claimed result does not follow from the moves"),
    "schema": N_("the JSON record is not of the record's form"),
    "several-records": N_("several records where one was expected"),
    "syntax-error": N_("something that is not GRN"),
    "tag-case": N_("a tag's name is written in the wrong case"),
    "too-deep": N_("values nested too deep"),
    "too-large": N_("the record is too large"),
    "too-long": N_("a text of the record is too long"),
    "too-many-comments": N_("too many comments"),
    "too-many-digits": N_("a number with too many digits"),
    "too-many-lines": N_("too many lines"),
    "too-many-moves": N_("too many moves"),
    "too-many-tags": N_("too many tags"),
    "too-many-values": N_("too many values"),
    "unknown-game": N_("a game this server does not know"),
    "unterminated-comment": N_("a comment is never closed"),
    "wrong-move-form": N_("a kind of move this game does not have"),
}
"""The codes of a record's errors and what each means."""

API_CODES: Mapping[str, str] = {
    "all-rounds-paired": N_("every planned round is paired already"),
    "already-excluded": N_("the record is excluded already"),
    "archive-changed": N_("the event changed while it was being archived"),
    "bad-archive": N_("the archive cannot be read"),
    "bad-creation-key": N_("creating an event here needs the server's key"),
    "bad-field": N_("a field is missing or wrong"),
    "bad-json": N_("the request is not JSON that can be read"),
    "bad-multipart": N_("the upload has no file"),
    "bad-name": N_("the name holds a character that cannot be shown"),
    "bad-parameter": N_("a parameter of the address is wrong"),
    "bad-receipt": N_("a receipt cannot be read"),
    "bad-request": N_("the request cannot be read"),
    "bad-result": N_("the result is not a finished result of this game"),
    "bad-token": N_("this token is not one this server issued"),
    "body-too-large": N_("what was sent is too large"),
    "cannot-correct": N_("the correction cannot be applied"),
    "cannot-format": N_("the standings cannot be written in that format"),
    "cannot-pair": N_("the round cannot be paired"),
    "cannot-place": N_("the record cannot be placed on that board"),
    "database-unavailable": N_("the database does not answer"),
    "duplicate-player": N_("a player of that name is in the event already"),
    "empty-body": N_("nothing was sent"),
    "event-damaged": N_("the event's stored data cannot be read"),
    "event-exists": N_("that event exists already"),
    "event-finalised": N_("the event is finalised: nothing more can be changed"),
    "event-full": N_("the event holds as many records as it can"),
    "headers-too-large": N_("the request's headers are too large"),
    "internal-error": N_("the server failed on this request"),
    "key-unavailable": N_("the server's key cannot be used"),
    "method-not-allowed": N_("this address does not take that request"),
    "missing-token": N_("this needs a token"),
    "no-check-in": N_("this event has no check-in"),
    "no-such-board": N_("there is no such board"),
    "no-such-bye": N_("there is no such bye"),
    "no-such-event": N_("there is no such event"),
    "no-such-player": N_("there is no such player"),
    "no-such-ply": N_("there is no such ply"),
    "no-such-pool": N_("there is no such rating pool"),
    "no-such-record": N_("there is no such record"),
    "no-such-round": N_("there is no such round"),
    "no-such-token": N_("there is no such token"),
    "no-such-upload": N_("there is no such upload"),
    "no-such-webhook": N_("there is no such webhook"),
    "not-a-draft": N_("the round is not a draft"),
    "not-allowed": N_("this needs the director's token"),
    "not-checked-in": N_("the player is not checked in"),
    "not-excluded": N_("the record is not excluded"),
    "not-found": N_("there is nothing at this address"),
    "not-implemented": N_("the server cannot read this request"),
    "not-pending": N_("the record does not wait for confirmation"),
    "not-text": N_("the file is not text"),
    "not-withdrawn": N_("the player has not withdrawn"),
    "not-your-board": N_("this token's player is not on that board"),
    "not-your-player": N_("this token is another player's"),
    "receipt-of-another-event": N_("a receipt is another event's"),
    "revoked-token": N_("this token has been revoked"),
    "round-is-draft": N_("the round is a draft: publish it first"),
    "similar-name": N_("a player with a similar name is in the event"),
    "too-many-plies": N_("the records have too many plies to show at once"),
    "too-many-players": N_("the event has as many players as it can"),
    "too-many-tokens": N_("the event has as many tokens as it can"),
    "too-many-webhooks": N_("the event has as many webhooks as it can"),
    "unreadable-record": N_("the record cannot be read"),
    "unreadable-records": N_("some records cannot be read"),
    "unsupported-media-type": N_("the server does not read what was sent"),
    "webhook-address-refused": N_("webhooks may not be sent to that address"),
    "wrong-event": N_("this token is another event's"),
}
"""The codes of the API's refusals and what each means."""


EXCLUSIONS: Mapping[str, str] = {
    "invalid": N_("the record is invalid"),
    "no-event": N_("the record has no Event tag"),
    "no-players": N_("the record does not name both players"),
    "same-player": N_("one player is named for both colours"),
    "no-round": N_("the record has no Round tag"),
    "bad-round": N_("the Round tag is not a round number"),
    "unfinished": N_("the game is not finished and the record gives no result"),
    "second-game-in-round": N_("the player already has a counted game in that round"),
    "duplicate-pairing": N_("the two players already have a counted game in that round"),
}
"""Why the standings leave a record out (``spec/standings.md``), by its reason's code."""


def code_text(code: str, *tables: Mapping[str, str]) -> str | None:
    """What ``code`` means in the request's language, from the first table that has it
    (the API's by default); None when none has it."""
    for table in tables or (API_CODES, RECORD_CODES):
        if code in table:
            return gettext(table[code])
    return None


def error_text(code: str, message: str, **place: Any) -> str:
    """An error as a page says it: in English its ``message``; in another language what
    its code means (or the code itself), with ``field`` when it names one."""
    if language() == DEFAULT:
        return message
    said = code_text(code) or code
    field = place.get("field") or place.get("parameter")
    return gettext("%(error)s (%(field)s)", error=said, field=field) if field else said


def record_error(error: Mapping[str, Any]) -> str:
    """A record's error in one line, where it stands: ``illegal-move at ply 31: ...`` in
    English (its message); in another language the meaning of its code, with the ply or
    the line and column."""
    ply, line = error.get("ply"), error.get("line")
    if language() == DEFAULT:
        where = f" at ply {ply}" if ply else ""
        if not where and line:
            where = f" (line {line}, column {error.get('column', '?')})"
        return f"{error.get('code', 'invalid')}{where}: {error.get('message', '')}"
    code = str(error.get("code", ""))
    said = code_text(code, RECORD_CODES) or code_text(code, API_CODES) or code
    if ply:
        return gettext("%(error)s, at ply %(ply)s", error=said, ply=ply)
    if line:
        column = error.get("column", "?")
        return gettext("%(error)s (line %(line)s, column %(column)s)", error=said, line=line,
                       column=column)  # fmt: skip
    return said


def all_codes() -> dict[str, str]:
    """Every code with its meaning in the request's language, for the scripts (none in
    English, whose scripts show the API's message)."""
    if language() == DEFAULT:
        return {}
    return {
        code: gettext(text) for table in (RECORD_CODES, API_CODES) for code, text in table.items()
    }
