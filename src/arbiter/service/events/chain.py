"""The audit trail's hash chain (``spec/events.md`` §6).

Every change to an event is an entry: its number, time, token, action, details and reason.
An entry's hash is the SHA-256 of its canonical JSON, which holds the hash of the entry
before it; the first entry's ``prev`` is 64 zeros. Changing, removing or inserting an entry
behind the service's back breaks the chain from there on, and the details of each entry
say what the tables must hold, so a change to the tables is found too
(:mod:`arbiter.service.events.verify`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["GENESIS", "Entry", "canonical", "chain_problems", "digest", "make_entry"]

GENESIS = "0" * 64
"""The ``prev`` of an event's first entry."""


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON bytes: keys sorted, no white space, UTF-8 unescaped."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(value: Any) -> str:
    """The SHA-256 (hex) of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value)).hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of an event's audit trail."""

    event: str
    number: int
    at: str
    token: int | None
    action: str
    details: dict[str, Any]
    reason: str | None
    prev: str
    hash: str

    def content(self) -> dict[str, Any]:
        """What the hash covers: everything but the hash itself."""
        return {
            "event": self.event,
            "number": self.number,
            "at": self.at,
            "token": self.token,
            "action": self.action,
            "details": self.details,
            "reason": self.reason,
            "prev": self.prev,
        }

    def expected_hash(self) -> str:
        return digest(self.content())

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``GET /api/v1/events/ID/log`` shows it."""
        return {**self.content(), "hash": self.hash}

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Entry:
        """The entry of a row of the ``log`` table."""
        return cls(
            row["event_id"],
            row["number"],
            row["at"],
            row["token"],
            row["action"],
            json.loads(row["details"]),
            row["reason"],
            row["prev"],
            row["hash"],
        )

    def row(self) -> dict[str, Any]:
        """The entry as a row of the ``log`` table (its details as JSON text)."""
        return {
            "event_id": self.event,
            "number": self.number,
            "at": self.at,
            "token": self.token,
            "action": self.action,
            "details": json.dumps(self.details, ensure_ascii=False, sort_keys=True),
            "reason": self.reason,
            "prev": self.prev,
            "hash": self.hash,
        }


def make_entry(
    event: str,
    number: int,
    at: str,
    token: int | None,
    action: str,
    details: dict[str, Any],
    reason: str | None,
    prev: str,
) -> Entry:
    """A new entry, hashed."""
    content = {
        "event": event,
        "number": number,
        "at": at,
        "token": token,
        "action": action,
        "details": details,
        "reason": reason,
        "prev": prev,
    }
    return Entry(event, number, at, token, action, details, reason, prev, digest(content))


def chain_problems(entries: list[Entry]) -> list[tuple[int, str]]:
    """Where the chain of ``entries`` (in order) breaks: (entry number, what is wrong)."""
    problems: list[tuple[int, str]] = []
    prev = GENESIS
    for expected_number, entry in enumerate(entries, 1):
        if entry.number != expected_number:
            problems.append(
                (
                    expected_number,
                    f"it is missing (entry {entry.number} follows entry {expected_number - 1})",
                )
            )
            return problems
        if entry.prev != prev:
            problems.append((entry.number, "it does not follow the entry before it"))
        if entry.expected_hash() != entry.hash:
            problems.append((entry.number, "its content does not match its hash"))
        prev = entry.hash
    return problems
