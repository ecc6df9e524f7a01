"""Hole-break readies and rematch offers survive a restart (issue 29): a ``ready`` or an
offer a process received is stored with the table, so the process that plays the table
next (the same one restarted, or another one of a cluster) goes on from it, on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from harness import Client, ServerProcess, ended_a_hole, play_out

from golf.server.tables.clocks import HOLE_BREAK

BREAK = 6 * HOLE_BREAK


def _people(server: ServerProcess, holes: int) -> tuple[str, list[str]]:
    t, tokens = server.table_with_people("six-card", seats=[{"kind": "human"},
                                                            {"kind": "human"}],
                                         rules={"holes": holes})
    return t["table"]["id"], tokens


async def _seated(server: ServerProcess, tid: str, tokens: list[str]) -> list[Client]:
    clients = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
    for c in clients:
        await c.wait(lambda c: c.welcome is not None and c.history is not None,
                     what="the greeting")
    return clients


def _break_clock(c: Client) -> dict[str, Any] | None:
    """The hole break's countdown as this client last heard it (None: no break runs)."""
    for f in reversed(c.frames):
        if f["type"] in ("clock", "state"):
            clock = f["clock"]
            return clock if clock is not None and clock["kind"] == "next_hole" else None
    return None


def test_a_ready_survives_a_restart(fresh_server: ServerProcess) -> None:
    server = fresh_server
    # A long break: the stop and the start must not outlast it, even on a loaded machine
    # (with the default, a slow restart let the countdown end and the next hole begin).
    server.args += ["--hole-break", str(BREAK)]
    server.start()
    tid, tokens = _people(server, holes=2)

    async def first() -> None:
        ann, bob = await _seated(server, tid, tokens)
        server.start_table(tid, tokens[0])
        await play_out([ann, bob], random.Random(3), until=lambda: ann.state is not None
                       and ended_a_hole(ann.state))
        # Ann closes the hole-end dialog; the break now waits for Bob alone.
        await ann.send({"type": "ready"})
        await ann.wait(lambda c: (_break_clock(c) or {}).get("waiting") == [1],
                       what="the break waiting for Bob only")
        await ann.close()
        await bob.close()

    asyncio.run(first())
    server.stop()  # a clean stop: the break's countdown keeps its wall-clock end
    server.start()

    async def second() -> tuple[float, bool]:
        ann, bob = await _seated(server, tid, tokens)
        assert ann.state is not None
        clock = ann.state["clock"]
        # The restarted server still holds the break, waiting for Bob only (Ann's ready
        # kept).
        assert clock is not None and clock["kind"] == "next_hole", clock
        assert clock["waiting"] == [1]
        # Bob, back, closes his dialog too: the next hole starts at once.
        asked = asyncio.get_running_loop().time()
        await bob.send({"type": "ready"})
        await ann.wait(lambda c: c.state is not None and
                       (c.state["clock"] or {}).get("kind") != "next_hole",
                       timeout=BREAK, what="the next hole")
        took = asyncio.get_running_loop().time() - asked
        for c in (ann, bob):
            await c.wait(lambda c: c.state is not None and
                         (c.state["clock"] or {}).get("kind") != "next_hole",
                         timeout=HOLE_BREAK, what="the next hole")
        on_turn = any(c.state is not None and c.state["your_turn"] for c in (ann, bob))
        await ann.close()
        await bob.close()
        return took, on_turn

    took, on_turn = asyncio.run(second())
    assert took < HOLE_BREAK / 2, took  # at once, not at the end of the long break
    assert on_turn


def test_a_rematch_offer_survives_a_restart(fresh_server: ServerProcess) -> None:
    server = fresh_server
    server.start()
    tid, tokens = _people(server, holes=1)

    async def first() -> None:
        ann, bob = await _seated(server, tid, tokens)
        server.start_table(tid, tokens[0])
        await play_out([ann, bob], random.Random(8))
        await ann.wait(lambda c: c.summary is not None and c.summary["status"] == "finished",
                       what="the match's end")
        await ann.close()
        await bob.close()

    asyncio.run(first())
    r = server.post(f"/api/tables/{tid}/rematch", {"options": {"grace": 90}},
                    token=tokens[0])
    assert r.status_code == 200, r.text
    assert r.json()["rematch"] == {"accepted": [0], "waiting": [1]}
    server.kill()  # even a crash: the offer was stored before it was answered
    server.start()
    summary = server.get(f"/api/tables/{tid}").json()
    assert summary["rematch"] == {"accepted": [0], "waiting": [1]}
    assert summary["options"]["grace"] == 90  # the offer's changes came along
    r = server.post(f"/api/tables/{tid}/rematch/accept", token=tokens[1])
    assert r.status_code == 200, r.text
    after = r.json()
    assert (after["match"], after["status"], after["rematch"]) == (2, "playing", None)


def test_an_abandonment_and_a_bot_in_a_seat_survive_a_restart(
        fresh_server: ServerProcess) -> None:
    server = fresh_server
    server.start()
    t, tokens = server.table_with_people(
        "six-card", people=3, seats=[{"kind": "human"}] * 3, options={"grace": 60})
    tid = t["table"]["id"]
    server.start_table(tid, tokens[0])
    # Cat leaves for good; the host seats a bot for Bob (nobody else left to ask).
    assert server.post(f"/api/tables/{tid}/leave", token=tokens[2]).status_code == 200
    r = server.post(f"/api/tables/{tid}/seats/1/bot", token=tokens[0])
    assert r.status_code == 200, r.text
    server.kill()
    server.start()
    seats = server.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["abandoned"] for s in seats] == [False, True, True]
    assert seats[1]["stand_in"] is True
    # Bob's old token holds no seat any more.
    assert server.post(f"/api/tables/{tid}/here", token=tokens[1]).status_code == 403
