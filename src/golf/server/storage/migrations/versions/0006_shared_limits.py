"""Sign-in limits and passkey challenges shared by every server process on one database.

``golf_signin_limits`` counts sign-in attempts per username and per address (each key
stored only as its SHA-256 digest: a username tried may be a password typed into the
wrong field): ``failures`` counted (an attempt is reserved, counted as a failure,
before its password is verified; a success gives it back) and ``last``, when the last
one was counted (seconds since the epoch). ``golf_passkey_challenges`` holds each
passkey ceremony's challenge until it is answered once or expires (``id`` is the
SHA-256 digest of the ceremony key handed to the browser).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_signin_limits",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_signin_limits_last", "golf_signin_limits", ["last"])
    op.create_table(
        "golf_passkey_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_passkey_challenges_created", "golf_passkey_challenges",
                    ["created"])


def downgrade() -> None:
    op.drop_index("ix_golf_passkey_challenges_created", "golf_passkey_challenges")
    op.drop_table("golf_passkey_challenges")
    op.drop_index("ix_golf_signin_limits_last", "golf_signin_limits")
    op.drop_table("golf_signin_limits")
