"""Webhooks (spec/events.md §12): the URLs an event's changes are sent to, and each entry's
delivery to each of them.

``webhooks`` holds what the trail says of each webhook (its URL, kinds of change, when it was
added and removed) and, beside it, the last entry the deliverer has considered for it
(``seen``) and the event's public page its deliveries name. ``deliveries`` holds each entry
claimed for a webhook (one process inserts it), with its status and attempts.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("events", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("removed_at", sa.String(32), nullable=True),
        sa.Column("seen", sa.Integer, nullable=False),
        sa.Column("event_url", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "deliveries",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("webhook", sa.Integer, nullable=False),
        sa.Column("entry", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("attempted_at", sa.String(32), nullable=True),
        sa.Column("delivered_at", sa.String(32), nullable=True),
        sa.Column("http_status", sa.Integer, nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.PrimaryKeyConstraint("event_id", "webhook", "entry"),
        sa.ForeignKeyConstraint(["event_id", "webhook"], ["webhooks.event_id", "webhooks.number"]),
    )
    op.create_index("deliveries_due", "deliveries", ["status", "next_at"])


def downgrade() -> None:
    op.drop_index("deliveries_due", table_name="deliveries")
    op.drop_table("deliveries")
    op.drop_table("webhooks")
