"""What the command line and the HTTP API share to show records as diagrams.

``arbiter show`` and ``arbiter diagram`` (``spec/cli.md``), ``POST /api/v1/diagram`` and
``POST /api/v1/positions`` (``spec/api.md``, section 3.6) pick a record among those sent,
replay it into its frames (:func:`arbiter.diagram.frames`, one per ply) and draw a ply, or
describe every ply for the page's viewer. The choice of record and ply, and the errors for a
record or ply that does not exist, are made here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from arbiter.adjudicator.replay import Report, adjudicate, error_report
from arbiter.diagram.frames import Frame, Frames, frames
from arbiter.diagram.svg import (
    CLOSE,
    PAD,
    UNIT,
    Layout,
    board,
    control_fragments,
    control_string,
    fragment,
    layout,
    marks,
    open_tag,
    tint,
    title,
)
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError

T = TypeVar("T")


class NoSuchRecord(ValueError):
    """The record asked for is past the last one sent."""


class NoSuchPly(ValueError):
    """The ply asked for is not one the record reaches (the message says which are)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A record picked to be shown: its report, and its frames (None when it cannot be
    replayed: it could not be read, or its Setup is not a position of its game)."""

    report: Report
    frames: Frames | None
    error: RecordError | None = None


def show(item: Record | RecordError, *, file: str | None = None) -> Shown:
    """The report and the frames of one record as read (or of the error that stopped it)."""
    if isinstance(item, RecordError):
        return Shown(error_report(item, file=file), None, item)
    report = adjudicate(item, file=file)
    try:
        return Shown(report, frames(item))
    except RecordError as err:  # a bad Setup: the report already says so
        return Shown(report, None, err)


def pick(items: Iterable[T], index: int) -> T:
    """The record numbered ``index`` (from 0) among ``items``.

    Raises ``NoSuchRecord`` saying how many there are when there are not that many."""
    count = 0
    for count, item in enumerate(items, 1):
        if count - 1 == index:
            return item
    raise NoSuchRecord(
        f"no record {index}: {count} record{'s' if count != 1 else ''} "
        f"{'were' if count != 1 else 'was'} read (numbered from 0)"
    )


def frame_at(shown: Shown, ply: int | None) -> Frame:
    """The frame of ``ply`` in a record picked (its last one when None).

    Raises the ``RecordError`` that keeps the record from being replayed, or ``NoSuchPly``."""
    if shown.frames is None:
        assert shown.error is not None
        raise shown.error
    try:
        return shown.frames.at(ply)
    except ValueError as err:
        raise NoSuchPly(str(err)) from None


def positions_entry(shown: Shown, *, svg: bool = False, control: bool = False) -> dict[str, Any]:
    """One record as ``POST /api/v1/positions`` gives it: its report, every turn of the
    record, and one entry per frame; with ``svg``, the parts its pictures are put together
    from (:func:`sheet`), and with ``control`` who controls each point."""
    report = shown.report
    found = shown.frames
    entry: dict[str, Any] = {
        "file": report.file,
        "index": report.index,
        "game": report.game,
        "size": report.size,
        "report": report.to_dict(),
        "moves": list(_moves(found.record)) if found is not None else [],
        "refused_ply": found.refused.ply if found is not None and found.refused else None,
        "frames": [],
    }
    if found is None:
        return entry
    where = layout(found.game, found.record.size) if svg else None
    entry["frames"] = [_frame(frame, where, control) for frame in found]
    if where is not None:
        entry["svg"] = sheet(found, where)
    return entry


def sheet(found: Frames, where: Layout) -> dict[str, Any]:
    """The parts every picture of a record shares, for the viewer to put each ply's picture
    together as :func:`arbiter.diagram.svg.render` does (without a caption): the opening tag,
    the board, the closing tag, the geometry, each kind of square's fragment and each
    colour's control mark (``spec/api.md`` section 3.6)."""
    cells = sorted({cell for frame in found for row in frame.position.grid for cell in row})
    return {
        "open": open_tag(where.width, where.bottom + PAD - 4),
        "board": board(where),
        "close": CLOSE,
        "unit": UNIT,
        "left": where.left,
        "top": where.top,
        "pieces": {cell: fragment(where.look, cell) for cell in cells if cell},
        "control": list(control_fragments(where.look)),
    }


def _moves(record: Record) -> Iterator[dict[str, Any]]:
    """Every turn as written, with where it stands (also those after a refused move)."""
    for ply, turn in enumerate(record.turns, 1):
        entry: dict[str, Any] = {"ply": ply, "number": (ply + 1) // 2, "move": str(turn.move)}
        line, column, pointer = turn.where
        if line is not None:
            entry.update(line=line, column=column)
        if pointer is not None:
            entry["pointer"] = pointer
        yield entry


def _frame(frame: Frame, where: Layout | None, control: bool) -> dict[str, Any]:
    move = frame.move
    entry: dict[str, Any] = {
        "ply": frame.ply,
        "position": frame.position.text,
        "move": str(move) if move is not None else None,
        "mover": frame.mover,
        "to_move": frame.to_move,
        "result": frame.result,
        "refused": frame.refused is not None,
        "caption": list(frame.caption()),
    }
    if control:
        entry["control"] = control_string(frame)
    if where is not None:
        entry["svg"] = {
            "title": title(frame),
            "tint": tint(where, frame.last),
            "marks": marks(where, frame),
        }
    return entry
