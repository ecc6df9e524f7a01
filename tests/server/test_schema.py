"""The migrations and the tables the code declares (golf.server.storage.db) describe one schema."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from golf.server.storage import db


def test_the_migrated_schema_is_the_declared_one(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'golf.db'}")
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(db.MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": False})
        diff = [d for d in compare_metadata(ctx, db.metadata)
                if not (isinstance(d, tuple) and "alembic_version" in str(d))]
    assert diff == [], diff
    # Every declared table exists after the upgrade (a test that could fail by omission).
    names = set(sa.inspect(engine).get_table_names())
    assert {t.name for t in db.metadata.sorted_tables} <= names
