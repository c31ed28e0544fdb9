"""The event as it happens (spec/pairings.md §12): check-in, rounds paired as drafts until the
director publishes them, and the results players report for their own boards.

``events.check_in`` says whether the event pairs only the players checked in for a round;
``checkins`` holds who checked in for which round (by player id), until the round is paired
and after (what the round's absences are made of). ``pairings.draft`` says a round is paired
for the director only: the public reads do not show it until it is published. ``reports``
holds each player's report of their board's result (the first seat's side first), by round,
board and player id: two that agree give the board its result, two that differ make it
disputed.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as table:
        table.add_column(
            sa.Column("check_in", sa.Boolean, nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("pairings") as table:
        table.add_column(sa.Column("draft", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "checkins",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "round", "player"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )
    op.create_table(
        "reports",
        sa.Column("event_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("result", sa.String(4), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "round", "board", "player"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
    )


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("checkins")
    with op.batch_alter_table("pairings") as table:
        table.drop_column("draft")
    with op.batch_alter_table("events") as table:
        table.drop_column("check_in")
