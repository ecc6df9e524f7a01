"""Fair rated play (issue 29): a rated table is marked everywhere, no expert advice and no
private undoing of memory mode at a rated table, the coach never uses a forgotten card,
an abandonment is last place everywhere and sticks, and the host's tools for a slow
friend (nudge, a turn timer mid-match, a bot in a seat only by its person's yes or the
absence rules: issue 38). Real servers (SQLite: these are the room's
rules, which the database does not change; the stored parts run on both backends in
test_ratings_server.py and test_restart_breaks.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from harness import Client, ServerProcess, play_out
from test_ratings_server import new_player, play_rated, rating_frames, seat_player

from golf import Game
from golf.ratings import Anchors, RatedMatch, Seat, Variant, rate_match
from golf.server.core import bridge
from golf.view import remembered

TWO = Variant("six-card", "2")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("fair"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_a_rated_table_is_marked_in_the_lobby_and_at_the_table(server: ServerProcess) -> None:
    rated = server.create("six-card", seats=[{"kind": "human"}, {"kind": "human"}],
                          rated=True, public=True)
    casual = server.create("german", seats=[{"kind": "human"}, {"kind": "human"}],
                           public=True)
    listed = {t["id"]: t for t in server.get("/api/tables").json()["tables"]}
    assert listed[rated["table"]["id"]]["rated"] is True
    assert listed[casual["table"]["id"]]["rated"] is False
    # The table summary (REST, the waiting room's and the live table's `table` frame).
    assert rated["table"]["rated"] is True and rated["table"]["memory"] is False
    assert casual["table"]["rated"] is False and casual["table"]["memory"] is True

    async def go() -> dict[str, Any]:
        c = await Client(server.ws_url, rated["table"]["id"], rated["token"]).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        await c.close()
        assert c.summary is not None
        return c.summary

    summary = asyncio.run(go())
    assert summary["rated"] is True and summary["memory"] is False


def test_the_hint_is_off_at_a_rated_table(server: ServerProcess) -> None:
    async def go() -> dict[str, Any]:
        t = server.create("six-card", seats=[{"kind": "human"}, {"kind": "bot",
                                                                 "bot": "medium"}],
                          rated=True)
        tid = t["table"]["id"]
        c = await Client(server.ws_url, tid, t["token"]).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, t["token"])
        await c.wait(lambda c: c.state is not None and c.state["your_turn"], what="my turn")
        await c.send({"type": "hint", "version": c.version})
        err = await c.wait_error(1)
        hints = [f for f in c.frames if f["type"] == "hint"]
        await c.close()
        assert hints == []
        return err

    err = asyncio.run(go())
    assert err["code"] == "rated_table" and "rated" in err["message"]


def test_the_coach_never_uses_a_card_the_seat_no_longer_remembers() -> None:
    # German is memory mode: seat 0 peeked at cells 1 and 2, then drew and discarded; on
    # its next turn it no longer sees them, and neither may the coach.
    g = Game("german", players=2, seed=3)
    for a in ("peek 1", "peek 2", "peek 1", "peek 2", "draw", "discard", "draw", "discard"):
        g.apply(a)
    full: dict[str, Any] = dict(g.view(0, codes=True))
    assert full["grids"][0][:2] != [None, None]  # the engine's view still has them
    advised = bridge.coach_view(g, 0, keep_peeks=False)
    assert advised["grids"][0] == [None] * 6
    assert advised == dict(remembered(full, g.rules))
    coach = bridge.new_bot(bridge.coach_for(g.rules, 2), g.rules, 0)
    legal = g.legal_actions()
    numbers = [(str(o.action), round(o.expected, 2)) for o in coach.explain(advised, legal)]
    cheating = [(str(o.action), round(o.expected, 2)) for o in coach.explain(full, legal)]
    # The forgotten cards change the numbers: the coach's advice is the remembered one.
    assert numbers != cheating
    # A player who keeps the cards shown (a casual table's comfort) is advised on them.
    assert bridge.coach_view(g, 0, keep_peeks=True) == full


async def _play(mover: Client, action: str) -> None:
    """``mover`` plays ``action`` once it is legal for it, and sees the next state."""
    await mover.wait(lambda c: c.state is not None and action in c.state["legal_actions"],
                     what=action)
    v = mover.version
    await mover.act(action)
    await mover.wait(lambda c: c.version > v, what="the next state")


def test_the_tables_hint_is_the_remembered_views(server: ServerProcess) -> None:
    """At a casual memory-mode table the server's hint, on a turn after the first draw,
    has the numbers of the coach on what the seat remembers, not on the cards it peeked
    at (checked from the match's record once it is over)."""
    async def go() -> tuple[str, dict[str, Any]]:
        t, tokens = server.table_with_people("german", seats=[{"kind": "human"},
                                                              {"kind": "human"}],
                                             rules={"holes": 1})
        tid = t["table"]["id"]
        ann = await Client(server.ws_url, tid, tokens[0]).connect()
        bob = await Client(server.ws_url, tid, tokens[1]).connect()
        await ann.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        for mover, action in ((ann, "peek 1"), (ann, "peek 2"), (bob, "peek 1"),
                              (bob, "peek 2"), (ann, "draw"), (ann, "discard"),
                              (bob, "draw"), (bob, "discard")):
            await _play(mover, action)
        await ann.wait(lambda c: c.state is not None and c.state["your_turn"], what="turn")
        await ann.send({"type": "hint", "version": ann.version})
        await ann.wait(lambda c: any(f["type"] == "hint" for f in c.frames), what="a hint")
        hint = next(f for f in ann.frames if f["type"] == "hint")
        await play_out([ann, bob], random.Random(6))
        await ann.close()
        await bob.close()
        return tid, hint

    tid, hint = asyncio.run(go())
    record = server.get(f"/api/tables/{tid}/matches/1/replay").json()["record"]
    g = Game.from_record({**record, "actions": record["actions"][:hint["version"]]})
    coach = bridge.new_bot(bridge.coach_for(g.rules, 2), g.rules, 0)
    legal = g.legal_actions()
    full: dict[str, Any] = dict(g.view(0, codes=True))
    mem = dict(remembered(full, g.rules))

    def numbers(view: dict[str, Any]) -> list[tuple[str, float]]:
        return [(str(o.action), round(o.expected, 2)) for o in coach.explain(view, legal)]

    assert numbers(mem) != numbers(full)  # the forgotten cards matter here
    assert [(o["action"], o["expected"]) for o in hint["options"]] == numbers(mem)


async def _german_after_first_draw(server: ServerProcess, rated: bool) -> list[Any]:
    """Two people at a german table; Ann keeps her peeks shown (sync), both peek, Ann
    draws and discards: Ann's own grid as her next state shows it."""
    t, tokens = server.table_with_people("german", seats=[{"kind": "human"},
                                                          {"kind": "human"}], rated=rated)
    tid = t["table"]["id"]
    ann = await Client(server.ws_url, tid, tokens[0]).connect()
    bob = await Client(server.ws_url, tid, tokens[1]).connect()
    await ann.wait(lambda c: c.summary is not None, what="the table")
    server.start_table(tid, tokens[0])
    for c in (ann, bob):
        await c.wait(lambda c: c.state is not None, what="the first state")
    await ann.send({"type": "sync", "show_peeks": True})
    for mover, action in ((ann, "peek 1"), (ann, "peek 2"), (bob, "peek 1"), (bob, "peek 2"),
                          (ann, "draw"), (ann, "discard")):
        await _play(mover, action)
    grid = list(ann.state["view"]["grids"][0]) if ann.state else []
    await ann.close()
    await bob.close()
    return grid


def test_a_rated_table_ignores_a_players_show_peeks(server: ServerProcess) -> None:
    casual = asyncio.run(_german_after_first_draw(server, rated=False))
    rated = asyncio.run(_german_after_first_draw(server, rated=True))
    assert casual[0] is not None and casual[1] is not None  # a casual table's comfort
    assert rated[0] is None and rated[1] is None  # the table's rule, for everyone


def test_an_abandoner_is_last_in_history_wins_and_rating(server: ServerProcess) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    # Bob leaves after his first move; the medium stand-in plays on for him against
    # Ann's random moves, so on the cards "Bob" wins.
    tid, _ = asyncio.run(play_rated(server, [{"kind": "human"}, {"kind": "human"}],
                                    [ann, bob], seed=5, leave=1))
    result = server.get(f"/api/tables/{tid}/matches/1/replay").json()["result"]
    assert result["winners"] == [1]  # the cards' verdict (the stand-in won)
    bob_p = server.get(f"/api/players/{bob}").json()
    ann_p = server.get(f"/api/players/{ann}").json()
    (bob_row,), (ann_row,) = bob_p["variants"], ann_p["variants"]
    assert bob_p["recent"][0]["place"] == 2 and ann_p["recent"][0]["place"] == 1
    assert (bob_row["wins"], bob_row["win_rate"]) == (0, 0.0)
    assert (ann_row["wins"], ann_row["win_rate"]) == (1, 1.0)
    assert bob_row["rating"]["abandoned"] == 1 and bob_p["completion_rate"] == 0.0
    (h2h,) = ann_p["head_to_head"]
    assert (h2h["wins"], h2h["losses"]) == (1, 0)


def test_an_abandonment_sticks_when_the_player_comes_back(server: ServerProcess) -> None:
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")

    async def go() -> tuple[Client, list[dict[str, Any]]]:
        t, tokens = server.table_with_people(
            "six-card", seats=[{"kind": "human"}, {"kind": "human"}], rated=True,
            options={"absence": "bot", "grace": 1})
        tid = t["table"]["id"]
        a = await Client(server.ws_url, tid, tokens[0]).connect()
        b = await Client(server.ws_url, tid, tokens[1]).connect()
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        await seat_player(server, tid, 0, ann)
        await seat_player(server, tid, 1, bob)
        for c in (a, b):
            await c.wait(lambda c: c.state is not None, what="the first state")
        await b.drop()
        # Ann plays on; on Bob's turn his grace runs out and a stand-in takes over.
        await play_out([a], random.Random(4), until=lambda: a.summary is not None and
                       a.summary["seats"][1]["stand_in"])
        assert a.summary is not None and a.summary["seats"][1]["abandoned"] is True
        # Bob looks in again and plays the match to its end himself.
        b2 = await Client(server.ws_url, tid, tokens[1]).connect()
        await b2.wait(lambda c: c.state is not None, what="Bob's state")
        await play_out([a, b2], random.Random(4))
        for c in (a, b2):
            await c.wait(lambda c: bool(rating_frames(c)), what="the rating frame")
        seats = a.summary["seats"] if a.summary else []
        await a.close()
        await b2.close()
        return a, seats

    a, seats = asyncio.run(go())
    assert seats[1]["abandoned"] is True and seats[0]["abandoned"] is False
    got = {x["player"]: x for x in rating_frames(a)[0]["seats"]}
    want = rate_match({}, RatedMatch(TWO, (Seat(ann, 0), Seat(bob, 0, abandoned=True))),
                      Anchors.measured())
    assert got[bob]["after"] == want[bob].after.display
    assert got[ann]["after"] == want[ann].after.display


def test_the_host_nudges_a_slow_friend_and_adds_a_turn_timer(server: ServerProcess) -> None:
    async def go() -> None:
        t, tokens = server.table_with_people("six-card", seats=[{"kind": "human"},
                                                                {"kind": "human"}])
        tid = t["table"]["id"]
        # Nothing to nudge or time before the match.
        r = server.post(f"/api/tables/{tid}/nudge", token=tokens[0])
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_started")
        r = server.post(f"/api/tables/{tid}/timer", {"turn_timer": 20}, token=tokens[0])
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_started")
        ann = await Client(server.ws_url, tid, tokens[0]).connect()
        bob = await Client(server.ws_url, tid, tokens[1]).connect()
        watcher = await Client(server.ws_url, tid, None).connect()
        await ann.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        for c in (ann, bob):
            await c.wait(lambda c: c.state is not None, what="the first state")
        await play_out([ann], random.Random(1), until=lambda: bob.state is not None
                       and bob.state["your_turn"])
        # Only the host nudges.
        r = server.post(f"/api/tables/{tid}/nudge", token=tokens[1])
        assert (r.status_code, r.json()["error"]["code"]) == (403, "not_host")
        r = server.post(f"/api/tables/{tid}/nudge", token=tokens[0])
        assert r.status_code == 200, r.text
        frame = r.json()
        assert frame == {"type": "nudge", "table": tid, "seat": 1, "by": 0,
                         "version": bob.version}
        for c in (ann, bob, watcher):
            await c.wait(lambda c: any(f["type"] == "nudge" for f in c.frames),
                         what="the nudge")
        again = server.post(f"/api/tables/{tid}/nudge", token=tokens[0])
        assert again.status_code == 429 and again.json()["error"]["code"] == "rate_limited"
        assert again.json()["error"]["retry_after"] > 0
        # A turn timer mid-match: checked as the option is, shown to all, running now.
        bad = server.post(f"/api/tables/{tid}/timer", {"turn_timer": 0}, token=tokens[0])
        assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_option")
        r = server.post(f"/api/tables/{tid}/timer", {"turn_timer": 30}, token=tokens[1])
        assert r.json()["error"]["code"] == "not_host"
        r = server.post(f"/api/tables/{tid}/timer", {"turn_timer": 30}, token=tokens[0])
        assert r.status_code == 200, r.text
        assert r.json()["options"]["turn_timer"] == 30
        await bob.wait(lambda c: c.summary is not None and
                       c.summary["options"]["turn_timer"] == 30, what="the new option")
        await bob.wait(lambda c: any(f["type"] == "clock" and f["clock"] is not None
                                     and f["clock"]["kind"] == "turn"
                                     and f["clock"]["seat"] == 1 for f in c.frames),
                       what="Bob's turn clock")
        for c in (ann, bob, watcher):
            await c.close()

    asyncio.run(go())


def test_a_bot_takes_a_slow_persons_seat_when_everyone_agrees_they_too(
        server: ServerProcess) -> None:
    async def go() -> None:
        t, tokens = server.table_with_people(
            "six-card", people=3, rules={"holes": 1},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
        tid = t["table"]["id"]
        ann, bob, cat = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await ann.wait(lambda c: c.summary is not None, what="the table")
        bot = f"/api/tables/{tid}/seats/1/bot"
        r = server.post(bot, token=tokens[0])
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_started")
        server.start_table(tid, tokens[0])
        for c in (ann, bob, cat):
            await c.wait(lambda c: c.state is not None, what="the first state")
        # Only the host proposes, and only for another person.
        assert server.post(bot, token=tokens[2]).json()["error"]["code"] == "not_host"
        r = server.post(f"/api/tables/{tid}/seats/0/bot", token=tokens[0])
        assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_seats")
        # Bob is here: he is asked too, with Cat.
        r = server.post(bot, token=tokens[0])
        assert r.status_code == 200, r.text
        assert r.json()["bot_proposal"] == {"seat": 1, "accepted": [0], "waiting": [1, 2]}
        assert r.json()["seats"][1]["stand_in"] is False
        await cat.wait(lambda c: c.summary is not None and c.summary["bot_proposal"]
                       is not None, what="the proposal")
        # One no drops the proposal, and everyone hears who said it.
        r = server.post(f"{bot}/consent", {"consent": False}, token=tokens[2])
        assert r.status_code == 200 and r.json()["bot_proposal"] is None
        for c in (ann, bob):
            await c.wait(lambda c: any(f["type"] == "bot_declined" for f in c.frames),
                         what="the no")
        assert [f for f in ann.frames if f["type"] == "bot_declined"] == [
            {"type": "bot_declined", "table": tid, "seat": 1, "by": 2}]
        r = server.post(f"{bot}/consent", {"consent": True}, token=tokens[2])
        assert (r.status_code, r.json()["error"]["code"]) == (409, "no_proposal")
        # Asked again, Cat and Bob agree: a bot plays Bob's seat, Bob's token stops working.
        assert server.post(bot, token=tokens[0]).status_code == 200
        r = server.post(f"{bot}/consent", {"consent": True}, token=tokens[2])
        assert r.status_code == 200, r.text
        assert r.json()["bot_proposal"] == {"seat": 1, "accepted": [0, 2], "waiting": [1]}
        assert r.json()["seats"][1]["stand_in"] is False
        r = server.post(f"{bot}/consent", {"consent": True}, token=tokens[1])
        assert r.status_code == 200, r.text
        seat = r.json()["seats"][1]
        assert seat["stand_in"] is True and seat["abandoned"] is True
        await bob.wait(lambda c: bool(c.closes), what="Bob's socket closed")
        assert bob.closes[0][0] == 4001
        assert any(f["type"] == "bye" and f["reason"] == "replaced" for f in bob.frames)
        again = await Client(server.ws_url, tid, tokens[1]).connect()
        err = await again.wait_error(1)
        assert err["code"] == "bad_token"
        await play_out([ann, cat], random.Random(2))
        assert ann.over
        by_bob = {e["by"] for e in ann.events() if e["seat"] == 1}
        assert "stand_in" in by_bob
        for c in (ann, bob, cat, again):
            await c.close()

    asyncio.run(go())


def test_a_hosts_tap_never_takes_a_present_persons_rated_seat(server: ServerProcess) -> None:
    """Issue 38: at a two-person rated table the host's "let a bot play Rita's seat" had
    nobody else to ask and happened at once; Rita lost her seat and her rating to it. Now
    Rita is asked; her no keeps her seat, and only her yes gives it up."""
    ann, rita = new_player(server, "Ann"), new_player(server, "Rita")

    async def go() -> tuple[list[dict[str, Any]], Client]:
        t, tokens = server.table_with_people(
            "six-card", seats=[{"kind": "human"}, {"kind": "human"}], rated=True)
        tid = t["table"]["id"]
        a = await Client(server.ws_url, tid, tokens[0]).connect()
        r_ = await Client(server.ws_url, tid, tokens[1]).connect()
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        await seat_player(server, tid, 0, ann)
        await seat_player(server, tid, 1, rita)
        for c in (a, r_):
            await c.wait(lambda c: c.state is not None, what="the first state")
        bot = f"/api/tables/{tid}/seats/1/bot"
        r = server.post(bot, token=tokens[0])
        assert r.status_code == 200, r.text
        summary = r.json()
        # Nothing happened yet: Rita is asked, her seat is hers.
        assert summary["bot_proposal"] == {"seat": 1, "accepted": [0], "waiting": [1]}
        assert (summary["seats"][1]["stand_in"], summary["seats"][1]["abandoned"]) == (
            False, False)
        await r_.wait(lambda c: c.summary is not None and c.summary["bot_proposal"]
                      is not None and c.summary["bot_proposal"]["waiting"] == [1],
                      what="Rita is asked")
        # The host's yes again is still only the host's: Rita's is awaited.
        r = server.post(f"{bot}/consent", {"consent": True}, token=tokens[0])
        assert r.status_code == 200, r.text
        assert r.json()["bot_proposal"]["waiting"] == [1]
        assert r.json()["seats"][1]["stand_in"] is False
        # Rita says no: she plays on, nobody's rating is touched by the tap.
        r = server.post(f"{bot}/consent", {"consent": False}, token=tokens[1])
        assert r.status_code == 200 and r.json()["bot_proposal"] is None
        assert r.json()["seats"][1]["stand_in"] is False
        await a.wait(lambda c: any(f["type"] == "bot_declined" for f in c.frames),
                     what="the host hears the no")
        await play_out([a, r_], random.Random(3))
        for c in (a, r_):
            await c.wait(lambda c: bool(rating_frames(c)), what="the rating frame")
        assert not r_.closes or r_.closes[0][0] != 4001
        seats = list(a.summary["seats"]) if a.summary else []
        await a.close()
        await r_.close()
        return seats, a

    seats, a = asyncio.run(go())
    assert seats[1]["abandoned"] is False
    frame = rating_frames(a)[0]
    assert {s["player"]: s["abandoned"] for s in frame["seats"]} == {ann: False,
                                                                      rita: False}


def test_at_a_rated_table_an_away_persons_seat_is_the_absence_rules(
        server: ServerProcess) -> None:
    """A person away from a rated table (grace left) keeps the seat until the absence rules
    decide: the host's request is refused with ``rated_away``, nothing changes. At a
    casual table an away person's seat needs only the others' yes."""
    async def go(rated: bool) -> tuple[Any, dict[str, Any] | None]:
        t, tokens = server.table_with_people(
            "six-card", seats=[{"kind": "human"}, {"kind": "human"}], rated=rated,
            options={"absence": "bot", "grace": 120})
        tid = t["table"]["id"]
        a = await Client(server.ws_url, tid, tokens[0]).connect()
        b = await Client(server.ws_url, tid, tokens[1]).connect()
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        for c in (a, b):
            await c.wait(lambda c: c.state is not None, what="the first state")
        await b.drop()
        await a.wait(lambda c: c.summary is not None and c.summary["seats"][1]["away"],
                     what="Bob away")
        r = server.post(f"/api/tables/{tid}/seats/1/bot", token=tokens[0])
        after = server.get(f"/api/tables/{tid}").json()
        await a.close()
        return r, after

    r, after = asyncio.run(go(rated=True))
    assert (r.status_code, r.json()["error"]["code"]) == (409, "rated_away"), r.text
    assert "absence" in r.json()["error"]["message"]
    bob = after["seats"][1]
    assert (bob["stand_in"], bob["abandoned"]) == (False, False)
    assert after["bot_proposal"] is None
    r, after = asyncio.run(go(rated=False))
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["stand_in"] is True  # nobody else to ask: the host's yes


def test_a_person_back_while_the_others_are_asked_is_asked_too(
        server: ServerProcess) -> None:
    """Casual, three people: Bob is away when the host asks for a bot in his seat, so only
    Cat is asked; Bob comes back before she answers, and from then on the seat waits for
    his answer too: Cat's yes alone does not take it from him."""
    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        t, tokens = server.table_with_people(
            "six-card", people=3, seats=[{"kind": "human"}] * 3,
            options={"absence": "wait", "grace": 120})
        tid = t["table"]["id"]
        ann, bob, cat = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await ann.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        for c in (ann, bob, cat):
            await c.wait(lambda c: c.state is not None, what="the first state")
        await bob.drop()
        await ann.wait(lambda c: c.summary is not None and c.summary["seats"][1]["away"],
                       what="Bob away")
        bot = f"/api/tables/{tid}/seats/1/bot"
        asked = server.post(bot, token=tokens[0]).json()
        back = await Client(server.ws_url, tid, tokens[1]).connect()
        await ann.wait(lambda c: c.summary is not None and c.summary["bot_proposal"]
                       is not None and 1 in c.summary["bot_proposal"]["waiting"],
                       what="Bob asked")
        after_cat = server.post(f"{bot}/consent", {"consent": True}, token=tokens[2]).json()
        after_bob = server.post(f"{bot}/consent", {"consent": False}, token=tokens[1]).json()
        for c in (ann, back, cat):
            await c.close()
        return asked, after_cat, after_bob

    asked, after_cat, after_bob = asyncio.run(go())
    assert asked["bot_proposal"] == {"seat": 1, "accepted": [0], "waiting": [2]}
    assert after_cat["bot_proposal"] == {"seat": 1, "accepted": [0, 2], "waiting": [1]}
    assert after_cat["seats"][1]["stand_in"] is False
    assert after_bob["bot_proposal"] is None and after_bob["seats"][1]["stand_in"] is False


def test_a_leaver_is_last_and_marked_in_every_figure(server: ServerProcess) -> None:
    """Issue 38: Bob leaves after his first move and the stand-in plays his seat to a win
    on the cards. The stored result, the table, the rating frame, both profiles' history
    and Bob's figures all say Bob left and came last, and Bob's hole figures hold only
    holes he played himself (here none: the stand-in played the rest of hole 1)."""
    ann, bob = new_player(server, "Ann"), new_player(server, "Bob")
    tid, clients = asyncio.run(play_rated(server, [{"kind": "human"}, {"kind": "human"}],
                                          [ann, bob], seed=5, leave=1))
    (a,) = clients
    result = server.get(f"/api/tables/{tid}/matches/1/replay").json()["result"]
    assert result["winners"] == [1]  # the cards' verdict (the stand-in won)
    assert result["abandoned"] == [1]
    holes = len(result["hole_scores"])
    assert result["stood_in"][0] == [] and result["stood_in"][1] == list(range(1, holes + 1))
    assert a.summary is not None and a.summary["seats"][1]["abandoned"] is True
    frame = rating_frames(a)[0]
    assert {s["player"]: s["abandoned"] for s in frame["seats"]} == {ann: False, bob: True}
    bob_p = server.get(f"/api/players/{bob}").json()
    ann_p = server.get(f"/api/players/{ann}").json()
    assert bob_p["recent"][0]["place"] == 2 and bob_p["recent"][0]["left"] is True
    assert ann_p["recent"][0]["place"] == 1 and ann_p["recent"][0]["left"] is False
    (bob_row,), (ann_row,) = bob_p["variants"], ann_p["variants"]
    assert (bob_row["games"], bob_row["wins"]) == (1, 0)
    # The stand-in's holes are not Bob's: no hole figures for him.
    assert (bob_row["holes"], bob_row["average_hole"], bob_row["best_hole"]) == (0, None, None)
    assert ann_row["holes"] == holes
    assert ann_row["best_hole"] == min(h[0] for h in result["hole_scores"])


def test_a_player_on_another_page_is_not_taken_for_absent(server: ServerProcess) -> None:
    async def go() -> dict[str, Any]:
        t, tokens = server.table_with_people(
            "six-card", seats=[{"kind": "human"}, {"kind": "human"}], rated=True,
            options={"absence": "bot", "grace": 1})
        tid = t["table"]["id"]
        ann = await Client(server.ws_url, tid, tokens[0]).connect()
        bob = await Client(server.ws_url, tid, tokens[1]).connect()
        await ann.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        for c in (ann, bob):
            await c.wait(lambda c: c.state is not None, what="the first state")
        # Bob opens the lobby in this tab: his table socket closes, and the lobby page
        # says (with his seat token) that the table is still his to open.
        await bob.close()

        async def lobby_page() -> None:
            while True:
                r = await asyncio.to_thread(server.post, f"/api/tables/{tid}/here",
                                            None, tokens[1])
                assert r.status_code == 200, r.text
                await asyncio.sleep(0.3)

        page = asyncio.create_task(lobby_page())
        try:
            await play_out([ann], random.Random(9), until=lambda: ann.state is not None
                           and ann.state["view"]["current_player"] == 1, timeout=30)
            await asyncio.sleep(3)  # three graces of 1 s
        finally:
            page.cancel()
        await ann.wait(lambda c: c.summary is not None, what="the summary")
        summary = dict(ann.summary or {})
        await ann.close()
        return summary

    summary = asyncio.run(go())
    bob = summary["seats"][1]
    assert bob["elsewhere"] is True
    assert (bob["stand_in"], bob["abandoned"]) == (False, False)
    assert summary["status"] == "playing"
