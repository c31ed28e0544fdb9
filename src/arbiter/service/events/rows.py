"""What the storage contract (:mod:`arbiter.service.events.storage`) gives and takes: the rows
of the tables as plain typed values, and the few sums it computes. Nothing here knows SQL,
so the rules, the operations and the reads work on these values and can be tested on them
alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from arbiter.notation.sources import Notation

__all__ = [
    "ChainEnd",
    "EventRow",
    "Holdings",
    "RecordCounts",
    "RecordRow",
    "TokenRow",
    "UploadInfo",
    "UploadRow",
    "UploadSource",
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


def columns(row: EventRow | TokenRow | RecordRow | UploadRow) -> dict[str, object]:
    """A row as a dict, in the order of its table's columns (the archive's ``event.json``)."""
    return {field.name: getattr(row, field.name) for field in fields(row)}
