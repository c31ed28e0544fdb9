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
``NAME`` and :meth:`~Action.effect`; list it in :data:`ACTIONS`. Its details are its fields
by name, as they are (:meth:`Action.details`, :meth:`Action.from_details`), unless it writes
and reads its own. They are hashed into the chain: once entries of it exist, they can never
change.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, ClassVar, Self, TypeVar

from arbiter.notation.sources import Notation
from arbiter.pairing import BYE_LETTERS
from arbiter.service.events.chain import Entry
from arbiter.service.events.common import ACCEPTED, EXCLUDED, NO_ACCELERATION, UNPAIRED
from arbiter.service.events.rows import EventRow, PairingRow, PlayerRow, RecordRow, TokenRow

__all__ = [
    "ACTIONS",
    "AS_PAIRED",
    "BOARD_RESULTS",
    "REVERSED",
    "SEATS",
    "BoardResultCleared",
    "BoardResultSet",
    "ByeCancelled",
    "ByeRequested",
    "CheckInCancelled",
    "CheckedIn",
    "PairingFacts",
    "Paired",
    "Placement",
    "PlayerAdded",
    "PlayerChanged",
    "PlayerFacts",
    "PlayerRemoved",
    "PlayerWithdrawn",
    "ProhibitionAdded",
    "ProhibitionFacts",
    "ProhibitionRemoved",
    "RecordPlaced",
    "ResultReported",
    "RoundPaired",
    "RoundPublished",
    "RoundReplaced",
    "RoundUnpaired",
    "Replay",
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
    "WebhookAdded",
    "WebhookFacts",
    "WebhookRemoved",
    "WithdrawalCancelled",
    "correction",
    "parse",
    "replay",
]

K = TypeVar("K")
V = TypeVar("V")

EVENT_FIELDS = ("name", "game", "rounds", "tiebreaks", "confirm_uploads")
"""The event's fields its creation says, and a change may say again."""
PAIRING_FIELDS = ("pairing", "bye_points", "half_byes", "check_in")
"""The fields of a paired event its creation says (only when it is paired, so that the
creation of an event that is not says what it always said), fixed from then on."""
CHANGED_FIELDS = (*EVENT_FIELDS, "acceleration")
"""The event's fields a change may set: those of :data:`EVENT_FIELDS`, and the acceleration
of a Dutch event (before its round 1 is paired)."""
EVENT_FACTS = (*EVENT_FIELDS, "created_at", "finalised_at", *PAIRING_FIELDS, "acceleration")
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
    pairing: str = UNPAIRED
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False
    acceleration: str = NO_ACCELERATION
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
            row.pairing,
            row.bye_points,
            row.half_byes,
            row.check_in,
            row.acceleration,
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
    player: int | None = None

    @classmethod
    def of(cls, row: TokenRow) -> TokenFacts:
        return cls(row.hash, row.role, row.label, row.created_at, row.revoked_at, row.player)


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
    board_round: int | None = None
    board: int | None = None
    placement: str | None = None
    seats: str | None = None

    @classmethod
    def of(cls, row: RecordRow) -> RecordFacts:
        return cls(
            row.upload,
            row.position,
            row.status,
            row.digest,
            row.official_result,
            row.board_round,
            row.board,
            row.placement,
            row.seats,
        )


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What the trail says of a player of a paired event."""

    number: int
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    entered: int
    withdrawn_from: int | None
    created_at: str

    @classmethod
    def of(cls, row: PlayerRow) -> PlayerFacts:
        return cls(row.number, row.name, row.rating, row.federation, row.fide_id, row.entered,
                   row.withdrawn_from, row.created_at)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ProhibitionFacts:
    """What the trail says of a prohibition (TRF-2026 record 260): its players (by id), no
    two of whom are paired together in rounds ``first_round`` to ``last_round``, when it
    was added, and when it was taken back (its rounds then end with the last round paired:
    those rounds were paired under it, and stay so)."""

    players: tuple[int, ...]
    first_round: int
    last_round: int
    created_at: str
    removed_at: str | None = None

    def holds_in(self, round_number: int) -> bool:
        """Whether it holds in ``round_number``."""
        return self.first_round <= round_number <= self.last_round


@dataclass(frozen=True, slots=True)
class WebhookFacts:
    """What the trail says of a webhook: the URL changes are sent to, the kinds of change
    it is sent (``spec/events.md`` §12), when it was added, and when it was removed."""

    url: str
    events: tuple[str, ...]
    created_at: str
    removed_at: str | None = None


Board = tuple[int, int]
"""A board of a pairing: the pairing numbers of the first seat and the second."""
ByeGiven = tuple[int, str, float]
"""A bye of a pairing: the player's pairing number, the kind and the points."""


@dataclass(frozen=True, slots=True)
class PairingFacts:
    """What the trail says of a paired round: its boards (board 1 first), its byes, whether
    the director set it by hand, and when."""

    boards: tuple[Board, ...]
    byes: tuple[ByeGiven, ...]
    manual: bool
    paired_at: str
    draft: bool = False
    """Paired for the director only: no public read shows it until it is published."""

    def board_of(self, number: int) -> int | None:
        """The board (from 1) ``number`` plays on, or None."""
        return next((n for n, board in enumerate(self.boards, 1) if number in board), None)

    @classmethod
    def of(cls, row: PairingRow) -> PairingFacts:
        return cls(
            tuple((int(a), int(b)) for a, b in json.loads(row.boards)),
            tuple((int(n), str(k), float(p)) for n, k, p in json.loads(row.byes)),
            row.manual,
            row.paired_at,
            row.draft,
        )

    def boards_text(self) -> str:
        return json.dumps([list(board) for board in self.boards])

    def byes_text(self) -> str:
        return json.dumps([list(bye) for bye in self.byes])


@dataclass(frozen=True, slots=True)
class Effect:
    """What one action changes: the new facts of the event, tokens, uploads and records it
    touches (by number); what it does not touch stays as it was."""

    event: EventFacts | None = None
    tokens: Mapping[int, TokenFacts] = field(default_factory=dict)
    uploads: Mapping[int, UploadFacts] = field(default_factory=dict)
    records: Mapping[int, RecordFacts] = field(default_factory=dict)
    players: Mapping[int, PlayerFacts | None] = field(default_factory=dict)
    pairings: Mapping[int, PairingFacts | None] = field(default_factory=dict)
    requests: Mapping[tuple[int, int], str | None] = field(default_factory=dict)
    results: Mapping[tuple[int, int], str | None] = field(default_factory=dict)
    checkins: Mapping[tuple[int, int], str | None] = field(default_factory=dict)
    reports: Mapping[tuple[int, int, int], str | None] = field(default_factory=dict)
    """Players by id, pairings by round, requested byes by (round, player id), the
    director's board results by (round, board), check-ins by (round, player id) with their
    time, players' reports by (round, board, player id); None takes one away (a player
    removed)."""
    webhooks: Mapping[int, WebhookFacts] = field(default_factory=dict)
    """Webhooks by number (a removed one keeps its facts, with the time it was removed)."""
    prohibitions: Mapping[int, ProhibitionFacts] = field(default_factory=dict)
    """Prohibitions by number (one taken back keeps its facts, with the time)."""
    renumber: bool = False
    """The players are numbered in FIDE's order again once the effect is made (a player
    entered before round 1 is paired): :meth:`State.after` does it at once; a run of such
    effects (:class:`Replay`) does it once, before anything reads a number."""


def _renumbered(players: dict[int, PlayerFacts], renumber: bool) -> dict[int, PlayerFacts]:
    """``players``, numbered in FIDE's order again when ``renumber`` says so."""
    if renumber:
        players.update(_numbered(players))
    return players


def _kept(before: Mapping[Any, Any], changed: Mapping[Any, Any]) -> dict[Any, Any]:
    """``before`` with ``changed`` made: a value of None takes its key away."""
    out = {**before, **changed}
    return {key: value for key, value in out.items() if value is not None}


@dataclass(frozen=True, slots=True)
class State:
    """What an event holds, as the entries replayed so far say (or, for a change being made,
    what it touches as the tables hold it)."""

    event: EventFacts = EventFacts()
    tokens: Mapping[int, TokenFacts] = field(default_factory=dict)
    uploads: Mapping[int, UploadFacts] = field(default_factory=dict)
    records: Mapping[int, RecordFacts] = field(default_factory=dict)
    players: Mapping[int, PlayerFacts] = field(default_factory=dict)
    pairings: Mapping[int, PairingFacts] = field(default_factory=dict)
    requests: Mapping[tuple[int, int], str] = field(default_factory=dict)
    results: Mapping[tuple[int, int], str] = field(default_factory=dict)
    checkins: Mapping[tuple[int, int], str] = field(default_factory=dict)
    reports: Mapping[tuple[int, int, int], str] = field(default_factory=dict)
    webhooks: Mapping[int, WebhookFacts] = field(default_factory=dict)
    prohibitions: Mapping[int, ProhibitionFacts] = field(default_factory=dict)

    def after(self, effect: Effect) -> State:
        """The state once ``effect`` is made (a new state; this one is left as it is)."""
        return State(
            self.event if effect.event is None else effect.event,
            {**self.tokens, **effect.tokens},
            {**self.uploads, **effect.uploads},
            {**self.records, **effect.records},
            _renumbered(_kept(self.players, effect.players), effect.renumber),
            _kept(self.pairings, effect.pairings),
            _kept(self.requests, effect.requests),
            _kept(self.results, effect.results),
            _kept(self.checkins, effect.checkins),
            _kept(self.reports, effect.reports),
            webhooks={**self.webhooks, **effect.webhooks},
            prohibitions={**self.prohibitions, **effect.prohibitions},
        )

    @property
    def rounds_paired(self) -> int:
        """The last round paired (0 before round 1)."""
        return max(self.pairings, default=0)


# --- the actions ---------------------------------------------------------------------------


class Action(ABC):
    """One kind of change, as the trail records it: a frozen dataclass, whose fields are its
    entry's details unless it writes and reads its own."""

    __slots__ = ()

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """Every action is a dataclass (:func:`dataclasses.fields` reads its fields)."""
    NAME: ClassVar[str]
    """The entry's ``action``."""
    CORRECTION: ClassVar[bool] = False
    """Whether it changes what counts or its result: the TRF carries it as a comment line and
    the public page lists it among the corrections."""
    REASON_SHOWN: ClassVar[bool] = False
    """Whether the public page shows its reason beside the record (why it stopped counting,
    why its result is not the adjudicator's)."""

    def details(self) -> dict[str, Any]:
        """The entry's ``details``: covered by its hash, so never to change. Here each field
        under its name, in their order, as it is; an action whose details say anything
        else (a value converted, a key renamed, one said only when set) writes its own."""
        return {one.name: getattr(self, one.name) for one in fields(self)}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        """The action an entry's ``details`` describe: every key its :meth:`details` writes
        must be there (``KeyError``, ``TypeError`` or ``ValueError`` for details that do
        not describe one). Here each field from the key of its name, as it is, with no
        default for a key missing: an action whose entries may lack a key (one added
        since, said only when set) reads its own, as it writes its own."""
        return cls(*(details[one.name] for one in fields(cls)))

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
    player: int | None = None
    """The player (by id) an upload token was made for: its records claim that player's
    boards only. Said only when set, so that the details of every other token stay what
    they always were."""

    def to_dict(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "number": self.number, "role": self.role, "label": self.label, "hash": self.hash,
        }  # fmt: skip
        return said if self.player is None else {**said, "player": self.player}

    @classmethod
    def from_dict(cls, details: Mapping[str, Any]) -> TokenDetails:
        return cls(details["number"], details["role"], details["label"], details["hash"],
                   details.get("player"))  # fmt: skip

    def facts(self, at: str) -> TokenFacts:
        return TokenFacts(self.hash, self.role, self.label, at, None, self.player)


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
    pairing: str = UNPAIRED
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False
    acceleration: str = NO_ACCELERATION

    def details(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "name": self.name,
            "game": self.game,
            "rounds": self.rounds,
            "tiebreaks": self.tiebreaks,
            "confirm_uploads": self.confirm_uploads,
        }
        if self.pairing != UNPAIRED:  # the creation of an event not paired says what it always said
            said |= {
                "pairing": self.pairing,
                "bye_points": self.bye_points,
                "half_byes": self.half_byes,
            }
        if self.check_in:  # said only when set: the creations before it say what they said
            said["check_in"] = True
        if self.acceleration != NO_ACCELERATION:  # the same
            said["acceleration"] = self.acceleration
        return {**said, "token": self.token.to_dict()}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(
            name=details["name"],
            game=details["game"],
            rounds=details["rounds"],
            tiebreaks=details["tiebreaks"],
            confirm_uploads=details["confirm_uploads"],
            token=TokenDetails.from_dict(details["token"]),
            pairing=details.get("pairing", UNPAIRED),
            bye_points=float(details.get("bye_points", 1.0)),
            half_byes=details.get("half_byes", True),
            check_in=bool(details.get("check_in", False)),
            acceleration=str(details.get("acceleration", NO_ACCELERATION)),
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
            pairing=self.pairing,
            bye_points=self.bye_points,
            half_byes=self.half_byes,
            check_in=self.check_in,
            acceleration=self.acceleration,
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
        changed = {name: value for name, value in self.values.items() if name in CHANGED_FIELDS}
        return Effect(event=state.event.saying(**changed))


@dataclass(frozen=True, slots=True)
class Finalised(Action):
    """``finalised``: the event is read-only from now on."""

    NAME: ClassVar[str] = "finalised"

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

    def effect(self, state: State, at: str) -> Effect:
        return Effect(tokens={self.token: replace(state.tokens[self.token], revoked_at=at)})


@dataclass(frozen=True, slots=True)
class KeptRecord:
    """One record of an upload as the trail says it: its number, status and the digest of
    its header and report."""

    record: int
    status: str
    digest: str
    place: Placement | None = None
    """Where the record stands in a paired event (None: the event is not paired)."""

    def to_dict(self) -> dict[str, Any]:
        kept: dict[str, Any] = {"record": self.record, "status": self.status, "digest": self.digest}
        if self.place is not None:
            kept |= self.place.to_dict()
        return kept

    @classmethod
    def from_dict(cls, kept: Mapping[str, Any]) -> KeptRecord:
        place = Placement.from_dict(kept) if "placement" in kept else None
        return cls(kept["record"], kept["status"], kept["digest"], place)


AS_PAIRED, REVERSED = "as-paired", "reversed"
"""How a record's players sit on the board it stands on: its first colour in the board's
first seat, or in its second."""
SEATS = (AS_PAIRED, REVERSED)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a record of a paired event stands: the board it counts on (its round and
    number) and how its players sit there (``seats``), or why it counts on none
    (``placement``: ``not-paired``, ``seats-reversed``, ``wrong-round``,
    ``board-has-a-result``), with the board it was found on, if any. An entry written before
    seats were kept says none (``seats`` None)."""

    board_round: int | None
    board: int | None
    placement: str | None
    seats: str | None = None

    def to_dict(self) -> dict[str, Any]:
        said = {"board_round": self.board_round, "board": self.board, "placement": self.placement}
        return said if self.seats is None else {**said, "seats": self.seats}

    @classmethod
    def from_dict(cls, kept: Mapping[str, Any]) -> Placement:
        return cls(kept["board_round"], kept["board"], kept["placement"], kept.get("seats"))


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
            records=tuple(KeptRecord.from_dict(kept) for kept in details["records"]),
        )

    def effect(self, state: State, at: str) -> Effect:
        upload = UploadFacts(self.sha256, self.file, self.format, self.size, at)
        records = {}
        for position, kept in enumerate(self.records):
            place = kept.place or Placement(None, None, None)
            records[kept.record] = RecordFacts(
                self.upload, position, kept.status, kept.digest, None,
                place.board_round, place.board, place.placement, place.seats,
            )  # fmt: skip
        return Effect(uploads={self.upload: upload}, records=records)


def _record_now(state: State, number: int, **values: Any) -> Effect:
    """The effect of setting ``values`` on record ``number`` of ``state``."""
    return Effect(records={number: replace(state.records[number], **values)})


@dataclass(frozen=True, slots=True)
class Confirmed(Action):
    """``confirmed``: a pending record counts."""

    NAME: ClassVar[str] = "confirmed"

    record: int

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, status=ACCEPTED)


@dataclass(frozen=True, slots=True)
class Excluded(Correction):
    """``excluded``: the record stops counting; ``was`` is its status before."""

    NAME: ClassVar[str] = "excluded"
    REASON_SHOWN: ClassVar[bool] = True

    record: int
    was: str

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, status=EXCLUDED)

    def words(self) -> str:
        return "excluded"


@dataclass(frozen=True, slots=True)
class Reinstated(Correction):
    """``reinstated``: an excluded record counts again."""

    NAME: ClassVar[str] = "reinstated"

    record: int

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

    def effect(self, state: State, at: str) -> Effect:
        return _record_now(state, self.record, official_result=None)

    def words(self) -> str:
        return "official result taken back: the adjudicated result counts"


# --- the actions of a paired event ---------------------------------------------------------


class Paired(Action):
    """An action of a paired event: the TRF carries it as a ``###`` line with its code (the
    players' entries, byes, withdrawals, manual pairings and board results a verification
    of the pairings asks for), in words of :meth:`words`."""

    __slots__ = ()

    TRF_CODE: ClassVar[str]

    @abstractmethod
    def words(self, state: State) -> str:
        """What was done, for the TRF's ``###`` line (``state``: the event before it)."""


def _numbered(players: Mapping[int, PlayerFacts]) -> dict[int, PlayerFacts]:
    """The players of ``players`` whose pairing number changes when they are numbered in
    FIDE's order (the highest rating first, players without one after those with one, then
    by name), with their new numbers: the pairing numbers before round 1 is paired."""
    order = sorted(
        players.items(),
        key=lambda item: (item[1].rating is None, -(item[1].rating or 0), item[1].name.casefold(),
                          item[1].name),
    )  # fmt: skip
    return {
        player: replace(facts, number=n)
        for n, (player, facts) in enumerate(order, 1)
        if facts.number != n
    }


@dataclass(frozen=True, slots=True)
class PlayerAdded(Paired):
    """``player-added``: a player enters (before round 1, the pairing numbers of every player
    follow FIDE's order again; later, a late entry takes the next number and enters the
    next round)."""

    NAME: ClassVar[str] = "player-added"
    TRF_CODE: ClassVar[str] = "ENT"

    player: int
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None

    def effect(self, state: State, at: str) -> Effect:
        if self.player in state.players:
            raise ValueError(f"player {self.player} has entered already")
        entered = state.rounds_paired + 1
        number = next_number(state.players)
        facts = PlayerFacts(number, self.name, self.rating, self.federation, self.fide_id,
                            entered, None, at)  # fmt: skip
        return Effect(players={self.player: facts}, renumber=entered == 1)

    def words(self, state: State) -> str:
        late = f", a late entry from round {state.rounds_paired + 1}" if state.pairings else ""
        rating = f" (rating {self.rating})" if self.rating is not None else ""
        return f"{self.name}{rating} entered{late}"


def next_number(players: Mapping[int, PlayerFacts]) -> int:
    """The pairing number a player entering now takes (before round 1, FIDE's order numbers
    them all again)."""
    return max((p.number for p in players.values()), default=0) + 1


def _in_pairings(state: State) -> set[int]:
    """The pairing numbers that a round paired holds, on a board or with a bye."""
    seated = {n for facts in state.pairings.values() for board in facts.boards for n in board}
    return seated | {n for facts in state.pairings.values() for n, _, _ in facts.byes}


PLAYER_FACTS = {"name": "name", "rating": "rating", "federation": "federation", "id": "fide_id"}
"""The fields of a player a correction may change, by their name in the API and the trail,
and the name of their fact."""


@dataclass(frozen=True, slots=True)
class PlayerChanged(Paired):
    """``player-changed``: the director corrects a player's name, rating, federation or id
    (``changed``: the new values by field; ``was``: the old ones). Before round 1 is paired,
    the pairing numbers follow FIDE's order again; after, they stay."""

    NAME: ClassVar[str] = "player-changed"
    TRF_CODE: ClassVar[str] = "CHG"

    player: int
    changed: Mapping[str, Any]
    was: Mapping[str, Any]

    def details(self) -> dict[str, Any]:
        return {"player": self.player, "changed": dict(self.changed), "was": dict(self.was)}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["player"], dict(details["changed"]), dict(details["was"]))

    def effect(self, state: State, at: str) -> Effect:
        unknown = set(self.changed) - set(PLAYER_FACTS)
        if unknown or not self.changed:
            raise ValueError(f"no player's field {sorted(unknown)!r}")
        facts = replace(
            state.players[self.player],
            **{PLAYER_FACTS[name]: value for name, value in self.changed.items()},
        )
        renumber = not state.pairings and bool({"name", "rating"} & set(self.changed))
        return Effect(players={self.player: facts}, renumber=renumber)

    def words(self, state: State) -> str:
        player = state.players[self.player]
        said = ", ".join(
            f"{name} {self.was.get(name)!r} to {value!r}" for name, value in self.changed.items()
        )
        return f"player {player.number} {player.name}: {said}"


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Paired):
    """``player-removed``: the director takes out a player entered by mistake, who was never
    paired (the byes they asked for go with them). Before round 1 is paired the others are
    numbered in FIDE's order again; after, those entered after them (never paired either)
    each take the number before theirs, so that the numbers stay 1 to N."""

    NAME: ClassVar[str] = "player-removed"
    TRF_CODE: ClassVar[str] = "DEL"

    player: int
    name: str

    def effect(self, state: State, at: str) -> Effect:
        gone = state.players[self.player]
        if gone.number in _in_pairings(state):
            raise ValueError(f"player {self.player} was paired")
        if any(self.player in p.players and p.removed_at is None
               for p in state.prohibitions.values()):  # fmt: skip
            raise ValueError(f"player {self.player} is named in a prohibition")
        asked = {key: None for key in state.requests if key[1] == self.player}
        if not state.pairings:
            return Effect(players={self.player: None}, requests=asked, renumber=True)
        moved: dict[int, PlayerFacts | None] = {
            one: replace(facts, number=facts.number - 1)
            for one, facts in state.players.items()
            if facts.number > gone.number
        }
        return Effect(players={**moved, self.player: None}, requests=asked)

    def words(self, state: State) -> str:
        number = state.players[self.player].number if self.player in state.players else "?"
        return f"{self.name} (number {number}) removed: entered by mistake, never paired"


@dataclass(frozen=True, slots=True)
class ByeCancelled(Paired):
    """``bye-cancelled``: a bye a player asked for, taken back before its round is paired."""

    NAME: ClassVar[str] = "bye-cancelled"
    TRF_CODE: ClassVar[str] = "BYE"

    player: int
    round: int
    was: str

    def effect(self, state: State, at: str) -> Effect:
        if (self.round, self.player) not in state.requests:
            raise KeyError((self.round, self.player))
        return Effect(requests={(self.round, self.player): None})

    def words(self, state: State) -> str:
        player = state.players[self.player]
        worth = "half-point" if self.was == "half" else "zero-point"
        return (
            f"{player.name} (number {player.number}): the {worth} bye of round {self.round} "
            "is cancelled"
        )


@dataclass(frozen=True, slots=True)
class WithdrawalCancelled(Paired):
    """``withdrawal-cancelled``: a withdrawal taken back (``was``: the round it was from);
    the player is paired again from the next round not yet paired, and the rounds paired
    meanwhile stay absences."""

    NAME: ClassVar[str] = "withdrawal-cancelled"
    TRF_CODE: ClassVar[str] = "WDR"

    player: int
    was: int

    def effect(self, state: State, at: str) -> Effect:
        return Effect(
            players={self.player: replace(state.players[self.player], withdrawn_from=None)}
        )

    def words(self, state: State) -> str:
        player = state.players[self.player]
        return (
            f"{player.name} (number {player.number}): the withdrawal from round {self.was} is "
            f"taken back; paired again from round {state.rounds_paired + 1}"
        )


@dataclass(frozen=True, slots=True)
class PlayerWithdrawn(Paired):
    """``player-withdrawn``: a player is paired no more from a round on."""

    NAME: ClassVar[str] = "player-withdrawn"
    TRF_CODE: ClassVar[str] = "WDR"

    player: int
    round: int

    def effect(self, state: State, at: str) -> Effect:
        return Effect(
            players={self.player: replace(state.players[self.player], withdrawn_from=self.round)}
        )

    def words(self, state: State) -> str:
        player = state.players[self.player]
        return f"{player.name} (number {player.number}) withdrawn from round {self.round}"


@dataclass(frozen=True, slots=True)
class ByeRequested(Paired):
    """``bye-requested``: a player asks for a half-point or zero-point bye in a round not yet
    paired."""

    NAME: ClassVar[str] = "bye-requested"
    TRF_CODE: ClassVar[str] = "BYE"

    player: int
    round: int
    kind: str

    def effect(self, state: State, at: str) -> Effect:
        if self.player not in state.players:
            raise KeyError(self.player)
        return Effect(requests={(self.round, self.player): self.kind})

    def words(self, state: State) -> str:
        player = state.players[self.player]
        worth = "half-point" if self.kind == "half" else "zero-point"
        return (
            f"{player.name} (number {player.number}) asks for a {worth} bye in round {self.round}"
        )


_BYE_LETTERS: dict[str, str] = {kind: letter for kind, letter in BYE_LETTERS.items()}


def _described_boards(boards: Iterable[Board], byes: Iterable[ByeGiven]) -> str:
    shown = " ".join(f"{n}:{a}-{b}" for n, (a, b) in enumerate(boards, 1))
    given = " ".join(f"{player}{_BYE_LETTERS.get(kind, '?')}" for player, kind, _ in byes)
    return shown + (f" byes {given}" if given else "")


@dataclass(frozen=True, slots=True)
class RoundPaired(Paired):
    """``round-paired``: the system paired the next round (or paired again the round it
    paired as a draft): its boards (board 1 first, by pairing number, the first seat first),
    its byes, and whether it is a draft, for the director only until published."""

    NAME: ClassVar[str] = "round-paired"
    TRF_CODE: ClassVar[str] = "PAI"

    round: int
    boards: tuple[Board, ...]
    byes: tuple[ByeGiven, ...]
    draft: bool = False

    def details(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "round": self.round,
            "boards": [list(board) for board in self.boards],
            "byes": [list(bye) for bye in self.byes],
        }
        return {**said, "draft": True} if self.draft else said  # said only when set

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        return cls(details["round"], _boards(details["boards"]), _byes(details["byes"]),
                   bool(details.get("draft", False)))  # fmt: skip

    def effect(self, state: State, at: str) -> Effect:
        facts = PairingFacts(self.boards, self.byes, False, at, self.draft)
        return Effect(pairings={self.round: facts})

    def words(self, state: State) -> str:
        if self.draft and not self.boards and not self.byes:  # withheld until published
            return f"round {self.round} paired as a draft (its boards shown once published)"
        drafted = " as a draft" if self.draft else ""
        return f"round {self.round} paired{drafted}: {_described_boards(self.boards, self.byes)}"


def _boards(value: Any) -> tuple[Board, ...]:
    return tuple((int(first), int(second)) for first, second in value)


def _byes(value: Any) -> tuple[ByeGiven, ...]:
    return tuple((int(player), str(kind), float(points)) for player, kind, points in value)


@dataclass(frozen=True, slots=True)
class RoundReplaced(Paired):
    """``round-replaced``: the director paired a round by hand, before any result of it was
    in; the system's pairing stays beside it (TRF ``### MPA``)."""

    NAME: ClassVar[str] = "round-replaced"
    TRF_CODE: ClassVar[str] = "MPA"

    round: int
    boards: tuple[Board, ...]
    byes: tuple[ByeGiven, ...]
    engine_boards: tuple[Board, ...]
    engine_byes: tuple[ByeGiven, ...]
    draft: bool = False
    """The round replaced is a draft, and stays one."""
    warnings: tuple[str, ...] = ()
    """What the pairing breaks of the rules the system keeps, as the director was told
    before applying it (kept only when there is something: older entries hash as they were)."""

    def details(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "round": self.round,
            "boards": [list(board) for board in self.boards],
            "byes": [list(bye) for bye in self.byes],
            "engine": {
                "boards": [list(board) for board in self.engine_boards],
                "byes": [list(bye) for bye in self.engine_byes],
            },
        }
        if self.warnings:
            said["warnings"] = list(self.warnings)
        return {**said, "draft": True} if self.draft else said  # said only when set

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        engine = details["engine"]
        return cls(details["round"], _boards(details["boards"]), _byes(details["byes"]),
                   _boards(engine["boards"]), _byes(engine["byes"]),
                   bool(details.get("draft", False)),
                   tuple(str(w) for w in details.get("warnings", ())))  # fmt: skip

    def effect(self, state: State, at: str) -> Effect:
        facts = PairingFacts(self.boards, self.byes, True, at, self.draft)
        return Effect(pairings={self.round: facts})

    def words(self, state: State) -> str:
        told = f"; warned: {'; '.join(self.warnings)}" if self.warnings else ""
        return (
            f"round {self.round} paired by hand: {_described_boards(self.boards, self.byes)}; "
            f"the system's pairing: {_described_boards(self.engine_boards, self.engine_byes)}"
            + told
        )


@dataclass(frozen=True, slots=True)
class RoundUnpaired(Paired):
    """``round-unpaired``: the director took back a round's pairing before any result."""

    NAME: ClassVar[str] = "round-unpaired"
    TRF_CODE: ClassVar[str] = "UNP"

    round: int

    def effect(self, state: State, at: str) -> Effect:
        if self.round not in state.pairings:
            raise KeyError(self.round)
        return Effect(pairings={self.round: None})

    def words(self, state: State) -> str:
        return f"round {self.round} unpaired"


@dataclass(frozen=True, slots=True)
class RoundPublished(Paired):
    """``round-published``: the director published a round paired as a draft: from now on
    everyone sees it, and its boards take records, reports and results."""

    NAME: ClassVar[str] = "round-published"
    TRF_CODE: ClassVar[str] = "PUB"

    round: int

    def effect(self, state: State, at: str) -> Effect:
        facts = state.pairings[self.round]
        if not facts.draft:
            raise ValueError(f"round {self.round} is published already")
        return Effect(pairings={self.round: replace(facts, draft=False)})

    def words(self, state: State) -> str:
        return f"round {self.round} published"


@dataclass(frozen=True, slots=True)
class CheckedIn(Paired):
    """``checked-in``: a player is present for a round not yet published, in an event that
    pairs only the players checked in."""

    NAME: ClassVar[str] = "checked-in"
    TRF_CODE: ClassVar[str] = "CHK"

    player: int
    round: int

    def effect(self, state: State, at: str) -> Effect:
        if self.player not in state.players:
            raise KeyError(self.player)
        return Effect(checkins={(self.round, self.player): at})

    def words(self, state: State) -> str:
        player = state.players[self.player]
        return f"{player.name} (number {player.number}) checked in for round {self.round}"


@dataclass(frozen=True, slots=True)
class CheckInCancelled(Paired):
    """``check-in-cancelled``: a check-in taken back before its round is published."""

    NAME: ClassVar[str] = "check-in-cancelled"
    TRF_CODE: ClassVar[str] = "CHK"

    player: int
    round: int

    def effect(self, state: State, at: str) -> Effect:
        if (self.round, self.player) not in state.checkins:
            raise KeyError((self.round, self.player))
        return Effect(checkins={(self.round, self.player): None})

    def words(self, state: State) -> str:
        player = state.players[self.player]
        return f"{player.name} (number {player.number}) no longer checked in for round {self.round}"


BOARD_RESULTS = ("1-0", "0-1", "+-", "-+", "--")
"""The results a director may give a board: a win of the first seat or the second (decided
over the board without a record), a forfeit win of either seat, a double forfeit."""


@dataclass(frozen=True, slots=True)
class BoardResultSet(Paired):
    """``board-result-set``: the director gives a board its result (a forfeit, a double
    forfeit, a game without a record)."""

    NAME: ClassVar[str] = "board-result-set"
    TRF_CODE: ClassVar[str] = "RES"

    round: int
    board: int
    result: str
    was: str | None

    def effect(self, state: State, at: str) -> Effect:
        if self.result not in BOARD_RESULTS:
            raise ValueError(f"{self.result!r} is no board result")
        return Effect(results={(self.round, self.board): self.result})

    def words(self, state: State) -> str:
        return f"round {self.round} board {self.board}: result {self.result}"


@dataclass(frozen=True, slots=True)
class BoardResultCleared(Paired):
    """``board-result-cleared``: the director takes a board's result back."""

    NAME: ClassVar[str] = "board-result-cleared"
    TRF_CODE: ClassVar[str] = "RES"

    round: int
    board: int
    was: str

    def effect(self, state: State, at: str) -> Effect:
        return Effect(results={(self.round, self.board): None})

    def words(self, state: State) -> str:
        return f"round {self.round} board {self.board}: result {self.was} taken back"


@dataclass(frozen=True, slots=True)
class RecordPlaced(Paired):
    """``record-placed``: the director counts a record on a board its tags did not find
    (seats reversed, another round, another board, names written otherwise): the director's
    decision. ``seats`` says how the record's players sit on the board, and ``names`` the
    record's names taken as the board's first seat and second (None in entries written
    before either was kept)."""

    NAME: ClassVar[str] = "record-placed"
    TRF_CODE: ClassVar[str] = "PLC"

    record: int
    round: int
    board: int
    was: str | None
    seats: str | None = None
    names: tuple[str, str] | None = None

    def details(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "record": self.record, "round": self.round, "board": self.board, "was": self.was,
        }  # fmt: skip
        if self.seats is not None:
            said["seats"] = self.seats
        if self.names is not None:
            said["names"] = list(self.names)
        return said

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        names = details.get("names")
        return cls(
            details["record"], details["round"], details["board"], details["was"],
            details.get("seats"), None if names is None else (str(names[0]), str(names[1])),
        )  # fmt: skip

    def effect(self, state: State, at: str) -> Effect:
        if self.seats is not None and self.seats not in SEATS:
            raise ValueError(f"{self.seats!r} is no way to sit on a board")
        return _record_now(
            state, self.record, board_round=self.round, board=self.board, placement=None,
            seats=self.seats,
        )  # fmt: skip

    def words(self, state: State) -> str:
        was = f" (it was {self.was})" if self.was else ""
        said = f"record {self.record} counted on round {self.round} board {self.board}{was}"
        pairing = state.pairings.get(self.round)
        if self.names is None or pairing is None or not 1 <= self.board <= len(pairing.boards):
            return said
        seated = {facts.number: facts.name for facts in state.players.values()}
        taken = [
            f"{written} as {seated.get(number, number)}"
            for written, number in zip(self.names, pairing.boards[self.board - 1], strict=True)
            if written != seated.get(number)
        ]
        return said + (f"; its {' and '.join(taken)}" if taken else "")


@dataclass(frozen=True, slots=True)
class ResultReported(Paired):
    """``result-reported``: a player reported their board's result (the first seat's side
    first), in place of the one they reported before: two reports that agree give the board
    its result, two that differ make it disputed."""

    NAME: ClassVar[str] = "result-reported"
    TRF_CODE: ClassVar[str] = "REP"

    round: int
    board: int
    player: int
    result: str

    def effect(self, state: State, at: str) -> Effect:
        if self.player not in state.players:
            raise KeyError(self.player)
        if self.result not in BOARD_RESULTS:
            raise ValueError(f"{self.result!r} is not a board's result")
        return Effect(reports={(self.round, self.board, self.player): self.result})

    def words(self, state: State) -> str:
        player = state.players[self.player]
        return (
            f"{player.name} (number {player.number}) reported {self.result} on round "
            f"{self.round} board {self.board}"
        )


def _rounds_words(first: int, last: int) -> str:
    return f"round {first}" if first == last else f"rounds {first}-{last}"


def _players_words(state: State, players: Iterable[int]) -> str:
    """Players by id as the TRF's lines name them: number and name (``?`` for one the state
    no longer holds)."""
    shown = []
    for player in players:
        facts = state.players.get(player)
        shown.append(f"{facts.number} {facts.name}" if facts else f"? (player {player})")
    return ", ".join(shown)


@dataclass(frozen=True, slots=True)
class ProhibitionAdded(Paired):
    """``prohibited-added``: the director prohibits pairing together any two of ``players``
    (by id) in rounds ``first_round`` to ``last_round`` (TRF-2026 record 260); ``after``:
    the rounds already paired when it was added, said only then (the pairings made before it
    were not bound by it)."""

    NAME: ClassVar[str] = "prohibited-added"
    TRF_CODE: ClassVar[str] = "PRO"

    number: int
    players: tuple[int, ...]
    first_round: int
    last_round: int
    after: int = 0

    def details(self) -> dict[str, Any]:
        said: dict[str, Any] = {
            "number": self.number,
            "players": list(self.players),
            "first_round": self.first_round,
            "last_round": self.last_round,
        }
        return {**said, "after": self.after} if self.after else said

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        players = details["players"]
        if not isinstance(players, list) or not all(type(one) is int for one in players):
            raise ValueError(f"{players!r} is no list of players")
        return cls(details["number"], tuple(players), details["first_round"],
                   details["last_round"], int(details.get("after", 0)))  # fmt: skip

    def effect(self, state: State, at: str) -> Effect:
        if self.number in state.prohibitions:
            raise ValueError(f"prohibition {self.number} exists already")
        if len(set(self.players)) != len(self.players) or len(self.players) < 2:
            raise ValueError("a prohibition names two players or more, each once")
        for player in self.players:
            if player not in state.players:
                raise KeyError(player)
        if not 1 <= self.first_round <= self.last_round:
            raise ValueError(f"rounds {self.first_round}-{self.last_round} are no rounds")
        facts = ProhibitionFacts(self.players, self.first_round, self.last_round, at)
        return Effect(prohibitions={self.number: facts})

    def words(self, state: State) -> str:
        late = f" (added after round {self.after} was paired)" if self.after else ""
        return (
            f"prohibition {self.number}: no two of {_players_words(state, self.players)} are "
            f"paired together in {_rounds_words(self.first_round, self.last_round)}{late}"
        )


@dataclass(frozen=True, slots=True)
class ProhibitionRemoved(Paired):
    """``prohibited-removed``: the director takes a prohibition back: the rounds paired from
    now on are not bound by it, and those paired already (a draft included) stay as they
    were paired, under it (its last round is now the last round paired; before its first
    round is paired, it holds in none)."""

    NAME: ClassVar[str] = "prohibited-removed"
    TRF_CODE: ClassVar[str] = "PRO"

    prohibition: int

    def effect(self, state: State, at: str) -> Effect:
        facts = state.prohibitions[self.prohibition]
        if facts.removed_at is not None:
            raise ValueError(f"prohibition {self.prohibition} was taken back already")
        last = min(facts.last_round, state.rounds_paired)
        return Effect(
            prohibitions={self.prohibition: replace(facts, last_round=last, removed_at=at)}
        )

    def words(self, state: State) -> str:
        facts = state.prohibitions.get(self.prohibition)
        if facts is None:
            return f"prohibition {self.prohibition} taken back"
        paired = min(facts.last_round, state.rounds_paired)
        held = (
            f"; it held in {_rounds_words(facts.first_round, paired)}, paired already"
            if facts.first_round <= paired
            else ""
        )
        return (
            f"prohibition {self.prohibition} taken back: "
            f"{_players_words(state, facts.players)} in "
            f"{_rounds_words(facts.first_round, facts.last_round)}{held}"
        )


@dataclass(frozen=True, slots=True)
class WebhookAdded(Action):
    """``webhook-added``: the director asks for the event's changes (of ``events``, the
    kinds of change) to be sent to ``url``."""

    NAME: ClassVar[str] = "webhook-added"

    number: int
    url: str
    events: tuple[str, ...]

    def details(self) -> dict[str, Any]:
        return {"number": self.number, "url": self.url, "events": list(self.events)}

    @classmethod
    def from_details(cls, details: Mapping[str, Any]) -> Self:
        events = details["events"]
        if not isinstance(events, list) or not all(isinstance(one, str) for one in events):
            raise ValueError(f"{events!r} is no list of kinds of change")
        return cls(details["number"], str(details["url"]), tuple(events))

    def effect(self, state: State, at: str) -> Effect:
        return Effect(webhooks={self.number: WebhookFacts(self.url, self.events, at)})


@dataclass(frozen=True, slots=True)
class WebhookRemoved(Action):
    """``webhook-removed``: nothing more is sent to the webhook."""

    NAME: ClassVar[str] = "webhook-removed"

    webhook: int

    def effect(self, state: State, at: str) -> Effect:
        return Effect(webhooks={self.webhook: replace(state.webhooks[self.webhook], removed_at=at)})


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
        PlayerAdded,
        PlayerWithdrawn,
        ByeRequested,
        PlayerChanged,
        PlayerRemoved,
        ByeCancelled,
        WithdrawalCancelled,
        RoundPaired,
        RoundReplaced,
        RoundUnpaired,
        BoardResultSet,
        BoardResultCleared,
        RecordPlaced,
        RoundPublished,
        CheckedIn,
        CheckInCancelled,
        ResultReported,
        WebhookAdded,
        WebhookRemoved,
        ProhibitionAdded,
        ProhibitionRemoved,
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


def _apply(table: dict[K, V], changed: Mapping[K, V | None]) -> None:
    """Make ``changed`` in ``table``: a value of None takes its key away."""
    for key, value in changed.items():
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value


class Replay:
    """The entries of a trail applied one after the other to one state, kept in place (no
    state copied per entry, whatever the trail's length), numbering the players in FIDE's
    order once after a run of entries that asks it (:attr:`Effect.renumber`), before
    anything reads a number: what verification replays, the words of the TRF's comments
    read, and a run of players entering is kept by."""

    def __init__(self, start: State | None = None) -> None:
        start = start or State()
        self.event = start.event
        self.tokens = dict(start.tokens)
        self.uploads = dict(start.uploads)
        self.records = dict(start.records)
        self.players = dict(start.players)
        self.pairings = dict(start.pairings)
        self.requests = dict(start.requests)
        self.results = dict(start.results)
        self.checkins = dict(start.checkins)
        self.reports = dict(start.reports)
        self.webhooks = dict(start.webhooks)
        self.prohibitions = dict(start.prohibitions)
        self.unnumbered = False

    @property
    def state(self) -> State:
        """The state as it stands, its players numbered (it shares this replay's tables:
        read it before the next entry is applied)."""
        self.number()
        return self._now()

    def _now(self) -> State:
        return State(self.event, self.tokens, self.uploads, self.records, self.players,
                     self.pairings, self.requests, self.results, self.checkins,
                     self.reports, webhooks=self.webhooks,
                     prohibitions=self.prohibitions)  # fmt: skip

    def number(self) -> None:
        """Number the players in FIDE's order, if an effect asked it since the last time."""
        if self.unnumbered:
            self.players.update(_numbered(self.players))
            self.unnumbered = False

    def apply(self, action: Action, at: str) -> Effect:
        """Make ``action`` (made at ``at``); its effect (``KeyError``, ``TypeError`` or
        ``ValueError`` when it cannot be applied, the state then left as it was)."""
        if not isinstance(action, PlayerAdded):  # a run of entries numbered once, after it
            self.number()
        effect = action.effect(self._now(), at)
        self.event = self.event if effect.event is None else effect.event
        self.tokens.update(effect.tokens)
        self.uploads.update(effect.uploads)
        self.records.update(effect.records)
        _apply(self.players, effect.players)
        _apply(self.pairings, effect.pairings)
        _apply(self.requests, effect.requests)
        _apply(self.results, effect.results)
        _apply(self.checkins, effect.checkins)
        _apply(self.reports, effect.reports)
        self.webhooks.update(effect.webhooks)
        self.prohibitions.update(effect.prohibitions)
        self.unnumbered = self.unnumbered or effect.renumber
        return effect


def replay(entries: Iterable[Entry]) -> tuple[State, list[tuple[int, str]]]:
    """What the event holds once every entry is applied in order, and the entries that
    could not be applied (number, why). A state is built once, whatever the entries: each
    effect updates it in place of copying it."""
    problems: list[tuple[int, str]] = []
    done = Replay()
    for entry in entries:
        try:
            done.apply(parse(entry), entry.at)
        except (KeyError, TypeError, ValueError) as err:
            problems.append((entry.number, f"its details cannot be applied ({err})"))
    return done.state, problems
