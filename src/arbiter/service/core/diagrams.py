"""What the command line and the HTTP API share to show records as diagrams.

``arbiter show`` and ``arbiter diagram`` (``spec/cli.md``), ``POST /api/v1/diagram`` and
``POST /api/v1/positions`` (``spec/api.md``, section 3.6) pick a record among those sent,
replay it into its frames (:func:`arbiter.diagram.frames`, one per ply) and draw a ply, or
describe every ply for the page's viewer. The choice of record and ply, and the errors for a
record or ply that does not exist, are made here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from arbiter.adjudicator.replay import Report, adjudicate, error_report
from arbiter.diagram import (
    Frame,
    Frames,
    PlyParts,
    control_string,
    frame_at,
    iter_frames,
    viewer_parts,
)
from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError

T = TypeVar("T")


class NoSuchRecord(ValueError):
    """The record asked for is past the last one sent."""


class NoSuchPly(ValueError):
    """The ply asked for is not one the record reaches (the message says which are)."""


class TooManyPlies(ValueError):
    """An answer would hold more plies than :data:`MAX_PLIES`."""


MAX_PLIES = 20_000
"""The most plies one answer of ``/api/v1/positions`` holds (about 25 MB with the parts of
the pictures): fifty long games, or one record of a length no game reaches. It keeps a
request's answer, and the memory it takes, bounded whatever records are sent."""


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


def frame_of(item: Record | RecordError, ply: int | None) -> Frame:
    """The frame of ``ply`` in a record as read (its last one when None), replayed no
    further than needed.

    Raises the ``RecordError`` that keeps the record from being replayed (it could not be
    read, or its Setup is not a position of its game), or ``NoSuchPly``."""
    if isinstance(item, RecordError):
        raise item
    try:
        return frame_at(item, ply)
    except RecordError:
        raise
    except ValueError as err:
        raise NoSuchPly(str(err)) from None


def report_of(item: Record | RecordError, *, file: str | None = None) -> Report:
    """The report of a record as read, or of the error that kept it from being read."""
    if isinstance(item, RecordError):
        return error_report(item, file=file)
    return adjudicate(item, file=file)


class Budget:
    """The plies an answer may still hold (by default :data:`MAX_PLIES`); :meth:`spend`
    raises ``TooManyPlies`` past them."""

    def __init__(self, plies: int | None = None) -> None:
        self.limit = MAX_PLIES if plies is None else plies
        self.left = self.limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise TooManyPlies(
                f"the records asked for have more than {self.limit} plies in all, more than "
                "one answer holds: ask for one record at a time with record=K"
            )


def positions_entry(
    item: Record | RecordError,
    *,
    file: str | None = None,
    svg: bool = False,
    control: bool = False,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """One record as ``POST /api/v1/positions`` gives it: its report, every turn of the
    record, and one entry per frame; with ``svg``, the parts its pictures are put together
    from (:func:`arbiter.diagram.viewer_parts`), and with ``control`` who controls each point.

    Raises ``TooManyPlies`` when the ``budget`` runs out."""
    report = report_of(item, file=file)
    found = _frames(item, budget or Budget())
    entry: dict[str, Any] = {
        "file": report.file,
        "index": report.index,
        "game": report.game,
        "size": report.size,
        "report": report.to_dict(),
        "moves": list(_moves(item)) if isinstance(item, Record) else [],
        "refused_ply": found.refused.ply if found is not None and found.refused else None,
        "frames": [],
    }
    if found is None:
        return entry
    parts = viewer_parts(found) if svg else None
    plies = parts.plies if parts is not None else (None,) * len(found)
    entry["frames"] = [_frame(frame, own, control) for frame, own in zip(found, plies, strict=True)]
    if parts is not None:
        entry["svg"] = parts.sheet.to_dict()
    return entry


def _frames(item: Record | RecordError, budget: Budget) -> Frames | None:
    """Every frame of a record, each paid for from ``budget``; None when the record cannot
    be replayed (its report says why)."""
    if isinstance(item, RecordError):
        return None
    items = []
    try:
        for frame in iter_frames(item):
            budget.spend()
            items.append(frame)
    except RecordError:  # a bad Setup
        return None
    return Frames(item, items[0].game, tuple(items), items[-1].error)


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


def _frame(frame: Frame, parts: PlyParts | None, control: bool) -> dict[str, Any]:
    """One ply as the answer gives it; ``parts`` are its picture's own, when asked for."""
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
    if parts is not None:
        entry["svg"] = parts.to_dict()
    return entry
