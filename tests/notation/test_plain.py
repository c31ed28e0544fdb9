"""The model's value classes (``notation/plain.py``): equality, hashing, ``repr``,
``replace`` and pickling made from each class's list of fields, and ``Point``'s order.

Every subclass of ``Plain`` in the package must have an example below, so a new class
cannot skip these checks.
"""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import arbiter.notation.abstractplay as abstractplay
import arbiter.ratings.abstractplay as rated
import arbiter.service.cli.options
import arbiter.service.cli.streams
import arbiter.service.core.batch
from arbiter.adjudicator.base import Outcome
from arbiter.adjudicator.hints import Suggestion
from arbiter.adjudicator.replay import REPORT_FIELDS, Report
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
from arbiter.notation.build import RawValue
from arbiter.notation.chunk import Chunk
from arbiter.notation.errors import RecordError
from arbiter.notation.games import Piece, find_game
from arbiter.notation.plain import Plain
from tests.strategies import GAME_NAMES, moves, records

C3, D4 = Point.parse("c3"), Point.parse("d4")
AP_GAME = rated.APGame("f.json", 0, "Pletore", "Pletore (no variants)", "S", "7", 2, ("a", "b"),
                       ("A", None), 1.0, False, 3, "2025-01-01", 1735689600000)  # fmt: skip
EXAMPLES: list[Plain] = [
    Place(C3),
    Flip(C3),
    Resolve(C3, D4),
    ImploPlace(C3, (Resolve(D4),)),
    Capture(C3, D4),
    Sow(C3, "nne"),
    Pass(),
    Swap(),
    Button(),
    Tag("Event", "Open", Location(3, 1)),
    Record("Pilo", 6, turns=(Turn(Place(C3)),), tags=(Tag("Round", "2"),), index=4),
    Piece("b", "Blue disk"),
    Sow.form,
    Suggestion(9, "d3", "d2", "rank off by one", True, "Blue+5", True, Location(10, 40)),
    Sow.form.fields["path"],
    find_game("Pletore"),
    Outcome("White", {"White": 7, "Black": 5}, "a tie-break", {"White": {"stones": 7}}),
    Report("a.grn", 2, game="Pilo", valid=True, errors=[{"code": "x", "message": "y"}]),
    Chunk("[Game ...]", 3, 1, None, 9),
    RawValue("6", Location(2, 7)),
    abstractplay._Entry("d4", 2, 1),
    abstractplay._Opening(RawValue("7", Location(pointer="/moves/0/0")), "7", "kept", 2),
    abstractplay._Seat(0, "Ann", 1, {"name": "Ann", "result": 1}),
    AP_GAME,
    rated.PoolPlan("Pletore (no variants)", [AP_GAME], [[AP_GAME]], [AP_GAME], {7: {}}),
    arbiter.service.core.batch.Converted(0, None, text="x"),
    arbiter.service.cli.streams.Unreadable("folder", "permission denied"),
    arbiter.service.cli.options.JOBS,
    arbiter.service.cli.options.SCHEDULER,
]


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    return found.union(*(_subclasses(sub) for sub in found))


BASES = {Move}
"""Bases with no fields of their own, whose subclasses each have an example."""


def test_every_value_class_has_an_example() -> None:
    named = {cls for cls in _subclasses(Plain) if cls.__module__.startswith("arbiter.")}
    assert named - BASES <= {type(example) for example in EXAMPLES}


@pytest.mark.checkout_only  # compiled classes show no signature to inspect
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: type(e).__name__)
def test_fields_are_the_constructor_parameters(example: Plain) -> None:
    parameters = list(inspect.signature(type(example)).parameters)
    assert parameters == list(example._fields)
    if "__slots__" in type(example).__dict__ and isinstance(type(example).__slots__, tuple):
        assert type(example).__slots__ == example._fields  # nothing held beyond the fields


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: type(e).__name__)
def test_copies_are_equal_and_hash_alike(example: Plain) -> None:
    for copy in (example.replace(), pickle.loads(pickle.dumps(example))):
        assert type(copy) is type(example)
        assert copy == example
        assert not copy != example  # noqa: SIM202 (the operator itself is under test)
        assert [getattr(copy, f) for f in copy._fields] == [
            getattr(example, f) for f in example._fields
        ]
        if _hashable(example):
            assert hash(copy) == hash(example)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: type(e).__name__)
def test_repr_names_the_class_and_every_field(example: Plain) -> None:
    text = repr(example)
    assert text.startswith(type(example).__name__ + "(")
    for name in example._fields:
        assert f"{name}={getattr(example, name)!r}" in text


def test_a_chunk_with_its_error_pickles() -> None:
    """Chunks go to worker processes (``--jobs``) with the error found while cutting them."""
    chunk = Chunk("[Game", 3, 1, RecordError("broken", code="syntax", line=4), 9)
    copy = pickle.loads(pickle.dumps(chunk))
    assert (copy.text, copy.first_line, copy.index, copy.resumed) == ("[Game", 3, 1, 9)
    assert copy.error is not None
    assert (copy.error.code, copy.error.message, copy.error.line) == ("syntax", "broken", 4)


def test_replace_changes_only_what_it_names() -> None:
    record = EXAMPLES[10]
    assert isinstance(record, Record)
    changed = record.replace(result="Blue", size=8)
    assert (changed.result, changed.size, changed.game, changed.turns) == (
        "Blue",
        8,
        "Pilo",
        record.turns,
    )
    assert record.result == "*"
    with pytest.raises(TypeError, match="no field 'colour'"):
        record.replace(colour="Blue")


def test_equality_needs_the_same_class() -> None:
    assert Place(C3) != Flip(C3)
    assert Pass() != Swap() != Button()
    assert Pass() == Pass()
    assert Place(C3) != (C3,)


def test_where_a_thing_stood_is_not_compared() -> None:
    assert Tag("Event", "Open", Location(1, 1)) == Tag("Event", "Open", Location(9, 9))
    assert Tag("Event", "Open") != Tag("Event", "Closed")
    first = Record("Pilo", 6, where={"Game": Location(1, 1)}, index=0)
    second = Record("Pilo", 6, where={"Game": Location(5, 1)}, index=3)
    assert first == second
    assert hash(first) == hash(second)
    assert first != first.replace(komi=1)


def test_reports_change_and_keep_the_order_of_their_fields() -> None:
    report = Report("a.grn", 0)
    report.valid = True
    assert list(report.to_dict()) == list(REPORT_FIELDS)
    assert report.to_dict()["valid"] is True
    assert Report("a.grn", 0).errors is not Report("a.grn", 0).errors  # no shared defaults


@given(st.sampled_from(GAME_NAMES).flatmap(lambda game: st.tuples(*[_moves(game)] * 2)))
def test_moves_are_equal_exactly_when_they_read_alike(pair: tuple[Any, Any]) -> None:
    first, second = pair
    same = type(first) is type(second) and str(first) == str(second)
    assert (first == second) is same
    assert (first != second) is not same
    if same:
        assert hash(first) == hash(second)


def _moves(game: str) -> st.SearchStrategy[Any]:
    return moves(find_game(game), 6 if game != "Pletore" else 5)


@given(
    st.tuples(st.integers(0, 18), st.integers(0, 18)),
    st.tuples(st.integers(0, 18), st.integers(0, 18)),
)
def test_points_order_as_their_file_and_rank(a: tuple[int, int], b: tuple[int, int]) -> None:
    first, second = Point(*a), Point(*b)
    assert (first < second, first <= second, first > second, first >= second) == (
        a < b,
        a <= b,
        a > b,
        a >= b,
    )
    assert (first == second) is (a == b)
    assert (hash(first) == hash(second)) or a != b


@given(records())
def test_records_survive_pickling_and_replace(record: Record) -> None:
    assert pickle.loads(pickle.dumps(record)) == record
    assert record.replace() == record
