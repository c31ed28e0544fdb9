"""Baku acceleration and prohibited pairs in a paired event (spec/pairings.md §13).

``events.acceleration`` names the acceleration the Dutch engine is given (``none``, the
default, or ``baku``: FIDE's Baku acceleration, C.04.5.1). ``prohibitions`` holds each
prohibition the director set, by its number in the event: its players (a JSON list of
player ids), the rounds it holds in, when it was added and, once taken back, when; a
prohibition taken back keeps its row and its number, as a webhook removed does.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as table:
        table.add_column(
            sa.Column("acceleration", sa.String(10), nullable=False, server_default="none")
        )
    op.create_table(
        "prohibitions",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("first_round", sa.Integer, nullable=False),
        sa.Column("last_round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("removed_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("event_id", "number"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )


def downgrade() -> None:
    op.drop_table("prohibitions")
    with op.batch_alter_table("events") as table:
        table.drop_column("acceleration")
