"""Slips of the pen in GRN copied from paper scoresheets (``spec/hints.md``, "Text slips"):
what the reader can tell was meant, the message that says so, and the text meant.

A text slip is a located problem that does not stop the record: the reader goes on as if
the meant text had been written, so that the report still replays the game, while the
record stays invalid, since official results come only from what was written. Slips in
the movetext and curly quotes make a record unusual, so only the lark path of the reader
(:mod:`arbiter.notation.grn_lark`) meets them: the fast path gives up on such a record.
Tag names written in another case are found where both paths build the record
(:mod:`arbiter.notation.grn_scan`), and a result written as other games write it is found
here; what a result that is not one of the game's was meant to be is said in
:mod:`arbiter.notation.results`, whichever notation it came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from arbiter.notation.errors import NotationSyntaxError, RecordError
from arbiter.notation.forms import SQUARE, MoveForm
from arbiter.notation.games import GameDescription, all_games, game_named, generation, move_forms
from arbiter.notation.grn_scan import TagLine, Word, short, unescape
from arbiter.notation.limits import BLANK
from arbiter.notation.results import meant_result as meant_result  # the slip of a result

# --- curly quotes around a tag value ----------------------------------------------------

CURLY = "“”‘’„‚"
"""The quotation marks word processors and phones put in place of ``"``."""

_STRAIGHT_TAG = re.compile(r'[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*"(?:[^"\\\r\n]|\\["\\])*"'
                           r"[ \t]*\][ \t]*\r?")  # fmt: skip
_CURLY_TAG = re.compile(
    r"(?P<head>[ \t]*\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*)"
    rf'(?P<open>["{CURLY}])(?P<value>[^\r\n]*)(?P<close>["{CURLY}])(?P<tail>[ \t]*\][ \t]*\r?)'
)


def straighten_quotes(text: str, shift: int, problems: list[RecordError]) -> str:
    """``text`` with straight quotes around every tag value of its tag section that is
    quoted with curly ones (its ``"`` and ``\\`` escaped), each such tag a ``curly-quotes``
    problem added to ``problems`` (lines ``shift`` down). Only the tag section is looked
    at: a comment may hold anything. Columns do not move up to the end of the value."""
    if not any(quote in text for quote in CURLY):
        return text
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if not line.strip(BLANK):
            continue
        if not line.lstrip(BLANK).startswith("["):
            break
        found = None if _STRAIGHT_TAG.fullmatch(line) else _CURLY_TAG.fullmatch(line)
        if found is None or (found["open"] + found["close"]) == '""':
            continue
        value = found["value"].replace("\\", "\\\\").replace('"', '\\"')
        lines[number] = f'{found["head"]}"{value}"{found["tail"]}'
        problems.append(
            NotationSyntaxError(
                f"curly quotes {found['open']}…{found['close']} around the value of tag "
                f'{found["name"]!r}: GRN needs straight quotes "…"',
                code="curly-quotes",
                line=number + 1 + shift,
                column=len(found["head"]) + 1,
            )
        )
    return "\n".join(lines)


# --- words of movetext ------------------------------------------------------------------

_DASHED = re.compile(f"({SQUARE})-({SQUARE})")


def meant_word(
    word: str, game: GameDescription | None, classify: Callable[[str], re.Match[str] | None]
) -> tuple[str, str, str, str] | None:
    """What a word of movetext that is no GRN word was meant to be, when that is clear:
    its text and terminal as the reader is to take them, the slip's code and its message;
    None when it is not clear (the word is then a syntax error).

    A number without its dot is a move number (``7`` for ``7.``), read as written: the
    reader checks a move number by its digits. A move whose ``x`` is written ``-`` is read
    with ``x`` when that gives a move form ``game`` has (``classify`` names the terminal of
    a word); a registered form written with ``-`` is never a slip, since it is a word."""
    if word.isascii() and word.isdigit():
        number = short(word)
        message = f"move number {number!r} has no dot: write {number + '.'!r}"
        return word, "MOVE_NUMBER", "missing-dot", message
    dashed = _DASHED.fullmatch(word) if game is not None else None
    if dashed is None or game is None:
        return None
    meant = f"{dashed[1]}x{dashed[2]}"
    kind = classify(meant)
    form = _forms().get(kind.lastgroup or "") if kind is not None else None
    if form is None or form.type not in game.moves or form.variant is not None:
        return None
    written = meant.lower()
    message = f"{short(word)!r} is written with '-': a {form.title} is written {short(written)!r}"
    return meant, form.terminal, "dash-for-x", message


def _forms() -> dict[str, MoveForm]:
    """The registered move forms by terminal."""
    return {form.form.terminal: form.form for form in move_forms()}


def game_of(tags: list[TagLine]) -> GameDescription | None:
    """The game the tags name, as the record will be built: the ``Game`` tag, else a tag
    that is ``Game`` written in another case; None when neither names a known game."""
    tag = next((t for t in tags if t.name == "Game"), None)
    if tag is None:
        tag = next((t for t in tags if t.name.lower() == "game"), None)
    if tag is None:
        return None
    return game_named(unescape(tag.value[1:-1]).strip(BLANK))


# --- results of other games -------------------------------------------------------------

VERBS = ("wins", "won", "win", "resigns", "resigned", "loses", "lost", "forfeits", "forfeited")
"""Verbs of a result written in words (``Blue wins``, ``Black resigns``)."""
TAIL = 80
"""Characters at the end of a record's text in which a result written otherwise is looked
for: enough for a few words."""
_SCORE = "(?:1|0|1/2|½|0\\.5)"


@cache
def _result_slip(_generation: int) -> re.Pattern[str]:
    colours = "|".join(sorted({c.lower() for game in all_games() for c in game.colours}))
    worded = f"(?:{colours})[ \\t]+(?:{'|'.join(VERBS)})(?:[ \\t]+[A-Za-z0-9.]+){{0,3}}"
    return re.compile(f"(?<![^ \\t\\r\\n])(?:{_SCORE}[-–]{_SCORE}|{worded})\\Z", re.IGNORECASE)


def cut_result(text: str) -> tuple[str, Word | None]:
    """A result written as other games write it (``1-0``, ``½-½``, ``Blue wins``), when it
    ends the text: the text with blanks in its place (so that nothing else moves) and the
    result as a ``RESULT`` word of the record's text, which the record's result checks
    then word (:func:`~arbiter.notation.results.result_message`). ``(text, None)`` when
    the text ends otherwise."""
    end = len(text.rstrip(BLANK))
    found = _result_slip(generation()).search(text, max(0, end - TAIL), end)
    if found is None:
        return text, None
    start = found.start()
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    blanked = text[:start] + " " * (found.end() - start) + text[found.end() :]
    return blanked, (found.group(), "RESULT", line, column)
