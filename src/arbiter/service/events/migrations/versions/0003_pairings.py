"""Paired events: the pairing system and the bye's points of an event, its players, the
pairing of each round, the byes players ask for, the results the director gives boards,
and the board a record counts on (spec/pairings.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as table:
        table.add_column(sa.Column("pairing", sa.String(20), nullable=False, server_default="none"))
        table.add_column(sa.Column("bye_points", sa.Float, nullable=False, server_default="1"))
        table.add_column(
            sa.Column("half_byes", sa.Boolean, nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("records") as table:
        table.add_column(sa.Column("board_round", sa.Integer, nullable=True))
        table.add_column(sa.Column("board", sa.Integer, nullable=True))
        table.add_column(sa.Column("placement", sa.String(30), nullable=True))
    op.create_table(
        "players",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("rating", sa.Integer, nullable=True),
        sa.Column("federation", sa.String(3), nullable=True),
        sa.Column("fide_id", sa.String(20), nullable=True),
        sa.Column("entered", sa.Integer, nullable=False),
        sa.Column("withdrawn_from", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "id"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "pairings",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("boards", sa.Text, nullable=False),
        sa.Column("byes", sa.Text, nullable=False),
        sa.Column("manual", sa.Boolean, nullable=False),
        sa.Column("paired_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "round"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "requests",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "round", "player"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "results",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("result", sa.String(4), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "round", "board"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )


def downgrade() -> None:
    for name in ("results", "requests", "pairings", "players"):
        op.drop_table(name)
    with op.batch_alter_table("records") as table:
        for column in ("placement", "board", "board_round"):
            table.drop_column(column)
    with op.batch_alter_table("events") as table:
        for column in ("half_byes", "bye_points", "pairing"):
            table.drop_column(column)
