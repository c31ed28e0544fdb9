"""Each action of the audit trail, described once (``spec/events.md`` §6): its name, its
details (the JSON object its entry holds and its hash covers, as it has always been written),
how it changes what the event holds, and its words for the TRF's comments and the pages.

What an event holds, as far as its trail says, is a :class:`State`; an action's
:meth:`~Action.effect` is a pure function from the state before to the new facts of what it
touches (an :class:`Effect`). The operations make each entry from an action and keep what its
effect says (:mod:`.operations`); verification replays the entries through the same effects
(:func:`replay`) and compares the tables with the state they give (:mod:`.verify`): one state
machine, run forward and replayed.

To add an action: a frozen dataclass here, subclass of :class:`Action` (or of
:class:`Correction` when it changes whether a record counts or its result), with its
``NAME``, :meth:`~Action.details`, :meth:`~Action.from_details` and
:meth:`~Action.effect`; list it in :data:`ACTIONS`. Its details are hashed into the chain:
once entries of it exist, they can never change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from arbiter.notation.sources import Notation
from arbiter.service.events.chain import Entry
from arbiter.service.events.common import ACCEPTED, EXCLUDED
from arbiter.service.events.rows import EventRow, RecordRow, TokenRow

__all__ = [
    "ACTIONS",
    "CORRECTIONS",
    "EVENT_FACTS",
    "EVENT_FIELDS",
    "REASONS_SHOWN",
    "Action",
    "Confirmed",
    "Correction",
    "Effect",
    "EventChanged",
    "EventCreated",
    "EventFacts",
    "Excluded",
    "Finalised",
    "KeptRecord",
    "RecordFacts",
    "Reinstated",
    "ResultCleared",
    "ResultSet",
    "State",
    "TokenDetails",
    "TokenFacts",
    "TokenIssued",
    "TokenRevoked",
    "UploadFacts",
    "Uploaded",
    "correction",
    "parse",
    "replay",
]

EVENT_FIELDS = ("name", "game", "rounds", "tiebreaks", "confirm_uploads")
"""The event's fields its creation says, and a change may say again."""
EVENT_FACTS = (*EVENT_FIELDS, "created_at", "finalised_at")
"""Every fact of the event the trail says, in the order its creation says them."""


# --- what the trail says an event holds --------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What the trail says of the event itself. ``said`` names the fields the trail has set,
    in the order it set them: all of them once the event's creation is replayed; for a
    trail whose creation is missing, only those its later entries set (verification checks
    those, and says the creation is missing)."""

    name: str = ""
    game: str = ""
    rounds: int | None = None
    tiebreaks: str | None = None
    confirm_uploads: bool = True
    created_at: str = ""
    finalised_at: str | None = None
    said: tuple[str, ...] = ()

    @classmethod
    def of(cls, row: EventRow) -> EventFacts:
        """The facts an event's row holds (all of them said)."""
        return cls(
            row.name,
            row.game,
            row.rounds,
            row.tiebreaks,
            row.confirm_uploads,
            row.created_at,
            row.finalised_at,
            EVENT_FACTS,
        )

    def saying(self, **values: Any) -> EventFacts:
        """These facts with ``values`` set, and said after those said before."""
        said = self.said + tuple(name for name in values if name not in self.said)
        return replace(self, said=said, **values)


@dataclass(frozen=True, slots=True)
class TokenFacts:
    """What the trail says of a token."""

    hash: str
    role: str
    label: str
    created_at: str
    revoked_at: str | None

    @classmethod
    def of(cls, row: TokenRow) -> TokenFacts:
        return cls(row.hash, row.role, row.label, row.created_at, row.revoked_at)


@dataclass(frozen=True, slots=True)
class UploadFacts:
    """What the trail says of an upload (its bytes are checked against ``sha256``)."""

    sha256: str
    file_name: str | None
    format: Notation | None
    size: int
    created_at: str


@dataclass(frozen=True, slots=True)
class RecordFacts:
    """What the trail says of a record: where it comes from, the digest of its header and
    report, whether it counts and its official result."""

    upload: int
    position: int
    status: str
    digest: str
    official_result: str | None

    @classmethod
    def of(cls, row: RecordRow) -> RecordFacts:
        return cls(row.upload, row.position, row.status, row.digest, row.official_result)


@dataclass(frozen=True, slots=True)
class Effect:
    """What one action changes: the new facts of the event, tokens, uploads and records it
    touches (by number); what it does not touch stays as it was."""

    event: EventFacts | None = None
    tokens: Mapping[int, TokenFacts] = field(default_factory=dict)
    uploads: Mapping[int, UploadFacts] = field(default_factory=dict)
    records: Mapping[int, RecordFacts] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class State:
    """What an event holds, as the entries replayed so far say (or, for a change being made,
    what it touches as the tables hold it)."""

    event: EventFacts = EventFacts()
    tokens: Mapping[int, TokenFacts] = field(default_factory=dict)
    uploads: Mapping[int, UploadFacts] = field(default_factory=dict)
    records: Mapping[int, RecordFacts] = field(default_factory=dict)

    def after(self, effect: Effect) -> State:
        """The state once ``effect`` is made (a new state; this one is left as it is)."""
        return State(
            self.event if effect.event is None else effect.event,
            {**self.tokens, **effect.tokens},
            {**self.uploads, **effect.uploads},
            {**self.records, **effect.records},
        )


# --- the actions ---------------------------------------------------------------------------


class Action(ABC):
    """One kind of change, as the trail records it."""

    __slots__ = ()

    NAME: ClassVar[str]
    """The entry's ``action``."""
    CORRECTION: ClassVar[bool] = False
    """Whether it changes what counts or its result: the TRF carries it as a comment line and
    the public page lists it among the corrections."""
    REASON_SHOWN: ClassVar[bool] = False
    """Whether the public page shows its reason beside the record (why it stopped counting,
    why its result is not the adjudicator's)."""

    @abstractmethod
    def details(self) -> dict[str, Any]:
        """The entry's ``details``: covered by its hash, so never to change."""

    @classmethod
    @abstractmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        """The action an entry's ``details`` describe: every key its :meth:`details` writes
        must be there (``KeyError``, ``TypeError`` or ``ValueError`` for details that do
        not describe one)."""

    @abstractmethod
    def effect(self, state: State, at: str) -> Effect:
        """What the action, made at ``at``, changes of ``state`` (``KeyError`` when it
        touches something the state does not hold)."""


class Correction(Action):
    """An action on a record that changes whether it counts or with which result."""

    __slots__ = ()

    CORRECTION: ClassVar[bool] = True
    record: int

    @abstractmethod
    def words(self) -> str:
        """What was done to the record, for the TRF's comment line."""


@dataclass(frozen=True, slots=True)
class TokenDetails:
    """What the trail says of a token it issues: its number, role, label and the SHA-256 of
    the secret (256 random bits: the hash gives nothing away, and binds the token to the
    chain)."""

    number: int
    role: str
    label: str
    hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "role": self.role, "label": self.label, "hash": self.hash}

    @classmethod
    def from_dict(cls, details: Mapping[str, Any]) -> TokenDetails:
        return cls(details["number"], details["role"], details["label"], details["hash"])

    def facts(self, at: str) -> TokenFacts:
        return TokenFacts(self.hash, self.role, self.label, at, None)


@dataclass(frozen=True, slots=True)
class EventCreated(Action):
    """``event-created``: the event, with its first director token."""

    NAME: ClassVar[str] = "event-created"

    name: str
    game: str
    rounds: int | None
    tiebreaks: str | None
    confirm_uploads: bool
    token: TokenDetails

    def details(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "rounds": self.rounds,
            "tiebreaks": self.tiebreaks,
            "confirm_uploads": self.confirm_uploads,
            "token": self.token.to_dict(),
        }

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(
            name=details["name"],
            game=details["game"],
            rounds=details["rounds"],
            tiebreaks=details["tiebreaks"],
            confirm_uploads=details["confirm_uploads"],
            token=TokenDetails.from_dict(details["token"]),
        )

    def effect(self, state: State, at: str) -> Effect:
        event = EventFacts().saying(
            name=self.name,
            game=self.game,
            rounds=self.rounds,
            tiebreaks=self.tiebreaks,
            confirm_uploads=self.confirm_uploads,
            created_at=at,
            finalised_at=None,
        )
        return Effect(event=event, tokens={self.token.number: self.token.facts(at)})


@dataclass(frozen=True, slots=True)
class EventChanged(Action):
    """``event-changed``: the fields changed, with their new values."""

    NAME: ClassVar[str] = "event-changed"

    values: Mapping[str, Any]

    def details(self) -> dict[str, Any]:
        return dict(self.values)

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(dict(details))

    def effect(self, state: State, at: str) -> Effect:
        changed = {name: value for name, value in self.values.items() if name in EVENT_FIELDS}
        return Effect(event=state.event.saying(**changed))


@dataclass(frozen=True, slots=True)
class Finalised(Action):
    """``finalised``: the event is read-only from now on."""

    NAME: ClassVar[str] = "finalised"

    def details(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls()

    def effect(self, state: State, at: str) -> Effect:
        return Effect(event=state.event.saying(finalised_at=at))


@dataclass(frozen=True, slots=True)
class TokenIssued(Action):
    """``token-issued``: a new token."""

    NAME: ClassVar[str] = "token-issued"

    token: TokenDetails

    def details(self) -> dict[str, Any]:
        return self.token.to_dict()

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(TokenDetails.from_dict(details))

    def effect(self, state: State, at: str) -> Effect:
        return Effect(tokens={self.token.number: self.token.facts(at)})


@dataclass(frozen=True, slots=True)
class TokenRevoked(Action):
    """``token-revoked``: a token stops working."""

    NAME: ClassVar[str] = "token-revoked"

    token: int

    def details(self) -> dict[str, Any]:
        return {"token": self.token}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["token"])

    def effect(self, state: State, at: str) -> Effect:
        return Effect(tokens={self.token: replace(state.tokens[self.token], revoked_at=at)})


@dataclass(frozen=True, slots=True)
class KeptRecord:
    """One record of an upload as the trail says it: its number, status and the digest of
    its header and report."""

    record: int
    status: str
    digest: str

    def to_dict(self) -> dict[str, Any]:
        return {"record": self.record, "status": self.status, "digest": self.digest}


@dataclass(frozen=True, slots=True)
class Uploaded(Action):
    """``uploaded``: one source kept as sent, with its records."""

    NAME: ClassVar[str] = "uploaded"

    upload: int
    sha256: str
    file: str | None
    format: Notation | None
    size: int
    records: tuple[KeptRecord, ...]

    def details(self) -> dict[str, Any]:
        return {
            "upload": self.upload,
            "sha256": self.sha256,
            "file": self.file,
            "format": self.format,
            "size": self.size,
            "records": [kept.to_dict() for kept in self.records],
        }

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(
            upload=details["upload"],
            sha256=details["sha256"],
            file=details["file"],
            format=details["format"],
            size=details["size"],
            records=tuple(
                KeptRecord(kept["record"], kept["status"], kept["digest"])
                for kept in details["records"]
            ),
        )

    def effect(self, state: State, at: str) -> Effect:
        upload = UploadFacts(self.sha256, self.file, self.format, self.size, at)
        records = {
            kept.record: RecordFacts(self.upload, position, kept.status, kept.digest, None)
            for position, kept in enumerate(self.records)
        }
        return Effect(uploads={self.upload: upload}, records=records)


def _record_now(state: State, number: int, **values: Any) -> Effect:
    """The effect of setting ``values`` on record ``number`` of ``state``."""
    return Effect(records={number: replace(state.records[number], **values)})


@dataclass(frozen=True, slots=True)
class Confirmed(Action):
    """``confirmed``: a pending record counts."""

    NAME: ClassVar[str] = "confirmed"

    record: int

    def details(self) -> dict[str, Any]:
        return {"record": self.record}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["record"])

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, status=ACCEPTED)


@dataclass(frozen=True, slots=True)
class Excluded(Correction):
    """``excluded``: the record stops counting; ``was`` is its status before."""

    NAME: ClassVar[str] = "excluded"
    REASON_SHOWN: ClassVar[bool] = True

    record: int
    was: str

    def details(self) -> dict[str, Any]:
        return {"record": self.record, "was": self.was}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["record"], details["was"])

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, status=EXCLUDED)

    def words(self) -> str:
        return "excluded"


@dataclass(frozen=True, slots=True)
class Reinstated(Correction):
    """``reinstated``: an excluded record counts again."""

    NAME: ClassVar[str] = "reinstated"

    record: int

    def details(self) -> dict[str, Any]:
        return {"record": self.record}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["record"])

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, status=ACCEPTED)

    def words(self) -> str:
        return "counted again"


@dataclass(frozen=True, slots=True)
class ResultSet(Correction):
    """``result-set``: the record counts with the director's official ``result``, beside the
    adjudicator's (``adjudicated``, ``valid``); ``was`` is the official result before."""

    NAME: ClassVar[str] = "result-set"
    REASON_SHOWN: ClassVar[bool] = True

    record: int
    result: str
    adjudicated: str | None
    valid: bool
    was: str | None

    def details(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "result": self.result,
            "adjudicated": self.adjudicated,
            "valid": self.valid,
            "was": self.was,
        }

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(
            record=details["record"],
            result=details["result"],
            adjudicated=details["adjudicated"],
            valid=details["valid"],
            was=details["was"],
        )

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, official_result=self.result)

    def words(self) -> str:
        return f"official result {self.result} (adjudicated {self.adjudicated})"


@dataclass(frozen=True, slots=True)
class ResultCleared(Correction):
    """``result-cleared``: the official result taken back (``was``); the adjudicator's counts
    again."""

    NAME: ClassVar[str] = "result-cleared"

    record: int
    was: str | None

    def details(self) -> dict[str, Any]:
        return {"record": self.record, "was": self.was}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["record"], details["was"])

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, official_result=None)

    def words(self) -> str:
        return "official result taken back: the adjudicated result counts"


ACTIONS: Mapping[str, type[Action]] = {
    kind.NAME: kind
    for kind in (
        EventCreated,
        EventChanged,
        Finalised,
        TokenIssued,
        TokenRevoked,
        Uploaded,
        Confirmed,
        Excluded,
        Reinstated,
        ResultSet,
        ResultCleared,
    )
}
"""Every action, by name: the table of the trail's vocabulary."""

CORRECTIONS = frozenset(name for name, kind in ACTIONS.items() if kind.CORRECTION)
"""The actions the TRF carries as comments and the page lists as corrections."""
REASONS_SHOWN = frozenset(name for name, kind in ACTIONS.items() if kind.REASON_SHOWN)
"""The actions whose reason the page shows beside the record."""


def parse(entry: Entry) -> Action:
    """The action of an entry (``ValueError`` for an action of no known name)."""
    kind = ACTIONS.get(entry.action)
    if kind is None:
        raise ValueError(f"unknown action {entry.action!r}")
    return kind.from_details(entry.details)


def correction(entry: Entry) -> Correction | None:
    """The correction an entry records (None: it records none)."""
    if entry.action not in CORRECTIONS:
        return None
    action = parse(entry)
    return action if isinstance(action, Correction) else None


def replay(entries: Iterable[Entry]) -> tuple[State, list[tuple[int, str]]]:
    """What the event holds once every entry is applied in order, and the entries that
    could not be applied (number, why). A state is built once, whatever the entries: each
    effect updates it in place of copying it."""
    event = EventFacts()
    tokens: dict[int, TokenFacts] = {}
    uploads: dict[int, UploadFacts] = {}
    records: dict[int, RecordFacts] = {}
    problems: list[tuple[int, str]] = []
    for entry in entries:
        try:
            effect = parse(entry).effect(State(event, tokens, uploads, records), entry.at)
        except (KeyError, TypeError, ValueError) as err:
            problems.append((entry.number, f"its details cannot be applied ({err})"))
            continue
        event = event if effect.event is None else effect.event
        tokens.update(effect.tokens)
        uploads.update(effect.uploads)
        records.update(effect.records)
    return State(event, tokens, uploads, records), problems
