"""A PostgreSQL outage under a cluster strands no table (issue 37).

Three `golf serve` processes, nginx and a PostgreSQL of the module's own (so that stopping
it disturbs no other test). Tables of every kind whose moves the server makes by itself
play on it: bots with a stand-in in a seat its person left (nobody connected), a person
with bots, a person who lets the turn timer play, and a person who goes away just before
the outage (the absence grace runs out while the database is down). PostgreSQL is stopped
(``pg_ctl stop -m fast``) and started again after a short outage (less than the lease's
life) and after a long one (five lease lives). After each, every table must move again
within 10 s of the database's return; after the short one no lease changed hands (same
owner, same epoch) and no socket was closed with 1012 ``reconnect``.

The progress of a table is read from the database itself (its stored actions), so a table
counts as moving only when its moves are stored; the events each client received are
checked against what is stored (nothing announced was lost, no second writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from harness import Client, ended_a_hole  # noqa: E402
from pg_control import pg_ctl  # noqa: E402

from golf.cluster import Cluster  # noqa: E402
from ports import free_port_block  # noqa: E402

#: The lease's life (golf serve --lease-ttl; the default).
TTL = 3.0
#: Every table moves again within this many seconds of the database's return.
BACK_WITHIN = 10.0
#: A bot's pause before its move (the table option), short so that tables move often.
BOT_DELAY = 0.2


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three processes and nginx on a PostgreSQL of their own (the tests stop it)."""
    base = free_port_block(5)
    # A short hole break: a table whose person is connected would otherwise wait up to
    # 15 s between holes, and that is no outage's fault.
    c = Cluster(processes=3, base_port=base, data_dir=tmp_path_factory.mktemp("outage"),
                pg_port=base + 4,
                serve_args=["--hole-break", "0.5", "--lease-ttl", str(TTL)])
    c.start()
    try:
        yield c
    finally:
        c.stop()


@dataclass
class Table:
    """One table of the test: its id, kind and its person's client (if one connects)."""

    id: str
    kind: str  # bots | person | timer | absence
    token: str
    client: Client | None = None
    #: The person plays their turns (the timer's person never does).
    plays: bool = False
    #: The client was closed on purpose (the absence table's person went away).
    left: bool = False
    acted: dict[int, float] = field(default_factory=dict)


OPTIONS: dict[str, dict[str, Any]] = {
    # The host starts the match and leaves: a stand-in plays their seat at once (no
    # grace left), the bots the others; nobody is connected.
    "bots": {"bot_delay": BOT_DELAY, "absence": "bot", "grace": 1},
    "person": {"bot_delay": BOT_DELAY},
    # The person never moves: every turn of theirs ends by the turn timer.
    "timer": {"bot_delay": BOT_DELAY, "turn_timer": 1, "reserve": 0},
    # The person leaves just before the outage: their grace runs out during it and a
    # stand-in takes the seat.
    "absence": {"bot_delay": BOT_DELAY, "absence": "bot", "grace": 2},
}


async def open_tables(cluster: Cluster, per_kind: int,
                      kinds: tuple[str, ...] = tuple(OPTIONS)) -> list[Table]:
    ws = cluster.url.replace("http", "ws") + "/ws"
    tables: list[Table] = []
    async with httpx.AsyncClient(base_url=cluster.url, timeout=60) as http:
        async def one(kind: str, i: int) -> None:
            r = await http.post("/api/tables", json={
                "name": f"Host{i}", "preset": "six-card", "rules": {"holes": 18},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                          {"kind": "bot", "bot": "easy"}],
                "options": OPTIONS[kind]})
            assert r.status_code == 201, r.text
            tid, token = r.json()["table"]["id"], r.json()["token"]
            t = Table(tid, kind, token, plays=kind in ("person", "absence"))
            auth = {"Authorization": f"Bearer {token}"}
            if kind != "bots":
                t.client = Client(f"{ws}?table={tid}", tid, token, reconnect=True)
                await t.client.connect()
                await t.client.wait(lambda c: c.summary is not None, 60, "the summary")
            r = await http.post(f"/api/tables/{tid}/start", headers=auth)
            assert r.status_code == 200, r.text
            if kind == "bots":
                r = await http.post(f"/api/tables/{tid}/leave", headers=auth)
                assert r.status_code == 200, r.text
            tables.append(t)

        await asyncio.gather(*(one(kind, i) for kind in kinds for i in range(per_kind)))
    return tables


async def play(tables: list[Table], stop: asyncio.Event) -> None:
    """Each connected person: ``ready`` at a hole's end, and (if they play) a random legal
    move on their turn; a move refused (try_again while the database is away) is sent
    again on the next state or after a second."""
    rng = random.Random(37)
    readied: dict[str, int] = {}
    while not stop.is_set():
        for t in tables:
            c = t.client
            s = None if c is None or t.left else c.state
            if c is None or s is None or c.ws is None:
                continue
            if ended_a_hole(s) and readied.get(t.id) != s["version"]:
                readied[t.id] = s["version"]
                with contextlib.suppress(Exception):
                    await c.send({"type": "ready"})
            if not t.plays or not s["your_turn"] or s["view"]["is_over"]:
                continue
            if time.monotonic() - t.acted.get(s["version"], -1e9) < 1.0:
                continue
            t.acted[s["version"]] = time.monotonic()
            with contextlib.suppress(Exception):
                await c.act(rng.choice(s["legal_actions"]), s["version"])
        await asyncio.sleep(0.1)


class Database:
    """What the database holds about the tables, read on a connection of the test's own
    (opened again after the outage)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn: Any = None

    async def _conn(self) -> Any:
        import asyncpg

        if self.conn is None or self.conn.is_closed():
            self.conn = await asyncpg.connect(self.url, timeout=5)
        return self.conn

    async def moves(self, ids: list[str]) -> dict[str, int]:
        """Each table's stored actions, all its matches counted."""
        conn = await self._conn()
        rows = await conn.fetch(
            "SELECT m.table_id, count(a.idx) AS n FROM golf_matches m "
            "LEFT JOIN golf_actions a ON a.match_id = m.id WHERE m.table_id = ANY($1) "
            "GROUP BY m.table_id", ids)
        out = {t: 0 for t in ids}
        out.update({r["table_id"]: int(r["n"]) for r in rows})
        return out

    async def leases(self, ids: list[str]) -> dict[str, tuple[str, int]]:
        conn = await self._conn()
        rows = await conn.fetch("SELECT table_id, owner, epoch FROM golf_leases "
                                "WHERE table_id = ANY($1)", ids)
        return {r["table_id"]: (r["owner"], int(r["epoch"])) for r in rows}

    async def actions(self, ids: list[str]) -> dict[str, dict[int, list[str]]]:
        """Each table's stored actions by match number, in order."""
        conn = await self._conn()
        rows = await conn.fetch(
            "SELECT m.table_id, m.number, a.idx, a.action FROM golf_actions a "
            "JOIN golf_matches m ON m.id = a.match_id WHERE m.table_id = ANY($1) "
            "ORDER BY m.table_id, m.number, a.idx", ids)
        out: dict[str, dict[int, list[str]]] = {t: {} for t in ids}
        for r in rows:
            match = out[r["table_id"]].setdefault(r["number"], [])
            assert r["idx"] == len(match), "a gap in the stored actions"
            match.append(r["action"])
        return out

    async def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()


async def all_moving(db: Database, ids: list[str], timeout: float) -> dict[str, int]:
    """Wait until every table stored a move more (a generous deadline); their counts."""
    start = await db.moves(ids)
    deadline = time.monotonic() + timeout
    while True:
        now = await db.moves(ids)
        if all(now[t] > start[t] for t in ids):
            return now
        assert time.monotonic() < deadline, \
            f"tables stood still before the outage: {[t for t in ids if now[t] <= start[t]]}"
        await asyncio.sleep(0.2)


def check_events(tables: list[Table], stored: dict[str, dict[int, list[str]]]) -> int:
    """Every event a client received is the stored action at its index (nothing
    announced was lost, no second writer); how many were checked."""
    checked = 0
    for t in tables:
        if t.client is None:
            continue
        for f in t.client.frames:
            if f["type"] != "state" or f["event"] is None:
                continue
            actions = stored[t.id].get(f["match"], [])
            assert f["version"] <= len(actions), (
                t.kind, t.id, f["match"], f["version"], len(actions),
                [(g["type"], g.get("version"), (g.get("event") or {}).get("action"),
                  g.get("code")) for g in t.client.frames[-40:]])
            assert actions[f["version"] - 1] == f["event"]["action"], (t.id, f["version"])
            checked += 1
    return checked


async def host_calls(cluster: Cluster, tables: list[Table], until: asyncio.Event,
                     statuses: list[int]) -> None:
    """What the people's pages ask meanwhile, through the proxy: each host of a table
    with a person connected sets the turn timer it has (a host tool; a write, refused with
    503 try_again while the database is away) and reads the table (a page loaded again),
    twice a second."""
    async with httpx.AsyncClient(base_url=cluster.url, timeout=30) as http:
        async def one(t: Table) -> None:
            auth = {"Authorization": f"Bearer {t.token}"}
            timer = OPTIONS[t.kind].get("turn_timer")
            while not until.is_set():
                with contextlib.suppress(httpx.HTTPError):
                    r = await http.post(f"/api/tables/{t.id}/timer", headers=auth,
                                        json={"turn_timer": timer})
                    statuses.append(r.status_code)
                    r = await http.get(f"/api/tables/{t.id}", headers=auth)
                    statuses.append(r.status_code)
                await asyncio.sleep(0.5)

        await asyncio.gather(*(one(t) for t in tables if t.kind in ("person", "timer")))


def outage(cluster: Cluster, seconds: float) -> dict[str, Any]:
    """Tables of every kind play; PostgreSQL is stopped for ``seconds`` and started.
    Returns the figures: when each table moved after the return, the leases before and
    after, each client's closes."""
    figures: dict[str, Any] = {}

    async def run() -> None:
        tables = await open_tables(cluster, per_kind=3)
        ids = [t.id for t in tables]
        db = Database(cluster.db_url)
        stop = asyncio.Event()
        player = asyncio.create_task(play(tables, stop))
        try:
            # Every table plays, and every table holds its lease, before the outage.
            await all_moving(db, ids, timeout=30)
            # The absence table's person goes away: its grace runs out during the outage.
            for t in tables:
                if t.kind == "absence" and t.client is not None:
                    t.left = True
                    await t.client.close()
            await asyncio.sleep(0.5)
            figures["leases_before"] = await db.leases(ids)
            assert set(figures["leases_before"]) == set(ids)
            await db.close()
            down = time.monotonic()
            await asyncio.to_thread(pg_ctl, cluster, "stop")
            calls_done = asyncio.Event()
            statuses: list[int] = []
            calls = asyncio.create_task(host_calls(cluster, tables, calls_done, statuses))
            await asyncio.sleep(max(0.0, seconds - (time.monotonic() - down)))
            await asyncio.to_thread(pg_ctl, cluster, "start")
            back = time.monotonic()
            figures["down"] = back - down
            # The pages go on asking for a moment after the return, as people would.
            asyncio.get_running_loop().call_later(2.0, calls_done.set)
            at_return = await db.moves(ids)
            moved: dict[str, float] = {}
            while len(moved) < len(ids) and time.monotonic() - back < BACK_WITHIN + 5:
                now = await db.moves(ids)
                t_now = time.monotonic() - back
                for t in ids:
                    if now[t] > at_return[t]:
                        moved.setdefault(t, t_now)
                await asyncio.sleep(0.1)
            figures["moved"] = moved
            await calls
            figures["statuses"] = statuses
            figures["stuck"] = [(t.kind, t.id) for t in tables if t.id not in moved]
            # A lease renewed after the return keeps its epoch; one taken over shows by now.
            await asyncio.sleep(2 * TTL)
            figures["leases_after"] = await db.leases(ids)
            stop.set()
            await player
            figures["closes"] = {t.id: list(t.client.closes) for t in tables
                                 if t.client is not None and not t.left}
            # The clients stop listening before the database is read: a frame received
            # after that read would be a move the read could not show yet.
            for t in tables:
                if t.client is not None:
                    await t.client.close()
            figures["checked"] = check_events(tables, await db.actions(ids))
        finally:
            stop.set()
            for t in tables:
                if t.client is not None:
                    await t.client.close()
            await db.close()

    asyncio.run(run())
    moved = figures["moved"]
    times = sorted(moved.values())
    before, after = figures["leases_before"], figures["leases_after"]
    figures["leases_moved"] = sorted(t for t in before if after.get(t) != before[t])
    figures["closed_1012"] = sum(code == 1012 for closes in figures["closes"].values()
                                 for code, _ in closes)
    print(f"\nPostgreSQL down {figures['down']:.1f} s: {len(moved)} of {len(before)} tables "
          f"moved again after the return, median "
          f"{times[len(times) // 2] if times else float('nan'):.2f} s, max "
          f"{times[-1] if times else float('nan'):.2f} s; stuck {figures['stuck']}; "
          f"{len(figures['leases_moved'])} leases changed hands; "
          f"{figures['closed_1012']} sockets closed with 1012; the pages' calls answered "
          f"{sorted(set(figures['statuses']))}")
    return figures


@pytest.mark.slow
def test_short_outage_moves_no_lease_and_strands_no_table(cluster: Cluster) -> None:
    f = outage(cluster, seconds=TTL)
    assert not f["stuck"], f"tables never moved again after the outage: {f['stuck']}"
    late = {t: s for t, s in f["moved"].items() if s > BACK_WITHIN}
    assert not late, f"tables moved again only after {late}"
    assert not f["leases_moved"], f"leases changed hands: {f['leases_moved']}"
    assert f["closed_1012"] == 0, f["closes"]
    # The pages were answered by the table's process: try_again while the database was
    # away, never the proxy's 502 (no process left) or an internal error.
    assert set(f["statuses"]) <= {200, 503}, sorted(set(f["statuses"]))
    assert 503 in f["statuses"]
    assert f["checked"] > 0


@pytest.mark.slow
def test_long_outage_strands_no_table(cluster: Cluster) -> None:
    f = outage(cluster, seconds=5 * TTL)
    assert not f["stuck"], f"tables never moved again after the outage: {f['stuck']}"
    late = {t: s for t, s in f["moved"].items() if s > BACK_WITHIN}
    assert not late, f"tables moved again only after {late}"
    # Also while PostgreSQL starts up again ("the database system is starting up").
    assert set(f["statuses"]) <= {200, 503}, sorted(set(f["statuses"]))
    assert f["checked"] > 0


@pytest.mark.slow
def test_a_process_restarted_under_its_name_takes_back_every_table(
        make_cluster: Any) -> None:
    """kill -9 of a process that plays more tables than one orphan scan takes, started
    again at once under the same node name (the same port): it takes every one of its old
    tables back, nobody connected to any of them, and each moves on."""
    from golf.server.tables.hub import ORPHANS_PER_SCAN

    c: Cluster = make_cluster(processes=1)
    n = ORPHANS_PER_SCAN + 5

    async def run() -> None:
        tables = await open_tables(c, per_kind=n, kinds=("bots",))
        ids = [t.id for t in tables]
        db = Database(c.db_url)
        try:
            await all_moving(db, ids, timeout=30)
            await asyncio.to_thread(c.kill, 0)
            await asyncio.to_thread(c.restart, 0)
            back = time.monotonic()
            at_restart = await db.moves(ids)
            deadline = back + BACK_WITHIN
            while True:
                now = await db.moves(ids)
                still = [t for t in ids if now[t] <= at_restart[t]]
                if not still or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            leases = await db.leases(ids)
        finally:
            await db.close()
        assert not still, f"{len(still)} of {n} tables never moved after the restart"
        assert len({owner for owner, _ in leases.values()}) == 1, leases

    asyncio.run(run())
