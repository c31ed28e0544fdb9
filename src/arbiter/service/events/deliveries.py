"""Sending an event's changes to its webhooks (``spec/events.md`` §12), outside every
change's transaction: nothing is added to the way of a change.

A :class:`Deliverer` (one thread per server process) polls the database. For each webhook
whose event's trail goes past the last entry considered for it, it reads the entries after
it, claims those of the kinds the webhook asks for by inserting their ``deliveries`` rows and
moving the webhook's ``seen`` past them, in one transaction that only one process makes (the
move is made only from where it was read). Then it sends each webhook's first delivery not
done with, when due: taken first (``sending``, for a while, so that a process that dies lets
another take it again), then POSTed as JSON signed with the server's key, then kept as
``delivered``, or ``retrying`` after a wait that triples each time, or ``failed`` after
:data:`MAX_ATTEMPTS`. A webhook's changes are sent in the order of the trail, each once the
one before it is done with. Each round of work is bounded.

The address is checked again before each attempt, and the connection made to the very
address checked (:class:`PinnedHTTPConnection`): no second lookup that could answer
otherwise. Redirects are never followed: a 3xx is an attempt that failed.
"""

from __future__ import annotations

import base64
import http.client
import json
import logging
import os
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from arbiter.service.events import storage
from arbiter.service.events.chain import Entry
from arbiter.service.events.common import DamagedRow, DatabaseError, EventError, now
from arbiter.service.events.receipts import ServerKey
from arbiter.service.events.rows import DeliveryRow, WebhookRow
from arbiter.service.events.store import Store
from arbiter.service.events.webhooks import Resolver, Target, addresses, kind_of, resolve, target

__all__ = [
    "BODY_VERSION",
    "MAX_ATTEMPTS",
    "TIMEOUT_SECONDS",
    "Deliverer",
    "PinnedHTTPConnection",
    "PinnedHTTPSConnection",
    "backoff_seconds",
    "body_of",
    "running",
    "start_deliverer",
    "stop_deliverers",
]

LOG = logging.getLogger("arbiter.webhooks")

BODY_VERSION = 1
"""The version of a delivery's body (its ``version``)."""
MAX_ATTEMPTS = 7
"""Attempts made of a delivery before it is ``failed``."""
TIMEOUT_SECONDS = 10.0
"""How long an attempt waits to connect, and then for each part of the answer."""
LEASE_SECONDS = 120.0
"""How long a delivery taken to be sent stays the taker's (``sending``): a process that dies
while sending lets another take it again after this."""
WEBHOOKS_PER_ROUND = 20
"""Webhooks whose new entries one round of work claims, at most."""
ENTRIES_PER_CLAIM = 100
"""Entries of one webhook one claim reads, at most."""
SENDS_PER_ROUND = 10
"""Attempts one round of work makes, at most."""
ANSWER_BYTES = 64 * 1024
"""The most of a receiver's answer read (and thrown away)."""
BACKOFF_ENV = "ARBITER_WEBHOOK_BACKOFF_SECONDS"


def backoff_seconds(attempts: int) -> float:
    """The wait before the next attempt of a delivery tried ``attempts`` times: 5 s, then
    15 s, 45 s... (the first, 5 s, set by ``ARBITER_WEBHOOK_BACKOFF_SECONDS``)."""
    try:
        base = float(os.environ.get(BACKOFF_ENV, "5"))
    except ValueError:
        base = 5.0
    return float(max(0.0, base) * 3 ** max(0, attempts - 1))


def body_of(event_id: str, kind: str, entry: Entry, event_url: str) -> bytes:
    """The body a webhook is sent for ``entry``: the entry as the public trail shows it,
    with the event, its kind of change and the event's page."""
    said = {
        "event": event_id,
        "kind": kind,
        "entry": {
            "number": entry.number,
            "at": entry.at,
            "action": entry.action,
            "details": entry.details,
            "reason": entry.reason,
            "hash": entry.hash,
        },
        "version": BODY_VERSION,
        "url": event_url,
    }
    return json.dumps(said, ensure_ascii=False, separators=(",", ":")).encode()


# --- one attempt ----------------------------------------------------------------------------


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to ``address`` (an address checked), for the URL's host: the
    ``Host`` header names the host, the socket goes to the address, with no lookup."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """:class:`PinnedHTTPConnection` over TLS: the certificate is checked for the URL's
    host (``server_hostname``), whatever address it was reached at."""

    def __init__(
        self, host: str, port: int, address: str, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self.address = address
        self.tls = context

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one attempt got: the receiver's HTTP status, or why there was none."""

    status: int | None
    error: str | None

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(
    where: Target,
    data: bytes,
    headers: dict[str, str],
    *,
    allow_private: bool,
    resolver: Resolver = resolve,
    timeout: float = TIMEOUT_SECONDS,
) -> Attempt:
    """POST ``data`` to ``where``, its address checked now; never follows a redirect."""
    try:
        found = addresses(where, allow_private=allow_private, resolver=resolver)
    except EventError as err:
        return Attempt(None, err.message[:300])
    failure = "no address"
    for address in found:
        connection: http.client.HTTPConnection
        if where.scheme == "https":
            context = ssl.create_default_context()
            connection = PinnedHTTPSConnection(where.host, where.port, address, timeout, context)
        else:
            connection = PinnedHTTPConnection(where.host, where.port, address, timeout)
        try:
            connection.request("POST", where.path, body=data, headers=headers)
            answer = connection.getresponse()
            answer.read(ANSWER_BYTES)
            if 300 <= answer.status < 400:
                return Attempt(answer.status, "the receiver redirected: redirects are not followed")
            return Attempt(answer.status, None)
        except (OSError, http.client.HTTPException) as err:
            failure = f"{type(err).__name__}: {err}"
        finally:
            connection.close()
    return Attempt(None, failure[:300])


# --- the deliverer ------------------------------------------------------------------------


def _later(seconds: float) -> str:
    """The time ``seconds`` from now, written as :func:`~.common.now` writes it."""
    at = datetime.now(UTC) + timedelta(seconds=seconds)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Deliverer:
    """Sends the webhooks of the events of one database, signing with ``key``. :meth:`tick`
    does one bounded round of work; :meth:`start` runs rounds in a daemon thread every
    ``interval`` seconds (at once again while there was work), until :meth:`stop`."""

    def __init__(
        self,
        store: Callable[[], Store],
        key: ServerKey,
        *,
        allow_private: bool = False,
        interval: float = 1.0,
        resolver: Resolver = resolve,
        timeout: float = TIMEOUT_SECONDS,
    ) -> None:
        self.store = store
        self.key = key
        self.allow_private = allow_private
        self.interval = interval
        self.resolver = resolver
        self.timeout = timeout
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def tick(self) -> int:
        """Claim the entries new to each webhook, then make the attempts due; how many
        were claimed and attempted (0: there was nothing to do)."""
        store = self.store()
        return self.claim(store) + self.send(store)

    def claim(self, store: Store) -> int:
        """Claim the entries each webhook behind has not considered yet; how many."""
        with storage.reading(store) as tx:
            behind = storage.webhooks_behind(tx, WEBHOOKS_PER_ROUND)
        claimed = 0
        for webhook in behind:
            try:
                claimed += self._claim_one(store, webhook)
            except DamagedRow as err:
                LOG.error("webhook %d of event %s: %s", webhook.number, err.event, err.words)
        return claimed

    def _claim_one(self, store: Store, webhook: WebhookRow) -> int:
        kinds = set(webhook.events.split(","))
        with storage.writing(store) as tx:
            found = storage.entries_after(tx, webhook.event_id, webhook.seen, ENTRIES_PER_CLAIM)
            if not found:
                return 0
            at = now()
            claimed = [
                DeliveryRow(webhook.event_id, webhook.number, entry.number, "pending", 0, at, at)
                for entry in found
                if kind_of(entry) in kinds
            ]
            if not storage.claim_entries(tx, webhook, found[-1].number, claimed):
                return 0
        return len(claimed) or 1

    def send(self, store: Store) -> int:
        """Make the attempts due (at most :data:`SENDS_PER_ROUND`); how many."""
        with storage.reading(store) as tx:
            due = storage.due_deliveries(tx, now(), SENDS_PER_ROUND)
        made = 0
        for delivery, webhook in due:
            if self.stopping.is_set():
                break
            made += self._attempt(store, delivery, webhook)
        return made

    def _attempt(self, store: Store, delivery: DeliveryRow, webhook: WebhookRow) -> int:
        at = now()
        with storage.writing(store) as tx:
            if not storage.take_delivery(tx, delivery, at, _later(LEASE_SECONDS)):
                return 0
            found = storage.entries_after(tx, delivery.event_id, delivery.entry - 1, 1)
        attempts = delivery.attempts + 1
        entry = found[0] if found and found[0].number == delivery.entry else None
        kind = None if entry is None else kind_of(entry)
        if entry is None or kind is None:  # cannot happen but to a trail changed behind our back
            done = replace(delivery, status="failed", attempts=attempts, next_at=at,
                           error="the entry is not in the trail as it was claimed")  # fmt: skip
        else:
            data = body_of(delivery.event_id, kind, entry, webhook.event_url)
            try:
                where = target(webhook.url)
            except EventError as err:  # a URL no change could have kept (an archive's)
                got = Attempt(None, err.message[:300])
            else:
                got = post(
                    where, data, self._headers(delivery, data),
                    allow_private=self.allow_private, resolver=self.resolver,
                    timeout=self.timeout,
                )  # fmt: skip
            done = self._outcome(delivery, attempts, got)
        with storage.writing(store) as tx:
            storage.finish_delivery(tx, done)
        return 1

    def _headers(self, delivery: DeliveryRow, data: bytes) -> dict[str, str]:
        return {
            "Content-Type": "application/json",
            "User-Agent": "arbiter-webhooks",
            "Arbiter-Signature": base64.b64encode(self.key.sign_bytes(data)).decode(),
            "Arbiter-Key": self.key.public,
            "Arbiter-Delivery": f"{delivery.event_id}/{delivery.webhook}/{delivery.entry}",
        }

    @staticmethod
    def _outcome(delivery: DeliveryRow, attempts: int, got: Attempt) -> DeliveryRow:
        at = now()
        if got.delivered:
            return replace(delivery, status="delivered", attempts=attempts, next_at=at,
                           delivered_at=at, http_status=got.status, error=None)  # fmt: skip
        if attempts >= MAX_ATTEMPTS:
            return replace(delivery, status="failed", attempts=attempts, next_at=at,
                           http_status=got.status, error=got.error)  # fmt: skip
        return replace(delivery, status="retrying", attempts=attempts,
                       next_at=_later(backoff_seconds(attempts)), http_status=got.status,
                       error=got.error)  # fmt: skip

    # --- the thread -----------------------------------------------------------------------

    def start(self) -> None:
        """Run rounds of work in a daemon thread, until :meth:`stop`."""
        if self.thread is not None:
            return
        self.thread = threading.Thread(target=self._run, name="arbiter-webhooks", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(self.interval):
            try:
                while self.tick() and not self.stopping.is_set():
                    pass  # work begets work: go on at once while there is some
            except DatabaseError as err:
                LOG.error("webhooks: the database does not answer: %s", err)
            except Exception:  # the thread goes on whatever one round met
                LOG.exception("webhooks: a round of deliveries failed")

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the thread after the attempt under way, waiting for it up to ``timeout``."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout)


_RUNNING: dict[tuple[int, str], Deliverer] = {}
_STARTING = threading.Lock()


def running(url: str) -> Deliverer | None:
    """The deliverer this process runs for the database of ``url``, if any."""
    return _RUNNING.get((os.getpid(), url))


def start_deliverer(url: str, make: Callable[[], Deliverer]) -> Deliverer:
    """The deliverer of the database of ``url`` in this process: ``make()``, started, the
    first time (one per process and database; a forked worker starts its own)."""
    with _STARTING:
        key = (os.getpid(), url)
        found = _RUNNING.get(key)
        if found is None:
            found = _RUNNING[key] = make()
            found.start()
        return found


def stop_deliverers() -> None:
    """Stop every deliverer this process runs (tests; a server stopping)."""
    with _STARTING:
        found = [one for (pid, _), one in _RUNNING.items() if pid == os.getpid()]
        _RUNNING.clear()
    for one in found:
        one.stop()
