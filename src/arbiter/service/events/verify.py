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
import time
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, TypeVar

from arbiter.service.events import storage
from arbiter.service.events.actions import (
    Finalised,
    PlayerFacts,
    RecordFacts,
    State,
    TokenFacts,
    Uploaded,
    UploadFacts,
    replay,
)
from arbiter.service.events.chain import Entry, chain_problems, digest
from arbiter.service.events.common import ACCEPTED, EXCLUDED, PENDING, DamagedRow, EventError
from arbiter.service.events.paired.boards import pairing_facts, prohibition_facts
from arbiter.service.events.reading import event_row, version
from arbiter.service.events.receipts import Receipt, receipt_problems
from arbiter.service.events.rows import RecordRow, TokenRow, UploadRow
from arbiter.service.events.rules import round_of_tags
from arbiter.service.events.storage import Tx
from arbiter.service.events.store import Store
from arbiter.service.events.webhooks import facts_of

__all__ = ["Verdict", "receipts_held", "verify_all", "verify_event", "verify_on"]

K = TypeVar("K")
R = TypeVar("R")
F = TypeVar("F")


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


def verify_event(store: Store, event_id: str, *, kept: bool = False) -> Verdict:
    """Check the chain of ``event_id`` and the tables against it. With ``kept`` (what the
    API's reads ask), the verdict of a large event (:data:`KEPT_ENTRIES` entries or more)
    made at its current version less than :data:`KEPT_SECONDS` ago is answered again: such
    an event is verified once, not for every reader, and a change made behind the service's
    back (which leaves the version as it was) is still found within that time."""
    key = (store.url, event_id)
    found = _VERDICTS.get(key) if kept else None
    if found is not None and time.monotonic() - found[1] < KEPT_SECONDS:
        if found[0] == version(store, event_id):
            return found[2]
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        made = verify_on(tx, event_id)
    if kept and made.entries >= KEPT_ENTRIES:
        if len(_VERDICTS) > 256:
            _VERDICTS.clear()
        _VERDICTS[key] = (row.version, time.monotonic(), made)
    return made


KEPT_SECONDS = 60.0
"""How long a large event's verdict is answered again to the API's readers, at the same
version."""
KEPT_ENTRIES = 1_000
"""The trail from which an event is large: its verification takes a while (an event of
2,000 players and 1,000 records some seconds)."""
_VERDICTS: dict[tuple[str, str], tuple[int, float, Verdict]] = {}
"""Verdicts made, by (database, event): the event's version, when, and the verdict."""


def verify_on(tx: Tx, event_id: str) -> Verdict:
    """:func:`verify_event` in an open transaction (the import checks before it commits). A
    row that cannot be read is a problem of the event, named with its table and row."""
    try:
        return _verified(tx, event_id)
    except DamagedRow as err:
        return Verdict(event_id, 0, (f"{err.words}: it cannot be read, nor the event checked",))


def _verified(tx: Tx, event_id: str) -> Verdict:
    found = storage.entries(tx, event_id)
    if not found:
        return Verdict(event_id, 0, ("the event has no trail: not one entry records it",))
    problems = [f"entry {number}: {what}" for number, what in chain_problems(found)]
    problems += _after_finalised(found)
    expected, unapplied = replay(found)
    problems += [f"entry {number}: {what}" for number, what in unapplied]
    problems += _table_problems(tx, event_id, expected)
    problems += _derived_problems(tx, event_id, found)
    return Verdict(event_id, len(found), tuple(problems))


def _after_finalised(found: list[Entry]) -> list[str]:
    """A finalised event is read-only: no entry may follow the one that finalised it."""
    for position, entry in enumerate(found[:-1]):
        if entry.action == Finalised.NAME:
            return [
                f"entry {later.number}: it was made after the event was finalised "
                f"(entry {entry.number})"
                for later in found[position + 1 :]
            ]
    return []


def _derived_problems(tx: Tx, event_id: str, found: list[Entry]) -> list[str]:
    """The columns that follow from the trail without being stated by an entry's details:
    the event's version (the number of its last entry), who uploaded each upload (the
    token of its entry), and each record's round (its header's ``Round`` tag, which the
    digest covers)."""
    problems = []
    row = event_row(tx, event_id)
    if row.version != found[-1].number:
        problems.append(
            f"the event's version is {row.version}; the trail ends at entry {found[-1].number}"
        )
    uploaders = {
        entry.details.get("upload"): entry.token
        for entry in found
        if entry.action == Uploaded.NAME and isinstance(entry.details, Mapping)
    }
    for upload in storage.upload_infos(tx, event_id):
        said = uploaders.get(upload.number)
        if upload.number in uploaders and upload.token != said:
            problems.append(
                f"upload {upload.number}: it was sent with token {upload.token}; "
                f"the trail says token {said}"
            )
    for kept in storage.record_rows(tx, event_id):
        header, _ = _read_record(kept)
        tags = [tuple(tag) for tag in header["tags"]] if isinstance(header, dict) else []
        expected = round_of_tags(tags) if header is not None else None
        if kept.round != expected:
            problems.append(
                f"record {kept.number}: its round is {kept.round!r}; its header says {expected!r}"
            )
    return problems


def _table_problems(tx: Tx, event_id: str, expected: State) -> list[str]:
    """Where the tables hold other than the trail says, in the order of the tables."""
    problems: list[str] = []
    row = event_row(tx, event_id)
    for name in expected.event.said:
        stored, value = getattr(row, name), getattr(expected.event, name)
        if stored != value:
            problems.append(f"the event's {name} is {stored!r}; the trail says {value!r}")
    tokens = {one.number: one for one in storage.token_rows(tx, event_id)}
    problems += _compare("token", tokens, expected.tokens)
    uploads: dict[int, UploadRow] = {}
    for upload in storage.upload_rows(tx, event_id):
        if hashlib.sha256(upload.data).hexdigest() != upload.sha256:
            problems.append(f"upload {upload.number}: its bytes do not match its SHA-256")
        uploads[upload.number] = upload
    problems += _compare("upload", uploads, expected.uploads)
    records: dict[int, RecordRow] = {}
    for kept in storage.record_rows(tx, event_id):
        header, report = _read_record(kept)
        if report is None:
            problems.append(f"record {kept.number}: its header or report is not JSON")
        elif digest({"header": header, "report": report}) != kept.digest:
            problems.append(f"record {kept.number}: its header or report was changed")
        if kept.status not in (ACCEPTED, PENDING, EXCLUDED):
            problems.append(f"record {kept.number}: its status {kept.status!r} is none known")
        records[kept.number] = kept
    problems += _compare("record", records, expected.records)
    problems += _paired_problems(tx, event_id, expected)
    problems += _webhook_problems(tx, event_id, expected)
    return problems


def _read_record(kept: RecordRow) -> tuple[Any, Any]:
    """A record's header and report as kept (the report None when either is not JSON)."""
    try:
        return (json.loads(kept.header) if kept.header else None), json.loads(kept.report)
    except ValueError:
        return None, None


def _paired_problems(tx: Tx, event_id: str, expected: State) -> list[str]:
    """The players, pairings, byes asked for, board results, check-ins, reports and
    prohibitions of a paired event against the trail (each empty for an event not
    paired)."""
    problems = []
    players = {row.id: PlayerFacts.of(row) for row in storage.player_rows(tx, event_id)}
    problems += _facts_compare("player", players, expected.players)
    rounds = ((row.round, row) for row in storage.pairing_rows(tx, event_id))
    problems += _read_compare("round", rounds, pairing_facts, expected.pairings)
    asked = {(r.round, r.player): r.kind for r in storage.request_rows(tx, event_id)}
    problems += _facts_compare("bye asked in round, by player", asked, expected.requests)
    given = {(r.round, r.board): r.result for r in storage.result_rows(tx, event_id)}
    problems += _facts_compare("result of round, board", given, expected.results)
    present = {(r.round, r.player): r.at for r in storage.checkin_rows(tx, event_id)}
    problems += _facts_compare("check-in for round, by player", present, expected.checkins)
    told = {(r.round, r.board, r.player): r.result for r in storage.report_rows(tx, event_id)}
    problems += _facts_compare("report of round, board, by player", told, expected.reports)
    prohibited = ((row.number, row) for row in storage.prohibition_rows(tx, event_id))
    problems += _read_compare("prohibition", prohibited, prohibition_facts, expected.prohibitions)
    return problems


def _read_compare(
    what: str, rows: Iterable[tuple[K, R]], read: Callable[[R], F], expected: Mapping[K, F]
) -> list[str]:
    """Rows, by key, read as facts by ``read`` and compared with the trail's
    (:func:`_facts_compare`): a row that cannot be read (:class:`DamagedRow`) is a problem
    of its own, and is not compared."""
    problems = []
    facts: dict[K, F] = {}
    damaged: set[K] = set()
    for key, row in rows:
        try:
            facts[key] = read(row)
        except DamagedRow as err:
            problems.append(f"{what} {key}: {err.why}")
            damaged.add(key)
    said = {key: one for key, one in expected.items() if key not in damaged}
    return problems + _facts_compare(what, facts, said)


def _webhook_problems(tx: Tx, event_id: str, expected: State) -> list[str]:
    """The webhooks against the trail: their URLs, kinds of change, when each was added
    and removed (what the deliverer keeps beside them is not the trail's)."""
    kept = {row.number: facts_of(row) for row in storage.webhook_rows(tx, event_id)}
    return _facts_compare("webhook", kept, expected.webhooks)


def _facts_compare(what: str, stored: Mapping[Any, Any], expected: Mapping[Any, Any]) -> list[str]:
    """Each stored value against the trail's, by key; facts field by field, by name."""
    problems = []
    for key in sorted(set(stored) | set(expected)):
        shown = ", ".join(map(str, key)) if isinstance(key, tuple) else str(key)
        if key not in expected:
            problems.append(f"{what} {shown} is in the tables but not in the trail")
        elif key not in stored:
            problems.append(f"{what} {shown} is in the trail but not in the tables")
        elif stored[key] != expected[key] and is_dataclass(stored[key]):
            for name in (one.name for one in fields(stored[key])):
                found, value = getattr(stored[key], name), getattr(expected[key], name)
                if found != value:
                    problems.append(
                        f"{what} {shown}: its {name} is {_shown(found)}; the trail says "
                        f"{_shown(value)}"
                    )
        elif stored[key] != expected[key]:
            problems.append(
                f"{what} {shown} is {_shown(stored[key])}; the trail says {_shown(expected[key])}"
            )
    return problems


def _shown(value: Any) -> str:
    """A value as a problem says it: a text quoted, a number as it is, boards and byes as
    lists (never a Python object's form)."""
    if isinstance(value, tuple):
        value = json.loads(json.dumps(value))
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)


def _compare(
    what: str,
    stored: Mapping[int, TokenRow | UploadRow | RecordRow],
    expected: Mapping[int, TokenFacts] | Mapping[int, UploadFacts] | Mapping[int, RecordFacts],
) -> list[str]:
    """Each row against the facts the trail gives it, field by field (a fact's field has the
    name of its column)."""
    problems = []
    for number in sorted(set(stored) | set(expected)):
        if number not in expected:
            problems.append(f"{what} {number} is in the tables but not in the trail")
        elif number not in stored:
            problems.append(f"{what} {number} is in the trail but not in the tables")
        else:
            facts = expected[number]
            for name in (one.name for one in fields(facts)):
                found, value = getattr(stored[number], name), getattr(facts, name)
                if found != value:
                    problems.append(
                        f"{what} {number}: its {name} is {found!r}; the trail says {value!r}"
                    )
    return problems


def verify_all(store: Store) -> list[Verdict]:
    """Every event of the database, verified; and every event id that the other tables
    name but the events table does not hold (an event deleted behind the service's back,
    its trail or uploads left behind)."""
    with storage.reading(store) as tx:
        ids = [row.id for row in storage.list_events(tx, newest_first=False)]
        orphans = storage.orphan_event_ids(tx)
    verdicts = [
        Verdict(orphan, 0, ("its trail or rows remain, but the event itself was deleted",))
        for orphan in orphans
    ]
    for event_id in ids:
        try:
            verdicts.append(verify_event(store, event_id))
        except EventError as err:  # deleted while we looked
            verdicts.append(Verdict(event_id, 0, (err.message,)))
        except DamagedRow as err:  # one event's damage is that event's problem, not the run's
            verdicts.append(Verdict(event_id, 0, (err.words,)))
    return verdicts


def receipts_held(store: Store, receipts: Sequence[Receipt], trusted: Set[str]) -> list[str]:
    """What the receipts find wrong with the database (:func:`.receipts.receipt_problems`):
    each receipt's event must still be held, with its entry and its hash, and be signed by
    a trusted key. Events are read as they are now; an event whose ``events`` row was
    deleted is deleted, whatever of it remains in the other tables."""
    hashes: dict[str, list[str]] = {}
    with storage.reading(store) as tx:
        for event_id in sorted({receipt.head.event for receipt in receipts}):
            if storage.event_exists(tx, event_id):
                hashes[event_id] = storage.entry_hashes(tx, event_id)
    return receipt_problems(receipts, set(trusted), hashes)
