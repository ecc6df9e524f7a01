"""Chat lines, stored with their table (a reload, a return or a spectator sees the last ones),
and the clocks of a running match (so that they survive a restart).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_golf_chat_table_id", "golf_chat", ["table_id", "id"])
    op.add_column("golf_tables", sa.Column("clocks", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("golf_tables", "clocks")
    op.drop_index("ix_golf_chat_table_id", "golf_chat")
    op.drop_table("golf_chat")
