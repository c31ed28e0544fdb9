"""Reading GRN without lark: a fast tokeniser for well-formed records, and the building of a
record from tokens, which both paths share (``spec/grn.md``).

Most records of an archive are well formed, and for them lark's lexer and LALR parser cost
more than all the rest of reading; building the parser also costs a large part of a
second at start-up. This module tokenises one record's text, line by line (tag lines, then
comments, words and the result), with the grammar's own regular expressions: those lark
compiles from ``grammar/grn.lark`` (generated into ``grn_terminals.py``) and the registered
move forms' patterns, which the grammar takes too.
It accepts only what the grammar accepts, and gives up (returns None) at the first thing it
is not sure of, so that such a record is read by lark, which also words every syntax
error. A test checks that these expressions are the ones lark compiles from the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final, NamedTuple

from arbiter.notation import limits
from arbiter.notation.ast import Location, Move, Record, Tag, Turn, make, tuple_of
from arbiter.notation.build import RawValue, build_record
from arbiter.notation.errors import (
    InvalidRecordError,
    LimitError,
    NotationSyntaxError,
    RecordError,
)
from arbiter.notation.games import (
    GameDescription,
    all_games,
    game_named,
    generation,
    move_forms,
)
from arbiter.notation.grn_terminals import GENERATED
from arbiter.notation.results import normalise_result

SPECIAL_TAGS = ("Game", "Size", "Komi", "Setup", "Result")
"""Tags that are fields of a record rather than ordinary tags."""
SINGLE_TAGS = ("Game", "Size", "Komi", "Setup")
"""Tags whose second appearance leaves the record without a meaning: which game, which board."""

WORD_LETTERS = " \\t\\r\\n{}\\[\\]"
"""What a word of movetext never holds (a regular expression class's body): blanks, braces
and brackets."""
BLANK = "[ \t\r\n]"
"""The grammar's ignored white space: exactly space, tab, CR and LF."""
_SPACES = limits.BLANK
"""The same, for ``str.strip``."""
_LINE_SPACES = " \t\r"
MARGIN = "[0-9]+(?:\\.[0-9]+)?|[rtf]"
"""What may follow ``+`` in the grammar's RESULT terminal (case-insensitive)."""

Word = tuple[str, str, int, int]
"""A token of movetext: its text, its kind (a word terminal, ``COMMENT`` or ``RESULT``),
its line (from 1 in the record's text) and column."""


_TURN: Final[type[Turn]] = Turn
_LOCATION: Final[type[Location]] = Location
_OF: Final[Any] = tuple_of()
"""The named tuples made per ply, and ``ast.tuple_of()`` (which makes them from values given
as arguments), as constants: compiled code looks a class that is not compiled up in the
module's globals at every use (here, every ply), and reads a constant from a static."""


class TagLine(NamedTuple):
    """One tag as written: name, the quoted value as written, and where both stand."""

    name: str
    value: str
    line: int
    column: int
    value_column: int


Movetext = tuple[list[Turn], str | None, RawValue | None, Location | None]
"""Movetext read into turns: the turns, the comment before the first move, the result
token (with where it stands) and where the movetext's first token stands."""


class Scanned(NamedTuple):
    """A record's tags and movetext tokens; ``movetext`` is the movetext already read into
    turns when it is plain (:func:`_plain_movetext`), and then ``words`` is empty."""

    tags: list[TagLine]
    words: list[Word]
    movetext: Movetext | None = None


class _Patterns(NamedTuple):
    tag: re.Pattern[str]
    token: re.Pattern[str]
    word: re.Pattern[str]
    result: re.Pattern[str]
    readers: dict[str, Callable[[str], Move]]
    tag_names: dict[str, str]
    """The names of the tags that are fields of a record (:data:`SPECIAL_TAGS`, and every
    game's colours), by their lowercase spelling."""


def _patterns() -> _Patterns:
    global _generation_seen
    now = generation()
    if now != _generation_seen:  # a game or a form came or went: words may read otherwise
        _KINDS.clear()
        _SEEN_MOVES.clear()
        _TAG_LINES.clear()
        _generation_seen = now
    return _compiled(now)


_generation_seen = -1


@cache
def _compiled(_generation: int) -> _Patterns:
    found = GENERATED
    blank = BLANK.replace("\\n", "")  # within one line
    tag = (
        f"{blank}*\\[{blank}*(?P<name>{found['TAG_NAME']}){blank}*"
        f"(?P<value>{found['TAG_VALUE']}){blank}*\\]{blank}*"
    )
    token = f"(?P<blank>{BLANK}+)|(?P<comment>{found['COMMENT']})|(?P<word>[^ \t\r\n{{}}]+)"
    forms = [form.form for form in move_forms()]
    words = [("MOVE_NUMBER", found["MOVE_NUMBER"]), *((f.terminal, f.pattern) for f in forms)]
    word = "|".join(f"(?P<{name}>{pattern})" for name, pattern in words)
    readers: dict[str, Callable[[str], Move]] = {}
    for form in move_forms():
        readers[form.form.terminal] = form.from_grn
    colours = "|".join(sorted({c.lower() for game in all_games() for c in game.colours}))
    result = f"\\*|(?i:{colours})(?:\\+(?i:{MARGIN}))?"
    # re.ASCII: a case-insensitive letter is an ASCII letter (no Kelvin sign for k).
    tag_re, token_re, word_re, result_re = [
        re.compile(p, re.ASCII) for p in (tag, token, word, result)
    ]
    names = [*SPECIAL_TAGS, *(colour for game in all_games() for colour in game.colours)]
    tag_names = {name.lower(): name for name in names}
    return _Patterns(tag_re, token_re, word_re, result_re, readers, tag_names)


def word_pattern() -> re.Pattern[str]:
    """Matches exactly one word of movetext; ``lastgroup`` names its terminal."""
    return _patterns().word


def move_of_text(text: str) -> Move | None:
    """The move ``text`` writes as a word of movetext, or None when it is no move (a move
    number, no word of any form, a square no board has). Not kept among the moves read:
    for words that are tried rather than read, like the slips of a move."""
    patterns = _patterns()
    kind = patterns.word.fullmatch(text)
    if kind is None or kind.lastgroup is None or kind.lastgroup == "MOVE_NUMBER":
        return None
    try:
        return patterns.readers[kind.lastgroup](text)
    except ValueError:
        return None


def scan(text: str, shift: int = 0, turns: bool = True) -> Scanned | None:
    """The tags and the movetext tokens of one record's text, or None when the text is not
    plainly well formed (then lark must read it).

    With ``turns``, plain movetext whose move numbers are all as expected is read straight
    into turns (lines counted ``shift`` lines below the record's text), without tokens:
    the movetext of nearly every record of an archive. Anything else in it (a comment, a
    move number to complain about, a square no board has) leaves that to the tokens."""
    patterns = _patterns()
    lines = text.split("\n")
    tags: list[TagLine] = []
    known = _TAG_LINES
    number = 0
    for number, line in enumerate(lines):
        tag = known.get(line)
        if tag is None:
            tag = _tag_line(line, patterns)
            if tag is None:
                if line.strip(_LINE_SPACES):
                    break
                continue
        name, value, column, value_column = tag
        tags.append(make(TagLine, (name, value, number + 1, column, value_column)))
    else:
        return Scanned(tags, [])
    if turns:
        movetext = _plain_movetext(lines, number, shift, patterns)
        if movetext is not None:
            return Scanned(tags, [], movetext)
    words = _movetext(lines, number, patterns)
    return None if words is None else Scanned(tags, words)


def _tag_line(line: str, patterns: _Patterns) -> tuple[str, str, int, int] | None:
    """The tag on ``line`` (name, value as written, the columns of the tag and its value),
    remembered by the line's text; None if the line holds no tag alone."""
    match = patterns.tag.fullmatch(line)
    if match is None:
        return None
    tag = (match["name"], match["value"], line.index("[") + 1, match.start("value") + 1)
    if len(line) <= MAX_TAG_LINE:
        if len(_TAG_LINES) >= MAX_TAG_LINES:
            _TAG_LINES.clear()
        _TAG_LINES[line] = tag
    return tag


MAX_TAG_LINES = 10_000
MAX_TAG_LINE = 200
_TAG_LINES: Final[dict[str, tuple[str, str, int, int]]] = {}
"""The tags of the tag lines met so far, by the line's text: an archive repeats most of its
tag lines (the game, the size, the event, the players), which are then read with one
look-up instead of the tag expression. Only short lines are kept, so the table stays
small whatever a file holds."""


def _plain(line: str) -> bool:
    """Whether ``line`` is ASCII without the characters a plain line may not hold: comments
    (``{``, ``}``), and the few that ``str.split`` (with no argument) takes for white space
    but the grammar does not (the control characters 0x0B, 0x0C and 0x1C to 0x1F). One
    search of the line per character, each a fast scan of memory: cheaper than a generator
    over them or a regular expression."""
    return line.isascii() and not (
        "{" in line
        or "}" in line
        or "\x0b" in line
        or "\x0c" in line
        or "\x1c" in line
        or "\x1d" in line
        or "\x1e" in line
        or "\x1f" in line
    )


def _movetext(lines: list[str], first: int, patterns: _Patterns) -> list[Word] | None:
    """The tokens of the movetext that starts at ``lines[first]``; None at anything unusual.

    A plain line (ASCII, no comment) is cut with ``str.split`` and its words looked up in
    :data:`_KINDS`; from the first other line on, the text is tokenised by regular
    expressions (:func:`_tokens`)."""
    words: list[Word] = []
    kinds = _KINDS
    for number in range(first, len(lines)):
        line = lines[number]
        if not _plain(line):
            rest = _tokens("\n".join(lines[number:]), number + 1, patterns)
            return None if rest is None else words + rest
        position = 0
        for word in line.split():
            kind = kinds.get(word) or _kind(word, patterns)
            if kind is None:
                if _only_blanks_after(lines, number, line, word, position):
                    if patterns.result.fullmatch(word):
                        column = line.find(word, position) + 1
                        words.append((word, "RESULT", number + 1, column))
                        return words
                return None  # lark words the problem
            column = line.find(word, position)
            position = column + len(word)
            words.append((word, kind, number + 1, column + 1))
    return words


def _plain_movetext(lines: list[str], first: int, shift: int,
                    patterns: _Patterns) -> Movetext | None:  # fmt: skip
    """The movetext that starts at ``lines[first]`` read into turns, when every line is
    plain (see :func:`_movetext`), every move number the one its ply takes (``N.`` before
    a first player's move, ``N...`` before a second's), every word a move read without a
    problem, and the result, if any, the last token; else None, and the tokens say what
    :func:`_read_movetext` makes of it.

    One pass, without a token, a comment list or a move number check per ply: a line is
    cut at its spaces, so each word's column follows from the lengths before it; a move
    number is compared with the one expected, and a move read before costs one dictionary
    look-up (only a new word's terminal is looked up)."""
    turns: list[Turn] = []
    kinds = _KINDS
    seen = _SEEN_MOVES
    numbers = _NUMBERS
    most = limits.MAX_MOVES
    numbered = False  # a move number stands before the next move
    start: Location | None = None
    for index in range(first, len(lines)):
        line = lines[index]
        if not _plain(line):
            return None
        row = index + 1 + shift
        if "\t" in line or "\r" in line:  # blanks of one character, as a space is
            line = line.replace("\t", " ").replace("\r", " ")
        position = 0
        for word in line.split(" "):  # each piece a space apart: no search for the column
            column = position
            position += len(word) + 1
            if not word:
                continue
            if start is None:
                start = make(_LOCATION, (row, column + 1, None))
            ply = len(turns) + 1
            if ply >= len(numbers):
                numbers = _numbers(ply)
            if word == numbers[ply]:  # a move number (the one expected)
                if numbered:
                    return None
                numbered = True
                continue
            move = seen.get(word)  # a move read before: no need for its terminal
            if move is None:
                kind = kinds.get(word) or _kind(word, patterns)
                if kind is None:
                    if numbered or not patterns.result.fullmatch(word):
                        return None
                    if not _only_blanks_after(lines, index, line, word, column):
                        return None
                    where = make(_LOCATION, (row, column + 1, None))
                    return turns, None, RawValue(word, where), start
                if kind == "MOVE_NUMBER":
                    return None
                move = _read_move(word, kind, patterns)
                if move is None:
                    return None
            numbered = False
            if ply > most:
                return None
            turns.append(_OF(_TURN, move, None, _OF(_LOCATION, row, column + 1, None)))
    if numbered:
        return None
    return turns, None, None, start


def _numbers(ply: int) -> list[str]:
    """:data:`_NUMBERS`, made to hold the number of ``ply`` (made as records need them:
    start-up matters)."""
    for more in range(len(_NUMBERS), max(ply + 1, 2 * len(_NUMBERS))):
        _NUMBERS.append(f"{(more + 1) // 2}." if more % 2 else f"{more // 2}...")
    return _NUMBERS


_NUMBERS: Final[list[str]] = [""]
"""The move number each ply takes, by ply (from 1): ``1.``, ``1...``, ``2.``, ..."""


def _read_move(word: str, kind: str, patterns: _Patterns) -> Move | None:
    """The move ``word`` of terminal ``kind`` writes (kept among the moves read, as
    :func:`move_of_word` keeps it), or None for a square no board has."""
    try:
        move = patterns.readers[kind](word)
    except ValueError:
        return None
    if len(word) <= MAX_SEEN_LENGTH:
        if len(_SEEN_MOVES) >= MAX_SEEN_MOVES:
            _SEEN_MOVES.clear()
        _SEEN_MOVES[word] = move
    return move


def _kind(word: str, patterns: _Patterns) -> str | None:
    """The word terminal ``word`` matches (remembered), or None."""
    found = patterns.word.fullmatch(word)
    if found is None:
        return None
    if len(_KINDS) >= MAX_KINDS:
        _KINDS.clear()
    kind = _KINDS[word] = found.lastgroup or ""
    return kind


MAX_KINDS = 100_000
_KINDS: Final[dict[str, str]] = {}
"""The word terminal of each word met so far: most words of an archive repeat."""


def _only_blanks_after(lines: list[str], number: int, line: str, word: str,
                       position: int) -> bool:  # fmt: skip
    """Whether nothing but blanks follows ``word`` (found from ``position`` on its line)."""
    end = line.find(word, position) + len(word)
    return not line[end:].strip(_LINE_SPACES) and not any(
        rest.strip(_LINE_SPACES) for rest in lines[number + 1 :]
    )


def _tokens(text: str, line: int, patterns: _Patterns) -> list[Word] | None:
    """The tokens of movetext ``text`` that starts on ``line``, by regular expressions;
    None at anything unusual."""
    words: list[Word] = []
    classify = patterns.word.fullmatch
    line_start = 0  # where the current line starts in ``text``
    position = 0  # where the previous token ended: tokens must follow each other
    token = patterns.token.match  # at one position only: a search would try every later
    end = len(text)  # position too, each rescanning an unclosed comment to the end
    while position < end:
        match = token(text, position)
        if match is None:
            return None  # a character no token begins with, such as a lone '}'
        start, position = match.span()
        kind = match.lastgroup
        if kind == "word":
            word = match.group()
            found = classify(word)
            if found is not None:
                words.append((word, found.lastgroup or "", line, start - line_start + 1))
            elif patterns.result.fullmatch(word) and not text[position:].strip(_SPACES):
                words.append((word, "RESULT", line, start - line_start + 1))
            else:
                return None  # lark words the problem
            continue
        if kind == "comment":
            words.append((match.group(), "COMMENT", line, start - line_start + 1))
        breaks = text.count("\n", start, position)
        if breaks:
            line += breaks
            line_start = text.rfind("\n", start, position) + 1
    return words


# --- from tokens to a record (both paths) --------------------------------------------


def build(
    tags: list[TagLine],
    words: Iterable[Word],
    shift: int,
    index: int,
    problems: list[RecordError] | None = None,
    movetext: Movetext | None = None,
) -> Record:
    """The record of these tags and movetext tokens (lines counted in the record's text,
    ``shift`` lines above the file's), or of the movetext already read into turns.

    Raises :class:`RecordError` at the first problem that stops the record; the problems
    that do not stop it (``problems`` holds those found before) are carried by the error
    that :func:`~arbiter.notation.build.build_record` raises, with the record."""
    problems = [] if problems is None else problems
    named = _meant_tags(_read_tags(tags, shift, problems), tags, shift, problems)
    game_value = named.get("Game")
    spec = game_named(game_value.text.strip(_SPACES)) if game_value else None
    colours = spec.colours if spec else ()
    if movetext is None:
        movetext = _read_movetext(words, shift, problems)
    turns, comment, result_word, first = movetext
    start = make(_LOCATION, (tags[0].line + shift, tags[0].column, None)) if tags else first
    result = _result(named.get("Result"), result_word, spec, problems)
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
        start=start or Location(line=shift + 1, column=1),
        problems=problems,
    )


def _read_tags(tags: list[TagLine], shift: int, problems: list[RecordError]) -> dict[str, RawValue]:
    """The tags by name. An ordinary tag written twice is a problem that does not stop the
    record (the first is kept); a second Game, Size, Komi or Setup does, since the record
    would mean two things."""
    named: dict[str, RawValue] = {}
    for tag in tags:
        if tag.name in named:
            repeated = NotationSyntaxError(
                f"tag {tag.name!r} is repeated",
                code="duplicate-tag",
                line=tag.line + shift,
                column=tag.column,
            )
            if tag.name in SINGLE_TAGS:
                raise repeated
            problems.append(repeated)
            continue
        where = make(_LOCATION, (tag.line + shift, tag.value_column, None))
        named[tag.name] = RawValue(unescape(tag.value[1:-1]), where)
    return named


def _meant_tags(
    named: dict[str, RawValue], tags: list[TagLine], shift: int, problems: list[RecordError]
) -> dict[str, RawValue]:
    """The tags by name, a tag whose name is that of a field of the record written in
    another case (``game``, ``RESULT``, ``blue`` in Pilo) renamed to it, in its place, with a
    ``tag-case`` problem: a slip copied from a scoresheet (``spec/hints.md``). Not when the
    record also has the tag as it is spelt, nor for a colour the game does not have: those
    are ordinary tags."""
    known = _patterns().tag_names
    if all(known.get(name.lower(), name) == name for name in named):
        return named  # the common case: one look-up per tag
    game = named.get("Game") or next((v for n, v in named.items() if n.lower() == "game"), None)
    spec = game_named(game.text.strip(_SPACES)) if game is not None else None
    wanted = {n.lower(): n for n in (*SPECIAL_TAGS, *(spec.colours if spec else ()))}
    meant: dict[str, RawValue] = {}
    for name, value in named.items():
        spelt = wanted.get(name.lower(), name)
        if spelt != name and spelt not in named and spelt not in meant:
            tag = next(t for t in tags if t.name == name)
            problems.append(
                NotationSyntaxError(
                    f"tag {short(name)!r} is {spelt!r} written in another case",
                    code="tag-case",
                    line=tag.line + shift,
                    column=tag.column,
                )
            )
            name = spelt
        meant[name] = value
    return meant


def unescape(text: str) -> str:
    """The text of a tag value written between its quotes: ``\\"`` is ``"``, ``\\\\`` is ``\\``."""
    if "\\" not in text:
        return text  # nearly every value: nothing to build
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        out.append(next(chars) if char == "\\" else char)
    return "".join(out)


def _result(
    tag: RawValue | None,
    word: RawValue | None,
    spec: GameDescription | None,
    problems: list[RecordError],
) -> RawValue | None:
    """The claimed result, from the tag or the movetext's last token; None, and a problem,
    when the two say different things. When one of them is no result of the game, that one:
    the record's ``bad-result`` then says why (``1-0`` is another game's form), rather than
    that the two differ; either way the claim is unknown."""
    if word is None:
        return tag
    if tag is None:
        return word
    if spec is not None:
        ending = normalise_result(word.text, spec)
        claimed = normalise_result(tag.text.strip(_SPACES), spec)
        if ending is None or claimed is None:
            return word if ending is None else tag
        same = claimed == ending
    else:
        same = tag.text.strip(_SPACES) == word.text
    if not same:
        problems.append(
            InvalidRecordError(
                f"the movetext ends with {word.text!r} but the Result tag says {short(tag.text)!r}",
                code="result-conflict",
                where=word.where,
            )
        )
        return None
    return tag


def _read_movetext(words: Iterable[Word], shift: int, problems: list[RecordError]) -> Movetext:
    """Turn tokens into turns, checking move numbers and attaching comments to moves.

    A wrong move number is a problem that does not stop the record; a word that names no
    square ends the turns read (the record is replayed up to it). More than MAX_MOVES
    turns, or a move number of more than MAX_DIGITS digits, stop the record. Returns the
    turns, the comment before the first move, the result token (with where it stands) and
    where the movetext's first token stands (None when it has none)."""
    moves: list[tuple[Move, Location]] = []
    comments: list[list[str]] = [[]]  # comments[0]: before the first move
    number: Word | None = None
    result: RawValue | None = None
    first: Location | None = None
    most = limits.MAX_MOVES
    ended = False
    for word in words:
        text, kind, line, column = word
        if first is None:
            first = Location(line=line + shift, column=column)
        if kind == "COMMENT":
            comments[-1].append(text[1:-1].strip(_SPACES))
        elif kind == "RESULT":
            result = RawValue(text, Location(line=line + shift, column=column))
        elif ended:
            continue
        elif kind == "MOVE_NUMBER":
            if number is not None:
                problems.append(_bad_number(number, "is followed by another move number", shift))
            number = word
        else:
            if number is not None:
                _check_number(number, len(moves) + 1, shift, problems)
                number = None
            if len(moves) >= most:
                raise LimitError(
                    f"the record has more than {most} turns",
                    code="too-many-moves",
                    line=line + shift,
                    column=column,
                )
            try:
                move = move_of_word(word, shift)
            except InvalidRecordError as err:
                problems.append(err.located(ply=len(moves) + 1))
                ended = True
                continue
            moves.append((move, make(_LOCATION, (line + shift, column, None))))
            comments.append([])
    if number is not None and not ended:
        problems.append(_bad_number(number, "is not followed by a move", shift))
    turns = [
        make(_TURN, (move, " ".join(notes) if notes else None, where))
        for (move, where), notes in zip(moves, comments[1:], strict=True)
    ]
    return turns, (" ".join(comments[0]) if comments[0] else None), result, first


def _check_number(token: Word, ply: int, shift: int, problems: list[RecordError]) -> None:
    text = token[0]
    digits = text.rstrip(".")
    if len(digits) > limits.MAX_DIGITS:
        raise LimitError(
            f"move number {short(text)!r} has more than {limits.MAX_DIGITS} digits",
            code="too-many-digits",
            line=token[2] + shift,
            column=token[3],
        )
    if (int(digits), text.endswith("...")) != ((ply + 1) // 2, ply % 2 == 0):
        expected = f"{(ply + 1) // 2}." if ply % 2 else f"{ply // 2}..."
        why = f"stands before ply {ply}, which takes {expected!r}"
        problems.append(_bad_number(token, why, shift))


def _bad_number(token: Word, why: str, shift: int) -> RecordError:
    return InvalidRecordError(
        f"move number {short(token[0])!r} {why}",
        code="bad-move-number",
        line=token[2] + shift,
        column=token[3],
    )


def short(text: str) -> str:
    """At most 60 characters of ``text``, for a message."""
    return text if len(text) <= 60 else text[:57] + "..."


def move_of_word(word: Word, shift: int) -> Move:
    """The move a word of movetext stands for (moves are interned by their text).

    Raises ``InvalidRecordError`` (``off-board``) for a square no board has."""
    move = _SEEN_MOVES.get(word[0])
    if move is None:
        move = _read_move(word[0], word[1], _patterns())
    if move is None:
        raise InvalidRecordError(
            f"{short(word[0])!r} names a square that no board has (files a to s, ranks 1 to 19)",
            code="off-board",
            move=short(word[0]),
            line=word[2] + shift,
            column=word[3],
        )
    return move


MAX_SEEN_MOVES = 100_000
MAX_SEEN_LENGTH = 40
"""Only short words are kept: the cache stays small whatever words a file holds."""
_SEEN_MOVES: Final[dict[str, Move]] = {}
"""Moves already read, by their text (moves are immutable values); most words repeat."""
