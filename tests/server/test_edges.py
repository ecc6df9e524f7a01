"""The edges a client written from docs/protocol.md met: nesting, other sites, content
types, error codes, the rate limit, the first state after hello, the OpenAPI document."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from harness import Client, ServerProcess, ended_a_hole

from conftest import BACKENDS, make_server

ALLOWED = "https://friends.example.org"


@pytest.fixture(scope="module", params=BACKENDS)
def guarded(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that also accepts pages of ALLOWED (``--allow-origin``)."""
    srv = make_server(request.param, tmp_path_factory.mktemp("srv"), request)
    srv.args = ["--allow-origin", ALLOWED]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def no_crash_logged(server: ServerProcess) -> None:
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and "RecursionError" not in log, log[-2000:]


BODY = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}


def post(server: ServerProcess, path: str, content: bytes | str,
         headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(server.base + path, content=content, timeout=30,
                      headers={"content-type": "application/json", **(headers or {})})


def test_deep_rest_bodies_are_refused_before_parsing(guarded: ServerProcess) -> None:
    for depth in (40, 1500, 5000):
        body = '{"name": "Ann", "rules": {"x": ' + nested(depth) + "}}"
        r = post(guarded, "/api/tables", body)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "too_deep"
    # Brackets inside strings are text, not nesting; moderate nesting is fine.
    r = post(guarded, "/api/tables", json.dumps({**BODY, "title": "[" * 50}))
    assert r.status_code == 201, r.text
    r = post(guarded, "/api/rules/check", json.dumps({"rules": {"x": [[[[1]]]]}}))
    assert r.status_code == 200 and r.json()["ok"] is False
    r = post(guarded, "/api/tables", b"[" * 20000)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    no_crash_logged(guarded)


def test_deep_frames_get_an_error_and_the_socket_stays(guarded: ServerProcess) -> None:
    async def run() -> None:
        async with websockets.connect(guarded.ws_url) as ws:
            for depth in (33, 1800):
                await ws.send('{"type": "ping", "x": ' + nested(depth) + "}")
                err = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert err["type"] == "error" and err["code"] == "too_deep", err
            await ws.send(b'{"type": "ping", "x": ' + nested(1800).encode() + b"}")
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "too_deep"
            # Brackets in a string are text: not too_deep (only the unknown field is wrong).
            await ws.send(json.dumps({"type": "ping", "x": "[" * 3000}))
            err = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert err["code"] == "bad_message" and err["field"] == "x", err
            # Binary frames are the same UTF-8 JSON.
            await ws.send(b'{"type": "ping"}')
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "pong"

    asyncio.run(run())
    no_crash_logged(guarded)


def test_other_sites_cannot_write_or_open_sockets(guarded: ServerProcess) -> None:
    evil = {"origin": "http://evil.example"}
    r = post(guarded, "/api/tables", json.dumps(BODY), evil)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    r = post(guarded, "/api/tables", json.dumps(BODY), {"origin": "null"})
    assert r.status_code == 403
    r = post(guarded, "/api/tables", json.dumps(BODY), {"sec-fetch-site": "cross-site"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    # A form or a text/plain fetch (no preflight) is not JSON: refused even without Origin.
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        r = post(guarded, "/api/tables", json.dumps(BODY), {"content-type": kind})
        assert r.status_code == 415 and r.json()["error"]["code"] == "bad_content_type"
    r = httpx.post(guarded.base + "/api/tables", content=json.dumps(BODY), timeout=30)
    assert r.status_code == 415
    # The server's own pages, allowed origins and programs without an Origin may write.
    port = guarded.port
    for headers in ({"origin": f"http://127.0.0.1:{port}", "sec-fetch-site": "same-origin"},
                    {"origin": ALLOWED, "sec-fetch-site": "cross-site"},
                    {"origin": ALLOWED + ":443"}, {}):
        r = post(guarded, "/api/tables", json.dumps(BODY), headers)
        assert r.status_code == 201, (headers, r.text)
    # Reads stay open to everyone (nothing changes).
    r = httpx.get(guarded.base + "/api/presets", headers=evil, timeout=30)
    assert r.status_code == 200
    # Nothing was created by the refused requests.
    t = post(guarded, "/api/tables", json.dumps(BODY))
    tid, token = t.json()["table"]["id"], t.json()["token"]
    r = httpx.delete(f"{guarded.base}/api/tables/{tid}/seats/1", timeout=30,
                     headers={**evil, "authorization": f"Bearer {token}"})
    assert r.status_code == 403
    assert len(guarded.get(f"/api/tables/{tid}").json()["seats"]) == 2

    async def sockets() -> None:
        with pytest.raises(websockets.InvalidStatus) as info:
            await websockets.connect(guarded.ws_url, origin=websockets.Origin(evil["origin"]))
        assert info.value.response.status_code == 403
        assert json.loads(info.value.response.body)["error"]["code"] == "cross_site"
        for origin in (f"http://127.0.0.1:{port}", ALLOWED):
            async with websockets.connect(guarded.ws_url,
                                          origin=websockets.Origin(origin)) as ws:
                await ws.send(json.dumps({"type": "ping"}))
                assert json.loads(await ws.recv())["type"] == "pong"

    asyncio.run(sockets())
    no_crash_logged(guarded)


@pytest.mark.parametrize("declared", [b"\xb2", b"\xb9", b"1\xb3", b"-1", b" 9", b"abc", b"12"])
def test_a_content_length_of_other_digits_is_not_trusted(declared: bytes) -> None:
    """Headers are read as latin-1: the byte 0xB2 is "²", a digit to str.isdigit() that
    int() refuses. The guard judges such a declared length as no length (the body's real
    size decides) instead of failing with a bare ValueError. (uvicorn's parser refuses
    such a header before the application; the guard does not rely on that.)"""
    from golf.server.core.protocol import MAX_BODY
    from golf.server.http.guard import Guard

    async def call(body: bytes) -> tuple[list[bytes], list[dict[str, Any]]]:
        seen: list[bytes] = []
        sent: list[dict[str, Any]] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            seen.append((await receive())["body"])
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Any) -> None:
            sent.append(dict(message))

        scope = {"type": "http", "method": "POST", "path": "/api/tables",
                 "headers": [(b"content-length", declared),
                             (b"content-type", b"application/json")]}
        await Guard(app)(scope, receive, send)
        return seen, sent

    seen, sent = asyncio.run(call(b'{"name": "Ann"}'))
    assert seen == [b'{"name": "Ann"}'] and sent[0]["status"] == 204
    seen, sent = asyncio.run(call(b"[" * (MAX_BODY + 1)))
    assert seen == [] and sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"


def test_allow_origin_must_be_an_origin(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "golf", "serve", "--data-dir", str(tmp_path),
                          "--allow-origin", "golf.example.org/x"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "--allow-origin takes an origin" in out.stderr


def test_each_field_keeps_its_own_code(guarded: ServerProcess) -> None:
    for body, code, status in (({**BODY, "name": 12345}, "bad_name", 422),
                               ({**BODY, "name": None}, "bad_name", 422),
                               ({**BODY, "seats": "two"}, "bad_seats", 422),
                               ({**BODY, "options": {"grace": "x"}}, "bad_option", 422),
                               ([1, 2, 3], "bad_message", 400)):
        r = post(guarded, "/api/tables", json.dumps(body))
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.text)


def test_the_openapi_document_is_served(guarded: ServerProcess) -> None:
    spec = guarded.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert "/api/tables" in spec["paths"] and "post" in spec["paths"]["/api/tables"]
    page = guarded.get("/api/docs")
    assert page.status_code == 200 and "/api/openapi.json" in page.text
    assert "/api/tables/{table_id}/start" in page.text and "<script" not in page.text


def test_rate_limited_says_when_to_try_again(guarded: ServerProcess) -> None:
    async def run() -> None:
        t, tokens = guarded.table_with_people(people=2, rules={"holes": 1})
        tid = t["table"]["id"]
        a = await Client(guarded.ws_url, tid, tokens[0]).connect()
        await a.wait(lambda c: c.summary is not None)
        guarded.start_table(tid, tokens[0])
        await a.wait(lambda c: c.state is not None)
        for _ in range(40):
            await a.send({"type": "ping"})
        err = await a.wait_error(1)
        assert err["code"] == "rate_limited"
        assert 0 < err["retry_after"] <= 1000 and err["version"] == 0
        # Every ping answered (a pong or a refusal) before the wait starts: on a loaded
        # machine a ping the server reads late would take the token that refilled.
        await a.wait(lambda c: sum(f["type"] in ("pong", "error") for f in c.frames) >= 40,
                     what="every ping answered")
        last = a.errors[-1]
        assert last["code"] == "rate_limited"
        await asyncio.sleep(last["retry_after"] / 1000)
        await a.act("reveal 1")
        await a.wait(lambda c: c.version == 1, what="the action after retry_after")
        await a.close()

    asyncio.run(run())


def test_accepted_actions_never_run_into_the_limit(guarded: ServerProcess) -> None:
    """A person at a table of instant bots acts far faster than the bucket refills. At
    each hole's end they say ``ready`` at once, as a page closing the dialog does (the
    next hole would otherwise wait out its countdown)."""
    async def run() -> None:
        t = guarded.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                           rules={"holes": 3})
        tid, token = t["table"]["id"], t["token"]
        a = await Client(guarded.ws_url, tid, token).connect()
        await a.wait(lambda c: c.summary is not None)
        guarded.start_table(tid, token)
        acted = readied = -1
        while not a.over:
            await a.wait(lambda c, acted=acted, readied=readied: c.over or (
                c.state is not None and (
                    (ended_a_hole(c.state) and c.version > readied)
                    or (c.state["your_turn"] and c.version > acted))),
                what="my turn or a hole's end")
            if a.over:
                break
            assert a.state is not None
            if ended_a_hole(a.state) and a.version > readied:
                readied = a.version
                await a.send({"type": "ready"})
                continue
            acted = a.version
            await a.act(a.state["legal_actions"][0])
        assert not a.errors, a.errors[:3]
        assert readied > 0  # the holes' ends were met (and said ready to)
        assert a.version > 2 * 30  # far more actions than one bucket holds
        await a.close()

    asyncio.run(run())


def test_the_first_state_after_hello_has_no_clock_for_the_new_connection(
        guarded: ServerProcess) -> None:
    async def run() -> None:
        t, tokens = guarded.table_with_people(people=2, options={"absence": "bot",
                                                                 "grace": 60})
        tid = t["table"]["id"]
        a = await Client(guarded.ws_url, tid, tokens[0]).connect()
        await a.wait(lambda c: c.summary is not None)
        guarded.start_table(tid, tokens[0])
        await a.wait(lambda c: c.state is not None)
        for _ in range(2):  # seat 0's setup; then it is absent seat 1's turn
            await a.act(a.state["legal_actions"][0])
            await a.wait(lambda c, v=a.version: c.version > v)
        await a.wait(lambda c: c.state["clock"] is not None or any(
            f["type"] == "clock" and f["clock"] for f in c.frames), what="the absence clock")
        b = await Client(guarded.ws_url, tid, tokens[1]).connect()
        await b.wait(lambda c: c.state is not None)
        first = next(f for f in b.frames if f["type"] == "state")
        assert first["clock"] is None, first["clock"]
        assert first["your_turn"] is True
        await a.wait(lambda c: any(f["type"] == "clock" and f["clock"] is None
                                   for f in c.frames), what="the clock stopping for seat 0")
        await a.close()
        await b.close()

    asyncio.run(run())


# --- the document itself ---------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def doc_section(title: str) -> str:
    text = DOC.read_text()
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start:] if end < 0 else text[start:end]


def test_the_docs_example_client_plays_a_whole_match_as_written(
        guarded: ServerProcess, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    section = doc_section("## A minimal client")
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    script = tmp_path / "client.py"
    script.write_text(code.group(1))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "GOLF_URL": guarded.base})
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("match over: totals"), out.stdout
    no_crash_logged(guarded)


def test_every_error_code_is_documented_with_its_status() -> None:
    from golf.server.core.protocol import CODES

    table = doc_section("## Errors")
    rows = {m.group(1): int(m.group(2))
            for m in re.finditer(r"^\| `(\w+)` \| (\d+) \|", table, re.M)}
    assert rows == CODES


def test_every_field_of_the_view_is_documented() -> None:
    import golf
    from golf.types import ViewDict

    table = doc_section("#### The view")
    documented = set(re.findall(r"`(\w+)`", table))
    g = golf.Game("six-card", players=2, seed=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    keys = set(ViewDict.__annotations__) | set(g.view(0)) | set(g.public_view())
    keys |= set(g.view(0)["last_hole"])
    assert keys <= documented, sorted(keys - documented)
