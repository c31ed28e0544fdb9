"""Cutting a JSON source into records without parsing it whole (``spec/json.md`` sections
1 and 8).

A JSON source is one record object, or an array of them. The array is read as a stream:
each element's bytes are found by following strings and brackets, and handed on by
themselves, so that a file of any length is read in bounded memory, one broken element
does not hide the others, and an element over the record limit is skipped without being
parsed. Each element is then parsed on its own by :mod:`arbiter.notation.json_reader`.

Only the brackets and quotes of the text are looked at here; whether the text between them
is JSON is the parser's business. A break in that structure (a string or a bracket never
closed) leaves the rest of the source without a record boundary, and is one error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from arbiter.notation import limits
from arbiter.notation.errors import LimitError, NotationSyntaxError, RecordError
from arbiter.notation.limits import BLANK_BYTES, BOM

CHUNK = 64 * 1024
_NOT_BLANK = re.compile(rb"[^ \t\r\n]")
_CONTINUATION = bytes(range(0x80, 0xC0))
"""The bytes that continue a UTF-8 character; the others each start one."""


@dataclass(frozen=True, slots=True)
class JsonItem:
    """The text of one record as cut from its source, and where it starts (line and column,
    from 1, in characters); or the error that stopped it, with empty ``data``."""

    data: bytes
    index: int
    line: int
    column: int
    error: RecordError | None = None


def split_json(stream: IO[bytes]) -> Iterator[JsonItem]:
    """Yield the records of a JSON source in order: the elements of a top-level array, or
    the one top-level value. An empty source (white space only) yields nothing.

    An element over MAX_RECORD_BYTES (``too-large``) or nested deeper than MAX_JSON_DEPTH
    (``too-deep``) is given as an error and skipped; a structure that is never closed, or
    text after the array, ends the source with a ``bad-json`` error."""
    scan = _Scanner(stream)
    if not scan.skip_blank():
        return
    if scan.peek() == b"[":
        yield from _array(scan)
    else:
        yield _alone(scan)


def _alone(scan: _Scanner) -> JsonItem:
    """The one value of a source that is not an array: the rest of the source, which the
    parser reads whole (text after the value is its error). Not read past the limit."""
    start = scan.pos
    line, column = scan.location(start)
    while scan.base + len(scan.buffer) - start <= limits.MAX_RECORD_BYTES:
        if not scan.fill():
            return JsonItem(scan.take(start, scan.base + len(scan.buffer)), 0, line, column)
    return _refused(scan, 0, line, column, "too-large")


def _array(scan: _Scanner) -> Iterator[JsonItem]:
    scan.pos += 1  # the '['
    index = 0
    while True:
        if not scan.skip_blank():
            yield scan.error(index, "the array of records is never closed with ']'")
            return
        if scan.peek() == b"]" and index == 0:
            scan.pos += 1
            break
        item = _element(scan, index)
        yield item
        index += 1
        if scan.broken:
            return  # no record boundary is known any more
        end = scan.peek()  # the ',' or the ']' that ended the element
        scan.pos += 1
        scan.forget()
        if end == b"]":
            break
    if scan.skip_blank():
        yield scan.error(index, "there is text after the array of records")


def _element(scan: _Scanner, index: int) -> JsonItem:
    """Scan one element from ``scan.pos``; leave ``scan.pos`` on the ',' or ']' after it.
    An element over the limit is followed to its end without being kept. Text that cannot
    start a JSON value is not followed at all: its brackets mean nothing.

    Every token of every JSON record passes here (a bracket, a comma or a whole string per
    step of the loop), so the scan keeps its state in local variables, and checks the
    limits once per window read rather than once per token."""
    start = scan.pos
    line, column = scan.location(start)
    if scan.peek() not in _VALUE_STARTS:
        shown = scan.peek().decode("ascii", "replace")
        return scan.broke(index, f"a value cannot start with {shown!r}", line, column)
    depth = deepest = values = 0
    kept = True
    buffer, base, at = scan.buffer, scan.base, scan.pos - scan.base
    most, most_values = limits.MAX_RECORD_BYTES, limits.MAX_JSON_VALUES
    while True:
        ended = cut = False  # the element ended; a string runs past the window
        top = depth == 0  # at the array's own level, where a comma ends the element
        for found in (_AT_TOP if top else _INSIDE).finditer(buffer, at):
            kind = found.lastindex
            if kind == _OPEN:
                depth += 1
                values += 1
                if depth > deepest:
                    deepest = depth
            elif kind == _STRING:
                values += 1
            elif kind == _CLOSE and depth:
                depth -= 1
            elif kind == _CUT:
                cut = True
            elif kind == _CLOSE and buffer[found.start()] == 125:  # 125: '}'
                scan.pos = base + found.start()
                return scan.broke(index, "a '}' closes nothing here", *scan.location(scan.pos))
            else:
                ended = True  # the ',' or ']' that ends the element
            if ended or cut:
                at = found.start()
                break
            if (depth == 0) != top:
                at = found.end()  # into or out of the element: the other pattern from here
                break
        else:
            at = len(buffer)
        if values > most_values:
            # Following such a record to its end would cost as much again: stop here.
            scan.pos = base + at
            message = (
                f"the record holds more than {most_values} strings, arrays and objects; "
                "nothing after it is read"
            )
            return scan.broke(index, message, line, column, code="too-many-values")
        if ended:
            break
        if not cut and at < len(buffer):
            continue
        # The window ends, or a string runs past it: read more.
        if kept and base + len(buffer) - start > most:
            kept = False
        if cut:
            values += 1
            at, kept = _skip_string(scan, base + at + 1, start if kept else None)
            if at < 0:
                return scan.broke(index, "a string of this record is never closed", line, column)
            buffer, base = scan.buffer, scan.base
            continue
        scan.pos = base + at
        if not kept:
            scan.forget()
        if not scan.fill():
            return scan.broke(index, "this record is never closed", line, column)
        buffer, base, at = scan.buffer, scan.base, scan.pos - scan.base
    scan.pos = base + at
    if not kept or scan.pos - start > most:
        return _refused(scan, index, line, column, "too-large")
    if deepest > limits.MAX_JSON_DEPTH:
        return _refused(scan, index, line, column, "too-deep")
    data = scan.take(start, scan.pos).rstrip(BLANK_BYTES)
    if not data:
        return scan.error(index, "a value is missing here", line, column)
    return JsonItem(data, index, line, column)


_OPEN, _CLOSE, _STRING, _CUT, _COMMA = 1, 2, 3, 4, 5
"""Which group of the patterns below a token matched (``Match.lastindex``)."""
_TOKENS = rb'([\[{])|([\]}])|"[^"\\]*(?:\\.[^"\\]*)*(")|(")'
_AT_TOP = re.compile(_TOKENS + rb"|(,)", re.S)
"""At the array's own level: a bracket, a whole string, the quote of a string that runs
past the window (``_CUT``), or the comma that ends an element."""
_INSIDE = re.compile(_TOKENS, re.S)
"""Inside an element, whose commas do not matter."""
_VALUE_STARTS = [bytes([c]) for c in b'{["-0123456789tfn,]']
"""The first byte of a JSON value (or the ',' or ']' of a value left out)."""
_STRING_REST = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*(")?', re.S)


def _skip_string(scan: _Scanner, offset: int, start: int | None) -> tuple[int, bool]:
    """Follow a string that runs past the window, from the absolute ``offset`` inside it,
    to its closing quote, reading a window at a time. The element that holds it, from
    ``start``, is kept until it is over the limit; from then on (or when ``start`` is None)
    what was read is let go. Returns the offset in the window just past the quote (-1 if
    the source ends first) and whether the element is still kept."""
    while True:
        scan.pos = offset
        if start is None:
            scan.forget()
        if not scan.fill():
            return -1, start is not None
        if start is not None and scan.base + len(scan.buffer) - start > limits.MAX_RECORD_BYTES:
            start = None
        rest = _STRING_REST.match(scan.buffer, scan.pos - scan.base)
        assert rest is not None  # the pattern matches the empty string
        offset = scan.base + rest.end()
        if rest.group(1) is not None:
            scan.pos = offset
            return offset - scan.base, start is not None


def _refused(scan: _Scanner, index: int, line: int, column: int, code: str) -> JsonItem:
    scan.forget()
    message = (
        f"the record is larger than {limits.MAX_RECORD_BYTES} bytes"
        if code == "too-large"
        else f"the record's values are nested more than {limits.MAX_JSON_DEPTH} deep"
    )
    return JsonItem(
        b"", index, line, column, LimitError(message, code=code, line=line, column=column)
    )


class _Scanner:
    """A window on a byte stream: ``buffer`` holds the bytes from absolute offset ``base``
    on, ``pos`` is the absolute offset reached. Line and column are counted as the window
    moves, so they stay right however much of the source was let go."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.buffer = b""
        self.base = 0
        self.pos = 0
        self.eof = False
        self.counted = 0  # absolute offset up to which lines are counted
        self.line = 1
        self.column = 0  # characters since the last line break, up to ``counted``
        self.broken = False  # a structure was never closed: no boundary is known after it
        self.fill()
        if self.buffer.startswith(BOM):
            self.pos = self.counted = len(BOM)

    def fill(self) -> bool:
        """Read more of the stream into the window; False at its end."""
        if self.eof:
            return False
        more = self.stream.read(CHUNK)
        if not more:
            self.eof = True
            return False
        self.buffer += more
        return True

    def peek(self) -> bytes:
        return self.buffer[self.pos - self.base : self.pos - self.base + 1]

    def skip_blank(self) -> bool:
        """Move past white space; False if the source ends first."""
        while True:
            found = _NOT_BLANK.search(self.buffer, self.pos - self.base)
            if found is not None:
                self.pos = self.base + found.start()
                return True
            self.pos = self.base + len(self.buffer)
            self.forget()
            if not self.fill():
                return False

    def take(self, start: int, end: int) -> bytes:
        return self.buffer[start - self.base : end - self.base]

    def forget(self) -> None:
        """Let go of the bytes before ``pos`` (counting their lines first)."""
        self.location(self.pos)
        self.buffer = self.buffer[self.pos - self.base :]
        self.base = self.pos

    def location(self, offset: int) -> tuple[int, int]:
        """Line and column of the absolute ``offset`` (not before the last one asked)."""
        seen = self.buffer[self.counted - self.base : offset - self.base]
        breaks = seen.count(b"\n")
        if breaks:
            self.line += breaks
            seen = seen[seen.rfind(b"\n") + 1 :]
            self.column = 0
        self.column += len(seen.translate(None, _CONTINUATION))
        self.counted = offset
        return self.line, self.column + 1

    def broke(
        self, index: int, message: str, line: int, column: int, code: str = "bad-json"
    ) -> JsonItem:
        """The error after which no record can be told apart (a structure never closed, or
        one too costly to follow)."""
        self.broken = True
        if code == "bad-json":
            return self.error(index, message, line, column)
        return JsonItem(
            b"", index, line, column, LimitError(message, code=code, line=line, column=column)
        )

    def error(
        self, index: int, message: str, line: int | None = None, column: int | None = None
    ) -> JsonItem:
        """A ``bad-json`` item at ``line``/``column``, or where the scan stands."""
        if line is None or column is None:
            line, column = self.location(max(self.pos, self.counted))
        err = NotationSyntaxError(
            f"not valid JSON: {message}", code="bad-json", line=line, column=column
        )
        return JsonItem(b"", index, line, column, err)
