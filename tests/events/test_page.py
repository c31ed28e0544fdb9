"""The event's public page (``/events/ID``) and its exports show what users typed as text,
never as markup: an event and a player named ``<script>alert(1)</script>``."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from tests.events.conftest import bearer, body, create
from tests.events.test_events import ROUNDS

HOSTILE = "<script>alert(1)</script>"


def test_the_page_and_every_export_escape_names(client: FlaskClient) -> None:
    event, token = create(client, name=f"Open {HOSTILE}", rounds=5)
    data = ROUNDS[0].read_bytes().replace(b"player-01", HOSTILE.encode())
    client.post(f"/api/v1/events/{event}/records", data=data, headers=bearer(token),
                content_type="text/plain")  # fmt: skip
    client.put(f"/api/v1/events/{event}/records/1/result",
               json={"result": "Orange+F", "reason": f"because {HOSTILE}"},
               headers=bearer(token))  # fmt: skip
    page = client.get(f"/events/{event}")
    assert page.status_code == 200 and page.content_type == "text/html; charset=utf-8"
    text = page.data.decode()
    assert HOSTILE not in text
    assert html.escape(HOSTILE) in text  # the player, the event's name and the reason
    assert text.count(html.escape(HOSTILE)) >= 3
    assert '<meta name="viewport"' in text
    for fmt in ("html",):
        export = client.get(f"/api/v1/events/{event}/standings?format={fmt}").data.decode()
        assert HOSTILE not in export and html.escape(HOSTILE) in export
    raw = body(client.get(f"/api/v1/events/{event}/uploads"))["uploads"][0]["sha256"]
    kept = client.get(f"/api/v1/events/{event}/uploads/{raw}")
    assert kept.headers["X-Content-Type-Options"] == "nosniff"
    assert kept.headers["Content-Disposition"].startswith("attachment;")


def test_an_unknown_event_has_a_404_page(client: FlaskClient) -> None:
    page = client.get("/events/nosuchevent")
    assert page.status_code == 404 and b"No such event" in page.data
