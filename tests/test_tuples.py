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
