"""The running hole break and the offered rematch of a table (``golf_tables.hole_break``,
``golf_tables.rematch``), so that the readies and acceptances a process received survive
a restart or a handover to another process (golf.server.tables.finish).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it): a batch copy of golf_tables would trip the
    # foreign keys that seats and matches hold on it.
    op.add_column("golf_tables", sa.Column("hole_break", sa.JSON, nullable=True))
    op.add_column("golf_tables", sa.Column("rematch", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("golf_tables", "rematch")
    op.drop_column("golf_tables", "hole_break")
