"""GRN reading and writing: the errors of spec/grn.md §10 with their locations, round
trips, and fuzzing that only the notation's own error type ever comes out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from arbiter.notation.ast import (
    Capture,
    Flip,
    ImploPlace,
    Pass,
    Place,
    Point,
    Record,
    Resolve,
    Sow,
    Swap,
)
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_lark import lark_parser, moves_grammar
from arbiter.notation.grn_reader import parse_grn_record, read_grn
from arbiter.notation.grn_writer import write_grn, write_record
from tests.budget import examples
from tests.strategies import EVERY_HEALTH_CHECK, records

ROOT = Path(__file__).resolve().parents[2]

HEAD = '[Game "Pilo"]\n[Size "8"]\n[Result "*"]\n\n'


def only(text: str | bytes) -> RecordError:
    """The single error that reading ``text`` gives."""
    items = list(read_grn(text))
    assert len(items) == 1, items
    assert isinstance(items[0], RecordError), items[0]
    return items[0]


def where(err: RecordError) -> tuple[str, int | None, int | None]:
    return err.code, err.line, err.column


# -- every error case of the foundation issue: code, line and column ----------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(HEAD + "1. d4 %% e5\n", ("syntax-error", 5, 7), id="stray-token"),
        pytest.param(HEAD + "1. d4 ] e5\n", ("syntax-error", 5, 7), id="stray-bracket"),
        pytest.param(HEAD + "1. d4e5\n", ("syntax-error", 5, 4), id="moves-run-together"),
        pytest.param(
            HEAD + "1. d4 {oops e5\n", ("unterminated-comment", 5, 7), id="unterminated-comment"
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Event "x]\n\n1. d4\n',
            ("malformed-tag", 3, 8),
            id="tag-unterminated-value",
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Event x]\n\n1. d4\n',
            ("malformed-tag", 3, 8),
            id="tag-unquoted-value",
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Event "a\\b"]\n\n1. d4\n',
            ("malformed-tag", 3, 8),
            id="tag-bad-escape",
        ),
        pytest.param(
            '[Game "Pilo"] [Size "8"]\n\n1. d4\n', ("malformed-tag", 1, 15), id="two-tags-one-line"
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Size "8"]\n\n1. d4\n',
            ("duplicate-tag", 3, 1),
            id="repeated-tag",
        ),
        pytest.param(HEAD + "1. d4 e5 3. c3\n", ("bad-move-number", 5, 10), id="wrong-move-number"),
        pytest.param(
            HEAD + "1. d4 2. e5\n", ("bad-move-number", 5, 7), id="number-before-second-player"
        ),
        pytest.param(HEAD + "1. d4 e5 2.\n", ("bad-move-number", 5, 10), id="dangling-number"),
        pytest.param(HEAD + "1. 2. d4\n", ("bad-move-number", 5, 1), id="number-twice"),
        pytest.param(
            '[Game "Chess"]\n[Size "8"]\n\n1. e4\n', ("unknown-game", 1, 7), id="unknown-game"
        ),
        pytest.param('[Game "Pilo"]\n[Size "40"]\n\n1. d4\n', ("bad-size", 2, 7), id="size-40"),
        pytest.param(
            '[Game "Pilare"]\n[Size "7"]\n\n1. c3:n\n', ("bad-size", 2, 7), id="pilare-size-7"
        ),
        pytest.param('[Game "Pilo"]\n\n1. d4\n', ("missing-tag", 1, 1), id="missing-size"),
        pytest.param(
            '[Game "Pletore"]\n[Size "9"]\n\n1. e5\n', ("missing-komi", 1, 7), id="missing-komi"
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "9"]\n[Komi "6"]\n\n1. e5\n',
            ("komi-not-allowed", 3, 7),
            id="komi-in-pilo",
        ),
        pytest.param(
            '[Game "Pletore"]\n[Size "9"]\n[Komi "6.5"]\n\n1. e5\n',
            ("bad-komi", 3, 7),
            id="fractional-komi",
        ),
        pytest.param(HEAD + "1. d4 e5x\n", ("wrong-move-form", 5, 7), id="flip-in-pilo"),
        pytest.param(HEAD + "1. d4 e5/e6\n", ("wrong-move-form", 5, 7), id="resolve-steps-in-pilo"),
        pytest.param(HEAD + "1. d4 i1\n", ("off-board", 5, 7), id="off-board"),
        pytest.param(HEAD + "1. d4 z1\n", ("off-board", 5, 7), id="no-such-file"),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Result "Black"]\n\n1. d4\n',
            ("bad-result", 3, 9),
            id="bad-result",
        ),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Result "Blue+R"]\n\n1. d4 Orange+R\n',
            ("result-conflict", 5, 7),
            id="result-conflict",
        ),
        pytest.param(HEAD + "1. d4 * e5\n", ("syntax-error", 5, 9), id="move-after-result"),
        pytest.param(
            '[Game "Pilo"]\n[Size "8"]\n[Setup "8/8"]\n\n1. d4\n',
            ("bad-setup", 3, 8),
            id="bad-setup",
        ),
    ],
)
def test_error_code_and_location(text: str, expected: tuple[str, int, int]) -> None:
    assert where(only(text)) == expected


def test_non_utf8_bytes_are_an_encoding_error_at_their_place() -> None:
    err = only(HEAD.encode() + b"1. d4 {caf\xe9} e5\n")
    assert where(err) == ("encoding", 5, 11)


def test_a_broken_record_does_not_stop_the_next_ones() -> None:
    text = (
        HEAD
        + "1. d4 e5\n\n"
        + HEAD.replace("Pilo", "Chess")
        + "1. d4\n\n"
        + HEAD
        + "1. c3 {fine}\n"
    )
    items = list(read_grn(text, file="three.grn"))
    assert [type(i).__name__ for i in items] == ["Record", "InvalidRecordError", "Record"]
    assert isinstance(items[1], RecordError) and isinstance(items[2], Record)
    assert items[1].index == 1 and items[1].file == "three.grn" and items[1].line == 7
    assert items[2].index == 2 and items[2].turns[0].where.line == 17


def test_a_comment_line_starting_with_a_bracket_does_not_cut_the_record() -> None:
    items = list(read_grn(HEAD + "1. d4 {see\n[this] line} e5\n"))
    assert len(items) == 1 and isinstance(items[0], Record)
    assert items[0].turns[0].comment == "see\n[this] line"


def test_oversized_record_is_reported_and_reading_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arbiter.notation.grn_reader.MAX_RECORD_BYTES", 200)
    big = HEAD + "1. d4 {" + "x" * 300 + "}\n\n"
    items = list(read_grn(big + HEAD + "1. c3\n"))
    assert isinstance(items[0], RecordError) and isinstance(items[1], Record)
    assert items[0].code == "too-large" and items[0].index == 0
    assert items[1].turns[0].move == Place(Point.parse("c3"))


# -- meaning of what is read ---------------------------------------------------------------


def test_every_move_form_is_read() -> None:
    assert parse_grn_record(HEAD + "1. D4 swap 2. c3xC5 PASS").moves == (
        Place(Point(3, 3)),
        Swap(),
        Capture(Point(2, 2), Point(2, 4)),
        Pass(),
    )
    pletore = parse_grn_record('[Game "Pletore"]\n[Size "9"]\n[Komi "-3"]\n\n1. e5 e5x 2. button')
    assert pletore.komi == -3 and pletore.moves[1] == Flip(Point(4, 4))
    implo = parse_grn_record('[Game "Implo"]\n[Size "8"]\n\n1. d4/e5/a1:b2 c3')
    assert implo.moves == (
        ImploPlace(Point(3, 3), (Resolve(Point(4, 4)), Resolve(Point(0, 0), Point(1, 1)))),
        ImploPlace(Point(2, 2)),
    )
    pilare = parse_grn_record('[Game "Pilare"]\n[Size "6"]\n\n1. c1:NNE')
    assert pilare.moves == (Sow(Point(2, 0), "nne"),)


def test_tags_comments_and_players_are_kept_in_order() -> None:
    text = (
        '[Game "pilo"]\n[Size "8"]\n[Event "Autumn \\"Open\\""]\n[Blue "a\\\\b"]\n'
        '[Site "club"]\n[Orange "player-12"]\n[Result "orange+r"]\n\n'
        "{before} 1. d4 {one} {two} 1... swap 2. e5 Orange+R\n"
    )
    record = parse_grn_record(text)
    assert record.game == "Pilo" and record.result == "Orange+R"
    assert [(t.name, t.value) for t in record.tags] == [
        ("Event", 'Autumn "Open"'),
        ("Site", "club"),
    ]
    assert record.players == (("Blue", "a\\b"), ("Orange", "player-12"))
    assert record.comment == "before" and record.turns[0].comment == "one two"


def test_result_token_alone_sets_the_result() -> None:
    assert parse_grn_record(HEAD.replace('[Result "*"]\n', "") + "1. d4 Blue+3").result == "Blue+3"


def test_canonical_writer_output() -> None:
    text = (
        '[Game "Pilo"]\n[Size "8"]\n[Round "3"]\n[Orange "player-12"]\n[Event "E"]\n'
        '[Result "Orange+6"]\n\n1. d4 swap 2. e5 {a  comment } c3 3. c3xc5'
    )
    assert write_record(parse_grn_record(text)) == (
        '[Game "Pilo"]\n[Size "8"]\n[Round "3"]\n[Event "E"]\n[Orange "player-12"]\n'
        '[Result "Orange+6"]\n\n1. d4 swap 2. e5 {a  comment} c3 3. c3xc5 Orange+6\n'
    )


def test_long_movetext_wraps_before_79_columns_and_keeps_numbers_with_moves() -> None:
    moves = " ".join(f"{Point(i % 8, i // 8)}" for i in range(64))
    text = write_record(parse_grn_record(HEAD + moves))
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert len(movetext) > 1
    assert all(len(line) <= 79 and not line.endswith(".") for line in movetext)
    assert parse_grn_record(text).moves == parse_grn_record(HEAD + moves).moves


# -- properties ----------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(records())
def test_written_records_read_back_identically(record) -> None:  # type: ignore[no-untyped-def]
    text = write_record(record)
    again = parse_grn_record(text)
    assert again == record
    assert write_record(again) == text


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(records(max_moves=6), min_size=1, max_size=4))
def test_files_of_several_records_read_back_in_order(batch) -> None:  # type: ignore[no-untyped-def]
    items = list(read_grn(write_grn(batch)))
    assert items == batch
    assert [item.index for item in items] == list(range(len(batch)))


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_arbitrary_input_raises_nothing_but_record_errors(data: str | bytes) -> None:
    for item in read_grn(data):
        assert not isinstance(item, Exception) or isinstance(item, RecordError)


_FUZZ_GRAMMAR = lark_parser(start="record", lexer="basic")
GRN_CODES = set(re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "spec/grn.md").read_text(), re.M))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(from_lark(_FUZZ_GRAMMAR, start="record"))
def test_text_drawn_from_the_grammar_gives_records_or_located_errors(text: str) -> None:
    items = list(read_grn(text))
    for index, item in enumerate(items):
        if isinstance(item, Record):
            assert item.index == index
            continue
        assert isinstance(item, RecordError), item
        assert item.code in GRN_CODES, item.code
        assert item.index == index and item.line is not None and item.line >= 1, item


def test_spec_grammar_section_is_the_grammar_file() -> None:
    spec = (ROOT / "spec/grn.md").read_text(encoding="utf-8")
    block = spec.split("```lark\n", 1)[1].split("```", 1)[0]
    assert block == (ROOT / "notation/grammar/grn.lark").read_text(encoding="utf-8")
    made = spec.split("```lark\n", 2)[2].split("```", 1)[0]
    assert made.strip() == moves_grammar().strip()


def test_grammar_is_lalr_and_strict() -> None:
    lark_parser(start="record", strict=True)


def test_every_move_knows_its_line_and_column_across_line_breaks() -> None:
    record = parse_grn_record(HEAD + "1. d4 e5\n2. c3\n   c4 {x}\n3.\nb2\r\n b3")
    assert [(t.where.line, t.where.column) for t in record.turns] == [
        (5, 4),
        (5, 7),
        (6, 4),
        (7, 4),
        (9, 1),
        (10, 2),
    ]


def test_parse_move_reads_one_word_of_any_form() -> None:
    from arbiter.notation.grn_reader import parse_move

    assert parse_move("C3xc5") == Capture(Point(2, 2), Point(2, 4))
    assert parse_move("d4/e5/a1:b2") == ImploPlace(
        Point(3, 3), (Resolve(Point(4, 4)), Resolve(Point(0, 0), Point(1, 1)))
    )
    for bad in ("3.", "d4 e5", "xx", ""):
        with pytest.raises(RecordError):
            parse_move(bad)
    with pytest.raises(RecordError) as info:
        parse_move("t1")
    assert info.value.code == "off-board"


@pytest.mark.parametrize(
    ("tags", "line"),
    [('[Size "' + "9" * 5000 + '"]', 2), ('[Size "5"]\n[Komi "-' + "9" * 5000 + '"]', 3)],
)
def test_numbers_of_thousands_of_digits_are_located_errors(tags: str, line: int) -> None:
    # Python refuses to convert more than 4300 digits: that must not escape as a ValueError.
    [error] = read_grn(f'[Game "Pletore"]\n{tags}\n\n*\n')
    assert isinstance(error, RecordError) and (error.code, error.line) == ("too-many-digits", line)


def test_a_tag_line_met_again_is_located_where_it_stands_now() -> None:
    """Tag lines are remembered by their text (an archive repeats them): the same line in a
    later record, at another line of the file and as the only copy in a record indented
    otherwise, is still located where it stands and read as written."""
    first = '[Game "Pilo"]\n[Size "6"]\n  [Event "Open"]\n\n1. a1 *\n'
    second = '\n[Game "Pilo"]\n[Size "6"]\n[Event "Open"]\n[Round "2"]\n\n1. b2 *\n'
    one, two = read_grn(first + second)
    assert isinstance(one, Record) and isinstance(two, Record)
    assert (one.where["Game"].line, one.where["Size"].line) == (1, 2)
    assert (two.where["Game"].line, two.where["Size"].line) == (7, 8)
    assert one.where["Game"].column == two.where["Game"].column == 7
    ((name, value, where),) = [(t.name, t.value, t.where) for t in one.tags]
    assert (name, value, where.line, where.column) == ("Event", "Open", 3, 10)
    event = two.tags[0]
    assert (event.value, event.where.line, event.where.column) == ("Open", 9, 8)
