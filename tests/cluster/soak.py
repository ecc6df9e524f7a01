"""A fault soak of a golf cluster (issue 37): tables of every kind on three processes
through nginx, one fault after another, and after each one the checks that matter.

    PYTHONPATH=src .venv/bin/python tests/cluster/soak.py --tables 100 --rounds 2

starts PostgreSQL (a throwaway one of its own, so that it can stop it), three ``golf
serve`` processes (process 0 reaches the database through a relay the soak can stall)
and nginx, opens ``--tables`` tables spread over six kinds, and inflicts, ``--rounds``
times, each fault of :data:`FAULTS`:

* ``kill-9``: SIGKILL of one process (another each round), started again once every
  table it held was taken over;
* ``restart-N``: a rolling restart, SIGTERM of process N (it drains), started again;
* ``db-restart``: PostgreSQL stopped (``pg_ctl stop -m fast``) for ``--outage`` s, started;
* ``db-stall``: process 0's link to PostgreSQL stalls (a partition: nothing fails, no byte
  moves) until the others took its tables over, then heals;
* ``nginx-reload``: ``nginx -s reload``;
* ``nginx-restart``: ``nginx -s stop`` (every socket cut), started again after 1 s.

After each fault it waits (polling, generous deadlines) and checks that

* every acknowledged move is stored once and in order: every event any client was told
  is the action the database holds at its match and index (so no two clients were told
  different moves for one index: no fork), and the stored indexes have no gap;
* every table moves again: each table whose match goes on stores a move more within
  ``--move-within`` s after the fault ended;
* every client is back: each connected person has a state again on a joined connection;
* no frame leaks a hidden card: every frame a seat received since the last check is
  checked against the engine's view rules for that seat (tests/server/leaks.py) on the
  match rebuilt from what the database stores;

and prints a line per fault and, at the end, a table of the faults: takeover times (a
lease changing hands, from the fault's start), the time until every table moved again
and until every client was back (from the fault's end). It exits 1 when a check failed.
The short form runs in the test suite (tests/cluster/test_soak.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

HERE = Path(__file__).resolve().parent
for _p in (HERE.parent / "server", HERE.parent, HERE, HERE.parents[1] / "src"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from faults import Cut, RelayProcess, nginx  # noqa: E402
from harness import ended_a_hole  # noqa: E402
from leaks import Truth, check  # noqa: E402
from pg_control import pg_ctl  # noqa: E402
from test_db_outage import Database  # noqa: E402
from test_failover import Player  # noqa: E402

from ports import free_port_block  # noqa: E402

#: A bot's pause before its move (the table option): tables move often.
BOT_DELAY = 0.3

#: The kinds of table: seats, preset, options, how many people connect and whether they
#: play their turns (a person who does not is played by the turn timer).
KINDS: dict[str, dict[str, Any]] = {
    # The host starts the match and leaves: a stand-in and the bots play, nobody connected.
    "bots": {"preset": "six-card", "seats": ["human", "bot", "bot"], "people": 0,
             "leave": True, "options": {"absence": "bot", "grace": 1}},
    "person": {"preset": "six-card", "seats": ["human", "bot", "bot"], "people": 1,
               "plays": True, "options": {}},
    "people": {"preset": "six-card", "seats": ["human", "human"], "people": 2,
               "plays": True, "options": {}},
    # Private peeks at the start of each hole: the leak check's hardest case.
    "wild": {"preset": "four-card-wild", "seats": ["human", "bot"], "people": 1,
             "plays": True, "options": {}},
    # Its only person never connects: the absence grace runs out, a stand-in plays.
    "absent": {"preset": "six-card", "seats": ["human", "bot", "bot"], "people": 0,
               "options": {"absence": "bot", "grace": 1}},
    # The person is connected and never moves: every turn of theirs ends by the timer.
    "timer": {"preset": "six-card", "seats": ["human", "bot", "bot"], "people": 1,
              "plays": False, "options": {"turn_timer": 1, "reserve": 0}},
}

FAULTS = ("kill-9", "restart-0", "restart-1", "restart-2", "db-restart", "db-stall",
          "nginx-reload", "nginx-restart")


@dataclass
class Table:
    id: str
    kind: str
    tokens: list[str]
    clients: list[Player] = field(default_factory=list)
    #: Per client: the frames already checked for leaks.
    leak_marks: list[int] = field(default_factory=list)


@dataclass
class Result:
    """One fault's figures and what went wrong (empty: every check passed)."""

    fault: str
    seconds: float = 0.0
    takeovers: list[float] = field(default_factory=list)
    moved: list[float] = field(default_factory=list)
    #: Per client whose socket the fault cut: seconds from the cut to a state again.
    back: list[float] = field(default_factory=list)
    clients: int = 0
    events: int = 0
    frames: int = 0
    live: int = 0
    failures: list[str] = field(default_factory=list)


def spread(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{statistics.median(xs):.2f} / {max(xs):.2f}"


class Soak:
    def __init__(self, cluster: Cut, relay: RelayProcess, tables: int, move_within: float,
                 back_within: float, outage: float, seed: int, log: Callable[[str], None]
                 ) -> None:
        self.c = cluster
        self.relay = relay
        self.n = tables
        self.move_within = move_within
        self.back_within = back_within
        self.outage = outage
        self.rng = random.Random(seed)
        self.log = log
        self.tables: list[Table] = []
        self.db = Database(cluster.db_url)
        self.stop = asyncio.Event()
        self.results: list[Result] = []
        #: The tables whose process the current fault hits (set by the fault itself).
        self.victims: list[str] | None = None

    # --- tables ----------------------------------------------------------------------------
    async def open(self) -> None:
        ws = self.c.url.replace("http", "ws") + "/ws"
        kinds = list(KINDS)
        async with httpx.AsyncClient(base_url=self.c.url, timeout=60) as http:
            sem = asyncio.Semaphore(10)

            async def one(i: int) -> None:
                kind = kinds[i % len(kinds)]
                k = KINDS[kind]
                async with sem:
                    rules = {"holes": 18} if k["preset"] == "six-card" else {}
                    r = await http.post("/api/tables", json={
                        "name": f"Host{i}", "preset": k["preset"], "rules": rules, "public": True,
                        "seats": [{"kind": s} if s == "human" else {"kind": s, "bot": "easy"}
                                  for s in k["seats"]],
                        "options": {"bot_delay": BOT_DELAY, **k["options"]}})
                    assert r.status_code == 201, r.text
                    tid, token = r.json()["table"]["id"], r.json()["token"]
                    t = Table(tid, kind, [token])
                    for j in range(1, k["seats"].count("human")):
                        r = await http.post(f"/api/tables/{tid}/join",
                                            json={"name": f"Guest{i}.{j}"})
                        assert r.status_code == 200, r.text
                        t.tokens.append(r.json()["token"])
                    for tok in t.tokens[:k["people"]]:
                        p = Player(ws, tid, tok)
                        await p.connect()
                        t.clients.append(p)
                        t.leak_marks.append(0)
                    for p in t.clients:
                        await p.wait(lambda c: c.summary is not None, 60, "the summary")
                    r = await http.post(f"/api/tables/{tid}/start",
                                        headers={"Authorization": f"Bearer {token}"})
                    assert r.status_code == 200, r.text
                    if k.get("leave"):
                        r = await http.post(f"/api/tables/{tid}/leave",
                                            headers={"Authorization": f"Bearer {token}"})
                        assert r.status_code == 200, r.text
                    self.tables.append(t)

            await asyncio.gather(*(one(i) for i in range(self.n)))

    async def play(self) -> None:
        """Each connected person: ``ready`` at a hole's end and, if they play, a random
        legal move on their turn after thinking 0.2-0.8 s; a move not answered within
        1.5 s (refused with try_again, or lost with its socket) is sent again."""
        first_seen: dict[tuple[int, int], float] = {}
        sent: dict[tuple[int, int], float] = {}
        think: dict[tuple[int, int], float] = {}
        readied: dict[int, tuple[int, int]] = {}
        while not self.stop.is_set():
            now = time.monotonic()
            for t in self.tables:
                plays = bool(KINDS[t.kind].get("plays"))
                for p in t.clients:
                    s = p.state
                    if s is None or p.ws is None or not p.joined():
                        continue
                    me = id(p)
                    if ended_a_hole(s):
                        mark = (s["version"], len(p.connect_marks))
                        if readied.get(me) != mark:
                            readied[me] = mark
                            with contextlib.suppress(Exception):
                                await p.send({"type": "ready"})
                    if not plays or not s["your_turn"] or s["view"]["is_over"]:
                        continue
                    key = (me, s["version"])
                    seen = first_seen.setdefault(key, now)
                    wait = think.setdefault(key, self.rng.uniform(0.2, 0.8))
                    if now - seen < wait or now - sent.get(key, -1e9) < 1.5:
                        continue
                    sent[key] = now
                    with contextlib.suppress(Exception):
                        await p.act(self.rng.choice(s["legal_actions"]), s["version"])
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        for t in self.tables:
            for p in t.clients:
                await p.close()
        await self.db.close()

    # --- reading the database --------------------------------------------------------------
    async def read(self, what: Callable[[], Awaitable[Any]], timeout: float = 60) -> Any:
        """A read of the soak's own, tried again while the database is away."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return await asyncio.wait_for(what(), 10)
            except Exception:
                if time.monotonic() > deadline:
                    raise
                with contextlib.suppress(Exception):
                    await self.db.close()
                self.db.conn = None
                await asyncio.sleep(0.25)

    async def going_on(self) -> dict[str, bool]:
        """Whether each table's current match is still playing (a finished one has
        nothing left to move)."""
        async def q() -> dict[str, bool]:
            conn = await self.db._conn()
            rows = await conn.fetch("SELECT id, status FROM golf_tables WHERE id = ANY($1)",
                                    [t.id for t in self.tables])
            return {r["id"]: r["status"] == "playing" for r in rows}
        return dict(await self.read(q))

    async def matches(self) -> dict[tuple[str, int], dict[str, Any]]:
        """Every match of the tables as stored: its record (rules, players, seed,
        actions in order; a gap in the indexes is a failure)."""
        async def q() -> dict[tuple[str, int], dict[str, Any]]:
            conn = await self.db._conn()
            ms = await conn.fetch(
                "SELECT id, table_id, number, rules, players, seed FROM golf_matches "
                "WHERE table_id = ANY($1)", [t.id for t in self.tables])
            acts = await conn.fetch(
                "SELECT match_id, idx, action FROM golf_actions WHERE match_id = ANY($1) "
                "ORDER BY match_id, idx", [m["id"] for m in ms])
            by_id: dict[int, list[str]] = {m["id"]: [] for m in ms}
            for a in acts:
                got = by_id[a["match_id"]]
                assert a["idx"] == len(got), f"a gap in the stored actions of match " \
                    f"{a['match_id']} at {len(got)}"
                got.append(a["action"])
            out: dict[tuple[str, int], dict[str, Any]] = {}
            for m in ms:
                rules = m["rules"]
                out[(m["table_id"], m["number"])] = {
                    "rules": json.loads(rules) if isinstance(rules, str) else rules,
                    "players": m["players"], "seed": int(m["seed"]),
                    "actions": by_id[m["id"]]}
            return out
        return dict(await self.read(q))

    async def leases(self) -> dict[str, tuple[str, int]]:
        return dict(await self.read(lambda: self.db.leases([t.id for t in self.tables])))

    # --- one fault -------------------------------------------------------------------------
    async def watch_leases(self, since: float, before: dict[str, tuple[str, int]],
                           out: dict[str, float], until: asyncio.Event) -> None:
        """When each lease first changed hands (owner or epoch), from ``since``; reads
        that fail (the database away) are simply tried again."""
        while not until.is_set():
            with contextlib.suppress(Exception):
                now = await asyncio.wait_for(
                    self.db.leases([t.id for t in self.tables]), 5)
                at = time.monotonic() - since
                for tid, lease in now.items():
                    if tid in before and lease != before[tid] and lease[0]:
                        out.setdefault(tid, at)
            await asyncio.sleep(0.1)

    async def fault(self, name: str, do: Callable[[], Awaitable[None]]) -> Result:
        res = Result(name)
        going = await self.going_on()
        live = [t for t in self.tables if going.get(t.id)]
        res.live = len(live)
        before = await self.leases()
        taken: dict[str, float] = {}
        done = asyncio.Event()
        start = time.monotonic()
        watcher = asyncio.create_task(self.watch_leases(start, before, taken, done))
        closes = {id(p): len(p.closes) for t in self.tables for p in t.clients}
        cuts: dict[int, list[float]] = {}
        cutter = asyncio.create_task(self.watch_cuts(closes, cuts, done))
        try:
            await do()
            end = time.monotonic()
            res.seconds = end - start
            await self.moves_again(live, end, res)
            await self.clients_back(end, cuts, res)
        finally:
            done.set()
            await watcher
            await cutter
        # The tables the fault took from their process (a process killed, stopped, cut
        # off): when each changed hands. Other faults: every lease that changed hands.
        victims = self.victims if self.victims is not None else list(taken)
        res.takeovers = sorted(taken[t] for t in victims if t in taken)
        self.victims = None
        await self.check_store_and_leaks(res)
        self.results.append(res)
        self.log(f"{name:14s} {res.seconds:5.1f} s; leases taken {len(res.takeovers)} "
                 f"(median/max {spread(res.takeovers)} s); {len(res.moved)}/{res.live} "
                 f"tables moved again ({spread(res.moved)} s); {len(res.back)} of "
                 f"{res.clients} clients cut, back after {spread(res.back)} s; "
                 f"{res.events} events, {res.frames} frames checked"
                 + (f"; FAILED: {'; '.join(res.failures)}" if res.failures else ""))
        return res

    async def moves_again(self, live: list[Table], end: float, res: Result) -> None:
        """Each table that was playing stores a move more after ``end``; how long after."""
        ids = [t.id for t in live]
        at_end = await self.read(lambda: self.db.moves(ids))
        moved: dict[str, float] = {}
        # Generous: the bound is checked below, the wait only ends a stuck soak.
        deadline = end + max(60.0, 3 * self.move_within)
        while len(moved) < len(ids) and time.monotonic() < deadline:
            now = await self.read(lambda: self.db.moves(ids))
            going = await self.going_on()
            for tid in ids:
                if now[tid] > at_end[tid] or not going.get(tid):
                    moved.setdefault(tid, time.monotonic() - end)
            await asyncio.sleep(0.2)
        res.moved = sorted(moved.values())
        stuck = [(t.kind, t.id) for t in live if t.id not in moved]
        late_ids = [(t.kind, t.id, round(moved[t.id], 1)) for t in live
                    if moved.get(t.id, 0.0) > self.move_within]
        if stuck:
            res.failures.append(f"{len(stuck)} tables never moved again: {stuck[:5]}")
        late = [s for s in res.moved if s > self.move_within]
        if late:
            res.failures.append(f"{len(late)} tables moved again only after "
                                f"{max(late):.1f} s (bound {self.move_within:g} s): "
                                f"{late_ids[:5]}")

    async def watch_cuts(self, closes: dict[int, int], out: dict[int, list[float]],
                         until: asyncio.Event) -> None:
        """When each client's socket was seen closed (by the server, nginx or the client
        after a refused hello), every time, since the fault began."""
        clients = [p for t in self.tables for p in t.clients]
        seen = dict(closes)
        while not until.is_set():
            now = time.monotonic()
            for p in clients:
                if len(p.closes) > seen[id(p)]:
                    seen[id(p)] = len(p.closes)
                    out.setdefault(id(p), []).append(now)
            await asyncio.sleep(0.05)

    async def clients_back(self, end: float, cuts: dict[int, list[float]],
                           res: Result) -> None:
        """Every connected person has a state again on a joined connection, received
        after the fault ended. How long a person waited: from a cut of their socket to
        the next state they received, the longest such wait if the fault cut it more
        than once (a table moved twice); 0 for a socket the fault never cut."""
        clients = [p for t in self.tables for p in t.clients]
        deadline = end + max(60.0, 3 * self.back_within)
        # A finished match sends nothing more: a client of one whose socket the fault
        # never cut is back as long as it is still joined (no frame after ``end`` comes).
        going = await self.going_on()
        over = {id(p) for t in self.tables for p in t.clients if not going.get(t.id)}

        def back_at(p: Player) -> float | None:
            if p.ws is None or not p.joined():
                return None
            if id(p) in over and id(p) not in cuts:
                return 0.0
            if not p.times or p.times[-1] < end:
                return None
            waits = []
            for cut in cuts.get(id(p), []):
                first = next((at for at, f in zip(p.times, p.frames, strict=True)
                              if at > cut and f["type"] == "state"), None)
                if first is None:
                    return None
                waits.append(first - cut)
            return max(waits, default=0.0)

        while True:
            got = [back_at(p) for p in clients]
            if all(g is not None for g in got) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        res.back = sorted(g for p, g in zip(clients, got, strict=True)
                          if g is not None and id(p) in cuts)
        res.clients = len(clients)
        missing = [(t.kind, t.id) for t in self.tables for p, g in zip(t.clients, [
            back_at(q) for q in t.clients], strict=True) if g is None]
        if missing:
            res.failures.append(f"{len(missing)} clients not back: {missing[:5]}")
        late = [s for s in res.back if s > self.back_within]
        if late:
            res.failures.append(f"{len(late)} clients back only after {max(late):.1f} s "
                                f"(bound {self.back_within:g} s)")

    async def check_store_and_leaks(self, res: Result) -> None:
        """What every client was told against what the database stores, and every frame
        received since the last check against the view rules."""
        # Frames first, then the database: a move announced after the read could not be
        # in it yet; one announced before it must be.
        upto = {id(p): len(p.frames) for t in self.tables for p in t.clients}
        try:
            stored = await self.matches()
        except AssertionError as e:
            res.failures.append(str(e))
            return
        for t in self.tables:
            for p in t.clients:
                for f in p.frames[:upto[id(p)]]:
                    if f["type"] != "state" or f["event"] is None \
                            or f["event"]["action"] is None:
                        continue
                    acts = stored.get((t.id, f["match"]), {}).get("actions", [])
                    v = f["version"]
                    if v > len(acts) or acts[v - 1] != f["event"]["action"]:
                        res.failures.append(
                            f"table {t.id} ({t.kind}) match {f['match']}: told "
                            f"{f['event']['action']!r} at {v}, stored "
                            f"{acts[v - 1:v] or 'nothing'}")
                        break
                    res.events += 1
        try:
            res.frames += await asyncio.to_thread(self.leak_check, stored, upto)
        except AssertionError as e:
            res.failures.append(f"leak: {e}")

    def leak_check(self, stored: dict[tuple[str, int], dict[str, Any]],
                   upto: dict[int, int]) -> int:
        """Each client's frames since the last check, match by match, against the
        engine's truth rebuilt from the stored record (tests/server/leaks.py)."""
        checked = 0
        truths: dict[tuple[str, int], Truth] = {}
        for t in self.tables:
            for k, p in enumerate(t.clients):
                lo, hi = t.leak_marks[k], upto[id(p)]
                seat = p.seat()
                by_match: dict[int, tuple[list[dict[str, Any]], list[str]]] = {}
                for f, raw in zip(p.frames[lo:hi], p.raw[lo:hi], strict=True):
                    m = f.get("match")
                    if f["type"] not in ("state", "history") or not isinstance(m, int):
                        continue
                    frames, raws = by_match.setdefault(m, ([], []))
                    frames.append(f)
                    raws.append(raw)
                for m, (frames, raws) in by_match.items():
                    key = (t.id, m)
                    if key not in truths:
                        truths[key] = Truth(stored[key])
                    checked += check(seat, frames, raws, truths[key])
                t.leak_marks[k] = hi
        return checked

    # --- the faults ------------------------------------------------------------------------
    async def held_by(self, i: int) -> list[str]:
        """The tables process i holds now; they are the current fault's victims."""
        node = f":{self.c.port(i)}"
        leases = await self.leases()
        self.victims = [tid for tid, (owner, _) in leases.items() if owner.endswith(node)]
        return self.victims

    async def all_taken(self, ids: list[str], i: int, timeout: float = 60) -> None:
        """Until none of ``ids`` is leased to process i any more."""
        node = f":{self.c.port(i)}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            leases = await self.leases()
            if not any(leases.get(t, ("", 0))[0].endswith(node) for t in ids):
                return
            await asyncio.sleep(0.1)

    async def kill(self, i: int) -> None:
        held = await self.held_by(i)
        await asyncio.to_thread(self.c.kill, i)
        await self.all_taken(held, i)
        await asyncio.to_thread(self.c.restart, i)

    async def restart(self, i: int) -> None:
        await self.held_by(i)
        await asyncio.to_thread(self.c.terminate, i)
        await asyncio.sleep(1)
        await asyncio.to_thread(self.c.restart, i)

    async def db_restart(self) -> None:
        down = time.monotonic()
        await asyncio.to_thread(pg_ctl, self.c, "stop")
        await asyncio.sleep(max(0.0, self.outage - (time.monotonic() - down)))
        await asyncio.to_thread(pg_ctl, self.c, "start")

    async def db_stall(self) -> None:
        """Process 0 cut off from the database until the others took its tables over."""
        held = await self.held_by(0)
        self.relay.stall()
        try:
            await self.all_taken(held, 0)
        finally:
            self.relay.restore()

    async def nginx_reload(self) -> None:
        await asyncio.to_thread(nginx, self.c, "reload")

    async def nginx_restart(self) -> None:
        await asyncio.to_thread(nginx, self.c, "stop")
        await asyncio.sleep(1)
        await asyncio.to_thread(nginx, self.c, "start")

    def action(self, name: str, round_: int) -> Callable[[], Awaitable[None]]:
        if name == "kill-9":
            return lambda: self.kill((1 + round_) % self.c.processes)
        if name.startswith("restart-"):
            return lambda: self.restart(int(name.split("-")[1]))
        return {"db-restart": self.db_restart, "db-stall": self.db_stall,
                "nginx-reload": self.nginx_reload,
                "nginx-restart": self.nginx_restart}[name]

    async def run(self, rounds: int, faults: list[str], settle: float) -> bool:
        t0 = time.monotonic()
        await self.open()
        self.log(f"{len(self.tables)} tables open and started in "
                 f"{time.monotonic() - t0:.1f} s "
                 f"({', '.join(f'{k}: {sum(t.kind == k for t in self.tables)}' for k in KINDS)})")
        player = asyncio.create_task(self.play())
        try:
            await asyncio.sleep(settle)
            base = await self.fault("(no fault)", self.nothing)
            if base.failures:
                return False
            for r in range(rounds):
                for name in faults:
                    await self.fault(name, self.action(name, r))
                    await asyncio.sleep(settle)
        finally:
            self.stop.set()
            await player
            await self.close()
        return not any(r.failures for r in self.results)

    async def nothing(self) -> None:
        pass

    def report(self) -> str:
        head = ("| fault | seconds | leases taken | takeover median / max (s, from its start) "
                "| tables moved again | median / max (s, from its end) | clients cut "
                "| back after median / max (s, from the cut) | events | frames | result |")
        lines = [head, "|" + "---|" * 11]
        for r in self.results:
            lines.append(
                f"| {r.fault} | {r.seconds:.1f} | {len(r.takeovers)} | {spread(r.takeovers)} "
                f"| {len(r.moved)}/{r.live} | {spread(r.moved)} | {len(r.back)}/{r.clients} "
                f"| {spread(r.back)} | {r.events} | {r.frames} "
                f"| {'ok' if not r.failures else 'FAILED'} |")
        return "\n".join(lines)


def make_cluster(data_dir: Path, processes: int, ttl: float, pg_url: str | None
                 ) -> tuple[Cut, RelayProcess]:
    """The cluster, its process 0 behind the relay. With ``pg_url`` (the test suite's
    database) the relay leads there and the database faults stop that PostgreSQL; without,
    a PostgreSQL of the cluster's own is started first, so that the relay knows its port."""
    base = free_port_block(processes + 3)
    c = Cut(processes=processes, base_port=base, data_dir=data_dir, pg_url=pg_url,
            pg_port=base + processes + 2,
            serve_args=["--hole-break", "0.5", "--lease-ttl", f"{ttl:g}"])
    if c.own_postgres:
        c.start_postgres()
        # Started already: the Cluster's own start must not start it again, but must stop
        # it at the end.
        c.start_postgres = lambda: None  # type: ignore[method-assign]
    port = urlsplit(c.db_url).port
    assert port is not None
    relay = RelayProcess(port)
    relay.start()
    c.relay = relay
    return c, relay


def soak(tables: int = 12, rounds: int = 1, faults: list[str] | None = None,
         move_within: float = 10.0, back_within: float = 15.0, outage: float = 3.0,
         ttl: float = 3.0, settle: float = 3.0, seed: int = 37,
         data_dir: Path | None = None, log: Callable[[str], None] = print
         ) -> tuple[bool, Soak]:
    """Run the soak on a cluster of its own; whether every check passed, and the soak
    (its results and report)."""
    data = data_dir or Path(tempfile.mkdtemp(prefix="golf-soak-"))
    c, relay = make_cluster(data, 3, ttl, None)
    try:
        c.start()
        s = Soak(c, relay, tables, move_within, back_within, outage, seed, log)
        ok = asyncio.run(s.run(rounds, list(faults or FAULTS), settle))
        return ok, s
    finally:
        # The cluster first: process 0 drains through the relay (its clocks stored, its
        # leases released), which a relay already gone would turn into errors in its log.
        c.stop()
        relay.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100,
                    help="tables, spread evenly over the kinds: " + ", ".join(KINDS))
    ap.add_argument("--rounds", type=int, default=2, help="times each fault is inflicted")
    ap.add_argument("--faults", default=",".join(FAULTS),
                    help="which faults, in order (comma-separated; default all)")
    ap.add_argument("--move-within", type=float, default=10.0,
                    help="every table must move again within this many s of a fault's end")
    ap.add_argument("--back-within", type=float, default=15.0,
                    help="every client must have a state again within this many s")
    ap.add_argument("--outage", type=float, default=3.0,
                    help="seconds PostgreSQL stays stopped (db-restart)")
    ap.add_argument("--lease-ttl", type=float, default=3.0, help="golf serve --lease-ttl")
    ap.add_argument("--settle", type=float, default=3.0,
                    help="seconds of plain play between two faults")
    ap.add_argument("--seed", type=int, default=37, help="the people's random moves")
    ap.add_argument("--data-dir", type=Path, default=None,
                    help="the cluster's logs and nginx files (default: a new temp dir)")
    a = ap.parse_args(argv)
    faults = [f for f in a.faults.split(",") if f]
    unknown = set(faults) - set(FAULTS)
    if unknown:
        ap.error(f"unknown faults {sorted(unknown)}; known: {', '.join(FAULTS)}")
    t0 = time.monotonic()
    with open("/proc/loadavg") as f:
        load0 = f.read().split()[0]

    def log(line: str) -> None:
        print(f"[{time.monotonic() - t0:6.1f} s] {line}", flush=True)

    ok, s = soak(a.tables, a.rounds, faults, a.move_within, a.back_within, a.outage,
                 a.lease_ttl, a.settle, a.seed, a.data_dir, log)
    with open("/proc/loadavg") as f:
        load1 = f.read().split()[0]
    print(s.report())
    print(f"{'PASSED' if ok else 'FAILED'} in {time.monotonic() - t0:.0f} s "
          f"(load average {load0} at the start, {load1} at the end)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
