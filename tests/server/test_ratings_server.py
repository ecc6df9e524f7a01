"""Ratings in the server: rated tables, recorded matches, abandons, bots as anchors,
profiles, the rating graph and leaderboards (real server, SQLite and PostgreSQL), and
property tests of the recording service on a real database.

The figures the server answers are computed again here from the stored records (the
replays, the stored rated rows) by the model's own functions or the ``openskill``
package, never taken from the server's answer.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
from harness import Client, ServerProcess, play_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from golf.ratings import (
    MODEL,
    Anchors,
    RatedMatch,
    Rating,
    Seat,
    Variant,
    display_rating,
    placings,
    rate_match,
)
from golf.server.ratings.rating_service import (
    RatedSeat,
    rating_for,
    ratings_of,
    rebuild_ratings,
    record_op,
    stored_matches,
)
from golf.server.storage import db

T = TypeVar("T")
TWO = Variant("six-card", "2")


# --- talking to the server's database --------------------------------------------------

def db_url(server: ServerProcess) -> str:
    return server.db or f"sqlite+aiosqlite:///{server.data_dir / 'golf.db'}"


async def in_db(server: ServerProcess, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    engine = db.make_engine(db_url(server))
    try:
        async with engine.begin() as conn:
            return await work(conn)
    finally:
        await engine.dispose()


def with_db(server: ServerProcess, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
    return asyncio.run(in_db(server, work))


def new_player(server: ServerProcess, name: str, status: str = "active") -> str:
    pid = "p" + secrets.token_hex(8)

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(db.players.insert().values(id=pid, name=name, status=status,
                                                      created=time.time(),
                                                      last_seen=time.time()))

    with_db(server, add)
    return pid


async def seat_player(server: ServerProcess, table: str, position: int, pid: str) -> None:
    """The seat's player profile (what the identity part records when a person sits)."""
    async def put(conn: AsyncConnection) -> None:
        await conn.execute(db.seats.update().where(
            db.seats.c.table_id == table, db.seats.c.position == position
        ).values(player_id=pid))

    await in_db(server, put)


def rows(server: ServerProcess, query: Any) -> list[Any]:
    async def read(conn: AsyncConnection) -> list[Any]:
        return list((await conn.execute(query)).all())

    return with_db(server, read)


def rating_frames(c: Client) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "rating"]


async def play_rated(server: ServerProcess, seats: list[dict[str, Any]],
                     players: list[str], seed: int,
                     leave: int | None = None, options: dict[str, Any] | None = None
                     ) -> tuple[str, list[Client]]:
    """Create a rated six-card table with ``seats``, sit ``players`` (profiles) in the
    person seats, play it out with random legal moves; with ``leave``, that person
    leaves for good after their first move. Returns the table id and the clients."""
    t = server.create("six-card", seats=seats, rated=True, options=options)
    tid = t["table"]["id"]
    tokens = [t["token"]]
    for i in range(1, len(players)):
        r = server.post(f"/api/invites/{t['invite']}/join", {"name": f"P{i}"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    assert t["table"]["rated"] is True and t["table"]["casual_reason"] is None
    clients = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
    await clients[0].wait(lambda c: c.summary is not None, what="the table")
    server.start_table(tid, tokens[0])
    people = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    for position, pid in zip(people, players, strict=True):
        await seat_player(server, tid, position, pid)
    for c in clients:
        await c.wait(lambda c: c.state is not None, what="the first state")
    if leave is not None:
        gone = clients[leave]
        await play_out(clients, random.Random(seed),
                       until=lambda: any(e["seat"] == people[leave] and e["by"] == "player"
                                         for e in gone.events()))
        r = server.post(f"/api/tables/{tid}/leave", token=tokens[leave])
        assert r.status_code == 200, r.text
        await gone.close()
        clients = [c for i, c in enumerate(clients) if i != leave]
    await play_out(clients, random.Random(seed))
    for c in clients:
        await c.wait(lambda c: bool(rating_frames(c)), what="the rating frame")
        await c.close()
    return tid, clients


def stored_result(server: ServerProcess, tid: str) -> dict[str, Any]:
    r = server.get(f"/api/tables/{tid}/matches/1/replay")
    assert r.status_code == 200, r.text
    return dict(r.json()["result"])


# --- rated or casual -------------------------------------------------------------------

def test_a_rated_table_refuses_house_rules_and_unmeasured_bots(server: ServerProcess) -> None:
    base = {"name": "Ann", "preset": "six-card", "rated": True}
    r = server.post("/api/tables", {**base, "rules": {"holes": 3}})
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == "not_rateable" and "house rules" in err["message"]
    assert err["field"] == "rated"
    # The cause as data, for a page to word in its language (issue 38).
    assert err["cause"] == {"reason": "house_rules"}
    # six-card's bots are measured at two players: a third seat leaves them no anchor.
    r = server.post("/api/tables", {**base, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "medium"}]})
    assert r.status_code == 422 and "no measured rating for six-card/3-4" in r.text
    assert r.json()["error"]["cause"] == {"reason": "unmeasured_bot", "bot": "medium",
                                          "variant": "six-card/3-4"}
    r = server.post("/api/tables", {**base, "seats": [
        {"kind": "human"}, {"kind": "external", "name": "Robo"}]})
    assert r.status_code == 422 and "external bot" in r.text
    assert r.json()["error"]["cause"]["bot"] == "external"
    # The same tables are fine as casual ones, and say so.
    casual = server.create("six-card", rules={"holes": 3})
    assert casual["table"]["rated"] is False
    # A rated table's host cannot bring house rules in later.
    rated = server.create("six-card", seats=[{"kind": "human"}, {"kind": "bot"}], rated=True)
    tid = rated["table"]["id"]
    r = httpx_patch(server, f"/api/tables/{tid}", {"rules": {"holes": 2}}, rated["token"])
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_rateable"
    assert server.get(f"/api/tables/{tid}").json()["rules"] == {}


def httpx_patch(server: ServerProcess, path: str, body: Any, token: str) -> Any:
    import httpx

    return httpx.patch(server.base + path, json=body, timeout=30,
                       headers={"Authorization": f"Bearer {token}"})


# --- recording -------------------------------------------------------------------------

def test_a_rated_match_against_a_bot_is_recorded_with_the_bot_as_anchor(
        server: ServerProcess) -> None:
    ann = new_player(server, "Ann")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]
    tid, clients = asyncio.run(play_rated(server, seats, [ann], seed=11))
    frame = rating_frames(clients[0])[0]
    result = stored_result(server, tid)
    # The same update, computed here from the stored result by the model.
    places = placings(result["winners"], result["totals"])
    anchors = Anchors.measured()
    want = rate_match({}, RatedMatch(TWO, (Seat(ann, places[0]),
                                           Seat("medium", places[1], bot=True))), anchors)
    assert frame["rated"] is True and frame["variant"] == "six-card/2"
    assert [s["seat"] for s in frame["seats"]] == [0]
    mine = frame["seats"][0]
    assert mine["player"] == ann and mine["before"] == 900
    assert mine["after"] == want[ann].after.display
    assert mine["delta"] == want[ann].delta and mine["provisional"] is True
    assert mine["passed"] == list(want[ann].passed)
    # Stored: the match, both seats (the bot's without a rating), Ann's new rating.
    seat_rows = rows(server, sa.select(db.rated_seats).order_by(db.rated_seats.c.position))
    mine_rows = [r for r in seat_rows if r.player_id == ann]
    assert len(mine_rows) == 1
    match_id = mine_rows[0].match_id
    bot_row = next(r for r in seat_rows if r.match_id == match_id and r.position == 1)
    assert bot_row.bot == "medium" and bot_row.player_id is None and bot_row.mu_after is None
    assert mine_rows[0].place == places[0] and not mine_rows[0].abandoned
    assert mine_rows[0].mu_after == pytest.approx(want[ann].after.mu)
    stored = rows(server, sa.select(db.ratings).where(db.ratings.c.player_id == ann))
    assert [(r.variant, r.matches, r.abandoned) for r in stored] == [("six-card/2", 1, 0)]
    # The bot's anchor did not move: the next person meets the same fixed rating.
    assert anchors.fixed(TWO, "medium") == Anchors.measured().fixed(TWO, "medium")
    # The table can fetch the same changes again.
    again = server.get(f"/api/tables/{tid}/matches/1/ratings").json()
    assert again["seats"][0]["after"] == mine["after"]
    assert again["seats"][0]["matches"] == 1
    profile_checks(server, ann, [tid])


def profile_checks(server: ServerProcess, pid: str, tables: list[str]) -> None:
    """The profile's figures, computed here from the stored replays."""
    prof = server.get(f"/api/players/{pid}").json()
    assert prof["name"] == "Ann"
    games = wins = holes = hole_sum = 0
    best: int | None = None
    for tid in tables:
        result = stored_result(server, tid)
        games += 1
        wins += 0 in result["winners"]
        for h in result["hole_scores"]:
            holes += 1
            hole_sum += h[0]
            best = h[0] if best is None else min(best, h[0])
    (row,) = prof["variants"]
    assert row["variant"] == "six-card/2"
    assert (row["games"], row["wins"], row["best_hole"]) == (games, wins, best)
    assert row["average_hole"] == pytest.approx(hole_sum / holes)
    assert row["win_rate"] == pytest.approx(wins / games)
    assert row["rating"]["provisional"] is True and row["rating"]["matches"] == games
    assert prof["completion_rate"] == 1.0
    assert [m["replay"] for m in prof["recent"]] == [f"/replay/{t}/1" for t in tables]
    (h2h,) = prof["head_to_head"]
    assert h2h["opponent"]["bot"] == "medium" and h2h["matches"] == games
    assert h2h["wins"] + h2h["losses"] + h2h["ties"] == games
    # Public figures only: nothing of seats' tokens or sessions.
    text = server.get(f"/api/players/{pid}").text
    assert "token" not in text and "secret" not in text
    svg = server.get(f"/api/players/{pid}/rating.svg?lang=de")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert "<title" in svg.text and "<desc" in svg.text and "Wertung von" in svg.text
    assert svg.text.count("<polyline") == 1
    assert server.get("/api/players/nobody").json()["error"]["code"] == "no_player"


def test_a_player_who_leaves_a_rated_match_counts_last(server: ServerProcess) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    seats = [{"kind": "human"}, {"kind": "human"}]
    # Bob leaves for good after his first move; a stand-in finishes for him.
    _, clients = asyncio.run(play_rated(server, seats, [ann, bob], seed=5, leave=1))
    frame = rating_frames(clients[0])[0]
    got = {s["player"]: s for s in frame["seats"]}
    want = rate_match({}, RatedMatch(TWO, (Seat(ann, 1), Seat(bob, 0, abandoned=True))),
                      Anchors.measured())
    # Bob is last whatever the cards said: the update is the one of Ann winning.
    assert got[bob]["after"] == want[bob].after.display < 900
    assert got[ann]["after"] == want[ann].after.display > 900
    stored = {r.player_id: r for r in rows(server, sa.select(db.ratings).where(
        db.ratings.c.player_id.in_((ann, bob))))}
    assert (stored[bob].matches, stored[bob].abandoned) == (1, 1)
    assert (stored[ann].matches, stored[ann].abandoned) == (1, 0)
    assert server.get(f"/api/players/{bob}").json()["completion_rate"] == 0.0
    bob_seat = rows(server, sa.select(db.rated_seats).where(db.rated_seats.c.player_id == bob))
    assert [r.abandoned for r in bob_seat] == [True]


def test_a_player_the_absence_policy_ends_the_match_for_counts_last(
        server: ServerProcess) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")

    async def go() -> tuple[str, Client]:
        t = server.create("six-card", seats=[{"kind": "human"}, {"kind": "human"}],
                          rated=True, options={"absence": "end", "grace": 1})
        tid = t["table"]["id"]
        r = server.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"})
        assert r.status_code == 200, r.text
        a = await Client(server.ws_url, tid, t["token"]).connect()
        b = await Client(server.ws_url, tid, r.json()["token"]).connect()
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, t["token"])
        await seat_player(server, tid, 0, ann)
        await seat_player(server, tid, 1, bob)
        for c in (a, b):
            await c.wait(lambda c: c.state is not None, what="the first state")
        # Bob's connection is lost for good; Ann plays on until it is Bob's turn and
        # his grace runs out: the match ends, and Bob is rated last.
        await b.drop()
        await play_out([a], random.Random(2), until=lambda: a.summary is not None
                       and a.summary["status"] == "ended")
        await a.wait(lambda c: bool(rating_frames(c)), what="the rating frame")
        await a.close()
        await b.close()
        return tid, a

    _, a = asyncio.run(go())
    frame = rating_frames(a)[0]
    got = {x["player"]: x for x in frame["seats"]}
    want = rate_match({}, RatedMatch(TWO, (Seat(ann, 0), Seat(bob, 0, abandoned=True))),
                      Anchors.measured())
    assert got[bob]["after"] == want[bob].after.display
    assert got[ann]["after"] == want[ann].after.display
    stored = rows(server, sa.select(db.rated_seats.c.player_id, db.rated_seats.c.abandoned)
                  .where(db.rated_seats.c.player_id.in_((ann, bob))))
    assert sorted(stored) == sorted([(ann, False), (bob, True)])


def test_why_a_rated_table_or_match_is_casual_comes_as_data_too(
        server: ServerProcess) -> None:
    """The summary's casual_cause and the rating frame's cause: what the sentences say, for
    a page to word in its own language (issue 38)."""
    t = server.create("six-card", seats=[{"kind": "human"}, {"kind": "bot"}], rated=True)
    tid, token = t["table"]["id"], t["token"]
    assert t["table"]["casual_cause"] is None
    # A third seat: six-card's bots are measured at two players only.
    r = server.post(f"/api/tables/{tid}/seats", {"kind": "bot", "bot": "medium"}, token=token)
    assert r.status_code == 200, r.text
    summary = server.get(f"/api/tables/{tid}").json()
    assert "no measured rating" in summary["casual_reason"]
    assert summary["casual_cause"] == {"reason": "unmeasured_bot", "bot": "medium",
                                       "variant": "six-card/3-4"}
    r = httpx.delete(f"{server.base}/api/tables/{tid}/seats/2",
                     headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    summary = server.get(f"/api/tables/{tid}").json()
    assert summary["casual_reason"] is None and summary["casual_cause"] is None

    async def go() -> Client:
        c = await Client(server.ws_url, tid, token).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, token)
        await c.wait(lambda c: c.state is not None, what="the state")

        async def no_profile(conn: AsyncConnection) -> None:  # a seat from before profiles
            await conn.execute(db.seats.update().where(
                db.seats.c.table_id == tid, db.seats.c.position == 0).values(player_id=None))

        await in_db(server, no_profile)
        await play_out([c], random.Random(5))
        await c.wait(lambda c: bool(rating_frames(c)), what="the rating frame")
        await c.close()
        return c

    # Seat 0 lost its player profile: the match is not rated, and the frame says why.
    (frame,) = rating_frames(asyncio.run(go()))
    assert frame["rated"] is False and "no player profile" in frame["reason"]
    assert frame["cause"] == {"reason": "no_profile", "seat": 0}


def test_a_casual_table_is_not_rated(server: ServerProcess) -> None:
    ann = new_player(server, "Ann")

    async def go() -> list[Client]:
        t = server.create("six-card", seats=[{"kind": "human"}, {"kind": "bot"}],
                          rules={"holes": 1})
        tid = t["table"]["id"]
        c = await Client(server.ws_url, tid, t["token"]).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, t["token"])
        await seat_player(server, tid, 0, ann)
        await c.wait(lambda c: c.state is not None, what="the state")
        await play_out([c], random.Random(3))
        await asyncio.sleep(0.3)
        await c.close()
        return [c]

    (c,) = asyncio.run(go())
    assert rating_frames(c) == []
    assert rows(server, sa.select(db.ratings).where(db.ratings.c.player_id == ann)) == []


# --- leaderboards ----------------------------------------------------------------------

def test_leaderboard_pages_and_the_viewers_position(server: ServerProcess) -> None:
    rng = random.Random(4)
    made: list[tuple[str, float, float, int, str]] = []
    # A variant of its own, so other tests' players do not enter this board.
    key = "german/5+"

    async def fill(conn: AsyncConnection) -> None:
        for i in range(47):
            pid = f"lb{i:02d}" + secrets.token_hex(3)
            status = "deleted" if i == 5 else "active"
            matches = 9 if i % 10 == 3 else rng.randint(10, 60)
            mu, sigma = rng.uniform(15, 35), rng.uniform(1.0, 6.0)
            await conn.execute(db.players.insert().values(
                id=pid, name=f"N{i}", status=status, created=0, last_seen=0))
            await conn.execute(db.ratings.insert().values(
                player_id=pid, variant=key, mu=mu, sigma=sigma, matches=matches,
                abandoned=0, updated=0))
            made.append((pid, mu, sigma, matches, status))

    with_db(server, fill)
    eligible = [m for m in made if m[3] >= 10 and m[4] == "active"]
    order = sorted(eligible, key=lambda m: (-display_rating(m[1], m[2]), -(m[1] - 3 * m[2]),
                                            m[0]))
    got: list[str] = []
    page = 1
    while True:
        r = server.get(f"/api/leaderboards/german/5+?page={page}")
        assert r.status_code == 200, r.text
        body = r.json()
        got += [row["player"] for row in body["rows"]]
        assert len(body["rows"]) <= body["per_page"]
        if page == body["pages"]:
            break
        page += 1
    assert got == [m[0] for m in order]
    assert body["total"] == len(eligible) and page == -(-len(eligible) // 20)
    # The viewer's own position, wherever it is.
    me = order[27][0]
    body = server.get(f"/api/leaderboards/german/5+?me={me}").json()
    assert body["me"]["rank"] == 28 and body["me"]["page"] == 2
    assert me not in [row["player"] for row in body["rows"]]
    # A viewer with too few matches sees their rating and what is missing.
    few = next(m for m in made if m[3] == 9)
    body = server.get(f"/api/leaderboards/german/5+?me={few[0]}").json()
    assert body["me"]["rank"] is None and body["me"]["needed"] == 1
    past = server.get(f"/api/leaderboards/german/5+?page={page + 1}").json()
    assert past["rows"] == [] and past["pages"] == page and past["page"] == page + 1
    for bad_page in ("0", "-1", str(2**63), "x"):
        bad = server.get(f"/api/leaderboards/german/5+?page={bad_page}")
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "page", bad_page
    assert server.get("/api/leaderboards/german/9").json()["error"]["code"] == "bad_variant"
    assert server.get("/api/leaderboards/nope/2").status_code == 404
    bots = server.get("/api/leaderboards/six-card/2").json()["bots"]
    assert [b["rating"] for b in bots] == sorted((b["rating"] for b in bots), reverse=True)
    assert {b["bot"] for b in bots} >= {"medium", "easy"}


# --- the recording service on a real database (property tests) ------------------------

def fresh_engine() -> AsyncEngine:
    where = Path(tempfile.mkdtemp(prefix="golf-ratings-")) / "golf.db"
    return db.make_engine(f"sqlite+aiosqlite:///{where}")


async def setup(engine: AsyncEngine, people: list[str], matches: int) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(db.metadata.create_all)
        for p in people:
            await conn.execute(db.players.insert().values(id=p, name=p, created=0,
                                                          last_seen=0))
        await conn.execute(db.tables.insert().values(
            id="t", title="t", status="finished", preset="six-card", overrides={},
            public=False, options={}, host=0, invite="i", match=matches, created=0))
        for n in range(1, matches + 1):
            await conn.execute(db.matches.insert().values(
                id=n, table_id="t", number=n, status="finished", rules={}, players=2,
                seed="1", names=[], result=None, started=0, finished=n))


PEOPLE = ["ann", "bob", "cy", "dee"]
#: A two-player match: two distinct seats (a person or the medium bot, never two bots),
#: each seat's total, and whether the first seat abandoned.
two_player = st.tuples(
    st.lists(st.sampled_from([*PEOPLE, "medium"]), min_size=2, max_size=2, unique=True)
    .filter(lambda s: s != ["medium", "medium"]),
    st.lists(st.integers(-10, 60), min_size=2, max_size=2), st.booleans())


def seats_of(who: list[str], abandoned: bool) -> list[RatedSeat]:
    return [RatedSeat(i, None if w == "medium" else w, "medium" if w == "medium" else None,
                      abandoned and i == 0 and w != "medium") for i, w in enumerate(who)]


def result_of(totals: list[int]) -> dict[str, Any]:
    low = min(totals)
    return {"totals": totals, "winners": [i for i, t in enumerate(totals) if t == low]}


async def record_all(engine: AsyncEngine, games: list[Any]) -> list[list[Any]]:
    out = []
    for n, (who, totals, abandoned) in enumerate(games, start=1):
        async with engine.begin() as conn:
            out.append(await record_op(n, TWO, seats_of(who, abandoned), result_of(totals),
                                       finished=float(n))(conn))
    return out


PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.lists(two_player, min_size=1, max_size=12))
def test_a_winner_never_loses_rating_to_a_loser(games: list[Any]) -> None:
    async def run() -> None:
        engine = fresh_engine()
        try:
            await setup(engine, PEOPLE, len(games))
            changes = await record_all(engine, games)
        finally:
            await engine.dispose()
        for (who, totals, abandoned), done in zip(games, changes, strict=True):
            by_seat = {c.position: c.change for c in done}
            result = result_of(totals)
            places = placings(result["winners"], result["totals"])
            if abandoned and who[0] != "medium":
                places = [1, 0]  # the abandoner is last
            if places[0] == places[1]:
                continue
            win, lose = (0, 1) if places[0] < places[1] else (1, 0)
            if win in by_seat:
                assert by_seat[win].delta >= 0
            if lose in by_seat:
                assert by_seat[lose].after.mu <= by_seat[lose].before.mu
            if win in by_seat and lose in by_seat:
                assert by_seat[win].after.mu - by_seat[win].before.mu >= 0
                assert by_seat[win].delta >= by_seat[lose].delta

    asyncio.run(run())


@PROPERTY
@given(st.lists(two_player, min_size=1, max_size=12))
def test_ratings_are_the_same_after_a_rebuild(games: list[Any]) -> None:
    async def run() -> None:
        engine = fresh_engine()
        try:
            await setup(engine, PEOPLE, len(games))
            await record_all(engine, games)
            before = {p: await ratings_of(engine, p) for p in PEOPLE}
            seats_before = rows_of(await all_seats(engine))
            assert await rebuild_ratings(engine) == len(games)
            after = {p: await ratings_of(engine, p) for p in PEOPLE}
            assert after == before
            assert rows_of(await all_seats(engine)) == seats_before
            # One read agrees with the other.
            for p in PEOPLE:
                assert await rating_for(engine, p, "six-card/2") == \
                    before[p].get("six-card/2", Rating())
        finally:
            await engine.dispose()

    asyncio.run(run())


async def all_seats(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(sa.select(db.rated_seats).order_by(
            db.rated_seats.c.match_id, db.rated_seats.c.position))).all())


def rows_of(found: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in found]


@PROPERTY
@given(st.lists(two_player, min_size=1, max_size=10))
def test_recorded_updates_are_openskills_own(games: list[Any]) -> None:
    """Each stored update equals what the openskill package computes from the stored
    before-ratings, places and the bot's anchor."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(**{k: v for k, v in MODEL.items()})
    anchor = Anchors.measured().fixed(TWO, "medium")
    assert anchor is not None

    async def run() -> None:
        engine = fresh_engine()
        try:
            await setup(engine, PEOPLE, len(games))
            await record_all(engine, games)
            matches = await stored_matches(engine)
            seat_rows = await all_seats(engine)
        finally:
            await engine.dispose()
        assert len(matches) == len(games)
        for match_id, _, match in matches:
            mine = [r for r in seat_rows if r.match_id == match_id]
            teams = [[model.rating(mu=anchor.mu, sigma=anchor.sigma)] if r.bot else
                     [model.rating(mu=r.mu_before, sigma=r.sigma_before)] for r in mine]
            ranks = [(1 if r.abandoned else 0, r.place if not r.abandoned else 0)
                     for r in mine]
            dense = sorted(set(ranks))
            rated = model.rate(teams, ranks=[dense.index(k) for k in ranks])
            for r, team in zip(mine, rated, strict=True):
                if r.bot:
                    continue
                assert r.mu_after == pytest.approx(team[0].mu, abs=1e-9)
                assert r.sigma_after == pytest.approx(team[0].sigma, abs=1e-9)
            assert {s.player for s in match.seats} == {r.player_id or r.bot for r in mine}

    asyncio.run(run())
