"""What counts of an event's records, as standings read it (``spec/events.md`` §7): each
record that counts as a record of the event, with the official result the director set,
and the standings tables of an event whose records are uploaded. The reads of every kind of
event, and its changes, count records this one way."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from arbiter.adjudicator.replay import TERMINATIONS, Report
from arbiter.adjudicator.standings import EventStandings, standings
from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.ast import Record, Tag
from arbiter.notation.games import find_game
from arbiter.service.events import storage
from arbiter.service.events.rows import EventRow, RecordRow
from arbiter.service.events.storage import Tx

__all__ = [
    "applied_tiebreaks",
    "counted_items",
    "official_report",
    "record_of",
    "record_tables",
    "rounds_played",
    "tables_after",
    "total_rounds",
    "wrong_game",
]


def record_of(header: dict[str, Any], index: int, event: str | None = None) -> Record:
    """The record standings see: its header, no moves; with ``event``, its ``Event`` tag
    is that name (a record counts for the event it was uploaded to, whatever its tag says)."""
    tags = [Tag(name, value) for name, value in header["tags"]]
    if event is not None:
        tags = [tag for tag in tags if tag.name != "Event"] + [Tag("Event", event)]
    return Record(
        game=header["game"],
        size=header["size"],
        komi=header["komi"],
        setup=header["setup"],
        players=tuple(header["players"].items()),
        tags=tuple(tags),
        result=header["result"],
        index=index,
    )


def wrong_game(report: dict[str, Any], named: str, game: str) -> dict[str, Any]:
    """The report of a record of ``named`` kept in an event of ``game``: refused as a
    record of the event (invalid, its first error ``wrong-game`` naming both games), the
    adjudicator's verdict of it as a game of its own kept beside."""
    error = {
        "code": "wrong-game",
        "message": f"the record is a game of {named}; this event is of {game}",
        "game": named,
        "event_game": game,
    }
    return {**report, "valid": False, "errors": [error, *report.get("errors", [])]}


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


def counted_items(rows: list[RecordRow], event: EventRow) -> list[tuple[Record | None, Report]]:
    """What standings count of the records of ``event`` that count: each one's header as a
    record of the event (whatever its ``Event`` tag says) and its report, with the official
    result if set. A record that could not be read, or that is a game of another game than
    the event's (one kept before such records were refused), is none: it never counts."""
    items: list[tuple[Record | None, Report]] = []
    for row in rows:
        report = json.loads(row.report)
        header = json.loads(row.header) if row.header else None
        if header is None or header["game"] != event.game:
            if header is not None:
                report = wrong_game(report, header["game"], event.game)
            items.append((None, Report(**report)))
            continue
        made = (
            official_report(report, header, row.official_result)
            if row.official_result
            else Report(**report)
        )
        items.append((record_of(header, report["index"], event.name), made))
    return items


def rounds_played(rows: list[RecordRow], event: EventRow) -> int:
    """The highest round of a counted game among the records of ``event`` that count
    (``rows``), as the standings say; computed afresh (a change needs it as it stands in its
    transaction)."""
    return max((table.rounds for table in standings(counted_items(rows, event))), default=0)


def record_tables(tx: Tx, row: EventRow) -> list[EventStandings]:
    """The standings of the records of ``row`` that count: one table, named after the
    event, even when nothing counts yet."""
    counted = counted_items(storage.counted_records(tx, row.id), row)
    return [_named(table, row) for table in standings(counted, tiebreaks=row.tiebreaks)] or [
        # nothing counts yet: one empty table, named after the event
        EventStandings(row.name, row.game, 0, applied_tiebreaks(row.tiebreaks, row.game), (), ())
    ]


def _named(table: EventStandings, row: EventRow) -> EventStandings:
    """The event's table: every record that counts names the event (:func:`counted_items`),
    so the only other table standings make is that of records none of which counts, which
    is the event's all the same."""
    if table.event is not None:
        return table
    return replace(
        table,
        event=row.name,
        game=row.game,
        tiebreak_order=applied_tiebreaks(row.tiebreaks, row.game),
    )


def applied_tiebreaks(tiebreaks: str | None, game: str) -> tuple[str, ...]:
    """The tie-breaks standings apply: the order asked for, without margin in an unscored
    game (as :func:`~arbiter.adjudicator.standings.standings` applies them)."""
    scored = find_game(game).scored
    return tuple(name for name in parse_order(tiebreaks) if name != "margin" or scored)


def tables_after(tx: Tx, row: EventRow, round_number: int) -> list[EventStandings]:
    """The standings of ``row``'s records after ``round_number``: the games of the rounds
    after it (and those of no round) left out."""
    rows = [
        one
        for one in storage.counted_records(tx, row.id)
        if one.round is not None and one.round <= round_number
    ]
    return standings(counted_items(rows, row), tiebreaks=row.tiebreaks)


def total_rounds(event: EventRow, tables: Sequence[EventStandings]) -> int | None:
    """The rounds a TRF's ``142`` and ``XXR`` give: those planned, or the default (one more than
    played) when none are planned or fewer than played."""
    planned = event.rounds
    if planned is not None and planned < max((t.rounds for t in tables), default=0):
        return None
    return planned
