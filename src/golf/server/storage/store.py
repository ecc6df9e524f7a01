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
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .errors import Unavailable


class Fence(Protocol):
    """What the store asks before each commit when several processes share the database:
    :class:`golf.server.cluster.lease.Leases` (the store knows it only by this shape)."""

    @property
    def enabled(self) -> bool: ...

    async def check(self, conn: AsyncConnection, tables: Iterable[str]) -> None:
        """Raise :class:`~golf.server.storage.errors.Fenced` unless this process may
        still write every one of ``tables``."""


@dataclass
class SeatRecord:
    position: int
    kind: str  # human | bot | external
    name: str | None
    bot: str | None
    token_hash: str | None
    bot_seed: int
    muted: list[int] = field(default_factory=list)
    id: int | None = None
    #: The player profile seated here (golf.server.players.accounts); None for bots.
    player_id: str | None = None


@dataclass
class MatchRecord:
    id: int
    number: int
    status: str
    rules: dict[str, Any]
    players: int
    seed: int
    names: list[str]
    result: dict[str, Any] | None
    actions: list[str]
    by: list[str]


@dataclass
class TableRecord:
    id: str
    title: str
    status: str
    preset: str
    overrides: dict[str, Any]
    public: bool
    options: dict[str, Any]
    host: int
    invite: str
    match: int
    created: float
    seats: list[SeatRecord]
    current: MatchRecord | None = None
    #: The running match's clocks as last saved (golf.server.tables.clocks.Clocks.snapshot).
    clocks: dict[str, Any] | None = None
    #: Rated or casual (golf.server.ratings.rating_service): a rated table's matches are rated.
    rated: bool = False
    #: The hole break and the rematch offer as last stored (golf.server.tables.finish).
    hole_break: dict[str, Any] | None = None
    rematch: dict[str, Any] | None = None


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
#: A queued write: its op, its action row, its caller's future, the table it writes.
Entry = tuple[Op | None, dict[str, Any] | None, asyncio.Future[Any], str | None]


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
        if table != self._last_table:
            self._last_table, self._mixed_at = table, loop.time()
        self._queue.append((op, action_row, fut, table))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain())
        return fut

    async def _committed(self, done: Awaitable[Any], table: str | None) -> Any:
        """The outcome of a queued write, with an unreachable database as ``Unavailable``."""
        try:
            return await done
        except sa.exc.IntegrityError as e:
            # The data's answer, not an outage: a name taken is the caller's to word; a
            # table's row already there (a move another writer stored: the last line of
            # defence against a fork) is a table that moved on, so try again.
            if table is None or self._leases is None:
                raise
            raise Unavailable() from e
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
            batch = self._queue[:MAX_BATCH]
            del self._queue[:MAX_BATCH]
            if self._actions is not None and all(op is None for op, _, _, _ in batch):
                try:
                    await self._actions.write([row for _, row, _, _ in batch
                                               if row is not None])
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
            try:
                async with self.engine.begin() as conn:
                    result = None if op is None else await op(conn)
                    if row is not None:
                        await conn.execute(db.actions.insert(), [row])
                    await self._fence(conn, [] if table is None else [table])
            except Exception as e:
                if not fut.done():
                    fut.set_exception(e)
            else:
                if not fut.done():
                    fut.set_result(result)

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
            await conn.execute(db.tables.insert().values(**_table_values(t)))
            await _insert_seats(conn, t.id, t.seats)

        # Not fenced: a new id cannot be anyone else's table (its primary key sees to
        # that); its lease is taken by the first process that plays it.
        await self.submit(op)

    async def save_table(self, t: TableRecord, seats: bool = False) -> None:
        """Write the table's fields (and, with ``seats``, its whole seat list)."""
        values = _table_values(t)
        del values["id"]
        seat_list = list(t.seats) if seats else None

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.tables.update().where(db.tables.c.id == t.id).values(**values))
            if seat_list is not None:
                await conn.execute(db.seats.delete().where(db.seats.c.table_id == t.id))
                await _insert_seats(conn, t.id, seat_list)

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
        values = _table_values(t)
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
        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.tables.update().where(db.tables.c.id == table_id)
                               .values(clocks=clocks))

        await self.submit(op, table=table_id)

    # --- chat ------------------------------------------------------------------------
    async def save_pending(self, table_id: str, **values: dict[str, Any] | None) -> None:
        """Write the table's running hole break (``hole_break``) or offered rematch
        (``rematch``), None for none (golf.server.tables.finish)."""
        assert set(values) <= {"hole_break", "rematch"}, values

        async def op(conn: AsyncConnection) -> None:
            await conn.execute(db.tables.update().where(db.tables.c.id == table_id)
                               .values(**values))

        await self.submit(op, table=table_id)

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
            return await _load(conn, row)

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
            return None if row is None else await _match(conn, row)

    async def matches(self, table_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            res = await conn.execute(
                sa.select(db.matches.c.number, db.matches.c.status, db.matches.c.result)
                .where(db.matches.c.table_id == table_id).order_by(db.matches.c.number))
            return [{"match": r[0], "status": r[1], "result": r[2]} for r in res]


def _table_values(t: TableRecord) -> dict[str, Any]:
    return {"id": t.id, "title": t.title, "status": t.status, "preset": t.preset,
            "overrides": dict(t.overrides), "public": t.public, "options": dict(t.options),
            "host": t.host, "invite": t.invite, "match": t.match, "created": t.created,
            "rated": t.rated}


async def _insert_seats(conn: AsyncConnection, table_id: str,
                        seats: Sequence[SeatRecord]) -> None:
    if not seats:
        return
    rows = [{"table_id": table_id, "position": s.position, "kind": s.kind, "name": s.name,
             "bot": s.bot, "token_hash": s.token_hash, "bot_seed": str(s.bot_seed),
             "muted": list(s.muted)} for s in seats]
    # player_id only when a seat has one (NULL is the column's default): the rows stay
    # writable into a database of the schema before players (migration 0003).
    if any(s.player_id is not None for s in seats):
        for row, s in zip(rows, seats, strict=True):
            row["player_id"] = s.player_id
    await conn.execute(db.seats.insert(), rows)


async def _finish(conn: AsyncConnection, table_id: str, match_id: int,
                  result: dict[str, Any], status: str) -> None:
    await conn.execute(db.matches.update().where(db.matches.c.id == match_id).values(
        status=status, result=result, finished=time.time()))
    await conn.execute(db.tables.update().where(db.tables.c.id == table_id).values(
        status=status))


async def _load(conn: AsyncConnection, row: sa.RowMapping) -> TableRecord:
    seat_rows = (await conn.execute(sa.select(db.seats).where(
        db.seats.c.table_id == row["id"]).order_by(db.seats.c.position))).mappings().all()
    seats = [SeatRecord(s["position"], s["kind"], s["name"], s["bot"], s["token_hash"],
                        int(s["bot_seed"]), list(s["muted"] or []), s["id"],
                        s["player_id"])
             for s in seat_rows]
    t = TableRecord(row["id"], row["title"], row["status"], row["preset"],
                    dict(row["overrides"]), bool(row["public"]), dict(row["options"]),
                    row["host"], row["invite"], row["match"], row["created"], seats,
                    clocks=row.get("clocks"), rated=bool(row.get("rated")),
                    hole_break=row.get("hole_break"), rematch=row.get("rematch"))
    if t.match:
        m = (await conn.execute(sa.select(db.matches).where(
            db.matches.c.table_id == t.id, db.matches.c.number == t.match))).mappings().first()
        if m is not None:
            t.current = await _match(conn, m)
    return t


async def _match(conn: AsyncConnection, m: sa.RowMapping) -> MatchRecord:
    acts = (await conn.execute(sa.select(db.actions.c.action, db.actions.c.by).where(
        db.actions.c.match_id == m["id"]).order_by(db.actions.c.idx))).all()
    return MatchRecord(m["id"], m["number"], m["status"], dict(m["rules"]), m["players"],
                       int(m["seed"]), list(m["names"]), m["result"], [a[0] for a in acts],
                       [a[1] for a in acts])
