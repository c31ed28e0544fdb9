"""Events kept on the server (``spec/events.md``), with no face in them (the API and pages
are in ``service/web/``, ``arbiter db`` in ``service/cli/``): the database and its
migrations (:mod:`.store`, :mod:`.migrate`), the storage contract that holds every SQL
statement (:mod:`.storage`, over the rows of :mod:`.rows`), the rules (:mod:`.rules`), the
audit trail's actions and its chain (:mod:`.actions`, :mod:`.chain`), what directors and
players do (:mod:`.operations`) and what anyone reads (:mod:`.reading`, answering the values
of :mod:`.views`), verification (:mod:`.verify`) and backups (:mod:`.archive`). The folder's
README says how to add an action or an operation.

Nothing here is imported by ``arbiter adjudicate`` and the other commands that keep nothing:
only by the event routes and ``arbiter db``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.notation.exports import lazy_exports

if TYPE_CHECKING:
    from arbiter.service.events.archive import export_event, import_event
    from arbiter.service.events.common import DatabaseError, DatabaseUnavailable, EventError
    from arbiter.service.events.migrate import open_store, upgrade
    from arbiter.service.events.operations import (
        clear_result,
        confirm,
        create_event,
        exclude,
        reinstate,
        set_result,
        upload,
    )
    from arbiter.service.events.store import Store, default_url
    from arbiter.service.events.verify import Verdict, verify_all, verify_event

_MODULES = {
    "arbiter.service.events.archive": ("export_event", "import_event"),
    "arbiter.service.events.common": ("DatabaseError", "DatabaseUnavailable", "EventError"),
    "arbiter.service.events.migrate": ("open_store", "upgrade"),
    "arbiter.service.events.operations": (
        "clear_result", "confirm", "create_event", "exclude", "reinstate", "set_result", "upload",
    ),
    "arbiter.service.events.store": ("Store", "default_url"),
    "arbiter.service.events.verify": ("Verdict", "verify_all", "verify_event"),
}  # fmt: skip

__all__ = [
    "DatabaseError",
    "DatabaseUnavailable",
    "EventError",
    "Store",
    "Verdict",
    "clear_result",
    "confirm",
    "create_event",
    "default_url",
    "exclude",
    "export_event",
    "import_event",
    "open_store",
    "reinstate",
    "set_result",
    "upgrade",
    "upload",
    "verify_all",
    "verify_event",
]
__getattr__, __dir__ = lazy_exports(globals(), _MODULES)
