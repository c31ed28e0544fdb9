"""Board diagrams of every game: SVG pictures and text for terminals (``spec/diagrams.md``).

- :func:`frames` replays a record into its positions, one :class:`Frame` per ply, with the
  refused move of an invalid record at its ply.
- :func:`svg` draws a frame, a record at a ply, a :class:`~arbiter.Game` or a bare
  :class:`~arbiter.Position` as a self-contained SVG document.
- :func:`text` draws the same as text (Unicode, or ASCII).
- :func:`viewer_parts` cuts every picture of a record into the parts a viewer puts each
  ply's picture together from (the board drawn once, each ply's own marks), and
  :func:`control_string` says who controls each point of a frame, for a viewer to mark.
- :func:`render` and :func:`render_text` draw a frame with :class:`Options` (or as text),
  and :func:`iter_frames` and :func:`frame_at` replay a record one frame at a time, for
  callers that pick their own frames (the command line, the HTTP API).

Everything a drawing knows of a game comes from its description (board of squares or
points, colours, pieces and stacks), so a game registered later is drawn too.
"""

from __future__ import annotations

from dataclasses import replace

from arbiter.adjudicator.game import Game, Position
from arbiter.diagram.frames import (
    Frame,
    Frames,
    frame_at,
    frames,
    game_frame,
    iter_frames,
    position_frame,
)
from arbiter.diagram.parts import PlyParts, Sheet, ViewerParts, viewer_parts
from arbiter.diagram.svg import Options, control_string, render
from arbiter.diagram.text import render_text
from arbiter.notation.ast import Move, Record

Drawable = Frame | Game | Position | Record
"""What :func:`svg` and :func:`text` draw."""

__all__ = [
    "Drawable",
    "Frame",
    "Frames",
    "Options",
    "PlyParts",
    "Sheet",
    "ViewerParts",
    "control_string",
    "frame",
    "frame_at",
    "frames",
    "iter_frames",
    "render",
    "render_text",
    "svg",
    "text",
    "viewer_parts",
]


def frame(
    item: Drawable,
    *,
    ply: int | None = None,
    last: Move | None = None,
    refused: Move | None = None,
) -> Frame:
    """The frame ``item`` stands for: a record's or a game's frame at ``ply`` (the last one
    when None: the end, or the refused move of an invalid record), a game's position now, or
    a bare position. ``last`` and ``refused`` replace the moves to mark.

    Raises ``ValueError`` for a ply the record does not reach (the message says which plies
    there are) or a ply given with a bare position or frame, ``RecordError`` for a record
    whose Setup is not a position of its game, ``TypeError`` for anything else."""
    if isinstance(item, Game) and ply is not None:
        item = item.record()
    if isinstance(item, Record):
        found = frames(item).at(ply)
    elif ply is not None:
        raise ValueError("a ply can only be chosen in a record or a game")
    elif isinstance(item, Frame):
        found = item
    elif isinstance(item, Game):
        found = game_frame(item)
    elif isinstance(item, Position):
        found = position_frame(item)
    else:
        raise TypeError(f"cannot draw a {type(item).__name__}")
    if last is not None or refused is not None:
        found = replace(
            found,
            last=last if last is not None else found.last,
            refused=refused if refused is not None else found.refused,
        )
    return found


def svg(
    item: Drawable,
    *,
    ply: int | None = None,
    last: Move | None = None,
    refused: Move | None = None,
    coordinates: bool = True,
    caption: bool = True,
    control: bool = False,
    width: int | None = None,
) -> str:
    """A self-contained SVG document of ``item`` (see :func:`frame` for ``ply``, ``last``
    and ``refused``): the board with file letters and rank numbers (``coordinates``), the
    pieces, the last move, a refused move, a caption saying what is shown (``caption``),
    and with ``control`` the empty points each colour controls (Pletore). ``width`` sets the
    picture's width in pixels (by default 40 a square, and the height follows).

    Raises what :func:`frame` raises, and ``ValueError`` for a width that is not positive."""
    if width is not None and width <= 0:
        raise ValueError(f"the width must be a positive number of pixels, not {width}")
    drawn = frame(item, ply=ply, last=last, refused=refused)
    return render(drawn, Options(coordinates, caption, control, width))


def text(
    item: Drawable,
    *,
    ply: int | None = None,
    last: Move | None = None,
    refused: Move | None = None,
    ascii: bool = False,
) -> str:
    """``item`` as a text diagram with its caption (Unicode, or ``ascii``); see
    :func:`frame` for the other arguments and what it raises."""
    return render_text(frame(item, ply=ply, last=last, refused=refused), ascii=ascii)
