"""Events, their tokens, uploads, records and audit trail (spec/events.md §2).

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("log", "uploads")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("tiebreaks", sa.String(200), nullable=True),
        sa.Column("confirm_uploads", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("finalised_at", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("revoked_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "uploads",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("file_name", sa.String(255), nullable=True),
        sa.Column("format", sa.String(20), nullable=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("token", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.UniqueConstraint("event_id", "sha256", name="uploads_event_sha256"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "records",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("upload", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("official_result", sa.String(40), nullable=True),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("header", sa.Text, nullable=True),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.ForeignKeyConstraint(["event_id", "upload"], ["uploads.event_id", "uploads.number"]),
    )
    op.create_table(
        "log",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("token", sa.Integer, nullable=True),
        sa.Column("action", sa.String(30), nullable=False),
        sa.Column("details", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION arbiter_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'arbiter: the % table is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION arbiter_append_only()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION arbiter_append_only()"
            )
    else:
        for table in APPEND_ONLY:
            for change in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{change.lower()} BEFORE {change} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'arbiter: the {table} table is append-only'); END"
                )


def downgrade() -> None:
    for table in ("log", "records", "uploads", "tokens", "events"):
        op.drop_table(table)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION arbiter_append_only()")
