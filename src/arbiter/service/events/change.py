"""The write transaction every change to an event is made in (``spec/events.md`` §5):
the event locked, the token checked, the trail's end read, the entries appended, the
event's version kept, and a change sent again with its ``Idempotency-Key`` answered as it
was the first time. Every kind of event makes its changes through :func:`changing`; what
the changes are is :mod:`.operations` and each kind's own folder."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import secrets
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from arbiter.service.events import rules, storage
from arbiter.service.events.actions import Action, Effect, State
from arbiter.service.events.chain import GENESIS, Entry, make_entry
from arbiter.service.events.common import now
from arbiter.service.events.idempotency import ANSWERING, KEYED, RequestKey, expired, replay
from arbiter.service.events.rows import AnswerRow, ChainEnd, ChangeFacts, EventRow
from arbiter.service.events.rules import Actor
from arbiter.service.events.storage import Tx
from arbiter.service.events.store import Store

__all__ = [
    "REPEATED",
    "WRITTEN",
    "Change",
    "admit",
    "answered_before",
    "changing",
    "keep_answer",
    "keep_request",
    "request_key",
    "new_event_id",
    "new_secret",
    "require_token",
    "secret_hash",
]


# --- identifiers, secrets -----------------------------------------------------------------


def new_event_id() -> str:
    """13 random characters of base 32 (65 bits): an event's address, not guessable."""
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()[:13]


def new_secret() -> str:
    """A token: ``arb_`` and 256 random bits. Shown once; only its SHA-256 is kept."""
    return "arb_" + secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


require_token = rules.change_token
"""The token a change was asked with."""


def admit(store: Store, event_id: str, secret: str | None, role: str) -> EventRow:
    """The event that the holder of ``secret`` may change with ``role``, as it stands: the
    checks of :func:`changing` in a read transaction, made before an upload's body is read
    or adjudicated, so that a request refused anyway costs one query. The change itself
    checks again in its own transaction (a token may be revoked in between)."""
    secret = rules.change_token(secret)
    with storage.glancing(store) as tx:
        found = storage.admission(tx, rules.event_id(event_id), secret_hash(secret))
    event, token = found if found else (rules.found_event(None, event_id), None)
    rules.actor(token, event_id, role)
    rules.open_event(event)
    return event


# --- the write transaction ----------------------------------------------------------------


@dataclass(slots=True)
class Change:
    """An open change to one event: its transaction, its row (locked), who makes it and
    when, and its trail's last entry (each entry the change appends is the next one).
    ``facts``: what was read with the token once the event was locked."""

    tx: Tx
    event: EventRow
    actor: Actor
    at: str
    end: ChainEnd | None = None
    facts: ChangeFacts | None = None

    def effect(self, action: Action, before: State | None = None) -> Effect:
        """What ``action``, made now, changes of ``before`` (what it touches, as the tables
        hold it): the very function verification replays."""
        return action.effect(before or State(), self.at)

    def log(self, action: Action, reason: str | None = None) -> Entry:
        """Append the entry that records ``action`` to the event's trail."""
        entry = self.entry(action, reason)
        storage.append_entry(self.tx, entry)
        return self.appended(entry)

    def entry(self, action: Action, reason: str | None = None) -> Entry:
        """The entry that records ``action``, the next of the event's trail, for the caller
        to append (then :meth:`appended`)."""
        end = self.end
        number, prev = (end.number + 1, end.hash) if end else (1, GENESIS)
        return make_entry(
            self.event.id,
            number,
            self.at,
            self.actor.token,
            action.NAME,
            action.details(),
            reason,
            prev,
        )

    def appended(self, entry: Entry) -> Entry:
        """``entry`` is appended: it is the trail's end, and what the API signs."""
        self.end = ChainEnd(entry.number, entry.hash)
        WRITTEN.set(entry)
        return entry

    @property
    def token_player(self) -> int | None:
        """The player (by id) the token of the change was made for, if any."""
        token = self.facts.token if self.facts is not None else None
        return token.player if token is not None else None

    def repeat(self, first: Entry | None) -> None:
        """The change asked for was made already, by the entry ``first``: nothing is
        written, and the answer is the one the first request had, its receipt signing
        ``first`` (the event's head when it cannot be found)."""
        if first is not None:
            WRITTEN.set(first)
        REPEATED.set(True)

    def made_by(self, actions: Sequence[str], **about: int) -> Entry | None:
        """The last entry of ``actions`` about ``about`` (``record=5``): what made the
        state a change sent again finds."""
        return storage.latest_entry(self.tx, self.event.id, actions, about)


WRITTEN: ContextVar[Entry | None] = ContextVar("arbiter_events_written", default=None)
"""The last entry this context appended to a trail: what the API signs as the receipt of a
change (``spec/events.md`` §6). A face sets it to None before it calls an operation."""
REPEATED: ContextVar[bool] = ContextVar("arbiter_events_repeated", default=False)
"""Whether the change this context asked for was found made already (the same request sent
again): nothing was written, and the answer is the first one's. A face sets it to False
before it calls an operation, and says so in its answer."""


@contextlib.contextmanager
def changing(
    store: Store,
    event_id: str,
    secret: str | None,
    role: str,
    sources: Sequence[str] | None = None,
) -> Iterator[Change]:
    """A change to ``event_id`` by the holder of ``secret``, who needs ``role``: the event
    locked first (its ``version`` bumped), then in one statement the token and the trail's
    last entry (and for an upload, ``sources`` the SHA-256 of each of its sources, what the
    event holds and which of them it keeps: :attr:`Change.facts`), the token checked, then
    the event open. Raises :class:`~.common.EventError`: no token or one not valid, another
    event's or one without the right, no such event, an event finalised. At the end the
    event's ``version`` is its trail's last entry: as the lock left it when the change
    appended one entry, set again otherwise."""
    secret = rules.change_token(secret)
    with storage.writing(store) as tx:
        event = rules.found_event(storage.lock_event(tx, rules.event_id(event_id)), event_id)
        facts = storage.change_facts(tx, event_id, secret_hash(secret), sources)
        actor = rules.actor(facts.token, event_id, role)
        rules.open_event(event)
        keyed = request_key(tx, event_id, None if sources is None else tuple(sources))
        change = Change(tx, event, actor, now(), facts.end, facts)
        yield change
        number = change.end.number if change.end else 0
        if number != event.version:
            storage.set_version(tx, event_id, number)
        if keyed is not None:
            keep_request(tx, event_id, keyed, number, change.at)


def request_key(
    tx: Tx, scope: str, sources: tuple[str, ...] | None
) -> tuple[RequestKey, str] | None:
    """The key a change was sent with and its request's fingerprint (None: sent without
    one); raises :class:`~.idempotency.Replayed` with the first answer when the key was
    sent before with the same request (``spec/events.md`` §5)."""
    keyed = KEYED.get()
    if keyed is None:
        return None
    fingerprint = keyed.fingerprint(sources)
    found = storage.kept_answer(tx, scope, keyed.key_hash)
    if found is not None:
        raise replay(found, keyed, fingerprint)
    return keyed, fingerprint


def answered_before(store: Store, event_id: str) -> None:
    """Raise :class:`~.idempotency.Replayed` (or its refusals) when the change being asked
    was made before with its key: checked ahead of work done outside the write transaction
    (a pairing), which the same request sent again need not do; the change checks again
    under the event's lock."""
    if KEYED.get() is None:
        return
    with storage.reading(store) as tx:
        request_key(tx, event_id, None)


def keep_request(tx: Tx, scope: str, keyed: tuple[RequestKey, str], entry: int, at: str) -> None:
    """Keep the key of a change made, in its transaction: the same key sent again waits
    for its answer (:func:`keep_answer`) and is never made twice."""
    key, fingerprint = keyed
    row = AnswerRow(scope, key.key_hash, fingerprint, entry, None, None, at)
    storage.keep_request(tx, row, expired(at))
    ANSWERING.set((scope, key))


def keep_answer(store: Store, scope: str, key: RequestKey, status: int, body: bytes) -> None:
    """The answer to a change made with ``key`` (in ``scope``), sealed for the key, kept to
    answer the same request sent again."""
    with storage.writing(store) as tx:
        storage.keep_answer(tx, scope, key.key_hash, status, key.seal(scope, body))
