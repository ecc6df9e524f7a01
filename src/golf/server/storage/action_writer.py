"""The SQLite fast path of the store's group commit: a batch made only of action rows
(the common case under load) written in one call on a thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import db

__all__ = ["ActionWriter"]


class ActionWriter:
    """Batches made only of action rows, written to SQLite in ONE call on its own thread:
    ``BEGIN IMMEDIATE``, one ``executemany``, ``COMMIT``.

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

    def _connect(self) -> sqlite3.Connection:
        # The same pragmas as the engine's connections (db.make_engine).
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _write(self, rows: list[dict[str, Any]]) -> None:
        if self.conn is None:
            self.conn = self._connect()
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(self.sql, rows)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    async def write(self, rows: list[dict[str, Any]]) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._write, rows)

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._close)
        self.thread.shutdown(wait=True)
