"""An event's version is the number of its trail's last entry, and SQLite refuses a row that
would replace an entry or an upload (spec/events.md §1, §6).

Until now ``version`` grew by one for every write transaction, and a change that wrote
several entries (an upload of several files) or none (the same bytes sent again) made it
differ from the trail; it is now set from the trail, so that verification can check it.

SQLite's ``INSERT OR REPLACE`` deletes the row it replaces without firing the ``DELETE``
triggers of revision 0001 (unless the connection turned on recursive triggers), so an entry
or an upload could be rewritten past them: a ``BEFORE INSERT`` trigger now refuses any row
whose key is already taken. (PostgreSQL's ``ON CONFLICT DO UPDATE`` fires the ``UPDATE``
triggers of revision 0001.)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

KEYS = {
    "log": ("event_id = NEW.event_id AND number = NEW.number",),
    "uploads": (
        "event_id = NEW.event_id AND number = NEW.number",
        "event_id = NEW.event_id AND sha256 = NEW.sha256",
    ),
}
"""Each append-only table and the keys a new row must not share with a kept one."""


def upgrade() -> None:
    op.execute(
        "UPDATE events SET version = (SELECT COUNT(*) FROM log WHERE log.event_id = events.id)"
    )
    if op.get_bind().dialect.name != "sqlite":
        return
    for table, keys in KEYS.items():
        taken = " OR ".join(f"EXISTS (SELECT 1 FROM {table} WHERE {key})" for key in keys)
        op.execute(
            f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} WHEN {taken} "
            f"BEGIN SELECT RAISE(ABORT, 'arbiter: the {table} table is append-only'); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in KEYS:
            op.execute(f"DROP TRIGGER {table}_no_replace")
