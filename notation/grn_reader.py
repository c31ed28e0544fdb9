"""Reading GRN text: cut a file into records, parse each with the LALR grammar, build records.

Implements ``spec/grn.md`` (its limits: section 9). The grammar lives in ``grammar/grn.lark``;
this module turns its tokens into :mod:`notation.ast` objects and its errors into
:class:`RecordError` with codes. A broken record never stops the reading of the records after
it: a line holding a ``Game`` tag starts a new record even inside a comment left open.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, BinaryIO

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from arbiter.notation import limits
from arbiter.notation.ast import (
    Button,
    Capture,
    Flip,
    ImploPlace,
    Location,
    Move,
    Pass,
    Place,
    Point,
    Record,
    Resolve,
    Sow,
    Swap,
    Tag,
    Turn,
)
from arbiter.notation.build import Value, build_record, normalise_result
from arbiter.notation.errors import (
    InvalidRecordError,
    LimitError,
    NotationSyntaxError,
    RecordError,
)
from arbiter.notation.games import GAMES, all_games, generation
from arbiter.notation.limits import BLANK, MAX_RECORD_BYTES

BOM = b"\xef\xbb\xbf"
SPECIAL_TAGS = ("Game", "Size", "Komi", "Setup", "Result")
SINGLE_TAGS = ("Game", "Size", "Komi", "Setup")
"""Tags whose second appearance leaves the record without a meaning: which game, which board."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one record, where it starts in its file, and a reading error if any.

    ``resumed`` is the line where the next record was started although a comment of this
    one was still open (a ``Game`` tag line always starts a record), so that the error of
    this record can say where reading resumed."""

    text: str
    first_line: int
    index: int
    error: RecordError | None = None
    resumed: int | None = None


class _Collect(Transformer[Token, object]):
    """Inline transformer: keeps tokens (they carry their own line and column)."""

    def tag(self, children: list[Token]) -> tuple[Token, ...]:
        return tuple(children)

    def movetext(self, children: list[Token]) -> list[Token]:
        return children

    def record(self, children: list[object]) -> tuple[list[object], object]:
        return children[:-1], children[-1]


WORD_TERMINALS = (
    "MOVE_NUMBER",
    "PLACE",
    "CAPTURE",
    "FLIP",
    "SOW",
    "IMPLO",
    "PASS",
    "SWAP",
    "BUTTON",
)


@dataclass(frozen=True, slots=True)
class Grammar:
    """The GRN parser for the games registered now, and the classifier of MOVES words."""

    parser: Lark
    word_kind: re.Pattern[str]
    """Matches one word of a MOVES token; ``lastgroup`` names the grammar terminal it is."""


def grammar() -> Grammar:
    """The grammar of ``grammar/grn.lark`` with ``COLOUR`` made from the registered games
    (built again only when the registry changes)."""
    return _grammar(generation())


@cache
def _grammar(_generation: int) -> Grammar:
    parser = lark_parser(start=["record", "word"], transformer=_Collect(), maybe_placeholders=False)
    kinds = "|".join(
        f"(?P<{name}>{parser.get_terminal(name).pattern.to_regexp()})" for name in WORD_TERMINALS
    )
    return Grammar(parser, re.compile(kinds, re.ASCII))


def lark_parser(**options: Any) -> Lark:
    """An LALR parser of ``grammar/grn.lark`` for the games registered now, with lark
    ``options`` (the reader's own, or others for tests and tools)."""
    text = files("arbiter.notation").joinpath("grammar/grn.lark").read_text(encoding="utf-8")
    # re.ASCII: a case-insensitive letter is an ASCII letter (no Kelvin sign for k).
    return Lark(
        text,
        parser="lalr",
        import_paths=[_colours],
        source_path="grammar/grn.lark",
        g_regex_flags=re.ASCII,
        **options,
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


_SPACE_SEPARATED = re.compile(r"[^ \t\r\n]+")
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
    kind = grammar().word_kind.fullmatch(word)
    if kind is None or kind.lastgroup == "MOVE_NUMBER":
        raise NotationSyntaxError(f"{word!r} is not a move")
    return _move((word, kind.lastgroup or "", 1, 1))


def read_chunk(chunk: Chunk, *, file: str | None = None) -> Record | RecordError:
    """The record of one chunk from :func:`split_records`, or the error that stopped it."""
    try:
        if chunk.error is not None:
            raise chunk.error
        return parse_record(chunk.text, first_line=chunk.first_line, index=chunk.index)
    except RecordError as err:
        if chunk.resumed is not None and err.record is None:
            err.message += (
                f"; the comment runs into line {chunk.resumed}, whose Game tag starts the next "
                "record, so this record ends there"
            )
            err.args = (err.message,)
        return err.located(index=chunk.index, file=file)


def parse_record(text: str, *, first_line: int = 1, index: int = 0) -> Record:
    """Parse the text of exactly one record.

    Raises :class:`RecordError` at the first problem; when the problem does not stop the
    replay (see :class:`RecordError`), the error carries the record as far as it was read."""
    _check_comments(text, first_line)
    try:
        parsed: Any = grammar().parser.parse(text, start="record")
    except UnexpectedInput as err:
        raise _syntax_error(err, text, first_line) from None
    tags, moves = parsed
    return _build(tags, moves, first_line - 1, index)


_COMMENT = re.compile(r"\{[^}]*\}")


def _check_comments(text: str, first_line: int) -> None:
    """Refuse a record of more than MAX_COMMENTS comments before parsing it (each costs the
    parser a token). Counting ``{`` is enough unless comments themselves hold ``{``."""
    most = limits.MAX_COMMENTS
    if text.count("{") <= most:
        return
    for number, found in enumerate(_COMMENT.finditer(text), 1):
        if number > most:
            line = text.count("\n", 0, found.start()) + first_line
            column = found.start() - text.rfind("\n", 0, found.start())
            raise LimitError(
                f"the record has more than {most} comments",
                code="too-many-comments",
                line=line,
                column=column,
            )


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
            game = _GAME_TAG.match(stripped) is not None
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
    lines = text.split("\n")
    source_line = lines[line - 1].rstrip("\r") if line <= len(lines) else ""
    where = Location(line=line + first_line - 1, column=column)
    word = _word_at(source_line, column - 1)
    position = err.pos_in_stream or 0
    opened = text[position : position + 1] == "{"
    if isinstance(err, UnexpectedCharacters) and opened:
        return NotationSyntaxError(
            "comment opened with '{' is never closed", code="unterminated-comment", where=where
        )
    if source_line.lstrip(BLANK).startswith("[") and not _after_movetext(err):
        return NotationSyntaxError(
            f'malformed tag line {_short(source_line.strip(BLANK))!r}: expected [Name "value"]',
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


def _short(text: str) -> str:
    """At most 60 characters of ``text``, for a message."""
    return text if len(text) <= 60 else text[:57] + "..."


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
    while end < len(line) and line[end] not in BLANK and end - start < 60:
        end += 1
    return line[start:end] or line[start : start + 1]


def _at(token: Token, shift: int) -> Location:
    return Location(line=token.line + shift, column=token.column)  # type: ignore[operator]


def _build(tags: list[tuple[Token, ...]], items: list[Token], shift: int, index: int) -> Record:
    start = (
        _at(tags[0][0], shift)
        if tags
        else (_at(items[0], shift) if items else Location(line=shift + 1, column=1))
    )
    problems: list[RecordError] = []
    named = _read_tags(tags, shift, problems)
    game_value = named.get("Game")
    spec = GAMES.get(game_value.text.strip(BLANK).lower()) if game_value else None
    colours = spec.colours if spec else ()
    turns, comment, result_token = _read_movetext(items, shift, problems)
    result = _result(named.get("Result"), result_token, shift, spec, problems)
    return build_record(
        game=game_value,
        size=named.get("Size"),
        komi=named.get("Komi"),
        setup=named.get("Setup"),
        players=[(c, named[c]) for c in colours if c in named],
        tags=[
            Tag(n, v.text, v.where)
            for n, v in named.items()
            if n not in SPECIAL_TAGS and n not in colours
        ],
        turns=turns,
        result=result,
        comment=comment,
        index=index,
        start=start,
        problems=problems,
    )


def _read_tags(
    tags: list[tuple[Token, ...]], shift: int, problems: list[RecordError]
) -> dict[str, Value]:
    """The tags by name. A tag out of its own line, or an ordinary tag written twice (the
    first is kept), is a problem that does not stop the record; a second Game, Size, Komi
    or Setup does, since the record would mean two things."""
    named: dict[str, Value] = {}
    previous_line = 0
    for open_, name, value, close in tags:
        where = _at(open_, shift)
        if open_.line != close.line or open_.line == previous_line:
            problems.append(
                NotationSyntaxError(
                    "each tag must stand alone on its own line", code="malformed-tag", where=where
                )
            )
        previous_line = open_.line  # type: ignore[assignment]
        if str(name) in named:
            repeated = NotationSyntaxError(
                f"tag {str(name)!r} is repeated", code="duplicate-tag", where=where
            )
            if str(name) in SINGLE_TAGS:
                raise repeated
            problems.append(repeated)
            continue
        named[str(name)] = Value(_unescape(str(value)[1:-1]), _at(value, shift))
    return named


def _unescape(text: str) -> str:
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        out.append(next(chars) if char == "\\" else char)
    return "".join(out)


def _result(
    tag: Value | None, token: Token | None, shift: int, spec: object, problems: list[RecordError]
) -> Value | None:
    """The claimed result, from the tag or the movetext's last token; None, and a problem,
    when the two say different things."""
    if token is None:
        return tag
    from_text = Value(str(token), _at(token, shift))
    if tag is None:
        return from_text
    if spec is not None:
        ours = normalise_result(tag.text.strip(BLANK), spec)  # type: ignore[arg-type]
        same = ours == normalise_result(str(token), spec)  # type: ignore[arg-type]
    else:
        same = tag.text.strip(BLANK) == str(token)
    if not same:
        problems.append(
            InvalidRecordError(
                f"the movetext ends with {str(token)!r} but the Result tag says {tag.text!r}",
                code="result-conflict",
                where=from_text.where,
            )
        )
        return None
    return tag


def _read_movetext(
    items: list[Token], shift: int, problems: list[RecordError]
) -> tuple[list[Turn], str | None, Token | None]:
    """Turn tokens into turns, checking move numbers and attaching comments to moves.

    A wrong move number is a problem that does not stop the record; a word that names no
    square ends the turns read (the record is replayed up to it). More than MAX_MOVES
    turns, or a move number of more than MAX_DIGITS digits, stop the record."""
    moves: list[tuple[Move, Location]] = []
    comments: list[list[str]] = [[]]  # comments[0]: before the first move
    number: _Word | None = None
    numbers = 0
    result: Token | None = None
    most = limits.MAX_MOVES
    ended = False
    for token in items:
        kind = token.type
        if kind == "COMMENT":
            comments[-1].append(str(token)[1:-1].strip(BLANK))
        elif kind == "RESULT":
            result = token
        elif not ended:
            for word in _words(token, shift):
                if word[1] == "MOVE_NUMBER":
                    if number is not None:
                        problems.append(_bad_number(number, "is followed by another move number"))
                    numbers += 1
                    if numbers > most:
                        raise _too_many_moves(word, most)
                    number = word
                    continue
                if number is not None:
                    _check_number(number, len(moves) + 1, problems)
                    number = None
                if len(moves) >= most:
                    raise _too_many_moves(word, most)
                try:
                    move = _move(word)
                except InvalidRecordError as err:
                    problems.append(err.located(ply=len(moves) + 1))
                    ended = True
                    break
                moves.append((move, Location(line=word[2], column=word[3])))
                comments.append([])
    if number is not None and not ended:
        problems.append(_bad_number(number, "is not followed by a move"))
    turns = [
        Turn(move, " ".join(notes) if notes else None, where)
        for (move, where), notes in zip(moves, comments[1:], strict=True)
    ]
    return turns, (" ".join(comments[0]) if comments[0] else None), result


def _too_many_moves(word: _Word, most: int) -> RecordError:
    return LimitError(
        f"the record has more than {most} turns",
        code="too-many-moves",
        line=word[2],
        column=word[3],
    )


_Word = tuple[str, str, int, int]
"""One word of a MOVES token: its text, the word terminal it matches, its line and column."""


def _words(token: Token, shift: int) -> Iterator[_Word]:
    """Cut a MOVES token into words and name each by the grammar's word terminal it matches.

    Raises ``NotationSyntaxError`` at a word that matches none."""
    text = str(token)
    line = token.line + shift  # type: ignore[operator]
    line_start = 1 - token.column  # type: ignore[operator]  # so that column = start + column
    end = 0
    classify = grammar().word_kind.fullmatch
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
                line=line,
                column=start - line_start + 1,
            )
        yield word, kind.lastgroup, line, start - line_start + 1  # type: ignore[misc]


def _check_number(token: _Word, ply: int, problems: list[RecordError]) -> None:
    text = token[0]
    digits = text.rstrip(".")
    if len(digits) > limits.MAX_DIGITS:
        raise LimitError(
            f"move number {_short(text)!r} has more than {limits.MAX_DIGITS} digits",
            code="too-many-digits",
            line=token[2],
            column=token[3],
        )
    written = int(digits)
    dots = text.endswith("...")
    expected = f"{(ply + 1) // 2}." if ply % 2 else f"{ply // 2}..."
    if (written, dots) != ((ply + 1) // 2, ply % 2 == 0):
        problems.append(_bad_number(token, f"stands before ply {ply}, which takes {expected!r}"))


def _bad_number(token: _Word, why: str) -> RecordError:
    return InvalidRecordError(
        f"move number {_short(token[0])!r} {why}",
        code="bad-move-number",
        line=token[2],
        column=token[3],
    )


def _move(word: _Word) -> Move:
    try:
        return _SEEN_MOVES[word[0]]
    except KeyError:
        pass
    try:
        move = _MOVE_READERS[word[1]](word[0])
    except ValueError:
        raise InvalidRecordError(
            f"{_short(word[0])!r} names a square that no board has (files a to s, ranks 1 to 19)",
            code="off-board",
            move=_short(word[0]),
            line=word[2],
            column=word[3],
        ) from None
    if len(word[0]) <= MAX_SEEN_LENGTH:
        if len(_SEEN_MOVES) >= MAX_SEEN_MOVES:
            _SEEN_MOVES.clear()
        _SEEN_MOVES[word[0]] = move
    return move


MAX_SEEN_MOVES = 100_000
MAX_SEEN_LENGTH = 40
"""Only short words are kept: the cache stays small whatever words a file holds."""
_SEEN_MOVES: dict[str, Move] = {}
"""Moves already read, by their text (moves are immutable values); most words repeat."""


_point = Point.parse


def _capture(text: str) -> Capture:
    origin, _, target = text.lower().partition("x")
    return Capture(_point(origin), _point(target))


def _sow(text: str) -> Sow:
    origin, _, path = text.partition(":")
    return Sow(_point(origin), path.lower())


def _implo(text: str) -> ImploPlace:
    at, *steps = text.split("/")
    return ImploPlace(_point(at), tuple(_step(step) for step in steps))


def _step(text: str) -> Resolve:
    patch, _, remove = text.partition(":")
    return Resolve(_point(patch), _point(remove) if remove else None)


_MOVE_READERS: dict[str, Callable[[str], Move]] = {
    "PLACE": lambda text: Place(_point(text)),
    "CAPTURE": _capture,
    "FLIP": lambda text: Flip(_point(text[:-1])),
    "SOW": _sow,
    "IMPLO": _implo,
    "PASS": lambda text: Pass(),
    "SWAP": lambda text: Swap(),
    "BUTTON": lambda text: Button(),
}
