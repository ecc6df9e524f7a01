"""Group commit on a real SQLite database: while several tables write, the writes of one
commit interval share one transaction, and every write is answered only once stored; a
table writing alone, or a write after a quiet spell, does not wait for the interval."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from golf.server.storage import db
from golf.server.storage.records import SeatRecord, TableRecord
from golf.server.storage.store import Store


def table(tid: str) -> TableRecord:
    seats = [SeatRecord(0, "human", "Ann", None, None, 1),
             SeatRecord(1, "bot", "Bot", "easy", None, 2)]
    return TableRecord(tid, "t", "waiting", "six-card", {}, False, {}, 0, "inv-" + tid, 1,
                       time.time(), seats)


async def started(tmp: Path, interval: float, tables: list[str]) -> tuple[Store, list[int]]:
    engine = db.make_engine(f"sqlite:///{tmp}/g.db")
    await db.migrate(engine)
    store = Store(engine, commit_interval=interval)
    matches = []
    for t in tables:
        await store.create_table(table(t))
        matches.append((await store.start_match(table(t), {}, 2, 7, ["Ann", "Bot"])).id)
    return store, matches


def move(i: int) -> str:
    return f"reveal {i % 6 + 1}"


@pytest.mark.parametrize("interval", [0.0, 0.05])
def test_writes_of_several_tables_share_a_commit_and_all_are_stored(
        tmp_path: Path, interval: float) -> None:
    async def run() -> tuple[int, list[list[str]], float]:
        store, (m1, m2) = await started(tmp_path, interval, ["T1", "T2"])
        try:
            await asyncio.sleep(0.1)  # the set-up's commits are past
            before = store.commit_counts()
            t0 = time.monotonic()
            # The first write goes at once; the other 19 (of two tables) come while it
            # commits.
            await store.append_action("T1", m1, 0, move(0), "player")
            await asyncio.gather(
                store.append_action("T2", m2, 0, move(0), "player"),
                *(store.append_action("T1", m1, i, move(i), "player") for i in range(1, 10)),
                *(store.append_action("T2", m2, i, move(i), "player") for i in range(1, 10)))
            took = time.monotonic() - t0
            batches = store.commit_counts()["batches"] - before["batches"]
            stored = [await store.match(t, 1) for t in ("T1", "T2")]
            return batches, [s.actions for s in stored if s is not None], took
        finally:
            await store.close()

    batches, actions, took = asyncio.run(run())
    assert actions == [[move(i) for i in range(10)]] * 2
    assert batches == 2  # the first write alone, the 19 queued together
    if interval:
        # Two tables wrote: the second transaction began one interval after the first.
        assert took >= interval


def test_a_table_writing_alone_does_not_wait(tmp_path: Path) -> None:
    async def run() -> tuple[float, int]:
        store, (m1,) = await started(tmp_path, 0.2, ["T1"])
        try:
            before = store.commit_counts()
            t0 = time.monotonic()
            for i in range(10):  # a bot match at full speed: one write after another
                await store.append_action("T1", m1, i, move(i), "player")
            took = time.monotonic() - t0
            return took, store.commit_counts()["batches"] - before["batches"]
        finally:
            await store.close()

    took, batches = asyncio.run(run())
    assert batches == 10 and took < 1.5  # 10 intervals would be 2 s; loose under load


def test_a_write_after_a_quiet_spell_does_not_wait(tmp_path: Path) -> None:
    async def run() -> float:
        store, (m1, m2) = await started(tmp_path, 0.5, ["T1", "T2"])
        try:
            await store.append_action("T1", m1, 0, move(0), "player")
            await asyncio.sleep(0.6)
            t0 = time.monotonic()
            await store.append_action("T2", m2, 0, move(0), "player")
            return time.monotonic() - t0
        finally:
            await store.close()

    assert asyncio.run(run()) < 0.4


def test_table_updates_share_the_fast_path_and_read_back(tmp_path: Path) -> None:
    """A hole's break, a rematch offer and clocks, queued with moves, are written in the
    SQLite fast path's transaction (not SQLAlchemy's), and read back as SQLAlchemy stores
    them: JSON, None as JSON null."""
    async def run() -> tuple[int, list[Any], list[str]]:
        store, (m1, m2) = await started(tmp_path, 0.05, ["T1", "T2"])
        assert store._actions is not None
        calls: list[int] = []
        write = store._actions.write

        async def counted(rows: Any, updates: Any = ()) -> None:
            calls.append(len(updates))
            await write(rows, updates)

        store._actions.write = counted  # type: ignore[method-assign]
        try:
            await asyncio.sleep(0.1)
            brk = {"match": 1, "version": 3, "waiting": [0], "until": 12.5}
            await store.append_action("T1", m1, 0, move(0), "player")
            await asyncio.gather(
                store.append_action("T2", m2, 0, move(0), "player"),
                store.save_pending("T1", hole_break=brk),
                store.save_pending("T2", rematch={"match": 1, "accepted": [0, 1]}),
                store.save_clocks("T2", {"turn": [1, 0], "reserve": [5.0, 5.0]}),
                store.append_action("T1", m1, 1, move(1), "player"))
            await store.save_pending("T2", rematch=None)
            t1, t2 = await store.load("T1"), await store.load("T2")
            m = await store.match("T1", 1)
            assert t1 is not None and t2 is not None and m is not None
            return sum(calls), [t1.hole_break, t1.rematch, t2.rematch, t2.clocks], m.actions
        finally:
            await store.close()

    updates, values, actions = asyncio.run(run())
    assert updates == 4  # every update went down the fast path
    assert values == [{"match": 1, "version": 3, "waiting": [0], "until": 12.5}, None, None,
                      {"turn": [1, 0], "reserve": [5.0, 5.0]}]
    assert actions == [move(0), move(1)]
