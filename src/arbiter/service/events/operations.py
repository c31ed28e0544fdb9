"""What a director (and a player with an upload token) does to an event (``spec/events.md``).
The API's event routes and the ``arbiter db`` commands call these functions; they take a
:class:`~arbiter.service.events.store.Store` and plain values, and raise
:class:`~arbiter.service.events.common.EventError` with a code for anything refused.
What anyone may read is :mod:`arbiter.service.events.reading`.

Each operation checks what it is given (:mod:`.rules`), then makes its change in one write
transaction (:func:`changing`) that locks the event, checks the token, reads what the rule
of the change needs through the storage contract (:mod:`.storage`), asks the rule, keeps
what the change's action says (:mod:`.actions`) and appends its entry to the audit trail
(:mod:`.chain`): a change and its entry are kept together or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arbiter.notation.ast import Record
from arbiter.notation.errors import RecordError
from arbiter.notation.sources import Notation, read_records
from arbiter.service.core.batch import report_for
from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    Action,
    Confirmed,
    EventChanged,
    EventCreated,
    EventFacts,
    Excluded,
    Finalised,
    KeptRecord,
    RecordFacts,
    Reinstated,
    ResultCleared,
    ResultSet,
    State,
    TokenDetails,
    TokenFacts,
    TokenIssued,
    TokenRevoked,
    Uploaded,
)
from arbiter.service.events.chain import digest
from arbiter.service.events.change import (
    Change,
    admit,
    changing,
    keep_request,
    new_event_id,
    new_secret,
    request_key,
    secret_hash,
)
from arbiter.service.events.common import ACCEPTED, DIRECTOR, EXCLUDED, UPLOAD, now
from arbiter.service.events.counted import wrong_game
from arbiter.service.events.kind import RecordGuide, Seating
from arbiter.service.events.kinds import kind_named, kind_of
from arbiter.service.events.paired import rules as paired_rules
from arbiter.service.events.reading import (
    event_summary,
    record,
    record_view,
    view,
)
from arbiter.service.events.rows import (
    EventRow,
    RecordRow,
    TokenRow,
    UploadInfo,
    UploadRow,
)
from arbiter.service.events.rules import Actor
from arbiter.service.events.store import Store
from arbiter.service.events.views import (
    Created,
    EventSummary,
    IssuedToken,
    KeptUpload,
    RecordView,
    TokenView,
    UploadAnswer,
)

__all__ = [
    "Upload",
    "change_event",
    "clear_result",
    "confirm",
    "create_event",
    "exclude",
    "finalise",
    "header_of",
    "issue_token",
    "list_tokens",
    "reinstate",
    "revoke_token",
    "round_of",
    "set_result",
    "upload",
    "Repaired",
    "repair",
]


@dataclass(frozen=True, slots=True)
class Upload:
    """One upload as sent: its bytes, its file name, and the notation the request named."""

    name: str | None
    data: bytes
    fmt: Notation | None = None


# --- events and tokens --------------------------------------------------------------------


CREATIONS = ""
"""The scope of the keys events are created with (no event has the empty id)."""


def create_event(store: Store, fields: Mapping[str, object]) -> Created:
    """A new event from ``fields`` (``name``, ``game``, and optionally ``rounds``,
    ``tiebreaks``, ``confirm_uploads``), with its first director token."""
    given = rules.new_event(fields)
    given = kind_named(given.pairing).created(given)
    secret = new_secret()
    event_id = new_event_id()
    at = now()
    action = EventCreated(
        name=given.name,
        game=given.game,
        rounds=given.rounds,
        tiebreaks=given.tiebreaks,
        confirm_uploads=given.confirm_uploads,
        token=TokenDetails(1, DIRECTOR, "director", secret_hash(secret)),
        pairing=given.pairing,
        bye_points=given.bye_points,
        half_byes=given.half_byes,
        check_in=given.check_in,
    )
    effect = action.effect(State(), at)
    assert effect.event is not None  # a creation makes the event
    with storage.writing(store) as tx:
        keyed = request_key(tx, CREATIONS, None)
        row = _event_row(event_id, effect.event)
        storage.insert_event(tx, row)
        storage.insert_token(tx, _token_row(event_id, 1, effect.tokens[1]))
        Change(tx, row, Actor(event_id, 1, DIRECTOR), at).log(action)
        if keyed is not None:
            keep_request(tx, CREATIONS, keyed, 1, at)
    return Created(event_summary(store, event_id), secret)


def _event_row(event_id: str, facts: EventFacts) -> EventRow:
    """A new event's row, as its creation says it."""
    return EventRow(
        id=event_id,
        name=facts.name,
        game=facts.game,
        rounds=facts.rounds,
        tiebreaks=facts.tiebreaks,
        confirm_uploads=facts.confirm_uploads,
        created_at=facts.created_at,
        finalised_at=facts.finalised_at,
        version=1,
        pairing=facts.pairing,
        bye_points=facts.bye_points,
        half_byes=facts.half_byes,
        check_in=facts.check_in,
    )


def _token_row(event_id: str, number: int, facts: TokenFacts) -> TokenRow:
    return TokenRow(
        event_id, number, facts.hash, facts.role, facts.label, facts.created_at, facts.revoked_at,
        facts.player,
    )  # fmt: skip


def issue_token(
    store: Store, event_id: str, secret: str | None, role: object, label: object,
    player: object = None,
) -> IssuedToken:  # fmt: skip
    """A new token of ``role`` (``upload`` for players or a deputy, ``director``); its
    secret is in the answer, once. ``player``: the pairing number of the player of a paired
    event an upload token is made for, whose boards alone its records may claim."""
    kind, named = rules.role(role), rules.label(label)
    asked = rules.token_player(player, kind)
    with changing(store, event_id, secret, DIRECTOR) as change:
        number = rules.room_for_token(storage.count_tokens(change.tx, event_id))
        whose = None
        if asked is not None:
            paired_rules.paired(change.event)
            ids = {row.number: row.id for row in storage.player_rows(change.tx, event_id)}
            whose = rules.found_player(ids.get(asked), asked)
        new = new_secret()
        action = TokenIssued(TokenDetails(number, kind, named, secret_hash(new), whose))
        token = _token_row(event_id, number, change.effect(action).tokens[number])
        storage.insert_token(change.tx, token)
        change.log(action)
    return IssuedToken(TokenView.of(token, asked), new)


def revoke_token(
    store: Store, event_id: str, secret: str | None, number: int, reason: object = None
) -> TokenView:
    """Revoke token ``number`` of the event; the last director token cannot be revoked."""
    why = rules.reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        found = None
        if rules.names_a_row(number):
            found = storage.token_row(change.tx, event_id, number)
        token = rules.found_token(found, number)
        rules.revocable(token, storage.count_directors(change.tx, event_id))
        action = TokenRevoked(number)
        after = change.effect(action, State(tokens={number: TokenFacts.of(token)}))
        revoked = replace(token, revoked_at=after.tokens[number].revoked_at)
        storage.update_token(change.tx, revoked)
        change.log(action, why)
    return TokenView.of(revoked)


def directs(store: Store, event_id: str, secret: str | None) -> bool:
    """Whether ``secret`` is a director's token of the event (False without one, or with
    another token of the event: a player's page reads as everyone does): a read that shows
    the director what others do not see (a round paired as a draft). A token given that is
    not valid (not this server's, revoked, another event's) is refused as a change's would
    be."""
    if not secret:
        return False
    with storage.reading(store) as tx:
        rules.found_event(storage.event_row(tx, rules.event_id(event_id)), event_id)
        actor = rules.actor(storage.find_token(tx, secret_hash(secret)), event_id, UPLOAD)
    return actor.role == DIRECTOR


def list_tokens(store: Store, event_id: str, secret: str | None) -> list[TokenView]:
    """The event's tokens (never their secrets), for its director."""
    secret = rules.read_token(secret)
    with storage.reading(store) as tx:
        rules.found_event(storage.event_row(tx, rules.event_id(event_id)), event_id)
        rules.actor(storage.find_token(tx, secret_hash(secret)), event_id, DIRECTOR)
        rows = storage.token_rows(tx, event_id)
        numbers = {}
        if any(row.player is not None for row in rows):
            numbers = {row.id: row.number for row in storage.player_rows(tx, event_id)}
        return [
            TokenView.of(row, None if row.player is None else numbers.get(row.player))
            for row in rows
        ]


def change_event(
    store: Store, event_id: str, secret: str | None, fields: Mapping[str, object]
) -> EventSummary:
    """Change the event's name, planned rounds, tie-breaks or whether players' uploads wait
    for confirmation."""
    asked = rules.event_changes(fields)
    with changing(store, event_id, secret, DIRECTOR) as change:
        kind = kind_of(change.event)
        played = kind.played(change.tx, change.event)
        rules.planned_rounds(asked.values.get("rounds"), played)
        if "rounds" in asked.values:
            planned = asked.values["rounds"]
            kind.planned(planned if isinstance(planned, int) else None)
        values = dict(asked.values)
        if "tiebreaks" in values:
            order = values["tiebreaks"]
            values["tiebreaks"] = kind.tiebreaks(
                order if isinstance(order, str) else None,
                played,
                change.event.tiebreaks,
                asked.reason,
            )
        _change_event(change, EventChanged(values), asked.reason)
    return event_summary(store, event_id)


def finalise(
    store: Store, event_id: str, secret: str | None, reason: object = None
) -> EventSummary:
    """Finalise the event: from now on it is read-only."""
    why = rules.reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        _change_event(change, Finalised(), why)
    return event_summary(store, event_id)


def _change_event(change: Change, action: EventChanged | Finalised, reason: str | None) -> None:
    """Keep what ``action`` changes of the event, and its entry."""
    after = change.effect(action, State(event=EventFacts.of(change.event))).event
    assert after is not None  # both change the event
    row = replace(
        change.event,
        name=after.name,
        rounds=after.rounds,
        tiebreaks=after.tiebreaks,
        confirm_uploads=after.confirm_uploads,
        finalised_at=after.finalised_at,
    )
    storage.update_event(change.tx, row)
    change.log(action, reason)


# --- records in ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Read:
    """One record of an upload, read and adjudicated before the transaction, with what is
    kept of it made there too: its header and report as the JSON text of its row, and the
    digest of both that its upload's entry holds."""

    header: dict[str, Any] | None
    report: dict[str, Any]
    round: int | None
    header_text: str | None
    report_text: str
    digest: str

    @classmethod
    def of(cls, header: dict[str, Any] | None, report: dict[str, Any], round: int | None) -> Read:
        return cls(
            header,
            report,
            round,
            None if header is None else _json(header),
            _json(report),
            digest({"header": header, "report": report}),
        )


def _read_upload(source: Upload, game: str) -> list[Read]:
    """Every record of an upload to an event of ``game`` with its report (the adjudicator's
    work, done once). A record of another game is refused as a record of the event: kept
    with its report and a ``wrong-game`` error first, but not its header, so that it never
    counts, cannot be given a result, and never meets the event's colours."""
    found = []
    for item in read_records(source.data, file=source.name, fmt=source.fmt):
        report = report_for(item, file=source.name).to_dict()
        named = _game_named(item)
        if named is not None and named != game:
            found.append(Read.of(None, wrong_game(report, named, game), None))
        elif isinstance(item, RecordError):
            found.append(Read.of(None, report, None))
        else:
            found.append(Read.of(header_of(item), report, round_of(item)))
    return found


def _game_named(item: Record | RecordError) -> str | None:
    """The game a record names, as far as it could be read."""
    record = item.record if isinstance(item, RecordError) else item
    return None if record is None else record.game


def header_of(record: Record) -> dict[str, Any]:
    """What standings need of a record, without its moves."""
    return {
        "game": record.game,
        "size": record.size,
        "komi": record.komi,
        "setup": record.setup,
        "players": dict(record.players),
        "tags": [[tag.name, tag.value] for tag in record.tags],
        "result": record.result,
    }


def round_of(record: Record) -> int | None:
    """The round of a record, by its ``Round`` tag (:func:`.rules.round_of_tags`)."""
    return rules.round_of_tags([(tag.name, tag.value) for tag in record.tags])


def upload(
    store: Store,
    event_id: str,
    secret: str | None,
    sources: Sequence[Upload] | Callable[[], Sequence[Upload]],
) -> UploadAnswer:
    """Keep each source as sent, with each of its records and their reports; the same bytes
    sent again are the upload already kept. Records uploaded with an upload token wait for
    the director's confirmation unless the event says otherwise. An upload that would pass
    the event's limits, or that holds a source that is not text, is refused whole.

    The token, the event and the sources are checked before any record is read: a request
    refused anyway never reaches the adjudicator. ``sources`` may be how to read them (a
    request's body): it is called once the token, the event and its role are checked."""
    event = admit(store, event_id, secret, UPLOAD)
    if callable(sources):
        sources = sources()
    for source in sources:
        rules.file_name(source.name)
        rules.text_source(source.data, source.name)
    read = [
        (source, hashlib.sha256(source.data).hexdigest(), _read_upload(source, event.game))
        for source in sources
    ]
    answers: list[KeptUpload | _Kept] = []
    with changing(store, event_id, secret, UPLOAD, [sha for _, sha, _ in read]) as change:
        assert change.facts is not None and change.facts.holdings is not None  # asked for
        status = rules.upload_status(change.actor, change.event)
        held, known = change.facts.holdings, dict(change.facts.known)
        number, size, records = held.uploads + 1, held.bytes, held.records
        seating = kind_of(change.event).seating(change.tx, change.event)
        for source, sha, items in read:
            if sha in known:  # kept before, or earlier in this upload
                guide = seating.guide() if seating else None
                answers.append(_kept_already(change, known[sha], guide))
                continue
            size += len(source.data)
            rules.room_for_upload(records + len(items), size)
            answers.append(_keep(change, number, sha, source, items, records + 1, status, seating))
            known[sha] = number
            number += 1
            records += len(items)
        boards = seating.guide() if seating else None
    return UploadAnswer(event_id, tuple(_answer(one, boards) for one in answers))


def _keep(
    change: Change,
    number: int,
    sha: str,
    source: Upload,
    items: list[Read],
    first: int,
    status: str,
    seating: Seating | None = None,
    reason: str | None = None,
) -> _Kept:
    """Keep one new source as upload ``number``, its records numbered from ``first`` (each
    on its board, in a paired event); ``reason``: why, for a corrected copy. The upload,
    its records and its entry are written together (:func:`.storage.keep_upload`); the
    answer is made once the change is committed (:meth:`_Kept.answer`), outside the
    event's lock."""
    action = Uploaded(
        upload=number,
        sha256=sha,
        file=source.name,
        format=source.fmt,
        size=len(source.data),
        records=tuple(
            KeptRecord(
                first + position,
                status,
                one.digest,
                seating.place(
                    one.header,
                    one.round,
                    one.report,
                    counts=status == ACCEPTED,
                    player=change.token_player,
                )
                if seating
                else None,  # fmt: skip
            )  # fmt: skip
            for position, one in enumerate(items)
        ),
    )
    effect = change.effect(action)
    kept = effect.uploads[number]
    row = UploadRow(
        event_id=change.event.id,
        number=number,
        sha256=kept.sha256,
        file_name=kept.file_name,
        format=kept.format,
        size=kept.size,
        data=source.data,
        token=change.actor.token,
        created_at=kept.created_at,
    )
    rows = [
        _record_row(change.event.id, one.record, effect.records[one.record], item)
        for one, item in zip(action.records, items, strict=True)
    ]
    entry = change.entry(action, reason)
    storage.keep_upload(change.tx, row, rows, entry)
    change.appended(entry)
    return _Kept(row, tuple(rows), tuple(items), change.event.name)


@dataclass(frozen=True, slots=True)
class _Kept:
    """A new upload written in a change: what its answer is made of."""

    upload: UploadRow
    rows: tuple[RecordRow, ...]
    items: tuple[Read, ...]
    event: str

    def answer(self, boards: RecordGuide | None = None) -> KeptUpload:
        upload = self.upload
        records = tuple(
            view(one, upload.sha256, item.header, item.report, self.event, boards)
            for one, item in zip(self.rows, self.items, strict=True)
        )
        return _kept_upload(upload, records, duplicate=False)


def _answer(kept: KeptUpload | _Kept, boards: RecordGuide | None) -> KeptUpload:
    return kept if isinstance(kept, KeptUpload) else kept.answer(boards)


def _record_row(event_id: str, number: int, facts: RecordFacts, read: Read) -> RecordRow:
    """A new record's row: what its upload's entry says, with what was read of it."""
    return RecordRow(
        event_id=event_id,
        number=number,
        upload=facts.upload,
        position=facts.position,
        status=facts.status,
        official_result=facts.official_result,
        round=read.round,
        header=read.header_text,
        report=read.report_text,
        digest=facts.digest,
        board_round=facts.board_round,
        board=facts.board,
        placement=facts.placement,
        seats=facts.seats,
    )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _kept_already(change: Change, number: int, boards: RecordGuide | None = None) -> KeptUpload:
    """An upload kept already, as the answer to the same bytes sent again."""
    tx, event_id = change.tx, change.event.id
    info = storage.upload_info(tx, event_id, number)
    assert info is not None  # found by its SHA-256 in this transaction
    kept = storage.kept_records(tx, event_id, upload=number)
    records = tuple(record_view(row, sha256, change.event.name, boards) for row, sha256 in kept)
    return _kept_upload(info, records, duplicate=True)


def _kept_upload(
    upload: UploadRow | UploadInfo, records: tuple[RecordView, ...], *, duplicate: bool
) -> KeptUpload:
    """The answer to an upload: the upload as kept (just now, or before when ``duplicate``)
    and its records."""
    return KeptUpload(
        upload=upload.number,
        sha256=upload.sha256,
        file=upload.file_name,
        size=upload.size,
        created_at=upload.created_at,
        token=upload.token,
        duplicate=duplicate,
        records=records,
    )


# --- corrections --------------------------------------------------------------------------


def _record(change: Change, number: int) -> RecordRow:
    """Record ``number`` of the event being changed."""
    found = None
    if rules.names_a_row(number):
        found = storage.record_row(change.tx, change.event.id, number)
    return rules.found_record(found, number)


def _correct(change: Change, row: RecordRow, action: Action, reason: str | None) -> None:
    """Keep what ``action`` changes of the record of ``row``, and its entry."""
    before = State(records={row.number: RecordFacts.of(row)})
    after = change.effect(action, before).records[row.number]
    updated = replace(row, status=after.status, official_result=after.official_result)
    storage.update_record(change.tx, updated)
    change.log(action, reason)


def _repeated(change: Change, row: RecordRow, action: str, **same: object) -> bool:
    """Whether the change asked for was made already to the record of ``row``: the last
    correction of it is an entry of ``action`` (with the details ``same``). It is then
    answered as the first was (:meth:`Change.repeat`)."""
    last = change.made_by(tuple(CORRECTION_ACTIONS), record=row.number)
    if last is None or last.action != action:
        return False
    if any(last.details.get(key) != value for key, value in same.items()):
        return False
    change.repeat(last)
    return True


CORRECTION_ACTIONS = ("confirmed", "excluded", "reinstated", "result-set", "result-cleared")
"""The actions that change whether a record counts, or with which result."""


def confirm(
    store: Store, event_id: str, secret: str | None, number: int, reason: object = None
) -> RecordView:
    """Confirm a record a player uploaded: it counts from now on."""
    why = rules.reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record(change, number)
        if row.status == ACCEPTED and _repeated(change, row, Confirmed.NAME):
            return record(store, event_id, number)
        rules.confirmable(row)
        kind_of(change.event).board_free(change.tx, change.event, row)
        _correct(change, row, Confirmed(number), why)
    return record(store, event_id, number)


def exclude(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Exclude a record from the event (it stays kept and listed, with the reason)."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record(change, number)
        if row.status == EXCLUDED and _repeated(change, row, Excluded.NAME):
            return record(store, event_id, number)
        rules.excludable(row)
        _correct(change, row, Excluded(number, row.status), why)
    return record(store, event_id, number)


def reinstate(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Count an excluded record again."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record(change, number)
        if row.status == ACCEPTED and _repeated(change, row, Reinstated.NAME):
            return record(store, event_id, number)
        rules.reinstatable(row)
        kind_of(change.event).board_free(change.tx, change.event, row)
        _correct(change, row, Reinstated(number), why)
    return record(store, event_id, number)


def set_result(
    store: Store, event_id: str, secret: str | None, number: int, result: object, reason: object
) -> RecordView:
    """Set the official result of a record, which then counts with it whatever the
    adjudicator found (a forfeit, an arbiter's decision that an illegal move stood); the
    adjudicator's verdict stays beside it."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record(change, number)
        official = rules.official_result(result, rules.correctable(row))
        if row.official_result == official and _repeated(
            change, row, ResultSet.NAME, result=official
        ):
            return record(store, event_id, number)
        report = json.loads(row.report)
        action = ResultSet(number, official, report["result"], report["valid"], row.official_result)
        _correct(change, row, action, why)
    return record(store, event_id, number)


def clear_result(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Take back the official result: the adjudicator's verdict counts again."""
    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record(change, number)
        if row.official_result is None and _repeated(change, row, ResultCleared.NAME):
            return record(store, event_id, number)
        _correct(change, row, ResultCleared(number, rules.clearable(row)), why)
    return record(store, event_id, number)


# --- a record repaired ----------------------------------------------------------------------

MAX_CORRECTIONS = 20
"""Corrections one repair may apply."""


@dataclass(frozen=True, slots=True)
class Repaired:
    """A record repaired: the original as it now stands (kept, excluded) and the upload of
    its corrected copy."""

    original: RecordView
    copy: KeptUpload


def repair(
    store: Store,
    event_id: str,
    secret: str | None,
    number: int,
    corrections: object,
    reason: object,
) -> Repaired:
    """Repair record ``number``: its corrected copy (``corrections``, each ``PLY:MOVE`` as
    a repair suggestion gives it, applied as ``POST /api/v1/positions?apply=`` applies them)
    is added beside it as an upload of its own, and the original is excluded but kept; both
    in one transaction, each with its entry in the trail saying the corrections and the
    director's reason (``spec/events.md`` §5)."""
    from arbiter.service.events.common import EventError

    why = rules.reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        wanted = _corrections(corrections)  # once the token holds, as the record is read
        row = _record(change, number)
        rules.excludable(row)
        name, fmt, data, applied = _corrected_copy(change, row, wanted)
        held = storage.holdings(change.tx, event_id)
        said = ", ".join(f"ply {c.ply} {c.move} for {c.written}" for c in applied)
        copy = held.records + 1
        excluded = f"replaced by its corrected copy, record {copy} ({said}); {why}"
        _correct(change, row, Excluded(number, row.status), excluded)
        sha = hashlib.sha256(data).hexdigest()
        known = storage.upload_number(change.tx, event_id, sha)
        if known is not None:
            raise EventError(
                "cannot-correct", f"this corrected copy is kept already, as upload {known}"
            )
        rules.room_for_upload(held.records + 1, held.bytes + len(data))
        source = Upload(name, data, fmt)
        seating = kind_of(change.event).seating(change.tx, change.event)
        status = rules.upload_status(change.actor, change.event)
        words = f"corrected copy of record {number} ({said}); {why}"
        read = _read_upload(source, change.event.game)
        kept = _keep(change, held.uploads + 1, sha, source, read, copy, status, seating, words)
        boards = seating.guide() if seating else None
    return Repaired(record(store, event_id, number), kept.answer(boards))


def _corrections(value: object) -> list[str]:
    """The corrections a repair is asked to apply: 1 to :data:`MAX_CORRECTIONS`, each
    ``PLY:MOVE`` (with ``@LINE:COLUMN`` or ``@POINTER`` where the record cannot be read)."""
    from arbiter.notation.repair import BadCorrection, parse_correction
    from arbiter.service.events.common import EventError

    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= MAX_CORRECTIONS
        or not all(isinstance(one, str) for one in value)
    ):
        raise EventError(
            "bad-field",
            f"'apply' must list 1 to {MAX_CORRECTIONS} corrections, each PLY:MOVE",
            field="apply",
        )
    for one in value:
        try:
            parse_correction(one)
        except BadCorrection as err:
            raise EventError("bad-field", str(err), field="apply") from None
    return list(value)


def _corrected_copy(
    change: Change, row: RecordRow, corrections: list[str]
) -> tuple[str, Notation, bytes, list[Any]]:
    """The corrected copy of the record of ``row``: its file name, notation and bytes (the
    record alone, cut from its upload once corrected), and the corrections as applied."""
    from arbiter.notation.repair import CorrectionError, notation_of, source_bytes, source_text
    from arbiter.service.core.repairs import corrected_text
    from arbiter.service.events.common import EventError
    from arbiter.service.events.pages import cut

    [(_, sha)] = storage.kept_records(change.tx, change.event.id, number=row.number)
    source = storage.upload_source(change.tx, change.event.id, sha)
    assert source is not None  # the record's own upload
    text = source_text(source.data)
    fmt = source.format or notation_of(source.file_name, text)
    try:
        corrected, applied = corrected_text(text, corrections, index=row.position, notation=fmt)
    except CorrectionError as err:
        raise EventError(
            "cannot-correct", f"record {row.number} cannot be corrected so: {err}"
        ) from None
    data = cut(source_bytes(corrected), replace(source, format=fmt), row.position)
    return _copy_name(source.file_name, row.number, fmt), fmt, data, applied


def _copy_name(file: str | None, number: int, fmt: Notation) -> str:
    """The file name of record ``number``'s corrected copy: ``round-2.grn`` gives
    ``round-2-record-5-corrected.grn``."""
    stem, dot, ext = (file or "record").rpartition(".")
    if not dot:
        stem, ext = file or "record", "grn" if fmt == "grn" else "json"
    return f"{stem[:200]}-record-{number}-corrected.{ext}"
