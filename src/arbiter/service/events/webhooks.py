"""Webhooks (``spec/events.md`` §12): the URLs a director asks an event's changes to be sent
to, as JSON signed with the server's key. This module holds their rules (the kinds of
change, what URL and which addresses may be given), the changes that add and remove one
(each an entry of the trail: :class:`~.actions.WebhookAdded`,
:class:`~.actions.WebhookRemoved`), and the list the director reads; the sending itself is
:mod:`.deliveries`', outside every change's transaction.

An address is checked when the webhook is added and again before each delivery, which
connects to the very address checked (:func:`addresses`): a name that resolved to a public
address once and to ``127.0.0.1`` since is refused then.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from arbiter.service.events import rules, storage
from arbiter.service.events.actions import (
    CORRECTIONS,
    State,
    WebhookAdded,
    WebhookFacts,
    WebhookRemoved,
)
from arbiter.service.events.chain import Entry
from arbiter.service.events.change import admit, changing, secret_hash
from arbiter.service.events.common import DIRECTOR, EventError
from arbiter.service.events.rows import DeliveryRow, WebhookRow
from arbiter.service.events.store import Store

__all__ = [
    "KINDS",
    "MAX_ACTIVE",
    "MAX_URL",
    "MAX_WEBHOOKS",
    "Added",
    "DeliveryView",
    "Target",
    "WebhookView",
    "add_webhook",
    "addresses",
    "facts_of",
    "kind_of",
    "list_webhooks",
    "remove_webhook",
    "target",
    "webhook_kinds",
]

MAX_ACTIVE = 10
"""Webhooks one event may have at once (not removed)."""
MAX_WEBHOOKS = 100
"""Webhooks one event may have had, removed ones included."""
MAX_URL = 2_000
"""The most characters of a webhook's URL."""
LISTED_DELIVERIES = 20
"""The deliveries of each webhook its list shows, the latest first."""

KINDS: Mapping[str, frozenset[str]] = {
    "round-published": frozenset({"round-paired", "round-replaced", "round-published"}),
    "result": frozenset(
        {"uploaded", "confirmed", "record-placed", "board-result-set", "result-reported"}
    ),
    "correction": CORRECTIONS
    | {
        "board-result-cleared",
        "round-unpaired",
        "player-changed",
        "player-removed",
        "bye-cancelled",
        "withdrawal-cancelled",
    },
    "finalised": frozenset({"finalised"}),
}
"""Each kind of change a webhook may ask for, and the actions of the trail it is made of. A
round paired or replaced as a draft (its details say ``"draft": true``) is published later,
by ``round-published``: only then is it sent."""

DRAFTED = frozenset({"round-paired", "round-replaced"})
"""The actions whose entry is a draft, not sent, when its details say so."""


def kind_of(entry: Entry) -> str | None:
    """The kind of change ``entry`` is (None: none a webhook is sent)."""
    if entry.action in DRAFTED and entry.details.get("draft") is True:
        return None
    return next((kind for kind, actions in KINDS.items() if entry.action in actions), None)


def webhook_kinds(value: object) -> tuple[str, ...]:
    """The kinds of change a webhook asks for (``events``), in the order of :data:`KINDS`:
    all of them when not given. Raises ``bad-field`` for a value that is not a list of
    known kinds, or an empty one."""
    if value is None:
        return tuple(KINDS)
    if not isinstance(value, list) or not value or not all(isinstance(k, str) for k in value):
        raise EventError(
            "bad-field", f"'events' must be a list of kinds of change: {', '.join(KINDS)}",
            field="events",
        )  # fmt: skip
    unknown = [kind for kind in value if kind not in KINDS]
    if unknown:
        raise EventError(
            "bad-field",
            f"'events' names {str(unknown[0])[:50]!r}, no kind of change: {', '.join(KINDS)}",
            field="events",
        )
    return tuple(kind for kind in KINDS if kind in value)


# --- where a webhook may send ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """A webhook's URL, taken apart: scheme, host (an IP address without brackets, or a
    name), port, and the path with its query."""

    url: str
    scheme: str
    host: str
    port: int
    path: str


def target(value: object) -> Target:
    """A webhook's URL: at most :data:`MAX_URL` characters of printable ASCII, ``http`` or
    ``https``, with a host and without credentials. Raises ``bad-field`` (``field``:
    ``url``) naming what is wrong."""
    if not isinstance(value, str) or not value:
        raise _bad_url("'url' must be a non-empty text")
    if len(value) > MAX_URL:
        raise _bad_url(f"'url' may be at most {MAX_URL} characters")
    if not value.isascii() or not value.isprintable() or " " in value:
        raise _bad_url(
            "'url' must be printable ASCII without spaces (a name of another script in its "
            "punycode form, other characters percent-encoded)"
        )
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as err:
        raise _bad_url(f"'url' is not a URL ({err})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise _bad_url("'url' must be an http or https URL")
    if "@" in parts.netloc:
        raise _bad_url("'url' may not hold credentials (user@host): the signature says who sent")
    if not parts.hostname:
        raise _bad_url("'url' has no host")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    default = 443 if scheme == "https" else 80
    return Target(value, scheme, parts.hostname, port or default, path)


def _bad_url(message: str) -> EventError:
    return EventError("bad-field", message, field="url")


Resolver = Callable[[str, int], Sequence[str]]
"""What resolves a host name and port to the addresses it has."""


def resolve(host: str, port: int) -> list[str]:
    """The addresses of ``host`` (an IP address is its own), by the system's resolver."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def addresses(where: Target, *, allow_private: bool, resolver: Resolver = resolve) -> list[str]:
    """The addresses a delivery to ``where`` may connect to: every address its host
    resolves to, each of them public unless ``allow_private``. Raises
    ``webhook-address-refused`` for a host that does not resolve, or that has any address
    that is private, loopback, link-local, multicast, reserved or unspecified (or otherwise
    not public): the server would be sending into its own network."""
    try:
        found = resolver(where.host, where.port)
    except (OSError, UnicodeError):
        found = []
    if not found:
        raise EventError(
            "webhook-address-refused",
            f"the webhook's host {where.host[:200]!r} does not resolve to an address",
            address=None,
        )
    if allow_private:
        return list(found)
    for address in found:
        why = _not_public(address)
        if why is not None:
            raise EventError(
                "webhook-address-refused",
                f"the webhook's host {where.host[:200]!r} has the address {address}, which is "
                f"{why}: this server sends only to public addresses (unless it is started with "
                "--allow-private-webhooks)",
                address=address,
                why=why,
            )
    return list(found)


def _not_public(text: str) -> str | None:
    """Why an address is not one a webhook may reach (None: it is public)."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    for why, test in (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    ):
        if test:
            return why
    return None if address.is_global else "not a public address"


# --- what the director reads ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeliveryView:
    """One entry sent (or to be sent) to a webhook, as the director reads it."""

    row: DeliveryRow

    def to_dict(self) -> dict[str, Any]:
        row = self.row
        return {
            "entry": row.entry,
            "status": row.status,
            "attempts": row.attempts,
            "next_at": row.next_at if row.status in ("pending", "retrying") else None,
            "created_at": row.created_at,
            "attempted_at": row.attempted_at,
            "delivered_at": row.delivered_at,
            "http_status": row.http_status,
            "error": row.error,
        }


@dataclass(frozen=True, slots=True)
class WebhookView:
    """A webhook as the director reads it: its number, URL, kinds of change, when it was
    added and removed, and its latest deliveries."""

    row: WebhookRow
    deliveries: tuple[DeliveryView, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        row = self.row
        return {
            "number": row.number,
            "url": row.url,
            "events": row.events.split(","),
            "active": row.removed_at is None,
            "created_at": row.created_at,
            "removed_at": row.removed_at,
            "deliveries": [one.to_dict() for one in self.deliveries],
        }


@dataclass(frozen=True, slots=True)
class Added:
    """A webhook added (``created``), or found added already by the same request."""

    webhook: WebhookView
    created: bool


def facts_of(row: WebhookRow) -> WebhookFacts:
    """What a webhook's row says of what the trail says."""
    return WebhookFacts(row.url, tuple(row.events.split(",")), row.created_at, row.removed_at)


# --- the changes ----------------------------------------------------------------------------


def add_webhook(
    store: Store,
    event_id: str,
    secret: str | None,
    fields: Mapping[str, object],
    event_url: str,
    *,
    allow_private: bool = False,
    resolver: Resolver = resolve,
) -> Added:
    """Send the event's changes (``{"url", "events"?}``) to a URL from now on; the same URL
    and kinds while that webhook is active is that webhook (``created`` False). The token is
    checked first (:func:`~.change.admit`), so that nobody else has the server look a
    name up; the address (:func:`addresses`) before the event is locked."""
    admit(store, event_id, secret, DIRECTOR)
    unknown = sorted(set(fields) - {"url", "events"})
    if unknown:
        raise EventError("bad-field", f"unknown field {unknown[0][:50]!r}", field=unknown[0][:50])
    where = target(fields.get("url"))
    kinds = webhook_kinds(fields.get("events"))
    addresses(where, allow_private=allow_private, resolver=resolver)
    with changing(store, event_id, secret, DIRECTOR) as change:
        rows = storage.webhook_rows(change.tx, event_id)
        active = [row for row in rows if row.removed_at is None]
        for row in active:
            if row.url == where.url and facts_of(row).events == kinds:
                change.repeat(change.made_by((WebhookAdded.NAME,), number=row.number))
                return Added(WebhookView(row), False)
        if len(active) >= MAX_ACTIVE or len(rows) >= MAX_WEBHOOKS:
            raise EventError(
                "too-many-webhooks",
                f"an event may have {MAX_ACTIVE} webhooks at once, and {MAX_WEBHOOKS} in all",
            )
        action = WebhookAdded(len(rows) + 1, where.url, kinds)
        facts = change.effect(action).webhooks[action.number]
        entry = change.log(action)
        row = WebhookRow(
            event_id, action.number, facts.url, ",".join(facts.events), facts.created_at,
            facts.removed_at, entry.number, event_url,
        )  # fmt: skip
        storage.insert_webhook(change.tx, row)
    return Added(WebhookView(row), True)


def remove_webhook(
    store: Store, event_id: str, secret: str | None, number: int, reason: object = None
) -> WebhookView:
    """Send nothing more to webhook ``number``; what waited to be sent to it is cancelled.
    A webhook removed already is answered as it stands."""
    why = rules.reason(reason, required=False)
    with changing(store, event_id, secret, DIRECTOR) as change:
        rows = storage.webhook_rows(change.tx, event_id) if rules.names_a_row(number) else []
        row = next((one for one in rows if one.number == number), None)
        if row is None:
            raise EventError("no-such-webhook", f"the event has no webhook {number}")
        if row.removed_at is not None:
            change.repeat(change.made_by((WebhookRemoved.NAME,), webhook=number))
            return WebhookView(row)
        action = WebhookRemoved(number)
        after = change.effect(action, State(webhooks={number: facts_of(row)}))
        removed_at = after.webhooks[number].removed_at
        assert removed_at is not None  # a removal says when
        storage.remove_webhook(change.tx, event_id, number, removed_at)
        change.log(action, why)
    return WebhookView(
        WebhookRow(
            row.event_id,
            row.number,
            row.url,
            row.events,
            row.created_at,
            removed_at,
            row.seen,
            row.event_url,
        )  # fmt: skip
    )


def list_webhooks(store: Store, event_id: str, secret: str | None) -> list[WebhookView]:
    """The event's webhooks, removed ones included, each with its latest deliveries, for
    its director."""
    secret = rules.read_token(secret)
    with storage.reading(store) as tx:
        rules.found_event(storage.event_row(tx, rules.event_id(event_id)), event_id)
        rules.actor(storage.find_token(tx, secret_hash(secret)), event_id, DIRECTOR)
        rows = storage.webhook_rows(tx, event_id)
        sent = storage.delivery_rows(tx, event_id, LISTED_DELIVERIES)
    return [
        WebhookView(row, tuple(DeliveryView(one) for one in sent if one.webhook == row.number))
        for row in rows
    ]
