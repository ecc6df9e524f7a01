"""Text that cannot disguise itself: no path by which one person's text reaches another
carries a bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) or
an invisible formatting character (the issue: "a chat line with U+202E is delivered and
shown reversed ('gnp.exe')"). Chat and report reasons have them dropped
(``golf.server.core.protocol.clean_text``); names are refused with ``bad_name``
(``check_name``), usernames are ASCII (``golf.identity.usernames``). The zero-width joiner
is dropped too, though emoji sequences use it: they show as their separate emoji.

The server runs in this process (Starlette's test client, SQLite), as in test_contract.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from test_contract import browser_headers, joined, new_table, started, until

from golf.admin import run_action
from golf.server.app import Config, create_app
from golf.server.core.protocol import PROTOCOL, ProtocolError, clean_text, hidden

#: One of each kind the issue names (written as escapes: this file shows none of them).
HIDDEN = {
    "RLO U+202E": "\u202e", "LRI U+2066": "\u2066", "RLM U+200F": "\u200f",
    "ZWJ U+200D": "\u200d", "ALM U+061C": "\u061c", "LRM U+200E": "\u200e",
    "PDI U+2069": "\u2069", "LRE U+202A": "\u202a", "ZWSP U+200B": "\u200b",
    "BOM U+FEFF": "\ufeff", "Hangul filler U+3164": "\u3164",
}
KINDS = list(HIDDEN)
#: Every bidirectional control there is.
BIDI = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> bool:
    """No bidirectional control and no other hidden character."""
    return not BIDI.search(text) and not any(hidden(c) for c in text)


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return Config(data_dir=tmp_path_factory.mktemp("plain"), bot_wait=0.0)


@pytest.fixture(scope="module")
def app(config: Config) -> Iterator[TestClient]:
    with TestClient(create_app(config)) as client:
        yield client


def hello(ws: WebSocketTestSession, table: str, token: str | None) -> list[dict[str, Any]]:
    """Sit (or watch); the chat lines the history frame brings."""
    ws.send_json({"type": "hello", "protocol": PROTOCOL, "table": table, "token": token})
    return list(until(ws, "history")["chat"])


def test_the_one_rule() -> None:
    for kind, ch in HIDDEN.items():
        assert hidden(ch), kind
        assert clean_text(f"pay {ch}gnp.exe{ch}") == "pay gnp.exe", kind
    # Letters of every script, emoji with their variation selector and marks stay.
    for text in ("Zoë", "\u05d0\u05d1\u05d2", "\u0639\u0644\u064a", "\u2764\ufe0f", "a\u0301"):
        assert clean_text(text) == text and not any(hidden(c) for c in text)
    # An emoji sequence loses its joiners: its emoji, side by side.
    assert clean_text("\U0001f468\u200d\U0001f469\u200d\U0001f467") == \
        "\U0001f468\U0001f469\U0001f467"
    assert clean_text("line one\nline two\t!") == "line one line two !"


# --- chat: WebSocket -------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_chat_line_arrives_and_is_kept_without_them(app: TestClient, kind: str) -> None:
    ch = HIDDEN[kind]
    table, host, bob = started(app)
    with app.websocket_connect(f"/ws?table={table}") as ann_ws, \
            app.websocket_connect(f"/ws?table={table}") as bob_ws:
        hello(ann_ws, table, host)
        hello(bob_ws, table, bob)
        ann_ws.send_json({"type": "chat", "text": f"see {ch}gnp.exe{ch} {ch}now"})
        said = until(bob_ws, "chat")
        assert said["text"] == "see gnp.exe now" and plain(said["text"]), said
        ann_ws.send_json({"type": "chat", "text": ch * 3})  # nothing left: not sent
        assert until(ann_ws, "error")["code"] == "chat_empty"
    with app.websocket_connect(f"/ws?table={table}") as watcher:
        kept = hello(watcher, table, None)
        assert [line["text"] for line in kept] == ["see gnp.exe now"]


# --- names: REST ----------------------------------------------------------------------

def refused_name(r: Any) -> None:
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert (err["code"], err["field"]) == ("bad_name", "name"), err


@pytest.mark.parametrize("kind", KINDS)
def test_a_profile_name_with_them_is_refused(app: TestClient, kind: str) -> None:
    headers = browser_headers(app)
    before = app.get("/api/me").json()["player"]["name"]
    refused_name(app.post("/api/me/name", json={"name": f"Ann{HIDDEN[kind]}"},
                          headers=headers))
    refused_name(app.post("/api/me/name", json={"name": f"{HIDDEN[kind]}exe.png"},
                          headers=headers))
    assert app.get("/api/me").json()["player"]["name"] == before
    r = app.post("/api/me/name", json={"name": "Zoë \u05d0\u05d1"}, headers=headers)
    assert r.status_code == 200 and r.json()["me"]["player"]["name"] == "Zoë \u05d0\u05d1"


@pytest.mark.parametrize("kind", KINDS)
def test_names_at_a_table_with_them_are_refused(app: TestClient, kind: str) -> None:
    ch = HIDDEN[kind]
    two = [{"kind": "human"}, {"kind": "human"}]
    # The host's name, an external bot's name.
    refused_name(app.post("/api/tables", json={"name": f"Ann{ch}", "seats": two}))
    r = app.post("/api/tables", json={"name": "Ann", "seats": [
        {"kind": "human"}, {"kind": "external", "name": f"gnp{ch}.exe"}]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text
    # Joining by invite and joining a public table.
    t = new_table(app, public=True)
    refused_name(app.post(f"/api/invites/{t['invite']}/join", json={"name": f"{ch}Bob"}))
    refused_name(app.post(f"/api/tables/{t['table']['id']}/join",
                          json={"name": f"Bob{ch}"}))
    seats = app.get(f"/api/tables/{t['table']['id']}").json()["seats"]
    assert all(plain(s["name"] or "") for s in seats)
    assert joined(app, t, "Bob")


@pytest.mark.parametrize("kind", KINDS)
def test_a_username_with_them_is_refused(app: TestClient, kind: str) -> None:
    other = TestClient(app.app)  # a browser of its own: its own guest
    r = other.post("/api/account/claim", headers=browser_headers(other),
                   json={"username": f"ann{HIDDEN[kind]}k", "password": "plum tree 42 river"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_characters", r.text
    assert other.get("/api/me").json()["player"]["username"] is None


@pytest.mark.parametrize("kind", KINDS)
def test_quick_play_refuses_a_name_with_them(app: TestClient, kind: str) -> None:
    # The queue takes the profile's name, which /api/me/name already refuses; the queue
    # checks it again (a name from anywhere else is refused alike).
    qp = app.app.state.quickplay  # type: ignore[attr-defined]
    me = app.get("/api/me").json()["player"]["id"]
    with pytest.raises(ProtocolError) as e:
        app.portal.call(qp.join, me, f"Ann{HIDDEN[kind]}", "six-card", 2)  # type: ignore[union-attr]
    assert e.value.code == "bad_name"


# --- table titles ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_new_tables_title_has_none_of_them(app: TestClient, kind: str) -> None:
    ch = HIDDEN[kind]
    t = new_table(app, public=True, title=f"Free {ch}gnp.exe{ch}")
    assert t["table"]["title"] == "Free gnp.exe"
    listed = [x for x in app.get("/api/tables").json()["tables"]
              if x["id"] == t["table"]["id"]]
    assert listed and plain(listed[0]["title"])


@pytest.mark.parametrize("kind", KINDS)
def test_a_changed_title_has_none_of_them(app: TestClient, kind: str) -> None:
    ch = HIDDEN[kind]
    t = new_table(app)
    r = app.patch(f"/api/tables/{t['table']['id']}", headers=browser_headers(app, t["token"]),
                  json={"title": f"{ch}Friday{ch} night"})
    assert r.status_code == 200, r.text
    assert r.json()["title"] == "Friday night"


# --- reports: what a moderator reads ----------------------------------------------------

def test_a_report_reason_keeps_none_of_them_nor_terminal_controls(app: TestClient,
                                                                   config: Config) -> None:
    bob = TestClient(app.app)
    bob_id = bob.get("/api/me").json()["player"]["id"]
    reason = "rude: " + "".join(f"{c}x" for c in HIDDEN.values()) + " \x1b[2J\x1b]0;gone\x07end"
    r = app.post(f"/api/players/{bob_id}/report", headers=browser_headers(app),
                 json={"reason": reason})
    assert r.status_code == 201, r.text
    shown = run_action(config.database_url(), "reports", None)
    line = next(x for x in shown.splitlines() if x.strip().startswith("reason: rude:"))
    assert plain(line) and "\x1b" not in line, json.dumps(line)
    assert line.strip() == "reason: rude: " + "x" * len(HIDDEN) + " [2J]0;goneend"
