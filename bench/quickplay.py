"""What quick play costs as a queue grows, with N people waiting in one queue whose
ratings are too far apart to be matched (the matcher's worst case: it looks at everyone
and places no one): CPU ms of one matcher run, and CPU ms per poll (a poll runs the
matcher at most once a second per process, MATCH_EVERY).

    .venv/bin/python bench/quickplay.py --sizes 10,50,200
    .venv/bin/python bench/quickplay.py --db postgresql://golf@localhost/golf_bench

Prints, per size: CPU and wall ms of one matcher run, and of one poll (over --polls
polls made back to back, so most of them skip the matcher).
SQLite in a temporary directory unless ``--db`` names a database (a scratch one: the
benchmark adds players and queue rows to it).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path

from golf.server.matchmaking.quickplay import QuickPlay
from golf.server.ratings.rating_service import rating_for
from golf.server.storage import db
from golf.server.storage.store import Store
from golf.server.tables.hub import Hub


async def measure(url: str, size: int, polls: int) -> tuple[float, float, float, float]:
    engine = db.make_engine(url)
    await db.migrate(engine)
    store = Store(engine)
    qp = QuickPlay(Hub(store), engine)
    now = time.time()
    tickets = []
    async with engine.begin() as conn:
        ids = [secrets.token_hex(8) for _ in range(size)]
        await conn.execute(db.players.insert(), [
            {"id": pid, "secret_hash": None, "name": f"P{i}", "status": "active",
             "created": now, "last_seen": now} for i, pid in enumerate(ids)])
        # 600 points apart: wider than the widest window, so nobody is ever matched.
        await conn.execute(db.ratings.insert(), [
            {"player_id": pid, "variant": "six-card/2", "mu": 25.0 + 20.0 * i, "sigma": 1.0,
             "matches": 20, "abandoned": 0, "updated": now} for i, pid in enumerate(ids)])
        # Queued as join() queues them, written at once (joining one by one would run
        # the matcher N times before the timing starts).
        for i, pid in enumerate(ids):
            tid = secrets.token_hex(12)
            rating = (await rating_for(conn, pid, "six-card/2")).display
            await conn.execute(db.queue.insert().values(
                id=tid, player_id=pid, name=f"P{i}", preset="six-card", players=2,
                rating=rating, token_hash=secrets.token_hex(32), status="waiting",
                joined=now, polled=now, table_id=None, seat=None))
            tickets.append((pid, tid))
    runs = 5
    mcpu, mwall = time.process_time(), time.perf_counter()
    for _ in range(runs):
        await qp.match("six-card", 2)
    mcpu, mwall = time.process_time() - mcpu, time.perf_counter() - mwall
    cpu, wall = time.process_time(), time.perf_counter()
    for k in range(polls):
        pid, tid = tickets[k % size]
        await qp.state(pid, tid)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    async with engine.begin() as conn:
        await conn.execute(db.queue.delete())
    await store.close()
    return (mcpu / runs * 1000, mwall / runs * 1000, cpu / polls * 1000,
            wall / polls * 1000)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,50,200", help="people waiting (comma-separated)")
    ap.add_argument("--polls", type=int, default=200, help="polls timed per size")
    ap.add_argument("--db", default=None, metavar="URL", help="a scratch database")
    args = ap.parse_args()
    print(f"{'waiting':>8} {'matcher cpu ms':>15} {'matcher wall ms':>16} "
          f"{'poll cpu ms':>12} {'poll wall ms':>13}")
    for size in (int(x) for x in args.sizes.split(",")):
        url = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'golf.db'}"
        mcpu, mwall, cpu, wall = asyncio.run(measure(url, size, args.polls))
        print(f"{size:>8} {mcpu:>15.2f} {mwall:>16.2f} {cpu:>12.2f} {wall:>13.2f}",
              flush=True)


if __name__ == "__main__":
    main()
