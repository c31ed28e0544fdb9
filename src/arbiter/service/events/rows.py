"""What the storage contract (:mod:`arbiter.service.events.storage`) gives and takes: the rows
of the tables as plain typed values, and the few sums it computes. Nothing here knows SQL,
so the rules, the operations and the reads work on these values and can be tested on them
alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from arbiter.notation.sources import Notation
from arbiter.service.events.common import UNPAIRED

__all__ = [
    "AnswerRow",
    "ChainEnd",
    "ChangeFacts",
    "CheckinRow",
    "EventRow",
    "Holdings",
    "PairingRow",
    "PlayerRow",
    "RecordCounts",
    "RecordRow",
    "ReportRow",
    "RequestRow",
    "ResultRow",
    "TokenRow",
    "UploadInfo",
    "UploadRow",
    "UploadSource",
    "DeliveryRow",
    "WebhookRow",
    "columns",
]


@dataclass(frozen=True, slots=True)
class EventRow:
    """One row of ``events``; ``version`` counts its changes."""

    id: str
    name: str
    game: str
    rounds: int | None
    tiebreaks: str | None
    confirm_uploads: bool
    created_at: str
    finalised_at: str | None
    version: int
    pairing: str = UNPAIRED
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False


@dataclass(frozen=True, slots=True)
class TokenRow:
    """One row of ``tokens``: a token's SHA-256 (never the secret), role and label."""

    event_id: str
    number: int
    hash: str
    role: str
    label: str
    created_at: str
    revoked_at: str | None
    player: int | None = None
    """The player (by id) an upload token was made for, if any."""


@dataclass(frozen=True, slots=True)
class UploadRow:
    """One row of ``uploads``: the bytes as sent, and what was said of them."""

    event_id: str
    number: int
    sha256: str
    file_name: str | None
    format: Notation | None
    size: int
    data: bytes
    token: int
    created_at: str


@dataclass(frozen=True, slots=True)
class RecordRow:
    """One row of ``records``: ``header`` and ``report`` as the JSON text kept."""

    event_id: str
    number: int
    upload: int
    position: int
    status: str
    official_result: str | None
    round: int | None
    header: str | None
    report: str
    digest: str
    board_round: int | None = None
    board: int | None = None
    placement: str | None = None
    seats: str | None = None


@dataclass(frozen=True, slots=True)
class UploadInfo:
    """An upload without its bytes, and how many records it holds (``records``)."""

    number: int
    sha256: str
    file_name: str | None
    format: Notation | None
    size: int
    token: int
    created_at: str
    records: int


@dataclass(frozen=True, slots=True)
class UploadSource:
    """An upload's bytes, with the file name and notation to read them by."""

    file_name: str | None
    format: Notation | None
    data: bytes


@dataclass(frozen=True, slots=True)
class Holdings:
    """What an event holds, for its limits: its uploads, their bytes, its records."""

    uploads: int
    bytes: int
    records: int


@dataclass(frozen=True, slots=True)
class RecordCounts:
    """An event's records by status, and how many have an official result."""

    by_status: Mapping[str, int]
    corrected: int


@dataclass(frozen=True, slots=True)
class ChainEnd:
    """The last entry of an event's trail: the next one follows its number and hash."""

    number: int
    hash: str


@dataclass(frozen=True, slots=True)
class ChangeFacts:
    """What a change reads once its event is locked: the token it was asked with (whatever
    its event), the event's last entry, and for an upload what the event holds and which of
    its sources (by SHA-256) the event keeps already, by their upload's number."""

    token: TokenRow | None
    end: ChainEnd | None
    holdings: Holdings | None = None
    known: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One row of ``players``: a player of a paired event (``id`` in order of entry, the
    pairing ``number``, the first round they may be paired in, and their withdrawal)."""

    event_id: str
    id: int
    number: int
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    entered: int
    withdrawn_from: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One row of ``pairings``: a round's boards and byes as the JSON text kept."""

    event_id: str
    round: int
    boards: str
    byes: str
    manual: bool
    paired_at: str
    draft: bool = False


@dataclass(frozen=True, slots=True)
class RequestRow:
    """One row of ``requests``: a bye a player (by id) asked for in a round to come."""

    event_id: str
    round: int
    player: int
    kind: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One row of ``results``: a board's result given by the director."""

    event_id: str
    round: int
    board: int
    result: str


@dataclass(frozen=True, slots=True)
class CheckinRow:
    """One row of ``checkins``: a player (by id) checked in for a round, and when."""

    event_id: str
    round: int
    player: int
    at: str


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One row of ``reports``: the result a player (by id) reported for their board, the
    first seat's side first."""

    event_id: str
    round: int
    board: int
    player: int
    result: str


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One row of ``idempotency``: a key's answer as kept (its scope: the event, or the
    empty id of a creation; the key's SHA-256; the request's; the trail's last entry once
    the change was made; the status and sealed body once the answer was made)."""

    scope: str
    key_hash: str
    fingerprint: str
    entry: int | None
    status: int | None
    body: bytes | None
    created_at: str


@dataclass(frozen=True, slots=True)
class WebhookRow:
    """One row of ``webhooks``: what the trail says of a webhook (``url``, ``events``: its
    kinds of change, comma-separated; when it was added and removed), and, beside the
    trail, where the deliverer has read the event's trail to for it (``seen``: the last
    entry considered) and the event's public page, which each delivery names."""

    event_id: str
    number: int
    url: str
    events: str
    created_at: str
    removed_at: str | None
    seen: int
    event_url: str


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    """One row of ``deliveries``: an entry of the trail sent (or to be sent) to a webhook:
    its ``status`` (``pending``, ``sending``, ``retrying``, ``delivered``, ``failed``,
    ``cancelled``), the attempts made, when the next may be made, and what the last one
    got (the receiver's HTTP status, or why it got none)."""

    event_id: str
    webhook: int
    entry: int
    status: str
    attempts: int
    next_at: str
    created_at: str
    attempted_at: str | None = None
    delivered_at: str | None = None
    http_status: int | None = None
    error: str | None = None


def columns(
    row: EventRow
    | TokenRow
    | RecordRow
    | UploadRow
    | PlayerRow
    | PairingRow
    | RequestRow
    | ResultRow
    | CheckinRow
    | ReportRow
    | WebhookRow
    | DeliveryRow,
) -> dict[str, object]:
    """A row as a dict, in the order of its table's columns (the archive's ``event.json``)."""
    return {one.name: getattr(row, one.name) for one in fields(row)}
