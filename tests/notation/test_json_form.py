"""The quick walk of a JSON value's form (``notation/json_form.py``) passes only what the
full walk passes: ``check_structure`` gives the same first problem (code, message, pointer)
as the walk that keeps every node's path, on values near every limit of the form."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.notation import limits
from arbiter.notation.errors import RecordError
from arbiter.notation.json_form import plain_count
from arbiter.notation.json_reader import (
    _LongNumber,
    _object,
    check_structure,
    walk_structure,
)

SURROGATE = chr(0xD800)
texts = st.one_of(
    st.sampled_from(["", "a1", "pie", "Ann", "é", "漢", SURROGATE, "x" + chr(0xDFFF)]),
    st.text(max_size=4),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts,
    st.builds(_LongNumber, st.just("1" * (limits.MAX_DIGITS + 1))),
)  # fmt: skip


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Objects as the reader's parser makes them: a repeated key marks the object."""
    pairs = st.lists(st.tuples(st.sampled_from(["a", "b", "moves", "tags", SURROGATE]) | texts,
                               children), max_size=6)  # fmt: skip
    return pairs.map(_object)


values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), _objects(children)),
    max_leaves=30,
)


def _outcome(run: Any, value: object) -> tuple[str, str, str | None] | None:
    try:
        run(value)
    except RecordError as error:
        return error.code, error.message, error.pointer
    return None


def _same(value: object) -> None:
    walked = _outcome(walk_structure, value)
    assert _outcome(check_structure, value) == walked
    if 0 <= plain_count(value) <= limits.MAX_JSON_VALUES:
        assert walked is None


@settings(max_examples=400)
@given(values)
def test_any_value_gets_the_walks_answer(value: object) -> None:
    _same(value)


def _nested(depth: int, inner: object) -> object:
    value = inner
    for n in range(depth - 1):
        value = [value] if n % 2 else {"k": value}
    return value


@given(st.integers(limits.MAX_JSON_DEPTH - 2, limits.MAX_JSON_DEPTH + 1),
       st.sampled_from([[], {}, ["a"], {"k": 1}, "a", 7]))  # fmt: skip
def test_nesting_at_the_limit(depth: int, inner: object) -> None:
    _same(_nested(depth, inner))
    _same({"moves": _nested(depth - 1, inner)})


@given(st.integers(limits.MAX_JSON_MEMBERS - 1, limits.MAX_JSON_MEMBERS + 1))
def test_members_at_the_limit(count: int) -> None:
    members = {f"k{n}": n for n in range(count)}
    _same(members)
    _same({"header": members})


def test_arrays_at_each_limit() -> None:
    for most in (limits.MAX_TAGS, limits.MAX_MOVES, limits.MAX_JSON_ITEMS):
        for count in (most, most + 1):
            items = ["a"] * count
            for value in ({"tags": items}, {"moves": items}, {"other": items}, items,
                          {"header": {"tags": items}}, [{"moves": items}]):  # fmt: skip
                _same(value)


def test_too_many_values_in_all() -> None:
    block = [["a1", "b2"]] * 9_000  # 27,001 values
    for count in range(5, 10):  # 135,006 to 243,010 values: the limit is 200,000
        _same([block] * count)
        _same({"moves": block, "other": [block] * (count - 1)})
