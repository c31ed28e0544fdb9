"""An event's kind in more characters (spec/events.md §11): ``events.pairing`` holds up to 40,
so that ``double-round-robin-plain`` (FIDE's Berger tables in the table's order) and later
kinds fit; PostgreSQL refused a longer name where SQLite kept it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as table:
        table.alter_column(
            "pairing", existing_type=sa.String(20), type_=sa.String(40), existing_nullable=False
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as table:
        table.alter_column(
            "pairing", existing_type=sa.String(40), type_=sa.String(20), existing_nullable=False
        )
