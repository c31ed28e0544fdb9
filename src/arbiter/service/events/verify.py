"""Is an event what its audit trail says? (``arbiter db verify``, ``GET .../verify``;
``spec/events.md`` §6.)

The chain of entries must be whole (each entry's hash over its content and the hash before
it), and the tables must hold exactly what the entries, replayed in order, say they hold:
the event's fields, every token (its hash, role, revocation), every upload (its bytes'
SHA-256 recomputed), every record (its upload and place, the digest of its header and
report, its status and official result). A change made behind the service's back breaks
one or the other, and the first problem says where.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from arbiter.service.events import storage
from arbiter.service.events.chain import Entry, chain_problems, digest
from arbiter.service.events.common import ACCEPTED, EXCLUDED, PENDING, EventError
from arbiter.service.events.reading import event_row
from arbiter.service.events.rows import columns
from arbiter.service.events.storage import Tx
from arbiter.service.events.store import Store

__all__ = ["Verdict", "verify_all", "verify_event", "verify_on"]


@dataclass
class _Expected:
    """What the tables must hold, as the entries replayed so far say."""

    event: dict[str, Any] = field(default_factory=dict)
    tokens: dict[int, dict[str, Any]] = field(default_factory=dict)
    uploads: dict[int, dict[str, Any]] = field(default_factory=dict)
    records: dict[int, dict[str, Any]] = field(default_factory=dict)


EVENT_FIELDS = ("name", "game", "rounds", "tiebreaks", "confirm_uploads")


def _replay(entries: list[Entry]) -> tuple[_Expected, list[tuple[int, str]]]:
    expected, problems = _Expected(), []
    for entry in entries:
        details, at = entry.details, entry.at
        try:
            _apply(expected, entry.action, details, at)
        except (KeyError, TypeError, ValueError) as err:
            problems.append((entry.number, f"its details cannot be applied ({err})"))
    return expected, problems


def _apply(expected: _Expected, action: str, details: dict[str, Any], at: str) -> None:
    if action == "event-created":
        expected.event = {name: details[name] for name in EVENT_FIELDS}
        expected.event.update(created_at=at, finalised_at=None)
        _issue(expected, details["token"], at)
    elif action == "event-changed":
        expected.event.update({k: v for k, v in details.items() if k in EVENT_FIELDS})
    elif action == "finalised":
        expected.event["finalised_at"] = at
    elif action == "token-issued":
        _issue(expected, details, at)
    elif action == "token-revoked":
        expected.tokens[details["token"]]["revoked_at"] = at
    elif action == "uploaded":
        expected.uploads[details["upload"]] = {
            "sha256": details["sha256"],
            "file_name": details["file"],
            "format": details["format"],
            "size": details["size"],
            "created_at": at,
        }
        for position, kept in enumerate(details["records"]):
            expected.records[kept["record"]] = {
                "upload": details["upload"],
                "position": position,
                "status": kept["status"],
                "digest": kept["digest"],
                "official_result": None,
            }
    elif action in ("confirmed", "reinstated"):
        expected.records[details["record"]]["status"] = ACCEPTED
    elif action == "excluded":
        expected.records[details["record"]]["status"] = EXCLUDED
    elif action == "result-set":
        expected.records[details["record"]]["official_result"] = details["result"]
    elif action == "result-cleared":
        expected.records[details["record"]]["official_result"] = None
    else:
        raise ValueError(f"unknown action {action!r}")


def _issue(expected: _Expected, token: dict[str, Any], at: str) -> None:
    expected.tokens[token["number"]] = {
        "hash": token["hash"],
        "role": token["role"],
        "label": token["label"],
        "created_at": at,
        "revoked_at": None,
    }


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an event verifies: its entries, and each problem found, in order."""

    event: str
    entries: int
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "valid": self.valid,
            "entries": self.entries,
            "problems": list(self.problems),
        }


def verify_event(store: Store, event_id: str) -> Verdict:
    """Check the chain of ``event_id`` and the tables against it."""
    with storage.reading(store) as tx:
        event_row(tx, event_id)
        return verify_on(tx, event_id)


def verify_on(tx: Tx, event_id: str) -> Verdict:
    """:func:`verify_event` in an open transaction (the import checks before it commits)."""
    found = storage.entries(tx, event_id)
    problems = [f"entry {number}: {what}" for number, what in chain_problems(found)]
    expected, unapplied = _replay(found)
    problems += [f"entry {number}: {what}" for number, what in unapplied]
    problems += _table_problems(tx, event_id, expected)
    return Verdict(event_id, len(found), tuple(problems))


def _table_problems(tx: Tx, event_id: str, expected: _Expected) -> list[str]:
    problems: list[str] = []
    row = columns(event_row(tx, event_id))
    for name, value in expected.event.items():
        if row.get(name) != value:
            problems.append(f"the event's {name} is {row.get(name)!r}; the trail says {value!r}")
    stored = {one.number: columns(one) for one in storage.token_rows(tx, event_id)}
    problems += _compare("token", stored, expected.tokens)
    stored = {}
    for upload in storage.upload_rows(tx, event_id):
        if hashlib.sha256(upload.data).hexdigest() != upload.sha256:
            problems.append(f"upload {upload.number}: its bytes do not match its SHA-256")
        stored[upload.number] = columns(upload)
    problems += _compare("upload", stored, expected.uploads)
    stored = {}
    for kept in storage.record_rows(tx, event_id):
        header = json.loads(kept.header) if kept.header else None
        if digest({"header": header, "report": json.loads(kept.report)}) != kept.digest:
            problems.append(f"record {kept.number}: its header or report was changed")
        if kept.status not in (ACCEPTED, PENDING, EXCLUDED):
            problems.append(f"record {kept.number}: its status {kept.status!r} is none known")
        stored[kept.number] = columns(kept)
    problems += _compare("record", stored, expected.records)
    return problems


def _compare(
    what: str, stored: dict[int, dict[str, Any]], expected: dict[int, dict[str, Any]]
) -> list[str]:
    problems = []
    for number in sorted(set(stored) | set(expected)):
        if number not in expected:
            problems.append(f"{what} {number} is in the tables but not in the trail")
        elif number not in stored:
            problems.append(f"{what} {number} is in the trail but not in the tables")
        else:
            for name, value in expected[number].items():
                if stored[number].get(name) != value:
                    problems.append(
                        f"{what} {number}: its {name} is {stored[number].get(name)!r}; the "
                        f"trail says {value!r}"
                    )
    return problems


def verify_all(store: Store) -> list[Verdict]:
    """Every event of the database, verified."""
    with storage.reading(store) as tx:
        ids = [row.id for row in storage.list_events(tx, newest_first=False)]
    verdicts = []
    for event_id in ids:
        try:
            verdicts.append(verify_event(store, event_id))
        except EventError as err:  # deleted while we looked
            verdicts.append(Verdict(event_id, 0, (err.message,)))
    return verdicts
