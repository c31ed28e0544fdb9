"""Reading GRN text: cut a file into records, read each, and build the records.

Implements ``spec/grn.md``. A record is read by the fast path of
:mod:`arbiter.notation.grn_scan` when it is plainly well formed, else by the lark grammar
(:mod:`arbiter.notation.grn_lark`), which words the syntax errors; problems become
:class:`RecordError` objects with codes. A broken record never stops the reading of the records
after it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from arbiter.notation.ast import (
    Move,
    Record,
)
from arbiter.notation.errors import NotationSyntaxError, RecordError
from arbiter.notation.grn_scan import build, move_of_word, scan, word_pattern

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""A record larger than this is reported as ``too-large`` and skipped (spec/grn.md, Limits)."""

BOM = b"\xef\xbb\xbf"
SPECIAL_TAGS = ("Game", "Size", "Komi", "Setup", "Result")


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one record, where it starts in its file, and a reading error if any."""

    text: str
    first_line: int
    index: int
    error: RecordError | None = None


def read_grn(
    source: str | bytes | BinaryIO, *, file: str | None = None
) -> Iterator[Record | RecordError]:
    """Yield each record of a GRN file in order, or the error that stopped it.

    ``source`` is text, bytes, or a binary stream (read lazily, so a large file is never held
    whole). Never raises :class:`RecordError`; errors are yielded with ``index`` and ``file``."""
    for chunk in split_records(iter_lines(source)):
        yield read_chunk(chunk, file=file)


def parse_move(word: str) -> Move:
    """One move written as GRN (``d4``, ``c3xc5``, ``d4/e5/a1:b2``, ``pass`` ...), any case.

    Which game allows the move is not checked here. Raises ``NotationSyntaxError`` if the
    word is no move form, ``InvalidRecordError`` (``off-board``) for a square no board has."""
    kind = word_pattern().fullmatch(word)
    if kind is None or kind.lastgroup == "MOVE_NUMBER":
        raise NotationSyntaxError(f"{word!r} is not a move")
    return move_of_word((word, kind.lastgroup or "", 1, 1), 0)


def read_chunk(chunk: Chunk, *, file: str | None = None) -> Record | RecordError:
    """The record of one chunk from :func:`split_records`, or the error that stopped it."""
    try:
        if chunk.error is not None:
            raise chunk.error
        return parse_record(chunk.text, first_line=chunk.first_line, index=chunk.index)
    except RecordError as err:
        return err.located(index=chunk.index, file=file)


def parse_record(text: str, *, first_line: int = 1, index: int = 0) -> Record:
    """Parse the text of exactly one record. Raises :class:`RecordError` at the first problem.

    A plainly well-formed record is tokenised by :mod:`arbiter.notation.grn_scan`; any other
    goes through the lark parser, which words the syntax errors. Both give the same tokens
    to the same checks."""
    scanned = scan(text)
    if scanned is not None:
        return build(scanned.tags, scanned.words, first_line - 1, index)
    from arbiter.notation.grn_lark import parse_with_lark  # only for the unusual record

    tags, words = parse_with_lark(text, first_line)
    return build(tags, words, first_line - 1, index)


def iter_lines(source: str | bytes | BinaryIO) -> Iterator[bytes]:
    """The lines of a source as bytes, read lazily, without a leading byte-order mark."""
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    first = stream.readline(MAX_RECORD_BYTES + 1)
    if first.startswith(BOM):
        first = first[len(BOM) :]
    if first:
        yield first
    while line := stream.readline(MAX_RECORD_BYTES + 1):
        yield line


def split_records(lines: Iterable[bytes]) -> Iterator[Chunk]:
    """Cut a file into records: a tag line that follows movetext starts the next record.

    A ``{`` comment left open across lines keeps its lines in the current record, so a
    comment line that starts with ``[`` does not cut it."""
    buffer: list[str] = []
    size = 0
    first = 1
    index = 0
    seen_movetext = False
    in_comment = False
    error: RecordError | None = None
    for number, raw in enumerate(lines, 1):
        text, problem = _decode(raw, number)
        stripped = text.lstrip()
        starts_tag = stripped.startswith("[") and not in_comment
        if starts_tag and seen_movetext:
            yield Chunk("".join(buffer), first, index, error)
            buffer, size, first, index, seen_movetext, error = [], 0, number, index + 1, False, None
        if not buffer and not stripped:
            first = number + 1
            continue
        if error is None and problem is not None:
            error = problem
        size += len(raw)
        if size > MAX_RECORD_BYTES:
            error = error or NotationSyntaxError(
                f"record is larger than {MAX_RECORD_BYTES} bytes",
                code="too-large",
                line=first,
                column=1,
            )
        else:
            buffer.append(text)
        if stripped and not starts_tag:
            seen_movetext = True
            in_comment = _comment_open_after(text, in_comment)
    if buffer or error:
        yield Chunk("".join(buffer), first, index, error)


def _decode(raw: bytes, number: int) -> tuple[str, RecordError | None]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as err:
        column = len(raw[: err.start].decode("utf-8", "replace")) + 1
        problem = NotationSyntaxError(
            f"the bytes are not UTF-8 (byte 0x{raw[err.start]:02x})",
            code="encoding",
            line=number,
            column=column,
        )
        return raw.decode("utf-8", "replace"), problem


def _comment_open_after(text: str, open_: bool) -> bool:
    """Whether a ``{`` comment is still open after this line (comments do not nest)."""
    opened, closed = text.rfind("{"), text.rfind("}")
    return open_ if opened == closed else opened > closed
