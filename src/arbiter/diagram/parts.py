"""The parts of a record's pictures, for a viewer that puts each ply's picture together
itself (``spec/diagrams.md`` section 5, ``spec/api.md`` section 3.6).

A viewer that steps through a record should not fetch a whole picture per ply: the board,
the opening and closing tags and the drawing of each kind of square are the same at every
ply. :func:`viewer_parts` draws those once (a :class:`Sheet`) and gives each ply only what
is its own (a :class:`PlyParts`). A ply's picture is then the parts joined in the order
:func:`arbiter.diagram.svg.render` draws them, without a caption, so the viewer shows what
``arbiter.svg(frame, caption=False)`` draws. This module is the one place that knows how
the SVG document is cut into parts; everything outside the diagram layer uses its values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from arbiter.diagram.frames import Frame, Frames
from arbiter.diagram.svg import (
    CLOSE,
    PAD,
    UNIT,
    Layout,
    board,
    control_fragments,
    fragment,
    layout,
    marks,
    open_tag,
    tint,
    title,
)


@dataclass(frozen=True, slots=True)
class Sheet:
    """What every picture of one record shares: the ``open`` tag (with the white
    background), the ``board`` with its coordinates, the ``close`` tag; the geometry that
    places a fragment on a square (``unit``, and the board's ``left`` and ``top``); the
    fragment of each kind of square that occurs in the record (``pieces``, by its letters
    bottom to top) and of each colour's control mark (``control``, first colour first).

    A fragment is drawn around (0, 0): it goes on the square of file *f* and rank *r* inside
    ``<g transform="translate(x y)">`` with x = ``left`` + *f* × ``unit`` + ``unit`` / 2 and
    y = ``top`` + (size − 1 − *r*) × ``unit`` + ``unit`` / 2."""

    open: str
    board: str
    close: str
    unit: int
    left: int
    top: int
    pieces: Mapping[str, str]
    control: tuple[str, str]

    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON values, in the order the API has always given them."""
        return {
            "open": self.open,
            "board": self.board,
            "close": self.close,
            "unit": self.unit,
            "left": self.left,
            "top": self.top,
            "pieces": dict(self.pieces),
            "control": list(self.control),
        }


@dataclass(frozen=True, slots=True)
class PlyParts:
    """What is a ply's own in its picture: its ``title`` (the caption on one line), the
    ``tint`` of the last move's squares and the ``marks`` of its last and refused moves."""

    title: str
    tint: str
    marks: str

    def to_dict(self) -> dict[str, str]:
        """The parts as JSON values."""
        return {"title": self.title, "tint": self.tint, "marks": self.marks}


@dataclass(frozen=True, slots=True)
class ViewerParts:
    """A record's pictures in parts: the :class:`Sheet` they share and one
    :class:`PlyParts` per frame, ply 0 first."""

    sheet: Sheet
    plies: tuple[PlyParts, ...]


def viewer_parts(found: Frames) -> ViewerParts:
    """The parts of every picture of ``found`` (a record's frames), for a viewer to put
    each ply's picture together: ``open`` + the ply's ``title`` + ``board`` + its ``tint``
    + (to show control) a ``control`` mark on each point that
    :func:`~arbiter.diagram.svg.control_string` gives a colour + the fragment from
    ``pieces`` of each occupied square + the ply's ``marks`` + ``close``."""
    where = layout(found.game, found.record.size)
    return ViewerParts(_sheet(found, where), tuple(_ply(where, frame) for frame in found))


def _sheet(found: Frames, where: Layout) -> Sheet:
    """The parts shared by every ply; a kind of square gets its fragment only when some ply
    shows it, so that the sheet stays as small as the record."""
    cells = sorted({cell for frame in found for row in frame.position.grid for cell in row})
    return Sheet(
        open=open_tag(where.width, where.bottom + PAD - 4),
        board=board(where),
        close=CLOSE,
        unit=UNIT,
        left=where.left,
        top=where.top,
        pieces=MappingProxyType({cell: fragment(where.look, cell) for cell in cells if cell}),
        control=control_fragments(where.look),
    )


def _ply(where: Layout, frame: Frame) -> PlyParts:
    return PlyParts(title(frame), tint(where, frame.last), marks(where, frame))
