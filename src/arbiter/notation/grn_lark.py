"""Reading GRN with the lark grammar: the slow path, for records the fast path leaves alone
(``spec/grn.md`` §11), and the wording of every syntax error.

``grammar/grn.lark`` is the one definition of GRN; its ``COLOUR`` terminal is made from the
registered games (:func:`colours_grammar`), and the words of movetext from the registered
move forms (:func:`moves_grammar`). Building the LALR parser takes a noticeable part of a
second, so this module is imported only when a record needs it. The fast path reads the
grammar's other terminals from ``grn_terminals.py``, which :func:`terminals_source` writes
from this grammar (``python -m arbiter.notation.grn_lark > notation/grn_terminals.py``; a
test keeps the two the same).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from importlib.resources import files
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from arbiter.notation.ast import Location
from arbiter.notation.errors import NotationSyntaxError, RecordError
from arbiter.notation.games import GameDescription, all_games, generation, move_forms
from arbiter.notation.grn_scan import WORD_LETTERS, TagLine, Word, short, word_pattern
from arbiter.notation.limits import BLANK
from arbiter.notation.slips import cut_result, game_of, meant_word, straighten_quotes


class _Collect(Transformer[Token, object]):
    """Inline transformer: keeps tokens (they carry their own line and column)."""

    def tag(self, children: list[Token]) -> tuple[Token, ...]:
        return tuple(children)

    def movetext(self, children: list[Token]) -> list[Token]:
        return children

    def record(self, children: list[object]) -> tuple[list[object], object]:
        return children[:-1], children[-1]


def record_parser() -> Lark:
    """The parser of ``grammar/grn.lark`` with ``COLOUR`` made from the registered games
    (built again only when the registry changes)."""
    return _record_parser(generation())


@cache
def _record_parser(_generation: int) -> Lark:
    return lark_parser(start="record", transformer=_Collect(), maybe_placeholders=False)


def lark_parser(**options: Any) -> Lark:
    """An LALR parser of ``grammar/grn.lark`` for the games and move forms registered now,
    with lark ``options`` (the reader's own, or others for tests and tools)."""
    text = files("arbiter.notation").joinpath("grammar/grn.lark").read_text(encoding="utf-8")
    # re.ASCII: a case-insensitive letter is an ASCII letter (no Kelvin sign for k).
    return Lark(
        text + moves_grammar(),
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


def moves_grammar() -> str:
    """The part of the grammar made from the registered move forms: one terminal per form
    (its pattern), the ``word`` rule (a move number or a move of one of them), and
    ``MOVES``, a run of words separated by blanks, each a move number, or a square or a
    keyword followed by anything but a blank, a brace or a bracket (the reader then reads
    each word as a ``word``)."""
    forms = [form.form for form in move_forms()]
    lines = [f"{form.terminal}: /{_lark_regex(form.pattern)}/" for form in forms]
    lines.append(f"word: MOVE_NUMBER | {' | '.join(form.terminal for form in forms)}")
    keywords = "|".join(form.keyword for form in forms if form.keyword)
    rest = f"[^{WORD_LETTERS}]*"
    lines.append(
        f"_MOVE_WORD: MOVE_NUMBER | /[0-9]{rest}/ | /[A-Za-z][0-9]{rest}/ | /(?:{keywords}){rest}/i"
    )
    lines.append("MOVES: _MOVE_WORD (WS _MOVE_WORD)*")
    return "\n".join(["", "// Made from the registered move forms (grn_lark.py).", *lines, ""])


def _lark_regex(pattern: str) -> str:
    """A Python regular expression as a lark regular expression literal's body."""
    return pattern.replace("/", "\\/")


def terminals_source() -> str:
    """The text of ``grn_terminals.py``: the grammar's terminals the fast path uses, as lark
    compiles them (flags inline)."""
    parser = lark_parser(start=["record", "word"])
    found = {name: parser.get_terminal(name).pattern.to_regexp() for name in FIXED_TERMINALS}
    body = "".join(f"    {name!r}: {value!r},\n" for name, value in found.items())
    return (
        '"""The terminals of ``grammar/grn.lark`` that the fast path of the GRN reader uses, '
        "as lark\ncompiles them.\n\nGenerated: ``python -m arbiter.notation.grn_lark > "
        "notation/grn_terminals.py``; a test\nchecks that this file is what the grammar "
        'gives. Do not edit.\n"""\n\nGENERATED: dict[str, str] = {\n' + body + "}\n"
    )


FIXED_TERMINALS = ("TAG_NAME", "TAG_VALUE", "COMMENT", "MOVE_NUMBER")
"""The grammar's terminals that are one regular expression each and are not made from the
registries."""


def _colours(base_path: str | None, grammar_path: str) -> tuple[str, str]:
    """Lark import loader: serves ``colours.lark`` (see :func:`colours_grammar`)."""
    if grammar_path != "colours.lark":
        raise OSError(f"no grammar {grammar_path!r} here")
    return grammar_path, colours_grammar()


_SPACE_SEPARATED = re.compile(r"[^ \t\r\n]+")


def parse_with_lark(
    text: str, first_line: int
) -> tuple[list[TagLine], Iterator[Word], list[RecordError]]:
    """The tag lines and the movetext tokens of one record's text, by the lark grammar.

    Raises :class:`RecordError` (located ``first_line - 1`` lines down) for text the
    grammar does not accept. A tag that does not stand alone on its line is a problem that
    does not stop the record: it is returned, third. The tokens come lazily: a word no
    terminal matches is an error only when it is reached, after the tags were read.

    Text slips (``spec/hints.md``) are read as what they mean, each a problem added to the
    third list (as the tokens are reached, for those of the movetext): curly quotes around
    a tag value, a result written as other games write it at the end of the text, and the
    words of :func:`~arbiter.notation.slips.meant_word`."""
    shift = first_line - 1
    problems: list[RecordError] = []
    text = straighten_quotes(text, shift, problems)
    text, result = cut_result(text)
    try:
        parsed: Any = record_parser().parse(text, start="record")
    except UnexpectedInput as err:
        raise _syntax_error(err, text, first_line) from None
    tags, tokens = parsed
    lines = _tag_lines(tags, shift, problems)
    words = _tokens(tokens, shift, game_of(lines), problems)
    return lines, _ending(words, result, shift), problems


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
            f'malformed tag line {short(source_line.strip(BLANK))!r}: expected [Name "value"]',
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
    while end < len(line) and line[end] not in BLANK and end - start < 60:
        end += 1
    return line[start:end] or line[start : start + 1]


def _tag_lines(
    tags: list[tuple[Token, ...]], shift: int, problems: list[RecordError]
) -> list[TagLine]:
    """Lark's tag tokens as the tag lines both paths share. A tag that does not stand alone
    on its own line is added to ``problems`` (``malformed-tag``, located ``shift`` lines
    down) and still read."""
    lines: list[TagLine] = []
    for open_, name, value, close in tags:
        line: int = open_.line  # type: ignore[assignment]
        if close.line != line or (lines and lines[-1].line == line):
            problems.append(
                NotationSyntaxError(
                    "each tag must stand alone on its own line",
                    code="malformed-tag",
                    line=line + shift,
                    column=open_.column,
                )
            )
        lines.append(TagLine(str(name), str(value), line, open_.column, value.column))  # type: ignore[arg-type]
    return lines


def _tokens(
    tokens: list[Token], shift: int, game: GameDescription | None, problems: list[RecordError]
) -> Iterator[Word]:
    """Lark's movetext tokens as the words both paths share: a MOVES token is cut into
    words, each named by its terminal (lazily, so that tag errors come first)."""
    for token in tokens:
        if token.type == "MOVES":
            yield from _words(token, shift, game, problems)
        else:
            yield str(token), token.type, token.line, token.column  # type: ignore[misc]


def _ending(words: Iterator[Word], result: Word | None, shift: int) -> Iterator[Word]:
    """The words, then ``result``, a result written as other games write it that was cut
    from the end of the text (:func:`~arbiter.notation.slips.cut_result`), if any; a
    syntax error if the movetext already ended with a result."""
    last: Word | None = None
    for last in words:
        yield last
    if result is None:
        return
    if last is not None and last[1] == "RESULT":
        raise NotationSyntaxError(
            f"unexpected {short(result[0])!r} after the result; the result ends the movetext",
            line=result[2] + shift,
            column=result[3],
        )
    yield result


def _words(
    token: Token, shift: int, game: GameDescription | None, problems: list[RecordError]
) -> Iterator[Word]:
    """Cut a MOVES token into words and name each by the grammar's word terminal it matches.

    Lines are counted in the record's text; raises ``NotationSyntaxError`` (located in the
    file, ``shift`` lines down) at a word that matches none, unless its meaning is clear
    (:func:`~arbiter.notation.slips.meant_word`): then it is read as meant, and the slip
    is added to ``problems``."""
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
        column = start - line_start + 1
        if kind is not None:
            yield word, kind.lastgroup, line, column  # type: ignore[misc]
            continue
        meant = meant_word(word, game, classify)
        if meant is None:
            raise NotationSyntaxError(
                f"unexpected {short(word)!r}: not a move, move number, comment or result",
                line=line + shift,
                column=column,
            )
        read, terminal, code, message = meant
        problems.append(NotationSyntaxError(message, code=code, line=line + shift, column=column))
        yield read, terminal, line, column


if __name__ == "__main__":
    print(terminals_source(), end="")
