"""Bad input: each case is answered with an error to the sender only, the state stays
as it was, and the other players carry on."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from harness import Client, ServerProcess

import golf
from golf import GolfError
from golf.server.core.protocol import PROTOCOL


async def table(server: ServerProcess) -> tuple[str, list[str], Client, Client]:
    t, tokens = server.table_with_people(people=2, rules={"holes": 1})
    tid = t["table"]["id"]
    a = await Client(server.ws_url, tid, tokens[0]).connect()
    b = await Client(server.ws_url, tid, tokens[1]).connect()
    await b.wait(lambda c: c.summary is not None)
    server.start_table(tid, tokens[0])
    for c in (a, b):
        await c.wait(lambda c: c.state is not None)
    return tid, tokens, a, b


CASES: list[tuple[str, Any, str]] = [
    ("not json", "{nope", "bad_json"),
    ("binary junk", b"\xff\xfe", "bad_json"),
    ("a list", "[1, 2]", "bad_message"),
    ("a number", "5", "bad_message"),
    ("no type", {"version": 0}, "bad_message"),
    ("type not text", {"type": 7}, "bad_message"),
    ("unknown type", {"type": "teleport"}, "unknown_type"),
    ("too large", {"type": "chat", "text": "x" * 5000}, "too_large"),
    ("second hello", {"type": "hello", "protocol": 1, "table": "x"}, "already_joined"),
    ("version as text", {"type": "action", "version": "0", "action": "reveal 1"},
     "bad_message"),
    ("version as bool", {"type": "action", "version": True, "action": "reveal 1"},
     "bad_message"),
    ("no version", {"type": "action", "action": "reveal 1"}, "bad_message"),
    ("action as number", {"type": "action", "version": 0, "action": 33}, "bad_message"),
    ("unknown action", {"type": "action", "version": 0, "action": "fly 3"}, "bad_action"),
    ("position too big", {"type": "action", "version": 0, "action": "reveal 99"},
     "bad_action"),
    ("off the grid", {"type": "action", "version": 0, "action": "reveal 7"},
     "illegal_action"),
    ("not legal now", {"type": "action", "version": 0, "action": "draw"}, "illegal_action"),
    ("stale version", {"type": "action", "version": 5, "action": "reveal 1"},
     "stale_version"),
    ("mute a bad seat", {"type": "mute", "seat": 9, "muted": True}, "bad_message"),
    ("mute wrong type", {"type": "mute", "seat": 1, "muted": "yes"}, "bad_message"),
]


def test_every_bad_message_is_answered_and_changes_nothing(server: ServerProcess) -> None:
    async def run() -> None:
        _, _, a, b = await table(server)
        assert a.state["view"]["current_player"] == 0
        before_a, before_b = a.state, b.state
        for n, (label, payload, code) in enumerate(CASES, start=1):
            await a.send(payload if isinstance(payload, str | bytes) else json.dumps(payload))
            err = await a.wait_error(n)
            assert err["code"] == code, (label, err)
            assert err["message"], label
            if code in ("stale_version", "illegal_action"):
                assert err["state"]["version"] == before_a["version"], label
            await asyncio.sleep(0.06)  # stay under the rate limit
        # Out of turn, from the other seat:
        await b.send({"type": "action", "version": 0, "action": "reveal 1"})
        err = await b.wait_error(1)
        assert err["code"] == "not_your_turn" and err["state"]["version"] == 0
        assert "seat 0" in err["message"]
        # Nothing changed, nobody else heard of any of it.
        await asyncio.sleep(0.3)
        assert a.state == before_a and b.state == before_b
        assert not [f for f in b.frames if f["type"] == "error"][1:]
        # The engine's message is passed on word for word.
        illegal = next(e for e in a.errors if e["code"] == "illegal_action")
        g = golf.Game(a.state["view"]["variant"], players=3, seed=1)
        with pytest.raises(GolfError) as info:
            g.apply("reveal 7")
        assert illegal["message"] == str(info.value)
        # And play goes on.
        await a.act("reveal 1")
        await b.wait(lambda c: c.version == 1, what="the next version")
        # A duplicate of that action (the same version) is refused with the state.
        await a.act("reveal 2", version=0)
        err = await a.wait_error(len(a.errors) + 1)
        assert err["code"] == "stale_version" and err["state"]["version"] == 1
        await a.close()
        await b.close()

    asyncio.run(run())


def test_hello_errors(server: ServerProcess) -> None:
    async def run() -> None:
        tid, tokens, a, b = await table(server)
        other = server.create()
        d = await Client(server.ws_url, "no-such-table", tokens[0]).connect()
        assert (await d.wait_error(1))["code"] == "no_table"
        e = await Client(server.ws_url, tid, other["token"]).connect()
        err = await e.wait_error(1)
        assert err["code"] == "bad_token"
        # The socket stays open: a correct hello works after a wrong one.
        await e.send({"type": "hello", "protocol": PROTOCOL, "table": tid, "token": tokens[1]})
        await e.wait(lambda c: c.welcome is not None and c.welcome["seat"] == 1)
        f = Client(server.ws_url, tid, tokens[0])
        await f.connect()
        await f.send({"type": "hello", "protocol": 2, "table": tid})
        # (the first hello of f succeeded; the second is refused)
        assert (await f.wait_error(1))["code"] == "already_joined"
        g = await Client(server.ws_url, tid, None).connect()
        await g.wait(lambda c: c.welcome is not None)
        import websockets

        async with websockets.connect(server.ws_url) as raw:
            await raw.send(json.dumps({"type": "action", "version": 0, "action": "draw"}))
            assert json.loads(await raw.recv())["code"] == "not_joined"
            # Protocol 1 (separate event frames) is no longer spoken.
            await raw.send(json.dumps({"type": "hello", "protocol": 1, "table": tid}))
            refused = json.loads(await raw.recv())
            assert refused["code"] == "unsupported_protocol"
            assert f"protocol {PROTOCOL}" in refused["message"]
        for x in (a, b, d, e, f, g):
            await x.close()

    asyncio.run(run())


def test_floods_and_huge_frames_close_only_the_offender(server: ServerProcess) -> None:
    async def run() -> None:
        _, _, a, b = await table(server)
        import websockets

        async with websockets.connect(server.ws_url, max_size=2**20) as huge:
            await huge.send("x" * 100_000)
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(huge.recv(), 10)
            assert huge.close_code == 1009
        flood = await Client(server.ws_url, a.table, None).connect()
        await flood.wait(lambda c: c.welcome is not None)
        for _ in range(200):
            try:
                await flood.send({"type": "ping"})
            except websockets.ConnectionClosed:
                break
        await flood.wait(lambda c: c.closes, what="the flooder being disconnected")
        assert flood.closes[0][0] == 1008
        assert any(e["code"] == "rate_limited" for e in flood.errors)
        # The players were not affected.
        await a.act("reveal 1")
        await b.wait(lambda c: c.version == 1)
        await a.send({"type": "ping"})
        await a.wait(lambda c: any(f["type"] == "pong" for f in c.frames))
        await flood.close()
        await a.close()
        await b.close()

    asyncio.run(run())


def test_lobby_refusals_use_the_engines_messages(server: ServerProcess) -> None:
    def refused(body: Any, code: str, status: int) -> dict[str, Any]:
        r = server.post("/api/tables", body)
        assert r.status_code == status, r.text
        err = r.json()["error"]
        assert err["code"] == code, err
        return dict(err)

    base = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    err = refused({**base, "rules": {"hole": 3}}, "bad_rules", 422)
    with pytest.raises(GolfError) as info:
        golf.load_rules("six-card", {"hole": 3})
    assert err["message"] == str(info.value) and err["field"] == "hole"
    err = refused({**base, "preset": "seven-card"}, "bad_rules", 422)
    with pytest.raises(GolfError) as info:
        golf.rules.preset_rules("seven-card")
    assert err["message"] == str(info.value)
    refused({**base, "name": ""}, "bad_name", 422)
    refused({**base, "name": "x" * 21}, "bad_name", 422)
    refused({**base, "name": "a\x07b"}, "bad_name", 422)
    refused({**base, "seats": [{"kind": "bot"}, {"kind": "human"}]}, "bad_seats", 422)
    refused({**base, "seats": [{"kind": "human"}, {"kind": "wizard"}]}, "bad_seats", 422)
    refused({**base, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "nope"}]},
            "bad_seats", 422)
    err = refused({**base, "preset": "four-card"}, "bad_seats", 422)  # 3 to 7 players
    assert "3" in err["message"]
    refused({**base, "options": {"grace": 0}}, "bad_option", 422)
    refused({**base, "options": {"absence": "sulk"}}, "bad_option", 422)
    refused({**base, "options": {"colour": "red"}}, "bad_option", 422)
    r = httpx_post_raw(server, "/api/tables", b"{not json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    t = server.create()
    r = server.post(f"/api/tables/{t['table']['id']}/start")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = server.post("/api/tables/nope/start", token=t["token"])
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_table"
    check = server.post("/api/rules/check", {"preset": "six-card",
                                              "rules": {"holes": "x", "knock": 3}}).json()
    assert check["ok"] is False and set(check["errors"]) == {"holes", "knock"}
    ok = server.post("/api/rules/check", {"preset": "nine-card", "players": 3}).json()
    assert ok["ok"] and ok["settings"]["rows"] == 3


def httpx_post_raw(server: ServerProcess, path: str, body: bytes) -> Any:
    import httpx

    return httpx.post(server.base + path, content=body,
                      headers={"content-type": "application/json"})
