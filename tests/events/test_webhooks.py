"""Webhooks (spec/events.md §12): which URLs and addresses may be given, the trail's entries
that add and remove one, and deliveries to a real receiver listening on 127.0.0.1, each body's
signature checked with the event's public key as a receiver would."""

from __future__ import annotations

import base64
import io
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import Flask
from flask.testing import FlaskClient

from arbiter.service.events.actions import Replay, State, WebhookAdded, WebhookRemoved
from arbiter.service.events.archive import export_event, import_event
from arbiter.service.events.chain import GENESIS, make_entry
from arbiter.service.events.common import EventError
from arbiter.service.events.deliveries import Deliverer, stop_deliverers
from arbiter.service.events.migrate import open_store
from arbiter.service.events.webhooks import addresses, kind_of, target, webhook_kinds
from arbiter.service.web import create_app
from arbiter.service.web.events_api import server_key
from tests.events.conftest import bearer, body, create

ROOT = Path(__file__).resolve().parents[2]
ROUND_1 = ROOT / "samples" / "tournament" / "round-1.grn"


# --- the rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.org/hook", "http or https"),
        ("javascript:alert(1)", "http or https"),
        ("https://user:secret@example.org/hook", "credentials"),
        ("https:///hook", "no host"),
        ("https://example.org/" + "a" * 2000, "at most 2000"),
        ("https://exämple.org/", "printable ASCII"),
        ("https://example.org/a b", "printable ASCII"),
        ("https://example.org:99999/", "not a URL"),
        (7, "non-empty text"),
    ],
)
def test_a_url_that_is_not_http_or_https_to_a_host_is_refused(url: object, why: str) -> None:
    with pytest.raises(EventError, match=why) as refused:
        target(url)
    assert refused.value.code == "bad-field" and refused.value.extra == {"field": "url"}


def test_a_url_is_taken_apart_for_the_connection() -> None:
    found = target("HTTPS://Example.org:8443/in?x=1#top")
    assert (found.scheme, found.host, found.port, found.path) == (
        "https", "example.org", 8443, "/in?x=1",
    )  # fmt: skip
    assert target("http://[2001:db8::1]/").host == "2001:db8::1"
    assert target("http://example.org").port == 80 and target("http://example.org").path == "/"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:8080/", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://10.1.2.3/", "private"),
        ("http://192.168.0.7/", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://224.0.0.1/", "multicast"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://100.64.0.1/", "not a public address"),
        ("http://localhost:9/", "loopback"),
    ],
)
def test_private_addresses_are_refused_unless_allowed(url: str, why: str) -> None:
    where = target(url)
    with pytest.raises(EventError, match=why) as refused:
        addresses(where, allow_private=False)
    assert refused.value.code == "webhook-address-refused"
    assert addresses(where, allow_private=True)


def test_a_public_address_is_taken_and_a_name_that_resolves_to_none_refused() -> None:
    assert addresses(target("https://93.184.216.34/hook"), allow_private=False) == ["93.184.216.34"]
    # every address a name has is checked, not only the first
    mixed = target("https://hooks.example/")
    with pytest.raises(EventError, match="10.0.0.5, which is private"):
        addresses(mixed, allow_private=False, resolver=lambda h, p: ["93.184.216.34", "10.0.0.5"])
    with pytest.raises(EventError, match="does not resolve"):
        addresses(mixed, allow_private=True, resolver=lambda h, p: [])


def test_the_kinds_of_change_and_the_actions_they_are_made_of() -> None:
    assert webhook_kinds(None) == ("round-published", "result", "correction", "finalised")
    assert webhook_kinds(["finalised", "result"]) == ("result", "finalised")
    for bad in (["results"], [], "result", [1]):
        with pytest.raises(EventError) as refused:
            webhook_kinds(bad)
        assert refused.value.code == "bad-field" and refused.value.extra == {"field": "events"}

    def entry(action: str, **details: Any) -> Any:
        return make_entry("abcdefghijklm", 2, "2026-11-28T10:00:00.000Z", 1, action, details,
                          None, GENESIS)  # fmt: skip

    assert kind_of(entry("round-paired", round=1, boards=[], byes=[])) == "round-published"
    assert kind_of(entry("round-paired", round=1, boards=[], byes=[], draft=True)) is None
    assert kind_of(entry("round-published", round=1)) == "round-published"
    assert kind_of(entry("uploaded", upload=1)) == "result"
    assert kind_of(entry("result-reported", round=1)) == "result"
    assert kind_of(entry("excluded", record=1, was="accepted")) == "correction"
    assert kind_of(entry("withdrawal-cancelled", player=1, was=2)) == "correction"
    assert kind_of(entry("finalised")) == "finalised"
    assert kind_of(entry("token-issued")) is None
    assert kind_of(entry("webhook-added")) is None


# --- the actions ----------------------------------------------------------------------------


def test_a_webhook_added_then_removed_as_the_trail_replays_it() -> None:
    added = WebhookAdded(1, "https://example.org/in", ("result", "finalised"))
    assert added.details() == {
        "number": 1, "url": "https://example.org/in", "events": ["result", "finalised"],
    }  # fmt: skip
    assert WebhookAdded.from_details(added.details()) == added
    done = Replay()
    done.apply(added, "2026-11-28T10:00:00.000Z")
    done.apply(WebhookRemoved(1), "2026-11-28T11:00:00.000Z")
    facts = done.state.webhooks[1]
    assert (facts.url, facts.events, facts.created_at, facts.removed_at) == (
        "https://example.org/in", ("result", "finalised"), "2026-11-28T10:00:00.000Z",
        "2026-11-28T11:00:00.000Z",
    )  # fmt: skip
    after = State().after(added.effect(State(), "2026-11-28T10:00:00.000Z"))
    assert after.webhooks[1].removed_at is None
    with pytest.raises(KeyError):
        WebhookRemoved(2).effect(after, "2026-11-28T11:00:00.000Z")
    with pytest.raises(ValueError, match="no list"):
        WebhookAdded.from_details({"number": 1, "url": "x", "events": "result"})


# --- a receiver -----------------------------------------------------------------------------


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 that keeps what it is sent and answers each POST with the
    next of ``answers`` (200 once they are used up)."""

    url: str
    answers: list[int] = field(default_factory=list)
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(data) for _, data in self.received]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    kept = Receiver("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            data = self.rfile.read(int(self.headers["Content-Length"]))
            kept.received.append((dict(self.headers.items()), data))
            status = kept.answers.pop(0) if kept.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            kept.arrived.set()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    kept.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield kept
    finally:
        server.shutdown()
        server.server_close()


def checked(key: str, headers: dict[str, str], data: bytes) -> None:
    """Check a delivery as a receiver does: its signature, by the event's public key."""
    raw = key.removeprefix("ed25519:")
    public = Ed25519PublicKey.from_public_bytes(
        base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    )
    public.verify(base64.b64decode(headers["Arbiter-Signature"]), data)


@pytest.fixture
def hooked(database: str) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": database, "ALLOW_PRIVATE_WEBHOOKS": True,
         "WEBHOOK_DELIVERY": False}
    )  # fmt: skip


@pytest.fixture
def on_sqlite(tmp_path: Path) -> Flask:
    """:func:`hooked` on SQLite alone, for what the database's kind does not change."""
    return create_app(
        {"TESTING": True, "DATABASE": f"sqlite:///{tmp_path / 'e.sqlite3'}",
         "ALLOW_PRIVATE_WEBHOOKS": True, "WEBHOOK_DELIVERY": False}
    )  # fmt: skip


def deliverer(app: Flask) -> Deliverer:
    with app.app_context():
        key = server_key()
    url = app.config["DATABASE"]
    return Deliverer(lambda: open_store(url), key, allow_private=True)


def deliver(app: Flask) -> None:
    made = deliverer(app)
    for _ in range(100):
        if not made.tick():
            return
    raise AssertionError("the deliverer never ran out of work")


def upload(client: FlaskClient, event: str, token: str) -> Any:
    data = {"file": [(io.BytesIO(ROUND_1.read_bytes()), ROUND_1.name)]}
    answer = client.post(f"/api/v1/events/{event}/records", data=data, headers=bearer(token),
                         content_type="multipart/form-data")  # fmt: skip
    assert answer.status_code == 201, answer.json
    return body(answer)


def add(client: FlaskClient, event: str, token: str, **fields: Any) -> Any:
    return client.post(f"/api/v1/events/{event}/webhooks", json=fields, headers=bearer(token))


# --- deliveries -----------------------------------------------------------------------------


def test_each_change_reaches_its_webhooks_signed_in_order_of_the_trail(
    hooked: Flask, receiver: Receiver
) -> None:
    client = hooked.test_client()
    event, token = create(client)
    results = add(client, event, token, url=receiver.url + "?only=results",
                  events=["finalised", "result"])  # fmt: skip
    assert results.status_code == 201
    assert body(results)["events"] == ["result", "finalised"] and "receipt" in body(results)
    every = add(client, event, token, url=receiver.url)
    assert every.status_code == 201 and body(every)["number"] == 2
    upload(client, event, token)
    reason = {"reason": "a player's copy"}
    ok = client.post(f"/api/v1/events/{event}/records/1/exclude", json=reason,
                     headers=bearer(token))  # fmt: skip
    assert ok.status_code == 200
    assert client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token)).status_code == 200
    deliver(hooked)

    key = body(client.get(f"/api/v1/events/{event}"))["key"]
    log = {
        entry["number"]: entry for entry in body(client.get(f"/api/v1/events/{event}/log"))["log"]
    }
    assert len(receiver.received) == 5
    for headers, data in receiver.received:
        checked(key, headers, data)  # every signature, by the event's key
        assert headers["Arbiter-Key"] == key
        assert headers["Content-Type"] == "application/json"
        said = json.loads(data)
        entry = log[said["entry"]["number"]]
        assert said["entry"] == {k: entry[k] for k in ("number", "at", "action", "details",
                                                       "reason", "hash")}  # fmt: skip
        assert said["event"] == event and said["version"] == 1
        assert said["url"].endswith(f"/events/{event}")
    with pytest.raises(InvalidSignature):  # a body changed on its way is found
        headers, data = receiver.received[0]
        checked(key, headers, data.replace(b'"version":1', b'"version":2'))

    sent: dict[str, list[tuple[int, str, str]]] = {}
    for headers, data in receiver.received:
        said = json.loads(data)
        hook = headers["Arbiter-Delivery"].split("/")[1]
        assert headers["Arbiter-Delivery"] == f"{event}/{hook}/{said['entry']['number']}"
        sent.setdefault(hook, []).append((said["entry"]["number"], said["entry"]["action"],
                                          said["kind"]))  # fmt: skip
    assert [(action, kind) for _, action, kind in sent["1"]] == [
        ("uploaded", "result"), ("finalised", "finalised"),
    ]  # fmt: skip
    assert [(action, kind) for _, action, kind in sent["2"]] == [
        ("uploaded", "result"), ("excluded", "correction"), ("finalised", "finalised"),
    ]  # fmt: skip
    for entries in sent.values():
        numbers = [number for number, _, _ in entries]
        assert numbers == sorted(numbers)

    listed = body(client.get(f"/api/v1/events/{event}/webhooks", headers=bearer(token)))
    assert [len(one["deliveries"]) for one in listed["webhooks"]] == [2, 3]
    first = listed["webhooks"][0]["deliveries"][0]  # the latest first
    assert (first["status"], first["attempts"], first["http_status"]) == ("delivered", 1, 200)
    assert first["delivered_at"] and first["next_at"] is None
    deliver(hooked)  # nothing is sent twice
    assert len(receiver.received) == 5


def test_a_delivery_refused_is_retried_then_delivered_or_failed(
    hooked: Flask, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_WEBHOOK_BACKOFF_SECONDS", "0")
    client = hooked.test_client()
    event, token = create(client)
    receiver.answers = [500, 200] + [503] * 7
    assert add(client, event, token, url=receiver.url, events=["result"]).status_code == 201
    upload(client, event, token)
    deliver(hooked)
    assert len(receiver.received) == 2 and receiver.received[0][1] == receiver.received[1][1]
    upload_again = client.post(
        f"/api/v1/events/{event}/records", data=b'[Game "Pilo"]\n[Size "6"]\n\n1. a1-a2 *\n',
        headers={**bearer(token), "Content-Type": "text/plain"},
    )  # fmt: skip
    assert upload_again.status_code == 201
    deliver(hooked)
    assert len(receiver.received) == 2 + 7
    listed = body(client.get(f"/api/v1/events/{event}/webhooks", headers=bearer(token)))
    failed, delivered = listed["webhooks"][0]["deliveries"]
    assert (delivered["status"], delivered["attempts"], delivered["http_status"]) == (
        "delivered", 2, 200,
    )  # fmt: skip
    assert (failed["status"], failed["attempts"], failed["http_status"]) == ("failed", 7, 503)


def test_a_removed_webhook_is_sent_nothing_more(on_sqlite: Flask, receiver: Receiver) -> None:
    client = on_sqlite.test_client()
    event, token = create(client)
    assert add(client, event, token, url=receiver.url).status_code == 201
    removed = client.delete(f"/api/v1/events/{event}/webhooks/1?reason=moved",
                            headers=bearer(token))  # fmt: skip
    assert removed.status_code == 200 and body(removed)["active"] is False
    again = client.delete(f"/api/v1/events/{event}/webhooks/1", headers=bearer(token))
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    missing = client.delete(f"/api/v1/events/{event}/webhooks/2", headers=bearer(token))
    assert (missing.status_code, body(missing)["error"]["code"]) == (404, "no-such-webhook")
    upload(client, event, token)
    deliver(on_sqlite)
    assert receiver.received == []
    log = body(client.get(f"/api/v1/events/{event}/log"))["log"]
    assert [(e["action"], e["details"], e["reason"]) for e in log[-3:-1]] == [
        ("webhook-added", {"number": 1, "url": receiver.url,
                           "events": ["round-published", "result", "correction", "finalised"]},
         None),
        ("webhook-removed", {"webhook": 1}, "moved"),
    ]  # fmt: skip


def test_a_webhook_added_later_starts_after_its_own_entry(
    on_sqlite: Flask, receiver: Receiver
) -> None:
    client = on_sqlite.test_client()
    event, token = create(client)
    upload(client, event, token)
    assert add(client, event, token, url=receiver.url).status_code == 201
    assert client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token)).status_code == 200
    deliver(on_sqlite)
    assert [said["entry"]["action"] for said in receiver.bodies()] == ["finalised"]


# --- registration ---------------------------------------------------------------------------


def test_registration_is_the_directors_and_refuses_what_it_cannot_send(database: str) -> None:
    client = create_app(
        {"TESTING": True, "DATABASE": database, "WEBHOOK_DELIVERY": False}
    ).test_client()
    event, token = create(client)
    refused = add(client, event, token, url="http://localhost:8080/hook")
    assert refused.status_code == 422
    assert body(refused)["error"]["code"] == "webhook-address-refused"
    assert "loopback" in body(refused)["error"]["message"]
    assert add(client, event, token, url="http://10.0.0.1/").status_code == 422
    bad = add(client, event, token, url="https://93.184.216.34/", events=["everything"])
    assert (bad.status_code, body(bad)["error"]["field"]) == (400, "events")
    assert add(client, event, token, url="gopher://93.184.216.34/").status_code == 400
    assert add(client, event, token, url="https://93.184.216.34/", secret="x").status_code == 400
    upload_token = body(
        client.post(f"/api/v1/events/{event}/tokens", json={"label": "p"}, headers=bearer(token))
    )["token"]
    assert add(client, event, upload_token, url="https://93.184.216.34/").status_code == 403
    assert client.get(f"/api/v1/events/{event}/webhooks").status_code == 401
    listed = client.get(f"/api/v1/events/{event}/webhooks", headers=bearer(upload_token))
    assert listed.status_code == 403

    first = add(client, event, token, url="https://93.184.216.34/a", events=["result"])
    assert first.status_code == 201
    same = add(client, event, token, url="https://93.184.216.34/a", events=["result"])
    assert same.status_code == 200 and same.headers["Idempotent-Replayed"] == "true"
    assert body(same)["number"] == 1
    assert body(same)["receipt"]["entry"] == body(first)["receipt"]["entry"]
    for n in range(2, 11):
        assert add(client, event, token, url=f"https://93.184.216.34/{n}").status_code == 201
    full = add(client, event, token, url="https://93.184.216.34/11")
    assert (full.status_code, body(full)["error"]["code"]) == (422, "too-many-webhooks")


def test_verification_finds_a_webhook_changed_and_an_archive_keeps_them(
    hooked: Flask, receiver: Receiver, tmp_path: Path
) -> None:
    client = hooked.test_client()
    event, token = create(client)
    assert add(client, event, token, url=receiver.url, events=["result"]).status_code == 201
    upload(client, event, token)
    deliver(hooked)
    store = open_store(hooked.config["DATABASE"])
    archive = export_event(store, event)

    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE webhooks SET seen = 0")  # the deliverer's, not the trail's
    assert body(client.get(f"/api/v1/events/{event}/verify"))["valid"] is True
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE webhooks SET url = 'https://elsewhere.example/'")
    problems = body(client.get(f"/api/v1/events/{event}/verify"))["problems"]
    assert problems == [
        f"webhook 1: its url is 'https://elsewhere.example/'; the trail says {receiver.url!r}"
    ]

    copy = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    assert import_event(open_store(copy), archive) == event
    restored = create_app({"TESTING": True, "DATABASE": copy, "WEBHOOK_DELIVERY": False})
    other = restored.test_client()
    listed = body(other.get(f"/api/v1/events/{event}/webhooks", headers=bearer(token)))
    assert [one["url"] for one in listed["webhooks"]] == [receiver.url]
    assert listed["webhooks"][0]["deliveries"][0]["status"] == "delivered"
    deliver(restored)  # what was delivered before the export is not sent again
    assert len(receiver.received) == 1


def test_the_app_starts_its_deliverer_and_it_stops(tmp_path: Path, receiver: Receiver) -> None:
    app = create_app({"TESTING": True, "DATABASE": f"sqlite:///{tmp_path / 'e.sqlite3'}",
                      "ALLOW_PRIVATE_WEBHOOKS": True, "WEBHOOK_POLL_SECONDS": 0.05})  # fmt: skip
    client = app.test_client()
    try:
        event, token = create(client)
        assert add(client, event, token, url=receiver.url, events=["finalised"]).status_code == 201
        assert (
            client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token)).status_code
            == 200
        )
        assert receiver.arrived.wait(30), "nothing was delivered"
        headers, data = receiver.received[0]
        checked(body(client.get(f"/api/v1/events/{event}"))["key"], headers, data)
    finally:
        stop_deliverers()


def test_the_desk_has_a_panel_for_webhooks_while_the_event_is_open(tmp_path: Path) -> None:
    client = create_app(
        {"TESTING": True, "DATABASE": f"sqlite:///{tmp_path / 'e.sqlite3'}"}
    ).test_client()
    event, token = create(client)
    page = client.get(f"/events/{event}/desk").get_data(as_text=True)
    assert 'id="webhooks-title"' in page and 'id="webhook-form"' in page
    assert page.count('name="webhook-kind"') == 4
    assert client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token)).status_code == 200
    page = client.get(f"/events/{event}/desk").get_data(as_text=True)
    assert 'id="webhooks"' in page and 'id="webhook-form"' not in page


def test_each_attempt_checks_the_address_again_and_connects_to_it_never_redirected(
    on_sqlite: Flask, receiver: Receiver
) -> None:
    from arbiter.service.events.webhooks import add_webhook

    client = on_sqlite.test_client()
    event, token = create(client)
    port = receiver.url.split(":")[2].split("/")[0]
    url = f"http://hooks.test:{port}/hook"  # a name only the resolvers below know
    store = open_store(on_sqlite.config["DATABASE"])
    fields = {"url": url, "events": ["finalised"]}
    named = lambda host, port: ["93.184.216.34"]  # noqa: E731 - a public address, when added
    public = add_webhook(store, event, token, fields, "http://arbiter.test/", resolver=named)
    assert public.created
    assert client.post(f"/api/v1/events/{event}/finalise", headers=bearer(token)).status_code == 200
    with on_sqlite.app_context():
        key = server_key()
    to_loopback = lambda host, port: ["127.0.0.1"]  # noqa: E731 - what the name resolves to now

    strict = Deliverer(lambda: store, key, resolver=to_loopback)
    assert strict.tick()
    assert receiver.received == []  # refused before any connection
    listed = body(client.get(f"/api/v1/events/{event}/webhooks", headers=bearer(token)))
    (refused,) = listed["webhooks"][0]["deliveries"]
    assert refused["status"] == "retrying" and "127.0.0.1, which is loopback" in refused["error"]

    with store.engine.begin() as conn:  # the wait before the next attempt, over at once
        conn.exec_driver_sql("UPDATE deliveries SET next_at = '2000-01-01T00:00:00.000Z'")
    receiver.answers = [302]
    venue = Deliverer(lambda: store, key, allow_private=True, resolver=to_loopback)
    assert venue.tick()
    ((headers, _),) = receiver.received
    assert headers["Host"] == f"hooks.test:{port}"  # the URL's host, at the address checked
    listed = body(client.get(f"/api/v1/events/{event}/webhooks", headers=bearer(token)))
    (redirected,) = listed["webhooks"][0]["deliveries"]
    assert (redirected["status"], redirected["http_status"]) == ("retrying", 302)
    assert "redirects are not followed" in redirected["error"]
