"""Reading GRN text: cut a file into records, read each, and build the records.

Implements ``spec/grn.md`` (its limits: section 9). A record is read by the fast path of
:mod:`arbiter.notation.grn_scan` when it is plainly well formed, else by the lark grammar
(:mod:`arbiter.notation.grn_lark`), which words the syntax errors; problems become
:class:`RecordError` objects with codes. A broken record never stops the reading of the
records after it: a line holding a ``Game`` tag starts a new record even inside a comment
left open.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from arbiter.notation import limits
from arbiter.notation.ast import Move, Record
from arbiter.notation.chunk import Chunk
from arbiter.notation.errors import UTF8_ADVICE, LimitError, NotationSyntaxError, RecordError
from arbiter.notation.grn_scan import build, move_of_word, scan, word_pattern
from arbiter.notation.limits import BLANK, BOM, MAX_RECORD_BYTES

_GAME_TAG = re.compile(r"\[[ \t]*Game[ \t]*\"")
"""The start of a line (after its white space) that holds a Game tag."""


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
        return parse_grn_record(chunk.text, first_line=chunk.first_line, index=chunk.index)
    except RecordError as err:
        if chunk.resumed is not None and err.record is None:
            err.message += (
                f"; the comment runs into line {chunk.resumed}, whose Game tag starts the next "
                "record, so this record ends there"
            )
            err.args = (err.message,)
        err.source = (chunk.text, chunk.first_line)
        return err.located(index=chunk.index, file=file)


def parse_grn_record(text: str, *, first_line: int = 1, index: int = 0) -> Record:
    """Parse the text of exactly one record.

    Raises :class:`RecordError` at the first problem; when the problem does not stop the
    replay (see :class:`RecordError`), the error carries the record as far as it was read.
    A plainly well-formed record is tokenised by :mod:`arbiter.notation.grn_scan`; any other
    goes through the lark parser, which words the syntax errors. Both give the same tokens
    to the same checks."""
    _check_comments(text, first_line)
    scanned = scan(text, first_line - 1)
    if scanned is not None:
        return build(scanned.tags, scanned.words, first_line - 1, index, None, scanned.movetext)
    from arbiter.notation.grn_lark import parse_with_lark  # only for the unusual record

    tags, words, problems = parse_with_lark(text, first_line)
    return build(tags, words, first_line - 1, index, problems)


def _check_comments(text: str, first_line: int) -> None:
    """Refuse a record of more than MAX_COMMENTS comments before parsing it (each costs the
    parser a token). Counting ``{`` is enough unless comments themselves hold ``{``.

    The comments are found with ``str.find``, once over the text: a comment is a ``{`` and
    the first ``}`` after it, and once no ``}`` follows, no comment does. (A regular
    expression searched from every ``{`` rescans to the end of the text from each one.)"""
    most = limits.MAX_COMMENTS
    if text.count("{") <= most:
        return
    number, start = 0, text.find("{")
    while start >= 0 and (end := text.find("}", start + 1)) >= 0:
        number += 1
        if number > most:
            line = text.count("\n", 0, start) + first_line
            column = start - text.rfind("\n", 0, start)
            raise LimitError(
                f"the record has more than {most} comments",
                code="too-many-comments",
                line=line,
                column=column,
            )
        start = text.find("{", end + 1)


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
    """Cut a file into records.

    A tag line that follows movetext starts the next record, and so does a line that holds
    a ``Game`` tag when the record already has one, or a blank line, or a comment still
    open: a comment never swallows the records after it, nor do tags left alone. Any other
    ``{`` comment left open across lines keeps its lines in the current record, so a
    comment line that starts with ``[`` does not cut it. Once a record has an error (bytes
    that are not UTF-8, or more than MAX_RECORD_BYTES, MAX_LINES or MAX_TAGS), its text is
    no longer kept: its chunk carries the error instead.

    Every line of every file passes here, so the state is kept in local variables and each
    limit costs one comparison per line; hence the length of this function."""
    most_bytes, most_lines, most_tags = MAX_RECORD_BYTES, limits.MAX_LINES, limits.MAX_TAGS
    buffer: list[str] = []
    size = count = tags = index = 0
    first = 1
    movetext = game_seen = in_comment = gap = False
    error: RecordError | None = None
    for number, raw in enumerate(lines, 1):
        text, problem = _decode(raw, number)
        stripped = text.lstrip(BLANK)
        starts_tag = False
        if stripped[:1] == "[":
            game = "Game" in stripped and _GAME_TAG.match(stripped) is not None
            starts_tag = game or not in_comment
            if starts_tag and (movetext or in_comment or (game and (game_seen or gap))):
                yield Chunk("".join(buffer), first, index, error, number if in_comment else None)
                buffer, size, count, tags, first, index = [], 0, 0, 0, number, index + 1
                movetext = game_seen = in_comment = gap = False
                error = None
            game_seen = game_seen or game
        elif not stripped:
            if not count:
                first = number + 1
                continue
            gap = True  # a blank line ends a tag section
        size += len(raw)
        count += 1
        tags += starts_tag
        if error is not None:
            pass  # the record is refused already: its text is not needed
        elif problem or size > most_bytes or count > most_lines or tags > most_tags:
            error = problem or _over(size, count, tags, first, number)
        else:
            buffer.append(text)
        if stripped and not starts_tag:
            movetext = True
            in_comment = _comment_open_after(text, in_comment)
    if count:
        yield Chunk("".join(buffer), first, index, error)


def _over(size: int, lines: int, tags: int, first: int, number: int) -> RecordError:
    """The error of a record that has just crossed a limit at line ``number``."""
    if size > MAX_RECORD_BYTES:
        why, code, line = f"the record is larger than {MAX_RECORD_BYTES} bytes", "too-large", first
    elif lines > limits.MAX_LINES:
        why, code, line = (
            f"the record has more than {limits.MAX_LINES} lines",
            "too-many-lines",
            number,
        )
    else:
        why, code, line = (
            f"the record has more than {limits.MAX_TAGS} tags",
            "too-many-tags",
            number,
        )
    return LimitError(why, code=code, line=line, column=1)


def _decode(raw: bytes, number: int) -> tuple[str, RecordError | None]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as err:
        column = len(raw[: err.start].decode("utf-8", "replace")) + 1
        problem = NotationSyntaxError(
            f"the bytes are not UTF-8 (byte 0x{raw[err.start]:02x}): {UTF8_ADVICE}",
            code="encoding",
            line=number,
            column=column,
        )
        return raw.decode("utf-8", "replace"), problem


def _comment_open_after(text: str, open_: bool) -> bool:
    """Whether a ``{`` comment is still open after this line (comments do not nest)."""
    opened, closed = text.rfind("{"), text.rfind("}")
    return open_ if opened == closed else opened > closed
