"""The REST API under Schemathesis: every operation of the served OpenAPI document, fuzzed.

Schemathesis (the real one, its command line ``st``) reads ``/api/openapi.json`` from a real
``golf serve`` and sends what the document allows and what it refuses: its examples,
coverage and fuzzing phases, with every check it has (no server error, status codes and
content types the document lists, bodies that match the document's schemas, ``Allow`` on
405, refusal of what the document refuses, acceptance of what it allows). It runs as a
guest and as a signed-in account, with real table ids, invite codes and player ids mixed
into its paths (a finished match's table among them, so replays and ratings answer), and
in ASCII and in any Unicode.

What a schema cannot state (a table that is full, a ceremony that expired, a password that
contains the username) the document itself lists: each error response's
``x-beyond-schema`` codes (golf.server.api.openapi.SHAPE_CODES says which are not). The
acceptance check reads them from the served document, so only those refusals of a request
the document allows pass; nothing is silenced here.

Afterwards the server's log must hold no traceback and no error line.

The seed is fixed so that a failure can be replayed; ``GOLF_FUZZ_SEED`` picks another and
``GOLF_FUZZ_EXAMPLES`` more examples per operation (docs/server.md, "Fuzzing the API").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ServerProcess

ST = Path(sys.executable).with_name("st")
SEED = int(os.environ.get("GOLF_FUZZ_SEED", "20261207"))
EXAMPLES = int(os.environ.get("GOLF_FUZZ_EXAMPLES", "20"))
#: The whole run's bound: a safety net well above what it takes (about a minute).
RUN_TIMEOUT = 600


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("fuzz"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Browser:
    """A browser's cookies and CSRF token, as the page keeps them."""

    def __init__(self, server: ServerProcess) -> None:
        self.client = httpx.Client(base_url=server.base, headers={"Origin": server.base},
                                   timeout=30)
        self.csrf = self.client.get("/api/me").json()["csrf"]

    def claim(self, username: str) -> None:
        r = self.client.post("/api/account/claim", headers={"X-CSRF-Token": self.csrf},
                             json={"username": username,
                                   "password": "a quiet walk by the 18th green"})
        assert r.status_code == 200, r.text
        self.csrf = r.json()["me"]["csrf"]

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.client.cookies.items())


def finished_table(server: ServerProcess, client: httpx.Client) -> dict[str, Any]:
    """A one-hole match played to its end: the host is away, so a stand-in plays the
    seat after a second's grace, against a bot."""
    r = client.post("/api/tables", json={
        "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        "rules": {"holes": 1}, "options": {"bot_delay": 0, "grace": 1, "absence": "bot"}})
    assert r.status_code == 201, r.text
    made = r.json()
    tid, token = made["table"]["id"], made["token"]
    r = client.post(f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the stand-in's match did not finish"
        time.sleep(0.5)
    return dict(made)


def beyond_schema(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Per operation, the statuses the document says a request it allows can still get
    (``x-beyond-schema``), as Schemathesis' acceptance check's expected statuses."""
    out = []
    for path, item in document["paths"].items():
        for method, op in item.items():
            statuses = sorted(int(s) for s, r in op["responses"].items()
                              if s.isdigit() and int(s) >= 400 and r.get("x-beyond-schema"))
            # One filter: an operation's name is "METHOD path" (several include filters
            # would match an operation that meets any of them).
            out.append({"include-name": f"{method.upper()} {path}",
                        "checks": {"positive_data_acceptance": {
                            "expected-statuses": ["2XX", "3XX", *statuses]}}})
    return out


def toml_value(value: Any) -> str:
    """A TOML value (JSON's strings, numbers, arrays and inline tables are TOML's too,
    once an object's keys are written as TOML keys)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}"
                                for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def config(server: ServerProcess, browser: Browser, tables: list[dict[str, Any]],
           players: list[str], codec: str) -> str:
    document = httpx.get(server.base + "/api/openapi.json").json()
    host = tables[0]
    lines = [
        f"base-url = {json.dumps(server.base)}",
        f"seed = {SEED}",
        "[generation]",
        f"max-examples = {EXAMPLES}",
        f"codec = {json.dumps(codec)}",
        "[headers]",
        f"Origin = {json.dumps(server.base)}",
        f"Cookie = {json.dumps(browser.cookie)}",
        f"X-CSRF-Token = {json.dumps(browser.csrf)}",
        # The host's seat token: host tools reach the room's own checks.
        f"Authorization = {json.dumps('Bearer ' + host['token'])}",
        "[dictionaries.tables]",
        f"values = {toml_value([t['table']['id'] for t in tables])}",
        "[dictionaries.invites]",
        f"values = {toml_value([t['invite'] for t in tables])}",
        "[dictionaries.players]",
        f"values = {toml_value(players)}",
        "[dictionaries.matches]",
        "values = [1]",
        "[parameters]",
        '"path.table_id" = { dictionary = "tables", probability = 0.7 }',
        '"path.code" = { dictionary = "invites", probability = 0.7 }',
        '"path.player_id" = { dictionary = "players", probability = 0.6 }',
        '"path.number" = { dictionary = "matches", probability = 0.6 }',
    ]
    for op in beyond_schema(document):
        lines.append("[[operations]]")
        lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in op.items()
                  if k != "checks"]
        lines.append("checks = " + toml_value(op["checks"]))
    return "\n".join(lines) + "\n"


def fuzz(server: ServerProcess, browser: Browser, tables: list[dict[str, Any]],
         players: list[str], codec: str, checks: str, tmp: Path,
         exclude: tuple[str, ...] = ()) -> str:
    path = tmp / f"schemathesis-{codec}.toml"
    path.write_text(config(server, browser, tables, players, codec))
    cmd = [str(ST), "--config-file", str(path), "run", server.base + "/api/openapi.json",
           "--checks", checks, "--workers", "1", "--phases", "examples,coverage,fuzzing",
           "--no-color"]
    for p in exclude:
        cmd += ["--exclude-path", p]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                         cwd=tmp)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-12000:]
    assert " 0 failures" in report or "failures" not in report.split("SUMMARY")[-1], \
        report[-6000:]
    return report


def server_log_is_clean(server: ServerProcess) -> None:
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-6000:]
    errors = [line for line in log.splitlines() if " ERROR " in line or "ERROR:" in line]
    assert not errors, errors[:20]


@pytest.fixture(scope="module")
def world(served: ServerProcess) -> tuple[Browser, Browser, list[dict[str, Any]], list[str]]:
    """A guest and an account, each with the host's seat at a table; a finished match."""
    guest, account = Browser(served), Browser(served)
    account.claim("fuzz-owner")
    done = finished_table(served, guest.client)
    waiting = guest.client.post("/api/tables", json={
        "name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    mine = account.client.post("/api/tables", json={"name": "Otto", "rated": True}).json()
    players = [guest.client.get("/api/me").json()["player"]["id"],
               account.client.get("/api/me").json()["player"]["id"]]
    return guest, account, [waiting, done, mine], players


def test_fuzz_as_a_guest(served: ServerProcess, world: Any, tmp_path: Path) -> None:
    guest, _account, tables, players = world
    fuzz(served, guest, tables, players, "ascii", "all", tmp_path)
    server_log_is_clean(served)


def test_fuzz_as_an_account(served: ServerProcess, world: Any, tmp_path: Path) -> None:
    _guest, account, tables, players = world
    # Signing out would make the rest of the run a guest's: the guest run covers it.
    fuzz(served, account, [tables[2], *tables[:2]], players, "ascii", "all", tmp_path,
         exclude=("/api/signout", "/api/account"))
    server_log_is_clean(served)


def test_fuzz_any_unicode(served: ServerProcess, world: Any, tmp_path: Path) -> None:
    """Any Unicode text in every field, path and query: never a server error, and every
    answer as the document describes it. (The acceptance checks need the document to state
    text rules in ASCII terms; the server's Unicode rules are in its descriptions.)"""
    guest, _account, tables, players = world
    fuzz(served, guest, tables, players, "utf-8",
         "not_a_server_error,status_code_conformance,content_type_conformance,"
         "response_schema_conformance,response_headers_conformance", tmp_path)
    server_log_is_clean(served)
