"""Whether this release may use a database: its schema revision against the migrations.

Every process refuses a database whose revision it does not know (a newer release wrote
it: running on would corrupt it). A process started with ``--no-migrate`` (every process of
a cluster: ``golf cluster`` migrates once, before starting them) also refuses a database
that is not exactly at this release's newest revision, instead of upgrading it under the
feet of processes of the older release. ``golf serve`` alone upgrades an older database.

>>> verdict("0002", ["0001", "0002", "0003"], migrate=True) is None
True
>>> "newer release" in verdict("0099", ["0001", "0002", "0003"], migrate=True)
True
>>> "golf migrate" in verdict("0002", ["0001", "0002", "0003"], migrate=False)
True
>>> verdict("0003", ["0001", "0002", "0003"], migrate=False) is None
True
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ... import __version__
from ...errors import GolfError
from . import db


class SchemaMismatch(GolfError):
    """The database's schema does not belong to this release; nothing was written."""


def revisions() -> list[str]:
    """This release's migration revisions, oldest first (the last is its head)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    script = ScriptDirectory.from_config(cfg)
    return [s.revision for s in reversed(list(script.walk_revisions()))]


def verdict(current: str | None, known: list[str], migrate: bool) -> str | None:
    """Why this release must not start on a database at revision ``current``; None if it
    may (``migrate``: it is allowed to upgrade an older or empty database first)."""
    head = known[-1]
    if current is not None and current not in known:
        return (f"the database's schema is at revision {current}, which golf {__version__} "
                f"does not know (its newest is {head}): a newer release of golf wrote it. "
                "Run that release (or a newer one) on it; this process stops without "
                "touching the database")
    if migrate or current == head:
        return None
    if current is None:
        return ("the database has no Golf schema yet and --no-migrate never creates one: "
                "run `golf migrate --db URL` once (golf cluster does), then start the "
                "processes")
    return (f"the database's schema is at revision {current} but golf {__version__} needs "
            f"{head}, and --no-migrate (every process of a cluster) never upgrades it while "
            "processes of the older release may still use it: stop them, run `golf migrate "
            "--db URL` once, then start the processes of this release")


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await db.schema_version(conn)


async def check(engine: AsyncEngine, migrate: bool) -> None:
    """Raise SchemaMismatch (before anything is written) when this release must not run
    on the engine's database."""
    why = verdict(await current_revision(engine), revisions(), migrate)
    if why is not None:
        raise SchemaMismatch(why)


async def check_url(url: str, migrate: bool) -> None:
    """``check`` on a database URL, with an engine of its own."""
    engine = db.make_engine(url)
    try:
        await check(engine, migrate)
    except (OSError, sa.exc.SQLAlchemyError) as e:
        raise GolfError(f"cannot read the database's schema revision: {e}") from None
    finally:
        await engine.dispose()


async def migrate_url(url: str) -> tuple[str | None, str]:
    """Upgrade the database at ``url`` to this release's newest revision (refusing a newer
    one); returns the revisions before and after."""
    engine = db.make_engine(url)
    try:
        await check(engine, migrate=True)
        before = await current_revision(engine)
        await db.migrate(engine)
        after = await current_revision(engine)
    except (OSError, sa.exc.SQLAlchemyError) as e:
        raise GolfError(f"cannot migrate the database: {e}") from None
    finally:
        await engine.dispose()
    return before, after or ""


def ensure_sqlite_dir(data_dir: str | Path, url: str | None) -> None:
    """The data directory of the default SQLite file exists before anything opens it."""
    if not url:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
