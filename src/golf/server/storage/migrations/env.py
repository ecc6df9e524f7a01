"""Alembic environment: runs on the connection ``golf serve`` hands over."""

from __future__ import annotations

from alembic import context

from golf.server.storage.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only ever run through golf.server.storage.db.migrate
    raise RuntimeError("run migrations through golf.server.storage.db.migrate (golf serve does)")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
