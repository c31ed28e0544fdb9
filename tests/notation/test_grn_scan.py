"""The fast path through GRN (notation/grn_scan.py) reads exactly as the lark grammar does."""

from __future__ import annotations

import re
import re._parser as re_parser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from arbiter.notation import grn_reader, grn_scan
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_lark import lark_parser
from arbiter.notation.grn_reader import parse_record
from arbiter.notation.grn_writer import write_record
from tests.strategies import EVERY_HEALTH_CHECK, records

LARK = lark_parser(start=["record", "word"])


def read(text: str, *, fast: bool) -> Record | tuple[object, ...]:
    """The record, or the error's code, message and location, read by one path."""
    scan = grn_scan.scan if fast else (lambda text: None)
    saved = grn_reader.scan
    grn_reader.scan = scan  # type: ignore[assignment]
    try:
        return parse_record(text, first_line=3, index=2)
    except RecordError as err:
        return (err.code, err.message, err.line, err.column, err.ply)
    finally:
        grn_reader.scan = saved


@pytest.mark.parametrize("name", [*grn_scan.WORD_TERMINALS, "TAG_NAME", "TAG_VALUE", "COMMENT"])
def test_the_fast_path_uses_the_grammars_own_terminals(name: str) -> None:
    # Compared as parsed expressions: lark writes the grammar's escapes (\\n) as characters.
    ours, lark = grn_scan.terminals()[name], LARK.get_terminal(name).pattern.to_regexp()
    assert str(re_parser.parse(ours)) == str(re_parser.parse(lark))


def test_the_fast_result_is_the_grammars_result() -> None:
    compiled = LARK.get_terminal("RESULT").pattern.to_regexp()
    fast = grn_scan._patterns().result  # noqa: SLF001
    words = ["*", "Blue", "orange+6", "WHITE+3.5", "Red+R", "black+t", "Blue+", "Green+1",
             "Orange+6.5.5", "blue+x", "**", "Black+F", "pass"]  # fmt: skip
    for word in words:
        assert bool(fast.fullmatch(word)) == bool(re.fullmatch(compiled, word)), word


@settings(max_examples=150, deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(records(), st.sampled_from(["", " ", "\t", "\r"]), st.booleans())
def test_written_records_read_the_same_both_ways(record: Record, blank: str, upper: bool) -> None:
    text = write_record(record).replace(" ", " " + blank).replace("\n", blank + "\n")
    if upper:
        text = text.upper().replace("[GAME", "[Game")
    fast = read(text, fast=True)
    assert fast == read(text, fast=False)
    assert grn_scan.scan(text) is not None or not isinstance(fast, Record)


@settings(max_examples=200, deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(from_lark(LARK, start="record"))
def test_text_drawn_from_the_grammar_reads_the_same_both_ways(text: str) -> None:
    assert read(text, fast=True) == read(text, fast=False)


@settings(max_examples=300, deadline=None, suppress_health_check=EVERY_HEALTH_CHECK)
@given(records(max_moves=8), st.data())
def test_damaged_text_reads_the_same_both_ways(record: Record, data: st.DataObject) -> None:
    text = write_record(record)
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["{", "}", "[", "]", "\n", " ", "\xa0", "1.", "x", "*", '"']))
    damaged = text[:at] + junk + text[at:]
    assert read(damaged, fast=True) == read(damaged, fast=False)


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
    assert read(text, fast=True) == read(text, fast=False)
