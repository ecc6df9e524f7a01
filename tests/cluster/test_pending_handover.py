"""A hole break's readies survive a handover (issue 29): the process playing a table stops
(SIGTERM: it drains and releases its leases), the clients reconnect through the proxy to
another process, which takes the table over with the break as stored: still waiting for
the person who had not said ``ready``, not for the one who had."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict

import httpx
from harness import Client, ended_a_hole, play_out

from golf.cluster import Cluster, healthy
from golf.server.tables.clocks import HOLE_BREAK

SEATS = [{"kind": "human"}, {"kind": "human"}]


def welcomes(cl: Client) -> int:
    """How many times the client was welcomed (once per connection that said hello)."""
    return sum(f["type"] == "welcome" for f in cl.frames)


def home_of(c: Cluster, table: str, count: int) -> str:
    """The process (``host:port``) nginx routed the table's requests to, once the access
    log has ``count`` lines (nginx writes it after the response)."""
    deadline = time.monotonic() + 10
    while len(c.routed()) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    seen: dict[str, set[str]] = defaultdict(set)
    for _, _, tid, upstream, _ in c.routed():
        if tid:
            seen[tid].add(upstream)
    (home,) = seen[table]
    return home


def test_a_ready_survives_a_handover(cluster3: Cluster) -> None:
    c = cluster3
    logged = len(c.routed())
    r = httpx.post(c.url + "/api/tables", json={
        "name": "Ann", "preset": "six-card", "rules": {"holes": 2}, "seats": SEATS,
        "public": True, "options": {"bot_delay": 0}}, timeout=30)
    assert r.status_code == 201, r.text
    tid, ann_token = r.json()["table"]["id"], r.json()["token"]
    j = httpx.post(f"{c.url}/api/tables/{tid}/join", json={"name": "Bo"}, timeout=30)
    assert j.status_code == 200, j.text
    tokens = [ann_token, j.json()["token"]]
    ws = c.url.replace("http", "ws", 1) + f"/ws?table={tid}"
    victim = -1

    async def run() -> None:
        nonlocal victim
        ann, bob = [await Client(ws, tid, t, reconnect=True).connect() for t in tokens]
        try:
            for cl in (ann, bob):
                await cl.wait(lambda x: x.summary is not None, 30, "the table")
            s = httpx.post(f"{c.url}/api/tables/{tid}/start",
                           headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=30)
            assert s.status_code == 200, s.text
            await play_out([ann, bob], random.Random(5), until=lambda: ann.state is not None
                           and ended_a_hole(ann.state))
            await ann.send({"type": "ready"})
            await ann.wait(lambda x: x.state is not None and any(
                f["type"] == "clock" and (f["clock"] or {}).get("waiting") == [1]
                for f in x.frames), 10, "the break waiting for Bob only")
            home = home_of(c, tid, logged + 3)
            victim = [f"127.0.0.1:{c.port(i)}" for i in range(c.processes)].index(home)
            greeted = [welcomes(ann), welcomes(bob)]
            await asyncio.to_thread(c.terminate, victim)
            for cl, n in zip((ann, bob), greeted, strict=True):
                # Welcomed again, and the new process's state after that welcome.
                await cl.wait(lambda x, n=n: welcomes(x) > n and x.frames[-1]["type"]
                              != "welcome" and any(f["type"] == "state" for f in x.frames[
                                  max(i for i, f in enumerate(x.frames)
                                      if f["type"] == "welcome"):]),
                              30, "the state after the move")
            # Another process holds the table now, and the break as it was stored.
            assert ann.state is not None
            clock = ann.state["clock"]
            assert clock is not None and clock["kind"] == "next_hole", clock
            assert clock["waiting"] == [1]
            asked = asyncio.get_running_loop().time()
            await bob.send({"type": "ready"})
            await ann.wait(lambda x: x.state is not None and
                           (x.state["clock"] or {}).get("kind") != "next_hole",
                           HOLE_BREAK, "the next hole")
            assert asyncio.get_running_loop().time() - asked < HOLE_BREAK / 2
        finally:
            for cl in (ann, bob):
                await cl.close()

    try:
        asyncio.run(run())
    finally:
        if victim >= 0:
            c.restart(victim)
            assert healthy(c.process_urls[victim])
