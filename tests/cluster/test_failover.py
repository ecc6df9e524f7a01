"""Three `golf serve` processes on one PostgreSQL behind nginx behave as one server under
faults: kill -9 of one process, a rolling restart, PostgreSQL restarted.

Everything is real: the processes, nginx routing on the table id, PostgreSQL (its own
throwaway cluster, so that the test can stop and start it), WebSocket clients that
reconnect through the proxy by themselves. After each fault the stored action sequence
of every table is compared with every event each client received: an acknowledged move
that was lost, or a second writer of a table (a fork), shows up as a difference.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Client, ended_a_hole  # noqa: E402
from pg_control import pg_ctl  # noqa: E402

from golf.cluster import Cluster  # noqa: E402
from golf.server.tables.clocks import HOLE_BREAK  # noqa: E402
from ports import free_port_block  # noqa: E402


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three processes, nginx and a PostgreSQL of the cluster's own."""
    from helpers import warm_compiled_search

    warm_compiled_search()
    # PostgreSQL of its own (the next free port after the cluster's), so that a test can
    # stop and start it.
    base = free_port_block(5)
    c = Cluster(processes=3, base_port=base, data_dir=tmp_path_factory.mktemp("cluster"),
                pg_port=base + 4)
    c.start()
    try:
        yield c
    finally:
        c.stop()


class Player(Client):
    """A seat's client through the proxy: records when each frame came, and reconnects
    when the server refused its hello with ``try_again`` (the table was still moving)."""

    def __init__(self, url: str, table: str, token: str) -> None:
        super().__init__(f"{url}?table={table}", table, token, reconnect=True)
        self.times: list[float] = []
        self.sent: list[tuple[int, str]] = []
        #: Where in ``frames`` each (re)connection began.
        self.connect_marks: list[int] = []
        #: Connections this client closed itself (a hello refused with try_again).
        self.gave_up = 0

    def _receive(self, text: str) -> None:
        super()._receive(text)
        self.times.append(time.monotonic())
        msg = self.frames[-1]
        if msg["type"] == "error" and msg["code"] == "try_again" and not self.joined():
            self.gave_up += 1
            asyncio.get_running_loop().create_task(self.ws.close())

    def joined(self) -> bool:
        """A welcome came since the last (re)connect."""
        return any(f["type"] == "welcome" for f in self.frames[self.connect_marks[-1]:])

    async def _open(self) -> None:
        self.connect_marks.append(len(self.frames))
        await super()._open()

    def back(self, connects: int) -> bool:
        """Reconnected since it had made ``connects`` connections, and welcomed and given
        a state on the newest one."""
        if len(self.connect_marks) <= connects:
            return False
        since = self.frames[self.connect_marks[-1]:]
        welcome = next((i for i, f in enumerate(since) if f["type"] == "welcome"), None)
        return welcome is not None and any(f["type"] == "state" for f in since[welcome:])

    def seat(self) -> int:
        w = next(f for f in self.frames if f["type"] == "welcome")
        return int(w["seat"])

    def first_state_after(self, t: float) -> float | None:
        """When the first ``state`` frame after time ``t`` came."""
        return next((at for at, f in zip(self.times, self.frames, strict=True)
                     if at > t and f["type"] == "state"), None)


class Tables:
    """N public tables of two people each, created, joined and started through the proxy."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.players: dict[str, list[Player]] = {}
        self.stop = False
        self.errors: list[dict[str, Any]] = []

    async def open(self, n: int) -> None:
        url = self.cluster.url
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            async def post(path: str, **kw: Any) -> httpx.Response:
                # As a client does (docs/server.md): a 503 try_again (a process whose lease
                # renewal is late on a loaded machine) is asked again after a moment.
                for _ in range(40):
                    r = await http.post(path, **kw)
                    if r.status_code != 503:
                        return r
                    await asyncio.sleep(0.25)
                return r

            async def one(i: int) -> None:
                r = await post("/api/tables", json={
                    "name": f"Host{i}", "preset": "six-card", "public": True,
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                    "options": {"bot_delay": 0}})
                assert r.status_code == 201, r.text
                t = r.json()
                tid = t["table"]["id"]
                r = await post(f"/api/tables/{tid}/join", json={"name": f"Guest{i}"})
                assert r.status_code == 200, r.text
                tokens = [t["token"], r.json()["token"]]
                ws = url.replace("http", "ws") + "/ws"
                players = [Player(ws, tid, tok) for tok in tokens]
                for p in players:
                    await p.connect()
                for p in players:
                    await p.wait(lambda c: c.summary is not None, 60, "the table summary")
                r = await post(f"/api/tables/{tid}/start",
                               headers={"Authorization": f"Bearer {tokens[0]}"})
                assert r.status_code == 200, r.text
                for p in players:
                    await p.wait(lambda c: c.state is not None, 60, "the first state")
                self.players[tid] = players

            await asyncio.gather(*(one(i) for i in range(n)))

    async def play(self, seed: int) -> None:
        """Every table: the seat to act plays a random legal move after thinking 0.3 to
        1.2 s, until ``stop``; a refused move (try_again) is tried again on the next state."""
        async def table(players: list[Player], rng: random.Random) -> None:
            acted: dict[int, tuple[int, int]] = {}
            readied: dict[int, tuple[int, int]] = {}
            seen = [0, 0]
            while not self.stop:
                for i, p in enumerate(players):
                    new = p.errors[seen[i]:]
                    seen[i] = len(p.errors)
                    for e in new:
                        self.errors.append(e)
                        acted.pop(i, None)
                    s = p.state
                    if s is not None and p.ws is not None and p.joined() and ended_a_hole(s):
                        # The person closes the hole-end dialog: the next hole waits for it.
                        mark = (s["version"], len(p.connect_marks))
                        if readied.get(i) != mark:
                            readied[i] = mark
                            with contextlib.suppress(Exception):
                                await p.send({"type": "ready"})
                    # A move sent on a connection that then broke may be lost unacknowledged:
                    # after a reconnect the same version is played again.
                    key = (-1, 0) if s is None else (s["version"], len(p.connect_marks))
                    if s is None or not s["your_turn"] or acted.get(i) == key \
                            or s["view"]["is_over"] or p.ws is None or not p.joined():
                        continue
                    acted[i] = key
                    await asyncio.sleep(rng.uniform(0.3, 1.2))
                    # Thinking took time: the socket may have been replaced meanwhile and not
                    # be joined yet (a client sends nothing before its hello is answered).
                    if self.stop or p.state is None or p.state["version"] != s["version"] \
                            or p.ws is None or not p.joined():
                        continue
                    action = rng.choice(s["legal_actions"])
                    p.sent.append((s["version"], action))
                    with contextlib.suppress(Exception):
                        await p.act(action, s["version"])
                # Until a client of the table hears something (or a quarter second).
                waiters = [asyncio.ensure_future(p.changed.wait()) for p in players]
                await asyncio.wait(waiters, timeout=0.25, return_when=asyncio.FIRST_COMPLETED)
                for w in waiters:
                    w.cancel()
                for p in players:
                    p.changed.clear()

        rng = random.Random(seed)
        await asyncio.gather(*(table(ps, random.Random(rng.random()))
                               for ps in self.players.values()))

    async def close(self) -> None:
        for ps in self.players.values():
            for p in ps:
                await p.close()


def stored_actions(cluster: Cluster, tables: list[str]) -> dict[str, list[str]]:
    """Each table's first match as PostgreSQL holds it: its actions in order."""
    import asyncpg

    async def read() -> dict[str, list[str]]:
        conn = await asyncpg.connect(cluster.db_url)
        try:
            rows = await conn.fetch(
                "SELECT m.table_id, a.idx, a.action FROM golf_actions a JOIN golf_matches m "
                "ON m.id = a.match_id WHERE m.number = 1 AND m.table_id = ANY($1) "
                "ORDER BY m.table_id, a.idx", tables)
        finally:
            await conn.close()
        out: dict[str, list[str]] = {t: [] for t in tables}
        for r in rows:
            assert r["idx"] == len(out[r["table_id"]]), "a gap in the stored actions"
            out[r["table_id"]].append(r["action"])
        return out

    return asyncio.run(read())


async def lease_owners(cluster: Cluster) -> dict[str, str]:
    import asyncpg

    conn = await asyncpg.connect(cluster.db_url)
    try:
        rows = await conn.fetch("SELECT table_id, owner FROM golf_leases")
    finally:
        await conn.close()
    return {r["table_id"]: r["owner"] for r in rows}


async def takeovers(cluster: Cluster, tables: list[str], dead: str) -> dict[str, float]:
    """When (time.monotonic) each table's lease was first seen held by a process other
    than the dead one, polling PostgreSQL every 50 ms for up to 30 s."""
    import asyncpg

    seen: dict[str, float] = {}
    conn = await asyncpg.connect(cluster.db_url)
    try:
        deadline = time.monotonic() + 30
        while len(seen) < len(tables) and time.monotonic() < deadline:
            rows = await conn.fetch("SELECT table_id, owner FROM golf_leases WHERE "
                                    "table_id = ANY($1)", tables)
            now = time.monotonic()
            for r in rows:
                if r["owner"] and not r["owner"].endswith(dead):
                    seen.setdefault(r["table_id"], now)
            await asyncio.sleep(0.05)
    finally:
        await conn.close()
    assert len(seen) == len(tables), "a table of the killed process was never taken over"
    return seen


async def why_stuck(cluster: Cluster, tables: dict[str, list[Player]],
                    stuck: list[str]) -> str:
    """What a failure message needs to tell why tables stood still: each one's lease
    owner, its players' last frames, and the processes' log lines that name it."""
    owners = await lease_owners(cluster)
    out = []
    for t in stuck[:3]:
        out.append(f"table {t}: lease owner {owners.get(t)!r}")
        for p in tables[t]:
            last = [(f["type"], f.get("code") or f.get("version")
                     or (f.get("state") or {}).get("version")) for f in p.frames[-4:]]
            out.append(f"  seat client: joined={p.joined()} connects={len(p.connect_marks)} "
                       f"version={p.version} last frames={last}")
        for i in range(cluster.processes):
            lines = [line for line in cluster.log(i).read_text(errors="replace").splitlines()
                     if t in line]
            out.extend(f"  serve-{i}: {line[:300]}" for line in lines[-8:])
    return "\n".join(out)


def check_against_store(players: dict[str, list[Player]],
                        stored: dict[str, list[str]]) -> int:
    """Every event a client received is the stored action at its index (nothing a client
    was told was lost, no second writer forked a table), and each client's last version
    is the stored length or behind it only by moves made after it stopped listening.
    Returns how many events were checked."""
    checked = 0
    for tid, ps in players.items():
        actions = stored[tid]
        for p in ps:
            for f in p.frames:
                if f["type"] != "state" or f["match"] != 1:
                    continue
                assert f["version"] <= len(actions), (tid, f["version"], len(actions))
                if f["event"] is not None:
                    assert actions[f["version"] - 1] == f["event"]["action"], \
                        (tid, f["version"], f["event"]["action"], actions[f["version"] - 1])
                    checked += 1
            # Whatever this client sent and saw acknowledged is stored as sent.
            mine = {f["version"]: f["event"]["action"] for f in p.frames
                    if f["type"] == "state" and f["event"] is not None
                    and f["event"]["seat"] == p.seat()}
            for v, a in mine.items():
                assert actions[v - 1] == a
    return checked


def resumed_where_they_were(p: Player, before: dict[str, Any]) -> None:
    """After a reconnect the client's first state is the one it last saw (nobody could
    move while both clients of the table were away), or later."""
    mark = p.connect_marks[-1]
    first = next(f for f in p.frames[mark:] if f["type"] == "state")
    assert first["version"] >= before["version"]
    if first["version"] == before["version"]:
        assert first["view"] == before["view"]


async def wait_all(players: list[Player], pred: Any, timeout: float, what: str) -> None:
    await asyncio.gather(*(p.wait(pred, timeout, what) for p in players))


@pytest.mark.slow
def test_kill_9_of_one_process_of_three_while_100_tables_play(cluster: Cluster) -> None:
    tables = Tables(cluster)

    async def run() -> None:
        await tables.open(int(os.environ.get('GOLF_KILL_TABLES', '100')))
        player = asyncio.create_task(tables.play(21))
        await asyncio.sleep(6)
        owners = await lease_owners(cluster)
        victim_port = cluster.port(1)
        victims = [t for t in tables.players if owners.get(t, "").endswith(f":{victim_port}")]
        assert victims, "process 1 played none of the 100 tables"
        before = {t: [p.state for p in tables.players[t]] for t in victims}
        counts = {t: [len(p.connect_marks) for p in tables.players[t]] for t in victims}
        killed = time.monotonic()
        cluster.kill(1)
        taken = asyncio.create_task(takeovers(cluster, victims, f":{victim_port}"))
        # Every client of the dead process's tables comes back by itself through the proxy
        # and is served by another process.
        gone = [p for t in victims for p in tables.players[t]]
        await asyncio.gather(*(p.wait(lambda c, n=n: c.back(n), 30, "a reconnect")
                               for t in victims
                               for p, n in zip(tables.players[t], counts[t], strict=True)))
        resumed = [p.first_state_after(killed) for p in gone]
        delays = sorted(at - killed for at in resumed if at is not None)
        assert len(delays) == len(gone)
        moves = sorted(at - killed for at in (await taken).values())
        print(f"\n{len(victims)} tables of the killed process: taken over by another "
              f"process after median {moves[len(moves) // 2]:.2f} s, max {moves[-1]:.2f} s; "
              f"their clients had a state again after median "
              f"{delays[len(delays) // 2]:.2f} s, max {delays[-1]:.2f} s")
        # The table goes on on another process after about a TTL (3 s; the figures are
        # printed above and measured in docs/server.md). The bound is a safety net: a
        # hello waits at most 8 s for a table another process holds (hub.CLAIM_WAIT), and
        # 5 s failed once (5.33 s) with browser tests on the other workers.
        assert moves[-1] <= 8.0, f"a table was taken over only after {moves[-1]:.2f} s"
        for t in victims:
            for p, b in zip(tables.players[t], before[t], strict=True):
                resumed_where_they_were(p, b)
        # They play on, on their new process.
        versions = {t: max(p.version for p in tables.players[t]) for t in victims}
        await asyncio.sleep(6)
        moved = [t for t in victims if max(p.version for p in tables.players[t]) > versions[t]]
        assert len(moved) >= len(victims) * 0.8, f"only {len(moved)} of {len(victims)} " \
            "tables moved on after the takeover"
        tables.stop = True
        await player
        await asyncio.sleep(1)
        new_owners = await lease_owners(cluster)
        assert not any(new_owners[t].endswith(f":{victim_port}") for t in victims)

    try:
        asyncio.run(run())
        stored = stored_actions(cluster, list(tables.players))
        assert check_against_store(tables.players, stored) > 5 * len(tables.players)
        assert {e["code"] for e in tables.errors} <= {"try_again"}
    finally:
        asyncio.run(tables.close())
        cluster.restart(1)


@pytest.mark.slow
def test_rolling_restart_under_load_loses_nothing(cluster: Cluster) -> None:
    tables = Tables(cluster)

    async def run() -> None:
        await tables.open(30)
        player = asyncio.create_task(tables.play(7))
        await asyncio.sleep(3)
        for i in range(cluster.processes):
            versions = {t: max(p.version for p in ps) for t, ps in tables.players.items()}
            await asyncio.to_thread(cluster.terminate, i)
            await asyncio.sleep(1)
            await asyncio.to_thread(cluster.restart, i)
            # Every table goes on through the restart: a table of the restarted process
            # comes home by a handover (its holder keeps a table it took for a second). A
            # hole's end waits for both people's `ready`; the readies a process received are
            # stored (migration 0007), but one sent to it as it stopped is lost with it, and
            # this test's players send theirs once, so such a table moves on when the
            # break's countdown ends: HOLE_BREAK, plus the handover.
            deadline = time.monotonic() + HOLE_BREAK + 10
            while True:
                stuck = [t for t, ps in tables.players.items()
                         if max(p.version for p in ps) <= versions[t]]
                if not stuck or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.25)
            if stuck:
                raise AssertionError(f"{len(stuck)} tables stood still for "
                                     f"{HOLE_BREAK + 10:g} s after restarting {i}\n"
                                     + await why_stuck(cluster, tables.players, stuck))
            await asyncio.sleep(1)
        tables.stop = True
        await player

    try:
        asyncio.run(run())
        stored = stored_actions(cluster, list(tables.players))
        assert check_against_store(tables.players, stored) > 100
        for ps in tables.players.values():
            for p in ps:
                # Only "reconnect" closes (1012), never an error the person would see
                # (1000: the client's own close after a hello refused with try_again).
                codes = [code for code, _ in p.closes]
                assert set(codes) <= {1012, 1000}, p.closes
                assert codes.count(1000) <= p.gave_up
        assert {e["code"] for e in tables.errors} <= {"try_again"}
    finally:
        asyncio.run(tables.close())


@pytest.mark.slow
def test_postgres_restart_refuses_moves_with_try_again_then_goes_on(cluster: Cluster) -> None:
    tables = Tables(cluster)

    async def run() -> None:
        await tables.open(10)
        player = asyncio.create_task(tables.play(5))
        await asyncio.sleep(3)
        tables.stop = True
        await player
        await asyncio.sleep(0.5)
        await asyncio.to_thread(pg_ctl, cluster, "stop")
        down = time.monotonic()
        # Moves made while the database is away are refused: try_again, state unchanged.
        movers = []
        for ps in tables.players.values():
            p = next((p for p in ps if p.state and p.state["your_turn"]), None)
            if p is not None and p.state is not None:
                movers.append((p, p.state["version"], len(p.errors)))
                await p.act(p.state["legal_actions"][0], p.state["version"])
        for p, v, n in movers:
            e = await p.wait_error(n + 1, timeout=20)
            assert e["code"] == "try_again", e
            assert e["state"]["version"] == v
        assert movers
        await asyncio.sleep(max(0.0, 3 - (time.monotonic() - down)))
        await asyncio.to_thread(pg_ctl, cluster, "start")
        versions = {t: max(p.version for p in ps) for t, ps in tables.players.items()}
        tables.stop = False
        player = asyncio.create_task(tables.play(6))
        await asyncio.sleep(10)
        stuck = [t for t, ps in tables.players.items()
                 if max(p.version for p in ps) <= versions[t]]
        assert not stuck, f"{len(stuck)} tables stood still after PostgreSQL came back"
        tables.stop = True
        await player

    try:
        asyncio.run(run())
        stored = stored_actions(cluster, list(tables.players))
        assert check_against_store(tables.players, stored) > 50
    finally:
        asyncio.run(tables.close())
