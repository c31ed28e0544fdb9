"""What anyone may read of an event (``spec/events.md`` §2, §4, §6, §7): the event, its
records, uploads and audit trail, and its standings, computed from the stored reports of
the records that count and kept per version of the event (a change bumps the version),
with their renderings."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Row, func, select

from arbiter.adjudicator.replay import TERMINATIONS, Report
from arbiter.adjudicator.standings import EventStandings, standings
from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.ast import Record, Tag
from arbiter.notation.games import find_game
from arbiter.service.events.chain import Entry
from arbiter.service.events.common import (
    ACCEPTED,
    CORRECTIONS,
    EXCLUDED,
    MAX_NUMBER,
    PENDING,
    EventError,
)
from arbiter.service.events.store import Store, events, log, records, uploads

if TYPE_CHECKING:
    from arbiter.service.core.standings_formats import StandingsFormat


def record_of(header: dict[str, Any], index: int) -> Record:
    """The record standings see: its header, no moves."""
    return Record(
        game=header["game"],
        size=header["size"],
        komi=header["komi"],
        setup=header["setup"],
        players=tuple(header["players"].items()),
        tags=tuple(Tag(name, value) for name, value in header["tags"]),
        result=header["result"],
        index=index,
    )


def event_row(conn: Connection, event_id: str) -> Row[Any]:
    row = conn.execute(select(events).where(events.c.id == event_id)).first()
    if row is None:
        raise EventError("no-such-event", f"there is no event {event_id!r}")
    return row


def event_summary(store: Store, event_id: str) -> dict[str, Any]:
    """The event as ``GET /api/v1/events/ID`` gives it (the URL is the API's to add)."""
    with store.read() as conn:
        return _summary(conn, event_row(conn, event_id))


def _summary(conn: Connection, row: Row[Any]) -> dict[str, Any]:
    counts: dict[str, int] = dict(
        conn.execute(
            select(records.c.status, func.count())
            .where(records.c.event_id == row.id)
            .group_by(records.c.status)
        ).all()
    )
    corrected = conn.scalar(
        select(func.count())
        .select_from(records)
        .where(records.c.event_id == row.id, records.c.official_result.is_not(None))
    )
    last = conn.scalar(select(func.max(log.c.at)).where(log.c.event_id == row.id))
    order = row.tiebreaks.split(",") if row.tiebreaks else list(parse_order(None))
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "rounds": row.rounds,
        "rounds_played": _rounds_played(conn, row.id),
        "tiebreaks": order,
        "confirm_uploads": row.confirm_uploads,
        "created_at": row.created_at,
        "finalised_at": row.finalised_at,
        "last_change": last,
        "version": row.version,
        "records": {
            "total": sum(counts.values()),
            ACCEPTED: counts.get(ACCEPTED, 0),
            PENDING: counts.get(PENDING, 0),
            EXCLUDED: counts.get(EXCLUDED, 0),
            "corrected": corrected or 0,
        },
    }


def _rounds_played(conn: Connection, event_id: str) -> int:
    """The highest round of a counted game (what the standings say)."""
    return max((table.rounds for table in _tables(conn, event_id)), default=0)


def version(store: Store, event_id: str) -> int:
    """The event's version: it grows with every change (an ETag for the pages' poll)."""
    with store.read() as conn:
        found = conn.scalar(select(events.c.version).where(events.c.id == event_id))
    if found is None:
        raise EventError("no-such-event", f"there is no event {event_id!r}")
    return int(found)


def record_view(row: Row[Any], sha256: str) -> dict[str, Any]:
    """One kept record as ``GET .../records`` gives it."""
    header = json.loads(row.header) if row.header else None
    return view(row._asdict(), sha256, header, json.loads(row.report))


def view(
    row: dict[str, Any], sha256: str, header: dict[str, Any] | None, report: dict[str, Any]
) -> dict[str, Any]:
    """A record's columns (``number``, ``upload``, ``round``, ``status``,
    ``official_result``) with its header and report, as the API shows it."""
    official = row["official_result"]
    return {
        "record": row["number"],
        "upload": row["upload"],
        "upload_sha256": sha256,
        "file": report["file"],
        "index": report["index"],
        "round": row["round"],
        "players": header["players"] if header else {},
        "status": row["status"],
        "official_result": official,
        "result": official or report["result"],
        "adjudicated_result": report["result"],
        "valid": report["valid"],
        "report": report,
    }


def _records_of(event_id: str) -> Any:
    """The query of an event's records, each with the SHA-256 of its upload, in order."""
    return (
        select(records, uploads.c.sha256)
        .join(
            uploads,
            (uploads.c.event_id == records.c.event_id) & (uploads.c.number == records.c.upload),
        )
        .where(records.c.event_id == event_id)
        .order_by(records.c.number)
    )


def list_records(
    store: Store, event_id: str, round_number: int | None = None
) -> list[dict[str, Any]]:
    """Every record kept for the event, in the order received (or those of one round)."""
    with store.read() as conn:
        event_row(conn, event_id)
        query = _records_of(event_id)
        if round_number is not None:
            query = query.where(records.c.round == round_number)
        return [record_view(row, row.sha256) for row in conn.execute(query)]


def record(store: Store, event_id: str, number: int) -> dict[str, Any]:
    """One record kept, as :func:`list_records` gives it."""
    if not 0 <= number <= MAX_NUMBER:
        raise EventError("no-such-record", f"the event has no record {number}")
    with store.read() as conn:
        event_row(conn, event_id)
        row = conn.execute(_records_of(event_id).where(records.c.number == number)).first()
    if row is None:
        raise EventError("no-such-record", f"the event has no record {number}")
    return record_view(row, row.sha256)


UPLOAD_COLUMNS = ("number", "sha256", "file_name", "format", "size", "token", "created_at")


def list_uploads(store: Store, event_id: str) -> list[dict[str, Any]]:
    """Every upload: number, SHA-256, file name, size, who (token number) and when."""
    with store.read() as conn:
        event_row(conn, event_id)
        described = [uploads.c[name] for name in UPLOAD_COLUMNS]  # all but the bytes
        rows = conn.execute(
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
        return [
            {
                "upload": r.number,
                "sha256": r.sha256,
                "file": r.file_name,
                "format": r.format,
                "size": r.size,
                "token": r.token,
                "created_at": r.created_at,
                "records": r.records,
            }
            for r in rows
        ]


def records_grn(store: Store, event_id: str) -> str:
    """Every record kept, in the order received, in canonical GRN (a record that cannot be
    read, or only in part, is left out: its report says why)."""
    from arbiter.service.core.batch import convert_source

    with store.read() as conn:
        event_row(conn, event_id)
        sources = conn.execute(
            select(uploads.c.file_name, uploads.c.format, uploads.c.data)
            .where(uploads.c.event_id == event_id)
            .order_by(uploads.c.number)
        ).all()
    texts = []
    for name, fmt, data in sources:
        for item in convert_source(bytes(data), to="grn", file=name, fmt=fmt):
            if item.text is not None:
                texts.append(item.text)
    return "\n".join(texts)


def upload_bytes(store: Store, event_id: str, sha256: str) -> tuple[str | None, str | None, bytes]:
    """An upload's file name, notation and bytes, exactly as sent."""
    with store.read() as conn:
        event_row(conn, event_id)
        row = conn.execute(
            select(uploads.c.file_name, uploads.c.format, uploads.c.data).where(
                uploads.c.event_id == event_id, uploads.c.sha256 == sha256.lower()
            )
        ).first()
    if row is None:
        raise EventError("no-such-upload", f"the event has no upload {sha256[:64]!r}")
    return row.file_name, row.format, bytes(row.data)


def entries(store: Store, event_id: str) -> list[Entry]:
    """The event's audit trail, in order."""
    with store.read() as conn:
        event_row(conn, event_id)
        return entries_on(conn, event_id)


def entries_on(conn: Connection, event_id: str) -> list[Entry]:
    rows = conn.execute(select(log).where(log.c.event_id == event_id).order_by(log.c.number))
    return [
        Entry(
            r.event_id,
            r.number,
            r.at,
            r.token,
            r.action,
            json.loads(r.details),
            r.reason,
            r.prev,
            r.hash,
        )
        for r in rows
    ]


def official_report(report: dict[str, Any], header: dict[str, Any], result: str) -> Report:
    """The report standings count for a record whose official result the director set: the
    adjudicator's report with that result, its winner (colours as at the end, as in a
    record's result) and its termination (``arbiter`` unless +R, +T or +F says otherwise)."""
    colours = find_game(header["game"]).colours
    colour, _, how = result.partition("+")
    started_as = colour
    if report.get("swapped"):
        started_as = colours[1] if colour == colours[0] else colours[0]
    scores = None
    if how and how not in TERMINATIONS:
        other = colours[1] if colour == colours[0] else colours[0]
        margin = float(how)
        scores = {colour: int(margin) if margin.is_integer() else margin, other: 0}
    return Report(
        **{
            **report,
            "valid": True,
            "finished": True,
            "result": result,
            "termination": TERMINATIONS.get(how, "arbiter"),
            "winner": colour,
            "winner_player": header["players"].get(started_as),
            "scores": scores,
            "tiebreak": None,
            "errors": [],
        }
    )


def counted_items(conn: Connection, event_id: str) -> list[tuple[Record | None, Report]]:
    rows = conn.execute(
        select(records.c.header, records.c.report, records.c.official_result)
        .where(records.c.event_id == event_id, records.c.status == ACCEPTED)
        .order_by(records.c.number)
    )
    items: list[tuple[Record | None, Report]] = []
    for row in rows:
        report = json.loads(row.report)
        if row.header is None:
            items.append((None, Report(**report)))
            continue
        header = json.loads(row.header)
        made = (
            official_report(report, header, row.official_result)
            if row.official_result
            else Report(**report)
        )
        items.append((record_of(header, report["index"]), made))
    return items


_TABLES: dict[tuple[str, str], tuple[int, list[EventStandings]]] = {}
"""Standings computed, by (database, event), with the event's version they were made at."""


def _tables(conn: Connection, event_id: str) -> list[EventStandings]:
    row = event_row(conn, event_id)
    key = (str(conn.engine.url), event_id)
    cached = _TABLES.get(key)
    if cached is not None and cached[0] == row.version:
        return cached[1]
    tables = standings(counted_items(conn, event_id), tiebreaks=row.tiebreaks) or [
        # nothing counts yet: one empty table, named after the event
        EventStandings(row.name, row.game, 0, _applied(row.tiebreaks, row.game), (), ())
    ]
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = (row.version, tables)
    return tables


def _applied(tiebreaks: str | None, game: str) -> tuple[str, ...]:
    """The tie-breaks standings apply: the order asked for, without margin in an unscored
    game (as :func:`~arbiter.adjudicator.standings.standings` applies them)."""
    scored = find_game(game).scored
    return tuple(name for name in parse_order(tiebreaks) if name != "margin" or scored)


def event_standings(store: Store, event_id: str) -> tuple[dict[str, Any], list[EventStandings]]:
    """The event's summary and its standings tables, computed from the stored reports of
    the records that count (never by adjudicating again), once per version of the event."""
    with store.read() as conn:
        row = event_row(conn, event_id)
        return _summary(conn, row), _tables(conn, event_id)


@dataclass(frozen=True, slots=True)
class Rendered:
    """The standings of one version of an event in one format, ready to send."""

    version: int
    body: bytes
    content_type: str


_RENDERED: dict[tuple[str, str, str], Rendered] = {}
"""Standings as sent, by (database, event, format), for the version they were made at: a
page polling the standings costs one query of the event's version until it changes."""


def standings_output(store: Store, event_id: str, fmt: StandingsFormat) -> Rendered:
    """The standings of the event in ``fmt`` (``json`` or a format of ``arbiter standings
    --format``), as of its current version. Raises ``FormatError`` when the format cannot
    hold them (a TRF of several events)."""
    from arbiter.adjudicator.standings import standings_document
    from arbiter.service.core.standings_formats import MEDIA_TYPES, render

    with store.read() as conn:
        row = event_row(conn, event_id)
        key = (str(conn.engine.url), event_id, fmt)
        cached = _RENDERED.get(key)
        if cached is not None and cached.version == row.version:
            return cached
        tables = _tables(conn, event_id)
        if fmt == "json":
            text = json.dumps(standings_document(tables), ensure_ascii=False) + "\n"
            kind = "application/json"
        else:
            planned = row.rounds
            if planned is not None and planned < max(t.rounds for t in tables):
                planned = None  # fewer planned than played: the TRF's default
            comments = _trf_comments(conn, event_id) if fmt == "trf" else ()
            text = render(tables, fmt, total_rounds=planned, comments=comments)
            kind = MEDIA_TYPES[fmt]
    done = Rendered(row.version, text.encode("utf-8", "surrogatepass"), kind)
    if len(_RENDERED) > 1024:
        _RENDERED.clear()
    _RENDERED[key] = done
    return done


def _trf_comments(conn: Connection, event_id: str) -> list[str]:
    """The corrections of the audit trail as TRF comment lines (``### ...``): when, what,
    which record, and why."""
    lines = []
    described = {
        row.number: _described(row)
        for row in conn.execute(
            select(records.c.number, records.c.round, records.c.header, records.c.report).where(
                records.c.event_id == event_id
            )
        )
    }
    for entry in entries_on(conn, event_id):
        if entry.action not in CORRECTIONS:
            continue
        number = entry.details["record"]
        what = {
            "excluded": "excluded",
            "reinstated": "counted again",
            "result-set": f"official result {entry.details.get('result')} (adjudicated "
            f"{entry.details.get('adjudicated')})",
            "result-cleared": "official result taken back: the adjudicated result counts",
        }[entry.action]
        line = (
            f"### {entry.at} correction {entry.number} by token {entry.token}: record "
            f"{number} ({described.get(number, '?')}) {what}; reason: {entry.reason or '-'}"
        )
        lines.append("".join(c if c.isprintable() else " " for c in line))
    return lines


def _described(row: Row[Any, Any, Any, Any]) -> str:
    report = json.loads(row.report)
    players = json.loads(row.header)["players"] if row.header else {}
    names = " v ".join(players.values()) or "no players"
    where = f"{report['file'] or 'body'} #{report['index'] + 1}"
    return f"round {row.round or '?'}, {names}, {where}"
