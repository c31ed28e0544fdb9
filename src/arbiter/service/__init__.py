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

The faces use core and events; ``cli`` and ``web`` do not import each other, but for
``arbiter serve`` (:mod:`.cli.serve`), which starts the server of :mod:`.web.server`.
``tests/test_layers.py`` holds these rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.notation.exports import lazy_exports

if TYPE_CHECKING:
    from arbiter.service.web import DEFAULT_MAX_BODY, create_app

__all__ = ["DEFAULT_MAX_BODY", "create_app"]
__getattr__, __dir__ = lazy_exports(globals(), {"arbiter.service.web": tuple(__all__)})
