"""A record's pictures in parts (spec/diagrams.md §5): put together in the documented order
they are the pictures the library draws without a caption, ply by ply, with and without
control marks; the sheet holds one fragment per kind of square the record shows."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import arbiter.diagram
from arbiter.diagram import Frame, Options, Sheet, ViewerParts, control_string, render
from arbiter.notation.ast import Record
from arbiter.notation.sources import read_records

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = [
    "pletore/valid/05-lesson-5x5.grn",
    "pilo/invalid/01-unequal-heights-8x8.grn",
    "pilare/invalid/off_board_8x8.grn",
    "implo/valid/05-forced-steps-omitted-5x5.grn",
    "petrify/valid/01-club-ladder-8x8-swap.grn",
]


def record(sample: str) -> Record:
    (found, *_) = read_records(ROOT / "samples" / sample)
    assert isinstance(found, Record)
    return found


def compose(parts: ViewerParts, ply: int, frame: Frame, control: bool) -> str:
    """A ply's picture from its parts, as the page's viewer puts it together."""
    sheet, size = parts.sheet, frame.position.size

    def place(index: int, fragment: str) -> str:
        x = sheet.left + (index % size) * sheet.unit + sheet.unit // 2
        y = sheet.top + (size - 1 - index // size) * sheet.unit + sheet.unit // 2
        return f'<g transform="translate({x} {y})">{fragment}</g>'

    own = parts.plies[ply]
    drawn = [sheet.open, own.title, sheet.board, own.tint]
    owners = control_string(frame) if control else None
    if owners:
        drawn += [place(i, sheet.control[int(o)]) for i, o in enumerate(owners) if o != "-"]
    cells = [cell for row in frame.position.grid for cell in row]
    drawn += [place(i, sheet.pieces[cell]) for i, cell in enumerate(cells) if cell]
    return "".join([*drawn, own.marks, sheet.close])


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_parts_make_the_pictures_of_every_ply(sample: str) -> None:
    found = arbiter.diagram.frames(record(sample))
    parts = arbiter.diagram.viewer_parts(found)
    assert len(parts.plies) == len(found)
    for frame in found:
        for control in (False, True):
            options = Options(caption=False, control=control)
            assert compose(parts, frame.ply, frame, control) == render(frame, options)


def test_the_sheet_draws_each_kind_of_square_once_and_cannot_be_changed() -> None:
    found = arbiter.diagram.frames(record("pilo/invalid/01-unequal-heights-8x8.grn"))
    sheet = arbiter.diagram.viewer_parts(found).sheet
    shown = {cell for frame in found for row in frame.position.grid for cell in row if cell}
    assert set(sheet.pieces) == shown
    assert list(sheet.to_dict()) == [
        "open",
        "board",
        "close",
        "unit",
        "left",
        "top",
        "pieces",
        "control",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.unit = 20  # type: ignore[misc]
    with pytest.raises(TypeError):
        sheet.pieces["b"] = ""  # type: ignore[index]
    assert isinstance(sheet, Sheet)


def test_the_package_names_its_public_surface() -> None:
    for name in arbiter.diagram.__all__:
        assert getattr(arbiter.diagram, name) is not None, name
    assert {"viewer_parts", "control_string", "render", "render_text"} <= set(
        arbiter.diagram.__all__
    )
