"""Quick play: matching by rating, the widening window, blocks, bots filling, leaving,
and two server "processes" (two hubs on one PostgreSQL) matching people who arrived
through different ones.

The service tests run the real service on real databases (SQLite and PostgreSQL) with
a clock the test moves; the rule's pure parts have property tests.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from harness import Client, ServerProcess
from hypothesis import given, settings
from hypothesis import strategies as st
from test_accounts import Browser

from conftest import fresh_database, make_server
from golf.ratings import Anchors, Rating, Variant
from golf.server.core.protocol import ProtocolError
from golf.server.core.tokens import hash_token
from golf.server.matchmaking.matching import (
    WINDOW_EVERY,
    WINDOW_MAX,
    WINDOW_START,
    WINDOW_STEP,
    Entry,
    compatible,
    nearest_bot,
    pick_groups,
    unique_names,
    window,
)
from golf.server.matchmaking.quickplay import QuickPlay
from golf.server.storage import db
from golf.server.storage.store import Store
from golf.server.tables.hub import Hub

# --- the rule (pure) ----------------------------------------------------------------


def test_the_window_widens_by_the_written_rule() -> None:
    assert window(0) == WINDOW_START == 50
    assert window(WINDOW_EVERY - 0.01) == 50
    assert window(WINDOW_EVERY) == WINDOW_START + WINDOW_STEP == 100
    assert window(3 * WINDOW_EVERY + 1) == 200
    assert window(10_000) == WINDOW_MAX


@given(st.floats(0, 1000), st.floats(0, 1000))
def test_the_window_never_narrows(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert window(lo) <= window(hi) <= WINDOW_MAX


entries = st.lists(
    st.builds(lambda i, r, j: Entry(f"t{i}", f"p{i}", f"P{i}", r, float(j)),
              st.integers(0, 10_000), st.integers(0, 2500), st.integers(0, 120)),
    max_size=12, unique_by=lambda e: e.id)


@settings(max_examples=200, deadline=None)
@given(entries, st.integers(2, 5), st.integers(0, 200), st.data())
def test_groups_are_full_disjoint_compatible_and_never_blocked(
        people: list[Entry], size: int, now_after: int, data: st.DataObject) -> None:
    now = 120.0 + now_after
    every_pair = [frozenset((a.player_id, b.player_id)) for a in people for b in people
                  if a.id < b.id]
    pairs = data.draw(st.lists(st.sampled_from(every_pair), max_size=6)) if every_pair \
        else []
    blocks = frozenset(pairs)
    groups = pick_groups(people, size, now, blocks)
    seen: set[str] = set()
    for g in groups:
        assert len(g) == size
        for i, a in enumerate(g):
            assert a.id not in seen
            seen.add(a.id)
            for b in g[i + 1:]:
                assert compatible(a, b, now, blocks)
                assert frozenset((a.player_id, b.player_id)) not in blocks
    # Nobody who could play is left waiting for nothing: for tables of two, people
    # left over have no compatible partner among the others left over.
    if size == 2:
        left = [e for e in people if e.id not in seen]
        assert not any(compatible(a, b, now, blocks) for a in left for b in left
                       if a.id < b.id)


def test_pick_groups_prefers_the_closest_rating_to_the_longest_waiting() -> None:
    a = Entry("a", "pa", "A", 1000, 0.0)
    near = Entry("b", "pb", "B", 1020, 3.0)
    far = Entry("c", "pc", "C", 1045, 1.0)
    groups = pick_groups([far, near, a], 2, 4.0, frozenset())
    assert [[e.id for e in g] for g in groups] == [["a", "b"]]


def test_nearest_bot_is_the_anchored_bot_closest_in_rating() -> None:
    v = Variant("six-card", "2")
    anchors = Anchors({v: {"easy": Rating(15.0, 1.0), "medium": Rating(24.0, 1.0),
                           "hard": Rating(35.0, 1.0)}})
    # Displays: easy 1260, medium 1530, hard 1860.
    assert nearest_bot(900, v, anchors) == ("easy", True)
    assert nearest_bot(1500, v, anchors) == ("medium", True)
    assert nearest_bot(2400, v, anchors) == ("hard", True)
    # A band without anchors borrows the preset's other bands (the table is casual).
    assert nearest_bot(1500, Variant("six-card", "3-4"), anchors) == ("medium", False)


def test_unique_names_keep_people_apart_from_each_other_and_from_bots() -> None:
    assert unique_names(["Medium bot", "Medium bot", "Ann"]) == ["Medium bot",
                                                                  "Medium bot 2", "Ann"]
    long = "A" * 20
    assert unique_names([long, long])[1] == "A" * 18 + " 2"


# --- the service on real databases --------------------------------------------------


class Clock:
    """The time the service sees: moved by the test, starting now."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def services(url: str, count: int = 1, bot_wait: float = 20.0
                   ) -> AsyncIterator[tuple[list[QuickPlay], Clock]]:
    """``count`` server "processes" on one database: each its own engine, store, hub
    and quick play service, as ``golf serve`` makes them."""
    clock = Clock()
    engines = [db.make_engine(url) for _ in range(count)]
    await db.migrate(engines[0])
    stores = [Store(e) for e in engines]
    hubs = [Hub(s) for s in stores]
    qps = [QuickPlay(h, e, bot_wait=bot_wait, clock=clock) for h, e in zip(hubs, engines,
                                                                          strict=True)]
    try:
        yield qps, clock
    finally:
        for h in hubs:
            await h.drain()
        for s in stores:
            await s.close()


async def add_player(qp: QuickPlay, name: str, ratings: dict[str, tuple[float, float]]
                     | None = None, status: str = "active") -> str:
    pid = secrets.token_hex(8)
    now = time.time()
    async with qp.engine.begin() as conn:
        await conn.execute(db.players.insert().values(
            id=pid, secret_hash=None, name=name, status=status, created=now, last_seen=now))
        for variant, (mu, sigma) in (ratings or {}).items():
            await conn.execute(db.ratings.insert().values(
                player_id=pid, variant=variant, mu=mu, sigma=sigma, matches=12,
                abandoned=0, updated=now))
    return pid


async def block(qp: QuickPlay, who: str, whom: str) -> None:
    async with qp.engine.begin() as conn:
        await conn.execute(db.blocks.insert().values(player_id=who, blocked_id=whom,
                                                     created=time.time()))


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'golf.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(coro)  # type: ignore[arg-type]


async def seated(qp: QuickPlay, table: str) -> list[dict[str, Any]]:
    async with qp.engine.connect() as conn:
        rows = (await conn.execute(sa.select(db.seats).where(db.seats.c.table_id == table)
                                   .order_by(db.seats.c.position))).mappings().all()
    return [dict(r) for r in rows]


def test_two_people_of_similar_rating_are_matched_and_seated(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], _clock):
            ann = await add_player(qp, "Ann")
            bo = await add_player(qp, "Bo")
            t1, s1 = await qp.join(ann, "Ann", "six-card", 2)
            assert s1.status == "waiting" and s1.rating == 900 and s1.window == 50
            t2, s2 = await qp.join(bo, "Bo", "six-card", 2)
            assert s2.status == "matched"
            s1 = await qp.state(ann, t1.id)
            assert s1.status == "matched" and s1.table == s2.table
            assert {s1.seat, s2.seat} == {0, 1}
            seats = await seated(qp, s1.table or "")
            # Each seat holds its own person's token (only its hash) and player.
            by_pos = {s["position"]: s for s in seats}
            assert by_pos[s1.seat or 0]["token_hash"] == hash_token(t1.token)
            assert by_pos[s2.seat or 0]["token_hash"] == hash_token(t2.token)
            assert by_pos[s1.seat or 0]["player_id"] == ann
            assert by_pos[s2.seat or 0]["player_id"] == bo
            assert all(s["kind"] == "human" for s in seats)
            room = await qp.hub.room(s1.table)
            assert room.status == "playing" and room.rec.rated
            # The table is named after the game as people call it, not its preset's key.
            assert room.rec.title == "Quick play · Six-card Golf"
            # The ticket tells only where: its token is nowhere in the state.
            assert t1.token not in repr(s1)

    run(go())


def test_the_window_widens_with_waiting_until_they_match(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], clock):
            # Ratings 900 (new) and about 1080: 180 apart.
            strong = await add_player(qp, "Strong", {"six-card/2": (31.0, 25 / 3)})
            new = await add_player(qp, "New")
            ts, ss = await qp.join(strong, "Strong", "six-card", 2)
            assert ss.rating == 1080
            clock.now += 4
            tn, sn = await qp.join(new, "New", "six-card", 2)
            assert sn.status == "waiting"
            # Both windows must reach 180: the newcomer's needs 15 s (50 + 3 * 50 = 200).
            for _ in range(2):
                clock.now += 5
                assert (await qp.state(new, tn.id)).status == "waiting"
            clock.now += 5
            assert (await qp.state(new, tn.id)).status == "matched"
            assert (await qp.state(strong, ts.id)).status == "matched"

    run(go())


def test_far_apart_people_wait_for_closer_ones_and_the_closest_is_chosen(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], clock):
            a = await add_player(qp, "A", {"german/2": (30.0, 3.0)})  # 1530
            far = await add_player(qp, "Far", {"german/2": (40.0, 3.0)})  # 1830
            near = await add_player(qp, "Near", {"german/2": (31.0, 3.0)})  # 1560
            ta, _ = await qp.join(a, "A", "german", 2)
            tf, _ = await qp.join(far, "Far", "german", 2)
            clock.now += 1
            assert (await qp.state(a, ta.id)).status == "waiting"
            _, sn = await qp.join(near, "Near", "german", 2)
            assert sn.status == "matched"
            assert (await qp.state(a, ta.id)).table == sn.table
            assert (await qp.state(far, tf.id)).status == "waiting"

    run(go())


def test_blocked_people_are_never_matched_together(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], clock):
            ann = await add_player(qp, "Ann")
            bo = await add_player(qp, "Bo")
            cy = await add_player(qp, "Cy")
            await block(qp, bo, ann)  # either direction keeps them apart
            ta, _ = await qp.join(ann, "Ann", "six-card", 2)
            clock.now += 1
            tb, _ = await qp.join(bo, "Bo", "six-card", 2)
            for _ in range(30):  # the widest window, long past
                clock.now += 5
                assert (await qp.state(ann, ta.id)).status == "waiting"
                assert (await qp.state(bo, tb.id)).status == "waiting"
            _, sc = await qp.join(cy, "Cy", "six-card", 2)
            assert sc.status == "matched"
            # Cy joins the longest waiting (Ann); Bo waits on.
            assert (await qp.state(ann, ta.id)).table == sc.table
            assert (await qp.state(bo, tb.id)).status == "waiting"

    run(go())


def test_bots_fill_the_table_after_the_wait_with_a_similar_rating(url: str) -> None:
    async def go() -> None:
        async with services(url, bot_wait=20.0) as ([qp], clock):
            ann = await add_player(qp, "Ann", {"six-card/2": (45.0, 1.0)})
            ta, sa_ = await qp.join(ann, "Ann", "six-card", 2)
            assert sa_.bots_in == 20.0
            clock.now += 5
            with pytest.raises(ProtocolError) as e:
                await qp.fill_with_bots(ann, ta.id)
            assert e.value.code == "too_early" and e.value.extra["retry_after"] == 15.0
            assert (await qp.state(ann, ta.id)).status == "waiting"  # unchanged
            clock.now += 15
            s = await qp.fill_with_bots(ann, ta.id)
            assert s.status == "matched" and s.seat == 0
            seats = await seated(qp, s.table or "")
            want, anchored = nearest_bot(s.rating, Variant("six-card", "2"),
                                         Anchors.measured())
            assert anchored
            assert [(x["kind"], x["bot"]) for x in seats] == [("human", None), ("bot", want)]
            assert (await qp.hub.room(s.table)).rec.rated
            # The bot is the nearest anchor: no other anchored bot is closer.
            fixed = Anchors.measured().by_variant[Variant("six-card", "2")]
            assert all(abs(fixed[want].display - s.rating) <= abs(r.display - s.rating)
                       for r in fixed.values())

    run(go())


def test_bots_fill_after_the_compatible_people_waiting(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], clock):
            ids = [await add_player(qp, n) for n in ("Ann", "Bo", "Cy")]
            tickets = [(await qp.join(p, n, "six-card", 4))[0]
                       for p, n in zip(ids, ("Ann", "Bo", "Cy"), strict=True)]
            clock.now += 20
            s = await qp.fill_with_bots(ids[1], tickets[1].id)
            seats = await seated(qp, s.table or "")
            assert [x["kind"] for x in seats] == ["human"] * 3 + ["bot"]
            # No bot is measured for six-card/3-4: the borrowed one makes the table casual.
            assert not (await qp.hub.room(s.table)).rec.rated
            assert {x["player_id"] for x in seats[:3]} == set(ids)
            for p, t in zip(ids, tickets, strict=True):
                assert (await qp.state(p, t.id)).table == s.table

    run(go())


def test_leaving_is_instant_and_a_left_ticket_is_never_matched(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], _clock):
            ann = await add_player(qp, "Ann")
            bo = await add_player(qp, "Bo")
            ta, _ = await qp.join(ann, "Ann", "six-card", 2)
            await qp.leave(ann, ta.id)
            with pytest.raises(ProtocolError) as e:
                await qp.state(ann, ta.id)
            assert e.value.code == "no_ticket"
            _, sb = await qp.join(bo, "Bo", "six-card", 2)
            assert sb.status == "waiting"

    run(go())


def test_a_ticket_is_only_its_owners(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], _clock):
            ann = await add_player(qp, "Ann")
            bo = await add_player(qp, "Bo")
            ta, _ = await qp.join(ann, "Ann", "six-card", 2)
            for call in (qp.state, qp.fill_with_bots):
                with pytest.raises(ProtocolError) as e:
                    await call(bo, ta.id)
                assert e.value.code == "no_ticket"
            # Someone else's leave is refused (no_ticket) and changes nothing.
            with pytest.raises(ProtocolError) as e:
                await qp.leave(bo, ta.id)
            assert e.value.code == "no_ticket"
            assert (await qp.state(ann, ta.id)).status == "waiting"

    run(go())


def test_a_stale_ticket_is_dropped_and_a_suspended_player_cannot_queue(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], clock):
            ann = await add_player(qp, "Ann")
            bo = await add_player(qp, "Bo")
            sus = await add_player(qp, "Sus", status="suspended")
            with pytest.raises(ProtocolError) as e:
                await qp.join(sus, "Sus", "six-card", 2)
            assert e.value.code == "suspended"
            await qp.join(ann, "Ann", "six-card", 2)
            clock.now += 31  # Ann's browser stopped polling
            _, sb = await qp.join(bo, "Bo", "six-card", 2)
            assert sb.status == "waiting"

    run(go())


def test_bad_queues_are_refused_clearly(url: str) -> None:
    async def go() -> None:
        async with services(url) as ([qp], _clock):
            ann = await add_player(qp, "Ann")
            for preset, players, code in (("nope", 2, "bad_rules"), ("six-card", 1,
                                                                    "bad_seats"),
                                          ("six-card", 9, "bad_seats")):
                with pytest.raises(ProtocolError) as e:
                    await qp.join(ann, "Ann", preset, players)
                assert e.value.code == code, (preset, players)
            async with qp.engine.connect() as conn:
                assert (await conn.execute(sa.select(sa.func.count())
                                           .select_from(db.queue))).scalar() == 0

    run(go())


def test_two_processes_match_people_who_arrived_through_different_ones(
        postgres_url: str) -> None:
    """Two hubs (two server processes) on one PostgreSQL: people queue through either,
    polls race on both, and every person ends at exactly one table with everyone else
    of it, each seat holding its own person's token."""
    url = fresh_database(postgres_url)

    async def go() -> None:
        async with services(url, count=2) as (qps, clock):
            n = 12
            ids = [await add_player(qps[0], f"P{i}") for i in range(n)]
            # Everyone queues at once, half through each process.
            joined = await asyncio.gather(*(qps[i % 2].join(pid, f"P{i}", "six-card", 3)
                                            for i, pid in enumerate(ids)))
            tickets = [t for t, _ in joined]
            # Polls through both processes at once, racing each other's matchers.
            states = []
            for _ in range(3):
                clock.now += 1
                states = await asyncio.gather(*(
                    qps[(i + k) % 2].state(pid, t.id)
                    for k in range(2) for i, (pid, t) in enumerate(zip(ids, tickets,
                                                                       strict=True))))
            final = {s.id: s for s in states[:n]}
            assert all(s.status == "matched" for s in final.values())
            tables: dict[str, list[int]] = {}
            for s in final.values():
                tables.setdefault(s.table or "", []).append(s.seat or 0)
            assert len(tables) == n // 3
            assert all(sorted(seats) == [0, 1, 2] for seats in tables.values())
            # Each table was made once, by one process (its room lives there only).
            for tid in tables:
                assert sum(tid in qp.hub.rooms for qp in qps) == 1
            for pid, t in zip(ids, tickets, strict=True):
                s = final[t.id]
                seats = await seated(qps[0], s.table or "")
                assert seats[s.seat or 0]["token_hash"] == hash_token(t.token)
                assert seats[s.seat or 0]["player_id"] == pid

    run(go())


# --- the routes on real servers ---------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def qp_server(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose players may fill with bots after 2 s."""
    srv = make_server(request.param, tmp_path_factory.mktemp("qp"), request)
    srv.args = ["--bot-wait", "2"]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def browser(server: ServerProcess) -> Browser:
    b = Browser(server)
    b.me()
    return b


async def sees_own_seat(server: ServerProcess, table: str, token: str, seat: int) -> None:
    c = await Client(server.ws_url, table, token).connect()
    try:
        await c.wait(lambda c: c.state is not None)
        assert c.welcome is not None and c.welcome["seat"] == seat
    finally:
        await c.close()


def test_play_now_matches_two_browsers_each_to_their_own_seat(qp_server: ServerProcess
                                                              ) -> None:
    ann, bob = browser(qp_server), browser(qp_server)
    r = ann.post("/api/quickplay", {"preset": "nine-card", "players": 2})
    assert r.status_code == 201, r.text
    qa = r.json()
    assert qa["state"]["status"] == "waiting" and qa["state"]["window"] == 50
    r = bob.post("/api/quickplay", {"preset": "nine-card", "players": 2})
    qb = r.json()
    assert qb["state"]["status"] == "matched"
    sa_ = ann.http.get(f"/api/quickplay/{qa['state']['ticket']}").json()
    assert sa_["status"] == "matched" and sa_["table"] == qb["state"]["table"]
    # Each token opens its owner's seat, and the ticket's poll never shows a token.
    table = sa_["table"]
    asyncio.run(sees_own_seat(qp_server, table, qa["token"], sa_["seat"]))
    asyncio.run(sees_own_seat(qp_server, table, qb["token"], qb["state"]["seat"]))
    assert qa["token"] not in bob.http.get(f"/api/quickplay/{qb['state']['ticket']}").text
    # Someone else's ticket is not theirs to read.
    r = bob.http.get(f"/api/quickplay/{qa['state']['ticket']}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_ticket"
    ann.close()
    bob.close()


def test_leave_fill_and_refusals_through_the_routes(qp_server: ServerProcess) -> None:
    ann = browser(qp_server)
    r = ann.post("/api/quickplay", {"preset": "german", "players": 2})
    ticket = r.json()["state"]["ticket"]
    r = ann.post(f"/api/quickplay/{ticket}/bots")
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_early"
    assert r.json()["error"]["retry_after"] > 0
    r = ann.send("DELETE", f"/api/quickplay/{ticket}")
    assert r.status_code == 204
    assert ann.http.get(f"/api/quickplay/{ticket}").status_code == 404
    # A page of another site cannot queue anyone; nor a request without the CSRF token.
    assert ann.post("/api/quickplay", {"preset": "german", "players": 2},
                    headers={"Origin": "https://evil.example"}).status_code == 403
    assert ann.post("/api/quickplay", {"preset": "german", "players": 2},
                    csrf=False).status_code == 403
    # Bad queues: a clear error naming the field.
    r = ann.post("/api/quickplay", {"preset": "german", "players": 12})
    assert r.status_code == 422 and r.json()["error"]["field"] == "players"
    r = ann.post("/api/quickplay", {"preset": "german", "players": "2"})
    assert r.status_code in (400, 422)
    # After the wait, bots fill the table and the match runs.
    r = ann.post("/api/quickplay", {"preset": "german", "players": 2})
    ticket = r.json()["state"]["ticket"]
    time.sleep(2.1)
    r = ann.post(f"/api/quickplay/{ticket}/bots")
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["status"] == "matched" and s["seat"] == 0
    summary = ann.http.get(f"/api/tables/{s['table']}").json()
    assert summary["status"] == "playing"
    assert [x["kind"] for x in summary["seats"]] == ["human", "bot"]
    ann.close()


def test_two_server_processes_match_people_who_came_through_each(
        postgres_url: str, tmp_path: Path) -> None:
    url = fresh_database(postgres_url)
    servers = [ServerProcess(tmp_path / f"s{i}", url) for i in range(2)]
    for s in servers:
        s.data_dir.mkdir()
        s.start()
    try:
        people = [browser(servers[i % 2]) for i in range(4)]
        tickets = []
        for b in people:
            r = b.post("/api/quickplay", {"preset": "six-card", "players": 2})
            assert r.status_code == 201, r.text
            tickets.append(r.json())
        states = [b.http.get(f"/api/quickplay/{t['state']['ticket']}").json()
                  for b, t in zip(people, tickets, strict=True)]
        assert all(s["status"] == "matched" for s in states)
        tables: dict[str, list[int]] = {}
        for s in states:
            tables.setdefault(s["table"], []).append(s["seat"])
        assert sorted(sorted(v) for v in tables.values()) == [[0, 1], [0, 1]]
        # People who arrived through different processes share a table.
        for i, s in enumerate(states):
            partner = next(j for j, o in enumerate(states) if j != i
                           and o["table"] == s["table"])
            assert partner % 2 != i % 2
        for b in people:
            b.close()
    finally:
        for s in servers:
            s.stop()
