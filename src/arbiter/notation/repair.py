"""Corrected copies of records: one move replaced, and the trail of what was written.

A director who finds the slip of a record copied from a paper scoresheet keeps the record
as typed and writes a corrected copy. The copy must be the same text but for that move, so
that nothing else a person typed is lost or rewritten, and it must say what stood there
before, so that the official result can always be traced back to what was written. So the
correction works on the text, not on a record read and written again: the move at a ply is
replaced by its canonical token, and a comment after it says ``was: c3``
(``spec/cli.md``, ``arbiter repair``).

The move is found by reading the record (its turns know where they stand), or, when the
record cannot be read, at the place given (a line and column in GRN, a JSON pointer): a
slip that makes a move unreadable also makes its record unreadable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from arbiter.notation.ast import NOWHERE, Location, Move, Record
from arbiter.notation.errors import RecordError
from arbiter.notation.games import GameDescription, game_named, move_forms
from arbiter.notation.limits import BLANK
from arbiter.notation.sources import Notation, format_for_name, read_records, sniff_format

__all__ = [
    "BadCorrection",
    "CannotLocate",
    "Correction",
    "CorrectionError",
    "NoSuchPly",
    "NoSuchRecord",
    "UnreadableMove",
    "apply_correction",
    "correct",
    "parse_correction",
    "source_bytes",
    "source_text",
]


class CorrectionError(ValueError):
    """A correction that cannot be applied to the record; the message says why."""


class NoSuchRecord(CorrectionError):
    """The text holds fewer records than the one asked for."""


class NoSuchPly(CorrectionError):
    """The record has no move at that ply."""


class UnreadableMove(CorrectionError):
    """The move to write is no move of the record's game, or not on its board."""


class CannotLocate(CorrectionError):
    """The move to replace cannot be found: the record cannot be read and no place was
    given, or nothing that could be a move stands at the place given."""


class BadCorrection(ValueError):
    """A correction written as ``PLY:MOVE`` that does not have that shape."""


class Correction(NamedTuple):
    """A correction applied: the corrected ``text``, the ``ply`` changed, the canonical
    ``move`` written there and what was ``written`` there before."""

    text: str
    ply: int
    move: str
    written: str


CORRECTION_PATTERN = r"[0-9]{1,9}:[^@ \t\r\n][^@]*(@([0-9]{1,9}:[0-9]{1,9}|/[^@]*))?"
"""A correction as the command line and the API take it: ``PLY:MOVE`` (a move that starts
with no blank), optionally followed by where the move stands, for a record that cannot be
read (``@LINE:COLUMN`` in GRN, ``@POINTER`` in JSON)."""


def parse_correction(text: str) -> tuple[int, str, Location]:
    """The ply, the move and the place given (``NOWHERE`` when none) of a correction written
    ``PLY:MOVE``, ``PLY:MOVE@LINE:COLUMN`` or ``PLY:MOVE@/moves/N``. A move may hold a colon
    itself (``d4/e5/a1:b2``, ``c3:nne``): only the first one ends the ply.

    Raises ``BadCorrection`` for text of another shape."""
    written = text.strip(BLANK)
    if re.fullmatch(CORRECTION_PATTERN, written) is None:
        raise BadCorrection(
            f"a correction is written PLY:MOVE (23:c4), optionally followed by @LINE:COLUMN "
            f"or @POINTER, not {text!r}"
        )
    ply, _, rest = written.partition(":")
    move, _, place = rest.partition("@")
    return int(ply), move.strip(BLANK), _place(place)


def _place(text: str) -> Location:
    if not text:
        return NOWHERE
    if text.startswith("/"):
        return Location(pointer=text)
    line, _, column = text.partition(":")
    return Location(int(line), int(column))


def apply_correction(
    text: str,
    ply: int,
    move: str,
    *,
    line: int | None = None,
    column: int | None = None,
    pointer: str | None = None,
    index: int = 0,
    notation: Notation | None = None,
) -> str:
    """``text`` with the move at ``ply`` of its record ``index`` (from 0) replaced by
    ``move``, written as its canonical token, and a comment there saying what was written
    before (``c4 {was: c3}``; an existing comment of the move keeps its text after it). All
    else is kept character for character. See :func:`correct`, which also says what was
    replaced."""
    place = Location(line, column, pointer)
    return correct(text, ply, move, place=place, index=index, notation=notation).text


def correct(
    text: str,
    ply: int,
    move: str,
    *,
    place: Location = NOWHERE,
    index: int = 0,
    notation: Notation | None = None,
) -> Correction:
    """The correction of ``ply`` to ``move`` in record ``index`` of ``text`` (GRN or JSON,
    ``notation`` or told from the first characters), applied.

    The move is found by reading the record; ``place`` is used only when the record cannot
    be read or stops before ``ply``. In JSON the move object is replaced by the new one,
    written in the style of the old (on one line or indented as it was).

    Raises ``CorrectionError``: ``NoSuchRecord``, ``NoSuchPly``, ``UnreadableMove`` or
    ``CannotLocate``, each with a message for people."""
    fmt = notation or notation_of(None, text)
    target = _Target.find(text, ply, place, index, "grn" if fmt == "grn" else "json")
    new = _canonical(target.game, target.size, move)
    if fmt == "grn":
        return _correct_grn(text, target, new)
    return _correct_json(text, target, new)


class _Target(NamedTuple):
    """The move to replace: its record's game and board, where it stands, its ply, and the
    move the reader made of it (None when the record could not be read)."""

    game: GameDescription
    size: int | None
    where: Location
    ply: int
    record: int
    read: Move | None

    @classmethod
    def find(cls, text: str, ply: int, place: Location, index: int, fmt: str) -> _Target:
        item = _record(text, index, fmt)
        if ply < 1:
            raise NoSuchPly(f"there is no ply {ply}: plies are counted from 1")
        if isinstance(item, Record) and ply <= len(item.turns):
            turn = item.turns[ply - 1]
            return cls(_game(item.game), item.size, turn.where, ply, index, turn.move)
        if place == NOWHERE:
            raise _unlocated(item, ply)
        if isinstance(item, Record):
            return cls(_game(item.game), item.size, place, ply, index, None)
        game, size = _declared(text, place, index, fmt)
        return cls(game, size, place, ply, index, None)


def _record(text: str, index: int, fmt: str) -> Record | RecordError:
    """Record ``index`` of ``text`` as read (or the error that stopped it)."""
    kind: Notation = "grn" if fmt == "grn" else "json"
    for number, item in enumerate(read_records(source_bytes(text), fmt=kind)):
        if number == index:
            return item
    raise NoSuchRecord(f"there is no record {index + 1}: the text holds fewer records")


def source_text(data: bytes) -> str:
    """The text of a source's bytes, for :func:`correct`: UTF-8, with any byte that is not
    kept as a stand-in that :func:`source_bytes` turns back into that very byte, so that a
    corrected copy is the source byte for byte but for the correction."""
    return data.decode("utf-8", "surrogateescape")


def source_bytes(text: str) -> bytes:
    """The bytes of a text from :func:`source_text` (or any text), as they were."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate not from source_text: the reader refuses it
        return text.encode("utf-8", "surrogatepass")


def _unlocated(item: Record | RecordError, ply: int) -> CorrectionError:
    if isinstance(item, RecordError):
        return CannotLocate(
            f"the record cannot be read ({item.code}: {item.message}); give where the move "
            "of the correction stands (@LINE:COLUMN, or @POINTER in JSON)"
        )
    plies = len(item.turns)
    return NoSuchPly(
        f"there is no ply {ply}: the record has {plies} pl{'y' if plies == 1 else 'ies'}"
    )


def _game(name: str) -> GameDescription:
    game = game_named(name)
    if game is None:
        raise CannotLocate(f"the record's game {name!r} is not one this program knows")
    return game


def _declared(
    text: str, place: Location, index: int, fmt: str
) -> tuple[GameDescription, int | None]:
    """The game and board size a record that cannot be read names: in GRN the last ``Game``
    and ``Size`` tags before the place given, in JSON the record object's fields."""
    if fmt == "grn":
        if place.line is None:
            raise CannotLocate("a move of a GRN record is found by its line and column")
        before = "\n".join(text.split("\n")[: place.line])
        games = re.findall(r'^[\ufeff \t]*\[Game[ \t]+"([^"\n]*)"', before, re.M | re.I)
        sizes = re.findall(
            r'^[\ufeff \t]*\[Size[ \t]+"[ \t]*([0-9]{1,2})[ \t]*"', before, re.M | re.I
        )
        if not games:
            raise CannotLocate("no Game tag stands before the place given")
        return _game(games[-1]), int(sizes[-1]) if sizes else None
    obj = json.loads(_json_record_span(text, index).text)
    if not isinstance(obj, dict) or not isinstance(obj.get("game"), str):
        raise CannotLocate(f"record {index + 1} names no game")
    size = obj.get("size")
    return _game(obj["game"]), size if type(size) is int else None


def _canonical(game: GameDescription, size: int | None, text: str) -> Move:
    """The move ``text`` writes in ``game`` on a board of ``size``, as the game reads it.

    Raises ``UnreadableMove`` saying why it is none."""
    from arbiter.notation.build import check_move
    from arbiter.notation.grn_reader import parse_move

    try:
        return check_move(parse_move(text.strip(BLANK)), game, size)
    except (RecordError, ValueError) as err:
        message = err.message if isinstance(err, RecordError) else str(err)
        raise UnreadableMove(f"{text!r} is no move of {game.name}: {message}") from None


# --- GRN ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"[^ \t\r\n{}]+")
_COMMENT_NEXT = re.compile(r"[ \t\r\n]*\{")


def _correct_grn(text: str, target: _Target, new: Move) -> Correction:
    if target.where.line is None or target.where.column is None:
        raise CannotLocate("a move of a GRN record is found by its line and column")
    start = _offset(text, target.where.line, target.where.column)
    token = _TOKEN.match(text, start) if start is not None else None
    if token is None:
        raise CannotLocate(
            f"no move stands at line {target.where.line}, column {target.where.column}"
        )
    written = token.group()
    _check_changed(target, written, new)
    after = token.end()
    tail = _with_note(text[after:], f"was: {written}")
    corrected = text[:start] + str(new) + tail
    return Correction(corrected, target.ply, str(new), written)


def _offset(text: str, line: int, column: int) -> int | None:
    """Where line ``line``, column ``column`` (both from 1, as the reader counts: lines end
    at LF, a character is a column, a byte-order mark is not) stands in ``text``; None when
    the text has no such place."""
    if line < 1 or column < 1:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    if line == 1 and text.startswith("\ufeff"):
        start += 1
    end = text.find("\n", start)
    offset = start + column - 1
    return offset if offset < (len(text) if end < 0 else end) else None


def _with_note(tail: str, note: str) -> str:
    """The text that follows a corrected move, with ``note`` as the move's comment: put
    first in the comment already there, or in a new one."""
    comment = _COMMENT_NEXT.match(tail)
    if comment is None:
        return f" {{{note}}}" + tail
    opened = comment.end()
    inside = len(tail) - len(tail[opened:].lstrip(BLANK))
    separator = "" if tail[inside : inside + 1] == "}" else "; "
    return tail[:opened] + note + separator + tail[inside:]


def _check_changed(target: _Target, written: str, new: Move) -> None:
    """Refuse a correction that writes the move already there: it would change nothing
    but leave a note that it did."""
    was = target.read
    if was is None:
        try:
            was = _canonical(target.game, target.size, written)
        except UnreadableMove:
            return
    if was == new:
        raise CorrectionError(f"ply {target.ply} already holds {new}")


# --- JSON --------------------------------------------------------------------------------

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


class _Span(NamedTuple):
    """A JSON value in the text: where it starts and ends, and its text."""

    start: int
    end: int
    text: str


def _correct_json(text: str, target: _Target, new: Move) -> Correction:
    record = _json_record_span(text, target.record)
    old = _json_move_span(text, record, target)
    found = json.loads(old.text)
    if not isinstance(found, dict):
        raise CannotLocate(f"the move of ply {target.ply} is not a JSON object")
    written = str(target.read) if target.read is not None else _described(found)
    _check_changed(target, written, new)
    comment = f"was: {written}"
    if isinstance(found.get("comment"), str) and found["comment"].strip(BLANK):
        comment += "; " + found["comment"].strip(BLANK)
    value = {"type": new.type, **new.json_fields(), "comment": comment}
    corrected = text[: old.start] + _styled(value, old, text) + text[old.end :]
    return Correction(corrected, target.ply, str(new), written)


def _json_record_span(text: str, index: int) -> _Span:
    """Record ``index`` of a JSON document: the object itself, or an element of its array.

    Raises ``CannotLocate`` when the text is not JSON far enough to find it."""
    try:
        start = _skip(text, 1 if text.startswith("\ufeff") else 0)
        if text[start] == "{":
            if index != 0:
                raise NoSuchRecord(f"there is no record {index + 1}: the text holds one record")
            return _span(text, start)
        for number, element in enumerate(_elements(text, start)):
            if number == index:
                return element
    except (ValueError, IndexError) as err:
        if isinstance(err, CorrectionError):
            raise
        raise CannotLocate(f"the JSON text cannot be read far enough: {err}") from None
    raise NoSuchRecord(f"there is no record {index + 1}: the text holds fewer records")


def _json_move_span(text: str, record: _Span, target: _Target) -> _Span:
    pointer = target.where.pointer or ""
    try:
        members = _members(text, record.start)
        if "header" in members and "game" not in members:
            raise CannotLocate(
                "an Abstract Play record cannot hold the note of a correction: convert it to "
                "GRN or JSON first (arbiter convert --to grn)"
            )
        number = re.fullmatch(r"/moves/([0-9]{1,9})(/.*)?", pointer)
        if number is None:
            raise CannotLocate(f"a move of a JSON record stands at /moves/N, not {pointer!r}")
        moves = members.get("moves")
        if moves is not None:
            for position, element in enumerate(_elements(text, moves.start)):
                if position == int(number.group(1)):
                    return element
    except (ValueError, IndexError) as err:
        if isinstance(err, CorrectionError):
            raise
        raise CannotLocate(f"the JSON record cannot be read far enough: {err}") from None
    raise NoSuchPly(f"the record has no move at {pointer}")


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def _span(text: str, at: int) -> _Span:
    """The JSON value that starts at ``at``. Raises ``ValueError`` if there is none."""
    _value, end = _DECODER.raw_decode(text, at)
    return _Span(at, end, text[at:end])


def _elements(text: str, at: int) -> Iterator[_Span]:
    """The elements of the JSON array that starts at ``at``."""
    if text[at] != "[":
        raise ValueError(f"an array was expected at character {at + 1}")
    at = _skip(text, at + 1)
    while text[at] != "]":
        element = _span(text, at)
        yield element
        at = _skip(text, element.end)
        if text[at] == ",":
            at = _skip(text, at + 1)


def _members(text: str, at: int) -> dict[str, _Span]:
    """The values of the JSON object that starts at ``at``, by key."""
    if text[at] != "{":
        raise ValueError(f"an object was expected at character {at + 1}")
    found: dict[str, _Span] = {}
    at = _skip(text, at + 1)
    while text[at] != "}":
        key = _span(text, at)
        at = _skip(text, _skip(text, key.end) + 1)  # past the colon
        value = _span(text, at)
        found[json.loads(key.text)] = value
        at = _skip(text, value.end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return found


def _described(found: dict[str, Any]) -> str:
    """What a JSON move object that could not be read held, as a note can say it: its GRN
    token when a move form reads it, else the values of its fields (a note cannot hold
    braces, which GRN could not write)."""
    for form in move_forms():
        if form.form.type == found.get("type"):
            try:
                return str(form.from_json(found))
            except (RecordError, ValueError, KeyError, TypeError):
                continue
    values = [str(value) for key, value in found.items() if key not in ("type", "comment")]
    return re.sub(r"[{}]", "", " ".join(values)) or "nothing"


def _styled(value: dict[str, Any], old: _Span, text: str) -> str:
    """``value`` as JSON written the way ``old`` was: on one line with or without spaces
    after the colons and commas, or indented as its lines were."""
    if "\n" not in old.text:
        spaced = re.search(r'"\s*:\s', old.text) is not None
        separators = (", ", ": ") if spaced else (",", ":")
        return json.dumps(value, ensure_ascii=False, separators=separators)
    line_start = text.rfind("\n", 0, old.start) + 1
    base = text[line_start : old.start]
    base = base if not base.strip(BLANK) else ""
    inner = re.search(r"\n([ \t]*)\S", old.text)
    step = inner.group(1)[len(base) :] if inner and inner.group(1).startswith(base) else "  "
    dumped = json.dumps(value, ensure_ascii=False, indent=step or "  ")
    return dumped.replace("\n", "\n" + base)


def notation_of(name: str | None, text: str) -> Notation:
    """The notation of a file ``name`` holding ``text``: the name's, else the text's."""
    head = text.lstrip("\ufeff" + BLANK)[:64]
    return format_for_name(name) or sniff_format(head.encode("utf-8", "surrogatepass"))
