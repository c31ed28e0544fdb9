"""Events kept on the server (``spec/events.md``): storage and migrations
(:mod:`.store`, :mod:`.migrate`), what directors and players do (:mod:`.operations`), the
audit trail and its verification (:mod:`.chain`, :mod:`.verify`), backups
(:mod:`.archive`), and their faces: the API (:mod:`.api`), the public page (:mod:`.pages`)
and ``arbiter db`` (:mod:`.cli`).

Nothing here is imported by ``arbiter adjudicate`` and the other commands that keep nothing:
only by the event routes and ``arbiter db``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.notation.exports import lazy_exports

if TYPE_CHECKING:
    from arbiter.service.events.archive import export_event, import_event
    from arbiter.service.events.migrate import upgrade
    from arbiter.service.events.operations import (
        clear_result,
        confirm,
        create_event,
        exclude,
        reinstate,
        set_result,
        upload,
    )
    from arbiter.service.events.store import DatabaseError, Store, default_url, open_store
    from arbiter.service.events.verify import Verdict, verify_all, verify_event

_MODULES = {
    "arbiter.service.events.archive": ("export_event", "import_event"),
    "arbiter.service.events.migrate": ("upgrade",),
    "arbiter.service.events.operations": (
        "clear_result", "confirm", "create_event", "exclude", "reinstate", "set_result", "upload",
    ),
    "arbiter.service.events.store": ("DatabaseError", "Store", "default_url", "open_store"),
    "arbiter.service.events.verify": ("Verdict", "verify_all", "verify_event"),
}  # fmt: skip

__all__ = [
    "DatabaseError",
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
