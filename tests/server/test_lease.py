"""Table leases on a real PostgreSQL: one holder at a time, and fencing: a process whose
lease another process took can never write another move of that table."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from sqlalchemy import text as sa_text

from conftest import fresh_database
from golf.server.cluster.lease import Leases, renew_forever
from golf.server.storage import db
from golf.server.storage.errors import Fenced
from golf.server.storage.records import SeatRecord, TableRecord
from golf.server.storage.store import Store
from golf.server.tables.hub import Hub


def table(tid: str) -> TableRecord:
    seats = [SeatRecord(0, "human", "Ann", None, None, 1), SeatRecord(1, "bot", "Bot", "easy",
                                                                      None, 2)]
    return TableRecord(tid, "t", "waiting", "six-card", {}, False, {}, 0, "inv-" + tid, 1,
                       time.time(), seats)


def test_one_holder_and_a_lost_lease_fences_every_write(postgres_url: str) -> None:
    url = db.async_url(fresh_database(postgres_url))

    async def run() -> None:
        ea, eb = db.make_engine(url), db.make_engine(url)
        await db.migrate(ea)
        a, b = Leases(ea, "a:1", ttl=0.6), Leases(eb, "b:1", ttl=0.6)
        sa, sb = Store(ea, a), Store(eb, b)
        try:
            await sa.create_table(table("T1"))
            assert await b.acquire("nope") is None and await b.remaining("nope") is None
            first = await a.acquire("T1")
            assert first is not None
            # Held and renewed: the other process cannot take it.
            assert await b.acquire("T1") is None
            left = await b.remaining("T1")
            assert left is not None and 0 < left <= 0.6
            m = await sa.start_match(table("T1"), {}, 2, 7, ["Ann", "Bot"])
            await sa.append_action("T1", m.id, 0, "reveal 1", "player")
            # A stalls past its lease while B goes on renewing; B takes it (a new epoch).
            for _ in range(4):
                await asyncio.sleep(0.2)
                await b.renew()
            second = await b.acquire("T1")
            assert second == first + 1
            # A's next move is refused, in the database, and nothing of it is stored.
            with pytest.raises(Fenced):
                await sa.append_action("T1", m.id, 1, "reveal 2", "player")
            with pytest.raises(Fenced):
                await sa.save_clocks("T1", None)
            # B writes the same index: the one move at index 1 is B's.
            await sb.append_action("T1", m.id, 1, "reveal 3", "player")
            stored = await sb.match("T1", 1)
            assert stored is not None and stored.actions == ["reveal 1", "reveal 3"]
            # A's renewal finds the lease lost and forgets it; B's keeps it.
            assert await a.renew() == ["T1"] and "T1" not in a.held
            assert await b.renew() == []
            # A write of a table a process never held is refused without a query.
            with pytest.raises(Fenced):
                await sa.append_action("T1", m.id, 2, "reveal 4", "player")
            # Released: the other takes it at once, without waiting for the TTL.
            await b.release(["T1"])
            assert await a.acquire("T1") == second + 1
        finally:
            await sa.close()
            await sb.close()

    asyncio.run(run())


def test_an_outage_of_the_database_moves_no_lease(postgres_url: str) -> None:
    """Every node row runs out while nobody can reach the database. Afterwards a process
    may not take another's lease until it has itself renewed for a TTL since its return,
    so the holder, renewing within that TTL, keeps its tables at the same epoch; a holder
    that never comes back loses them a TTL after the taker's return."""
    url = db.async_url(fresh_database(postgres_url))
    ttl = 0.6

    async def run() -> None:
        ea, eb = db.make_engine(url), db.make_engine(url)
        await db.migrate(ea)
        a, b = Leases(ea, "a:1", ttl=ttl), Leases(eb, "b:1", ttl=ttl)
        sa = Store(ea, a)
        try:
            for t in ("T1", "T2"):
                await sa.create_table(table(t))
            e1, e2 = await a.acquire("T1"), await a.acquire("T2")
            assert e1 is not None and e2 is not None
            await b.renew()
            # The "outage": neither renews for two TTLs, and both rows run out.
            await asyncio.sleep(2 * ttl)
            # B is back first: A's row ran out, but B's own did too, so B proves nothing
            # about A yet (its unbroken renewals begin now).
            assert await b.acquire("T1") is None
            assert await a.renew() == []
            assert a.held == {"T1": e1, "T2": e2}
            # A renews on: B never takes its tables, however long it renews itself.
            for _ in range(int(2 * ttl / 0.15)):
                await asyncio.sleep(0.15)
                await a.renew()
                await b.renew()
                assert await b.acquire("T2") is None
            # A stops for good (a process that died) while B renews: once A's row ran
            # out, B takes its tables.
            for _ in range(int((ttl + 0.2) / 0.15)):
                await asyncio.sleep(0.15)
                await b.renew()
            assert await b.acquire("T2") == e2 + 1
            assert await a.renew() == ["T2"]
        finally:
            await sa.close()
            await eb.dispose()

    asyncio.run(run())


def test_sqlite_has_no_leases(tmp_path: object) -> None:
    async def run() -> None:
        engine = db.make_engine(f"sqlite:///{tmp_path}/g.db")
        leases = Leases(engine, "x:1")
        assert not leases.enabled
        assert await leases.acquire("anything") == 0 and leases.holds("anything")
        await engine.dispose()

    asyncio.run(run())


def test_a_write_that_meets_the_takers_move_is_fenced(postgres_url: str) -> None:
    """Issue 37: process A stalled (not renewing), B took its table and stored a move.
    A's next write of the same index meets B's row before its lease is checked (the
    check comes last in the transaction); the lease is then checked, and the write is
    refused as Fenced (the table is given up), not as Behind (before: the table was
    read again here and went on playing against a database that had left it behind,
    each move meeting a stored key)."""
    url = db.async_url(fresh_database(postgres_url))

    async def run() -> None:
        ea, eb = db.make_engine(url), db.make_engine(url)
        await db.migrate(ea)
        a, b = Leases(ea, "a:1", ttl=0.6), Leases(eb, "b:1", ttl=0.6)
        sa, sb = Store(ea, a), Store(eb, b)
        fenced: list[str] = []
        sa.on_fenced(fenced.append)
        try:
            await sa.create_table(table("T1"))
            assert await a.acquire("T1") is not None
            m = await sa.start_match(table("T1"), {}, 2, 7, ["Ann", "Bot"])
            await sa.append_action("T1", m.id, 0, "reveal 1", "player")
            for _ in range(4):
                await asyncio.sleep(0.2)
                await b.renew()
            assert await b.acquire("T1") is not None
            await sb.append_action("T1", m.id, 1, "reveal 3", "player")
            with pytest.raises(Fenced):
                await sa.append_action("T1", m.id, 1, "reveal 2", "player")
            # The hub's callback heard of it (it gives the table up at once).
            assert fenced == ["T1"]
            stored = await sb.match("T1", 1)
            assert stored is not None and stored.actions == ["reveal 1", "reveal 3"]
        finally:
            await sa.close()
            await sb.close()

    asyncio.run(run())


def test_a_healed_process_gives_up_every_lost_table_at_once(postgres_url: str) -> None:
    """Issue 37, the stalled process that healed: process A stops renewing (cut off),
    B takes both of A's tables. A's first renewal gives up both at once, although a move
    of one of them is in progress (its lock held). Before, the renewal gave its lost
    tables up one after the other, each waiting for its table's lock, so the first held
    up the rest and every later renewal, and the process played on tables it no longer
    held while their people stayed connected to it."""
    url = db.async_url(fresh_database(postgres_url))

    async def run() -> None:
        ea, eb = db.make_engine(url), db.make_engine(url)
        await db.migrate(ea)
        a, b = Leases(ea, "a:1", ttl=0.6), Leases(eb, "b:1", ttl=0.6)
        sa, sb = Store(ea, a), Store(eb, b)
        hub = Hub(sa, leases=a)
        renewing: asyncio.Task[None] | None = None
        try:
            for tid in ("T1", "T2"):
                await sa.create_table(table(tid))
            rooms = [await hub.room("T1"), await hub.room("T2")]
            assert set(a.held) == {"T1", "T2"}
            # A move of T1 in progress on A: its lock held, as by a write that waits.
            await rooms[0].lock.acquire()
            for _ in range(4):
                await asyncio.sleep(0.2)
                await b.renew()
            assert await b.acquire("T1") is not None and await b.acquire("T2") is not None
            renewing = asyncio.create_task(
                renew_forever(a, lambda t: hub.give_up(t, release=False)))
            deadline = time.monotonic() + 5
            while hub.rooms and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not hub.rooms, f"still played on A: {sorted(hub.rooms)}"
            assert not a.held
            rooms[0].lock.release()
        finally:
            if renewing is not None:
                renewing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await renewing
            await sa.close()
            await sb.close()

    asyncio.run(run())


def test_an_acquire_waiting_for_a_writer_does_not_hold_up_the_renewals(
        postgres_url: str) -> None:
    """Issue 37, the rolling restart under load: an acquire waits for a writer's share
    lock on the lease row (by design: a write commits before the lease changes hands or
    fails). It renewed the node row in the same transaction, so that row stayed locked
    while it waited: the process's renewals (and its other acquires) queued behind it and
    timed out while it took a restarted process's tables over, and every write of its own
    tables was refused meanwhile. The renewal now goes on while an acquire waits."""
    url = db.async_url(fresh_database(postgres_url))

    async def run() -> None:
        ea, eb = db.make_engine(url), db.make_engine(url)
        await db.migrate(ea)
        a, b = Leases(ea, "a:1", ttl=3.0), Leases(eb, "b:1", ttl=3.0)
        sa = Store(ea, a)
        try:
            await sa.create_table(table("T1"))
            assert await b.acquire("T1") is not None
            await a.renew()
            async with eb.connect() as writer:
                # B writes T1: its transaction holds the lease row's share lock.
                await writer.begin()
                await writer.execute(sa_text("SELECT epoch FROM golf_leases WHERE "
                                             "table_id = 'T1' FOR SHARE"))
                a.renewed = -1e9  # stale: this acquire renews the node row first
                taking = asyncio.create_task(a.acquire("T1"))
                await asyncio.sleep(0.5)
                assert not taking.done()  # waiting for the writer, as it must
                # A's renewal is not held up by its own waiting acquire.
                assert await asyncio.wait_for(a.renew(), 2.0) == []
                await writer.commit()
            assert await asyncio.wait_for(taking, 5.0) is None  # B's lease is alive
        finally:
            await sa.close()
            await eb.dispose()

    asyncio.run(run())


def test_handover_requests_are_served_side_by_side_and_once(postgres_url: str) -> None:
    """A restarted process asks for dozens of tables at once, and again every second while
    it waits: the holder hands them over side by side (one after the other, each waiting
    for its own database writes, they took tens of seconds after a rolling restart), and
    a request for a table whose handover is under way is not served a second time."""
    from golf.server.cluster.notify import ask_handover, listen_forever

    url = db.async_url(fresh_database(postgres_url))
    tables = [f"T{i}" for i in range(20)]

    async def run() -> None:
        engine = db.make_engine(url)
        calls: list[str] = []
        done: set[str] = set()

        async def requested(table_id: str) -> None:
            calls.append(table_id)
            await asyncio.sleep(0.5)  # the holder's writes for this table
            done.add(table_id)

        listener = asyncio.create_task(listen_forever(engine, "holder:1", requested))
        try:
            await asyncio.sleep(0.5)  # listening
            began = time.monotonic()
            for _ in range(3):  # the asker's first request and two repeats
                for t in tables:
                    await ask_handover(engine, t, "asker:2")
            while len(done) < len(tables) and time.monotonic() - began < 20:
                await asyncio.sleep(0.05)
            took = time.monotonic() - began
            # One after the other: 20 x 0.5 s = 10 s at least.
            assert done == set(tables) and took < 5, f"{len(done)} handed over in {took:.1f} s"
            assert sorted(calls) == sorted(tables), "a handover under way was served again"
            # Once it is over, a new request is served again.
            await ask_handover(engine, "T0", "asker:2")
            await ask_handover(engine, "T1", "holder:1")  # its own: not a request
            while calls.count("T0") < 2 and time.monotonic() - began < 20:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            assert calls.count("T0") == 2 and calls.count("T1") == 1
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
            await engine.dispose()

    asyncio.run(run())


def test_a_draining_process_puts_its_tables_down_side_by_side(postgres_url: str) -> None:
    """Issue 37, the rolling restart: SIGTERM stores each table's clocks and sends its
    clients on, then releases the leases. Table by table, each waiting for the one before
    (its move in progress, its write), a process holding 80 tables released them only
    after 6 s, and the processes its clients reached meanwhile waited that long for them.
    Here T1's move is in progress (its lock held): T2 is put down all the same."""
    url = db.async_url(fresh_database(postgres_url))

    async def run() -> None:
        engine = db.make_engine(url)
        await db.migrate(engine)
        leases = Leases(engine, "a:1", ttl=3.0)
        store = Store(engine, leases)
        hub = Hub(store, leases=leases)
        draining: asyncio.Task[None] | None = None
        try:
            for tid in ("T1", "T2"):
                await store.create_table(table(tid))
            rooms = {tid: await hub.room(tid) for tid in ("T1", "T2")}
            closed: dict[str, float] = {}
            for tid, room in rooms.items():
                def spy(*args: object, room: object = room, tid: str = tid) -> None:
                    closed[tid] = time.monotonic()
                    type(room).close_clients(room, *args)  # type: ignore[arg-type]
                room.close_clients = spy  # type: ignore[method-assign]
            await rooms["T1"].lock.acquire()  # a move of T1 in progress
            draining = asyncio.create_task(hub.drain())
            deadline = time.monotonic() + 3
            while "T2" not in closed and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert "T2" in closed and "T1" not in closed, \
                f"T2 waited for T1's move: {sorted(closed)}"
            rooms["T1"].lock.release()
            await asyncio.wait_for(draining, 10)
            assert set(closed) == {"T1", "T2"}
            async with engine.connect() as conn:
                owners = (await conn.execute(sa_text(
                    "SELECT table_id, owner FROM golf_leases ORDER BY table_id"))).all()
            assert [tuple(r) for r in owners] == [("T1", ""), ("T2", "")]
        finally:
            if draining is not None and not draining.done():
                draining.cancel()
            await store.close()

    asyncio.run(run())
