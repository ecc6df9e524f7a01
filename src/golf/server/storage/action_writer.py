"""The SQLite fast path of the store's group commit: a batch made only of action rows and
table updates (the common case under load) written in one call on a thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa

from . import db

__all__ = ["ActionWriter"]


class ActionWriter:
    """Batches made only of action rows and updates of a table's JSON columns (a hole's
    break, a rematch, clocks), written to SQLite in ONE call on its own thread: ``BEGIN
    IMMEDIATE``, the updates, one ``executemany``, ``COMMIT``.

    Through SQLAlchemy's async layer each statement of a transaction is a hop to
    aiosqlite's thread and back (begin, execute, commit, cursor close); under load those
    hops cost more than the writing. The rows are the same rows, the transaction the same
    transaction: its callers are answered only after ``COMMIT`` returned.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="golf-db")
        self.conn: sqlite3.Connection | None = None
        names = [c.name for c in db.actions.columns]
        columns = ", ".join(f'"{n}"' for n in names)  # quoted: "by" is an SQL keyword
        values = ", ".join(f":{n}" for n in names)
        self.sql = f"INSERT INTO {db.actions.name} ({columns}) VALUES ({values})"
        #: Every JSON column of a table's row an update may set (Store's TableUpdate).
        self._json_columns = {c.name for c in db.tables.columns
                              if isinstance(c.type, sa.JSON)}

    def _connect(self) -> sqlite3.Connection:
        # The same pragmas as the engine's connections (db.make_engine).
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _update_sql(self, columns: Iterable[str]) -> str:
        names = list(columns)
        assert names and set(names) <= self._json_columns, names
        sets = ", ".join(f'"{n}" = ?' for n in names)
        return f"UPDATE {db.tables.name} SET {sets} WHERE id = ?"

    def _write(self, rows: list[dict[str, Any]],
               updates: Sequence[tuple[str, dict[str, Any]]] = ()) -> None:
        if self.conn is None:
            self.conn = self._connect()
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            for table_id, values in updates:
                # The text SQLAlchemy's JSON type stores (json.dumps; None is JSON null,
                # as the columns are not none_as_null), so its reads see the same values.
                conn.execute(self._update_sql(values),
                             [*(json.dumps(v) for v in values.values()), table_id])
            conn.executemany(self.sql, rows)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    async def write(self, rows: list[dict[str, Any]],
                    updates: Sequence[tuple[str, dict[str, Any]]] = ()) -> None:
        """Insert ``rows`` after the table updates ``updates`` ((table id, JSON columns'
        values) each), all in one transaction."""
        await asyncio.get_running_loop().run_in_executor(self.thread, self._write, rows,
                                                         updates)

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._close)
        self.thread.shutdown(wait=True)
