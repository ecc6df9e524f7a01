"""Table leases: which server process plays a live table, when several share one
PostgreSQL database (docs/server.md, "Design of a cluster").

A lease is a row of ``golf_leases``: the table, its ``owner`` (the process's node name,
``''`` once released), an ``epoch`` that grows by one every time the lease changes hands,
and when it last ``changed`` hands. A lease is live while its owner's row in
``golf_nodes`` has not expired: each process renews that one row every ``ttl / 3``
seconds, however many tables it plays, so the renewals cost one row write per process
(not per table) and a cluster of 100,000 tables renews 50 rows a second, not 100,000.
Times are on the database's own clock, so the machines' clocks never matter.

Fencing: every write of a table checks, in the transaction that makes it, that the lease
row still carries the epoch this process acquired (``SELECT ... FOR SHARE``). A process
that stalled, let its node row expire, lost its tables and woke up can therefore never
write another move: their epochs moved on. A taker's acquiring ``UPDATE`` waits for a
writer holding the row share lock, so a write either commits before the lease changed
hands (and the taker, which loads the table only after acquiring, sees it) or fails.

On SQLite (one process by definition) there are no leases: :class:`Leases` is built
``enabled=False`` and every call is a no-op that says yes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.errors import Fenced, Unavailable

__all__ = ["DB_NOW", "Leases", "renew_forever"]

log = logging.getLogger("golf.server")

#: The database's clock in seconds since 1970 (all lease times are on it).
DB_NOW = "extract(epoch from clock_timestamp())"
#: When a node row renewed now runs out.
UNTIL = f"{DB_NOW} + CAST(:ttl AS double precision)"
#: Seconds a process's node row lasts without renewal (a killed process's tables wait
#: this long).
DEFAULT_TTL = 3.0


#: This process is alive until ``ttl`` from now (the one row each process renews), and
#: ``since`` is when its current unbroken run of renewals began: kept while the row had
#: not run out, set to now when it had (the process could not reach the database, or
#: starts).
HEARTBEAT = sa.text(f"""
INSERT INTO golf_nodes (node, expires, since)
VALUES (CAST(:me AS varchar), {UNTIL}, {DB_NOW})
ON CONFLICT (node) DO UPDATE SET expires = {UNTIL},
    since = CASE WHEN golf_nodes.expires >= {DB_NOW} AND golf_nodes.since IS NOT NULL
                 THEN golf_nodes.since ELSE {DB_NOW} END
""")

#: A lease's holder is gone: released, or its process's node row ran out while the taker
#: (``:me``, whose row the same transaction just renewed) was renewing its own unbroken,
#: or a TTL ago or more. The second half is what keeps an outage of the database from
#: moving leases: every row runs out while nobody can renew, so a row that ran out proves
#: nothing until the processes have had a TTL, counted from the taker's own return, to
#: renew theirs. A process that really died is taken over one TTL after the database came
#: back; one that died while the database was up, as soon as its row ran out.
_GONE = f"""(golf_leases.owner = ''
        OR (NOT EXISTS (SELECT 1 FROM golf_nodes n
                        WHERE n.node = golf_leases.owner AND n.expires >= {DB_NOW})
            AND EXISTS (SELECT 1 FROM golf_nodes m
                        WHERE m.node = :me AND m.since IS NOT NULL
                          AND (m.since <= COALESCE((SELECT n.expires FROM golf_nodes n
                                                    WHERE n.node = golf_leases.owner), 0)
                               OR m.since <= {DB_NOW} - CAST(:ttl AS double precision)))))"""

ACQUIRE = sa.text(f"""
INSERT INTO golf_leases (table_id, owner, epoch, changed)
SELECT CAST(:t AS varchar), CAST(:me AS varchar), 1, {DB_NOW}
WHERE EXISTS (SELECT 1 FROM golf_tables WHERE id = :t)
ON CONFLICT (table_id) DO UPDATE
    SET owner = :me, epoch = golf_leases.epoch + 1, changed = {DB_NOW}
    WHERE golf_leases.owner = :me OR {_GONE}
RETURNING epoch
""")

#: The leases this process still holds, at which epoch (one taken over shows a new owner).
HELD = sa.text("""
SELECT table_id, epoch FROM golf_leases WHERE owner = :me AND table_id = ANY(:ids)
""")

# Owner cleared: another process's acquire takes it at once, while the orphan scan
# (which waits ``grace`` past the release) leaves it to whoever asked for it.
RELEASE = sa.text(f"""
UPDATE golf_leases SET changed = {DB_NOW}, owner = ''
WHERE owner = :me AND table_id = ANY(:ids)
""")

LEFT = sa.text(f"""
SELECT (SELECT CASE WHEN l.owner = '' THEN 0
                    ELSE COALESCE((SELECT n.expires FROM golf_nodes n WHERE n.node = l.owner),
                                  0) - {DB_NOW} END
        FROM golf_leases l WHERE l.table_id = :t),
       EXISTS (SELECT 1 FROM golf_tables WHERE id = :t)
""")

CHECK = sa.text("""
SELECT table_id, epoch FROM golf_leases WHERE table_id = ANY(:ids) FOR SHARE
""")

# The tables this process holds are left out in the query, not after it: with ``LIMIT``
# they would fill every answer once it holds that many, and an orphan sorted after them
# would never be seen.
ORPHANS = sa.text(f"""
SELECT t.id FROM golf_tables t
LEFT JOIN golf_leases l ON l.table_id = t.id
LEFT JOIN golf_nodes n ON n.node = l.owner
WHERE t.status = 'playing' AND NOT (t.id = ANY(:held))
  AND (l.table_id IS NULL OR l.owner = :me
       OR (l.owner = '' AND l.changed < {DB_NOW} - CAST(:grace AS double precision))
       OR (l.owner <> '' AND COALESCE(n.expires, 0)
                             < {DB_NOW} - CAST(:grace AS double precision)))
ORDER BY t.id LIMIT :limit
""")


class Leases:
    """This process's leases (``held``: table id -> the epoch it acquired)."""

    def __init__(self, engine: AsyncEngine, node: str, ttl: float = DEFAULT_TTL,
                 enabled: bool | None = None,
                 renew_engine: AsyncEngine | None = None) -> None:
        self.engine = engine
        #: The renewals' own engine (a connection or two of their own): a renewal that
        #: queued for the serving pool behind the tables' writes, claims and reads came
        #: 18 s late after a cut healed, and meanwhile the process played on tables it
        #: no longer held. None: the serving engine.
        self.renew_engine = renew_engine or engine
        self.node = node
        self.ttl = ttl
        self.enabled = engine.dialect.name == "postgresql" if enabled is None else enabled
        self.held: dict[str, int] = {}
        #: When each held lease was acquired (time.monotonic), for the handover's pause.
        self.since: dict[str, float] = {}
        #: When the last renewal that succeeded was sent (time.monotonic): the node row,
        #: and with it every lease, lasts at least ``ttl`` from then.
        self.renewed = -1e9
        #: Whether the last renewal failed (the database could not be reached).
        self.cut_off = False

    # --- taking and giving back ------------------------------------------------------------
    async def acquire(self, table_id: str) -> int | None:
        """Take the lease of an existing table if it is free, expired or already this
        node's; its new epoch, or None (held by another process, or no such table)."""
        if not self.enabled:
            return 0
        sent = time.monotonic()
        if sent - self.renewed >= self.ttl / 3:
            # Alive first (a lease whose owner has no live node row is anyone's), in a
            # transaction of its own: in the acquiring one, the node row stayed locked
            # while the acquire waited for a writer's share lock on the lease row, every
            # other acquire of this process and its renewals queued behind it, and the
            # renewals timed out while it took a dead process's tables over by the dozen
            # (the rolling restart's tables that stood still under load).
            async with self.engine.begin() as conn:
                await conn.execute(HEARTBEAT, {"me": self.node, "ttl": self.ttl})
            self.renewed = max(self.renewed, sent)
        async with self.engine.begin() as conn:
            row = (await conn.execute(ACQUIRE, {"t": table_id, "me": self.node,
                                                "ttl": self.ttl})).first()
        if row is None:
            return None
        epoch = int(row[0])
        self.held[table_id] = epoch
        self.since[table_id] = time.monotonic()
        return epoch

    def forget(self, table_id: str) -> None:
        """Stop writing for a table (before it is released or after it was lost): from
        here on every write of it is refused without asking the database."""
        self.held.pop(table_id, None)
        self.since.pop(table_id, None)

    async def release(self, table_ids: Iterable[str]) -> None:
        """Give leases back now (expired at once), so that another process need not wait
        for them to run out. The tables must have been forgotten first."""
        ids = list(table_ids)
        if not self.enabled or not ids:
            return
        for t in ids:
            self.forget(t)
        async with self.engine.begin() as conn:
            await conn.execute(RELEASE, {"me": self.node, "ids": ids})

    # --- keeping ---------------------------------------------------------------------------
    async def renew(self) -> list[str]:
        """Keep this process alive (its one node row), which keeps every lease it holds;
        the tables whose lease was lost (another process took it while this one stalled:
        its epoch moved on) come back and are forgotten. Renewed while it holds nothing
        too: its unbroken run of renewals (``since``) is what lets it take over a dead
        process's tables at once."""
        if not self.enabled:
            return []
        wanted = dict(self.held)
        sent = time.monotonic()
        try:
            async with self.renew_engine.connect() as conn:
                try:
                    async with conn.begin():
                        await conn.execute(HEARTBEAT, {"me": self.node, "ttl": self.ttl})
                        rows = (await conn.execute(
                            HELD, {"me": self.node, "ids": list(wanted)})).all() \
                            if wanted else []
                except BaseException:
                    # Never used again: a statement that timed out can leave asyncpg's
                    # connection "another operation is in progress" for good, and the
                    # renewals' small pool handed that one connection back to every
                    # attempt (a process's renewals failed for 63 s after PostgreSQL
                    # restarted, and all its tables were taken over).
                    with contextlib.suppress(Exception):
                        await conn.invalidate()
                    raise
        except BaseException:
            self.cut_off = True
            raise
        self.cut_off = False
        self.renewed = max(self.renewed, sent)
        still = {str(r[0]): int(r[1]) for r in rows}
        lost = [t for t, epoch in wanted.items()
                if still.get(t) != epoch and self.held.get(t) == epoch]
        for t in lost:
            self.forget(t)
        return lost

    async def remaining(self, table_id: str) -> float | None:
        """Seconds until another process's lease of the table runs out (0 or less: it
        has); None if there is no such table."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(LEFT, {"t": table_id})).first()
        if row is None or not row[1]:
            return None
        return 0.0 if row[0] is None else float(row[0])

    async def orphans(self, grace: float, limit: int = 50) -> list[str]:
        """Playing tables nobody holds (no lease, or one expired ``grace`` seconds ago, or
        one of this node's from before a restart) and this process does not hold."""
        if not self.enabled:
            return []
        async with self.engine.connect() as conn:
            rows = (await conn.execute(ORPHANS, {"grace": grace, "me": self.node,
                                                 "held": list(self.held),
                                                 "limit": limit})).all()
        return [str(r[0]) for r in rows if str(r[0]) not in self.held]

    # --- fencing ---------------------------------------------------------------------------
    def vouched(self) -> bool:
        """Whether this process renewed less than a TTL ago: its node row, and with it
        every lease it holds, has not run out, so no other process can have taken one."""
        return not self.enabled or time.monotonic() - self.renewed < self.ttl

    def precheck(self, table_id: str) -> None:
        """Before a write goes to the database: :class:`Fenced` if this process no longer
        holds the table, :class:`Unavailable` if its renewals fail and it cannot vouch
        for its leases (none for a TTL). Neither needs the database's answer, and while
        this process is cut off from it every write would only wait for its statement
        timeout, one after another in the store's writer: after a long cut that queue
        held the writes of tables it no longer held for many seconds past the heal. A
        process that merely renewed late (it stalled) but reaches the database asks it:
        a lease that passed meanwhile is then Fenced, and its table given up at once."""
        if not self.enabled:
            return
        if table_id not in self.held:
            raise Fenced(table_id)
        if self.cut_off and not self.vouched():
            raise Unavailable()

    async def check(self, conn: AsyncConnection, tables: Iterable[str]) -> None:
        """Inside a write transaction: raise :class:`Fenced` unless this process still
        holds, at the epoch it acquired, the lease of every table written; and
        :class:`Unavailable` without asking the database when this process has not
        renewed for a TTL (cut off from the database, or stalled): its leases may have
        passed, and a write it cannot vouch for is not made."""
        if not self.enabled:
            return
        wanted: dict[str, int] = {}
        for t in set(tables):
            epoch = self.held.get(t)
            if epoch is None:
                raise Fenced(t)
            wanted[t] = epoch
        if not wanted:
            return
        rows = (await conn.execute(CHECK, {"ids": list(wanted)})).all()
        found = {str(r[0]): int(r[1]) for r in rows}
        for t, epoch in wanted.items():
            if found.get(t) != epoch:
                raise Fenced(t)
        # Asked after the database's answer: a lease that passed is Fenced (its table is
        # given up), one this process merely cannot vouch for is only try_again.
        if time.monotonic() - self.renewed >= self.ttl:
            raise Unavailable()

    def holds(self, table_id: str) -> bool:
        return not self.enabled or table_id in self.held

    def describe(self) -> dict[str, Any]:
        return {"node": self.node, "ttl": self.ttl, "held": len(self.held)}


#: Seconds between attempts to renew while the database cannot be reached (at most; a
#: third of the TTL if that is shorter).
RENEW_RETRY = 0.25


async def renew_forever(leases: Leases, lost: Any, back: Any = None) -> None:
    """Renew every ``ttl / 3`` seconds; call ``lost(table_id)`` (a coroutine function)
    for each lease another process took. A renewal that fails (the database cannot be
    reached) gives up nothing: no other process can take a lease without the database
    either, and every write stays fenced by the lease's epoch. It is tried again every
    :data:`RENEW_RETRY` seconds, so that this process renews within a moment of the
    database's return, long before another may take its leases (``_GONE``: a TTL after
    its own return). ``back()``, if given, is called when renewals succeed again after
    failing: the moves refused meanwhile may be tried again at once, instead of at the
    end of their growing pause.

    The tables lost are given up on tasks of their own, all at once, and the renewals go
    on meanwhile: awaited one by one here, each waited for its table's lock (held by a
    move waiting on the database), so that after a cut healed the first lost table held
    up the others' and every later renewal for many seconds, and the process's node row
    ran out again."""
    pause = leases.ttl / 3
    failing = ""
    giving_up: set[asyncio.Task[Any]] = set()
    while True:
        await asyncio.sleep(min(pause, RENEW_RETRY) if failing else pause)
        began = time.monotonic()
        try:
            gone = await leases.renew()
        except Exception as e:  # the database is away: try again soon
            why = f"{type(e).__name__}: {str(e)[:120]}"
            if not failing:
                log.warning("golf server: leases not renewed (%s); trying again every "
                            "%.2f s", why, min(pause, RENEW_RETRY))
            elif type(e).__name__ != failing:
                # Said once per kind of failure: how an outage ends shows in the log.
                log.info("golf server: leases still not renewed (%s, after %.2f s)", why,
                         time.monotonic() - began)
            failing = type(e).__name__
            continue
        if failing:
            log.info("golf server: leases renewed again (%.2f s for the renewal; %d "
                     "lost, %d held)", time.monotonic() - began, len(gone),
                     len(leases.held))
            if back is not None:
                back()
        failing = ""
        if gone:
            log.warning("golf server: %d tables were taken over by another process: %s",
                        len(gone), " ".join(gone))
        for t in gone:
            task = asyncio.ensure_future(lost(t))
            giving_up.add(task)
            task.add_done_callback(_given_up(giving_up, t))


def _given_up(tasks: set[asyncio.Task[Any]], table_id: str) -> Any:
    """A giving-up task's end: forgotten, and a failure logged (not left unretrieved)."""
    def done(task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        if not task.cancelled() and (e := task.exception()) is not None:
            log.error("golf server: table %s could not be given up", table_id, exc_info=e)
    return done
