"""What the events layer answers the faces: plain typed values, each with ``to_dict()``, the
JSON object the API sends (its keys in the order the API has always sent them; the pages'
templates read the same values by attribute).

A record's ``report`` and ``players`` stay JSON objects: they are the adjudicator's report
(``spec/report.md``) and a record's players by colour, kept and shown as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.service.events.common import ACCEPTED, EXCLUDED, NO_ACCELERATION, PENDING, UNPAIRED
from arbiter.service.events.receipts import Head
from arbiter.service.events.rows import TokenRow, UploadInfo

__all__ = [
    "BoardSuggestion",
    "Created",
    "EventSummary",
    "IssuedToken",
    "KeptUpload",
    "RecordTotals",
    "RecordView",
    "RecordWarning",
    "TokenView",
    "UploadAnswer",
    "UploadSummary",
]


@dataclass(frozen=True, slots=True)
class RecordTotals:
    """An event's records: all of them, by status, and those with an official result."""

    total: int
    accepted: int
    pending: int
    excluded: int
    corrected: int

    def to_dict(self) -> dict[str, int]:
        return {
            "total": self.total,
            ACCEPTED: self.accepted,
            PENDING: self.pending,
            EXCLUDED: self.excluded,
            "corrected": self.corrected,
        }


@dataclass(frozen=True, slots=True)
class EventSummary:
    """The event as ``GET /api/v1/events/ID`` gives it (the API adds its URLs)."""

    id: str
    name: str
    game: str
    rounds: int | None
    rounds_played: int
    tiebreaks: tuple[str, ...]
    confirm_uploads: bool
    created_at: str
    finalised_at: str | None
    last_change: str | None
    version: int
    records: RecordTotals
    head: Head
    pairing: str = UNPAIRED
    bye_points: float = 1.0
    half_byes: bool = True
    check_in: bool = False
    acceleration: str = NO_ACCELERATION
    paired: bool = False
    """Whether the event's kind has players and rounds paired (asked of the kind once, as
    the summary is made: the pages ask it; the API gives ``pairing``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "rounds": self.rounds,
            "rounds_played": self.rounds_played,
            "tiebreaks": list(self.tiebreaks),
            "confirm_uploads": self.confirm_uploads,
            "created_at": self.created_at,
            "finalised_at": self.finalised_at,
            "last_change": self.last_change,
            "version": self.version,
            "records": self.records.to_dict(),
            "head": {"entry": self.head.entry, "hash": self.head.hash},
            "pairing": self.pairing,
            "bye_points": int(self.bye_points) if self.bye_points.is_integer() else self.bye_points,
            "half_byes": self.half_byes,
            "check_in": self.check_in,
            "acceleration": self.acceleration,
        }


@dataclass(frozen=True, slots=True)
class RecordWarning:
    """Something a director should look at in a record that counts all the same (its
    ``Event`` tag missing, or naming another event): a stable code and a sentence."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class BoardSuggestion:
    """A board a record that stands on none may belong to: its round and number, its
    players (names and pairing numbers, first seat first), how the record's players would
    sit there (``seats``), and how alike the names are (``likeness``, 0 to 1)."""

    round: int
    board: int
    first: str
    second: str
    first_number: int
    second_number: int
    seats: str
    likeness: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "board": self.board,
            "first": self.first,
            "second": self.second,
            "first_number": self.first_number,
            "second_number": self.second_number,
            "seats": self.seats,
            "likeness": self.likeness,
        }

    @property
    def words(self) -> str:
        """``round 2 board 3, Ana Ruiz v Bo Chen``."""
        return f"round {self.round} board {self.board}, {self.first} v {self.second}"


@dataclass(frozen=True, slots=True)
class RecordView:
    """One kept record as ``GET .../records`` gives it: its place, status, the result that
    counts beside the adjudicator's, what a director should look at (``warnings``), and
    the adjudicator's report."""

    record: int
    upload: int
    upload_sha256: str
    file: str | None
    index: int
    round: int | None
    players: dict[str, str]
    status: str
    official_result: str | None
    result: str | None
    adjudicated_result: str | None
    valid: bool
    report: dict[str, Any]
    board: tuple[int | None, int | None, str | None] | None = None
    """In a paired event: the round and board the record stands on, and why it counts on
    none (``not-paired``, ``seats-reversed``, ``wrong-round``, ``board-has-a-result``)."""
    warnings: tuple[RecordWarning, ...] = ()
    suggestions: tuple[BoardSuggestion, ...] = ()
    """In a paired event, for a record that stands on no board: the boards it fits best."""
    seats: str | None = None
    """In a paired event, for a record that stands on a board: how its players sit there."""

    def to_dict(self) -> dict[str, Any]:
        shown = {
            "record": self.record,
            "upload": self.upload,
            "upload_sha256": self.upload_sha256,
            "file": self.file,
            "index": self.index,
            "round": self.round,
            "players": self.players,
            "status": self.status,
            "official_result": self.official_result,
            "result": self.result,
            "adjudicated_result": self.adjudicated_result,
            "valid": self.valid,
            "warnings": [one.to_dict() for one in self.warnings],
            "report": self.report,
        }
        if self.board is not None:
            board_round, board, placement = self.board
            shown |= {
                "board_round": board_round,
                "board": board,
                "placement": placement,
                "seats": self.seats,
                "suggestions": [one.to_dict() for one in self.suggestions],
            }
        return shown


@dataclass(frozen=True, slots=True)
class KeptUpload:
    """One source of an upload request as kept (or found kept already: ``duplicate``), with
    its records."""

    upload: int
    sha256: str
    file: str | None
    size: int
    created_at: str
    token: int
    duplicate: bool
    records: tuple[RecordView, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "upload": self.upload,
            "sha256": self.sha256,
            "file": self.file,
            "size": self.size,
            "created_at": self.created_at,
            "token": self.token,
            "duplicate": self.duplicate,
            "records": [one.to_dict() for one in self.records],
        }


@dataclass(frozen=True, slots=True)
class UploadAnswer:
    """What an upload request kept, source by source."""

    event: str
    uploads: tuple[KeptUpload, ...]

    @property
    def count(self) -> int:
        """The records of every source."""
        return sum(len(upload.records) for upload in self.uploads)

    @property
    def invalid(self) -> int:
        """The records of every source that are not valid."""
        return sum(not one.valid for upload in self.uploads for one in upload.records)

    @property
    def created(self) -> bool:
        """Whether anything was new (the API answers 201, else 200)."""
        return any(not upload.duplicate for upload in self.uploads)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "uploads": [upload.to_dict() for upload in self.uploads]}


@dataclass(frozen=True, slots=True)
class UploadSummary:
    """One upload as ``GET .../uploads`` lists it (never its bytes)."""

    upload: int
    sha256: str
    file: str | None
    format: str | None
    size: int
    token: int
    created_at: str
    records: int

    @classmethod
    def of(cls, info: UploadInfo) -> UploadSummary:
        return cls(
            info.number,
            info.sha256,
            info.file_name,
            info.format,
            info.size,
            info.token,
            info.created_at,
            info.records,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "upload": self.upload,
            "sha256": self.sha256,
            "file": self.file,
            "format": self.format,
            "size": self.size,
            "token": self.token,
            "created_at": self.created_at,
            "records": self.records,
        }


@dataclass(frozen=True, slots=True)
class TokenView:
    """A token as its director sees it: never its secret, nor its hash."""

    number: int
    role: str
    label: str
    created_at: str
    revoked_at: str | None
    player: int | None = None
    """The pairing number of the player an upload token was made for, if any."""

    @classmethod
    def of(cls, row: TokenRow, player: int | None = None) -> TokenView:
        return cls(row.number, row.role, row.label, row.created_at, row.revoked_at, player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "role": self.role,
            "label": self.label,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
            "player": self.player,
        }


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new token and its secret, shown this once."""

    token: TokenView
    secret: str

    def to_dict(self) -> dict[str, Any]:
        return {**self.token.to_dict(), "token": self.secret}


@dataclass(frozen=True, slots=True)
class Created:
    """A new event, and its director's token (shown this once)."""

    event: EventSummary
    token: str
