"""The schema's migrations, run by Alembic from inside the package (``arbiter db upgrade``,
and every start of ``arbiter serve``): no ``alembic.ini`` to find, and one process at a time
(the migration holds the database's write lock on SQLite, an advisory lock on PostgreSQL);
and :func:`open_store`, the store of a URL as the other modules get it, migrated first."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from arbiter.service.events.store import Store, unavailable

__all__ = ["current", "head", "open_store", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
ADVISORY_LOCK = 0x6172_6269  # "arbi": the key of PostgreSQL's lock for migrations


def upgrade(url: str, revision: str = "head") -> str | None:
    """Bring the database of ``url`` to ``revision`` (by default the newest); the revision
    it was at before (None for an empty database). Raises
    :class:`~arbiter.service.events.common.DatabaseError` for a URL of no known kind,
    :class:`~arbiter.service.events.common.DatabaseUnavailable` for a database that cannot
    be reached or migrated."""
    try:
        return _upgrade(url, revision)
    except SQLAlchemyError as err:
        raise unavailable(err) from err


def _upgrade(url: str, revision: str) -> str | None:
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    store = Store(url)
    try:
        with store.write() as conn:
            if store.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
            before = MigrationContext.configure(conn).get_current_revision()
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
        return before
    finally:
        store.close()


def current(url: str) -> str | None:
    """The revision the database of ``url`` is at (None: no schema yet)."""
    from alembic.runtime.migration import MigrationContext

    store = Store(url)
    try:
        with store.read() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        store.close()


def head() -> str:
    """The newest revision this version of arbiter knows."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    found = ScriptDirectory.from_config(config).get_current_head()
    assert found is not None
    return found


_OPEN: dict[str, Store] = {}
_OPENING = threading.Lock()


def open_store(url: str) -> Store:
    """The store of ``url``, opened once per process, its schema brought up to date by the
    migrations (``alembic upgrade head``) the first time. Raises
    :class:`~arbiter.service.events.common.DatabaseError` for a URL of no known kind or a
    driver missing, :class:`~arbiter.service.events.common.DatabaseUnavailable` for a
    database that cannot be reached or migrated."""
    with _OPENING:
        store = _OPEN.get(url)
        if store is None or store.pid != os.getpid():
            upgrade(url)
            try:
                store = _OPEN[url] = Store(url)
            except SQLAlchemyError as err:
                raise unavailable(err) from err
        return store
