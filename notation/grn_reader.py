"""Reading GRN text: cut a file into records, parse each with the LALR grammar, build records.

Implements ``spec/grn.md``. The grammar lives in ``grammar/grn.lark``; this module turns its
tokens into :mod:`notation.ast` objects and its errors into :class:`RecordError` with codes.
A broken record never stops the reading of the records after it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, BinaryIO

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from arbiter.notation.ast import (
    Location,
    Move,
    Record,
)
from arbiter.notation.errors import NotationSyntaxError, RecordError
from arbiter.notation.games import all_games, generation
from arbiter.notation.grn_scan import TagLine, Word, build, move_of_word, scan, word_pattern

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


class _Collect(Transformer[Token, object]):
    """Inline transformer: keeps tokens (they carry their own line and column)."""

    def tag(self, children: list[Token]) -> tuple[Token, ...]:
        return tuple(children)

    def movetext(self, children: list[Token]) -> list[Token]:
        return children

    def record(self, children: list[object]) -> tuple[list[object], object]:
        return children[:-1], children[-1]


@dataclass(frozen=True, slots=True)
class Grammar:
    """The GRN parser for the games registered now."""

    parser: Lark


def grammar() -> Grammar:
    """The grammar of ``grammar/grn.lark`` with ``COLOUR`` made from the registered games
    (built again only when the registry changes)."""
    return _grammar(generation())


@cache
def _grammar(_generation: int) -> Grammar:
    parser = lark_parser(start="record", transformer=_Collect(), maybe_placeholders=False)
    return Grammar(parser)


def lark_parser(**options: Any) -> Lark:
    """An LALR parser of ``grammar/grn.lark`` for the games registered now, with lark
    ``options`` (the reader's own, or others for tests and tools)."""
    text = files("arbiter.notation").joinpath("grammar/grn.lark").read_text(encoding="utf-8")
    return Lark(
        text, parser="lalr", import_paths=[_colours], source_path="grammar/grn.lark", **options
    )


def colours_grammar() -> str:
    """The grammar that ``grn.lark`` imports its ``COLOUR`` terminal from."""
    colours = sorted({colour.lower() for game in all_games() for colour in game.colours})
    return "COLOUR: " + " | ".join(f'"{colour}"i' for colour in colours) + "\n"


def _colours(base_path: str | None, grammar_path: str) -> tuple[str, str]:
    """Lark import loader: serves ``colours.lark`` (see :func:`colours_grammar`)."""
    if grammar_path != "colours.lark":
        raise OSError(f"no grammar {grammar_path!r} here")
    return grammar_path, colours_grammar()


_SPACE_SEPARATED = re.compile(r"\S+")


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
    try:
        parsed: Any = grammar().parser.parse(text, start="record")
    except UnexpectedInput as err:
        raise _syntax_error(err, text, first_line) from None
    tags, tokens = parsed
    shift = first_line - 1
    return build(_tag_lines(tags), _tokens(tokens, shift), shift, index)


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


def _syntax_error(err: UnexpectedInput, text: str, first_line: int) -> RecordError:
    line: int = err.line if isinstance(err.line, int) and err.line > 0 else text.count("\n") + 1
    column: int = err.column if isinstance(err.column, int) and err.column > 0 else 1
    source_line = text.splitlines()[line - 1] if text.splitlines() else ""
    where = Location(line=line + first_line - 1, column=column)
    word = _word_at(source_line, column - 1)
    position = err.pos_in_stream or 0
    opened = text[position : position + 1] == "{"
    if isinstance(err, UnexpectedCharacters) and opened:
        return NotationSyntaxError(
            "comment opened with '{' is never closed", code="unterminated-comment", where=where
        )
    if source_line.lstrip().startswith("[") and not _after_movetext(err):
        return NotationSyntaxError(
            f'malformed tag line {source_line.strip()!r}: expected [Name "value"]',
            code="malformed-tag",
            where=where,
        )
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        return NotationSyntaxError("the record ends in the middle of a tag", where=where)
    if isinstance(err, UnexpectedToken) and _after_result(err):
        return NotationSyntaxError(
            f"unexpected {word!r} after the result; the result ends the movetext", where=where
        )
    return NotationSyntaxError(
        f"unexpected {word!r}: not a move, move number, comment or result", where=where
    )


def _after_movetext(err: UnexpectedInput) -> bool:
    return (
        isinstance(err, UnexpectedToken)
        and err.token.type == "LBRACKET"
        and bool(err.state is not None and "RESULT" in err.accepts | err.expected)
    )


def _after_result(err: UnexpectedToken) -> bool:
    return not err.expected or err.expected <= {"$END"}


def _word_at(line: str, start: int) -> str:
    end = start
    while end < len(line) and not line[end].isspace():
        end += 1
    return line[start:end] or line[start : start + 1]


def _tag_lines(tags: list[tuple[Token, ...]]) -> list[TagLine]:
    """Lark's tag tokens as the tag lines both paths share. Raises ``NotationSyntaxError``
    for a tag that does not stand alone on its own line."""
    lines: list[TagLine] = []
    for open_, name, value, close in tags:
        line: int = open_.line  # type: ignore[assignment]
        if close.line != line or (lines and lines[-1].line == line):
            raise NotationSyntaxError(
                "each tag must stand alone on its own line",
                code="malformed-tag",
                line=line,
                column=open_.column,
            )
        lines.append(TagLine(str(name), str(value), line, open_.column, value.column))  # type: ignore[arg-type]
    return lines


def _tokens(tokens: list[Token], shift: int) -> Iterator[Word]:
    """Lark's movetext tokens as the words both paths share: a MOVES token is cut into
    words, each named by its terminal (lazily, so that tag errors come first)."""
    for token in tokens:
        if token.type == "MOVES":
            yield from _words(token, shift)
        else:
            yield str(token), token.type, token.line, token.column  # type: ignore[misc]


def _words(token: Token, shift: int) -> Iterator[Word]:
    """Cut a MOVES token into words and name each by the grammar's word terminal it matches.

    Lines are counted in the record's text; raises ``NotationSyntaxError`` (located in the
    file, ``shift`` lines down) at a word that matches none."""
    text = str(token)
    line: int = token.line  # type: ignore[assignment]
    line_start = 1 - token.column  # type: ignore[operator]  # so that column = start + column
    end = 0
    classify = word_pattern().fullmatch
    for match in _SPACE_SEPARATED.finditer(text):
        start = match.start()
        if breaks := text.count("\n", end, start):
            line += breaks
            line_start = text.rfind("\n", end, start) + 1
        end = match.end()
        word = match.group()
        kind = classify(word)
        if kind is None:
            raise NotationSyntaxError(
                f"unexpected {word!r}: not a move, move number, comment or result",
                line=line + shift,
                column=start - line_start + 1,
            )
        yield word, kind.lastgroup, line, start - line_start + 1  # type: ignore[misc]
