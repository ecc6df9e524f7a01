"""The database: SQLAlchemy Core tables, the async engine and migrations.

SQLite (the default, a file in the data dir) and PostgreSQL run the same code. The
schema is created and upgraded only by the Alembic migrations in
``golf/server/storage/migrations``; ``golf serve`` runs them at start.

A match is stored as the engine record (rules, players, seed) plus one row per
accepted action, written in the transaction that acknowledges it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

metadata = sa.MetaData()

tables = sa.Table(
    "golf_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("title", sa.String(80), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("overrides", sa.JSON, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("host", sa.Integer, nullable=False),
    sa.Column("invite", sa.String(64), nullable=False, unique=True),
    sa.Column("match", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # The running match's clocks (migration 0002), see golf.server.tables.clocks.
    sa.Column("clocks", sa.JSON, nullable=True),
    # Rated or casual (migration 0003): a rated table plays its preset unchanged.
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    # The running hole break and the offered rematch (migration 0007), so that a restart
    # or a handover to another process keeps readies and acceptances (golf.server.tables.finish).
    sa.Column("hole_break", sa.JSON, nullable=True),
    sa.Column("rematch", sa.JSON, nullable=True),
)

seats = sa.Table(
    "golf_seats", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False,
              index=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(40), nullable=True),
    sa.Column("bot", sa.String(120), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("bot_seed", sa.String(48), nullable=False),
    sa.Column("muted", sa.JSON, nullable=False),
    # The player profile seated here (migration 0003); NULL for bots and older seats.
    sa.Column("player_id", sa.String(32), nullable=True, index=True),
)

matches = sa.Table(
    "golf_matches", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    # A 128-bit seed does not fit a BIGINT: stored as decimal text.
    sa.Column("seed", sa.String(48), nullable=False),
    sa.Column("names", sa.JSON, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.UniqueConstraint("table_id", "number", name="uq_match_number"),
)

actions = sa.Table(
    "golf_actions", metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("by", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

#: Chat lines of a table (migration 0002); the newest ones are shown on (re)joining.
chat = sa.Table(
    "golf_chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("golf_tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(40), nullable=True),
    sa.Column("text", sa.String(1200), nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Index("ix_golf_chat_table_id", "table_id", "id"),
)

# --- players who come back (migration 0003) -------------------------------------------
# A player is a guest profile first (a random id and the SHA-256 of a long-lived secret
# in a cookie); claiming it adds an account row. Secrets, passwords and codes are kept
# as hashes only (see golf.identity).

players = sa.Table(
    "golf_players", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("secret_hash", sa.String(64), nullable=True),
    sa.Column("name", sa.String(40), nullable=True),
    # active, suspended or deleted (a deleted player's games show "deleted player").
    sa.Column("status", sa.String(16), nullable=False, server_default="active"),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
)

accounts = sa.Table(
    "golf_accounts", metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), primary_key=True),
    sa.Column("username", sa.String(24), nullable=False),
    sa.Column("username_key", sa.String(24), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("password_changed", sa.Float, nullable=False),
)

sessions = sa.Table(
    "golf_sessions", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False,
              index=True),
    sa.Column("secret_hash", sa.String(64), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("label", sa.String(120), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
)

recovery_codes = sa.Table(
    "golf_recovery_codes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False,
              index=True),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("used", sa.Float, nullable=True),
)

passkeys = sa.Table(
    "golf_passkeys", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False,
              index=True),
    sa.Column("credential_id", sa.String(512), nullable=False, unique=True),
    sa.Column("public_key", sa.LargeBinary, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
)

#: A person's OpenSkill rating per variant ("preset/band", golf.ratings.Variant.key).
ratings = sa.Table(
    "golf_ratings", metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), primary_key=True),
    sa.Column("variant", sa.String(80), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("abandoned", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_golf_ratings_variant", "variant", "mu"),
)

#: The rated matches ratings are rebuilt from, one row per seat with its update.
rated_matches = sa.Table(
    "golf_rated_matches", metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
    sa.Column("variant", sa.String(80), nullable=False),
    sa.Column("finished", sa.Float, nullable=False, index=True),
)

rated_seats = sa.Table(
    "golf_rated_seats", metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("golf_matches.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=True,
              index=True),
    sa.Column("bot", sa.String(120), nullable=True),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("abandoned", sa.Boolean, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=True),
    sa.Column("sigma_before", sa.Float, nullable=True),
    sa.Column("mu_after", sa.Float, nullable=True),
    sa.Column("sigma_after", sa.Float, nullable=True),
)

blocks = sa.Table(
    "golf_blocks", metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), primary_key=True),
    sa.Column("blocked_id", sa.String(32), sa.ForeignKey("golf_players.id"), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
)

reports = sa.Table(
    "golf_reports", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False),
    sa.Column("reported_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False,
              index=True),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    # The reported chat line(s), copied so that the report outlives the chat's trimming.
    sa.Column("chat", sa.JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, server_default="open"),
    sa.Column("created", sa.Float, nullable=False),
)

#: Quick play's queue (migration 0004): one row per person waiting for a match (or just
#: matched, until they have seen where), shared by every server process on the database.
#: ``token_hash`` is the hash of the seat token handed out when the person queued.
queue = sa.Table(
    "golf_queue", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("golf_players.id"), nullable=False,
              unique=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    # waiting, matching (claimed by a matcher, its table being made) or matched.
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("polled", sa.Float, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Index("ix_golf_queue_key", "preset", "players", "status"),
)

#: Which server process plays a live table (migration 0005, golf.server.cluster.lease): used only
#: when several processes share a PostgreSQL database. A lease lives while its owner's
#: node row does; ``changed`` is when it last changed hands.
leases = sa.Table(
    "golf_leases", metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(120), nullable=False),
    sa.Column("epoch", sa.BigInteger, nullable=False),
    sa.Column("changed", sa.Float, nullable=False),
    sa.Index("ix_golf_leases_owner", "owner"),
)

#: The server processes of a cluster, each alive until ``expires`` (the database's clock).
nodes = sa.Table(
    "golf_nodes", metadata,
    sa.Column("node", sa.String(120), primary_key=True),
    sa.Column("expires", sa.Float, nullable=False),
    # When the process's current unbroken run of renewals began (migration 0008,
    # golf.server.cluster.lease: who may take an expired lease after an outage).
    sa.Column("since", sa.Float, nullable=True),
)

#: Sign-in attempts counted per username and per address (migration 0006,
#: golf.server.players.limits), shared by every process on the database; ``key`` is the SHA-256
#: digest of the username's lookup key or the address's key, never the text itself.
signin_limits = sa.Table(
    "golf_signin_limits", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("failures", sa.Integer, nullable=False),
    sa.Column("last", sa.Float, nullable=False),
    sa.Index("ix_golf_signin_limits_last", "last"),
)

#: Passkey ceremonies' challenges (migration 0006, golf.server.players.passkeys), answered once
#: by whichever process the answer reaches; ``id`` is the SHA-256 digest of the ceremony key.
passkey_challenges = sa.Table(
    "golf_passkey_challenges", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("challenge", sa.LargeBinary, nullable=False),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_golf_passkey_challenges_created", "created"),
)

MIGRATIONS = Path(__file__).parent / "migrations"


def async_url(url: str) -> str:
    """The async driver's URL for a plain ``sqlite:`` or ``postgresql:`` URL.

    >>> async_url("postgresql://u@localhost:5433/golf")
    'postgresql+asyncpg://u@localhost:5433/golf'
    >>> async_url("sqlite:////tmp/golf.db")
    'sqlite+aiosqlite:////tmp/golf.db'
    """
    for plain, driver in (("postgresql://", "postgresql+asyncpg://"),
                          ("postgres://", "postgresql+asyncpg://"),
                          ("sqlite://", "sqlite+aiosqlite://")):
        if url.startswith(plain):
            return driver + url[len(plain):]
    return url


def default_url(data_dir: Path) -> str:
    return f"sqlite+aiosqlite:///{(data_dir / 'golf.db').resolve()}"


#: Seconds a new PostgreSQL connection may take before the attempt fails.
CONNECT_TIMEOUT = 10.0


def stall_settings(stall: float) -> dict[str, Any]:
    """asyncpg's connect arguments that bound how long a cut-off link can hold anything
    up, for a server whose leases last ``stall`` seconds (docs/server.md, "Failure
    modes"): each statement gives up after two thirds of it (a process cut off from the
    database hears of it while its lease still stands, so its renewals are tried again
    and its clients are answered ``try_again`` instead of waiting for TCP to give up), and
    the database ends a transaction left idle by its client for ``stall`` (a process cut
    off mid-write would otherwise keep its rows and lease locks for as long as the cut
    lasts, and hold up the process that took its tables over)."""
    return {"command_timeout": max(0.5, stall * 2 / 3),
            "server_settings": {
                "idle_in_transaction_session_timeout": str(max(500, round(stall * 1000)))}}


def make_engine(url: str, stall: float | None = None, pool: int = 10,
                overflow: int = 20, connect_timeout: float = 0.0,
                pool_timeout: float = 30.0) -> AsyncEngine:
    """An engine for ``url``; with ``stall`` (a server's lease TTL, PostgreSQL only) its
    connections carry :func:`stall_settings` (not for migrations, whose statements may
    take long). ``pool`` connections are kept, ``overflow`` more opened when needed; a
    connection attempt gives up after ``connect_timeout`` s (default CONNECT_TIMEOUT), a
    wait for a free connection of the pool after ``pool_timeout`` s."""
    url = async_url(url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # WAL: readers never block the writer; NORMAL sync survives a killed
            # process (the WAL is in the OS cache), which is what kill -9 tests.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    # pre_ping: a connection the database dropped (a restart) is replaced, not used. A
    # connection attempt to a database that does not answer (unreachable, not refused)
    # gives up after CONNECT_TIMEOUT instead of asyncpg's 60 s: the writes queued behind
    # it, the lease renewals and the automatic moves' retries try again sooner.
    connect: dict[str, Any] = {"timeout": connect_timeout or CONNECT_TIMEOUT}
    if stall is not None:
        connect.update(stall_settings(stall))
    return create_async_engine(url, pool_size=pool, max_overflow=overflow,
                               pool_timeout=pool_timeout, pool_pre_ping=True,
                               connect_args=connect)


def _upgrade(conn: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "head")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest migration (keeps every table and replay)."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)


async def schema_version(conn: AsyncConnection) -> str | None:
    def read(sync: sa.Connection) -> str | None:
        from alembic.runtime.migration import MigrationContext

        return MigrationContext.configure(sync).get_current_revision()

    return await conn.run_sync(read)
