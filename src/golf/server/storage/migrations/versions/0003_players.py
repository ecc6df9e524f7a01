"""Players who come back: guest profiles and accounts, sessions, recovery codes,
passkeys, ratings per variant with the rated matches they came from, blocks and
reports; a seat remembers its player and a table whether it is rated.

Existing tables, seats, matches and replays are untouched: their seats have no
player (``player_id`` NULL) and their tables are casual.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "golf_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_table(
        "golf_accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("password_changed", sa.Float, nullable=False),
    )
    op.create_table(
        "golf_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False, index=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("label", sa.String(120), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_table(
        "golf_recovery_codes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False, index=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_table(
        "golf_passkeys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False, index=True),
        sa.Column("credential_id", sa.String(512), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_table(
        "golf_ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  primary_key=True),
        sa.Column("variant", sa.String(80), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("abandoned", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_golf_ratings_variant", "golf_ratings", ["variant", "mu"])
    op.create_table(
        "golf_rated_matches",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
        sa.Column("variant", sa.String(80), nullable=False),
        sa.Column("finished", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "golf_rated_seats",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=True, index=True),
        sa.Column("bot", sa.String(120), nullable=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
    )
    op.create_table(
        "golf_blocks",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  primary_key=True),
        sa.Column("blocked_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "golf_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("golf_players.id"),
                  nullable=False, index=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("chat", sa.JSON, nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("created", sa.Float, nullable=False),
    )
    # Plain ADD COLUMN (SQLite has it): a batch copy of golf_tables would trip the
    # foreign keys that seats and matches hold on it.
    op.add_column("golf_seats", sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_golf_seats_player_id", "golf_seats", ["player_id"])
    op.add_column("golf_tables", sa.Column("rated", sa.Boolean, nullable=False,
                                           server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("golf_tables", "rated")
    op.drop_index("ix_golf_seats_player_id", "golf_seats")
    op.drop_column("golf_seats", "player_id")
    for name in ("golf_reports", "golf_blocks", "golf_rated_seats", "golf_rated_matches",
                 "golf_ratings", "golf_passkeys", "golf_recovery_codes", "golf_sessions",
                 "golf_accounts", "golf_players"):
        op.drop_table(name)
