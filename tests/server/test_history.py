"""Nothing forgotten on reload, return or watching: chat is stored with the table (and
survives kill -9), and a (re)joining client gets the last chat lines and the match's
moves so far, rendered for it; a person a stand-in bot played for is told where
"while you were away" starts."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from harness import Client, ServerProcess, play_out
from leaks import Truth, check, check_history
from test_sessions import close_all, seated

from golf.server.core.protocol import CHAT_BURST
from golf.server.storage import db
from golf.server.storage.store import Store
from golf.server.tables.telling import CHAT_HISTORY


async def chat(c: Client, text: str) -> None:
    await c.send({"type": "chat", "text": text})


@pytest.mark.slow
def test_chat_and_moves_come_back_after_kill_9(fresh_server: ServerProcess) -> None:
    server = fresh_server

    async def run() -> None:
        server.start()
        tid, tokens, (a, b) = await seated(server, rules={"holes": 2})
        rng = random.Random(8)
        await play_out([a, b], rng, until=lambda: a.version >= 9 and b.version >= 9)
        await a.send({"type": "mute", "seat": 1, "muted": True})
        await a.wait(lambda c: any(f["type"] == "muted" for f in c.frames))
        for i in range(3):
            await chat(a, f"from a {i}")
            await asyncio.sleep(1.1)  # the chat bucket: 1 line a second after a burst
        await chat(b, "from b")
        await b.wait(lambda c: sum(f["type"] == "chat" for f in c.frames) >= 4,
                     what="the chat lines")
        version = a.version
        await close_all([a, b])
        server.kill()
        server.start()
        # A reload of seat 1, of seat 0 (who muted seat 1) and a spectator joining.
        b2 = await Client(server.ws_url, tid, tokens[1]).connect()
        a2 = await Client(server.ws_url, tid, tokens[0]).connect()
        watcher = await Client(server.ws_url, tid, None).connect()
        for c in (a2, b2, watcher):
            await c.wait(lambda c: c.history is not None, what="the history")
            assert c.history is not None
            assert [e["version"] for e in c.history["log"]] == list(range(1, version + 1))
            assert c.history["away_since"] is None
        assert b2.history is not None and a2.history is not None
        assert watcher.history is not None
        assert [m["text"] for m in b2.history["chat"]] == \
            ["from a 0", "from a 1", "from a 2", "from b"]
        assert [m["text"] for m in watcher.history["chat"]] == \
            ["from a 0", "from a 1", "from a 2", "from b"]
        # Seat 0 muted seat 1: its history leaves seat 1's line out, as the live chat did.
        assert [m["text"] for m in a2.history["chat"]] == ["from a 0", "from a 1", "from a 2"]
        assert all(m["name"] and m["time"] for m in b2.history["chat"])
        await play_out([a2, b2], rng)
        replay = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        truth = Truth(replay["record"])
        for seat, c in ((0, a2), (1, b2), (None, watcher)):
            assert check(seat, c.frames, c.raw, truth) > 0  # history frames included
        await close_all([a2, b2, watcher])

    try:
        asyncio.run(run())
    finally:
        server.stop()


def test_only_the_last_chat_lines_come_back(server: ServerProcess) -> None:
    """More lines than CHAT_HISTORY are sent; a client coming back gets the last ones.

    The chat rate limit is a bucket per connection (CHAT_BURST lines at once), so the
    lines go out in bursts, each from a fresh connection of the same seat, each burst
    seen by the table before the next: every line is accepted, in order, at once."""
    async def run() -> None:
        tid, tokens, clients = await seated(server, people=2, start=False)
        a = clients[0]
        sent = 0
        while sent < CHAT_HISTORY + 3:
            sender = await Client(server.ws_url, tid, tokens[0]).connect()
            await sender.wait(lambda c: c.summary is not None, what="the table")
            burst = min(CHAT_BURST, CHAT_HISTORY + 3 - sent)
            for i in range(sent, sent + burst):
                await chat(sender, f"line {i}")
            sent += burst
            await a.wait(lambda c, n=sent: sum(f["type"] == "chat" for f in c.frames) >= n,
                         what="the burst of chat lines")
            assert not sender.errors, sender.errors  # no line was refused
            await sender.close()
        assert [f["text"] for f in a.frames if f["type"] == "chat"] == \
            [f"line {i}" for i in range(sent)]
        again = await Client(server.ws_url, tid, tokens[1]).connect()
        await again.wait(lambda c: c.history is not None)
        assert again.history is not None
        texts = [m["text"] for m in again.history["chat"]]
        assert texts == [f"line {i}" for i in range(sent - CHAT_HISTORY, sent)]
        assert again.history["log"] == [] and again.history["match"] is None
        await close_all([*clients, again])

    asyncio.run(run())


@pytest.mark.slow
def test_a_person_back_after_a_stand_in_sees_while_you_were_away(
        server: ServerProcess) -> None:
    async def run() -> None:
        tid, tokens, (a, b) = await seated(server, rules={"holes": 1},
                                           options={"absence": "bot", "grace": 1})
        rng = random.Random(4)
        await play_out([a, b], rng,
                       until=lambda: a.state["view"]["current_player"] == 1 and a.version > 4)
        last_own = a.version  # seat 1's own moves end here
        await b.drop()
        await a.wait(lambda c: any(e["by"] == "stand_in" for e in c.events()), timeout=15,
                     what="a stand-in move")
        back = await Client(server.ws_url, tid, tokens[1]).connect()
        await back.wait(lambda c: c.history is not None)
        h = back.history
        assert h is not None and h["away_since"] is not None
        assert h["away_since"] <= last_own
        missed = [e for e in h["log"] if e["version"] > h["away_since"]]
        assert any(e["event"]["by"] == "stand_in" and e["event"]["seat"] == 1 for e in missed)
        # The others are never told where someone was away.
        fresh = await Client(server.ws_url, tid, tokens[0]).connect()
        await fresh.wait(lambda c: c.history is not None)
        assert fresh.history is not None and fresh.history["away_since"] is None
        await play_out([a, back], rng)
        truth = Truth(server.get(f"/api/tables/{tid}/matches/1/replay").json()["record"])
        check_history(1, h, truth)
        await close_all([a, b, back, fresh])

    asyncio.run(run())


def head_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def test_tables_of_the_first_schema_keep_working(tmp_path: Path) -> None:
    """A database written by the release before chat (migration 0001) is upgraded in place:
    its tables load, and chat is stored from then on."""
    from alembic import command
    from alembic.config import Config

    url = f"sqlite+aiosqlite:///{tmp_path / 'golf.db'}"

    def upgrade_to(conn: sa.Connection, revision: str) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(db.MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)

    async def run() -> None:
        engine = db.make_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(upgrade_to, "0001")
            assert await db.schema_version(conn) == "0001"
            # The rows as the first release wrote them: its columns only (the current
            # store writes columns that later migrations added).
            await conn.execute(sa.text(
                "INSERT INTO golf_tables (id, title, status, preset, overrides, public, "
                "options, host, invite, match, created) VALUES ('t1', 'Old table', "
                "'waiting', 'six-card', '{}', 0, '{}', 0, 'inv1', 0, :now)"),
                {"now": time.time()})
            await conn.execute(sa.text(
                "INSERT INTO golf_seats (table_id, position, kind, name, bot, token_hash, "
                "bot_seed, muted) VALUES ('t1', 0, 'human', 'Ann', NULL, 'h0', '1', '[]')"))
        await engine.dispose()
        engine = db.make_engine(url)
        await db.migrate(engine)
        async with engine.connect() as conn:
            assert await db.schema_version(conn) == head_revision()
        store = Store(engine)
        loaded = await store.load("t1")
        assert loaded is not None and loaded.title == "Old table"
        # Older seats have no player and older tables are casual.
        assert [(x.name, x.player_id) for x in loaded.seats] == [("Ann", None)]
        assert loaded.rated is False
        assert await store.recent_chat("t1", 50) == []
        await store.add_chat("t1", 0, "Ann", "hello", 1234)
        assert await store.recent_chat("t1", 50) == \
            [{"seat": 0, "name": "Ann", "text": "hello", "time": 1234}]
        await store.close()

    asyncio.run(run())


@pytest.mark.slow
def test_the_absence_clock_survives_a_restart_with_the_time_left(
        fresh_server: ServerProcess) -> None:
    """The away seat's grace goes on from what was left: not reset by the restart, and
    the time the server was down is nobody's."""
    server = fresh_server
    grace = 14.0

    async def run() -> None:
        server.start()
        _tid, _tokens, clients = await seated(
            server, options={"absence": "wait", "grace": grace, "turn_timer": None})
        for c in clients:
            c.reconnect = True
        mover = clients[clients[0].state["view"]["current_player"]]
        other = next(c for c in clients if c is not mover)
        await mover.close()
        await other.wait(lambda c: c.state is not None and c.summary["seats"][
            mover.welcome["seat"]]["away"], what="the seat away")
        away_at = time.monotonic()
        # 3 s of grace spent, 2.5 s down: each well beyond the 0.5 s and 1 s the check
        # below allows, so a reset clock and one that counted the downtime both fail it.
        await asyncio.sleep(3)
        spent = time.monotonic() - away_at  # at least this much grace is gone
        connects = other.connects
        assert server.terminate() in (0, -15)
        await asyncio.sleep(2.5)  # downtime: it must not count
        started = time.monotonic()
        server.start()
        await other.wait(lambda c: c.resynced(connects), timeout=30, what="reconnecting")
        await other.wait(lambda c: any(f["type"] in ("state", "clock") and f.get("clock")
                                       for f in c.frames[-3:]), what="the clock")
        clock = next(f["clock"] for f in reversed(other.frames)
                     if f["type"] in ("state", "clock") and f.get("clock"))
        after = time.monotonic() - started  # the most that can have passed since the load
        left = clock["remaining"] / 1000
        assert clock["kind"] == "absence"
        # Right is about 11 s; reset about 14 s, counting the downtime at most 8.5 s.
        assert grace - spent - after - 1.0 <= left <= grace - spent + 0.5, (left, spent, after)
        await close_all(clients)

    try:
        asyncio.run(run())
    finally:
        server.stop()
