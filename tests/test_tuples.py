"""The optional C module ``arbiter._tuples`` (``src/arbiter/_tuples.c``), which the wheel
builds where a C compiler is present: ``new(kind, values)`` gives what ``tuple.__new__``
gives, and refuses what it cannot build with a TypeError, never a crash. Where the module
is not built (a checkout run), ``make`` uses ``tuple.__new__`` and these tests are skipped;
the wheel's run (``make test``) has it."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbiter.notation import ast
from arbiter.notation.ast import Location, Turn, make

tuples = pytest.importorskip("arbiter._tuples")


class Three(NamedTuple):
    a: Any
    b: Any
    c: Any


def test_make_uses_the_c_module_where_it_is_built() -> None:
    assert ast.tuple_maker() is tuples.new
    assert ast.tuple_of() is tuples.of
    assert make(Location, (3, 4, None)) == Location(3, 4, None)


@given(st.tuples(st.integers(), st.text(), st.none() | st.floats(allow_nan=False)))
def test_of_builds_from_arguments_what_new_builds_from_a_tuple(
    values: tuple[Any, Any, Any],
) -> None:
    built = tuples.of(Three, *values)
    assert type(built) is Three and built == tuple.__new__(Three, values)
    assert ast._of_values(Three, *values) == built  # noqa: SLF001  # the pure build's


def test_of_a_plain_tuple_and_of_no_values() -> None:
    assert tuples.of(tuple, 1, 2) == (1, 2) and type(tuples.of(tuple, 1, 2)) is tuple
    assert tuples.of(tuple) == ()


@given(
    st.lists(st.text(max_size=3), min_size=1, max_size=40),
    st.lists(st.tuples(st.integers(0, 39), st.text(max_size=3)), max_size=3),
)
def test_replaced_copies_once_with_the_pairs_put_in(
    items: list[str], pairs: list[tuple[int, str]]
) -> None:
    board = tuple(items)
    pairs = [(index % len(board), value) for index, value in pairs]
    flat = [part for pair in pairs for part in pair]
    expected = list(board)
    for index, value in pairs:
        expected[index] = value
    made = tuples.replaced(board, *flat)
    assert type(made) is tuple and made == tuple(expected) and board == tuple(items)
    assert ast._replaced_items(board, *flat) == made  # noqa: SLF001  # the pure build's


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((), TypeError),
        (([1, 2], 0, 5), TypeError),  # a list
        (((1, 2), 0), TypeError),  # an index without its value
        (((1, 2), "0", 5), TypeError),
        (((1, 2), 2, 5), IndexError),
        (((1, 2), -1, 5), IndexError),
        (((1, 2), 2**70, 5), IndexError),
    ],
)
def test_what_replaced_cannot_do_is_refused(arguments: tuple[Any, ...], error: type) -> None:
    with pytest.raises(error):
        tuples.replaced(*arguments)
    if arguments and isinstance(arguments[0], tuple) and error is IndexError:
        with pytest.raises(IndexError):
            ast._replaced_items(*arguments)  # noqa: SLF001


@pytest.mark.parametrize("arguments", [(), (int, 1), ("Three", 1, 2, 3), (None,)])
def test_what_of_cannot_build_is_a_type_error(arguments: tuple[Any, ...]) -> None:
    with pytest.raises(TypeError):
        tuples.of(*arguments)


@given(st.tuples(st.integers(), st.text(), st.none() | st.floats(allow_nan=False)))
def test_the_tuple_built_is_the_one_tuple_new_builds(values: tuple[Any, Any, Any]) -> None:
    built = tuples.new(Three, values)
    expected = tuple.__new__(Three, values)
    assert type(built) is Three and built == expected and built is not values
    assert (built.a, built.b, built.c) == values and hash(built) == hash(expected)


def test_the_classes_of_the_hot_paths() -> None:
    where = tuples.new(Location, (1, 2, None))
    turn = tuples.new(Turn, (None, "a note", where))
    assert type(turn) is Turn and turn.where is where and turn.comment == "a note"
    plain = (1, 2)
    assert tuples.new(tuple, plain) is plain  # as tuple.__new__(tuple, plain)


@pytest.mark.parametrize(
    "arguments",
    [(), (Three,), (Three, (1, 2, 3), 4), (int, (1,)), ("Three", (1, 2, 3)), (Three, [1, 2, 3])],
)
def test_what_it_cannot_build_is_a_type_error(arguments: tuple[Any, ...]) -> None:
    with pytest.raises(TypeError):
        tuples.new(*arguments)
