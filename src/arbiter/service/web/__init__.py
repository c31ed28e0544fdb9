"""The web face: the Flask app factory, the API's blueprints (records, viewer, events), the
pages, and the server that runs them (``arbiter serve``: :mod:`.server`, :mod:`.front`,
:mod:`.workers`, :mod:`.access_log`), with the templates and static files. Flask and waitress
are imported here only; what the pages and the API do with records is in
:mod:`arbiter.service.core`, what they do with events in :mod:`arbiter.service.events`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from arbiter.service.core.serving import DEFAULT_MAX_BODY

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["DEFAULT_MAX_BODY", "create_app"]


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask application: the ``/api/v1`` blueprint, ``/health``, the page at
    ``/`` (and the scripts it loads, under ``/static/``), JSON error handlers, and in front
    of it all the middleware of :mod:`arbiter.service.web.front`. ``test_config`` overrides the
    defaults; ``DATABASE`` is the events' database URL (default: the SQLite file of the data
    folder, ``spec/events.md``), ``EVENT_CREATION_KEY_SHA256`` the SHA-256 of the key that
    creating an event needs (default: none is needed), ``ALLOW_PRIVATE_WEBHOOKS`` whether
    webhooks may reach private and loopback addresses (default: no), ``WEBHOOK_DELIVERY``
    whether the app starts its process's deliverer of webhooks (default: yes; tests that
    drive it themselves say no) and ``WEBHOOK_POLL_SECONDS`` how often it looks (1).

    Flask is imported here, not at module level, so that the command line, which imports
    the package, does not pay for it."""
    from flask import Flask

    from arbiter.service.web import api, event_pages, events_api, streams, viewer, webhooks_api
    from arbiter.service.web.errors import register_error_handlers
    from arbiter.service.web.inputs import RecordRequest

    app = Flask(__name__, static_folder=None)  # the page and its files are served by api
    app.request_class = RecordRequest
    # Form fields that are not files are ignored, and MAX_CONTENT_LENGTH bounds the body, so
    # Flask's separate limit on a field's size would only refuse requests for no gain.
    app.config.from_mapping(MAX_CONTENT_LENGTH=DEFAULT_MAX_BODY, MAX_FORM_MEMORY_SIZE=None)
    if test_config is not None:
        app.config.update(test_config)
    # Reports are written as the CLI writes them: keys in the report's order, text unescaped.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.register_blueprint(api.bp)
    assert webhooks_api.bp is events_api.bp  # its routes are on it before it is registered
    app.register_blueprint(events_api.bp)  # the storage layer loads on an event request only
    app.register_blueprint(event_pages.bp)
    app.register_blueprint(streams.bp)  # an event's version pushed to its pages
    app.register_blueprint(viewer.assets)  # the page's scripts, style sheet and icon
    app.add_url_rule("/health", "health", api.health)
    app.add_url_rule("/", "index", api.index)
    register_error_handlers(app)
    _languages(app)
    from arbiter.service.web.front import JsonFront

    front = JsonFront(app.wsgi_app, lambda: app.config.get("MAX_CONTENT_LENGTH"))
    app.wsgi_app = front  # type: ignore[method-assign]
    return app


def _languages(app: Flask) -> None:
    """The pages in their readers' languages (:mod:`.languages`), with the words of games
    and events (:mod:`.words`), of errors (:mod:`.codes`) and of the scripts
    (:mod:`.script_words`) as the templates' functions."""
    from arbiter.service.web import codes, languages, script_words, words

    shown = {
        name: getattr(words, name)
        for name in (
            "result_words", "verdict", "counted", "outcome", "colour", "letters",
            "colour_legend", "termination", "tiebreak_title", "tiebreak_short",
            "tiebreak_explanation", "warning", "board_words", "phrase", "points_text",
            "trail_who", "trail_what",
        )
    }  # fmt: skip
    shown |= {"game_title": words.title, "hint_words": words.hint}
    languages.install(app, {**shown, "error_text": codes.error_text,
                            "script_words": script_words.words})  # fmt: skip
