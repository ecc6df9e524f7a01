"""A partition cannot fork a game (issue 37).

Two `golf serve` processes share one PostgreSQL; process 0 reaches it only through a
small TCP relay of the test's own, which the test stalls (it keeps its connections and
accepts new ones, but forwards no byte either way: nastier than refusing, since nothing
ever fails by itself) and then restores. Process 0's clients can still reach it and go
on sending moves while it is cut off. Its lease runs out, process 1 adopts its tables and
plays them (bots); when the cut heals, process 0 must find its tables gone and close its
clients' sockets with 1012 ``reconnect``; they rejoin on process 1.

What must hold: for every (table, match, version) at most one distinct event was
announced, across every client of both processes, and it is the action the database
holds; process 0 announces nothing while it is cut off (no ``state`` with an event
reaches its clients once its lease could have passed: a move sent meanwhile is refused
with ``try_again`` or held, never announced); the people sent on are playing on process 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from faults import Cut, Relay  # noqa: E402
from harness import Client, ended_a_hole  # noqa: E402
from test_db_outage import Database  # noqa: E402

from golf.cluster import Cluster  # noqa: E402
from ports import free_port_block  # noqa: E402

# A fresh database of the server suite's throwaway PostgreSQL (its fixture: conftest).
from server.conftest import fresh_database  # noqa: E402

#: The lease's life (golf serve --lease-ttl): short, so that the takeover comes soon.
TTL = 2.0
#: A bot's pause before its move (the table option), short so that tables move often.
BOT_DELAY = 0.2
#: Tables on process 0 (each a person and two bots).
TABLES = 4


@pytest.fixture
def cut(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Cut, Relay]]:
    """Two processes on a fresh database of the session's PostgreSQL, process 0 through
    the relay."""
    url = fresh_database(postgres_url)
    port = urlsplit(url).port
    assert port is not None
    relay = Relay(port)
    relay.start()
    c = Cut(processes=2, base_port=free_port_block(3), data_dir=tmp_path / "cluster",
            pg_url=url, serve_args=["--hole-break", "0.5", "--lease-ttl", str(TTL)])
    c.relay = relay
    try:
        c.start()
        yield c, relay
    finally:
        relay.stop()
        c.stop()


class Leases(Database):
    async def taken(self, ids: list[str]) -> dict[str, float]:
        """When each table's lease last changed hands (the database's clock, which is
        this machine's: seconds since 1970)."""
        conn = await self._conn()
        rows = await conn.fetch("SELECT table_id, changed AS at "
                                "FROM golf_leases WHERE table_id = ANY($1)", ids)
        return {r["table_id"]: float(r["at"]) for r in rows}


class Person(Client):
    """A client that notes when each frame came, and from which process."""

    def __init__(self, url: str, table: str, token: str) -> None:
        super().__init__(url, table, token, reconnect=True)
        #: (time.time() received, the process's URL it came from, frame)
        self.log: list[tuple[float, str, dict[str, Any]]] = []
        self.at = url

    async def _open(self) -> None:
        self.at = self.url
        await super()._open()

    def _receive(self, text: str) -> None:
        super()._receive(text)
        self.log.append((time.time(), self.at, self.frames[-1]))


async def open_tables(c: Cluster, n: int) -> list[tuple[str, Person]]:
    """``n`` tables made on process 0 (it holds their leases), each a person connected to
    process 0 directly and two bots; every match started."""
    url = c.process_urls[0]
    ws = url.replace("http", "ws") + "/ws"
    out: list[tuple[str, Person]] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for i in range(n):
            r = await http.post("/api/tables", json={
                "name": f"Host{i}", "preset": "six-card", "rules": {"holes": 18},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                          {"kind": "bot", "bot": "easy"}],
                "options": {"bot_delay": BOT_DELAY}})
            assert r.status_code == 201, r.text
            tid, token = r.json()["table"]["id"], r.json()["token"]
            p = Person(f"{ws}?table={tid}", tid, token)
            await p.connect()
            await p.wait(lambda cl: cl.summary is not None, 60, "the summary")
            r = await http.post(f"/api/tables/{tid}/start",
                                headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
            out.append((tid, p))
    return out


async def play(people: list[Person], stop: asyncio.Event) -> None:
    """Each person: ``ready`` at a hole's end and a random legal move on their turn, sent
    again every 0.3 s while it is not answered (as an impatient person would)."""
    rng = random.Random(37)
    readied: dict[int, int] = {}
    sent: dict[tuple[int, int], float] = {}
    while not stop.is_set():
        for k, p in enumerate(people):
            s = p.state
            if s is None or p.ws is None:
                continue
            if ended_a_hole(s) and readied.get(k) != s["version"]:
                readied[k] = s["version"]
                with contextlib.suppress(Exception):
                    await p.send({"type": "ready"})
            if not s["your_turn"] or s["view"]["is_over"]:
                continue
            if time.monotonic() - sent.get((k, s["version"]), -1e9) < 0.3:
                continue
            sent[(k, s["version"])] = time.monotonic()
            with contextlib.suppress(Exception):
                await p.act(rng.choice(s["legal_actions"]), s["version"])
        await asyncio.sleep(0.05)


def events(p: Person) -> list[tuple[float, str, int, int, str]]:
    """(received, from, match, version, action) of every announced event."""
    return [(t, at, f["match"], f["version"], f["event"]["action"])
            for t, at, f in p.log if f["type"] == "state" and f.get("event")]


@pytest.mark.slow
def test_a_cut_off_process_stops_announcing_and_sends_its_clients_on(
        cut: tuple[Cut, Relay]) -> None:
    c, relay = cut
    figures: dict[str, Any] = {}

    async def run() -> None:
        tables = await open_tables(c, TABLES)
        ids = [t for t, _ in tables]
        people = [p for _, p in tables]
        db = Leases(c.db_url)
        stop = asyncio.Event()
        player = asyncio.create_task(play(people, stop))
        p0 = c.process_urls[0].replace("http", "ws")
        p1 = c.process_urls[1].replace("http", "ws")
        try:
            # Playing, on process 0.
            start = await db.moves(ids)
            deadline = time.monotonic() + 30
            while not all(n > start[t] + 2 for t, n in (await db.moves(ids)).items()):
                assert time.monotonic() < deadline, "the tables did not play"
                await asyncio.sleep(0.2)
            before = await db.leases(ids)
            assert len({owner for owner, _ in before.values()}) == 1, before
            # A person sent on comes back through the proxy's choice: process 1 here.
            for p in people:
                p.url = p.url.replace(p0, p1)
            relay.stall(mid_write=True)
            deadline = time.monotonic() + 10
            while not relay.stalled():
                assert time.monotonic() < deadline, "no move was written in 10 s"
                await asyncio.sleep(0.01)
            cut_at = time.time()
            # Process 1 takes every table over (the lease ran out) and its bots play on.
            deadline = time.monotonic() + 30
            while True:
                now = await db.leases(ids)
                if all(now[t][0] != before[t][0] for t in ids):
                    break
                assert time.monotonic() < deadline, f"not taken over: {now} {before}"
                await asyncio.sleep(0.2)
            taken = await db.taken(ids)
            moved_at = await db.moves(ids)
            deadline = time.monotonic() + 30
            while not all(n > moved_at[t] for t, n in (await db.moves(ids)).items()):
                assert time.monotonic() < deadline, "process 1 did not play the tables"
                await asyncio.sleep(0.2)
            # The people were still connected to process 0 all along, sending moves.
            figures["held_sockets"] = sum(p.at.startswith(p0) and p.ws is not None
                                          for p in people)
            relay.restore()
            healed = time.time()
            # Process 0 finds its tables gone and sends its people on, to process 1.
            deadline = time.monotonic() + 30
            while not all(p.at.startswith(p1) and p.resynced(1) for p in people):
                assert time.monotonic() < deadline, [(p.at, p.closes) for p in people]
                await asyncio.sleep(0.2)
            sent_on = time.time()
            # And play there.
            await asyncio.sleep(2.0)
            stop.set()
            await player
            for p in people:
                await p.close()
            stored = await db.actions(ids)
            figures.update(cut_at=cut_at, healed=healed, sent_on=sent_on, taken=taken,
                           stored=stored, ids=ids,
                           events={t: events(p) for t, p in tables},
                           closes={t: p.closes for t, p in tables},
                           errors={t: [e.get("code") for e in p.errors] for t, p in tables})
        finally:
            stop.set()
            for p in people:
                await p.close()
            await db.close()

    asyncio.run(run())
    p0 = c.process_urls[0].replace("http", "ws")
    forks: list[Any] = []
    announced_late: list[Any] = []
    checked = 0
    for t in figures["ids"]:
        seen: dict[tuple[int, int], set[str]] = {}
        for received, at, match, version, action in figures["events"][t]:
            seen.setdefault((match, version), set()).add(action)
            actions = figures["stored"][t].get(match, [])
            assert version <= len(actions) and actions[version - 1] == action, (
                "announced but not what the database holds", t, match, version, action,
                actions[version - 1:version])
            checked += 1
            # Process 0 may announce what it stored before its lease could pass, never
            # after: its lease ran out TTL after its last renewal, before the taking.
            if at.startswith(p0) and received > figures["taken"][t]:
                announced_late.append((t, match, version, action,
                                       received - figures["taken"][t]))
        forks += [(t, k, v) for k, v in seen.items() if len(v) > 1]
    codes = {t: [code for code, _ in cl] for t, cl in figures["closes"].items()}
    print(f"\ncut {figures['healed'] - figures['cut_at']:.1f} s; taken over "
          f"{min(figures['taken'].values()) - figures['cut_at']:.1f}-"
          f"{max(figures['taken'].values()) - figures['cut_at']:.1f} s after the cut; "
          f"people sent on {figures['sent_on'] - figures['healed']:.1f} s after the heal; "
          f"{checked} events checked; closes {codes}; errors {figures['errors']}")
    assert not forks, f"two different moves announced for one version: {forks}"
    assert not announced_late, f"process 0 announced moves after its lease passed: " \
                               f"{announced_late}"
    assert figures["held_sockets"] == TABLES
    assert relay.mid_write, "the cut did not come mid-write"
    for t, cl in codes.items():
        assert 1012 in cl, (t, cl)
    assert checked > 0


#: Tables on process 0 in the test of the heal: enough that its writes queue up while it
#: is cut off (each table has a bot's or a person's move waiting at any moment).
MANY = 20
#: After the heal, process 0 has given up every table it lost (no room, no socket left)
#: within this many seconds (issue 37 asks for "a couple"; generous for a loaded machine)
#: and every table stores a move again within MOVE_WITHIN.
GIVEN_UP_WITHIN = 5.0
MOVE_WITHIN = 10.0


async def health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=5) as http:
        r = await http.get("/api/health")
        return dict(r.json())


@pytest.mark.slow
def test_a_healed_process_gives_up_every_lost_table_at_once(
        cut: tuple[Cut, Relay]) -> None:
    """Process 0 cut off until process 1 took all of its MANY tables, then healed: it
    gives up every one of them (its rooms dropped, its people's sockets closed with 1012)
    within a few seconds of the heal, not as each room's next write happens to meet the
    taker's stored move; every table moves again soon after, every person is back (on
    process 1, where the test sends them), and nothing announced differs from the store.
    Before the fix the renewal noticed the lost leases one at a time (each giving-up
    waited for its table's lock, held by a write queued behind the cut's timed-out
    writes), and the process went on playing tables it no longer held."""
    c, relay = cut
    figures: dict[str, Any] = {}

    async def run() -> None:
        tables = await open_tables(c, MANY)
        ids = [t for t, _ in tables]
        people = [p for _, p in tables]
        db = Leases(c.db_url)
        stop = asyncio.Event()
        player = asyncio.create_task(play(people, stop))
        p0, p1 = c.process_urls[0], c.process_urls[1]
        try:
            start = await db.moves(ids)
            deadline = time.monotonic() + 60
            while not all(n > start[t] + 2 for t, n in (await db.moves(ids)).items()):
                assert time.monotonic() < deadline, "the tables did not play"
                await asyncio.sleep(0.2)
            before = await db.leases(ids)
            assert len({owner for owner, _ in before.values()}) == 1, before
            for p in people:
                p.url = p.url.replace(p0.replace("http", "ws"), p1.replace("http", "ws"))
            connects = {id(p): p.connects for p in people}
            relay.stall()
            cut_at = time.monotonic()
            deadline = time.monotonic() + 60
            while not all(o != before[t][0] for t, (o, _) in (await db.leases(ids)).items()):
                assert time.monotonic() < deadline, "process 1 did not take every table"
                await asyncio.sleep(0.2)
            # Its bots play on there while process 0's people still send it moves.
            await asyncio.sleep(1.0)
            at_heal = await db.moves(ids)
            relay.restore()
            healed = time.monotonic()
            deadline = healed + 60
            while True:
                h = await health(p0)
                if h["tables"] == 0 and h["connections"] == 0:
                    break
                assert time.monotonic() < deadline, f"process 0 still plays {h}"
                await asyncio.sleep(0.1)
            given_up = time.monotonic() - healed
            moved: dict[str, float] = {}
            while len(moved) < len(ids) and time.monotonic() < deadline:
                for t, n in (await db.moves(ids)).items():
                    if n > at_heal[t]:
                        moved.setdefault(t, time.monotonic() - healed)
                await asyncio.sleep(0.1)
            while not all(p.resynced(connects[id(p)]) and p.at.startswith(
                    p1.replace("http", "ws")) for p in people) \
                    and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            back = time.monotonic() - healed
            stop.set()
            await player
            for p in people:
                await p.close()
            figures.update(cut=healed - cut_at, given_up=given_up, moved=moved, back=back,
                           ids=ids, stored=await db.actions(ids),
                           events={t: events(p) for t, p in tables},
                           resynced=[p.resynced(connects[id(p)]) for p in people],
                           closes={t: [code for code, _ in p.closes] for t, p in tables})
        finally:
            stop.set()
            for p in people:
                await p.close()
            await db.close()

    asyncio.run(run())
    checked = 0
    for t in figures["ids"]:
        seen: dict[tuple[int, int], set[str]] = {}
        for _, _, match, version, action in figures["events"][t]:
            seen.setdefault((match, version), set()).add(action)
            actions = figures["stored"][t].get(match, [])
            assert version <= len(actions) and actions[version - 1] == action, (
                "announced but not what the database holds", t, match, version, action)
            checked += 1
        assert all(len(v) == 1 for v in seen.values()), (t, seen)
    moved = figures["moved"]
    print(f"\ncut {figures['cut']:.1f} s; after the heal process 0 had given up its "
          f"{MANY} tables in {figures['given_up']:.2f} s; {len(moved)} tables moved "
          f"again after at most {max(moved.values(), default=0):.2f} s; every person back "
          f"after {figures['back']:.2f} s; {checked} events checked")
    assert checked > 0
    assert figures["given_up"] <= GIVEN_UP_WITHIN, figures["given_up"]
    assert len(moved) == MANY, sorted(set(figures["ids"]) - set(moved))
    assert max(moved.values()) <= MOVE_WITHIN, moved
    assert all(figures["resynced"]), figures["closes"]
    assert figures["back"] <= 15.0, figures["back"]
    for t, codes in figures["closes"].items():
        assert 1012 in codes, (t, codes)
