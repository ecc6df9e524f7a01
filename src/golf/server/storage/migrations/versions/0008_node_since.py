"""When each server process's current unbroken run of lease renewals began
(``golf_nodes.since``, seconds on the database's clock): a process may take the lease of a
process whose node row ran out only if it was itself renewing, unbroken, while that row
ran out, or has been for a whole TTL since (golf.server.cluster.lease). So after an
outage of the database, when every node row ran out at once, no process takes another's
tables before that one had a TTL to renew.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Null for a row of an older release's process: its next renewal sets it.
    op.add_column("golf_nodes", sa.Column("since", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("golf_nodes", "since")
