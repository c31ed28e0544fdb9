"""Hostile input to the readers: every limit of spec/grn.md §9 and spec/json.md §8 is
refused with its own code where it is crossed, before the work or memory it bounds is
spent; the input is exactly what the spec allows; and no broken record hides the records
after it. Each reproduction of the robustness issue has its case here."""

from __future__ import annotations

import io
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.notation import limits
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.grn_reader import read_grn
from arbiter.notation.json_reader import read_json
from arbiter.notation.json_split import split_json
from arbiter.notation.sources import read_records
from fuzz.work import counted
from tests.budget import examples

HUGE = "9" * 4301
"""One digit more than Python converts by default."""


def only(items: list[Record | RecordError]) -> RecordError:
    assert len(items) == 1, items
    assert isinstance(items[0], RecordError), items[0]
    return items[0]


def grn(*tags: str, moves: str = "") -> str:
    return "".join(f"{tag}\n" for tag in tags) + "\n" + moves + "\n"


def cheap(work: Callable[[], Any], calls: int, megabytes: float | None = None) -> Any:
    """Run ``work`` and assert that it made at most ``calls`` function calls (counted, not
    timed: :mod:`fuzz.work`); with ``megabytes``, run it again under tracemalloc and assert
    that its peak allocation stayed below (the refusals must come before the work and the
    memory they bound). The bounds are a few times what the code makes today: a pass more
    over the input, or the JSON Schema validator on every value (about 600 to 800 calls a
    move), goes far over them."""
    result, made = counted(work)
    assert made <= calls, f"{made:,} calls (at most {calls:,})"
    if megabytes is not None:
        tracemalloc.start()
        try:
            work()
            peak = tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()
        assert peak < megabytes, f"peak {peak:.1f} MB"
    return result


# --- digits and komi ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (grn('[Game "Pletore"]', '[Size "5"]', f'[Komi "{HUGE}"]'), (3, 7)),
        (grn('[Game "Pletore"]', '[Size "5"]', f'[Komi "-{HUGE}"]'), (3, 7)),
        (grn('[Game "Pilo"]', f'[Size "{HUGE}"]'), (2, 7)),
        (grn('[Game "Pilo"]', '[Size "5"]', moves=f"{HUGE}. c3"), (4, 1)),
        (grn('[Game "Pilo"]', '[Size "5"]', moves=f"1. c3 {HUGE}... d4"), (4, 7)),
        (grn('[Game "Pilo"]', '[Size "5"]', '[Setup "5/5/5/5/1' + "0" * 4300 + '"]'), (3, 8)),
        (grn('[Game "Pilo"]', '[Size "5"]', '[Setup "5/5/5/5/' + HUGE + '"]'), (3, 8)),
        (grn('[Game "Pilo"]', '[Size "5"]', '[Size2 "5"]', moves="1. c3 d4 *"), None),
    ],
)
def test_whole_numbers_of_too_many_digits_are_refused_where_they_stand(
    text: str, where: tuple[int, int] | None
) -> None:
    items = list(read_grn(text))
    if where is None:  # a control: nine digits or fewer are read as numbers
        assert isinstance(items[0], Record)
        return
    error = only(items)
    assert (error.code, error.line, error.column) == ("too-many-digits", *where)


def test_a_huge_komi_in_a_finished_game_is_refused_not_a_crash() -> None:
    # The 309-digit komi made the score a float overflow in Outcome.result.
    text = grn('[Game "Pletore"]', '[Size "3"]', f'[Komi "{"9" * 309}"]', moves=FINISHED_3X3)
    assert only(list(read_grn(text))).code == "too-many-digits"


FINISHED_3X3 = "1. a1 c1 2. b2 button 3. c3 pass 4. pass"
"""A Pletore game on 3×3 that ends: Black 8 points (3 stones, 5 controlled), White 1 stone
and the button's half point, plus the komi (odd, so that the button is in play)."""


@pytest.mark.parametrize(
    ("komi", "result"),
    [
        ("-100001", "Black+100007.5"),  # 8 - (1 + 0.5 - 100001): `:g` made it Black+100008
        ("-999999", "Black+1000005.5"),  # was written Black+1.00001e+06, which is not GRN
        ("999999", "White+999992.5"),
        ("1", "Black+5.5"),
    ],
)
def test_margins_are_exact_for_any_komi(komi: str, result: str) -> None:
    from arbiter.adjudicator.replay import adjudicate

    text = grn('[Game "Pletore"]', '[Size "3"]', f'[Komi "{komi}"]', f'[Result "{result}"]')
    [record] = read_grn(text + FINISHED_3X3 + "\n")
    assert isinstance(record, Record)
    report = adjudicate(record)
    assert (report.result, report.valid, report.claim_ok) == (result, True, True)


@pytest.mark.parametrize("komi", ["1000001", "-1000001", "999999999"])
def test_a_komi_out_of_range_is_refused(komi: str) -> None:
    error = only(list(read_grn(grn('[Game "Pletore"]', '[Size "3"]', f'[Komi "{komi}"]'))))
    assert (error.code, error.line) == ("komi-out-of-range", 3)
    obj = {"game": "Pletore", "size": 3, "komi": int(komi)}
    error = only(read_json(json.dumps(obj)))
    assert (error.code, error.pointer) == ("komi-out-of-range", "/komi")


def test_json_numbers_of_too_many_digits_are_refused_at_their_pointer() -> None:
    text = '{"game": "Pletore", "size": 5, "komi": ' + HUGE + "}"
    error = only(read_json(text))
    assert (error.code, error.pointer) == ("too-many-digits", "/komi")
    error = only(read_json('{"game": "Pilo", "size": ' + "1" * 10 + "}"))
    assert (error.code, error.pointer) == ("too-many-digits", "/size")


# --- Setup run counts -----------------------------------------------------------------------


def test_a_huge_run_count_in_a_json_setup_is_refused_without_allocating() -> None:
    text = json.dumps({"game": "Pilo", "size": 3, "setup": "99999999999/3/3"})
    error = cheap(lambda: only(read_json(text)), calls=2_000)  # a few hundred, whatever the count
    assert (error.code, error.pointer) == ("too-many-digits", "/setup")


@pytest.mark.parametrize("count", ["100000000", "4", "999999999"])
def test_a_run_count_past_its_rank_is_refused_without_expanding_it(count: str) -> None:
    text = grn('[Game "Pilo"]', '[Size "3"]', f'[Setup "{count}/3/3"]')
    error = cheap(lambda: only(list(read_grn(text))), calls=2_000, megabytes=5)
    assert (error.code, error.line) == ("bad-setup", 3)
    assert "rank 3 has more than 3 squares" in error.message


# --- nothing after a broken record is lost --------------------------------------------------

THREE = (
    '[Game "Pilo"]\n[Size "3"]\n\n1. a1 {oops\n\n'
    '[Game "Pilo"]\n[Size "3"]\n\n1. b2 *\n\n'
    '[Game "Pilo"]\n[Size "3"]\n\n1. c3 *\n'
)


def test_an_unterminated_comment_loses_no_later_record() -> None:
    first, second, third = read_grn(THREE)
    assert isinstance(first, RecordError)
    assert (first.code, first.line, first.column, first.index) == ("unterminated-comment", 4, 7, 0)
    assert "line 6" in first.message  # says where reading resumed
    assert isinstance(second, Record) and isinstance(third, Record)
    assert [str(second.turns[0].move), str(third.turns[0].move)] == ["b2", "c3"]
    assert (second.index, third.index, third.where["Game"].line) == (1, 2, 11)


def test_a_comment_may_still_hold_lines_that_start_with_a_bracket() -> None:
    text = '[Game "Pilo"]\n[Size "3"]\n\n1. a1 {see\n[Event "x"] and\n[Round "2"]} b2 *\n'
    [record] = read_grn(text)
    assert isinstance(record, Record)
    assert record.turns[0].comment == 'see\n[Event "x"] and\n[Round "2"]'


def test_a_record_without_movetext_does_not_swallow_the_next() -> None:
    text = '[Game "Pilo"]\n[Size "3"]\n\n[Game "Pilo"]\n[Size "4"]\n\n1. d4 *\n'
    first, second = read_grn(text)
    assert isinstance(first, Record) and first.size == 3 and not first.turns
    assert isinstance(second, Record) and second.size == 4


def test_tags_before_the_game_tag_stay_with_their_record() -> None:
    text = '[Event "Open"]\n[Game "Pilo"]\n[Size "3"]\n\n1. b2 *\n'
    [record] = read_grn(text)
    assert isinstance(record, Record) and record.tags[0].name == "Event"


@pytest.mark.parametrize(
    "broken",
    [
        "1. a1 {never closed",
        "1. a1 %% junk",
        '[Size "x"]\n\n1. a1',
        "1. z9 a1",
        "\udcff",
    ],
)
def test_any_broken_record_between_two_good_ones_loses_neither(broken: str) -> None:
    good = '[Game "Pilo"]\n[Size "3"]\n\n1. b2 *\n'
    text = good + '\n[Game "Pilo"]\n[Size "3"]\n' + broken + "\n\n" + good
    items = list(read_records(text.encode("utf-8", "surrogateescape")))
    assert len(items) == 3
    assert isinstance(items[0], Record) and isinstance(items[2], Record)
    assert isinstance(items[1], RecordError) and items[2].index == 2


# --- bounded work -----------------------------------------------------------------------------


def test_a_json_record_of_100000_junk_moves_is_refused_at_once() -> None:
    text = json.dumps({"game": "Pilo", "size": 3, "moves": [1] * 100_000})  # 200 KB
    error = cheap(lambda: only(read_json(text)), calls=3 * 100_000)  # one pass, no schema
    assert (error.code, error.pointer) == ("too-many-moves", f"/moves/{limits.MAX_MOVES}")


def test_junk_moves_under_the_limit_are_refused_at_the_first() -> None:
    # The schema's own check cost ~78 µs per junk value (and ~0.7 ms per valid move).
    text = json.dumps({"game": "Pilo", "size": 3, "moves": ["x"] * (limits.MAX_MOVES - 1)})
    error = cheap(lambda: only(read_json(text)), calls=10 * limits.MAX_MOVES)
    assert (error.code, error.pointer) == ("schema", "/moves/0")
    late = [{"type": "place", "at": "a1"}] * 9_000 + [{"type": "flip", "at": "a1"}]
    error = cheap(
        lambda: only(read_json(json.dumps({"game": "Pilo", "size": 3, "moves": late}))),
        calls=60 * 9_000,  # the quick checks, about 36 calls a move
    )
    assert (error.code, error.pointer) == ("schema", "/moves/9000/type")


def test_a_json_record_at_the_move_limit_is_read_in_well_under_a_second() -> None:
    moves = [{"type": "place", "at": "a1", "comment": "x"}] * limits.MAX_MOVES
    [record] = cheap(
        lambda: read_json(json.dumps({"game": "Pilo", "size": 3, "moves": moves})),
        calls=150 * limits.MAX_MOVES,  # about 70 a move, reading and building included
    )
    assert isinstance(record, Record) and len(record.turns) == limits.MAX_MOVES


def test_a_16_mb_junk_record_is_refused_without_reading_it_all() -> None:
    body = b'{"game": "Pilo", "size": 3, "moves": [' + b"1," * (8 * 1024 * 1024) + b"1]}"
    error = cheap(lambda: only(list(read_records(io.BytesIO(body)))), calls=20_000, megabytes=5)
    assert (error.code, error.line, error.column) == ("too-large", 1, 1)


def test_an_oversized_element_of_an_array_is_skipped_and_the_next_read() -> None:
    good = {"game": "Pilo", "size": 3}
    big = {"game": "Pilo", "size": 3, "comment": "x]}" * (limits.MAX_RECORD_BYTES // 3)}
    first, second, third = cheap(lambda: read_json(json.dumps([good, big, good])), calls=5_000)
    assert isinstance(first, Record) and isinstance(third, Record) and third.index == 2
    assert isinstance(second, RecordError) and (second.code, second.line) == ("too-large", 1)


def test_a_record_too_costly_to_follow_ends_the_source_with_its_error() -> None:
    dense = {"game": "Pilo", "size": 3, "x": [[]] * limits.MAX_JSON_VALUES}
    text = json.dumps([{"game": "Pilo", "size": 3}, dense, {"game": "Pilo", "size": 3}])
    first, second = cheap(lambda: read_json(text), calls=5_000, megabytes=30)
    assert isinstance(first, Record)
    assert isinstance(second, RecordError) and second.code == "too-many-values"
    assert "nothing after it is read" in second.message


GRN_LIMIT_CALLS = 1_500_000
"""The most calls reading one record over a GRN limit may make: the dearest, 100,001 lines,
makes about seven a line (700,000)."""


@pytest.mark.parametrize(
    ("tail", "code"),
    [
        ("1. a1 " + "b2 a1 " * (limits.MAX_MOVES // 2) + "c3", "too-many-moves"),
        ("{}" * (limits.MAX_COMMENTS + 1), "too-many-comments"),
        ("\n" * (limits.MAX_LINES + 1) + "1. a1", "too-many-lines"),
        ("{" + "x" * (limits.MAX_TEXT + 1) + "}", "too-long"),
        ("1. a1 " + "{" + "x" * limits.MAX_RECORD_BYTES + "}", "too-large"),
    ],
)
def test_every_grn_limit_has_its_own_code(tail: str, code: str) -> None:
    text = grn('[Game "Pilo"]', '[Size "3"]', moves=tail)
    error = cheap(lambda: only(list(read_grn(text))), calls=GRN_LIMIT_CALLS, megabytes=40)
    assert error.code == code and error.line is not None


def test_too_many_tags() -> None:
    tags = [f'[T{n} "x"]' for n in range(limits.MAX_TAGS)]
    error = only(list(read_grn(grn('[Game "Pilo"]', '[Size "3"]', *tags))))
    assert (error.code, error.line) == ("too-many-tags", limits.MAX_TAGS + 1)
    ok = grn('[Game "Pilo"]', '[Size "3"]', *tags[:-2])
    assert isinstance(next(read_grn(ok)), Record)


@pytest.mark.parametrize(
    ("obj", "code", "pointer"),
    [
        ({"game": "Pilo", "size": 3, "tags": [{}] * 300}, "too-many-tags", "/tags/256"),
        ({"game": "Pilo", "size": 3, "x": list(range(20_000))}, "too-many-values", "/x/10000"),
        (
            {"game": "Pilo", "size": 3, "players": {str(n): "" for n in range(65)}},
            "too-many-values",
            "/players",
        ),
        ({"game": "Pilo", "size": 3, "comment": "x" * 70_000}, "too-long", "/comment"),
        (
            {"game": "Pilo", "size": 3, "players": {"Blue": "x" * 70_000}},
            "too-long",
            "/players/Blue",
        ),
    ],
)
def test_every_json_limit_has_its_own_code(obj: object, code: str, pointer: str) -> None:
    error = cheap(lambda: only(read_json(json.dumps(obj))), calls=150_000)
    assert (error.code, error.pointer) == (code, pointer)


def test_json_nesting_is_refused_before_parsing() -> None:
    deep = "[" + "[" * 50_000 + "]" * 50_000 + ", {}]"
    first, second = cheap(lambda: read_json(deep), calls=5_000)
    assert isinstance(first, RecordError) and first.code == "too-deep"
    assert isinstance(second, RecordError) and second.code == "schema"  # {} is read on its own


# --- exactly what the spec allows -------------------------------------------------------------

UNICODE_SPACES = [
    chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) not in limits.BLANK
]


@pytest.mark.parametrize("space", UNICODE_SPACES, ids=lambda c: f"U+{ord(c):04X}")
def test_only_the_specs_white_space_separates_tokens(space: str) -> None:
    moves = only(list(read_grn(grn('[Game "Pilo"]', '[Size "3"]', moves=f"1. b2{space}c3"))))
    assert (moves.code, moves.line) == ("syntax-error", 4)
    game = only(list(read_grn(grn(f'[Game "Pilo{space}"]', '[Size "3"]'))))
    assert game.code == "unknown-game"
    size = only(list(read_grn(grn('[Game "Pilo"]', f'[Size "{space}3"]'))))
    assert size.code == "bad-size"


@pytest.mark.parametrize("digit", ["٣", "３", "৩", "𝟑"])
def test_only_ascii_digits_are_numbers(digit: str) -> None:
    setup = only(list(read_grn(grn('[Game "Pilo"]', '[Size "3"]', f'[Setup "{digit}/3/3"]'))))
    assert setup.code == "bad-setup"
    size = only(list(read_grn(grn('[Game "Pilo"]', f'[Size "{digit}"]'))))
    assert size.code == "bad-size"
    komi = only(list(read_grn(grn('[Game "Pletore"]', '[Size "3"]', f'[Komi "{digit}"]'))))
    assert komi.code == "bad-komi"


@pytest.mark.parametrize("word", ["pa\u017f\u017f", "\u017fwap", "a1x\u212a3"])
def test_no_unicode_letter_passes_for_an_ascii_one(word: str) -> None:
    # Case-insensitive matching would let the long s pass for s, the Kelvin sign for k.
    error = only(list(read_grn(grn('[Game "Pilo"]', '[Size "3"]', moves=f"1. a1 {word}"))))
    assert error.code in ("syntax-error", "off-board")
    kelvin = grn('[Game "Pletore"]', '[Size "3"]', '[Komi "0"]', '[Result "Blac\u212a"]')
    result = list(read_grn(kelvin))
    assert isinstance(result[0], RecordError) and result[0].code == "bad-result"


def test_a_lone_surrogate_in_a_json_string_is_an_encoding_error() -> None:
    text = '{"game": "Pilo", "size": 5, "players": {"Blue": "\\ud800"}}'
    error = only(read_json(text))
    assert (error.code, error.pointer) == ("encoding", "/players/Blue")
    pair = '{"game": "Pilo", "size": 5, "players": {"Blue": "\\ud83d\\ude00"}}'
    [record] = read_json(pair)
    assert isinstance(record, Record) and record.players == (("Blue", "\U0001f600"),)


@pytest.mark.parametrize("blank", [5_000, 70_000, 3 * 1024 * 1024])
def test_format_detection_does_not_depend_on_leading_white_space(blank: int) -> None:
    text = " " * blank + "\n" + json.dumps({"game": "Pilo", "size": 5})
    [record] = read_records(text.encode())
    assert isinstance(record, Record) and record.where["Game"].pointer == "/game"
    [error] = read_records((" " * blank + '\n{"game": "Pilo", "size": 5,}').encode())
    assert isinstance(error, RecordError) and (error.code, error.line) == ("bad-json", 2)


# --- the JSON splitter --------------------------------------------------------------------------


class Trickle(io.BytesIO):
    """A stream that gives at most ``chunk`` bytes a read."""

    def __init__(self, data: bytes, chunk: int) -> None:
        super().__init__(data)
        self.chunk = chunk

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self.chunk)


def test_the_splitter_finds_each_element_whatever_the_chunks() -> None:
    values = [{"a": 'x]}\\"{[', "b": [1, {"c": []}]}, "s,t", 5, [], {"d": "é" * 5000}]
    text = json.dumps(values, indent=1, ensure_ascii=False).encode()
    for chunk in (1, 7, 64 * 1024):
        items = list(split_json(Trickle(text, chunk)))
        assert [json.loads(item.data) for item in items] == values
        assert [(item.line, item.index) for item in items][:2] == [(2, 0), (11, 1)]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)  # JSON has neither
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(json_values, max_size=6), st.sampled_from([None, 0, 2]), st.integers(1, 40))
def test_the_splitter_cuts_any_array_into_its_elements(
    values: list[object], indent: int | None, chunk: int
) -> None:
    text = json.dumps(values, indent=indent, ensure_ascii=bool(chunk % 2)).encode()
    items = list(split_json(Trickle(text, chunk)))
    assert [json.loads(item.data) for item in items] == values
    assert [item.index for item in items] == list(range(len(values)))
    assert all(item.error is None for item in items)


# --- findings of the differential run of the two builds (make test runs this file on both) --

SETUP_X_GRN = b'[Game "Pilo"] [Size "3"] [Setup "x"]'
SETUP_X_JSON = b'{"game": "Pilo", "size": 3, "setup": "x"}'


@pytest.mark.parametrize(
    ("data", "where"),
    [(SETUP_X_GRN, {"line": 1, "column": 33}), (SETUP_X_JSON, {"pointer": "/setup"})],
    ids=["grn", "json"],
)
def test_a_setup_of_no_position_is_bad_setup_at_the_tag(data: bytes, where: dict[str, Any]) -> None:
    # The compiled build once answered internal-error: an except variable reused with
    # another type (spec/build.md).
    error = only(list(read_records(data)))
    assert error.code == "bad-setup"
    assert error.message == "bad Setup: the position has 1 ranks, the board 3"
    assert {key: getattr(error, key) for key in where} == where


@pytest.mark.parametrize(
    ("setup", "code", "message"),
    [
        ("3/3", "bad-setup", "bad Setup: the position has 2 ranks, the board 3"),
        ("4/3/3", "bad-setup", "bad Setup: rank 3 has more than 3 squares, the board 3"),
        (
            "q,2/3/3",
            "bad-setup",
            "bad Setup: rank 3: 'q' is neither a count of empty squares nor a stack of b, o, x",
        ),  # fmt: skip
        (
            "1234567890/3/3",
            "too-many-digits",
            "bad Setup: rank 3: the count 1234567890... has too many digits",
        ),  # fmt: skip
    ],
)
def test_every_setup_shape_is_refused_with_its_code(setup: str, code: str, message: str) -> None:
    for data in (
        f'[Game "Pilo"]\n[Size "3"]\n[Setup "{setup}"]\n\n*\n'.encode(),
        json.dumps({"game": "Pilo", "size": 3, "setup": setup}).encode(),
    ):
        error = only(list(read_records(data)))
        assert (error.code, error.message) == (code, message)


BRACES = b"{" * 100_000


@pytest.mark.parametrize(
    ("data", "fmt", "code"),
    [
        (BRACES, "grn", "unterminated-comment"),
        (BRACES, None, "bad-json"),  # a first '{' is JSON's
        (b'[Game "Pilo"]\n[Size "6"]\n\n' + BRACES, None, "unterminated-comment"),
        (b'[Game "Pilo"]\n[Size "6"]\n[Event "' + BRACES[:60_000] + b'"]\n\n1. c3 *\n', None, None),
        (b'[Game "Pilo"]\n[Size "6"]\n[Event "' + BRACES + b'"]\n\n1. c3 *\n', None, "too-long"),
    ],
    ids=["alone", "alone-sniffed", "movetext", "tag-value", "tag-value-too-long"],
)
def test_a_run_of_100000_braces_is_answered_at_once(
    data: bytes, fmt: str | None, code: str | None
) -> None:
    # Each '{' once started a search of the text's end for its '}': 13 s at 100 KB.
    (item,) = cheap(lambda: list(read_records(data, fmt=fmt)), calls=3 * len(data))  # type: ignore[arg-type]
    assert getattr(item, "code", None) == code
