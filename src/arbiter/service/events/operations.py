"""What a director (and a player with an upload token) does to an event (``spec/events.md``).
The API's event routes and the ``arbiter db`` commands call these functions; they take a
:class:`~arbiter.service.events.store.Store` and plain values, and raise
:class:`~arbiter.service.events.common.EventError` with a code for anything refused.
What anyone may read is :mod:`arbiter.service.events.reading`.

Every change is one write transaction that locks the event, checks the token in it, makes
the change and appends its entry to the audit trail (:mod:`arbiter.service.events.chain`):
a change and its entry are kept together or not at all.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from arbiter.adjudicator.tiebreaks import parse_order
from arbiter.notation.ast import Record
from arbiter.notation.build import normalise_result
from arbiter.notation.errors import RecordError
from arbiter.notation.games import all_games, find_game, game_named
from arbiter.notation.sources import Notation, read_records
from arbiter.service.core.batch import report_for
from arbiter.service.events import storage
from arbiter.service.events.actions import (
    Action,
    Confirmed,
    Effect,
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
from arbiter.service.events.chain import GENESIS, Entry, digest, make_entry
from arbiter.service.events.common import (
    ACCEPTED,
    DIRECTOR,
    EXCLUDED,
    MAX_BYTES,
    MAX_LABEL,
    MAX_NAME,
    MAX_NUMBER,
    MAX_REASON,
    MAX_RECORDS,
    MAX_ROUNDS,
    MAX_TOKENS,
    PENDING,
    ROLES,
    UPLOAD,
    EventError,
    now,
)
from arbiter.service.events.reading import (
    event_summary,
    record,
    record_view,
    rounds_played,
    view,
)
from arbiter.service.events.rows import EventRow, RecordRow, TokenRow, UploadRow
from arbiter.service.events.storage import Tx
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


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a change: the event, the number of the token used, and its role."""

    event: str
    token: int
    role: str


@dataclass(frozen=True, slots=True)
class Upload:
    """One upload as sent: its bytes, its file name, and the notation the request named."""

    name: str | None
    data: bytes
    fmt: Notation | None = None


# --- time, identifiers, secrets -------------------------------------------------------------


def new_event_id() -> str:
    """13 random characters of base 32 (65 bits): an event's address, not guessable."""
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()[:13]


def new_secret() -> str:
    """A token: ``arb_`` and 256 random bits. Shown once; only its SHA-256 is kept."""
    return "arb_" + secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


# --- checking what is given ---------------------------------------------------------------


def _text(value: object, field: str, most: int, *, required: bool = True) -> str | None:
    """A text field of at most ``most`` characters that is not only white space (a name or
    a label with its runs of white space made one space; a reason as given, trimmed); None
    when absent and not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not _SPACES.sub("", value):
        raise EventError("bad-field", f"'{field}' must be a non-empty text", field=field)
    if len(value) > most:
        raise EventError("bad-field", f"'{field}' is longer than {most} characters", field=field)
    if field == "reason":
        return _EDGES.sub("", value)  # a reason keeps its lines
    return _SPACES.sub(" ", value).strip(" ")


_SPACES = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
"""White space as JSON Schema (ECMA-262's ``\\s``) counts it, which the API description
uses: a text of nothing else is empty."""
_EDGES = re.compile(f"^{_SPACES.pattern}|{_SPACES.pattern}$")


def _reason(value: object, *, required: bool = True) -> str | None:
    return _text(value, "reason", MAX_REASON, required=required)


def _game(value: object) -> str:
    game = game_named(value) if isinstance(value, str) else None
    if game is None:
        names = ", ".join(game.name for game in all_games())
        raise EventError("bad-field", f"'game' must be one of {names}", field="game")
    return game.name


def _rounds(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():  # 7.0 is JSON's 7
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise EventError(
            "bad-field",
            f"'rounds' must be a whole number from 1 to {MAX_ROUNDS}",
            field="rounds",
        )
    return value


def _tiebreaks(value: object) -> str | None:
    """The tie-break order, given as a list of names (``["buchholz", "sb"]``); kept as the
    comma-separated text ``arbiter standings --tiebreak`` takes."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise EventError(
            "bad-field",
            "'tiebreaks' must be a list of tie-break names, "
            'such as ["buchholz", "sonneborn-berger"]',
            field="tiebreaks",
        )
    try:
        return ",".join(parse_order(value))
    except ValueError as err:
        raise EventError("bad-field", str(err), field="tiebreaks") from None


def _flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise EventError("bad-field", f"'{field}' must be true or false", field=field)
    return value


# --- the write transaction ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """An open change to one event: its transaction, its row (locked), who makes it and
    when; :meth:`log` appends the entry that records it."""

    tx: Tx
    event: EventRow
    actor: Actor
    at: str

    def effect(self, action: Action, before: State | None = None) -> Effect:
        """What ``action``, made now, changes of ``before`` (what it touches, as the tables
        hold it): the same function verification replays."""
        return action.effect(before or State(), self.at)

    def log(self, action: Action, reason: str | None = None) -> Entry:
        """Append the entry that records ``action`` to the event's trail."""
        end = storage.chain_end(self.tx, self.event.id)
        number, prev = (end.number + 1, end.hash) if end else (1, GENESIS)
        entry = make_entry(
            self.event.id,
            number,
            self.at,
            self.actor.token,
            action.NAME,
            action.details(),
            reason,
            prev,
        )
        storage.append_entry(self.tx, entry)
        return entry


def require_token(secret: str | None) -> str:
    """The token a change was asked with; ``missing-token`` without one, before anything
    else is read."""
    if not secret:
        raise EventError(
            "missing-token",
            "this change needs the event's token (Authorization: Bearer TOKEN)",
        )
    return secret


@contextlib.contextmanager
def changing(store: Store, event_id: str, secret: str | None, role: str) -> Iterator[Change]:
    """A change to ``event_id`` by the holder of ``secret``, who needs ``role``: the event
    locked, the token checked in the same transaction. Raises :class:`EventError`: no token
    or one not valid, another event's or one without the right, no such event, an event
    finalised."""
    secret = require_token(secret)
    with storage.writing(store) as tx:
        row = storage.lock_event(tx, event_id)
        if row is None:
            raise EventError("no-such-event", f"there is no event {event_id!r}")
        actor = _actor(storage.find_token(tx, secret_hash(secret)), event_id, role)
        if row.finalised_at is not None:
            raise EventError(
                "event-finalised",
                f"the event was finalised at {row.finalised_at}; it is read-only",
            )
        yield Change(tx, row, actor, now())


def _actor(token: TokenRow | None, event_id: str, role: str) -> Actor:
    if token is None:
        raise EventError("bad-token", "the token is not one this server issued")
    if token.revoked_at is not None:
        raise EventError("revoked-token", f"the token was revoked at {token.revoked_at}")
    if token.event_id != event_id:
        raise EventError("wrong-event", "the token is another event's")
    if role == DIRECTOR and token.role != DIRECTOR:
        raise EventError(
            "not-allowed",
            "an upload token can only upload records; this change needs the director's token",
        )
    return Actor(event_id, token.number, token.role)


# --- events and tokens -----------------------------------------------------------------------


def create_event(store: Store, fields: dict[str, Any]) -> Created:
    """A new event from ``fields`` (``name``, ``game``, and optionally ``rounds``,
    ``tiebreaks``, ``confirm_uploads``), with its first director token."""
    unknown = sorted(set(fields) - {"name", "game", "rounds", "tiebreaks", "confirm_uploads"})
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0]!r}", field=unknown[0])
    values: dict[str, Any] = {
        "name": _text(fields.get("name"), "name", MAX_NAME),
        "game": _game(fields.get("game")),
        "rounds": _rounds(fields.get("rounds")),
        "tiebreaks": _tiebreaks(fields.get("tiebreaks")),
        "confirm_uploads": _flag(fields.get("confirm_uploads", True), "confirm_uploads"),
    }
    secret = new_secret()
    event_id = new_event_id()
    at = now()
    token = TokenDetails(1, DIRECTOR, "director", secret_hash(secret))
    action = EventCreated(token=token, **values)
    effect = action.effect(State(), at)
    assert effect.event is not None  # a creation makes the event
    with storage.writing(store) as tx:
        row = _event_row(event_id, effect.event)
        storage.insert_event(tx, row)
        storage.insert_token(tx, _token_row(event_id, 1, effect.tokens[1]))
        Change(tx, row, Actor(event_id, 1, DIRECTOR), at).log(action)
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
    )


def _token_row(event_id: str, number: int, facts: TokenFacts) -> TokenRow:
    return TokenRow(
        event_id, number, facts.hash, facts.role, facts.label, facts.created_at, facts.revoked_at
    )


def issue_token(
    store: Store, event_id: str, secret: str | None, role: object, label: object
) -> IssuedToken:
    """A new token of ``role`` (``upload`` for players or a deputy, ``director``); its
    secret is in the answer, once."""
    if role not in ROLES:
        raise EventError("bad-field", "'role' must be 'upload' or 'director'", field="role")
    name = _text(label, "label", MAX_LABEL)
    with changing(store, event_id, secret, DIRECTOR) as change:
        count = storage.count_tokens(change.tx, event_id)
        if count >= MAX_TOKENS:
            raise EventError("too-many-tokens", f"an event has at most {MAX_TOKENS} tokens")
        new = new_secret()
        action = TokenIssued(TokenDetails(count + 1, str(role), name or "", secret_hash(new)))
        token = _token_row(event_id, count + 1, change.effect(action).tokens[count + 1])
        storage.insert_token(change.tx, token)
        change.log(action)
    return IssuedToken(TokenView.of(token), new)


def revoke_token(
    store: Store, event_id: str, secret: str | None, number: int, reason: object = None
) -> TokenView:
    """Revoke token ``number`` of the event; the last director token cannot be revoked."""
    why = _reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = None
        if 0 <= number <= MAX_NUMBER:  # a larger number names no token (nor fits the column)
            row = storage.token_row(change.tx, event_id, number)
        if row is None:
            raise EventError("no-such-token", f"the event has no token {number}")
        if row.revoked_at is not None:
            raise EventError("already-revoked", f"token {number} was revoked at {row.revoked_at}")
        if row.role == DIRECTOR and storage.count_directors(change.tx, event_id) <= 1:
            raise EventError(
                "last-director-token",
                "this is the event's only director token: issue another before revoking it",
            )
        action = TokenRevoked(number)
        after = change.effect(action, State(tokens={number: TokenFacts.of(row)})).tokens[number]
        revoked = replace(row, revoked_at=after.revoked_at)
        storage.update_token(change.tx, revoked)
        change.log(action, why)
    return TokenView.of(revoked)


def list_tokens(store: Store, event_id: str, secret: str | None) -> list[TokenView]:
    """The event's tokens (never their secrets), for its director."""
    if not secret:
        raise EventError("missing-token", "this needs the event's director token")
    with storage.reading(store) as tx:
        if not storage.event_exists(tx, event_id):
            raise EventError("no-such-event", f"there is no event {event_id!r}")
        _actor(storage.find_token(tx, secret_hash(secret)), event_id, DIRECTOR)
        return [TokenView.of(row) for row in storage.token_rows(tx, event_id)]


EDITABLE = ("name", "rounds", "tiebreaks", "confirm_uploads")


def change_event(
    store: Store, event_id: str, secret: str | None, fields: dict[str, Any]
) -> EventSummary:
    """Change the event's name, planned rounds, tie-breaks or whether players' uploads wait
    for confirmation."""
    unknown = sorted(set(fields) - {*EDITABLE, "reason"})
    if unknown:
        raise EventError("bad-field", f"unknown or fixed field {unknown[0]!r}", field=unknown[0])
    checks: dict[str, Callable[[object], object]] = {
        "name": lambda v: _text(v, "name", MAX_NAME),
        "rounds": _rounds,
        "tiebreaks": _tiebreaks,
        "confirm_uploads": lambda v: _flag(v, "confirm_uploads"),
    }
    values: dict[str, Any] = {
        name: checks[name](value) for name, value in fields.items() if name in checks
    }
    if not values:
        raise EventError("bad-field", f"give one of {', '.join(EDITABLE)}")
    why = _reason(fields.get("reason"), required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        played = rounds_played(storage.counted_records(change.tx, event_id))
        planned = values.get("rounds")
        if isinstance(planned, int) and planned < played:
            raise EventError(
                "rounds-below-played",
                f"{played} rounds have been played; the planned rounds cannot be fewer",
            )
        _change_event(change, EventChanged(values), why)
    return event_summary(store, event_id)


def finalise(
    store: Store, event_id: str, secret: str | None, reason: object = None
) -> EventSummary:
    """Finalise the event: from now on it is read-only."""
    why = _reason(reason, required=False)
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


# --- records in ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Read:
    """One record of an upload, read and adjudicated before the transaction."""

    header: dict[str, Any] | None
    report: dict[str, Any]
    round: int | None

    @property
    def digest(self) -> str:
        return digest({"header": self.header, "report": self.report})


def _read_upload(source: Upload) -> list[Read]:
    """Every record of an upload with its report (the adjudicator's work, done once)."""
    found = []
    for item in read_records(source.data, file=source.name, fmt=source.fmt):
        report = report_for(item, file=source.name).to_dict()
        if isinstance(item, RecordError):
            found.append(Read(None, report, None))
        else:
            found.append(Read(header_of(item), report, round_of(item)))
    return found


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
    text = next((tag.value.strip() for tag in record.tags if tag.name == "Round"), "")
    if text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 3:
        number = int(text)
        return number if 1 <= number <= MAX_ROUNDS else None
    return None


def upload(
    store: Store, event_id: str, secret: str | None, sources: Sequence[Upload]
) -> UploadAnswer:
    """Keep each source as sent, with each of its records and their reports; the same bytes
    sent again are the upload already kept. Records uploaded with an upload token wait for
    the director's confirmation unless the event says otherwise."""
    read = [
        (source, hashlib.sha256(source.data).hexdigest(), _read_upload(source))
        for source in sources
    ]
    answers = []
    with changing(store, event_id, secret, UPLOAD) as change:
        tx, actor = change.tx, change.actor
        status = PENDING if actor.role == UPLOAD and change.event.confirm_uploads else ACCEPTED
        held = storage.holdings(tx, event_id)
        next_upload, size, next_record = held.uploads + 1, held.bytes, held.records + 1
        for source, sha, items in read:
            known = storage.upload_number(tx, event_id, sha)
            if known is not None:
                answers.append(_upload_answer(tx, event_id, known))
                continue
            size += len(source.data)
            if next_record + len(items) - 1 > MAX_RECORDS or size > MAX_BYTES:
                raise EventError(
                    "event-full",
                    f"an event holds at most {MAX_RECORDS} "
                    f"records and {MAX_BYTES // 2**20} MiB of uploads",
                )
            action = Uploaded(
                upload=next_upload,
                sha256=sha,
                file=source.name,
                format=source.fmt,
                size=len(source.data),
                records=tuple(
                    KeptRecord(next_record + position, status, one.digest)
                    for position, one in enumerate(items)
                ),
            )
            effect = change.effect(action)
            facts = effect.uploads[next_upload]
            storage.insert_upload(
                tx,
                UploadRow(
                    event_id=event_id,
                    number=next_upload,
                    sha256=facts.sha256,
                    file_name=facts.file_name,
                    format=facts.format,
                    size=facts.size,
                    data=source.data,
                    token=actor.token,
                    created_at=facts.created_at,
                ),
            )
            rows = [
                _record_row_of(event_id, kept.record, effect.records[kept.record], one)
                for kept, one in zip(action.records, items, strict=True)
            ]
            storage.insert_records(tx, rows)
            change.log(action)
            answers.append(
                KeptUpload(
                    upload=next_upload,
                    sha256=sha,
                    file=source.name,
                    size=len(source.data),
                    created_at=change.at,
                    token=actor.token,
                    duplicate=False,
                    records=tuple(
                        view(row, sha, one.header, one.report)
                        for row, one in zip(rows, items, strict=True)
                    ),
                )
            )
            next_upload += 1
            next_record += len(rows)
    return UploadAnswer(event_id, tuple(answers))


def _record_row_of(event_id: str, number: int, facts: RecordFacts, read: Read) -> RecordRow:
    """A new record's row: what its upload's entry says, with what it read."""
    return RecordRow(
        event_id=event_id,
        number=number,
        upload=facts.upload,
        position=facts.position,
        status=facts.status,
        official_result=facts.official_result,
        round=read.round,
        header=None if read.header is None else _json(read.header),
        report=_json(read.report),
        digest=facts.digest,
    )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _upload_answer(tx: Tx, event_id: str, number: int) -> KeptUpload:
    """An upload kept already, as the answer to the same bytes sent again."""
    info = storage.upload_info(tx, event_id, number)
    assert info is not None  # found by its SHA-256 in this transaction
    kept = storage.kept_records(tx, event_id, upload=number)
    return KeptUpload(
        upload=info.number,
        sha256=info.sha256,
        file=info.file_name,
        size=info.size,
        created_at=info.created_at,
        token=info.token,
        duplicate=True,
        records=tuple(record_view(row, sha256) for row, sha256 in kept),
    )


# --- corrections ---------------------------------------------------------------------------


def _record_row(change: Change, number: int) -> RecordRow:
    if not 0 <= number <= MAX_NUMBER:
        raise EventError("no-such-record", f"the event has no record {number}")
    row = storage.record_row(change.tx, change.event.id, number)
    if row is None:
        raise EventError("no-such-record", f"the event has no record {number}")
    return row


def _correct(change: Change, row: RecordRow, action: Action, reason: str | None) -> None:
    """Keep what ``action`` changes of the record of ``row``, and its entry."""
    before = State(records={row.number: RecordFacts.of(row)})
    after = change.effect(action, before).records[row.number]
    updated = replace(row, status=after.status, official_result=after.official_result)
    storage.update_record(change.tx, updated)
    change.log(action, reason)


def confirm(
    store: Store, event_id: str, secret: str | None, number: int, reason: object = None
) -> RecordView:
    """Confirm a record a player uploaded: it counts from now on."""
    why = _reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record_row(change, number)
        if row.status != PENDING:
            raise EventError("not-pending", f"record {number} is {row.status}, not pending")
        _correct(change, row, Confirmed(number), why)
    return record(store, event_id, number)


def exclude(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Exclude a record from the event (it stays kept and listed, with the reason)."""
    why = _reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record_row(change, number)
        if row.status == EXCLUDED:
            raise EventError("already-excluded", f"record {number} is already excluded")
        _correct(change, row, Excluded(number, row.status), why)
    return record(store, event_id, number)


def reinstate(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Count an excluded record again."""
    why = _reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record_row(change, number)
        if row.status != EXCLUDED:
            raise EventError("not-excluded", f"record {number} is {row.status}, not excluded")
        _correct(change, row, Reinstated(number), why)
    return record(store, event_id, number)


def set_result(
    store: Store, event_id: str, secret: str | None, number: int, result: object, reason: object
) -> RecordView:
    """Set the official result of a record, which then counts with it whatever the
    adjudicator found (a forfeit, an arbiter's decision that an illegal move stood); the
    adjudicator's verdict stays beside it."""
    why = _reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record_row(change, number)
        if row.header is None:
            raise EventError(
                "cannot-correct",
                f"record {number} could not be read: it "
                "names no game or players to give a result to",
            )
        header = json.loads(row.header)
        official = _official(result, header["game"])
        report = json.loads(row.report)
        action = ResultSet(number, official, report["result"], report["valid"], row.official_result)
        _correct(change, row, action, why)
    return record(store, event_id, number)


def clear_result(
    store: Store, event_id: str, secret: str | None, number: int, reason: object
) -> RecordView:
    """Take back the official result: the adjudicator's verdict counts again."""
    why = _reason(reason)
    with changing(store, event_id, secret, DIRECTOR) as change:
        row = _record_row(change, number)
        if row.official_result is None:
            raise EventError(
                "no-official-result", f"record {number} has no official result to take back"
            )
        _correct(change, row, ResultCleared(number, row.official_result), why)
    return record(store, event_id, number)


def _official(value: object, game: str) -> str:
    """An official result in the game's canonical spelling; not ``*``."""
    spec = find_game(game)
    text = value.strip() if isinstance(value, str) and len(value) <= 40 else None
    canonical = normalise_result(text, spec) if text else None
    if canonical is None or canonical == "*":
        first, second = spec.colours
        raise EventError(  # well-formed, but no result of this record's game
            "bad-result",
            f"'result' must be a finished result of {game}: {first} or {second}, with +R, +T "
            f"or +F (resignation, time, forfeit){', or a margin' if spec.scored else ''}",
            field="result",
        )
    return canonical
