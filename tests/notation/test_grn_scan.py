"""The fast path through GRN (notation/grn_scan.py) reads exactly as the lark grammar does."""

from __future__ import annotations

import re
import re._parser as re_parser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Token, UnexpectedInput

from arbiter.notation import ast, grn_reader, grn_scan
from arbiter.notation.ast import Move, Record
from arbiter.notation.errors import RecordError
from arbiter.notation.games import move_forms
from arbiter.notation.grn_lark import FIXED_TERMINALS, lark_parser
from arbiter.notation.grn_reader import parse_grn_record
from arbiter.notation.grn_terminals import GENERATED
from arbiter.notation.grn_writer import write_record
from tests.budget import examples
from tests.strategies import EVERY_HEALTH_CHECK, records

LARK = lark_parser(start=["record", "word"])


def read(text: str, *, fast: bool, turns: bool = True) -> tuple[object, ...]:
    """The record, or the error's code, message and location, read by one path: lark, or
    the fast one, which reads plain movetext straight into turns unless told not to. With
    where each turn and field stands, which records leave out of their equality."""

    def scan(text: str, shift: int = 0) -> grn_scan.Scanned | None:
        return grn_scan.scan(text, shift, turns) if fast else None

    saved = grn_reader.scan
    grn_reader.scan = scan  # type: ignore[assignment]
    try:
        return placed(parse_grn_record(text, first_line=3, index=2))
    except RecordError as err:
        more = [(p.code, p.message, p.line, p.column, p.ply) for p in err.more]
        return (err.code, err.message, err.line, err.column, err.ply, placed(err.record), more)
    finally:
        grn_reader.scan = saved


def placed(record: Record | None) -> tuple[object, ...]:
    """A record with where its turns and fields stand."""
    if record is None:
        return ()
    return (record, record.where, [turn.where for turn in record.turns])


def read_every_way(text: str) -> tuple[object, ...]:
    """What ``text`` reads as, the same by lark and by the fast path with and without
    reading plain movetext straight into turns."""
    fast = read(text, fast=True)
    assert fast == read(text, fast=True, turns=False)
    assert fast == read(text, fast=False)
    return fast


def test_the_generated_terminals_are_what_lark_compiles_from_the_grammar() -> None:
    compiled = {name: LARK.get_terminal(name).pattern.to_regexp() for name in FIXED_TERMINALS}
    assert GENERATED == compiled
    assert set(GENERATED) == set(FIXED_TERMINALS)


@pytest.mark.parametrize("form", move_forms(), ids=lambda form: form.form.terminal)
def test_the_grammar_takes_each_move_forms_pattern_as_it_is(form: type[Move]) -> None:
    # Compared as parsed expressions: lark writes the escapes of a literal as characters.
    lark = LARK.get_terminal(form.form.terminal).pattern.to_regexp()
    assert str(re_parser.parse(form.form.pattern)) == str(re_parser.parse(lark))


def test_every_word_of_the_grammar_is_read_by_the_fast_path_as_the_same_terminal() -> None:
    words = ["12.", "3...", "d4", "D14", "b2xd2", "c3X", "e5:nnw", "c3/d4:e5/f6", "Pass", "SWAP",
             "button", "d4x4", "pass2", "d4:x"]  # fmt: skip
    fast = grn_scan.word_pattern()
    for word in words:
        kind = fast.fullmatch(word)
        try:
            tree = LARK.parse(word, start="word")
        except UnexpectedInput:
            assert kind is None, word
            continue
        [token] = tree.children
        assert isinstance(token, Token) and kind is not None, word
        assert kind.lastgroup == token.type, word


def test_the_fast_result_is_the_grammars_result() -> None:
    compiled = LARK.get_terminal("RESULT").pattern.to_regexp()
    fast = grn_scan._patterns().result  # noqa: SLF001
    words = ["*", "Blue", "orange+6", "WHITE+3.5", "Red+R", "black+t", "Blue+", "Green+1",
             "Orange+6.5.5", "blue+x", "**", "Black+F", "pass"]  # fmt: skip
    for word in words:
        assert bool(fast.fullmatch(word)) == bool(re.fullmatch(compiled, word)), word


@settings(max_examples=examples(150), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(records(), st.sampled_from(["", " ", "\t", "\r"]), st.booleans())
def test_written_records_read_the_same_both_ways(record: Record, blank: str, upper: bool) -> None:
    text = write_record(record).replace(" ", " " + blank).replace("\n", blank + "\n")
    if upper:
        text = text.upper().replace("[GAME", "[Game")
    fast = read_every_way(text)
    assert grn_scan.scan(text) is not None or not isinstance(fast[0], Record)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(from_lark(LARK, start="record"))
def test_text_drawn_from_the_grammar_reads_the_same_both_ways(text: str) -> None:
    read_every_way(text)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(records(max_moves=8), st.data())
def test_damaged_text_reads_the_same_both_ways(record: Record, data: st.DataObject) -> None:
    text = write_record(record)
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["{", "}", "[", "]", "\n", " ", "\xa0", "1.", "x", "*", '"']))
    damaged = text[:at] + junk + text[at:]
    read_every_way(damaged)


@pytest.mark.parametrize(
    "text",
    [
        '[Game "Pilo"]\n[Size "5"]\n\n1. c3 {open',
        '[Game "Pilo"]\n[Size "5"]\n\n1. c3 }',
        '[Game "Pilo"] [Size "5"]\n\n1. c3',
        '[Game "Pilo"]\n[Size "5"]\n\n1. c3 * d4',
        '[Game "Pilo"]\n[Size "5"]\n\n1.c3 d4',
        '[Game "Pilo"]\n[Size "5"]\n\n{c}\n[Round "1"]\n1. c3',
    ],
)
def test_the_fast_path_leaves_anything_unusual_to_lark(text: str) -> None:
    assert grn_scan.scan(text) is None
    read_every_way(text)


PILO = '[Game "Pilo"]\n[Size "5"]\n\n'
IMPLO = '[Game "Implo"]\n[Size "8"]\n[Result "Black"]\n\n'


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (PILO + "1. c3 d4 2. a1xb2 pass\n3. e5 *", True),
        (PILO + "  1.  c3\td4 \r\n2. A1Xb2   PASS\r\n\r\n  Blue+R \r\n \n", True),
        (PILO + "c3 d4 pass 2... e5", True),
        (PILO + "1. c3 1... d4 2. pass", True),
        (PILO + "Blue", True),
        (PILO + "1. c3 d4 2.", False),
        (PILO + "1. c3 d4 2. *", False),
        (PILO + "1. c3 2. d4", False),
        (PILO + "1... c3", False),
        (PILO + "01. c3", False),
        (PILO + "1. 1. c3", False),
        (PILO + "1. c3 d4 3. e5", False),
        (PILO + "1. c3 z9 2. e5", False),
        (PILO + "1. c3 d4 2. e5 f6 t2", False),
        (PILO + "1. c3 {why} d4", False),
        (PILO + "1. c3 Red", True),
        (PILO + "1. c3 d4 Blue e5", False),
        (PILO + "1. c3 d4 b2/c3", True),
        (IMPLO + "1. c3 h1 2. c4/c3:c4 h4/h2 Black\n", True),
        (IMPLO + "1. c3 h1 2. c4/c3:c4 h4/h20 Black\n", False),
        (IMPLO + "1. c3 h1 2. c4/c3:c4 h4/h2 White\n", True),
    ],
)
def test_plain_movetext_reads_into_turns_as_its_tokens_do(text: str, plain: bool) -> None:
    scanned = grn_scan.scan(text)
    assert (scanned is not None and scanned.movetext is not None) == plain
    read_every_way(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("d4", "d4"), ("D4", "d4"), ("c3xc5", "c3xc5"), ("c3:nne", "c3:nne"), ("pass", "pass")],
)
def test_a_word_tried_as_a_move_reads_as_one(text: str, expected: str) -> None:
    move = grn_scan.move_of_text(text)
    assert move is not None and str(move) == expected


@pytest.mark.parametrize("text", ["7.", "3d", "t4", "d0", "d20", "", "d4 ", "x"])
def test_a_word_that_is_no_move_reads_as_none(text: str) -> None:
    assert grn_scan.move_of_text(text) is None


def test_a_word_tried_is_not_kept_among_the_words_read() -> None:
    grn_scan._SEEN_MOVES.pop("q17", None)  # noqa: SLF001
    assert grn_scan.move_of_text("q17") is not None
    assert "q17" not in grn_scan._SEEN_MOVES  # noqa: SLF001


def test_the_steps_remembered_stay_few_and_read_alike() -> None:
    # Resolve.parse remembers each step text it reads, up to MAX_STEPS, then starts again:
    # an archive of every possible step keeps the table bounded, and a step read after it
    # was emptied is the same step.
    names = [f"{file}{rank}" for file in "abcdefghijklmnopqrs" for rank in range(1, 20)]
    texts = [f"{patch}:{remove}" for patch in names[:60] for remove in names]
    assert len(texts) > ast.MAX_STEPS
    read = []
    for text in texts:
        read.append(ast.Resolve.parse(text))
        assert len(ast._STEPS) <= ast.MAX_STEPS  # noqa: SLF001
    assert list(map(str, read)) == texts and ast.Resolve.parse("c3") == ast.Resolve(ast.Point(2, 2))
