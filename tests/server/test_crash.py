"""Crash and restart: kill -9 mid-hole, start again, every table goes on identically and
its clients reconnect by themselves; SIGTERM drains with a 'reconnect' goodbye."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from harness import Client, ServerProcess, play_out
from leaks import Truth, check


async def tables(server: ServerProcess, n: int) -> list[tuple[str, list[Client]]]:
    out = []
    presets = ["six-card", "german", "four-card-wild", "nine-card"]
    for i in range(n):
        t, tokens = server.table_with_people(presets[i % len(presets)], people=2,
                                             rules={"holes": 2})
        tid = t["table"]["id"]
        clients = [await Client(server.ws_url, tid, tok, reconnect=True).connect()
                   for tok in tokens]
        for c in clients:
            await c.wait(lambda c: c.summary is not None)
        server.start_table(tid, tokens[0])
        for c in clients:
            await c.wait(lambda c: c.state is not None)
        out.append((tid, clients))
    return out


async def settle(clients: list[Client]) -> None:
    """Wait until every client has the same latest version and it is a person's turn."""
    async def quiet() -> None:
        while True:
            versions = {c.version for c in clients}
            turn = any(c.state["your_turn"] for c in clients)
            if len(versions) == 1 and turn:
                await asyncio.sleep(0.2)
                if {c.version for c in clients} == versions:
                    return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(quiet(), 20)


def snapshot(clients: list[Client]) -> list[dict[str, Any]]:
    return [{"version": c.state["version"], "view": c.state["view"],
             "legal": c.state["legal_actions"]} for c in clients]


@pytest.mark.slow
def test_kill_9_mid_hole_and_restart_continues_every_table(fresh_server: ServerProcess) -> None:
    server = fresh_server

    async def run() -> None:
        server.start()
        live = await tables(server, 3)
        rng = random.Random(21)
        for i, (_, clients) in enumerate(live):
            target = 8 + 5 * i
            await play_out(clients, rng, until=lambda c=clients, t=target: all(
                x.version >= t for x in c) and any(x.state["your_turn"] for x in c))
            await settle(clients)
        # Leave one table holding a card drawn from the stock (a hidden card in flight).
        _, first = live[0]
        mover = next(c for c in first if c.state["your_turn"])
        if "draw" in mover.state["legal_actions"]:
            await mover.act("draw")
            await mover.wait(lambda c: c.state["view"]["phase"] == "hold")
        await settle(first)
        before = [snapshot(clients) for _, clients in live]
        connects = [[c.connects for c in clients] for _, clients in live]
        server.kill()
        server.start()
        for (_, clients), counts in zip(live, connects, strict=True):
            for c, n in zip(clients, counts, strict=True):
                await c.wait(lambda c, n=n: c.resynced(n), timeout=30,
                             what="the client reconnecting by itself")
        after = [snapshot(clients) for _, clients in live]
        assert after == before
        for _, clients in live:
            await play_out(clients, rng)
        for tid, clients in live:
            replay = server.get(f"/api/tables/{tid}/matches/1/replay").json()
            truth = Truth(replay["record"])
            for seat, c in enumerate(clients):
                assert c.over
                assert check(seat, c.frames, c.raw, truth) > 0
            for c in clients:
                await c.close()

    try:
        asyncio.run(run())
    finally:
        server.stop()


@pytest.mark.slow
def test_sigterm_drains_with_reconnect_and_clients_come_back(
        fresh_server: ServerProcess) -> None:
    server = fresh_server

    async def run() -> None:
        server.start()
        ((_tid, clients),) = await tables(server, 1)
        await play_out(clients, random.Random(3), until=lambda: clients[0].version >= 5)
        await settle(clients)
        before = snapshot(clients)
        # uvicorn re-raises SIGTERM once it has shut down cleanly.
        assert server.terminate() in (0, -15)
        for c in clients:
            await c.wait(lambda c: c.closes, what="the socket closing")
            assert c.closes[0] == (1012, "reconnect")
            byes = [f for f in c.frames if f["type"] == "bye"]
            assert byes and byes[-1]["reason"] == "reconnect"
        server.start()
        for c in clients:
            await c.wait(lambda c: c.resynced(1), what="reconnecting")
        assert snapshot(clients) == before
        await play_out(clients, random.Random(4))
        for c in clients:
            await c.close()

    try:
        asyncio.run(run())
    finally:
        server.stop()
