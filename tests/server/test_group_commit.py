"""Group commit on a real SQLite database: writes queued within one commit interval share
one transaction, every write is answered only once stored, and a write that comes after a
quiet spell does not wait for the interval."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from golf.server import db
from golf.server.store import SeatRecord, Store, TableRecord


def table(tid: str) -> TableRecord:
    seats = [SeatRecord(0, "human", "Ann", None, None, 1),
             SeatRecord(1, "bot", "Bot", "easy", None, 2)]
    return TableRecord(tid, "t", "waiting", "six-card", {}, False, {}, 0, "inv-" + tid, 1,
                       time.time(), seats)


async def started(tmp: Path, interval: float) -> tuple[Store, int]:
    engine = db.make_engine(f"sqlite:///{tmp}/g.db")
    await db.migrate(engine)
    store = Store(engine, commit_interval=interval)
    await store.create_table(table("T1"))
    m = await store.start_match(table("T1"), {}, 2, 7, ["Ann", "Bot"])
    return store, m.id


@pytest.mark.parametrize("interval", [0.0, 0.05])
def test_writes_of_one_interval_share_a_commit_and_all_are_stored(
        tmp_path: Path, interval: float) -> None:
    async def run() -> tuple[int, list[str], float]:
        store, match = await started(tmp_path, interval)
        try:
            await asyncio.sleep(interval)  # the set-up's commits are past
            before = store.commit_counts()
            moves = [f"reveal {i % 6 + 1}" for i in range(20)]
            t0 = time.monotonic()
            # The first write goes at once; the other 19 come while it commits.
            await store.append_action("T1", match, 0, moves[0], "player")
            await asyncio.gather(*(store.append_action("T1", match, i, moves[i], "player")
                                   for i in range(1, 20)))
            took = time.monotonic() - t0
            after = store.commit_counts()
            stored = await store.match("T1", 1)
            assert stored is not None
            return after["batches"] - before["batches"], stored.actions, took
        finally:
            await store.close()

    batches, actions, took = asyncio.run(run())
    assert actions == [f"reveal {i % 6 + 1}" for i in range(20)]
    assert batches == 2  # the first write alone, the 19 queued together
    if interval:
        # The second transaction began one interval after the first, not before.
        assert took >= interval


def test_a_write_after_a_quiet_spell_does_not_wait(tmp_path: Path) -> None:
    async def run() -> float:
        store, match = await started(tmp_path, 0.5)
        try:
            await asyncio.sleep(0.6)
            t0 = time.monotonic()
            await store.append_action("T1", match, 0, "reveal 1", "player")
            return time.monotonic() - t0
        finally:
            await store.close()

    assert asyncio.run(run()) < 0.4
