"""Names a person can tell apart (issue 29): bots of one level are numbered at a table
and every reader agrees; a guest is shown by the name they played under on profiles,
leaderboards, blocks and in ``golf admin reports`` (which also shows usernames); a
signed-in player's second browser gets the lobby's unfinished tables and the name, and
the browser that lost the seat is told so by a reason of its own."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from harness import Client, ServerProcess, play_out
from test_accounts import (  # noqa: F401  (browsers: the fixture)
    PASSWORD,
    Browser,
    browsers,
    claimed,
    new_browser,
    socket_closed_by,
    unique,
)

from golf.admin import run_action
from golf.ratings import PROVISIONAL_MATCHES, Anchors, Variant
from golf.rules import load_rules
from golf.server.moderation.care import Care
from golf.server.ratings import leaderboards, names, profiles
from golf.server.storage import db

# --- bots of one level are numbered ----------------------------------------------------

def send(server: ServerProcess, method: str, path: str, body: Any = None,
         token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.request(method, server.base + path, json=body, headers=headers, timeout=30)



def test_bots_of_one_level_are_numbered_and_every_reader_agrees(
        server: ServerProcess) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "hard"},
             {"kind": "bot", "bot": "easy"}]
    t = server.create("six-card", seats=seats, rules={"holes": 1})
    tid, token = t["table"]["id"], t["token"]

    def shown() -> list[tuple[str | None, int | None]]:
        summary = server.get(f"/api/tables/{tid}").json()
        return [(s["name"], s["bot_number"]) for s in summary["seats"]]

    assert shown() == [("Ann", None), ("Easy bot", 1), ("Hard bot", 1), ("Easy bot 2", 2)]
    # A seat added, changed or removed: the numbers follow the seats' order.
    r = server.post(f"/api/tables/{tid}/seats", {"kind": "bot", "bot": "easy"}, token=token)
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"]][4] == "Easy bot 3"
    r = send(server, "DELETE", f"/api/tables/{tid}/seats/1", token=token)
    assert r.status_code == 200, r.text
    assert shown() == [("Ann", None), ("Hard bot", 1), ("Easy bot", 1), ("Easy bot 2", 2)]
    r = send(server, "PUT", f"/api/tables/{tid}/seats/1", {"kind": "bot", "bot": "easy"},
             token=token)
    assert r.status_code == 200, r.text
    assert shown() == [("Ann", None), ("Easy bot", 1), ("Easy bot 2", 2), ("Easy bot 3", 3)]
    # The table frame and the replay (the match's stored names, which profiles' histories
    # read too) name the bots alike.

    async def run() -> None:
        c = await Client(server.ws_url, tid, token).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        assert [s["name"] for s in c.summary["seats"]][1:] == \
            ["Easy bot", "Easy bot 2", "Easy bot 3"]
        server.start_table(tid, token)
        await c.wait(lambda c: c.state is not None, what="the first state")
        await play_out([c], random.Random(2))
        await c.close()

    asyncio.run(run())
    info = server.get(f"/api/tables/{tid}/matches/1/replay").json()
    assert info["names"] == ["Ann", "Easy bot", "Easy bot 2", "Easy bot 3"]


def test_a_person_named_like_a_bot_keeps_the_bots_apart(server: ServerProcess) -> None:
    t = server.create("six-card", name="Easy bot 2", seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}])
    names = [s["name"] for s in t["table"]["seats"]]
    assert names == ["Easy bot 2", "Easy bot", "Easy bot 3"]
    assert [s["bot_number"] for s in t["table"]["seats"]] == [None, 1, 3]


# --- a guest shows by the name they played under ----------------------------------------

def _url() -> str:
    where = Path(tempfile.mkdtemp(prefix="golf-names-")) / "golf.db"
    return f"sqlite+aiosqlite:///{where}"


async def _guest_world(url: str) -> None:
    """Ann (an account) played a rated match against the guest g1 ("Zed" at that table,
    no profile name) and two easy bots; g1 has a rated record on the leaderboard."""
    engine = db.make_engine(url)
    await db.migrate(engine)
    rules = load_rules("six-card").to_dict()
    async with engine.begin() as conn:
        for pid, name in (("ann", "Ann"), ("g1", None)):
            await conn.execute(db.players.insert().values(id=pid, name=name, created=0,
                                                          last_seen=0))
        await conn.execute(db.accounts.insert().values(
            player_id="ann", username="ann_k", username_key="ann_k", password_hash="x",
            created=0, password_changed=0))
        await conn.execute(db.tables.insert().values(
            id="t", title="t", status="finished", preset="six-card", overrides={},
            public=False, options={}, host=0, invite="i", match=1, created=0))
        for pos, kind, name, bot, pid in ((0, "human", "Ann", None, "ann"),
                                          (1, "human", "Zed", None, "g1"),
                                          (2, "bot", "Easy bot", "easy", None),
                                          (3, "bot", "Easy bot 2", "easy", None)):
            await conn.execute(db.seats.insert().values(
                table_id="t", position=pos, kind=kind, name=name, bot=bot, bot_seed="1",
                muted=[], player_id=pid))
        await conn.execute(db.matches.insert().values(
            id=1, table_id="t", number=1, status="finished", rules=rules, players=4,
            seed="1", names=["Ann", "Zed", "Easy bot", "Easy bot 2"],
            result={"totals": [5, 9, 20, 30], "winners": [0], "ended": None,
                    "hole_scores": [[5, 9, 20, 30]]}, started=0, finished=1))
        await conn.execute(db.ratings.insert().values(
            player_id="g1", variant=Variant("six-card", "3-4").key, mu=25, sigma=2,
            matches=PROVISIONAL_MATCHES, abandoned=0, updated=0))
    await engine.dispose()


def test_a_guest_shows_by_the_name_they_played_under_everywhere() -> None:
    url = _url()
    asyncio.run(_guest_world(url))

    async def read() -> None:
        engine = db.make_engine(url)
        async with engine.connect() as conn:
            mine = await profiles.profile(conn, "ann")
            assert mine is not None
            opponents = mine.recent[0]["opponents"]
            assert [o["name"] for o in opponents] == ["Zed", "Easy bot", "Easy bot 2"]
            assert opponents[0]["player"] == "g1"
            heads = {h.who.key(): h.who.name for h in mine.head_to_head}
            assert heads["p:g1"] == "Zed" and heads["b:easy"] == "Easy bot"
            board = await leaderboards.leaderboard(conn, Variant("six-card", "3-4"), 1, None,
                                               Anchors())
            assert [r["name"] for r in board.rows] == ["Zed"]
        care = Care(engine)
        await care.block("ann", "g1")
        assert [b["name"] for b in await care.blocked_by("ann")] == ["Zed"]
        await care.report("ann", "g1", "rude")
        (rep,) = await care.reports()
        assert (rep.reported_name, rep.reported_username) == ("Zed", None)
        assert (rep.reporter_name, rep.reporter_username) == ("Ann", "ann_k")
        await engine.dispose()

    asyncio.run(read())
    text = run_action(url, "reports", None)
    assert "about Zed (guest g1)" in text and "by Ann (username ann_k, ann)" in text
    assert "guest" not in text.replace("(guest g1)", "")


# --- a signed-in player's second browser ------------------------------------------------

def test_a_second_browser_gets_the_tables_and_the_name_and_the_first_is_told(
        server: ServerProcess, browsers: list[Browser]) -> None:  # noqa: F811
    name = unique("two")
    home, _ = claimed(browsers, server, name)
    r = home.post("/api/tables", {"name": "Ann Two"})  # no profile name chosen
    assert r.status_code == 201, r.text
    table = r.json()
    tid, old_token = table["table"]["id"], table["token"]
    away = new_browser(browsers, server)
    away.me()
    r = away.post("/api/signin", {"username": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    me = r.json()["me"]
    # The name comes along: the one played under, as the profile shows it.
    assert me["player"]["name"] == "Ann Two"
    assert server.get(f"/api/players/{me['player']['id']}").json()["name"] == "Ann Two"
    # Your own profile: the account menu's link is /players/{id} of GET /api/me.
    page = away.http.get(f"/players/{me['player']['id']}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    # The lobby's unfinished tables agree with the account menu, without a token yet.
    lobby = away.post("/api/my-tables", {"tokens": []}).json()["tables"]
    assert [(t["table"]["id"], t["seat"], t["token"]) for t in lobby] == [(tid, 0, None)]
    assert [t["table_id"] for t in me["tables"]] == [tid]
    # The browser that loses the seat gets a reason of its own, then the close.
    def take_seat() -> Any:
        return away.post(f"/api/me/tables/{tid}/seat")

    closed = socket_closed_by(server, tid, old_token, take_seat)
    assert closed == [(4001, "opened_elsewhere")]
    fresh = away.last_json["token"]
    # Both browsers' lobbies list the table once: the new one by its token, the old one
    # (whose token no longer works) by its player, so it shows no stale seat.
    lobby = away.post("/api/my-tables", {"tokens": [fresh]}).json()["tables"]
    assert [(t["table"]["id"], t["token"]) for t in lobby] == [(tid, fresh)]
    lobby = home.post("/api/my-tables", {"tokens": [old_token]}).json()["tables"]
    assert [(t["table"]["id"], t["token"]) for t in lobby] == [(tid, None)]
    # Someone else's browser finds nothing there.
    stranger = new_browser(browsers, server)
    stranger.me()
    assert stranger.post("/api/my-tables", {"tokens": [old_token]}).json()["tables"] == []


def test_the_bye_before_the_close_says_opened_elsewhere(
        server: ServerProcess, browsers: list[Browser]) -> None:  # noqa: F811
    name = unique("bye")
    home, _ = claimed(browsers, server, name)
    table = home.post("/api/tables", {"name": "Bea"}).json()
    tid = table["table"]["id"]
    away = new_browser(browsers, server)
    away.me()
    assert away.post("/api/signin", {"username": name, "password": PASSWORD}).status_code == 200

    async def run() -> list[dict[str, Any]]:
        c = await Client(server.ws_url, tid, table["token"]).connect()
        await c.wait(lambda x: x.welcome is not None, what="welcome")
        r = await asyncio.to_thread(away.post, f"/api/me/tables/{tid}/seat")
        assert r.status_code == 200, r.text
        await c.wait(lambda x: bool(x.closes), what="the close")
        await c.close()
        return [f for f in c.frames if f["type"] == "bye"]

    (bye,) = asyncio.run(run())
    assert bye["reason"] == "opened_elsewhere" and "another browser" in bye["message"]


def test_no_name_of_a_guest_reads_guest_in_the_database_either() -> None:
    """The helper all readers share: profile name, else the name played under."""
    url = _url()
    asyncio.run(_guest_world(url))

    async def read() -> dict[str, str]:
        engine = db.make_engine(url)
        async with engine.begin() as conn:
            await conn.execute(db.players.insert().values(id="g2", name=None, created=0,
                                                          last_seen=0))
            await conn.execute(sa.update(db.players).where(db.players.c.id == "ann")
                               .values(status="deleted"))
            out = await names.shown_names(conn, ["ann", "g1", "g2"])
        await engine.dispose()
        return out

    assert asyncio.run(read()) == {"ann": names.DELETED, "g1": "Zed", "g2": "guest"}
