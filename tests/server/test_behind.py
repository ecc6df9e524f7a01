"""A table whose copy in memory fell behind the database is read again (issue 37).

With leases (PostgreSQL), a move whose ``COMMIT`` succeeded but whose answer was lost (the
statement timeout struck, the connection broke) is refused to its player and the room
goes back to its copy in memory, without the move, while the database holds it. Every
later move of that table then met the stored move's key and was refused with
``try_again``, for as long as the process lived. Now that refusal gives the table up: its
sockets are closed with ``1012 reconnect`` and the next ``hello`` reads it as stored.

The lost answer is made by the test: it stores the move itself, behind the server's back,
exactly as the lost commit would have left it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from harness import Client, ServerProcess

from conftest import make_server


@pytest.fixture
def pg_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    srv = make_server("postgres", tmp_path, request)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_table_behind_the_database_is_read_again(pg_server: ServerProcess) -> None:
    srv = pg_server
    assert srv.db is not None

    async def run() -> None:
        async with httpx.AsyncClient(base_url=srv.base, timeout=30) as http:
            r = await http.post("/api/tables", json={
                "name": "Ann", "preset": "six-card",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                # The bot waits long: only the person's moves happen during the test.
                "options": {"bot_delay": 5}})
            assert r.status_code == 201, r.text
            tid, token = r.json()["table"]["id"], r.json()["token"]
            c = Client(f"{srv.ws_url}?table={tid}", tid, token, reconnect=True)
            await c.connect()
            await c.wait(lambda cl: cl.summary is not None, 30, "the summary")
            r = await http.post(f"/api/tables/{tid}/start",
                                headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
        try:
            await c.wait(lambda cl: cl.state is not None and cl.state["your_turn"], 30,
                         "Ann's turn")
            assert c.state is not None
            v, legal = c.state["version"], c.state["legal_actions"]
            assert len(legal) >= 2
            conn = await asyncpg.connect(srv.db)
            try:
                match_id = await conn.fetchval(
                    "SELECT id FROM golf_matches WHERE table_id = $1 AND number = $2",
                    tid, c.state["match"])
                await conn.execute("INSERT INTO golf_actions (match_id, idx, action, by, at)"
                                   " VALUES ($1, $2, $3, 'player', $4)", match_id, v,
                                   legal[0], time.time())
            finally:
                await conn.close()
            connects = c.connects
            # Ann, not told of the stored move, makes another: refused, and the table is
            # read again; her client reconnects and sees the move as stored.
            await c.act(legal[1], v)
            await c.wait(lambda cl: cl.resynced(connects) and cl.version > v, 30,
                         "the table as stored after a reconnect")
            assert any(code == 1012 for code, _ in c.closes), c.closes
            assert [e["code"] for e in c.errors] == ["try_again"], c.errors
            # And it plays on from there.
            await c.wait(lambda cl: cl.state is not None and cl.state["your_turn"], 30,
                         "Ann's next turn")
            assert c.state is not None
            before = c.version
            await c.act(c.state["legal_actions"][0], before)
            await c.wait(lambda cl: cl.version > before, 30, "her next move stored")
        finally:
            await c.close()

    asyncio.run(run())
