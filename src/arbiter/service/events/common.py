"""What the events modules share: statuses, roles, limits, the errors they raise, and the
time of a change (``spec/events.md``). The errors are the domain's: a face catches them
without knowing the database behind (``DatabaseError`` and its kinds are raised by the
storage layer for a database that cannot be used)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal, get_args

__all__ = [
    "ACCELERATIONS",
    "ACCEPTED",
    "BAKU",
    "CODES",
    "DIRECTOR",
    "PLAYER",
    "EXCLUDED",
    "KIND_LENGTH",
    "NO_ACCELERATION",
    "MAX_BYTES",
    "MAX_EVENT_ID",
    "MAX_FILE_NAME",
    "MAX_LABEL",
    "MAX_NAME",
    "MAX_NUMBER",
    "MAX_PROHIBITIONS",
    "MAX_REASON",
    "MAX_RECORDS",
    "MAX_ROUNDS",
    "MAX_TOKENS",
    "PENDING",
    "ROLES",
    "UNPAIRED",
    "UPLOAD",
    "Code",
    "DamagedRow",
    "DatabaseError",
    "DatabaseUnavailable",
    "EventError",
    "RowsRefused",
    "now",
]

UNPAIRED = "none"
"""The ``pairing`` an event whose records are uploaded keeps (its kind: :mod:`.kind`), the
default of every event made before events were paired."""
KIND_LENGTH = 40
"""The longest name of an event's kind the store holds (``events.pairing``)."""

DIRECTOR, UPLOAD, PLAYER = "director", "upload", "player"
ROLES = (DIRECTOR, UPLOAD, PLAYER)
"""A token's roles: the director's does everything; an upload token uploads records (for a
player, or a deputy); a player's token is made for one player of a paired event, and
uploads records of their boards, checks them in and reports their boards' results."""
PENDING, ACCEPTED, EXCLUDED = "pending", "accepted", "excluded"

NO_ACCELERATION, BAKU = "none", "baku"
ACCELERATIONS = (NO_ACCELERATION, BAKU)
"""The accelerations a paired event may give the Dutch engine: none, or FIDE's Baku
acceleration (C.04.5.1), as the pairing library computes it."""
MAX_PROHIBITIONS = 1_000
"""Prohibitions one event may have, those taken back included."""

MAX_RECORDS = 20_000
"""Records one event may hold, all uploads together (spec/events.md §8)."""
MAX_BYTES = 256 * 1024 * 1024
"""Bytes of uploads one event may hold."""
MAX_TOKENS = 1_000
"""Tokens one event may have issued, revoked ones included."""
MAX_NAME = 200
MAX_LABEL = 100
MAX_FILE_NAME = 255
"""The most characters of an upload's file name (the web face keeps a sent name's last 255)."""
MAX_EVENT_ID = 16
"""The most characters of an event's id: a longer one in a path names none."""
MAX_REASON = 2_000
MAX_ROUNDS = 999
MAX_NUMBER = 2**31 - 1
"""The largest number a record or a token may have: a larger one in a path names none
(and would not fit the database's integers)."""


Code = Literal[
    "bad-field",
    "missing-token",
    "bad-token",
    "revoked-token",
    "wrong-event",
    "not-allowed",
    "no-such-event",
    "no-such-record",
    "no-such-upload",
    "no-such-token",
    "event-finalised",
    "event-exists",
    "already-revoked",
    "last-director-token",
    "rounds-below-played",
    "not-pending",
    "already-excluded",
    "not-excluded",
    "no-official-result",
    "event-full",
    "not-text",
    "too-many-tokens",
    "cannot-correct",
    "bad-result",
    "bad-archive",
    "archive-changed",
    "not-paired-event",
    "no-such-player",
    "no-such-round",
    "no-such-board",
    "duplicate-player",
    "similar-name",
    "round-robin-started",
    "round-already-paired",
    "round-not-finished",
    "all-rounds-paired",
    "cannot-pair",
    "round-has-results",
    "not-last-round",
    "bad-pairing",
    "board-has-a-result",
    "no-board-result",
    "already-withdrawn",
    "player-withdrawn",
    "too-many-players",
    "cannot-place",
    "player-was-paired",
    "no-such-bye",
    "not-withdrawn",
    "player-changed",
    "idempotency-key-reused",
    "request-in-progress",
    "bad-name",
    "no-planned-rounds",
    "event-changed",
    "engine-limit",
    "not-your-board",
    "not-your-player",
    "no-check-in",
    "not-checked-in",
    "round-is-draft",
    "not-a-draft",
    "draft-pending",
    "too-many-webhooks",
    "webhook-address-refused",
    "no-such-webhook",
    "pairing-warnings",
    "no-such-pool",
    "acceleration-fixed",
    "round-robin-table",
    "no-such-prohibition",
    "too-many-prohibitions",
    "player-prohibited",
]
"""Every reason the events layer refuses a request, as the error bodies and the command line
name it. What each means for HTTP is the web face's to say (``web/events_api.py``)."""

CODES: tuple[Code, ...] = get_args(Code)


class EventError(Exception):
    """A request about an event refused: a stable code, a message for a person, and extra
    fields for the JSON error body. It says what was refused, not how a face answers it:
    the API maps the code to an HTTP status, the command line prints the message."""

    def __init__(self, code: Code, message: str, **extra: object) -> None:
        super().__init__(message)
        self.code: Code = code
        self.message = message
        self.extra = extra


class DatabaseError(Exception):
    """The database cannot be used: a URL of no known kind, a driver that is not installed.
    The message says which, for a person."""


class DatabaseUnavailable(DatabaseError):
    """The database did not answer, or failed what was asked of it (a server that is down,
    a lock not had in time, a URL it cannot parse, a migration that failed): ``reason`` is
    the first line of what the driver said, ``kind`` the name of its error (for logs, never
    for the client)."""

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.reason, self.kind = reason, kind


class DamagedRow(Exception):
    """A row of an event that cannot be read (a value that should be JSON and is not:
    changed behind the service's back, or damaged on disk): the ``table``, the row
    (``where``: ``entry 7``, ``round 2``, ``record 3``) and what is wrong. Verification says
    it as a problem of its event and goes on; the faces answer that event's reads with a
    clear 5xx, the other events unaffected."""

    def __init__(self, event: str, table: str, where: str, why: str) -> None:
        super().__init__(f"{table}, {where}: {why}")
        self.event, self.table, self.where, self.why = event, table, where, why

    @property
    def words(self) -> str:
        """``the log table, entry 7: its details are not JSON (...)``."""
        return f"the {self.table} table, {self.where}: {self.why}"


class RowsRefused(DatabaseError):
    """The database refused rows given to it whole (an archive's, on import): ``kind`` and
    ``detail`` are the name and text of the driver's error."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def now() -> str:
    """The time of a change: UTC, to the millisecond, ISO 8601 (``2026-11-25T17:02:03.456Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
