"""The optional C module ``arbiter._implo`` (``src/arbiter/_implo.c``), which the wheel builds
where a C compiler is present: each of its fills gives what the Python function it stands in
for gives (``implo_board``), on random boards of every size, and bad arguments are a
TypeError or a ValueError, never a crash. Where the module is not built (a checkout run),
the engine runs the Python functions and these tests are skipped; the wheel's run
(``make test``) has it.

The Python functions are the reading the rule tests hold (``test_implo.py``, against a
brute-force reference); the wheel's run of those tests plays them through the C module."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.adjudicator import implo_board
from arbiter.adjudicator.implo import MARKERS, STONES
from arbiter.adjudicator.implo_board import (
    count_marker_groups,
    options,
    placed_patches,
    put_down,
    tables,
)
from tests.budget import examples

core = pytest.importorskip("arbiter._implo")

CELL = st.sampled_from([0, 0, 0, 0, 1, 1, 2, 2, 3, 4])
"""Empty points most often, then stones, then markers (codes of ``implo_board``)."""
EXAMPLES = settings(max_examples=examples(400), deadline=None)


@st.composite
def boards(draw: st.DrawFn, largest: int = 19) -> tuple[int, bytes]:
    """A board of any size from 3 to ``largest``, of any cells (patches allowed)."""
    size = draw(st.integers(3, largest))
    cells = draw(st.lists(CELL, min_size=size * size, max_size=size * size))
    return size, bytes(cells)


@st.composite
def placements(draw: st.DrawFn) -> tuple[int, bytes, int]:
    """A board where a stone has just landed on the point returned."""
    size, board = draw(boards(largest=10))
    at = draw(st.integers(0, size * size - 1))
    cells = bytearray(board)
    cells[at] = draw(st.sampled_from(STONES))
    return size, bytes(cells), at


@st.composite
def patches(draw: st.DrawFn) -> tuple[int, bytes, tuple[int, ...]]:
    """A board and a sorted set of points of it: most often empty ones, like a patch."""
    size, board = draw(boards(largest=10))
    empty = [p for p, cell in enumerate(board) if not cell]
    pool = empty if empty and draw(st.booleans()) else list(range(size * size))
    chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6, unique=True))
    return size, board, tuple(sorted(chosen))


def test_the_engine_calls_the_c_module_where_it_is_built() -> None:
    assert implo_board._C is core and implo_board._C_PATCHES is core.patches  # noqa: SLF001


@EXAMPLES
@given(placements())
def test_patches_are_those_the_python_fill_finds(placement: tuple[int, bytes, int]) -> None:
    size, board, at = placement
    expected = placed_patches(board, tables(size).neighbours, at)
    assert core.patches(board, size, at) == expected  # the same patches, in the same order
    assert core.patches(bytearray(board), size, at) == expected


@EXAMPLES
@given(boards(largest=10), st.data())
def test_a_placement_is_the_board_and_the_patches_python_gives(
    board: tuple[int, bytes], data: st.DataObject
) -> None:
    size, cells = board
    at = data.draw(st.integers(0, size * size - 1))
    stone = data.draw(st.sampled_from(STONES))
    after = cells[:at] + bytes((stone,)) + cells[at + 1 :]
    placed, found = core.place(cells, size, at, stone)
    assert type(placed) is bytes and placed == after
    assert found == placed_patches(after, tables(size).neighbours, at)


@EXAMPLES
@given(patches(), st.sampled_from([0, 1]))
def test_owner_and_groups_are_those_python_finds(
    patch: tuple[int, bytes, tuple[int, ...]], mover: int
) -> None:
    size, board, points = patch
    expected = options(bytearray(board), tables(size).neighbours, {}, points, mover, STONES)
    found = core.options(bytearray(board), size, points, mover, *STONES)
    assert type(found) is tuple and found == expected


@EXAMPLES
@given(patches(), st.sampled_from(MARKERS), st.data())
def test_a_resolution_writes_what_python_writes(
    patch: tuple[int, bytes, tuple[int, ...]], marker: int, data: st.DataObject
) -> None:
    size, board, points = patch
    others = [p for p in range(size * size) if p not in points]
    group = data.draw(st.lists(st.sampled_from(others), max_size=6, unique=True))
    in_python, in_c = bytearray(board), bytearray(board)
    opened = put_down(in_python, size, points, marker, group)
    assert core.settle(in_c, size, points, marker, group) is opened
    assert in_c == in_python


@EXAMPLES
@given(boards())
def test_marker_groups_are_those_python_counts(board: tuple[int, bytes]) -> None:
    size, cells = board
    expected = count_marker_groups(cells, size, MARKERS)
    found = core.marker_groups(cells, size, *MARKERS)
    assert [list(counts.items()) for counts in found] == [
        list(counts.items()) for counts in expected
    ]


GOOD = bytes(9)


@pytest.mark.parametrize(
    ("function", "arguments", "error"),
    [
        ("patches", (GOOD, 3), TypeError),  # too few
        ("patches", ("." * 9, 3, 0), TypeError),  # a board of letters
        ("patches", (GOOD, 3.0, 0), TypeError),
        ("patches", (bytes(8), 3, 0), ValueError),  # not 3×3
        ("patches", (GOOD, 0, 0), ValueError),
        ("patches", (bytes(33 * 33), 33, 0), ValueError),  # larger than any board
        ("patches", (GOOD, 2**70, 0), ValueError),
        ("patches", (GOOD, 3, 9), ValueError),  # off the board
        ("patches", (GOOD, 3, -1), ValueError),
        ("place", (GOOD, 3, 0), TypeError),
        ("place", (GOOD, 3, 0, 0), ValueError),  # 0 is no stone
        ("place", (GOOD, 3, 9, 1), ValueError),
        ("place", (bytes(10), 3, 0, 1), ValueError),
        ("options", (GOOD, 3, [0], 0, 1, 2), TypeError),  # a patch is a tuple
        ("options", (GOOD, 3, (0, 9), 0, 1, 2), ValueError),
        ("options", (GOOD, 3, ("a1",), 0, 1, 2), TypeError),
        ("options", (GOOD, 3, (0,), 2, 1, 2), ValueError),  # no third colour
        ("options", (GOOD, 3, (0,), 0, 0, 2), ValueError),  # 0 is an empty point
        ("settle", (GOOD, 3, (0,), 3, []), TypeError),  # bytes cannot change
        ("settle", (bytearray(9), 3, (0,), 256, []), ValueError),
        ("settle", (bytearray(9), 3, (0,), 3, [9]), ValueError),
        ("settle", (bytearray(9), 3, (0,), 3, {1}), TypeError),
        ("settle", (bytearray(9), 3, tuple(range(10)), 3, []), ValueError),
        ("marker_groups", (GOOD, 3, 3), TypeError),
        ("marker_groups", (GOOD, 3, 3, None), TypeError),
        ("marker_groups", (GOOD, 4, 3, 4), ValueError),
    ],
)
def test_bad_arguments_are_refused(function: str, arguments: tuple[Any, ...], error: type) -> None:
    with pytest.raises(error):
        getattr(core, function)(*arguments)


def test_a_refused_resolution_leaves_the_board_alone() -> None:
    cells = bytearray([1] * 9)
    with pytest.raises(ValueError):
        core.settle(cells, 3, (0, 1), 3, [2, 99])
    assert cells == bytearray([1] * 9)
