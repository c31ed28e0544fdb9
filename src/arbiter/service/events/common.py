"""What the events modules share: statuses, roles, limits, the error they raise, and the
time of a change (``spec/events.md``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

DIRECTOR, UPLOAD = "director", "upload"
ROLES = (DIRECTOR, UPLOAD)
PENDING, ACCEPTED, EXCLUDED = "pending", "accepted", "excluded"

MAX_RECORDS = 20_000
"""Records one event may hold, all uploads together (spec/events.md §8)."""
MAX_BYTES = 256 * 1024 * 1024
"""Bytes of uploads one event may hold."""
MAX_TOKENS = 1_000
"""Tokens one event may have issued, revoked ones included."""
MAX_NAME = 200
MAX_LABEL = 100
MAX_REASON = 2_000
MAX_ROUNDS = 999
MAX_NUMBER = 2**31 - 1
"""The largest number a record or a token may have: a larger one in a path names none
(and would not fit the database's integers)."""

CORRECTIONS = ("excluded", "reinstated", "result-set", "result-cleared")
"""The actions that change what counts or its result: the TRF carries them as comments."""


class EventError(Exception):
    """A request about an event refused: its HTTP status, a stable code, a message for a
    person, and extra fields for the JSON error body."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def now() -> str:
    """The time of a change: UTC, to the millisecond, ISO 8601 (``2026-11-25T17:02:03.456Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
