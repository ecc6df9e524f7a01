"""What the docs say, the server does: found by a client written from docs/ alone.

Unknown fields are refused naming them, type errors name the type, every error body is the
protocol's, the turn clock's ``remaining`` is the turn timer, every code the server can send
is documented (and every documented one is sent somewhere), and the OpenAPI document lists
each error status a call really answers with the real error body.

The server runs in this process (Starlette's test client, SQLite): what is checked here is
the contract of the edge, the same on every database.
"""

from __future__ import annotations

import ast
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from golf.server.api.openapi import statuses
from golf.server.app import Config, create_app
from golf.server.core.protocol import (
    ACCOUNT_CODES,
    CHAT_BURST,
    CODES,
    FRAME_FIELDS,
    MAX_BODY,
    PROTOCOL,
)
from golf.server.tables.clocks import Clocks

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SITE = "http://testserver"  # the test client's own origin


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    application = create_app(Config(data_dir=tmp_path_factory.mktemp("contract"),
                                    bot_wait=0.0))
    with TestClient(application) as client:
        yield client


def new_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}],
            "options": {"bot_delay": 0}, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def joined(client: TestClient, t: dict[str, Any], name: str = "Bob") -> str:
    r = client.post(f"/api/invites/{t['invite']}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def started(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A running two-person match: its id, the host's token (seat 0 moves first), Bob's."""
    t = new_table(client, **extra)
    bob = joined(client, t)
    r = client.post(f"/api/tables/{t['table']['id']}/start",
                    headers={"Authorization": f"Bearer {t['token']}"})
    assert r.status_code == 200, r.text
    return t["table"]["id"], t["token"], bob


async def _next_message(ws: WebSocketTestSession, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await ws._send_rx.receive()  # the test client's own queue, with a timeout


def receive(ws: WebSocketTestSession, timeout: float = 10) -> dict[str, Any]:
    """The next frame the server sent (a test never hangs on a frame that is not coming)."""
    message = ws.portal.call(_next_message, ws, timeout)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (the frames before it are read and dropped)."""
    for _ in range(50):
        frame = receive(ws)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def sit(ws: WebSocketTestSession, table: str, token: str | None) -> dict[str, Any]:
    """hello; returns the first state (the match runs)."""
    ws.send_json({"type": "hello", "protocol": PROTOCOL, "table": table, "token": token})
    state = until(ws, "state")
    until(ws, "history")
    return state


def refused(ws: WebSocketTestSession, frame: dict[str, Any]) -> dict[str, Any]:
    ws.send_json(frame)
    return until(ws, "error")  # (table updates may come before it)


# --- unknown fields and type errors, on the WebSocket ------------------------------------------

def test_a_frame_with_an_unknown_field_is_bad_message_naming_it(app: TestClient) -> None:
    table, host, bob = started(app)
    with app.websocket_connect(f"/ws?table={table}") as a, \
            app.websocket_connect(f"/ws?table={table}") as b:
        state = sit(a, table, host)
        sit(b, table, bob)
        version = state["version"]
        # Bob, not on turn, claims to act for seat 0: the field is refused, not the turn.
        err = refused(b, {"type": "action", "version": version, "action": "reveal 1",
                          "as_seat": 0})
        assert (err["code"], err["field"]) == ("bad_message", "as_seat"), err
        assert "as_seat" in err["message"] and "state" not in err
        # Even the seat on turn: an action with an extra field is not played.
        err = refused(a, {"type": "action", "version": version, "action": "reveal 1",
                          "seat": 0})
        assert (err["code"], err["field"]) == ("bad_message", "seat"), err
        extra = {"type": "zz_unknown"}
        for kind, fields in FRAME_FIELDS.items():
            frame: dict[str, Any] = {"type": kind, "zz_unknown": 1}
            err = refused(a, frame)
            assert (err["code"], err.get("field")) == ("bad_message", "zz_unknown"), (kind, err)
            # The message names the field and the fields the frame has.
            assert "zz_unknown" in err["message"], err
            assert all(f in err["message"] for f in fields), (kind, err)
        assert extra  # (every client type was tried)
        # Nothing changed: the state is still the one before, seat 0 still on turn.
        a.send_json({"type": "sync"})
        again = until(a, "state")
        assert again["version"] == version and again["your_turn"] is True
        a.send_json({"type": "action", "version": version, "action": "reveal 1"})
        assert until(a, "state")["version"] == version + 1


def test_hello_with_an_unknown_field_or_a_wrong_type_is_refused(app: TestClient) -> None:
    table, host, _bob = started(app)
    with app.websocket_connect(f"/ws?table={table}") as ws:
        err = refused(ws, {"type": "hello", "protocol": PROTOCOL, "table": table,
                           "token": None, "seat": 0})
        assert (err["code"], err["field"]) == ("bad_message", "seat"), err
        err = refused(ws, {"type": "hello", "protocol": str(PROTOCOL), "table": table,
                           "token": host})
        assert (err["code"], err["field"]) == ("bad_message", "protocol"), err
        # It names the type it got and the version it wants, not another one.
        assert "string" in err["message"] and str(PROTOCOL) in err["message"], err
        assert "version, 1" not in err["message"], err
        err = refused(ws, {"type": "hello", "protocol": PROTOCOL, "table": table,
                           "show_peeks": "yes"})
        assert "a boolean" in err["message"] and "a string" in err["message"], err
        # Nothing joined: a correct hello now works.
        assert sit(ws, table, host)["version"] == 0


def test_chats_rate_limited_has_retry_after_and_the_version(app: TestClient) -> None:
    table, host, _bob = started(app)
    with app.websocket_connect(f"/ws?table={table}") as ws:
        state = sit(ws, table, host)
        for n in range(CHAT_BURST):
            ws.send_json({"type": "chat", "text": f"line {n}"})
            until(ws, "chat")
        err = refused(ws, {"type": "chat", "text": "one too many"})
        assert err["code"] == "rate_limited", err
        assert err["retry_after"] > 0 and err["version"] == state["version"], err


# --- REST bodies ------------------------------------------------------------------------------

def body_routes(client: TestClient) -> list[tuple[str, str, APIRoute]]:
    out = []
    for context in iter_route_contexts(client.app.routes):  # type: ignore[attr-defined]
        route = context.original_route
        if isinstance(route, APIRoute) and route.include_in_schema and route.body_field:
            for method in sorted(context.methods or ()):
                out.append((method, str(context.path_format), route))
    return out


def fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)


def browser_headers(client: TestClient, token: str | None = None) -> dict[str, str]:
    """What this site's own page sends on a write (Origin, CSRF token), plus a seat token."""
    me = client.get("/api/me").json()
    headers = {"Origin": SITE, "X-CSRF-Token": me["csrf"]}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def test_every_rest_body_refuses_an_unknown_field_naming_it(app: TestClient) -> None:
    t = new_table(app, public=True)
    values = {"table_id": t["table"]["id"], "code": t["invite"], "position": "1",
              "player_id": "nobody", "ticket": "nothing"}
    headers = browser_headers(app, t["token"])
    before = app.get("/api/health").json()["tables"]
    routes = body_routes(app)
    assert len(routes) >= 20, routes
    for method, path, _route in routes:
        r = app.request(method, fill(path, values), json={"zz_unknown": 1},
                        headers=headers)
        assert r.status_code == 400, (method, path, r.text)
        err = r.json()["error"]
        assert (err["code"], err["field"]) == ("bad_message", "zz_unknown"), (path, err)
        assert "zz_unknown" in err["message"]
    # A known body with one unknown field: refused as a whole, nothing made.
    r = app.post("/api/tables", json={"name": "Ann", "bogus_field": True})
    assert r.status_code == 400 and r.json()["error"]["field"] == "bogus_field", r.text
    r = app.post(f"/api/tables/{t['table']['id']}/seats", headers=headers,
                 json={"kind": "bot", "bot": "easy", "colour": "red"})
    assert r.status_code == 400 and r.json()["error"]["field"] == "colour", r.text
    assert len(app.get(f"/api/tables/{t['table']['id']}").json()["seats"]) == 2
    assert app.get("/api/health").json()["tables"] == before
    # A field of the wrong JSON type: the message names the type it got.
    r = app.post("/api/tables", json={"name": "Ann", "public": "yes"})
    err = r.json()["error"]
    assert (err["code"], err["field"]) == ("bad_option", "public"), err
    assert "boolean" in err["message"] and "got a string" in err["message"], err


def test_a_body_that_is_not_utf8_is_bad_json_in_the_error_body(app: TestClient) -> None:
    for path in ("/api/tables", "/api/rules/check", "/api/my-tables"):
        for raw in (b'{"name": "\xff\xfe"}', b"\xff", '{"name": "Ä"}'.encode("utf-16")):
            r = app.post(path, content=raw, headers={"content-type": "application/json"})
            assert r.status_code == 400, (path, raw, r.text)
            assert r.json()["error"]["code"] == "bad_json", r.text
            assert "detail" not in r.json()


def test_no_answer_has_fastapis_detail_body(app: TestClient) -> None:
    r = app.get("/api/no-such-call")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", r.text
    r = app.put("/api/tables", json={})
    assert r.status_code == 405 and r.json()["error"]["code"] == "bad_method", r.text
    assert "POST" in r.headers["allow"]
    tid = new_table(app)["table"]["id"]
    r = app.get(f"/api/tables/{tid}/matches/one/replay")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message", r.text


# --- quick play ----------------------------------------------------------------------------

def test_leaving_a_ticket_not_yours_or_left_already_is_no_ticket(app: TestClient) -> None:
    headers = browser_headers(app)
    r = app.post("/api/quickplay", json={"preset": "six-card", "players": 2}, headers=headers)
    assert r.status_code == 201, r.text
    ticket = r.json()["state"]["ticket"]
    other = TestClient(app.app)  # another browser (its own cookies): another guest
    r = other.delete(f"/api/quickplay/{ticket}", headers=browser_headers(other))
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_ticket", r.text
    assert app.get(f"/api/quickplay/{ticket}").status_code == 200  # still queued
    r = app.delete(f"/api/quickplay/{ticket}", headers=headers)
    assert r.status_code == 204, r.text
    for ticket_id in (ticket, "never-was"):
        r = app.delete(f"/api/quickplay/{ticket_id}", headers=headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_ticket", r.text


# --- the turn clock ------------------------------------------------------------------------

def test_remaining_is_the_turn_timer_and_reserve_the_reserve() -> None:
    c = Clocks({"turn_timer": 20, "reserve": 30, "grace": 60, "bot_delay": 0}, 2)
    c.track_turn((1, 0), now=0.0)
    plan = c.plan(0, seat=0, mover=None, connected=True, wait_when_gone=False, now=5.0)
    assert plan is not None and plan.at == 50.0  # the default move after timer + reserve
    assert c.clock is not None
    assert (c.clock["kind"], c.clock["remaining"], c.clock["reserve"]) == ("turn", 15000, 30000)
    c.plan(0, seat=0, mover=None, connected=True, wait_when_gone=False, now=32.0)
    assert (c.clock["remaining"], c.clock["reserve"]) == (0, 18000)  # 12 s into the reserve
    # After the turn the seat keeps what it did not use.
    c.track_turn((1, 1), now=32.0)
    assert c.reserve_left[0] == 18.0


def test_the_state_frames_clock_says_the_turn_timer_and_the_reserve(app: TestClient) -> None:
    table, host, _bob = started(app, options={"bot_delay": 0, "turn_timer": 40,
                                              "reserve": 25})
    with app.websocket_connect(f"/ws?table={table}") as ws:
        asked = time.time() * 1000
        clock = sit(ws, table, host)["clock"]
        if clock is None:  # the first state of a new connection may come before the clock
            clock = until(ws, "clock")["clock"]
        assert clock["kind"] == "turn" and clock["seat"] == 0, clock
        assert 35000 <= clock["remaining"] <= 40000, clock
        assert clock["reserve"] == 25000, clock
        assert abs(clock["deadline"] - (asked + 65000)) < 5000, clock  # timer + reserve


# --- every code is documented ---------------------------------------------------------------

ERROR_CLASSES = {"ProtocolError", "AccountError"}
POLICY_CLASSES = {"PasswordRejected", "UsernameRejected"}  # golf.identity: sent as 422


def emitted_codes() -> tuple[dict[str, set[int]], list[str]]:
    """Every (code, status) the server's source can send, read from its error constructors,
    and the places that pass a code on from elsewhere (to be looked at by hand)."""
    out: dict[str, set[int]] = {}
    relayed: list[str] = []

    def add(code: str, status: int) -> None:
        out.setdefault(code, set()).add(status)

    files = sorted((ROOT / "src/golf/server").rglob("*.py"))  # every folder of it
    files += sorted((ROOT / "src/golf/identity").glob("*.py"))
    for path in files:
        tree = ast.parse(path.read_text())
        # super().__init__(code, ...) in a subclass of an error class makes one too.
        in_subclass = {id(call) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                       and any(getattr(b, "id", None) in ERROR_CLASSES for b in node.bases)
                       for call in ast.walk(node) if isinstance(call, ast.Call)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            inside_sub = (name == "__init__" and id(node) in in_subclass
                          and isinstance(func, ast.Attribute)
                          and isinstance(func.value, ast.Call)
                          and getattr(func.value.func, "id", None) == "super")
            if name in POLICY_CLASSES:
                policy = node.args[0]
                assert isinstance(policy, ast.Constant), (path, node.lineno)
                add(str(policy.value), 422)
                continue
            if name == "RecoveryCodeRejected":
                add("bad_recovery_code", 422)
                continue
            if name not in ERROR_CLASSES and not inside_sub:
                continue
            first = node.args[0] if node.args else None
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
                relayed.append(where)
                continue
            code = first.value
            if name == "AccountError":
                status = node.args[2]
                assert isinstance(status, ast.Constant), where
                add(code, int(str(status.value)))
            else:
                assert code in CODES, f"{where}: {code} is not in protocol.CODES"
                add(code, CODES[code])
    return out, relayed


def documented_codes() -> dict[str, set[int]]:
    """Every code of the docs' error tables, with its HTTP statuses."""
    out: dict[str, set[int]] = {}
    protocol = (DOCS / "protocol.md").read_text()
    identity = (DOCS / "identity.md").read_text()
    tables = [protocol[protocol.index("## Errors"):],
              identity[identity.index("#### Refusals"):]]
    for text in tables:
        for m in re.finditer(r"^\| ((?:`\w+`(?:, )?)+) \| ([\d, ]+) \|", text, re.M):
            for code in re.findall(r"`(\w+)`", m.group(1)):
                out.setdefault(code, set()).update(int(s) for s in m.group(2).split(","))
    return out


def test_every_code_the_server_can_send_is_documented_and_each_documented_one_is_sent(
        ) -> None:
    sent, relayed = emitted_codes()
    docs = documented_codes()
    registry: dict[str, set[int]] = {c: {s} for c, s in CODES.items()}
    for code, more in ACCOUNT_CODES.items():
        registry.setdefault(code, set()).update(more)
    undocumented = {c: sorted(s - docs.get(c, set())) for c, s in sent.items()
                    if not s <= docs.get(c, set())}
    assert not undocumented, f"sent but not documented with that status: {undocumented}"
    unregistered = {c: sorted(s) for c, s in sent.items() if not s <= registry.get(c, set())}
    assert not unregistered, f"sent but in neither CODES nor ACCOUNT_CODES: {unregistered}"
    # Every documented code is one the server sends (not_found and bad_method come from
    # the application's handler of unknown calls, by name in golf.server.app).
    never = set(docs) - set(sent)
    assert never == set(), f"documented but never sent: {sorted(never)}"
    assert docs == registry, "the docs' tables and the registry disagree"
    # The codes passed on from elsewhere: refused_body (FIELD_CODES, all in CODES), the
    # policy refusals of golf.identity (422, collected above), RefusedWithState (its own
    # ProtocolError's code again).
    assert len(relayed) == 4, relayed


# --- the OpenAPI document -----------------------------------------------------------------

def operations(client: TestClient) -> Iterator[tuple[str, str, APIRoute]]:
    for context in iter_route_contexts(client.app.routes):  # type: ignore[attr-defined]
        route = context.original_route
        if isinstance(route, APIRoute) and route.include_in_schema:
            for method in sorted(context.methods or ()):
                yield method, str(context.path_format), route


def test_the_openapi_document_describes_the_real_error_bodies(app: TestClient) -> None:
    spec = app.get("/api/openapi.json").json()
    text = json.dumps(spec)
    assert "HTTPValidationError" not in text and "ValidationError" not in text
    assert {"ErrorBody", "ErrorInfo"} <= set(spec["components"]["schemas"])
    error = spec["components"]["schemas"]["ErrorBody"]
    assert error["required"] == ["error"]
    seen = 0
    for method, path, route in operations(app):
        responses = spec["paths"][path][method.lower()]["responses"]
        for status, response in responses.items():
            if not status.startswith(("4", "5")) or path == "/api/health":
                continue
            seen += 1
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, status)
            codes = response["x-error-codes"]
            assert codes and all(int(status) in statuses(c) for c in codes), (path, codes)
        if route.body_field is not None:
            assert {"400", "413", "415"} <= set(responses), (method, path)
        if method != "GET":
            assert "cross_site" in responses["403"]["x-error-codes"], (method, path)
    assert seen > 100


def check_listed(spec: dict[str, Any], method: str, path: str, r: Any,
                 found: set[tuple[str, str, int]]) -> None:
    """An error answer of ``method path``: the protocol's body, and the document lists its
    status with that code."""
    if r.status_code < 400:
        return
    body = r.json()
    assert set(body) == {"error"}, (method, path, r.text)
    code = body["error"]["code"]
    responses = spec["paths"][path][method.lower()]["responses"]
    listed = responses.get(str(r.status_code), {}).get("x-error-codes", [])
    assert code in listed, (method, path, r.status_code, code, sorted(responses))
    found.add((method, path, r.status_code))


def test_every_error_a_call_answers_is_in_its_openapi_entry(app: TestClient) -> None:
    """Walks every call and provokes what can be provoked without a finished match: each
    refusal's status and code must be listed for that call."""
    spec = app.get("/api/openapi.json").json()
    found: set[tuple[str, str, int]] = set()
    t = new_table(app)
    tid = t["table"]["id"]
    good = {"table_id": tid, "code": t["invite"], "position": "1", "player_id": "nobody",
            "ticket": "nothing", "number": "1", "version": "0", "preset": "six-card",
            "band": "2", "session_id": "none", "passkey_id": "1"}
    bad = {**good, "table_id": "nope", "code": "nope", "position": "x", "number": "x",
           "version": "x", "preset": "nope", "passkey_id": "x"}
    own = browser_headers(app, t["token"])
    for method, path, route in operations(app):
        tries: list[tuple[dict[str, str], dict[str, str], Any]] = [
            (good, {}, None), (bad, {}, None), (good, own, None),
            (good, {"Authorization": "Bearer nobody"}, None),
            (good, {"Origin": "http://evil.example"}, None),
        ]
        if route.body_field is not None:
            tries += [(good, own, b"\xff"), (good, own, b"[1]"), (good, own, b"{"),
                      (good, own, b"[" * 40 + b"]" * 40),
                      (good, own, b'{"a": "' + b"x" * MAX_BODY + b'"}'),
                      (good, {**own, "content-type": "text/plain"}, b"{}")]
        for values, headers, content in tries:
            if content is not None and "content-type" not in headers:
                headers = {**headers, "content-type": "application/json"}
            r = app.request(method, fill(path, values), headers=headers, content=content)
            check_listed(spec, method, path, r, found)
    # The calls' own refusals, one scenario each, at a fresh table (the walk may have
    # started the last one, or made its host leave).
    t = new_table(app)
    tid = t["table"]["id"]
    good = {**good, "table_id": tid, "code": t["invite"]}
    own = browser_headers(app, t["token"])
    host = {"Authorization": f"Bearer {t['token']}"}
    bob = joined(app, t)
    scenario = [
        ("POST", "/api/invites/{code}/join", {"name": "bob"}, {}),  # name_taken
        ("POST", "/api/tables/{table_id}/join", {"name": "Cy"}, {}),  # not public
        ("POST", "/api/tables/{table_id}/nudge", None, host),  # not_started
        ("POST", "/api/tables/{table_id}/timer", {"turn_timer": 30}, host),
        ("POST", "/api/tables/{table_id}/rematch", None, host),  # not_finished
        ("POST", "/api/tables/{table_id}/rematch/accept", None, host),  # no_rematch
        ("POST", "/api/tables/{table_id}/seats/{position}/bot/consent", {"consent": True},
         host),  # no_proposal
        ("POST", "/api/tables/{table_id}/host", {"seat": 5}, host),  # bad_seats
        ("PATCH", "/api/tables/{table_id}", {"public": True},
         {"Authorization": f"Bearer {bob}"}),  # not_host
        ("POST", "/api/tables", {"name": "Ann", "preset": "nope"}, {}),  # bad_rules
        ("POST", "/api/tables", {"name": ""}, {}),  # bad_name
        ("POST", "/api/tables", {"name": "Ann", "rated": True, "rules": {"holes": 3}},
         {}),  # not_rateable
        ("GET", "/api/tables/{table_id}/matches/{number}/replay", None, {}),  # no_match
        ("GET", "/api/tables/{table_id}/matches/{number}/ratings", None, {}),
        ("GET", "/api/players/{player_id}", None, {}),  # no_player
        ("GET", "/api/leaderboards/{preset}/{band}", None, {}),
        ("GET", "/api/sessions", None, {}),  # not_signed_in
        ("POST", "/api/signin", {"username": "nobody", "password": "x" * 12}, own),
        ("POST", "/api/account/claim", {"username": "ab", "password": "x" * 12}, own),
        ("GET", "/api/quickplay/{ticket}", None, {}),  # no_ticket
        ("POST", "/api/quickplay", {"preset": "nope", "players": 2}, own),  # bad_rules
        ("POST", "/api/players/{player_id}/block", None, own),  # no_player
        ("POST", "/api/me/name", None, {"Origin": SITE}),  # bad_csrf
    ]
    for method, path, body, headers in scenario:
        values = {**good, "preset": "nope"} if "leaderboards" in path else good
        r = app.request(method, fill(path, values), json=body, headers=headers)
        assert r.status_code >= 400, (method, path, r.text)
        check_listed(spec, method, path, r, found)
    r = app.post("/api/me/tables/nope/seat", headers=own)  # no_seat
    check_listed(spec, "POST", "/api/me/tables/{table_id}/seat", r, found)
    assert r.json()["error"]["code"] == "no_seat"
    r = app.post(f"/api/tables/{tid}/start", headers=host)
    assert r.status_code == 200, r.text
    r = app.post(f"/api/invites/{t['invite']}/join", json={"name": "Dee"})
    check_listed(spec, "POST", "/api/invites/{code}/join", r, found)  # already_started
    statuses_seen = {s for _m, _p, s in found}
    assert {400, 401, 403, 404, 405, 409, 413, 415, 422} - {405} <= statuses_seen
    assert len(found) > 150, len(found)
