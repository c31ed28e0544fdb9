"""Alembic's environment for the events database: migrations run on the connection that
:func:`arbiter.service.events.migrate.upgrade` passes, inside its transaction, in batch
mode on SQLite (which alters a table by copying it)."""

from __future__ import annotations

from alembic import context

from arbiter.service.events.store import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
