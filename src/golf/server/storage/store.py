"""Persistence: every change to a table is one transaction.

An accepted action is inserted (with the match's end, when it ends it) in the
transaction whose commit acknowledges it; nobody hears of an action before it is on
disk. On SQLite one writer runs at a time (an asyncio lock instead of lock
timeouts); PostgreSQL takes writers concurrently. On SQLite a batch holding only action
rows (the common case under load) is written by :class:`ActionWriter` in one call on its
own thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .action_writer import ActionWriter
from .errors import Behind, Fenced, Unavailable
from .records import (
    MatchRecord,
    SeatRecord,
    TableRecord,
    insert_seats,
    load_match,
    load_table,
    table_values,
)


class Fence(Protocol):
    """What the store asks before each commit when several processes share the database:
    :class:`golf.server.cluster.lease.Leases` (the store knows it only by this shape)."""

    @property
    def enabled(self) -> bool: ...

    async def check(self, conn: AsyncConnection, tables: Iterable[str]) -> None:
        """Raise :class:`~golf.server.storage.errors.Fenced` unless this process may
        still write every one of ``tables``."""

    def precheck(self, table_id: str) -> None:
        """Raise Fenced or Unavailable, without asking the database, when a write of
        ``table_id`` cannot be made (the table is not held, or the leases cannot be
        vouched for)."""


#: At most this many writes share one transaction.
MAX_BATCH = 500
#: Seconds from the start of one transaction to the start of the next while several tables
#: write (``golf serve --commit-interval``). A write queued sooner waits for that moment and
#: shares the next transaction with every write queued meanwhile. Under load it turns many
#: commits of one write into fewer of several: each commit costs a hop to the database
#: thread and back and a WAL write (PostgreSQL: round trips and a flush), whatever it
#: carries. One table writing alone (a bot match played at full speed) never waits: nothing
#: would join its commit.
COMMIT_INTERVAL = 0.008
#: Writes count as concurrent while the last write of another table is this recent (s).
CONCURRENT_WITHIN = 0.05
Op = Callable[[AsyncConnection], Awaitable[Any]]


class TableUpdate:
    """An op that sets JSON columns of one table's row (``golf_tables``), and nothing else.

    Through SQLAlchemy it is the ``UPDATE`` it says; on SQLite the group commit's fast path
    (:class:`ActionWriter`) writes it itself, in the same transaction as the action rows
    it is batched with. A hole's break is stored when it begins and at each ``ready`` (and a
    turn's clocks at a timed table): as plain ops they took their whole batch, every other
    table's moves with them, down SQLAlchemy's async path, several hops to the database
    thread and back on the event loop for each."""

    __slots__ = ("table_id", "values")

    def __init__(self, table_id: str, values: dict[str, Any]) -> None:
        self.table_id = table_id
        self.values = values

    async def __call__(self, conn: AsyncConnection) -> None:
        await conn.execute(db.tables.update().where(db.tables.c.id == self.table_id)
                           .values(**self.values))
#: A queued write: its op, its action row, its caller's future, the table it writes.
Entry = tuple[Op | None, dict[str, Any] | None, asyncio.Future[Any], str | None]


class Store:
    """The database behind the hub.

    Writes go through one writer task that commits, in a single transaction, every
    write queued while the previous transaction was in flight (group commit): each
    caller is answered only after the transaction holding its write has committed,
    and one database round trip serves a whole batch of tables. If a batch fails, its
    writes are retried one by one, so one bad write fails alone.
    """

    def __init__(self, engine: AsyncEngine, leases: Fence | None = None, *,
                 commit_interval: float = COMMIT_INTERVAL) -> None:
        self.engine = engine
        self.commit_interval = commit_interval
        #: When the last transaction began, and when a write came from another table than
        #: the write before it (the loop's clock).
        self._began = -1e9
        self._mixed_at = -1e9
        self._last_table: str | None = None
        #: Several processes on one database: each table's writes are fenced by its
        #: lease (golf.server.cluster.lease); None or disabled on SQLite.
        self._leases = leases if leases is not None and leases.enabled else None
        self.sqlite = engine.dialect.name == "sqlite"
        path = engine.url.database
        self._actions = (ActionWriter(path) if self.sqlite and path and path != ":memory:"
                         else None)
        self._queue: list[Entry] = []
        self._writer: asyncio.Task[None] | None = None
        self._conn: AsyncConnection | None = None
        self.batches = 0
        self.writes = 0
        #: Called with a table's id when one of its writes was refused because its lease
        #: is another process's now (Fenced): the hub gives the table up at once.
        self.fenced: Callable[[str], None] | None = None

    def on_fenced(self, call: Callable[[str], None]) -> None:
        """Have ``call(table_id)`` called whenever a write of a table is refused because
        its lease is another process's now (the hub gives the table up at once)."""
        self.fenced = call

    async def submit(self, op: Op | None, action_row: dict[str, Any] | None = None,
                     table: str | None = None) -> Any:
        """Run ``op`` (and insert ``action_row``) inside a write transaction; return the
        op's result once committed. Action rows of a batch are inserted together, after
        its other writes (which may create the matches they belong to). A write of
        ``table`` commits only while this process holds its lease (when leases are on).
        A database that cannot be reached is ``try_again`` (nothing was stored)."""
        return await self._committed(self._queue_write(op, action_row, table), table)

    def commit_counts(self) -> dict[str, int]:
        """Transactions committed and the writes they carried, since start (for metrics)."""
        return {"batches": self.batches, "writes": self.writes}

    def _queue_write(self, op: Op | None, action_row: dict[str, Any] | None,
                     table: str | None) -> asyncio.Future[Any]:
        """Queue a write for the next batch; its future is answered once it committed."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        if self._refused(table, fut):
            return fut
        if table != self._last_table:
            self._last_table, self._mixed_at = table, loop.time()
        self._queue.append((op, action_row, fut, table))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain())
        return fut

    def writable(self, table_id: str) -> None:
        """Raise what a write of ``table_id`` would be refused with now without the
        database (:meth:`_refused`): asked before a move is played in memory, whose
        undoing (the match rebuilt from its record) costs far more than the check. While
        a process is cut off, each table's retries would otherwise rebuild its match
        every time, and at 26 tables that kept the event loop busy for good."""
        if self._leases is None:
            return
        try:
            self._leases.precheck(table_id)
        except Fenced as e:
            if self.fenced is not None:
                self.fenced(e.table_id)
            raise

    def _refused(self, table: str | None, fut: asyncio.Future[Any]) -> bool:
        """Refuse a write of ``table`` that its lease forbids, without the database (the
        table is not held here, or this process has not renewed for a TTL); True if so.
        Asked when a write is queued and again when its turn comes: while this process
        is cut off from the database each write would otherwise wait for its statement
        timeout, one after another in the writer, and after a long cut that queue held
        the writes of tables this process no longer held for many seconds past the
        heal."""
        if table is None or self._leases is None or fut.done():
            return False
        try:
            self._leases.precheck(table)
        except Exception as e:
            fut.set_exception(e)
            return True
        return False

    async def _committed(self, done: Awaitable[Any], table: str | None) -> Any:
        """The outcome of a queued write, with an unreachable database as ``Unavailable``."""
        try:
            return await done
        except Fenced as e:
            if self.fenced is not None:
                self.fenced(e.table_id)
            raise
        except sa.exc.IntegrityError as e:
            # The data's answer, not an outage: a name taken is the caller's to word; a
            # table's row already there (a move another writer stored: the last line of
            # defence against a fork; or this process's own move whose commit answer was
            # lost) is a table whose copy here is behind the database.
            if table is None or self._leases is None:
                raise
            raise Behind() from e
        except (sa.exc.SQLAlchemyError, OSError) as e:
            if self._leases is None:
                raise
            raise Unavailable() from e

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            now = loop.time()
            wait = self._began + self.commit_interval - now
            if wait > 0 and now - self._mixed_at < CONCURRENT_WITHIN:
                await asyncio.sleep(wait)
            self._began = loop.time()
            batch = [e for e in self._queue[:MAX_BATCH] if not self._refused(e[3], e[2])]
            del self._queue[:MAX_BATCH]
            if not batch:
                continue
            if self._actions is not None and all(op is None or type(op) is TableUpdate
                                                 for op, _, _, _ in batch):
                try:
                    # The updates first: an op's writes come before the batch's action rows.
                    await self._actions.write(
                        [row for _, row, _, _ in batch if row is not None],
                        [(op.table_id, op.values) for op, _, _, _ in batch
                         if type(op) is TableUpdate])
                except Exception:
                    await self._one_by_one(batch)
                    continue
                self._answer(batch, [None] * len(batch))
                continue
            try:
                conn = await self._connection()
                async with conn.begin():
                    results = [None if op is None else await op(conn)
                               for op, _, _, _ in batch]
                    rows = [row for _, row, _, _ in batch if row is not None]
                    if rows:
                        await conn.execute(db.actions.insert(), rows)
                    await self._fence(conn, [t for _, _, _, t in batch if t is not None])
            except Exception:
                await self._drop_connection()
                await self._one_by_one(batch)
                continue
            self._answer(batch, results)

    def _answer(self, batch: list[Entry],
                results: list[Any]) -> None:
        """A committed batch: each caller gets its result."""
        self.batches += 1
        self.writes += len(batch)
        for (_, _, fut, _), result in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(result)

    async def _fence(self, conn: AsyncConnection, tables: list[str]) -> None:
        """Before the commit: the lease of every table written is still this process's
        (else the whole transaction rolls back and is retried write by write)."""
        if self._leases is not None and tables:
            await self._leases.check(conn, tables)

    async def _connection(self) -> AsyncConnection:
        """The writer's own connection, kept open between batches (no pool round trip)."""
        if self._conn is None:
            self._conn = await self.engine.connect()
        return self._conn

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _one_by_one(
            self, batch: list[Entry]
    ) -> None:
        for op, row, fut, table in batch:
            if self._refused(table, fut):
                continue
            try:
                async with self.engine.begin() as conn:
                    result = None if op is None else await op(conn)
                    if row is not None:
                        await conn.execute(db.actions.insert(), [row])
                    await self._fence(conn, [] if table is None else [table])
            except Exception as e:
                if isinstance(e, sa.exc.IntegrityError) and table is not None:
                    e = await self._lost_or(e, table)
                if not fut.done():
                    fut.set_exception(e)
            else:
                if not fut.done():
                    fut.set_result(result)

    async def _lost_or(self, e: Exception, table: str) -> Exception:
        """A write of ``table`` met a row already stored (its insert failed before its
        lease was checked, which comes last in the transaction): :class:`Fenced` if the
        lease is another process's now (the other process stored that row; the table
        must be given up, not read again here and played on against the database),
        else ``e`` (this process's own commit whose answer was lost: Behind)."""
        if self._leases is None:
            return e
        try:
            async with self.engine.begin() as conn:
                await self._leases.check(conn, [table])
        except Fenced as f:
            return f
        except Exception:
            return e
        return e

    async def close(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        await self._drop_connection()
        if self._actions is not None:
            await self._actions.close()
        await self.engine.dispose()

    # --- tables and seats ------------------------------------------------------------
    async def create_table(self, t: TableRecord) -> None:
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.tables.insert().values(**table_values(t)))
            await insert_seats(conn, t.id, t.seats)

        # Not fenced: a new id cannot be anyone else's table (its primary key sees to
        # that); its lease is taken by the first process that plays it.
        await self.submit(op)

    async def save_table(self, t: TableRecord, seats: bool = False) -> None:
        """Write the table's fields (and, with ``seats``, its whole seat list)."""
        values = table_values(t)
        del values["id"]
        seat_list = list(t.seats) if seats else None

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.tables.update().where(db.tables.c.id == t.id).values(**values))
            if seat_list is not None:
                await conn.execute(db.seats.delete().where(db.seats.c.table_id == t.id))
                await insert_seats(conn, t.id, seat_list)

        await self.submit(op, table=t.id)

    async def save_seat(self, table_id: str, s: SeatRecord) -> None:
        values = {"kind": s.kind, "name": s.name, "bot": s.bot, "token_hash": s.token_hash,
                  "muted": list(s.muted), "player_id": s.player_id}

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(
                db.seats.update()
                .where(db.seats.c.table_id == table_id, db.seats.c.position == s.position)
                .values(**values))

        await self.submit(op, table=table_id)

    # --- matches -------------------------------------------------------------------
    async def start_match(self, t: TableRecord, rules: Mapping[str, Any], players: int,
                          seed: int, names: Sequence[str]) -> MatchRecord:
        """Insert match ``t.match`` and write the table (status, rules) with it."""
        values = table_values(t)
        del values["id"]
        number = t.match

        async def op(conn: AsyncConnection) -> int:
            res = await conn.execute(db.matches.insert().values(
                table_id=t.id, number=number, status="playing", rules=dict(rules),
                players=players, seed=str(seed), names=list(names), result=None,
                started=time.time(), finished=None).returning(db.matches.c.id))
            match_id = int(res.scalar_one())
            await conn.execute(db.tables.update().where(db.tables.c.id == t.id).values(**values))
            return match_id

        match_id = await self.submit(op, table=t.id)
        return MatchRecord(match_id, number, "playing", dict(rules), players, seed,
                           list(names), None, [], [])

    async def append_action(self, table_id: str, match_id: int, index: int, action: str,
                            by: str, result: dict[str, Any] | None = None,
                            status: str | None = None) -> None:
        """Store action ``index`` of a match; with ``result``, the match's end too.

        The write is queued before this first waits and is shielded: a caller cancelled
        while it waits leaves the write to commit (or fail) on its own, never half done.
        The primary key (match, index) makes a duplicate write fail rather than fork
        the match.
        """
        row = {"match_id": match_id, "idx": index, "action": action, "by": by,
               "at": time.time()}
        finish: Op | None = None
        if result is not None:
            async def finish(conn: AsyncConnection) -> None:
                await _finish(conn, table_id, match_id, result, status or "finished")

        # Shielding the future, not a coroutine: no task per action.
        await self._committed(asyncio.shield(self._queue_write(finish, row, table_id)),
                              table_id)

    async def end_match(self, table_id: str, match_id: int, result: dict[str, Any],
                        status: str) -> None:
        async def op(conn: AsyncConnection) -> None:
            await _finish(conn, table_id, match_id, result, status)

        await self.submit(op, table=table_id)

    async def save_clocks(self, table_id: str, clocks: dict[str, Any] | None) -> None:
        """Write the running match's clocks (None: no match runs)."""
        await self.submit(TableUpdate(table_id, {"clocks": clocks}), table=table_id)

    # --- chat ------------------------------------------------------------------------
    async def save_pending(self, table_id: str, **values: dict[str, Any] | None) -> None:
        """Write the table's running hole break (``hole_break``) or offered rematch
        (``rematch``), None for none (golf.server.tables.finish)."""
        assert set(values) <= {"hole_break", "rematch"}, values
        await self.submit(TableUpdate(table_id, values), table=table_id)

    async def add_chat(self, table_id: str, seat: int, name: str | None, text: str,
                       at: int) -> None:
        """Store one chat line of a table (committed before anyone sees it)."""
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.chat.insert().values(
                table_id=table_id, seat=seat, name=name, text=text, at=at))

        await self.submit(op, table=table_id)

    async def recent_chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` chat lines of a table, oldest first."""
        async with self.engine.connect() as conn:
            res = await conn.execute(
                sa.select(db.chat.c.seat, db.chat.c.name, db.chat.c.text, db.chat.c.at)
                .where(db.chat.c.table_id == table_id)
                .order_by(db.chat.c.id.desc()).limit(limit))
            rows = [{"seat": r[0], "name": r[1], "text": r[2], "time": int(r[3])}
                    for r in res]
        rows.reverse()
        return rows

    # --- reading -------------------------------------------------------------------
    async def load(self, table_id: str) -> TableRecord | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(db.tables).where(db.tables.c.id == table_id))).mappings().first()
            if row is None:
                return None
            return await load_table(conn, row)

    async def unfinished_ids(self) -> list[str]:
        async with self.engine.connect() as conn:
            res = await conn.execute(sa.select(db.tables.c.id).where(
                db.tables.c.status.in_(("waiting", "playing"))))
            return [r[0] for r in res]

    async def table_of_token(self, token_hash: str) -> tuple[str, int] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.seats.c.table_id, db.seats.c.position)
                                      .where(db.seats.c.token_hash == token_hash))).first()
            return None if row is None else (row[0], row[1])

    async def open_tables(self, limit: int = 1000) -> list[dict[str, Any]]:
        """Public tables waiting or playing, newest first: id, title, preset, status,
        seats, free (human seats nobody took) and rated, for the lobby's list across
        processes."""
        t, s = db.tables, db.seats
        free = sa.func.sum(sa.case((sa.and_(s.c.kind == "human", s.c.token_hash.is_(None)), 1),
                                   else_=0))
        async with self.engine.connect() as conn:
            res = await conn.execute(
                sa.select(t.c.id, t.c.title, t.c.preset, t.c.status, sa.func.count(s.c.id),
                          free, t.c.rated)
                .join(s, s.c.table_id == t.c.id)
                .where(t.c.public.is_(True), t.c.status.in_(("waiting", "playing")))
                .group_by(t.c.id).order_by(t.c.created.desc()).limit(limit))
            return [{"id": r[0], "title": r[1], "preset": r[2], "status": r[3],
                     "seats": int(r[4]), "free": int(r[5] or 0), "rated": bool(r[6])}
                    for r in res]

    async def table_of_invite(self, invite: str) -> str | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.tables.c.id)
                                      .where(db.tables.c.invite == invite))).first()
            return None if row is None else str(row[0])

    async def match(self, table_id: str, number: int) -> MatchRecord | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.matches).where(
                db.matches.c.table_id == table_id, db.matches.c.number == number))
            ).mappings().first()
            return None if row is None else await load_match(conn, row)

    async def matches(self, table_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            res = await conn.execute(
                sa.select(db.matches.c.number, db.matches.c.status, db.matches.c.result)
                .where(db.matches.c.table_id == table_id).order_by(db.matches.c.number))
            return [{"match": r[0], "status": r[1], "result": r[2]} for r in res]


async def _finish(conn: AsyncConnection, table_id: str, match_id: int,
                  result: dict[str, Any], status: str) -> None:
    await conn.execute(db.matches.update().where(db.matches.c.id == match_id).values(
        status=status, result=result, finished=time.time()))
    await conn.execute(db.tables.update().where(db.tables.c.id == table_id).values(
        status=status))
