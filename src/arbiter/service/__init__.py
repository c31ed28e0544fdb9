"""The faces of arbiter over the same library functions (``spec/cli.md``, ``spec/api.md``,
``spec/events.md``), a folder each:

- :mod:`.core`: what the command line, the API and the pages share: batches of records and
  their reports, diagrams and replays, corrected copies and repair suggestions, standings
  in every format. No face is imported there: neither click, nor Flask, nor SQLAlchemy.
- :mod:`.cli`: every ``arbiter`` command, its options, progress, and the parallel and
  cluster runs (click is imported there only).
- :mod:`.web`: the Flask app factory, the API's blueprints, the pages and the server (Flask
  and waitress are imported there only).
- :mod:`.events`: events kept on the server: their rules, storage and audit trail, with no
  face in it (SQLAlchemy is imported by its storage modules only).

The faces use core and events; ``cli`` and ``web`` do not import each other. ``arbiter
serve`` reads its options in :mod:`.cli.serve` (as :class:`.core.serving.ServerOptions`)
and starts the server of :mod:`.web.server` through :func:`run_server`, here, where the
faces meet. ``tests/test_layers.py`` holds these rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from arbiter.notation.exports import lazy_exports

if TYPE_CHECKING:
    from arbiter.service.core.serving import ServerOptions
    from arbiter.service.web import DEFAULT_MAX_BODY, create_app

__all__ = ["DEFAULT_MAX_BODY", "create_app", "run_server"]
__getattr__, __dir__ = lazy_exports(
    globals(), {"arbiter.service.web": ("DEFAULT_MAX_BODY", "create_app")}
)


def run_server(options: ServerOptions, say: Callable[[str], None]) -> None:
    """Serve the API and the pages as ``options`` ask, until SIGTERM or SIGINT (``say``
    tells a person where and how). The web face is loaded only here, when it is run."""
    from arbiter.service.web.server import run

    run(options, say)
