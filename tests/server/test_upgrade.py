"""The upgrade: a database made by the previous release (the server of commit
``PREVIOUS``, before players, ratings and quick play: schema 0002) keeps its tables,
seats, chat and replays after this release's server migrates it to the newest schema,
on SQLite and PostgreSQL.

The previous release is the real one: its ``src`` as ``git archive 21d48ae src`` made it
(kept in tests/data, so that a shallow clone without that commit runs the test too) is
run as a ``golf serve`` process; this release's server then starts on the same database.
"""

from __future__ import annotations

import asyncio
import random
import tarfile
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from harness import Client, ServerProcess, play_out

from conftest import ROOT, fresh_database
from golf.server.storage import db

#: The last commit of the release before this one (its newest migration is 0002).
PREVIOUS = "21d48ae"


#: ``git archive --format=tar 21d48ae src | xz -9``: the previous release's source.
SOURCE = ROOT / "tests" / "data" / f"release-{PREVIOUS}-src.tar.xz"


def previous_release(where: Path) -> Path:
    """The previous release's ``src`` directory."""
    with tarfile.open(SOURCE) as tar:
        tar.extractall(where, filter="data")
    return where / "src"


def head_revision() -> str | None:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


async def revision(url: str) -> str | None:
    engine = db.make_engine(url)
    try:
        async with engine.connect() as conn:
            return await db.schema_version(conn)
    finally:
        await engine.dispose()


async def seat_rows(url: str, table: str) -> list[dict[str, Any]]:
    engine = db.make_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.select(db.seats).where(
                db.seats.c.table_id == table).order_by(db.seats.c.position))).mappings()
            return [dict(r) for r in rows]
    finally:
        await engine.dispose()


async def connected(server: ServerProcess, table: str, token: str) -> Client:
    c = await Client(server.ws_url, table, token).connect()
    await c.wait(lambda c: c.state is not None and c.history is not None)
    return c


async def with_old_release(old: ServerProcess) -> dict[str, Any]:
    """Tables of every kind, made and played by the previous release."""
    rng = random.Random(2)
    out: dict[str, Any] = {}
    # A finished match, with chat.
    t = old.create("six-card", seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                   rules={"holes": 1})
    tid, token = t["table"]["id"], t["token"]
    old.start_table(tid, token)
    c = await connected(old, tid, token)
    await c.send({"type": "chat", "text": "good luck"})
    await c.wait(lambda c: any(f["type"] == "chat" for f in c.frames))
    await play_out([c], rng)
    out["finished"] = (tid, token, list(c.state["view"]["totals"]) if c.state else None)
    await c.close()
    # A running match, a few moves in.
    t, tokens = old.table_with_people("german", people=2, rules={"holes": 2})
    tid = t["table"]["id"]
    old.start_table(tid, tokens[0])
    clients = [await connected(old, tid, tok) for tok in tokens]

    def a_few_moves_in() -> bool:
        return max(c.state["version"] if c.state else 0 for c in clients) >= 6

    await play_out(clients, rng, until=a_few_moves_in)
    await asyncio.sleep(0.3)
    out["running"] = (tid, tokens, max(c.state["version"] for c in clients if c.state))
    for c in clients:
        await c.close()
    # A table waiting for a person, with its invite.
    t = old.create("nine-card", seats=[{"kind": "human"}, {"kind": "human"}])
    out["waiting"] = (t["table"]["id"], t["token"], t["invite"])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_database_of_the_previous_release_keeps_working_after_the_upgrade(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = (fresh_database(request.getfixturevalue("postgres_url")) if backend == "postgres"
           else None)
    data = tmp_path / "data"
    data.mkdir()
    old_src = previous_release(tmp_path / "old")
    old = ServerProcess(data, url)
    with monkeypatch.context() as m:
        m.setenv("PYTHONPATH", str(old_src))
        old.start()
    try:
        made = asyncio.run(with_old_release(old))
    finally:
        old.stop()
    db_url = url or db.default_url(data)
    assert asyncio.run(revision(db_url)) == "0002"

    new = ServerProcess(data, url)
    new.start()
    try:
        asyncio.run(check_after_upgrade(new, made, db_url))
    finally:
        new.stop()


async def check_after_upgrade(new: ServerProcess, made: dict[str, Any], url: str) -> None:
    assert await revision(url) == head_revision()
    # The finished table: its summary, its replay, its chat.
    tid, token, scores = made["finished"]
    summary = new.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished"
    assert [m["match"] for m in summary["matches"]] == [1]
    replay = new.get(f"/api/tables/{tid}/matches/1/replay").json()
    assert replay["names"][1] == "Easy bot"
    last = new.get(f"/api/tables/{tid}/matches/1/replay/{replay['length']}").json()
    assert last["view"]["is_over"] and list(last["view"]["totals"]) == scores
    c = await connected(new, tid, token)
    assert [x["text"] for x in c.history["chat"]] == ["good luck"]
    assert c.welcome is not None and c.welcome["seat"] == 0
    await c.close()
    # Old seats hold no player; old tables are casual.
    assert [s["player_id"] for s in await seat_rows(url, tid)] == [None, None]
    # The running table goes on from where it was, to its end.
    tid, tokens, version = made["running"]
    clients = [await connected(new, tid, tok) for tok in tokens]
    assert {c.state["version"] for c in clients if c.state} == {version}
    await play_out(clients, random.Random(3))
    assert all(c.state and c.state["view"]["is_over"] for c in clients)
    for c in clients:
        await c.close()
    assert new.get(f"/api/tables/{tid}/matches/1/replay").status_code == 200
    # The waiting table takes a new person, who is now recorded with their profile.
    tid, token, invite = made["waiting"]
    r = new.post(f"/api/invites/{invite}/join", {"name": "Late"})
    assert r.status_code == 200, r.text
    seats = await seat_rows(url, tid)
    assert seats[0]["player_id"] is None and seats[1]["player_id"] is not None
    new.start_table(tid, token)
    assert new.get(f"/api/tables/{tid}").json()["status"] == "playing"
