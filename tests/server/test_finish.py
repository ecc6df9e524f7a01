"""The end of a hole and of a match at a live table (issue 22): a page asks for its view
again (``sync``)."""

from __future__ import annotations

import asyncio
import random

from harness import Client, ServerProcess, play_out


def test_sync_sends_this_seats_state_again(server: ServerProcess) -> None:
    async def run() -> None:
        t, tokens = server.table_with_people(people=2, preset="german", rules={"holes": 1})
        tid = t["table"]["id"]
        a, b = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await a.wait(lambda c: c.summary is not None, what="the table")
        await a.send({"type": "sync"})
        assert (await a.wait_error(1))["code"] == "not_started"
        server.start_table(tid, tokens[0])
        await play_out([a, b], random.Random(3), until=lambda: a.version >= 5)
        await asyncio.sleep(0.2)
        a.frames.clear()
        await a.send({"type": "sync"})
        await a.wait(lambda c: any(f["type"] == "state" for f in c.frames), what="the state")
        again = next(f for f in a.frames if f["type"] == "state")
        assert again["event"] is None and again["version"] == b.version
        assert again["view"]["seat"] == 0
        # The peeked cards are in the seat's own view (the page decides to forget them).
        peeked = again["view"]["peeked"]
        assert len(peeked) == 2
        assert all(again["view"]["grids"][0][p - 1] is not None for p in peeked
                   if not again["view"]["face_up"][0][p - 1])
        await a.close()
        await b.close()

    asyncio.run(run())
