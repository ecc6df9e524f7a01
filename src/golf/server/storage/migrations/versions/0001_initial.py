"""Tables, seats, matches and their actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("host", sa.Integer, nullable=False),
        sa.Column("invite", sa.String(64), nullable=False, unique=True),
        sa.Column("match", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_tables_status", "golf_tables", ["status"])
    op.create_table(
        "golf_seats",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(120), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("bot_seed", sa.String(48), nullable=False),
        sa.Column("muted", sa.JSON, nullable=False),
    )
    op.create_index("ix_golf_seats_table_id", "golf_seats", ["table_id"])
    op.create_table(
        "golf_matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(48), nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_match_number"),
    )
    op.create_table(
        "golf_actions",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("golf_actions")
    op.drop_table("golf_matches")
    op.drop_index("ix_golf_seats_table_id", "golf_seats")
    op.drop_table("golf_seats")
    op.drop_index("ix_golf_tables_status", "golf_tables")
    op.drop_table("golf_tables")
