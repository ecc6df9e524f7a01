"""Sessions at a table: reconnecting, watching, rematches, absence, timers, chat, host."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from harness import Client, ServerProcess, play_out
from leaks import Truth, check


async def seated(server: ServerProcess, people: int = 2, start: bool = True,
                 **kw: Any) -> tuple[str, list[str], list[Client]]:
    t, tokens = server.table_with_people(people=people, **kw)
    tid = t["table"]["id"]
    clients = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
    for c in clients:
        await c.wait(lambda c: c.summary is not None, what="the table")
    if start:
        server.start_table(tid, tokens[0])
        for c in clients:
            await c.wait(lambda c: c.state is not None, what="the first state")
    return tid, tokens, clients


async def close_all(clients: list[Client]) -> None:
    for c in clients:
        await c.close()


def test_reconnect_after_a_dropped_socket_gets_the_full_state(server: ServerProcess) -> None:
    async def run() -> None:
        tid, tokens, (a, b) = await seated(server, rules={"holes": 1})
        rng = random.Random(5)
        await play_out([a, b], rng, until=lambda: a.version >= 6)
        await a.drop()
        await b.wait(lambda c: any(not s["connected"] for s in c.summary["seats"][:1]),
                     what="seat 0 shown as away")
        assert b.summary["seats"][0]["away"] is True
        # The table goes on while seat 0 is away: seat 1 still may act on its turn.
        again = await Client(server.ws_url, tid, tokens[0]).connect()
        await again.wait(lambda c: c.state is not None, what="the state after reconnecting")
        assert again.welcome["seat"] == 0 and again.welcome["role"] == "player"
        assert again.state["version"] == b.state["version"]
        assert again.state["view"]["seat"] == 0
        await b.wait(lambda c: c.summary["seats"][0]["connected"], what="seat 0 back")
        await play_out([again, b], rng)
        assert again.over and b.over
        await close_all([a, b, again])

    asyncio.run(run())


def test_invite_join_public_list_and_my_tables(server: ServerProcess) -> None:
    t = server.create(seats=[{"kind": "human"}, {"kind": "human"}], public=True,
                      title="Open game")
    tid = t["table"]["id"]
    listed = server.get("/api/tables").json()["tables"]
    mine = next(x for x in listed if x["id"] == tid)
    assert mine["free"] == 1 and mine["title"] == "Open game"
    assert "invite" not in mine
    info = server.get(f"/api/invites/{t['invite']}").json()
    assert info["id"] == tid and "invite" not in info
    joined = server.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != t["token"]
    assert len(joined["token"]) >= 43  # 32 random bytes
    full = server.post(f"/api/invites/{t['invite']}/join", {"name": "Cy"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"
    bad = server.post("/api/invites/nonsense/join", {"name": "Cy"})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "bad_invite"
    mine = server.post("/api/my-tables", {"tokens": [joined["token"], "junk"]}).json()
    assert [(x["seat"], x["table"]["id"]) for x in mine["tables"]] == [(1, tid)]
    # Every person seated sees the invite in the summary (to share it), others do not.
    assert "invite" in server.get(f"/api/tables/{tid}", token=t["token"]).json()
    assert "invite" in server.get(f"/api/tables/{tid}", token=joined["token"]).json()
    assert "invite" not in server.get(f"/api/tables/{tid}").json()
    private = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
    assert private["table"]["id"] not in [x["id"] for x in server.get("/api/tables").json()
                                          ["tables"]]


def test_spectator_sees_public_view_and_is_counted(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(server, preset="four-card-wild", rules={"holes": 1},
                                      seats=[{"kind": "human"}, {"kind": "human"},
                                             {"kind": "bot", "bot": "medium"}])
        w = await Client(server.ws_url, tid, None).connect()
        await w.wait(lambda c: c.state is not None, what="the spectator's state")
        assert w.welcome["role"] == "spectator" and w.welcome["seat"] is None
        await a.wait(lambda c: c.summary["spectators"] == 1, what="the spectator count")
        assert w.state["legal_actions"] == [] and w.state["view"]["seat"] is None
        for frame in ({"type": "action", "version": w.version, "action": "draw"},
                      {"type": "chat", "text": "hi"}, {"type": "hint", "version": w.version}):
            await w.send(frame)  # each with its own fields (any other is bad_message)
        errs = [await w.wait_error(i) for i in (1, 2, 3)]
        assert {e["code"] for e in errs} == {"spectator"}
        await play_out([a, b], random.Random(2))
        await w.wait(lambda c: c.over, what="the end")
        record = server.get(f"/api/tables/{tid}/matches/1/replay").json()["record"]
        assert check(None, w.frames, w.raw, Truth(record)) > 0
        await w.close()
        await a.wait(lambda c: c.summary["spectators"] == 0, what="the spectator leaving")
        await close_all([a, b])

    asyncio.run(run())


def test_rematch_keeps_seats_and_may_change_rules(server: ServerProcess) -> None:
    async def run() -> None:
        tid, tokens, (a, b) = await seated(server, rules={"holes": 1})
        await play_out([a, b], random.Random(3))
        early = server.post(f"/api/tables/{tid}/rematch", {}, token=tokens[1])
        assert early.status_code == 403 and early.json()["error"]["code"] == "not_host"
        bad = server.post(f"/api/tables/{tid}/rematch", {"rules": {"holes": "two"}},
                          token=tokens[0])
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_rules"
        assert "holes" in bad.json()["error"]["message"]
        r = server.post(f"/api/tables/{tid}/rematch", {"rules": {"holes": 2}},
                        token=tokens[0])
        assert r.status_code == 200, r.text
        # An invitation: the match starts once the other person accepts it.
        assert r.json()["match"] == 1 and r.json()["rules"] == {"holes": 2}
        assert r.json()["rematch"] == {"accepted": [0], "waiting": [1]}
        await b.wait(lambda c: (c.summary.get("rematch") or {}).get("waiting") == [1],
                     what="the invitation")
        r = server.post(f"/api/tables/{tid}/rematch/accept", {}, token=tokens[1])
        assert r.status_code == 200, r.text
        assert r.json()["match"] == 2 and r.json()["rematch"] is None
        for c in (a, b):
            await c.wait(lambda c: c.state["match"] == 2, what="the rematch state")
            assert c.state["version"] == 0 and c.state["view"]["holes"] == 2
        await play_out([a, b], random.Random(4))
        assert a.state["view"]["hole"] >= 2
        matches = server.get(f"/api/tables/{tid}/matches").json()["matches"]
        assert [m["replay"] for m in matches] == [f"/replay/{tid}/1", f"/replay/{tid}/2"]
        one = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        two = server.get(f"/api/tables/{tid}/matches/2/replay").json()
        assert one["record"]["seed"] != two["record"]["seed"]
        assert one["names"] == two["names"] == ["Ann", "P1", "Easy bot"]
        await close_all([a, b])

    asyncio.run(run())


def test_replay_is_refused_while_the_match_runs(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, clients = await seated(server)
        r = server.get(f"/api/tables/{tid}/matches/1/replay")
        assert r.status_code == 409 and r.json()["error"]["code"] == "match_running"
        assert "seed" not in r.text
        step = server.get(f"/api/tables/{tid}/matches/1/replay/0")
        assert step.status_code == 409 and step.json()["error"]["code"] == "match_running"
        assert "seed" not in step.text
        r = server.get(f"/api/tables/{tid}/matches/7/replay")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_match"
        await close_all(clients)

    asyncio.run(run())


@pytest.mark.slow
def test_absent_player_is_replaced_by_a_bot_on_their_turn_and_returns(
        server: ServerProcess) -> None:
    async def run() -> None:
        tid, tokens, (a, b) = await seated(server, rules={"holes": 1},
                                           options={"absence": "bot", "grace": 1})
        # Play until it is seat 1's turn, then seat 1 vanishes.
        rng = random.Random(8)
        await play_out([a, b], rng,
                       until=lambda: a.state["view"]["current_player"] == 1 and
                       a.state["view"]["phase"] == "turn" and a.version > 6)
        await b.drop()
        await a.wait(lambda c: any(f["type"] == "clock" and f["clock"] and
                                   f["clock"]["kind"] == "absence" for f in c.frames),
                     what="the absence countdown")
        started = time.monotonic()
        await a.wait(lambda c: c.summary["seats"][1]["stand_in"], timeout=10,
                     what="the stand-in bot")
        assert time.monotonic() - started < 15  # the grace is 1 s (default 60)
        await a.wait(lambda c: any(e["by"] == "stand_in" for e in c.events()),
                     what="a stand-in move")
        back = await Client(server.ws_url, tid, tokens[1]).connect()
        await a.wait(lambda c: not c.summary["seats"][1]["stand_in"], what="seat 1 back")
        await back.wait(lambda c: c.state is not None)
        await play_out([a, back], rng)
        assert a.over
        await close_all([a, b, back])

    asyncio.run(run())


@pytest.mark.slow
def test_absence_policy_end_ends_the_match(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(server, options={"absence": "end", "grace": 1})
        rng = random.Random(9)
        await play_out([a, b], rng,
                       until=lambda: a.state["view"]["current_player"] == 1 and a.version > 4)
        await b.drop()
        await a.wait(lambda c: c.summary["status"] == "ended", timeout=10, what="the end")
        ended = [e for e in a.events() if e["by"] == "absence"]
        assert ended and "did not come back" in ended[0]["ended"]
        replay = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        assert replay["result"]["ended"]
        await close_all([a, b])

    asyncio.run(run())


@pytest.mark.slow
def test_turn_timeout_plays_a_safe_default_move(server: ServerProcess) -> None:
    async def run() -> None:
        _tid, _, (a, b) = await seated(server, options={"turn_timer": 1, "reserve": 0})
        # Nobody moves: the server plays for seat 0 (setup), then for seat 1.
        await a.wait(lambda c: c.version >= 4, timeout=15, what="default moves")
        events = a.events()
        assert events[0]["by"] == "timeout" and events[0]["seat"] == 0
        assert events[0]["action"] == "reveal 1"
        clocks = [a.state["clock"]] + [f["clock"] for f in a.frames if f["type"] == "state"]
        assert any(c and c["kind"] == "turn" for c in clocks)
        # Once turns start, a timed-out turn draws, then discards: it never knocks.
        await a.wait(lambda c: any(e["action"] == "draw" and e["by"] == "timeout"
                                   for e in c.events()),
                     timeout=20, what="a timed-out draw")
        assert not any(e["action"] == "knock" for e in a.events())
        await close_all([a, b])

    asyncio.run(run())


def test_chat_mute_and_plain_text(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(server, start=False)
        w = await Client(server.ws_url, tid, None).connect()
        await w.wait(lambda c: c.summary is not None)
        await a.send({"type": "chat", "text": "  <b>hi</b>\x00 there  "})
        for c in (a, b, w):
            await c.wait(lambda c: any(f["type"] == "chat" for f in c.frames), what="chat")
        msg = next(f for f in b.frames if f["type"] == "chat")
        assert msg["text"] == "<b>hi</b> there" and msg["seat"] == 0 and msg["name"] == "Ann"
        await b.send({"type": "mute", "seat": 0, "muted": True})
        await b.wait(lambda c: any(f["type"] == "muted" for f in c.frames), what="muted")
        await a.send({"type": "chat", "text": "second"})
        await w.wait(lambda c: sum(f["type"] == "chat" for f in c.frames) == 2)
        await asyncio.sleep(0.3)
        assert sum(f["type"] == "chat" for f in b.frames) == 1
        await a.send({"type": "chat", "text": "x" * 301})
        assert (await a.wait_error(1))["code"] == "chat_too_long"
        await a.send({"type": "chat", "text": " \n "})
        assert (await a.wait_error(2))["code"] == "chat_empty"
        for _ in range(8):
            await a.send({"type": "chat", "text": "spam"})
        await a.wait(lambda c: any(e["code"] == "rate_limited" for e in c.errors),
                     what="the chat limit")
        await close_all([a, b, w])

    asyncio.run(run())


def test_host_tools(server: ServerProcess) -> None:
    async def run() -> None:
        t = server.create(seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
        tid, host = t["table"]["id"], t["token"]
        bob = server.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"}).json()
        cy = server.post(f"/api/invites/{t['invite']}/join", {"name": "Cy"}).json()
        same = server.post(f"/api/invites/{t['invite']}/join", {"name": "bob"})
        assert same.status_code == 409
        bob_c = await Client(server.ws_url, tid, bob["token"]).connect()
        cy_c = await Client(server.ws_url, tid, cy["token"]).connect()
        await cy_c.wait(lambda c: c.welcome is not None)
        assert server.post(f"/api/tables/{tid}/start", token=bob["token"]).json()[
            "error"]["code"] == "not_host"
        # Remove Bob: his socket closes with 4001, his token stops working, Cy moves up.
        r = server.post(f"/api/tables/{tid}/host", {"seat": 5}, token=host)
        assert r.status_code == 422
        gone = httpx_delete(server, f"/api/tables/{tid}/seats/1", host)
        assert gone.status_code == 200, gone.text
        await bob_c.wait(lambda c: c.closes, what="Bob's socket closing")
        assert bob_c.closes[0] == (4001, "removed")
        await cy_c.wait(lambda c: c.welcome["seat"] == 1, what="Cy's new seat number")
        assert server.post("/api/my-tables", {"tokens": [bob["token"]]}).json()["tables"] == []
        again = await Client(server.ws_url, tid, bob["token"]).connect()
        assert (await again.wait_error(1))["code"] == "bad_token"
        # Add a bot, hand the host role to Cy, Cy starts.
        r = server.post(f"/api/tables/{tid}/seats", {"kind": "bot", "bot": "hard"}, token=host)
        assert r.status_code == 200 and r.json()["seats"][2]["bot"] == "hard"
        r = server.post(f"/api/tables/{tid}/host", {"seat": 1}, token=host)
        assert r.status_code == 200 and r.json()["host"] == 1
        await cy_c.wait(lambda c: c.welcome["host"] is True, what="Cy becoming host")
        assert server.post(f"/api/tables/{tid}/start", token=host).status_code == 403
        r = server.post(f"/api/tables/{tid}/start", token=cy["token"])
        assert r.status_code == 200 and r.json()["status"] == "playing"
        await cy_c.wait(lambda c: c.state is not None)
        late = server.post(f"/api/invites/{t['invite']}/join", {"name": "Dee"})
        assert late.json()["error"]["code"] == "already_started"
        await close_all([bob_c, cy_c, again])

    asyncio.run(run())


def test_leaving_before_the_start_closes_with_its_own_reason(server: ServerProcess) -> None:
    """Leaving (4001 ``left``) and being removed by the host (4001 ``removed``) close with
    different reasons, so a client words them apart without reading the English message."""
    t, tokens = server.table_with_people("six-card", people=2,
                                         seats=[{"kind": "human"}] * 2)
    tid = t["table"]["id"]

    async def run() -> None:
        bob = await Client(server.ws_url, tid, tokens[1]).connect()
        await bob.wait(lambda c: c.welcome is not None)
        assert server.post(f"/api/tables/{tid}/leave", token=tokens[1]).status_code == 200
        await bob.wait(lambda c: c.closes, what="Bob's socket closing")
        assert bob.closes[0] == (4001, "left")

    asyncio.run(run())


def test_external_bot_seat_plays_over_the_protocol(server: ServerProcess) -> None:
    async def run() -> None:
        t = server.create(seats=[{"kind": "human"}, {"kind": "external", "name": "Robo"}],
                          rules={"holes": 1})
        tid = t["table"]["id"]
        bot_token = t["bot_tokens"]["1"]
        a = await Client(server.ws_url, tid, t["token"]).connect()
        robo = await Client(server.ws_url, tid, bot_token).connect()
        await robo.wait(lambda c: c.welcome is not None)
        assert robo.welcome["role"] == "bot"
        server.start_table(tid, t["token"])
        await play_out([a, robo], random.Random(11))
        assert robo.over
        await close_all([a, robo])

    asyncio.run(run())


@pytest.mark.parametrize("players", [3, 2])
def test_hint_comes_from_the_coach_on_your_turn(server: ServerProcess, players: int) -> None:
    """A six-card table of two is the ladder's: the coach is the search bot when the
    fast extra is installed (it is in the test environment); of three, the expert."""
    from golf import load_rules
    from golf.server.core.bridge import coach_for

    searching = coach_for(load_rules("six-card"), players).startswith("search")
    assert searching == (players == 2)
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (
        players - 2)

    async def run() -> None:
        _tid, _, (a, b) = await seated(server, seats=seats)
        await a.send({"type": "hint", "version": a.version})
        await a.wait(lambda c: any(f["type"] == "hint" for f in c.frames), what="a hint")
        hint = next(f for f in a.frames if f["type"] == "hint")
        assert hint["options"] and hint["options"][0]["action"] in a.state["legal_actions"]
        if searching:  # the search measures every reveal by its playouts
            assert all(len(o["parts"]) == 2 for o in hint["options"]), hint
        else:  # the expert: where to look first is not decided by points
            assert all(o["value"] is None and o["parts"] == [] for o in hint["options"]), hint
        # On a turn each option carries the number the coach decides by and its parts.
        def my_turn() -> bool:
            return bool(a.state and a.state["your_turn"] and a.state["view"]["phase"] == "turn")
        await play_out([a, b], random.Random(5), until=my_turn)
        a.frames.clear()
        await a.send({"type": "hint", "version": a.version})
        await a.wait(lambda c: any(f["type"] == "hint" for f in c.frames), what="a turn's hint")
        hint = next(f for f in a.frames if f["type"] == "hint")
        for o in hint["options"]:
            assert isinstance(o["value"], float | int) and o["parts"], o
            assert abs(sum(p for _, p in o["parts"]) - o["value"]) < 0.2, o
        values = [o["value"] for o in hint["options"]]
        if searching:  # its choice first (its playout policy's move unless clearly beaten)
            assert values[1:] == sorted(values[1:]), hint
        else:
            assert values == sorted(values), "best first: the lowest value leads"
        await b.send({"type": "hint"})
        assert (await b.wait_error(1))["code"] == "not_your_turn"
        await close_all([a, b])

    asyncio.run(run())


def httpx_delete(server: ServerProcess, path: str, token: str) -> Any:
    import httpx

    return httpx.delete(server.base + path, headers={"Authorization": f"Bearer {token}"})


@pytest.mark.slow
def test_absence_countdown_runs_only_on_the_absent_players_turn(
        server: ServerProcess) -> None:
    async def run() -> None:
        _, _, (a, b) = await seated(server, options={"absence": "bot", "grace": 1})
        assert a.state["view"]["current_player"] == 0  # setup: seat 0 first
        await b.drop()
        await a.wait(lambda c: c.summary["seats"][1]["away"], what="seat 1 away")
        await asyncio.sleep(2.5)  # longer than the grace, but it is not seat 1's turn
        assert not a.summary["seats"][1]["stand_in"]
        assert a.state["clock"] is None
        for _ in range(2):  # seat 0's setup; then it is seat 1's turn and the clock runs
            await a.act(next(x for x in a.state["legal_actions"]))
            await a.wait(lambda c, v=a.version: c.version > v)
        assert a.state["view"]["current_player"] == 1
        assert a.state["clock"]["kind"] == "absence" and a.state["clock"]["seat"] == 1
        await a.wait(lambda c: c.summary["seats"][1]["stand_in"], timeout=10,
                     what="the stand-in after the grace on seat 1's turn")
        await close_all([a, b])

    asyncio.run(run())


@pytest.mark.slow
def test_host_role_passes_when_the_host_stays_away(server: ServerProcess) -> None:
    async def run() -> None:
        _, _, (a, b) = await seated(server, start=False, options={"grace": 1})
        await a.drop()
        await b.wait(lambda c: c.welcome["host"] is True and c.summary["host"] == 1,
                     timeout=10, what="the host role passing to seat 1")
        await close_all([a, b])

    asyncio.run(run())


def test_replay_steps_forward_and_back(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(server, preset="german", rules={"holes": 2,
                                                                       "target": 0})
        await play_out([a, b], random.Random(12))
        summary = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        assert summary["length"] == a.version
        assert [h["hole"] for h in summary["holes"]] == [1, 2]
        truth = Truth(summary["record"])
        second = summary["holes"][1]["version"]
        assert truth.at(second).hole == 2 and truth.at(second - 1).hole == 1
        for v in (0, 1, second, summary["length"]):
            step = server.get(f"/api/tables/{tid}/matches/1/replay/{v}?seat=0").json()
            assert step["view"] == truth.at(v).view(0)
            assert (step["event"] is None) == (v == 0)
            public = server.get(f"/api/tables/{tid}/matches/1/replay/{v}").json()
            assert public["view"] == json.loads(json.dumps(truth.at(v).public_view()))
            if v:
                engine = truth.events[v]
                assert engine is not None
                assert public["event"]["facts"] == \
                    json.loads(json.dumps(engine.to_dict(None)))["facts"]
        # The seat's replay shows what it saw: the events as they were sent during play.
        sent = {f["version"]: f["event"] for f in a.frames
                if f["type"] == "state" and f["event"]}
        for v in (1, 2, 3):
            step = server.get(f"/api/tables/{tid}/matches/1/replay/{v}?seat=0").json()
            assert step["event"] == sent[v]
        bad = server.get(f"/api/tables/{tid}/matches/1/replay/{summary['length'] + 1}")
        assert bad.status_code == 404 and bad.json()["error"]["code"] == "no_step"
        await close_all([a, b])

    asyncio.run(run())
