"""Table leases for many server processes on one database: which process plays a live
table (``owner``), when it last changed hands (``changed``, seconds on the database's
clock) and the lease's ``epoch``, which every write of the table checks (fencing, see
golf.server.cluster.lease); and the processes (``golf_nodes``), each alive until ``expires``.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("changed", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_leases_owner", "golf_leases", ["owner"])
    op.create_table(
        "golf_nodes",
        sa.Column("node", sa.String(120), primary_key=True),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("golf_nodes")
    op.drop_index("ix_golf_leases_owner", "golf_leases")
    op.drop_table("golf_leases")
