"""Table leases for many server processes on one database: which process plays a live
table (``owner``), until when (``expires``, seconds on the database's clock) and the
lease's ``epoch``, which every write of the table checks (fencing, see golf.server.lease).

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
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_leases_owner", "golf_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_golf_leases_owner", "golf_leases")
    op.drop_table("golf_leases")
