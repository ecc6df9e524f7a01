"""What a fuzzer found at the REST edge, each pinned: a preset is a name and never a file,
no number in a path overflows the database, a malformed passkey is a refusal, a 405 names
every method of its path, and the document states what the server checks.

The server runs in this process (Starlette's test client, SQLite), as in test_contract.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from golf.rules import preset_names
from golf.server.app import Config, create_app

SITE = "http://testserver"
HUGE = str(2**63)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hardening")


@pytest.fixture(scope="module")
def app(data_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(data_dir=data_dir, bot_wait=0.0))) as client:
        yield client


def signed_in(app: TestClient, username: str) -> dict[str, str]:
    """Headers of a fresh browser that claimed ``username`` (its cookies live in ``app``:
    one browser per test client, so this is the last identity made)."""
    app.cookies.clear()
    csrf = app.get("/api/me").json()["csrf"]
    r = app.post("/api/account/claim", headers={"Origin": SITE, "X-CSRF-Token": csrf},
                 json={"username": username, "password": "a long walk to the ninth hole"})
    assert r.status_code == 200, r.text
    return {"Origin": SITE, "X-CSRF-Token": r.json()["me"]["csrf"]}


# --- a preset is a name ---------------------------------------------------------------------

def test_a_preset_that_names_a_file_is_unknown_like_any_other(app: TestClient,
                                                              tmp_path: Path) -> None:
    readable = tmp_path / "house.toml"
    readable.write_text('secret_key = "do not tell"\n')
    answers = set()
    for preset in ("/etc/passwd", "/no/such/file.toml", str(readable), "house.toml",
                   "../presets/six-card", "seven-card", "six-card/", "..\\six-card"):
        r = app.post("/api/rules/check", json={"preset": preset})
        assert r.status_code == 200
        body = r.json()
        assert body["ok"] is False, preset
        answers.add(body["errors"]["preset"])
        assert "secret_key" not in r.text and "passwd" not in r.text.replace(preset, "")
    # One answer whatever the text: no file's existence or contents can be told apart.
    assert len(answers) == 1, answers
    (answer,) = answers
    assert "No such file" not in answer and "TOML" not in answer
    assert all(name in answer for name in preset_names())


def test_a_fifo_as_the_preset_does_not_hold_the_server(app: TestClient, tmp_path: Path
                                                       ) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    done: list[int] = []

    def ask() -> None:
        done.append(app.post("/api/rules/check", json={"preset": str(fifo)}).status_code)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(10)
    if asker.is_alive():  # release the blocked reader so the test run can go on
        with open(fifo, "w"):
            pass
    assert done == [200]


def test_a_table_is_made_only_from_a_shipped_preset(app: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "six-card"\n')
    for preset in (str(path), "/etc/hostname"):
        r = app.post("/api/tables", json={"name": "Ann", "preset": preset})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_rules"
    r = app.post("/api/quickplay", headers={"Origin": SITE},
                 json={"preset": str(path), "players": 2})
    assert r.status_code in (403, 422), r.text  # quick play also needs the CSRF token


def test_a_table_stored_with_a_path_starts_with_a_clear_refusal(tmp_path: Path) -> None:
    """A table an older server stored with a file path as its preset: after a restart,
    starting it is a 422 naming the preset, not a 500."""
    with TestClient(create_app(Config(data_dir=tmp_path))) as client:
        made = client.post("/api/tables", json={
            "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    table, token = made["table"]["id"], made["token"]
    db = sqlite3.connect(tmp_path / "golf.db")
    with db:
        db.execute("UPDATE golf_tables SET preset = ? WHERE id = ?",
                   (str(tmp_path / "gone.toml"), table))
    db.close()
    with TestClient(create_app(Config(data_dir=tmp_path))) as client:
        summary = client.get(f"/api/tables/{table}")
        assert summary.status_code == 200
        r = client.post(f"/api/tables/{table}/start",
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error["code"] == "bad_rules" and "unknown preset" in error["message"]


# --- numbers in paths -------------------------------------------------------------------

def test_numbers_in_paths_beyond_the_database_are_refused(app: TestClient) -> None:
    made = app.post("/api/tables", json={"name": "Ann"}).json()
    table, host = made["table"]["id"], {"Authorization": f"Bearer {made['token']}"}
    calls: list[tuple[str, str, dict[str, str], Any]] = [
        ("GET", f"/api/tables/{table}/matches/{HUGE}/ratings", {}, None),
        ("GET", f"/api/tables/{table}/matches/{HUGE}/replay", {}, None),
        ("GET", f"/api/tables/{table}/matches/1/replay/{HUGE}", {}, None),
        ("GET", f"/api/tables/{table}/matches/{HUGE}/replay/1", {}, None),
        ("PUT", f"/api/tables/{table}/seats/{HUGE}", host, {"kind": "bot"}),
        ("DELETE", f"/api/tables/{table}/seats/{HUGE}", host, None),
        ("GET", f"/api/leaderboards/six-card/2?page={HUGE}", {}, None),
    ]
    for method, url, headers, body in calls:
        r = app.request(method, url, headers=headers, json=body)
        assert r.status_code == 400, (url, r.text)
        assert r.json()["error"]["code"] == "bad_message", url
    headers = signed_in(app, "big-numbers")
    for method, url in (("POST", f"/api/tables/{table}/seats/{HUGE}/block"),
                        ("POST", f"/api/tables/{table}/seats/{HUGE}/report"),
                        ("DELETE", f"/api/passkeys/{HUGE}")):
        r = app.request(method, url, headers=headers, json={"reason": "spam"}
                        if url.endswith("report") else None)
        assert r.status_code == 400, (url, r.text)
        assert r.json()["error"]["code"] == "bad_message", url


# --- passkeys -------------------------------------------------------------------------------

def test_a_malformed_passkey_credential_is_passkey_failed(app: TestClient) -> None:
    headers = signed_in(app, "key-holder")
    for credential in ({}, {"id": 5}, {"id": "x", "response": []},
                       {"id": "x", "rawId": "x", "type": "public-key", "response": {}}):
        options = app.post("/api/passkeys/register/options", headers=headers)
        assert options.status_code == 200, options.text
        r = app.post("/api/passkeys/register", headers=headers, json={
            "ceremony": options.json()["ceremony"], "credential": credential,
            "name": "phone"})
        assert r.status_code == 400, (credential, r.text)
        assert r.json()["error"]["code"] == "passkey_failed"
    for credential in ({}, {"id": "x"}, {"id": "x", "response": "nope"}):
        options = app.post("/api/passkeys/signin/options", headers=headers)
        r = app.post("/api/passkeys/signin", headers=headers, json={
            "ceremony": options.json()["ceremony"], "credential": credential})
        assert r.status_code == 401, (credential, r.text)
        assert r.json()["error"]["code"] == "passkey_failed"


# --- 405 ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "url", "allow"), [
    ("OPTIONS", "/api/passkeys/signin", "POST"),
    ("OPTIONS", "/api/tables", "GET, POST"),
    ("DELETE", "/api/passkeys/register", "POST"),
    ("OPTIONS", "/api/sessions/signout-others", "POST"),
    ("OPTIONS", "/api/tables/abc/seats/1", "DELETE, PUT"),
    ("TRACE", "/api/health", "GET"),
])
def test_a_405_names_every_method_of_its_path(app: TestClient, method: str, url: str,
                                              allow: str) -> None:
    r = app.request(method, url)
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == allow
    assert r.json()["error"]["code"] == "bad_method"
    assert allow in r.json()["error"]["message"]


# --- the document states what the server checks ----------------------------------------

def schema_of(doc: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    content = doc["paths"][path][method]["requestBody"]["content"]["application/json"]
    ref = content["schema"]
    while "$ref" in ref or "anyOf" in ref:
        if "anyOf" in ref:
            ref = next(x for x in ref["anyOf"] if x.get("type") != "null")
            continue
        ref = doc["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
    return dict(ref)


def field(doc: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    out = dict(schema["properties"][name])
    if "anyOf" in out:
        out = next(x for x in out["anyOf"] if x.get("type") != "null")
    if "$ref" in out:
        out = doc["components"]["schemas"][out["$ref"].rsplit("/", 1)[1]]
    return out


def test_the_document_states_the_servers_limits(app: TestClient) -> None:
    doc = app.get("/api/openapi.json").json()
    table = schema_of(doc, "/api/tables", "post")
    name = field(doc, table, "name")
    assert (name["minLength"], name["maxLength"]) == (1, 20) and "pattern" in name
    assert field(doc, table, "preset")["enum"] == preset_names()
    options = field(doc, table, "options")
    assert options["additionalProperties"] is False
    assert options["properties"]["turn_timer"]["anyOf"][0]["maximum"] == 600
    assert options["properties"]["absence"]["enum"] == ["wait", "bot", "end"]
    timer = schema_of(doc, "/api/tables/{table_id}/timer", "post")["properties"]["turn_timer"]
    assert {(x["minimum"], x["maximum"]) for x in timer["anyOf"] if "minimum" in x} == {(1, 600)}
    claim = schema_of(doc, "/api/account/claim", "post")
    assert "pattern" in field(doc, claim, "username")
    recovery = schema_of(doc, "/api/signin/recovery", "post")
    assert "{16}" in field(doc, recovery, "code")["pattern"]
    report = field(doc, schema_of(doc, "/api/players/{player_id}/report", "post"), "reason")
    assert (report["minLength"], report["maxLength"]) == (1, 500)
    queue = schema_of(doc, "/api/quickplay", "post")
    assert field(doc, queue, "preset")["enum"] == preset_names()
    assert field(doc, queue, "players")["maximum"] == 8
    svg = doc["paths"]["/api/players/{player_id}/rating.svg"]["get"]["parameters"]
    lang = next(p for p in svg if p["name"] == "lang")["schema"]
    assert lang["enum"] == ["en", "de"]
    replay = doc["paths"]["/api/tables/{table_id}/matches/{number}/replay/{version}"]["get"]
    version = next(p for p in replay["parameters"] if p["name"] == "version")["schema"]
    assert version["maximum"] == 2**31 - 1


@pytest.mark.parametrize("body", [
    {"name": "x" * 21}, {"name": "   "}, {"name": "a\x07b"}, {"name": "Ann" + " " * 17 + "B"},
    {"name": "Ann", "options": {"turn_timer": 601}}, {"name": "Ann", "options": {"nope": 1}},
    {"name": "Ann", "preset": "seven-card"},
])
def test_what_the_document_refuses_the_server_refuses(app: TestClient,
                                                      body: dict[str, Any]) -> None:
    r = app.post("/api/tables", json=body)
    assert r.status_code == 422, r.text


def test_the_names_the_document_allows_the_server_takes(app: TestClient) -> None:
    for name in ("A", "x" * 20, " Ann  B ", "Zoë"):
        r = app.post("/api/tables", json={"name": name})
        assert r.status_code == 201, (name, r.text)


def test_a_page_past_the_last_is_empty(
        app: TestClient) -> None:
    board = app.get("/api/leaderboards/six-card/2?page=5")
    assert board.status_code == 200 and board.json()["rows"] == []
    assert app.get("/api/leaderboards/six-card/2?page=0").status_code == 400
