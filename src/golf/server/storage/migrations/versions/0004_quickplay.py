"""Quick play: the queue of people waiting for a match, one row per waiting ticket.

The queue lives in the database (not in a process's memory) so that every server
process on one database sees one queue and matches people who arrived through
different processes (docs/quickplay.md).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_queue",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("polled", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_golf_queue_key", "golf_queue", ["preset", "players", "status"])


def downgrade() -> None:
    op.drop_index("ix_golf_queue_key", "golf_queue")
    op.drop_table("golf_queue")
