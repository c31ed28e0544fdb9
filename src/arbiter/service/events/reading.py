"""What anyone may read of an event (``spec/events.md`` §2, §4, §6, §7): the event, its
records, uploads and audit trail, and its standings, computed from the stored reports of
the records that count and kept per version of the event (a change bumps the version),
with their renderings. Each read is one read transaction of the storage contract
(:mod:`.storage`); what it gives is a typed value of :mod:`.views`."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from arbiter.adjudicator.standings import EventStandings
from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.service.events import rules, storage
from arbiter.service.events.actions import ACTIONS, Paired, Replay, State, correction, parse
from arbiter.service.events.chain import GENESIS, Entry
from arbiter.service.events.common import ACCEPTED, EXCLUDED, PENDING, EventError
from arbiter.service.events.counted import total_rounds
from arbiter.service.events.kind import RecordGuide
from arbiter.service.events.kinds import kind_of
from arbiter.service.events.receipts import Head
from arbiter.service.events.rows import EventRow, RecordRow, UploadSource
from arbiter.service.events.storage import Tx
from arbiter.service.events.store import Store
from arbiter.service.events.views import (
    EventSummary,
    RecordTotals,
    RecordView,
    UploadSummary,
)

if TYPE_CHECKING:
    from arbiter.service.core.standings_formats import StandingsFormat

__all__ = [
    "RENDERINGS",
    "Rendered",
    "Renderings",
    "entries",
    "event_row",
    "event_standings",
    "event_summary",
    "event_versions",
    "list_events",
    "list_records",
    "list_uploads",
    "one_view",
    "record",
    "record_view",
    "records_grn",
    "records_output",
    "standings_output",
    "upload_bytes",
    "version",
    "view",
]


def event_row(tx: Tx, event_id: str) -> EventRow:
    """The event's row; ``no-such-event`` when there is none (or the id could name none)."""
    return rules.found_event(storage.event_row(tx, rules.event_id(event_id)), event_id)


def list_events(store: Store, *, newest_first: bool, limit: int | None = None) -> list[EventRow]:
    """The events of the database by creation, newest or oldest first."""
    with storage.reading(store) as tx:
        return storage.list_events(tx, newest_first=newest_first, limit=limit)


PAIRED_ACTIONS = frozenset(name for name, kind in ACTIONS.items() if issubclass(kind, Paired))
"""The actions of a paired event: the TRF carries them as ``###`` lines."""


def chain_head(store: Store, event_id: str) -> Head:
    """The event's head: its last entry's number, hash and time (what a receipt signs)."""
    with storage.reading(store) as tx:
        event_row(tx, event_id)
        return _head(tx, event_id)


def _head(tx: Tx, event_id: str) -> Head:
    last = storage.last_entry(tx, event_id)
    if last is None:  # an event is created with its first entry: only a damaged one lacks it
        return Head(event_id, 0, GENESIS, "")
    return Head(event_id, last.number, last.hash, last.at)


def event_summary(store: Store, event_id: str) -> EventSummary:
    """The event as ``GET /api/v1/events/ID`` gives it (the URL is the API's to add)."""
    with storage.reading(store) as tx:
        return _summary(store, tx, event_row(tx, event_id))


def _summary(store: Store, tx: Tx, row: EventRow) -> EventSummary:
    """The event's summary, made once per read transaction."""
    return storage.once(tx, ("summary", row.id), lambda: _made_summary(store, tx, row))


def _made_summary(store: Store, tx: Tx, row: EventRow) -> EventSummary:
    counts = storage.record_counts(tx, row.id)
    head = _head(tx, row.id)
    order = row.tiebreaks.split(",") if row.tiebreaks else list(parse_order(None))
    totals = RecordTotals(
        total=sum(counts.by_status.values()),
        accepted=counts.by_status.get(ACCEPTED, 0),
        pending=counts.by_status.get(PENDING, 0),
        excluded=counts.by_status.get(EXCLUDED, 0),
        corrected=counts.corrected,
    )
    return EventSummary(
        id=row.id,
        name=row.name,
        game=row.game,
        rounds=row.rounds,
        rounds_played=max((table.rounds for table in _tables(store, tx, row)), default=0),
        tiebreaks=tuple(order),
        confirm_uploads=row.confirm_uploads,
        created_at=row.created_at,
        finalised_at=row.finalised_at,
        last_change=head.at or None,
        version=row.version,
        records=totals,
        head=head,
        pairing=row.pairing,
        bye_points=row.bye_points,
        half_byes=row.half_byes,
        check_in=row.check_in,
        acceleration=row.acceleration,
        paired=kind_of(row).paired,
    )


@contextlib.contextmanager
def one_view(store: Store) -> Iterator[None]:
    """Every read made inside reads one view of the database, in one read transaction: a
    page made of many reads (its event, standings, games and trail) sees one state of the
    event, and costs one transaction."""
    with storage.reading(store):
        yield


def version(store: Store, event_id: str) -> int:
    """The event's version: it grows with every change (an ETag for the pages' poll, and
    the key of the reads kept). One statement; on PostgreSQL, one round trip."""
    with storage.glancing(store) as tx:
        found = storage.event_version(tx, rules.event_id(event_id))
    if found is None:
        raise rules.no_such_event(event_id)
    return found


def event_versions(store: Store, event_ids: Iterable[str]) -> dict[str, int]:
    """The versions of those of ``event_ids`` that exist (an id that could name no event is
    left out, never looked up), in one statement however many: what the pages' streams
    (``spec/events.md`` §10) follow. Raises ``ValueError`` for more ids than
    :data:`~.storage.MAX_VERSIONS`."""
    asked = sorted({one for one in event_ids if rules.names_an_event(one)})
    if not asked:
        return {}
    with storage.glancing(store) as tx:
        return storage.event_versions(tx, asked)


def record_view(
    row: RecordRow, sha256: str, event: str, boards: RecordGuide | None = None
) -> RecordView:
    """One kept record of the event named ``event`` as ``GET .../records`` gives it (with
    ``boards``, a paired event's: what its names say of its board, or the boards it fits)."""
    header = json.loads(row.header) if row.header else None
    return view(row, sha256, header, json.loads(row.report), event, boards)


def view(
    row: RecordRow,
    sha256: str,
    header: dict[str, Any] | None,
    report: dict[str, Any],
    event: str,
    boards: RecordGuide | None = None,
) -> RecordView:
    """A record's row with its header and report (read already), as the API shows it, with
    what a director of the event named ``event`` should look at in it (and in a paired
    event, ``boards``: the warnings of its names, or the boards it fits best)."""
    official = row.official_result
    warned, suggested = boards.told(row, header) if boards is not None else ((), ())
    return RecordView(
        record=row.number,
        upload=row.upload,
        upload_sha256=sha256,
        file=report["file"],
        index=report["index"],
        round=row.round,
        players=header["players"] if header else {},
        status=row.status,
        official_result=official,
        result=official or report["result"],
        adjudicated_result=report["result"],
        valid=report["valid"],
        report=report,
        board=_board_of(row),
        warnings=(rules.event_tag_warnings(header["tags"], event) if header else ()) + warned,
        suggestions=suggested,
        seats=row.seats if row.placement is None else None,
    )


def _board_of(row: RecordRow) -> tuple[int | None, int | None, str | None] | None:
    """Where a record of a paired event stands (None for a record of an event not paired,
    which stands on no board and has no reason not to)."""
    if row.board is None and row.placement is None:
        return None
    return row.board_round, row.board, row.placement


def list_records(store: Store, event_id: str, round_number: int | None = None) -> list[RecordView]:
    """Every record kept for the event, in the order received (or those of one round)."""
    with storage.reading(store) as tx:
        event = event_row(tx, event_id)
        kept = storage.kept_records(tx, event_id, round_number=round_number)
        boards = kind_of(event).guide(tx, event)
    return [record_view(row, sha256, event.name, boards) for row, sha256 in kept]


def record(store: Store, event_id: str, number: int) -> RecordView:
    """One record kept, as :func:`list_records` gives it."""
    if not rules.names_a_row(number):  # before the event: no such record anywhere
        rules.found_record(None, number)
    with storage.reading(store) as tx:
        event = event_row(tx, event_id)
        kept = storage.kept_records(tx, event_id, number=number)
        boards = kind_of(event).guide(tx, event) if kept else None
    row, sha256 = kept[0] if kept else (None, "")
    return record_view(rules.found_record(row, number), sha256, event.name, boards)


def list_uploads(store: Store, event_id: str) -> list[UploadSummary]:
    """Every upload: number, SHA-256, file name, size, who (token number) and when."""
    with storage.reading(store) as tx:
        event_row(tx, event_id)
        return [UploadSummary.of(info) for info in storage.upload_infos(tx, event_id)]


_SHA256 = re.compile("[0-9a-fA-F]{64}")


def upload_bytes(store: Store, event_id: str, sha256: str) -> UploadSource:
    """An upload's file name, notation and bytes, exactly as sent."""
    with storage.reading(store) as tx:
        event_row(tx, event_id)
        found = None
        if _SHA256.fullmatch(sha256):  # no other text names an upload (nor is looked up)
            found = storage.upload_source(tx, event_id, sha256.lower())
    if found is None:
        raise EventError("no-such-upload", f"the event has no upload {sha256[:64]!r}")
    return found


def entries(store: Store, event_id: str) -> list[Entry]:
    """The event's audit trail, in order, as everyone may read it: the boards of a round
    paired as a draft withheld until it is published (:func:`withheld`)."""
    with storage.reading(store) as tx:
        event_row(tx, event_id)
        return withheld(storage.entries(tx, event_id))


DRAFTING = ("round-paired", "round-replaced")
"""The entries that pair a round, as a draft when their details say ``"draft": true``."""


def drafts_now(found: Sequence[Entry]) -> set[int]:
    """The rounds the trail ``found`` leaves paired as drafts, not yet published."""
    drafts: set[int] = set()
    for entry in found:
        if entry.action in DRAFTING or entry.action in ("round-published", "round-unpaired"):
            number = int(entry.details.get("round") or 0)
            if entry.action in DRAFTING and entry.details.get("draft") is True:
                drafts.add(number)
            else:
                drafts.discard(number)
    return drafts


def withheld(found: list[Entry]) -> list[Entry]:
    """The trail as everyone reads it: the entries that paired a round still a draft show
    its round, with its boards and byes withheld (``"withheld": true``) until the director
    publishes it; their hash covers what they hold, shown once published. The director's
    desk reads the draft through the rounds, with the director's token."""
    drafts = drafts_now(found)
    if not drafts:
        return found
    out = []
    for entry in found:
        if entry.action in DRAFTING and entry.details.get("round") in drafts:
            hidden: dict[str, Any] = {"round": entry.details["round"], "boards": [], "byes": [],
                                      "draft": True, "withheld": True}  # fmt: skip
            if entry.action == "round-replaced":
                hidden["engine"] = {"boards": [], "byes": []}
            entry = replace(entry, details=hidden)
        out.append(entry)
    return out


_TABLES: dict[tuple[str, str], tuple[int, list[EventStandings]]] = {}
"""Standings computed, by (database, event), with the event's version they were made at."""


def _tables(store: Store, tx: Tx, row: EventRow) -> list[EventStandings]:
    key = (store.url, row.id)
    cached = _TABLES.get(key)
    if cached is not None and cached[0] == row.version:
        return cached[1]
    tables = kind_of(row).tables(tx, row)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = (row.version, tables)
    return tables


def event_standings(store: Store, event_id: str) -> tuple[EventSummary, list[EventStandings]]:
    """The event's summary and its standings tables, computed from the stored reports of
    the records that count (never by adjudicating again), once per version of the event."""
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        return _summary(store, tx, row), _tables(store, tx, row)


@dataclass(frozen=True, slots=True)
class Rendered:
    """A read of one version of an event, ready to send: its standings in one format, its
    records as JSON or GRN."""

    version: int
    body: bytes
    content_type: str
    head: Head | None = None
    """The event's head as of this version (the standings; the records leave it to the
    API to read)."""


class Renderings:
    """Reads of events as sent, by (database, event, what), each for the version of the
    event it was made at, so that reading an event again costs one query of its version
    (:func:`version`, outside a transaction) until it changes. At most ``budget`` bytes
    of bodies are kept, the least recently used dropped first; a body over half of it is
    not kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._kept: OrderedDict[tuple[str, ...], Rendered] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...], version: int) -> Rendered | None:
        """What was made for ``key`` at ``version``, if it is still kept."""
        with self._lock:
            found = self._kept.get(key)
            if found is None or found.version != version:
                return None
            self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[str, ...], made: Rendered) -> Rendered:
        """Keep ``made`` for ``key`` (in place of an older version), within the budget."""
        if len(made.body) > self.budget // 2:
            return made
        with self._lock:
            old = self._kept.pop(key, None)
            self.size += len(made.body) - (len(old.body) if old else 0)
            self._kept[key] = made
            while self.size > self.budget:
                _, dropped = self._kept.popitem(last=False)
                self.size -= len(dropped.body)
        return made


RENDERINGS = Renderings(64 * 1024 * 1024)
"""The reads kept in this process: 64 MiB at most (the records of an event of 20,000
records are about 20 MiB of JSON and 9 MiB of GRN)."""


def standings_output(
    store: Store, event_id: str, fmt: StandingsFormat, *, line_end: str = "\n"
) -> Rendered:
    """The standings of the event in ``fmt`` (``json`` or a format of ``arbiter standings
    --format``), as of its current version. The event has one table, named after it, which
    TRF writes whatever it holds, each line ending with ``line_end`` (a line feed by
    default; TRF-2026 asks for a carriage return: ``\r``); raises ``FormatError`` only when
    a figure does not fit TRF's columns."""
    from arbiter.adjudicator.standings import standings_document
    from arbiter.service.core.standings_formats import MEDIA_TYPES, render

    if fmt != "trf":
        line_end = "\n"  # the other formats' lines are theirs
    key = (store.url, event_id, "standings", fmt, line_end)
    cached = RENDERINGS.get(key, version(store, event_id))
    if cached is not None:
        return cached
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        tables = _tables(store, tx, row)
        if fmt == "json":
            text = json.dumps(standings_document(tables), ensure_ascii=False) + "\n"
            kind = "application/json"
        elif fmt == "trf":
            comments = [*_trf_comments(tx, event_id), head_line(_head(tx, event_id))]
            text = kind_of(row).trf(tx, row, tables, comments)
            if line_end != "\n":  # every character of a TRF line is printable
                text = text.replace("\n", line_end)
            kind = MEDIA_TYPES[fmt]
        else:
            text = render(tables, fmt, total_rounds=total_rounds(row, tables), comments=[])
            kind = MEDIA_TYPES[fmt]
        head = _head(tx, event_id)
    made = Rendered(row.version, text.encode("utf-8", "surrogatepass"), kind, head)
    return RENDERINGS.put(key, made)


def records_output(store: Store, event_id: str, round_number: int | None = None) -> Rendered:
    """Every record kept (or those of one round) as the JSON of ``GET .../records``, as of
    the event's current version."""
    key = (store.url, event_id, "records", str(round_number))
    cached = RENDERINGS.get(key, version(store, event_id))
    if cached is not None:
        return cached
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        kept = storage.kept_records(tx, event_id, round_number=round_number)
        boards = kind_of(row).guide(tx, row)
    found = [record_view(one, sha256, row.name, boards).to_dict() for one, sha256 in kept]
    text = json.dumps({"records": found}, ensure_ascii=False, separators=(",", ":")) + "\n"
    return RENDERINGS.put(key, Rendered(row.version, text.encode(), "application/json"))


def records_grn(store: Store, event_id: str) -> Rendered:
    """Every record kept, in the order received, in canonical GRN, as of the event's current
    version. A record that cannot be read, or only in part, is left out (its report says
    why), and so is a record of another game than the event's."""
    key = (store.url, event_id, "grn")
    cached = RENDERINGS.get(key, version(store, event_id))
    if cached is not None:
        return cached
    with storage.reading(store) as tx:
        row = event_row(tx, event_id)
        sources = storage.upload_sources(tx, event_id)
    text = "\n".join(_grn_texts(sources, row.game))
    made = Rendered(row.version, text.encode("utf-8", "surrogatepass"), "text/plain; charset=utf-8")
    return RENDERINGS.put(key, made)


def _grn_texts(sources: list[UploadSource], game: str) -> Iterator[str]:
    from arbiter.service.core.batch import convert_source

    for source in sources:
        for item in convert_source(source.data, to="grn", file=source.file_name, fmt=source.format):
            if item.text is not None and item.record is not None and item.record.game == game:
                yield item.text


def head_line(head: Head) -> str:
    """The TRF's last comment line: the head of the trail the file was made from, which a
    receipt or ``arbiter db verify`` checks (``spec/events.md`` §6)."""
    return f"### head: entry {head.entry}, hash {head.hash}"


def _trf_comments(tx: Tx, event_id: str) -> list[str]:
    """The corrections of the audit trail as TRF comment lines (``### ...``): when, what,
    which record, and why."""
    lines = []
    described = {row.number: _described(row) for row in storage.record_rows(tx, event_id)}
    found = withheld(storage.entries(tx, event_id))
    for entry, state in zip(found, states_before(found), strict=True):
        changed = _tiebreaks_changed(entry, state)
        if changed is not None:
            lines.append("".join(c if c.isprintable() else " " for c in changed))
            continue
        paired = _paired_action(entry)
        if paired is not None:
            line = f"### {paired.TRF_CODE} {entry.at} entry {entry.number}: {paired.words(state)}"
            if entry.reason:
                line += f"; reason: {entry.reason}"
            lines.append("".join(c if c.isprintable() else " " for c in line))
            continue
        action = correction(entry)
        if action is None:
            continue
        number = action.record
        line = (
            f"### {entry.at} correction {entry.number} by token {entry.token}: record "
            f"{number} ({described.get(number, '?')}) {action.words()}; "
            f"reason: {entry.reason or '-'}"
        )
        lines.append("".join(c if c.isprintable() else " " for c in line))
    return lines


def _tiebreaks_changed(entry: Entry, state: State) -> str | None:
    """A change of the tie-breaks once a round was paired, as a ``### TBC`` line: the round,
    the list it replaced and the new one, and why (FIDE's checklist asks for the line)."""
    if entry.action != "event-changed" or "tiebreaks" not in entry.details:
        return None
    paired = max(state.pairings, default=0)
    before, after = state.event.tiebreaks, entry.details["tiebreaks"]
    if paired < 1 or before == after:
        return None
    return (
        f"### TBC {entry.at} entry {entry.number}: tie-breaks changed after round {paired} "
        f"from {before or ','.join(parse_order(None))} to {after or ','.join(parse_order(None))}"
        f"; reason: {entry.reason or '-'}"
    )


def _paired_action(entry: Entry) -> Paired | None:
    """The action of a paired event an entry records, if it records one."""
    if entry.action not in PAIRED_ACTIONS:
        return None
    action = parse(entry)
    return action if isinstance(action, Paired) else None


def states_before(found: list[Entry]) -> Iterator[State]:
    """The state of the event before each entry (the players and pairings a paired
    action's words name), built only when the trail has paired actions: one state, changed
    in place entry after entry, so each must be read before the next is asked for (as
    ``zip`` and a loop read them). An entry that does not apply leaves the state as it was:
    verification says so, and the words go on."""
    if not any(entry.action in PAIRED_ACTIONS for entry in found):
        empty = State()
        for _ in found:
            yield empty
        return
    done = Replay()
    for entry in found:
        yield done.state
        try:
            done.apply(parse(entry), entry.at)
        except (KeyError, TypeError, ValueError):
            pass


def _described(row: RecordRow) -> str:
    report = json.loads(row.report)
    players = json.loads(row.header)["players"] if row.header else {}
    names = " v ".join(players.values()) or "no players"
    where = f"{report['file'] or 'body'} #{report['index'] + 1}"
    return f"round {row.round or '?'}, {names}, {where}"
