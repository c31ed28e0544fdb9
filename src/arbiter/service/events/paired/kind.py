"""The paired event as a kind (:class:`~arbiter.service.events.kind.EventKind`): an event
with players, whose rounds its system pairs (``spec/pairings.md``), one kind per system of
:mod:`arbiter.pairing` (Swiss by FIDE's Dutch rules, round robin, double round robin)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from arbiter.adjudicator.standings import EventStandings
from arbiter.pairing import SWISS_SYSTEMS, SYSTEMS, System
from arbiter.service.events import storage
from arbiter.service.events.kind import EventKind, RecordGuide, Seating
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.paired.seats import UploadSeating, board_still_free
from arbiter.service.events.paired.standings import paired_table, tournament_trf
from arbiter.service.events.paired.state import accelerations, read_paired
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.rules import NewEvent
from arbiter.service.events.storage import Tx

__all__ = ["PAIRED", "PairedKind"]

SYSTEM_WORDS: dict[System, str] = {
    "dutch": "Swiss (FIDE Dutch)",
    "round-robin": "round robin",
    "double-round-robin": "double round robin",
    "double-round-robin-plain": "double round robin, the table's order",
}
"""Each system in words, for a form's choice."""


class PairedKind(EventKind):
    """An event whose players are paired round by round by ``system``."""

    paired = True

    def __init__(self, system: System) -> None:
        self.system: System = system
        self.stored = system
        self.words = SYSTEM_WORDS[system]

    @property
    def swiss(self) -> bool:
        """Whether each round is paired by the scores so far (players may join late, and
        the last round must be known)."""
        return self.system in SWISS_SYSTEMS

    def created(self, made: NewEvent) -> NewEvent:
        paired_rules.dutch_rounds(self.system, made.rounds)
        paired_rules.accelerated(self.system, made.acceleration)
        return replace(
            made, tiebreaks=paired_rules.round_robin_tiebreaks(self.system, made.tiebreaks)
        )

    def planned(self, planned: int | None) -> None:
        paired_rules.dutch_rounds(self.system, planned)

    def tiebreaks(
        self, order: str | None, played: int, before: str | None, reason: str | None
    ) -> str | None:
        """A round robin's order has no Buchholz (and has one by default); once a round is
        paired, a change needs a reason (FIDE's checklist)."""
        order = paired_rules.round_robin_tiebreaks(self.system, order)
        paired_rules.tiebreaks_after_start(played, before, order, reason)
        return order

    def accelerated(
        self, tx: Tx, event: EventRow, values: Mapping[str, object], played: int
    ) -> None:
        """A round robin is not accelerated; a Dutch event's acceleration, and the planned
        rounds its Baku acceleration's rounds follow from, are fixed once round 1 is paired."""
        asked = values.get("acceleration", event.acceleration)
        after = asked if isinstance(asked, str) else event.acceleration
        paired_rules.accelerated(self.system, after)
        paired_rules.acceleration_fixed(played, event.acceleration, after)
        planned = values.get("rounds", event.rounds)
        if played and "rounds" in values and isinstance(planned, int):
            paired = read_paired(tx, event)
            later = replace(paired, event=replace(event, rounds=planned))
            paired_rules.accelerated_rounds_fixed(
                played, accelerations(paired), accelerations(later), planned
            )

    def played(self, tx: Tx, event: EventRow) -> int:
        """The rounds paired (a paired event has played the rounds it paired)."""
        return max((row.round for row in storage.pairing_rows(tx, event.id)), default=0)

    def tables(self, tx: Tx, event: EventRow, *, upto: int | None = None) -> list[EventStandings]:
        return [paired_table(tx, event, upto=upto)]

    def trf(
        self, tx: Tx, event: EventRow, tables: Sequence[EventStandings], comments: Sequence[str]
    ) -> str:
        return tournament_trf(tx, event, comments)

    def guide(self, tx: Tx, event: EventRow) -> RecordGuide | None:
        return UploadSeating(tx, event).guide()

    def seating(self, tx: Tx, event: EventRow) -> Seating | None:
        return UploadSeating(tx, event)

    def board_free(self, tx: Tx, event: EventRow, row: RecordRow) -> None:
        board_still_free(tx, event, row)


PAIRED: tuple[PairedKind, ...] = tuple(PairedKind(system) for system in SYSTEMS)
"""The paired kinds, one per system."""
