"""The storage contract: every SQL statement of the events layer, each a named function over
an open transaction, taking and giving the plain values of :mod:`.rows` (``spec/events.md``
§1). The rules, operations, reads, verification and archives above it, and the faces, know
neither SQL nor SQLAlchemy: they open a transaction with :func:`reading`, :func:`writing` or
:func:`restoring` and call these functions in it.

A failure of the database (a server that went away, a lock not had in time) is raised as the
domain's :class:`~arbiter.service.events.common.DatabaseUnavailable`; only rows that the
database refuses while an archive is restored are :class:`~.common.RowsRefused`. Every
other error of a statement is a bug, and goes up as it is.

The tables themselves, the engines and the URLs are :mod:`.store`'s.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    BindParameter,
    Connection,
    Executable,
    Insert,
    Row,
    Select,
    Table,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    union,
    update,
)
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from arbiter.service.events.chain import Entry
from arbiter.service.events.common import ACCEPTED, DIRECTOR, DamagedRow, RowsRefused
from arbiter.service.events.rows import (
    AnswerRow,
    ChainEnd,
    ChangeFacts,
    CheckinRow,
    DeliveryRow,
    EventRow,
    Holdings,
    PairingRow,
    PlayerRow,
    RecordCounts,
    RecordRow,
    ReportRow,
    RequestRow,
    ResultRow,
    TokenRow,
    UploadInfo,
    UploadRow,
    UploadSource,
    WebhookRow,
    columns,
)
from arbiter.service.events.store import (
    Store,
    checkins,
    deliveries,
    events,
    idempotency,
    log,
    pairings,
    players,
    records,
    reports,
    requests,
    results,
    tokens,
    unavailable,
    uploads,
    webhooks,
)

__all__ = [
    "ONE_STATEMENT_RECORDS",
    "RESTORED",
    "Tx",
    "admission",
    "append_entries",
    "append_entry",
    "change_facts",
    "count_directors",
    "count_tokens",
    "counted_records",
    "delete_pairing",
    "delete_player",
    "delete_request",
    "delete_result",
    "entries",
    "entry_hashes",
    "event_exists",
    "event_row",
    "event_version",
    "event_versions",
    "find_token",
    "glancing",
    "holdings",
    "insert_event",
    "insert_records",
    "insert_token",
    "insert_upload",
    "keep_answer",
    "keep_request",
    "keep_upload",
    "kept_answer",
    "kept_records",
    "last_entry",
    "latest_entry",
    "list_events",
    "lock_event",
    "orphan_event_ids",
    "pairing_rows",
    "placed_records",
    "player_rows",
    "put_pairing",
    "put_players",
    "put_request",
    "checkin_rows",
    "claim_entries",
    "delivery_rows",
    "due_deliveries",
    "entries_after",
    "finish_delivery",
    "insert_webhook",
    "remove_webhook",
    "take_delivery",
    "webhook_rows",
    "webhooks_behind",
    "delete_checkin",
    "delete_reports",
    "put_checkin",
    "put_report",
    "report_rows",
    "put_result",
    "reading",
    "record_counts",
    "record_row",
    "record_rows",
    "request_rows",
    "restore_event",
    "restore_record",
    "restore_rows",
    "restore_token",
    "restore_upload",
    "restoring",
    "result_rows",
    "set_version",
    "token_row",
    "token_rows",
    "update_event",
    "update_record",
    "update_token",
    "upload_info",
    "upload_infos",
    "upload_number",
    "upload_rows",
    "upload_source",
    "upload_sources",
    "once",
    "writing",
]


# --- transactions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tx:
    """An open transaction. The layers above hold it and pass it back to the functions of
    this module; they never look inside. A read transaction (``read_only``) keeps what
    was read in it by :func:`once`: the database does not change under it."""

    connection: Connection
    read_only: bool = False
    kept: dict[tuple[str, ...], Any] = field(default_factory=dict)


T = TypeVar("T")

_READING: ContextVar[tuple[str, Tx] | None] = ContextVar("arbiter_events_reading", default=None)
"""The read transaction open in this context, by its database's URL: the reads made inside
it join it (:func:`reading`)."""


@contextlib.contextmanager
def reading(store: Store) -> Iterator[Tx]:
    """A read transaction: one consistent view of the database. A read asked while one of
    the same database is open in this context joins it, so that a page made of many reads
    reads one view, in one transaction."""
    open_now = _READING.get()
    if open_now is not None and open_now[0] == store.url:
        yield open_now[1]
        return
    try:
        with store.read() as conn:
            tx = Tx(conn, read_only=True)
            token = _READING.set((store.url, tx))
            try:
                yield tx
            finally:
                _READING.reset(token)
    except OperationalError as err:
        raise unavailable(err) from err


def once(tx: Tx, key: tuple[str, ...], read: Callable[[], T]) -> T:
    """What ``read`` gives, read once per read transaction (``key`` names it); in a
    write transaction, read each time (the change writes between its reads)."""
    if not tx.read_only:
        return read()
    if key not in tx.kept:
        tx.kept[key] = read()
    found: T = tx.kept[key]
    return found


@contextlib.contextmanager
def glancing(store: Store) -> Iterator[Tx]:
    """A read of one statement, which is its own consistent view: on PostgreSQL outside a
    transaction (one round trip, where a read transaction takes three)."""
    open_now = _READING.get()
    if open_now is not None and open_now[0] == store.url:
        yield open_now[1]
        return
    try:
        with store.glance() as conn:
            yield Tx(conn)
    except OperationalError as err:
        raise unavailable(err) from err


@contextlib.contextmanager
def writing(store: Store) -> Iterator[Tx]:
    """A write transaction, committed at the end of the block and rolled back if the block
    raises: a change and its audit entry are kept together or not at all. On SQLite it holds
    the write lock from its start (``BEGIN IMMEDIATE``); on PostgreSQL :func:`lock_event`,
    the first statement of every change, locks the event's row."""
    try:
        with store.write() as conn:
            yield Tx(conn)
    except OperationalError as err:
        raise unavailable(err) from err


@contextlib.contextmanager
def restoring(store: Store) -> Iterator[Tx]:
    """A write transaction for rows that come from outside (an archive): any error of the
    database, the commit's included, is :class:`~.common.RowsRefused`, nothing is kept."""
    try:
        with store.write() as conn:
            yield Tx(conn)
    except SQLAlchemyError as err:
        raise RowsRefused(type(err).__name__, str(err)) from err


# --- events -------------------------------------------------------------------------------


def lock_event(tx: Tx, event_id: str) -> EventRow | None:
    """Bump the event's ``version`` and give its row (None: no such event). The first
    statement of every change: on PostgreSQL it locks the row until the commit, so the
    changes to one event are made one at a time."""
    row = tx.connection.execute(_LOCK, {"event_id": event_id}).first()
    return None if row is None else EventRow(**row._asdict())


# The statements of an upload's way, made once with their parameters named (built again for
# each call, a statement costs more than the database's work on it, and the event is locked).
_LOCK = (
    update(events)
    .where(events.c.id == bindparam("event_id"))
    .values(version=events.c.version + 1)
    .returning(*events.c)
)


def set_version(tx: Tx, event_id: str, version: int) -> None:
    """Set the event's ``version`` to the number of its trail's last entry: the last
    statement of every change, so that the version a reader sees follows from the trail."""
    tx.connection.execute(update(events).where(events.c.id == event_id).values(version=version))


def insert_event(tx: Tx, row: EventRow) -> None:
    tx.connection.execute(insert(events).values(**columns(row)))


def update_event(tx: Tx, row: EventRow) -> None:
    """Keep what a change may change of an event: its name, planned rounds, tie-breaks,
    whether players' uploads wait, and when it was finalised."""
    tx.connection.execute(
        update(events)
        .where(events.c.id == row.id)
        .values(
            name=row.name,
            rounds=row.rounds,
            tiebreaks=row.tiebreaks,
            confirm_uploads=row.confirm_uploads,
            finalised_at=row.finalised_at,
        )
    )


def event_row(tx: Tx, event_id: str) -> EventRow | None:
    return once(tx, ("event", event_id), lambda: _event_row(tx, event_id))


def _event_row(tx: Tx, event_id: str) -> EventRow | None:
    row = tx.connection.execute(select(events).where(events.c.id == event_id)).first()
    return None if row is None else EventRow(**row._asdict())


_TOKEN = "token_"
"""The prefix of a token's columns beside another table's in one statement."""


def _token_columns() -> list[Any]:
    return [column.label(_TOKEN + column.name) for column in tokens.c]


def _token_of(row: Mapping[str, Any]) -> TokenRow | None:
    """The token of a row of :func:`_token_columns` (None: no token has the hash)."""
    if row[_TOKEN + "number"] is None:
        return None
    return TokenRow(**{column.name: row[_TOKEN + column.name] for column in tokens.c})


def admission(tx: Tx, event_id: str, token_hash: str) -> tuple[EventRow, TokenRow | None] | None:
    """The event's row and the token whose secret has this SHA-256 (of whatever event), in
    one statement (None: no such event)."""
    row = tx.connection.execute(
        _ADMISSION, {"event_id": event_id, "token_hash": token_hash}
    ).first()
    if row is None:
        return None
    found = row._asdict()
    event = EventRow(**{column.name: found[column.name] for column in events.c})
    return event, _token_of(found)


_ADMISSION = (
    select(events, *_token_columns())
    .select_from(events.outerjoin(tokens, tokens.c.hash == bindparam("token_hash")))
    .where(events.c.id == bindparam("event_id"))
)


def event_exists(tx: Tx, event_id: str) -> bool:
    found = tx.connection.execute(select(events.c.id).where(events.c.id == event_id)).first()
    return found is not None


def event_version(tx: Tx, event_id: str) -> int | None:
    if tx.read_only:  # in a read that goes on, the whole row: the next reads want it
        row = event_row(tx, event_id)
        return None if row is None else row.version
    found = tx.connection.scalar(_VERSION, {"event_id": event_id})
    return None if found is None else int(found)


_VERSION = select(events.c.version).where(events.c.id == bindparam("event_id"))

MAX_VERSIONS = 5000
"""Events whose versions one statement reads at most: a statement's bound parameters are
limited (SQLite's 32,766, PostgreSQL's 65,535), and this keeps well inside both."""


def event_versions(tx: Tx, event_ids: Sequence[str]) -> dict[str, int]:
    """The versions of those of ``event_ids`` that exist, by id, in one statement (the pages'
    streams follow every event listened to with it). Raises ``ValueError`` for more than
    :data:`MAX_VERSIONS` ids."""
    if len(event_ids) > MAX_VERSIONS:
        raise ValueError(f"{len(event_ids)} events asked at once; at most {MAX_VERSIONS}")
    if not event_ids:
        return {}
    found = tx.connection.execute(_VERSIONS, {"event_ids": list(event_ids)})
    return {row.id: int(row.version) for row in found}


_VERSIONS = select(events.c.id, events.c.version).where(
    events.c.id.in_(bindparam("event_ids", expanding=True))
)


def list_events(tx: Tx, *, newest_first: bool, limit: int | None = None) -> list[EventRow]:
    """The events by creation, newest or oldest first, at most ``limit`` of them."""
    order = events.c.created_at.desc() if newest_first else events.c.created_at
    query = select(events).order_by(order)
    if limit is not None:
        query = query.limit(limit)
    return [EventRow(**row._asdict()) for row in tx.connection.execute(query)]


def record_counts(tx: Tx, event_id: str) -> RecordCounts:
    """How many records the event holds of each status, and how many have an official
    result, in one statement."""
    by_status: dict[str, int] = {}
    corrected = 0
    for status, count, official in tx.connection.execute(
        select(records.c.status, func.count(), func.count(records.c.official_result))
        .where(records.c.event_id == event_id)
        .group_by(records.c.status)
    ).all():
        by_status[status] = int(count)
        corrected += int(official or 0)
    return RecordCounts(by_status, corrected)


# --- tokens -------------------------------------------------------------------------------


def find_token(tx: Tx, token_hash: str) -> TokenRow | None:
    """The token whose secret has this SHA-256, of whatever event."""
    row = tx.connection.execute(select(tokens).where(tokens.c.hash == token_hash)).first()
    return None if row is None else TokenRow(**row._asdict())


def token_row(tx: Tx, event_id: str, number: int) -> TokenRow | None:
    row = tx.connection.execute(
        select(tokens).where(tokens.c.event_id == event_id, tokens.c.number == number)
    ).first()
    return None if row is None else TokenRow(**row._asdict())


def token_rows(tx: Tx, event_id: str) -> list[TokenRow]:
    query = select(tokens).where(tokens.c.event_id == event_id).order_by(tokens.c.number)
    return [TokenRow(**row._asdict()) for row in tx.connection.execute(query)]


def count_tokens(tx: Tx, event_id: str) -> int:
    """The tokens the event has issued, revoked ones included."""
    found = tx.connection.scalar(
        select(func.count()).select_from(tokens).where(tokens.c.event_id == event_id)
    )
    return int(found or 0)


def count_directors(tx: Tx, event_id: str) -> int:
    """The event's director tokens not revoked."""
    found = tx.connection.scalar(
        select(func.count())
        .select_from(tokens)
        .where(
            tokens.c.event_id == event_id,
            tokens.c.role == DIRECTOR,
            tokens.c.revoked_at.is_(None),
        )
    )
    return int(found or 0)


def insert_token(tx: Tx, row: TokenRow) -> None:
    tx.connection.execute(insert(tokens).values(**columns(row)))


def update_token(tx: Tx, row: TokenRow) -> None:
    """Keep what a change may change of a token: its revocation."""
    tx.connection.execute(
        update(tokens)
        .where(tokens.c.event_id == row.event_id, tokens.c.number == row.number)
        .values(revoked_at=row.revoked_at)
    )


# --- the audit trail ----------------------------------------------------------------------


def last_entry(tx: Tx, event_id: str) -> Entry | None:
    """The event's last entry, whole (None: no entry)."""
    return once(tx, ("last entry", event_id), lambda: _last_entry(tx, event_id))


def _last_entry(tx: Tx, event_id: str) -> Entry | None:
    row = tx.connection.execute(
        select(log).where(log.c.event_id == event_id).order_by(log.c.number.desc()).limit(1)
    ).first()
    return None if row is None else _entry(row._asdict())


def change_facts(
    tx: Tx, event_id: str, token_hash: str, sources: Sequence[str] | None = None
) -> ChangeFacts:
    """What a change reads once the event is locked, in one statement: the token whose
    secret has this SHA-256 (of whatever event) and the event's last entry; for an upload
    (``sources``: the SHA-256 of each of its sources), what the event holds and which of
    those sources it keeps already."""
    shas = list(dict.fromkeys(sources or ()))
    given = {"event_id": event_id, "token_hash": token_hash}
    given.update((f"sha_{n}", sha) for n, sha in enumerate(shas))
    statement = _facts(None if sources is None else len(shas))
    row = tx.connection.execute(statement, given).one()._asdict()
    end = None if row["end_number"] is None else ChainEnd(row["end_number"], row["end_hash"])
    if sources is None:
        return ChangeFacts(_token_of(row), end)
    held = Holdings(int(row["uploads"]), int(row["bytes"]), int(row["records"]))
    known = {sha: int(row[f"known_{n}"]) for n, sha in enumerate(shas) if row[f"known_{n}"]}
    return ChangeFacts(_token_of(row), end, held, known)


@functools.lru_cache(maxsize=32)
def _facts(sources: int | None) -> Executable:
    """The statement of :func:`change_facts` for a change (None) or an upload of
    ``sources`` sources (parameters ``event_id``, ``token_hash``, ``sha_0``...)."""
    event_id: BindParameter[Any] = bindparam("event_id")
    last = (
        select(log.c.number, log.c.hash)
        .where(log.c.event_id == event_id)
        .order_by(log.c.number.desc())
        .limit(1)
        .subquery()
    )
    wanted: list[Any] = [
        *_token_columns(),
        select(last.c.number).scalar_subquery().label("end_number"),
        select(last.c.hash).scalar_subquery().label("end_hash"),
    ]
    if sources is not None:
        wanted += _holdings(event_id)
        wanted += [
            select(uploads.c.number)
            .where(uploads.c.event_id == event_id, uploads.c.sha256 == bindparam(f"sha_{n}"))
            .scalar_subquery()
            .label(f"known_{n}")
            for n in range(sources)
        ]
    one = select(literal(1).label("one")).subquery()
    token = one.outerjoin(tokens, tokens.c.hash == bindparam("token_hash"))
    return select(*wanted).select_from(token)


def orphan_event_ids(tx: Tx) -> list[str]:
    """The event ids that a row of any table of an event (its trail, tokens, uploads,
    records, players, pairings, byes asked for, board results, webhooks and their
    deliveries) names but the ``events`` table does not hold (an event deleted behind the
    service's back), sorted."""
    named = union(
        *(
            select(table.c.event_id)
            for table in (
                log,
                tokens,
                uploads,
                records,
                players,
                pairings,
                requests,
                results,
                checkins,
                reports,
                webhooks,
                deliveries,
            )  # fmt: skip
        )
    ).subquery()
    rows = tx.connection.execute(
        select(named.c.event_id)
        .where(named.c.event_id.not_in(select(events.c.id)))
        .distinct()
        .order_by(named.c.event_id)
    )
    return [row.event_id for row in rows]


def append_entry(tx: Tx, entry: Entry) -> None:
    tx.connection.execute(insert(log).values(**entry.row()))


def append_entries(tx: Tx, found: Sequence[Entry]) -> None:
    """Entries appended in one statement, however many there are."""
    if found:
        tx.connection.execute(insert(log), [entry.row() for entry in found])


def latest_entry(
    tx: Tx, event_id: str, actions: Sequence[str], about: Mapping[str, int]
) -> Entry | None:
    """The event's last entry of one of ``actions`` whose details give each key of
    ``about`` its number (``{"record": 5}``, ``{"round": 2, "board": 3}``): the entry that
    made what a change sent again finds made already. Details are kept as JSON with their
    keys sorted, so a number stands after its key, followed by a comma or the end of the
    object; each candidate is checked on its details as read."""
    query = select(log).where(log.c.event_id == event_id, log.c.action.in_(list(actions)))
    for key, number in about.items():
        said = f'"{key}": {int(number)}'
        query = query.where(log.c.details.like(f"%{said},%") | log.c.details.like(f"%{said}}}%"))
    for row in tx.connection.execute(query.order_by(log.c.number.desc()).limit(50)):
        entry = _entry(row._asdict())
        if all(entry.details.get(key) == number for key, number in about.items()):
            return entry
    return None


def entries(tx: Tx, event_id: str) -> list[Entry]:
    """The event's trail, in order."""
    return list(once(tx, ("entries", event_id), lambda: _entries(tx, event_id)))


def _entries(tx: Tx, event_id: str) -> list[Entry]:
    rows = tx.connection.execute(
        select(log).where(log.c.event_id == event_id).order_by(log.c.number)
    )
    return [_entry(row._asdict()) for row in rows]


def _entry(row: Mapping[str, Any]) -> Entry:
    """The entry of a row of ``log``; :class:`~.common.DamagedRow` when its details are not
    a JSON object."""
    try:
        entry = Entry.from_row(row)
    except ValueError as err:
        raise DamagedRow(
            row["event_id"], "log", f"entry {row['number']}", f"its details are not JSON ({err})"
        ) from None
    if not isinstance(entry.details, dict):
        raise DamagedRow(
            row["event_id"], "log", f"entry {row['number']}", "its details are not a JSON object"
        )
    return entry


def entry_hashes(tx: Tx, event_id: str) -> list[str]:
    """The hash of each entry of the event's trail, in order, read without their details
    (a receipt needs no more, whatever the details hold)."""
    rows = tx.connection.execute(
        select(log.c.hash).where(log.c.event_id == event_id).order_by(log.c.number)
    )
    return [row.hash for row in rows]


# --- uploads ------------------------------------------------------------------------------


def holdings(tx: Tx, event_id: str) -> Holdings:
    """What the event holds, in one statement."""
    held = tx.connection.execute(_HOLDINGS, {"event_id": event_id}).one()
    return Holdings(int(held.uploads), int(held.bytes), int(held.records))


def _holdings(event_id: BindParameter[Any]) -> list[Any]:
    """What the event holds, as the columns ``uploads``, ``bytes`` and ``records``."""
    return [
        select(func.count())
        .where(uploads.c.event_id == event_id)
        .scalar_subquery()
        .label("uploads"),
        select(func.coalesce(func.sum(uploads.c.size), 0))
        .where(uploads.c.event_id == event_id)
        .scalar_subquery()
        .label("bytes"),
        select(func.count())
        .where(records.c.event_id == event_id)
        .scalar_subquery()
        .label("records"),
    ]


def upload_number(tx: Tx, event_id: str, sha256: str) -> int | None:
    """The number of the event's upload of these bytes, if it has one."""
    found = tx.connection.scalar(
        select(uploads.c.number).where(uploads.c.event_id == event_id, uploads.c.sha256 == sha256)
    )
    return None if found is None else int(found)


def insert_upload(tx: Tx, row: UploadRow) -> None:
    tx.connection.execute(insert(uploads).values(**columns(row)))


ONE_STATEMENT_RECORDS = 50
"""The most records an upload may hold for :func:`keep_upload` to write it in one statement
on PostgreSQL."""


def keep_upload(tx: Tx, upload: UploadRow, rows: Sequence[RecordRow], entry: Entry) -> None:
    """A new upload, its records and the trail's entry that records them. On PostgreSQL in
    one statement (one round trip while the event is locked: the upload and each record
    written by ``WITH`` before the entry); on SQLite, and for an upload of more than
    :data:`ONE_STATEMENT_RECORDS` records, one statement each."""
    if tx.connection.dialect.name != "postgresql" or len(rows) > ONE_STATEMENT_RECORDS:
        insert_upload(tx, upload)
        insert_records(tx, rows)
        append_entry(tx, entry)
        return
    given = {f"log_{name}": value for name, value in entry.row().items()}
    given.update((f"upload_{name}", value) for name, value in columns(upload).items())
    for n, row in enumerate(rows):
        given.update((f"record_{n}_{name}", value) for name, value in columns(row).items())
    tx.connection.execute(_keeping(len(rows)), given)


@functools.lru_cache(maxsize=ONE_STATEMENT_RECORDS + 1)
def _keeping(count: int) -> Insert:
    """The statement of :func:`keep_upload` for an upload of ``count`` records: each row in
    a ``WITH`` of its own (a statement of one row is made once, one of several rows would
    be compiled at every call)."""

    def named(table: Table, prefix: str) -> dict[str, BindParameter[Any]]:
        return {column.name: bindparam(prefix + column.name) for column in table.c}

    statement = insert(log).values(named(log, "log_"))
    statement = statement.add_cte(insert(uploads).values(named(uploads, "upload_")).cte("upload"))
    for n in range(count):
        added = insert(records).values(named(records, f"record_{n}_")).cte(f"record_{n}")
        statement = statement.add_cte(added)
    return statement


_HOLDINGS = select(*_holdings(bindparam("event_id")))


_DESCRIBED = ("number", "sha256", "file_name", "format", "size", "token", "created_at")
"""An upload's columns but its bytes."""


def upload_info(tx: Tx, event_id: str, number: int) -> UploadInfo | None:
    """An upload without its bytes, and its records' count."""
    found = upload_infos(tx, event_id, number=number)
    return found[0] if found else None


def upload_infos(tx: Tx, event_id: str, *, number: int | None = None) -> list[UploadInfo]:
    """The event's uploads (or one of them) without their bytes, each with its records'
    count, in order."""
    described = [uploads.c[name] for name in _DESCRIBED]
    query = (
        select(*described, func.count(records.c.number).label("records"))
        .join(
            records,
            (records.c.event_id == uploads.c.event_id) & (records.c.upload == uploads.c.number),
            isouter=True,
        )
        .where(uploads.c.event_id == event_id)
        .group_by(*described)
        .order_by(uploads.c.number)
    )
    if number is not None:
        query = query.where(uploads.c.number == number)
    return [UploadInfo(**row._asdict()) for row in tx.connection.execute(query)]


def upload_sources(tx: Tx, event_id: str) -> list[UploadSource]:
    """Every upload's bytes with its file name and notation, in order."""
    rows = tx.connection.execute(
        select(uploads.c.file_name, uploads.c.format, uploads.c.data)
        .where(uploads.c.event_id == event_id)
        .order_by(uploads.c.number)
    )
    return [UploadSource(row.file_name, row.format, bytes(row.data)) for row in rows]


def upload_source(tx: Tx, event_id: str, sha256: str) -> UploadSource | None:
    """The bytes of the event's upload with this SHA-256 (as given, in lower case)."""
    row = tx.connection.execute(
        select(uploads.c.file_name, uploads.c.format, uploads.c.data).where(
            uploads.c.event_id == event_id, uploads.c.sha256 == sha256
        )
    ).first()
    return None if row is None else UploadSource(row.file_name, row.format, bytes(row.data))


def upload_rows(tx: Tx, event_id: str) -> Iterator[UploadRow]:
    """Every upload with its bytes, in order, one at a time (to be read inside the
    transaction)."""
    query = select(uploads).where(uploads.c.event_id == event_id).order_by(uploads.c.number)
    for row in tx.connection.execute(query):
        yield UploadRow(**{**row._asdict(), "data": bytes(row.data)})


# --- records ------------------------------------------------------------------------------


def insert_records(tx: Tx, rows: Sequence[RecordRow]) -> None:
    """All the records of an upload in one statement (executemany)."""
    if rows:
        tx.connection.execute(insert(records), [columns(row) for row in rows])


def record_row(tx: Tx, event_id: str, number: int) -> RecordRow | None:
    row = tx.connection.execute(
        select(records).where(records.c.event_id == event_id, records.c.number == number)
    ).first()
    return None if row is None else RecordRow(**row._asdict())


def update_record(tx: Tx, row: RecordRow) -> None:
    """Keep what a change may change of a record: its status, official result and board."""
    tx.connection.execute(
        update(records)
        .where(records.c.event_id == row.event_id, records.c.number == row.number)
        .values(
            status=row.status,
            official_result=row.official_result,
            board_round=row.board_round,
            board=row.board,
            placement=row.placement,
            seats=row.seats,
        )
    )


def kept_records(
    tx: Tx,
    event_id: str,
    *,
    round_number: int | None = None,
    number: int | None = None,
    upload: int | None = None,
) -> list[tuple[RecordRow, str]]:
    """The event's records in order, each with the SHA-256 of its upload: all of them, or
    those of one round, the one of a number, or those of one upload."""
    query = _kept_query(event_id)
    if round_number is None and number is None and upload is None:
        return _every_kept(tx, event_id, query)
    if round_number is not None:
        query = query.where(records.c.round == round_number)
    if number is not None:
        query = query.where(records.c.number == number)
    if upload is not None:
        query = query.where(records.c.upload == upload)
    return _kept(tx, query)


def _kept_query(event_id: str) -> Select[Any]:
    """The event's records in order, each with its upload's SHA-256."""
    return (
        select(records, uploads.c.sha256)
        .join(
            uploads,
            (uploads.c.event_id == records.c.event_id) & (uploads.c.number == records.c.upload),
        )
        .where(records.c.event_id == event_id)
        .order_by(records.c.number)
    )


def _kept(tx: Tx, query: Select[Any]) -> list[tuple[RecordRow, str]]:
    return [_record_with_sha(row) for row in tx.connection.execute(query)]


def _every_kept(tx: Tx, event_id: str, query: Select[Any]) -> list[tuple[RecordRow, str]]:
    """Every record of the event with its upload's SHA-256, read once per read transaction."""
    return list(once(tx, ("records", event_id), lambda: _kept(tx, query)))


def _every_record(tx: Tx, event_id: str) -> list[RecordRow] | None:
    """In a read transaction, every record of the event, read once in it (whichever of the
    reads of records asks first); None in a write transaction, whose reads ask each time."""
    if not tx.read_only:
        return None
    query = _kept_query(event_id)
    return [row for row, _ in _every_kept(tx, event_id, query)]


def _record_with_sha(row: Row[Any]) -> tuple[RecordRow, str]:
    found = row._asdict()
    sha256 = found.pop("sha256")
    return RecordRow(**found), str(sha256)


def counted_records(tx: Tx, event_id: str) -> list[RecordRow]:
    """The records that count (``accepted``), in order."""
    every = _every_record(tx, event_id)
    if every is not None:
        return [row for row in every if row.status == ACCEPTED]
    query = (
        select(records)
        .where(records.c.event_id == event_id, records.c.status == ACCEPTED)
        .order_by(records.c.number)
    )
    return [RecordRow(**row._asdict()) for row in tx.connection.execute(query)]


def record_rows(tx: Tx, event_id: str) -> list[RecordRow]:
    """All the event's records, in order."""
    every = _every_record(tx, event_id)
    if every is not None:
        return every
    query = select(records).where(records.c.event_id == event_id).order_by(records.c.number)
    return [RecordRow(**row._asdict()) for row in tx.connection.execute(query)]


# --- the players and rounds of a paired event ---------------------------------------------


def player_rows(tx: Tx, event_id: str) -> list[PlayerRow]:
    """The event's players, by pairing number."""
    query = select(players).where(players.c.event_id == event_id).order_by(players.c.number)
    return [PlayerRow(**row._asdict()) for row in tx.connection.execute(query)]


_PLAYER_CHANGED = (
    update(players)
    .where(players.c.event_id == bindparam("b_event_id"), players.c.id == bindparam("b_id"))
    .values(
        number=bindparam("b_number"),
        name=bindparam("b_name"),
        rating=bindparam("b_rating"),
        federation=bindparam("b_federation"),
        fide_id=bindparam("b_fide_id"),
        withdrawn_from=bindparam("b_withdrawn_from"),
    )
)


def put_players(tx: Tx, changed: Sequence[PlayerRow], added: Sequence[PlayerRow] = ()) -> None:
    """Keep players as they are now: ``changed`` ones (their number, name, rating,
    federation, id and withdrawal set; a player's id in the event never changes) in one
    statement, ``added`` ones in another, however many there are."""
    if changed:
        tx.connection.execute(
            _PLAYER_CHANGED,
            [{f"b_{name}": value for name, value in columns(row).items()} for row in changed],
        )
    if added:
        tx.connection.execute(insert(players), [columns(row) for row in added])


def delete_player(tx: Tx, event_id: str, player: int) -> None:
    """Take a player (by id) out of the event, with the byes they asked for."""
    tx.connection.execute(
        delete(requests).where(requests.c.event_id == event_id, requests.c.player == player)
    )
    tx.connection.execute(
        delete(players).where(players.c.event_id == event_id, players.c.id == player)
    )


def delete_request(tx: Tx, event_id: str, round_number: int, player: int) -> None:
    """Take back a bye a player asked for."""
    tx.connection.execute(
        delete(requests).where(
            requests.c.event_id == event_id,
            requests.c.round == round_number,
            requests.c.player == player,
        )
    )


def pairing_rows(tx: Tx, event_id: str) -> list[PairingRow]:
    """The event's paired rounds, in order."""
    query = select(pairings).where(pairings.c.event_id == event_id).order_by(pairings.c.round)
    return [PairingRow(**row._asdict()) for row in tx.connection.execute(query)]


def put_pairing(tx: Tx, row: PairingRow) -> None:
    """Keep a round's pairing (a new one, or the one the director put in its place)."""
    delete_pairing(tx, row.event_id, row.round)
    tx.connection.execute(insert(pairings).values(**columns(row)))


def delete_pairing(tx: Tx, event_id: str, round_number: int) -> None:
    tx.connection.execute(
        delete(pairings).where(pairings.c.event_id == event_id, pairings.c.round == round_number)
    )


def request_rows(tx: Tx, event_id: str) -> list[RequestRow]:
    """The byes asked for, by round and player."""
    query = (
        select(requests)
        .where(requests.c.event_id == event_id)
        .order_by(requests.c.round, requests.c.player)
    )
    return [RequestRow(**row._asdict()) for row in tx.connection.execute(query)]


def put_request(tx: Tx, row: RequestRow) -> None:
    tx.connection.execute(
        delete(requests).where(
            requests.c.event_id == row.event_id,
            requests.c.round == row.round,
            requests.c.player == row.player,
        )
    )
    tx.connection.execute(insert(requests).values(**columns(row)))


def checkin_rows(tx: Tx, event_id: str) -> list[CheckinRow]:
    """Who checked in for which round, by round and player."""
    query = (
        select(checkins)
        .where(checkins.c.event_id == event_id)
        .order_by(checkins.c.round, checkins.c.player)
    )
    return [CheckinRow(**row._asdict()) for row in tx.connection.execute(query)]


def put_checkin(tx: Tx, row: CheckinRow) -> None:
    """Keep a player's check-in for a round."""
    tx.connection.execute(insert(checkins).values(**columns(row)))


def delete_checkin(tx: Tx, event_id: str, round_number: int, player: int) -> None:
    """Take back a player's check-in for a round."""
    tx.connection.execute(
        delete(checkins).where(
            checkins.c.event_id == event_id,
            checkins.c.round == round_number,
            checkins.c.player == player,
        )
    )


def report_rows(tx: Tx, event_id: str) -> list[ReportRow]:
    """The results players reported for their boards, by round, board and player."""
    query = (
        select(reports)
        .where(reports.c.event_id == event_id)
        .order_by(reports.c.round, reports.c.board, reports.c.player)
    )
    return [ReportRow(**row._asdict()) for row in tx.connection.execute(query)]


def put_report(tx: Tx, row: ReportRow) -> None:
    """Keep a player's report of their board's result (in place of the one before)."""
    tx.connection.execute(
        delete(reports).where(
            reports.c.event_id == row.event_id,
            reports.c.round == row.round,
            reports.c.board == row.board,
            reports.c.player == row.player,
        )
    )
    tx.connection.execute(insert(reports).values(**columns(row)))


def delete_reports(tx: Tx, event_id: str, round_number: int) -> None:
    """Take back every report of a round (its pairing taken back)."""
    tx.connection.execute(
        delete(reports).where(reports.c.event_id == event_id, reports.c.round == round_number)
    )


def result_rows(tx: Tx, event_id: str) -> list[ResultRow]:
    """The results the director gave boards, by round and board."""
    query = (
        select(results)
        .where(results.c.event_id == event_id)
        .order_by(results.c.round, results.c.board)
    )
    return [ResultRow(**row._asdict()) for row in tx.connection.execute(query)]


def put_result(tx: Tx, row: ResultRow) -> None:
    delete_result(tx, row.event_id, row.round, row.board)
    tx.connection.execute(insert(results).values(**columns(row)))


def delete_result(tx: Tx, event_id: str, round_number: int, board: int) -> None:
    tx.connection.execute(
        delete(results).where(
            results.c.event_id == event_id,
            results.c.round == round_number,
            results.c.board == board,
        )
    )


def placed_records(tx: Tx, event_id: str) -> list[RecordRow]:
    """The records of the event that stand on a board (counting or not yet confirmed)."""
    every = _every_record(tx, event_id)
    if every is not None:
        return [row for row in every if row.board is not None]
    query = (
        select(records)
        .where(records.c.event_id == event_id, records.c.board.is_not(None))
        .order_by(records.c.number)
    )
    return [RecordRow(**row._asdict()) for row in tx.connection.execute(query)]


# --- answers kept for an Idempotency-Key ----------------------------------------------------


def kept_answer(tx: Tx, scope: str, key_hash: str) -> AnswerRow | None:
    """The answer kept for a key in ``scope`` (an event's id, or the empty id of a
    creation), if any."""
    row = tx.connection.execute(
        select(idempotency).where(
            idempotency.c.event_id == scope, idempotency.c.key_hash == key_hash
        )
    ).first()
    if row is None:
        return None
    found = row._asdict()
    body = found["body"]
    return AnswerRow(
        scope, key_hash, found["fingerprint"], found["entry"], found["status"],
        None if body is None else bytes(body), found["created_at"],
    )  # fmt: skip


def keep_request(tx: Tx, row: AnswerRow, forget_before: str) -> None:
    """Keep a key's request (its answer to come), in the change it made; forget the answers
    of ``scope`` kept before ``forget_before``."""
    tx.connection.execute(
        delete(idempotency).where(
            idempotency.c.event_id == row.scope, idempotency.c.created_at < forget_before
        )
    )
    tx.connection.execute(
        insert(idempotency).values(
            event_id=row.scope, key_hash=row.key_hash, fingerprint=row.fingerprint,
            entry=row.entry, status=row.status, body=row.body, created_at=row.created_at,
        )
    )  # fmt: skip


def keep_answer(tx: Tx, scope: str, key_hash: str, status: int, body: bytes) -> None:
    """The answer to a key's request, once made."""
    tx.connection.execute(
        update(idempotency)
        .where(idempotency.c.event_id == scope, idempotency.c.key_hash == key_hash)
        .values(status=status, body=body)
    )


# --- an archive's rows --------------------------------------------------------------------
# As read from an archive's event.json, unchecked: the database is what refuses a row of
# the wrong shape (in a transaction of :func:`restoring`), and its error says what was wrong.


def restore_event(tx: Tx, row: Mapping[str, Any]) -> None:
    tx.connection.execute(insert(events).values(**row))


def restore_token(tx: Tx, row: Mapping[str, Any]) -> None:
    tx.connection.execute(insert(tokens).values(**row))


def restore_upload(tx: Tx, row: Mapping[str, Any], data: bytes) -> None:
    tx.connection.execute(insert(uploads).values(**row, data=data))


def restore_record(tx: Tx, row: Mapping[str, Any]) -> None:
    tx.connection.execute(insert(records).values(**row))


RESTORED = {
    "players": players,
    "pairings": pairings,
    "requests": requests,
    "results": results,
    "checkins": checkins,
    "reports": reports,
    "webhooks": webhooks,
    "deliveries": deliveries,
}
"""The tables of a paired event an archive carries, by their name in ``event.json``."""


def restore_rows(tx: Tx, table: str, row: Mapping[str, Any]) -> None:
    """One row of ``table`` (a name of :data:`RESTORED`) as an archive holds it."""
    tx.connection.execute(insert(RESTORED[table]).values(**row))


# --- webhooks and their deliveries ----------------------------------------------------------


def webhook_rows(tx: Tx, event_id: str) -> list[WebhookRow]:
    """The event's webhooks, removed ones included, by number."""
    query = select(webhooks).where(webhooks.c.event_id == event_id).order_by(webhooks.c.number)
    return [WebhookRow(**row._asdict()) for row in tx.connection.execute(query)]


def insert_webhook(tx: Tx, row: WebhookRow) -> None:
    tx.connection.execute(insert(webhooks).values(**columns(row)))


def remove_webhook(tx: Tx, event_id: str, number: int, at: str) -> None:
    """Keep a webhook's removal; what waited to be sent to it is cancelled."""
    tx.connection.execute(
        update(webhooks)
        .where(webhooks.c.event_id == event_id, webhooks.c.number == number)
        .values(removed_at=at)
    )
    tx.connection.execute(
        update(deliveries)
        .where(
            deliveries.c.event_id == event_id,
            deliveries.c.webhook == number,
            deliveries.c.status.in_(WAITING),
        )
        .values(status="cancelled")
    )


WAITING = ("pending", "sending", "retrying")
"""The statuses of a delivery not yet done with (``sending``: taken by a deliverer until its
``next_at``, after which another may take it again)."""


def delivery_rows(tx: Tx, event_id: str, per_webhook: int | None) -> list[DeliveryRow]:
    """The event's last ``per_webhook`` deliveries of each webhook (None: all of them), by
    webhook, newest first."""
    if per_webhook is None:
        every = (
            select(deliveries)
            .where(deliveries.c.event_id == event_id)
            .order_by(deliveries.c.webhook, deliveries.c.entry.desc())
        )
        return [DeliveryRow(**row._asdict()) for row in tx.connection.execute(every)]
    rank = (
        func.row_number()
        .over(partition_by=deliveries.c.webhook, order_by=deliveries.c.entry.desc())
        .label("rank")
    )
    ranked = select(deliveries, rank).where(deliveries.c.event_id == event_id).subquery()
    query = (
        select(*(ranked.c[column.name] for column in deliveries.c))
        .where(ranked.c.rank <= per_webhook)
        .order_by(ranked.c.webhook, ranked.c.entry.desc())
    )
    return [DeliveryRow(**row._asdict()) for row in tx.connection.execute(query)]


def webhooks_behind(tx: Tx, limit: int) -> list[WebhookRow]:
    """Webhooks not removed whose event's trail goes past the last entry considered for
    them (at most ``limit``, those furthest behind first)."""
    query = (
        select(webhooks)
        .join(events, events.c.id == webhooks.c.event_id)
        .where(webhooks.c.removed_at.is_(None), webhooks.c.seen < events.c.version)
        .order_by(webhooks.c.seen - events.c.version, webhooks.c.event_id, webhooks.c.number)
        .limit(limit)
    )
    return [WebhookRow(**row._asdict()) for row in tx.connection.execute(query)]


def entries_after(tx: Tx, event_id: str, after: int, limit: int) -> list[Entry]:
    """The event's entries after number ``after``, in order, at most ``limit``."""
    rows = tx.connection.execute(
        select(log)
        .where(log.c.event_id == event_id, log.c.number > after)
        .order_by(log.c.number)
        .limit(limit)
    )
    return [_entry(row._asdict()) for row in rows]


def claim_entries(tx: Tx, webhook: WebhookRow, seen: int, claimed: Sequence[DeliveryRow]) -> bool:
    """Move the webhook's last entry considered from where ``webhook`` says to ``seen``, and
    keep the deliveries ``claimed`` of the entries between: only if no other process moved
    it meanwhile (False: one did, and nothing is written)."""
    moved = tx.connection.execute(
        update(webhooks)
        .where(
            webhooks.c.event_id == webhook.event_id,
            webhooks.c.number == webhook.number,
            webhooks.c.seen == webhook.seen,
        )
        .values(seen=seen)
    )
    if moved.rowcount != 1:
        return False
    if claimed:
        tx.connection.execute(insert(deliveries), [columns(row) for row in claimed])
    return True


def due_deliveries(tx: Tx, at: str, limit: int) -> list[tuple[DeliveryRow, WebhookRow]]:
    """For each webhook not removed, its first delivery not done with, when it is due by
    ``at`` (a webhook's changes are sent in the order of the trail, each after the one
    before is done with), with the webhook; at most ``limit``, the longest due first."""
    first = (
        select(
            deliveries.c.event_id,
            deliveries.c.webhook,
            func.min(deliveries.c.entry).label("entry"),
        )
        .where(deliveries.c.status.in_(WAITING))
        .group_by(deliveries.c.event_id, deliveries.c.webhook)
        .subquery()
    )
    hook = [column.label("hook_" + column.name) for column in webhooks.c]
    query = (
        select(deliveries, *hook)
        .join(
            first,
            (first.c.event_id == deliveries.c.event_id)
            & (first.c.webhook == deliveries.c.webhook)
            & (first.c.entry == deliveries.c.entry),
        )
        .join(
            webhooks,
            (webhooks.c.event_id == deliveries.c.event_id)
            & (webhooks.c.number == deliveries.c.webhook),
        )
        .where(webhooks.c.removed_at.is_(None), deliveries.c.next_at <= at)
        .order_by(deliveries.c.next_at)
        .limit(limit)
    )
    found = []
    for row in tx.connection.execute(query):
        values = row._asdict()
        delivery = DeliveryRow(**{column.name: values[column.name] for column in deliveries.c})
        hooked = {column.name: values["hook_" + column.name] for column in webhooks.c}
        found.append((delivery, WebhookRow(**hooked)))
    return found


def take_delivery(tx: Tx, row: DeliveryRow, at: str, until: str) -> bool:
    """Take a delivery to make its next attempt, as ``row`` found it (``sending`` until
    ``until``): False when another process took it meanwhile."""
    taken = tx.connection.execute(
        update(deliveries)
        .where(
            deliveries.c.event_id == row.event_id,
            deliveries.c.webhook == row.webhook,
            deliveries.c.entry == row.entry,
            deliveries.c.status == row.status,
            deliveries.c.attempts == row.attempts,
            deliveries.c.next_at == row.next_at,
        )
        .values(status="sending", attempts=row.attempts + 1, attempted_at=at, next_at=until)
    )
    return taken.rowcount == 1


def finish_delivery(tx: Tx, row: DeliveryRow) -> None:
    """Keep what an attempt got: the delivery's status, when the next attempt may be, and
    the receiver's answer or why there was none. A delivery cancelled meanwhile (its webhook
    removed) stays so."""
    tx.connection.execute(
        update(deliveries)
        .where(
            deliveries.c.event_id == row.event_id,
            deliveries.c.webhook == row.webhook,
            deliveries.c.entry == row.entry,
            deliveries.c.status == "sending",
        )
        .values(
            status=row.status,
            next_at=row.next_at,
            delivered_at=row.delivered_at,
            http_status=row.http_status,
            error=row.error,
        )
    )
