"""The desk forgives (spec/events.md §5, §12; spec/pairings.md §8): how a record's players sit
on the board it stands on, and the answers to changes sent with an ``Idempotency-Key``.

``records.seats`` is ``as-paired`` (the record's first colour in the board's first seat) or
``reversed``, kept when a record is placed on a board, so that its result goes to the right
seat whatever its players' names say; records placed before it are null, and their seats
follow from their names as they did.

``tokens.player`` names the player (by id) an upload token was made for: its records
claim that player's boards only.

``idempotency`` keeps, for each key a client sent with a change, the SHA-256 of the key and of
the request, the entry the change appended, and the answer, encrypted with a key only the
client's key gives (an answer may carry a token's secret): the same request sent again with
the same key is answered as it was the first time, and nothing is written.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("records") as table:
        table.add_column(sa.Column("seats", sa.String(10), nullable=True))
    with op.batch_alter_table("tokens") as table:
        table.add_column(sa.Column("player", sa.Integer, nullable=True))
    op.create_table(
        "idempotency",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("entry", sa.Integer, nullable=True),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "key_hash"),
    )


def downgrade() -> None:
    op.drop_table("idempotency")
    with op.batch_alter_table("tokens") as table:
        table.drop_column("player")
    with op.batch_alter_table("records") as table:
        table.drop_column("seats")
