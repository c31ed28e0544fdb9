"""``/api/v1/events/ID/webhooks``: the URLs an event's changes are sent to (``spec/events.md``
§12). The routes are the events blueprint's (:mod:`.events_api`), so a change here carries its
receipt and takes an ``Idempotency-Key`` as every change does; this module is imported by
:func:`arbiter.service.web.create_app` before the blueprint is registered.

The deliverer that sends the changes (:mod:`arbiter.service.events.deliveries`) runs in a
thread of each server process: ``arbiter serve`` starts it in each worker, and the app starts
it the first time a director adds or lists webhooks (``WEBHOOK_DELIVERY`` false: never, for
tests that drive it themselves).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, request

from arbiter.service.web.events_api import bearer, body, bp, call, page_url, server_key

__all__ = ["allow_private", "bp", "ensure_deliverer", "start_for"]


def allow_private() -> bool:
    """Whether webhooks may reach private and loopback addresses (``arbiter serve
    --allow-private-webhooks``; the config's ``ALLOW_PRIVATE_WEBHOOKS``)."""
    return bool(current_app.config.get("ALLOW_PRIVATE_WEBHOOKS", False))


def ensure_deliverer() -> None:
    """Start this process's deliverer of the app's database, once, unless the config's
    ``WEBHOOK_DELIVERY`` is false. Its store is opened by the deliverer itself."""
    from arbiter.service.events.deliveries import Deliverer, start_deliverer
    from arbiter.service.events.migrate import open_store
    from arbiter.service.events.store import default_url

    if not current_app.config.get("WEBHOOK_DELIVERY", True):
        return
    url = str(current_app.config.get("DATABASE") or default_url())
    key = server_key()
    private = allow_private()
    interval = float(current_app.config.get("WEBHOOK_POLL_SECONDS", 1.0))
    start_deliverer(
        url,
        lambda: Deliverer(lambda: open_store(url), key, allow_private=private, interval=interval),
    )


def start_for(app: Flask) -> None:
    """Start the deliverer of ``app`` (each worker of ``arbiter serve``, as it starts)."""
    with app.app_context():
        ensure_deliverer()


@bp.post("/<event_id>/webhooks")
def add_webhook(event_id: str) -> tuple[Response, int]:
    """Send the event's changes to a URL (``{"url", "events"?}``); 201 with the webhook, 200
    when the same webhook is active already."""
    from arbiter.service.events.webhooks import add_webhook as add

    added = call(add, event_id, bearer(), body(), page_url(event_id), allow_private=allow_private())
    ensure_deliverer()
    return jsonify(added.webhook.to_dict()), 201 if added.created else 200


@bp.get("/<event_id>/webhooks")
def webhooks(event_id: str) -> Response:
    """The event's webhooks with their latest deliveries, for its director."""
    from arbiter.service.events.webhooks import list_webhooks

    found = call(list_webhooks, event_id, bearer())
    ensure_deliverer()
    answer = jsonify(webhooks=[one.to_dict() for one in found])
    answer.headers["Cache-Control"] = "no-store"
    return answer


@bp.delete("/<event_id>/webhooks/<int:number>")
def remove_webhook(event_id: str, number: int) -> Response:
    """Send nothing more to webhook ``number`` (optional ``reason``)."""
    from arbiter.service.events.webhooks import remove_webhook as remove

    reason = body().get("reason", request.args.get("reason"))
    return jsonify(call(remove, event_id, bearer(), number, reason).to_dict())
