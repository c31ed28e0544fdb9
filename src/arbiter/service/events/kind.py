"""An event's kind (``spec/events.md`` §2): the value its stored ``pairing`` names, found
once from the event (:func:`arbiter.service.events.kinds.kind_of`) and then asked what the
code would otherwise ask of the string: whether the event has players and rounds, what its
creation and its changes must give, how many rounds it has played, its standings and TRF,
what a director is told of its records, and where an upload's records stand.

:class:`EventKind` is the kind every other builds on, and is itself the event whose records
are uploaded (``none``): it has no players of its own, counts what its records say, and
places them nowhere. A paired event (``arbiter.service.events.paired``) overrides what
pairing changes. A new kind is one folder beside ``paired/`` with its subclass, and one
line in :data:`arbiter.service.events.kinds.KINDS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from arbiter.adjudicator.standings import EventStandings
from arbiter.service.core.standings_formats import render, trf_text
from arbiter.service.events import storage
from arbiter.service.events.actions import Placement
from arbiter.service.events.common import UNPAIRED, EventError
from arbiter.service.events.counted import (
    record_tables,
    rounds_played,
    tables_after,
    total_rounds,
)
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.rules import NewEvent
from arbiter.service.events.storage import Tx
from arbiter.service.events.views import BoardSuggestion, RecordWarning

__all__ = ["OPEN", "EventKind", "RecordGuide", "Seating", "Told"]

Told = tuple[tuple[RecordWarning, ...], tuple[BoardSuggestion, ...]]
"""What a director is told of a record: its warnings, and the boards it may belong on."""


class RecordGuide(Protocol):
    """What an event tells a director of each of its records (:meth:`EventKind.guide`)."""

    def told(self, row: RecordRow, header: Mapping[str, Any] | None) -> Told:
        """The warnings and suggestions of the record of ``row`` (read: ``header``)."""
        ...


class Seating(Protocol):
    """Where the records of one upload stand, each taking its place in turn, so that a
    second record of the same place finds it taken (:meth:`EventKind.seating`)."""

    def place(
        self,
        header: Mapping[str, Any] | None,
        round_number: int | None,
        report: Mapping[str, Any] | None,
        *,
        counts: bool,
        player: int | None,
    ) -> Placement:
        """Where a record with ``header`` stands; ``counts``: whether it takes its place
        (one that waits for confirmation does not); ``player``: the token's player."""
        ...

    def guide(self) -> RecordGuide:
        """What a director is told of each record, as this upload leaves the event."""
        ...


class EventKind:
    """An event whose records are uploaded: no players of its own, no pairing, standings
    made of the records that count (the kind named ``none``)."""

    stored: str = UNPAIRED
    """The kind's name, as the event's ``pairing`` keeps it and the API gives it."""
    words: str = "records are uploaded"
    """The kind in words, for a form's choice."""
    paired: bool = False
    """Whether the event has players, rounds paired and boards."""

    def created(self, made: NewEvent) -> NewEvent:
        """A new event's fields as this kind keeps them, or ``bad-field`` for what it
        cannot have."""
        if made.check_in:
            raise EventError(
                "bad-field", "only a paired event checks its players in", field="check_in"
            )
        return made

    def planned(self, planned: int | None) -> None:
        """The rounds an event plans, checked for this kind (any, here)."""

    def tiebreaks(
        self, order: str | None, played: int, before: str | None, reason: str | None
    ) -> str | None:
        """The tie-break order the event keeps when ``order`` is asked after ``played``
        rounds (it had ``before``; ``reason``: why it changes)."""
        return order

    def played(self, tx: Tx, event: EventRow) -> int:
        """The rounds the event has played: the highest round of a counted game."""
        return rounds_played(storage.counted_records(tx, event.id), event)

    def tables(self, tx: Tx, event: EventRow, *, upto: int | None = None) -> list[EventStandings]:
        """The event's standings; with ``upto``, after that round (the later left out)."""
        return record_tables(tx, event) if upto is None else tables_after(tx, event, upto)

    def trf(
        self, tx: Tx, event: EventRow, tables: Sequence[EventStandings], comments: Sequence[str]
    ) -> str:
        """The event as one TRF file (``comments``: its ``###`` lines)."""
        total = total_rounds(event, tables)
        if len(tables) == 1:
            return trf_text(tables[0], total_rounds=total, comments=comments)
        return render(list(tables), "trf", total_rounds=total, comments=comments)

    def guide(self, tx: Tx, event: EventRow) -> RecordGuide | None:
        """What a director is told of the event's records (None: nothing)."""
        return None

    def seating(self, tx: Tx, event: EventRow) -> Seating | None:
        """Where an upload's records stand (None: nowhere but in the event)."""
        return None

    def board_free(self, tx: Tx, event: EventRow, row: RecordRow) -> None:
        """Whether the record of ``row`` may count again where it stands (anywhere, here)."""


OPEN = EventKind()
"""The event whose records are uploaded."""
