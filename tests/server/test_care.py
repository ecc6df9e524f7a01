"""Care: blocking and reporting players (routes on a real server, SQLite and
PostgreSQL), and ``golf admin`` (a real command on that server's database)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import Client, ServerProcess
from test_accounts import Browser

from golf.admin import run_action
from golf.errors import GolfError


def browser(server: ServerProcess) -> Browser:
    b = Browser(server)
    b.me()
    return b


def admin(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    where = ["--db", server.db] if server.db else ["--data-dir", str(server.data_dir)]
    return subprocess.run([sys.executable, "-m", "golf", "admin", *args, *where],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ})


def table_of_two(server: ServerProcess, a: Browser, b: Browser) -> tuple[str, str, str]:
    """A table where ``a`` sits in seat 0 and ``b`` in seat 1 (and a bot in seat 2)."""
    r = a.post("/api/tables", {"name": "Ann", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
    assert r.status_code == 201, r.text
    t = r.json()
    r = b.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"})
    assert r.status_code == 200, r.text
    return t["table"]["id"], t["token"], r.json()["token"]


async def say(server: ServerProcess, table: str, token: str, texts: list[str]
              ) -> list[dict[str, Any]]:
    """Chat lines sent from a seat, as the table echoed them (with their times)."""
    c = await Client(server.ws_url, table, token).connect()
    try:
        await c.wait(lambda c: c.welcome is not None)
        for text in texts:
            await c.send({"type": "chat", "text": text})
        await c.wait(lambda c: sum(f["type"] == "chat" for f in c.frames) == len(texts))
        return [f for f in c.frames if f["type"] == "chat"]
    finally:
        await c.close()


def test_block_a_seat_and_list_and_lift_it(server: ServerProcess) -> None:
    ann, bob = browser(server), browser(server)
    table, _, _ = table_of_two(server, ann, bob)
    bob_id = bob.me()["player"]["id"]
    r = ann.post(f"/api/tables/{table}/seats/1/block")
    assert r.status_code == 204, r.text
    ann.post(f"/api/tables/{table}/seats/1/block")  # again: no second row, no error
    blocks = ann.http.get("/api/blocks").json()["blocks"]
    assert [(b["id"], b["name"]) for b in blocks] == [(bob_id, "Bob")]  # as he played
    # The blocked player is not told.
    assert bob.http.get("/api/blocks").json()["blocks"] == []
    # A bot's seat, one's own seat, a seat that is not there, a seat no table has.
    for seat, code in ((2, "no_player"), (0, "is_you"), (5, "no_player"), (9, "bad_message")):
        r = ann.post(f"/api/tables/{table}/seats/{seat}/block")
        assert r.json()["error"]["code"] == code, (seat, r.text)
    # Another site's page cannot block for Ann.
    r = ann.post(f"/api/players/{bob_id}/block", headers={"Origin": "https://x.example"})
    assert r.status_code == 403
    assert ann.send("DELETE", f"/api/players/{bob_id}/block").status_code == 204
    assert ann.http.get("/api/blocks").json()["blocks"] == []
    ann.close()
    bob.close()


def test_a_block_keeps_two_players_apart_in_quick_play(server: ServerProcess) -> None:
    ann, bob = browser(server), browser(server)
    table, _, _ = table_of_two(server, ann, bob)
    assert bob.post(f"/api/tables/{table}/seats/0/block").status_code == 204
    qa = ann.post("/api/quickplay", {"preset": "six-card-knock", "players": 2}).json()
    qb = bob.post("/api/quickplay", {"preset": "six-card-knock", "players": 2}).json()
    assert qb["state"]["status"] == "waiting"
    sa = ann.http.get(f"/api/quickplay/{qa['state']['ticket']}").json()
    assert sa["status"] == "waiting"
    for b, q in ((ann, qa), (bob, qb)):
        assert b.send("DELETE", f"/api/quickplay/{q['state']['ticket']}").status_code == 204
    ann.close()
    bob.close()


def test_a_report_keeps_a_copy_of_the_reported_chat_lines(server: ServerProcess) -> None:
    ann, bob = browser(server), browser(server)
    table, ann_token, bob_token = table_of_two(server, ann, bob)
    said = asyncio.run(say(server, table, bob_token, ["hello", "you are terrible"]))
    ann_said = asyncio.run(say(server, table, ann_token, ["hi"]))
    rude = said[1]
    r = ann.post(f"/api/tables/{table}/seats/1/report",
                 {"reason": "insults in chat", "chat": [rude["time"]]})
    assert r.status_code == 201, r.text
    # A line Bob did not write cannot be put in his mouth; a reason is needed.
    r = ann.post(f"/api/tables/{table}/seats/1/report",
                 {"reason": "x", "chat": [ann_said[0]["time"]]})
    assert r.status_code == 404 and r.json()["error"]["field"] == "chat"
    r = ann.post(f"/api/tables/{table}/seats/1/report", {"reason": "   "})
    assert r.status_code == 400 and r.json()["error"]["field"] == "reason"
    # The operator sees the report with the line as it was written.
    out = admin(server, "reports")
    assert out.returncode == 0, out.stderr
    assert "insults in chat" in out.stdout and "Bob: you are terrible" in out.stdout
    assert "hello" not in out.stdout
    number = out.stdout.split()[0].lstrip("#")
    assert admin(server, "close-report", number).returncode == 0
    assert "insults in chat" not in admin(server, "reports").stdout
    assert "insults in chat" in admin(server, "reports", "--all").stdout
    ann.close()
    bob.close()


def claim(server: ServerProcess, username: str, password: str) -> Browser:
    b = browser(server)
    r = b.post("/api/account/claim", {"username": username, "password": password})
    assert r.status_code == 200, r.text
    return b


def sign_in(server: ServerProcess, username: str, password: str) -> int:
    b = browser(server)
    code = b.post("/api/signin", {"username": username, "password": password}).status_code
    b.close()
    return code


def test_admin_suspends_restores_and_resets_a_password(server: ServerProcess) -> None:
    name = "suzy" + os.urandom(3).hex()
    password = "correct horse battery"
    suzy = claim(server, name, password)
    assert suzy.me()["signed_in"]
    out = admin(server, "suspend", name.upper())  # usernames in any case
    assert out.returncode == 0 and "suspended" in out.stdout, out.stderr
    # Her session ended (this browser is someone new now), and she cannot sign in.
    assert suzy.me()["signed_in"] is False
    assert sign_in(server, name, password) != 200
    assert admin(server, "restore", name).returncode == 0
    assert sign_in(server, name, password) == 200
    # A reset: the old password stops working; the printed code signs in once.
    out = admin(server, "reset-password", name)
    assert out.returncode == 0, out.stderr
    code = next(line.split(": ", 1)[1] for line in out.stdout.splitlines()
                if line.startswith("One-time code"))
    assert sign_in(server, name, password) != 200
    b = browser(server)
    r = b.post("/api/signin/recovery", {"username": name, "code": code})
    assert r.status_code == 200, r.text
    assert r.json()["me"]["signed_in"]
    again = browser(server)
    assert again.post("/api/signin/recovery", {"username": name, "code": code}
                      ).status_code != 200
    for x in (suzy, b, again):
        x.close()


def test_admin_refuses_clearly(server: ServerProcess) -> None:
    out = admin(server, "suspend", "nobody-has-this-name")
    assert out.returncode == 2 and "no player" in out.stderr and "Traceback" not in out.stderr
    out = admin(server, "suspend")
    assert out.returncode == 2 and "needs a username" in out.stderr
    out = admin(server, "close-report", "seven")
    assert out.returncode == 2 and "whole number" in out.stderr
    out = subprocess.run([sys.executable, "-m", "golf", "admin", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for action in ("reports", "suspend", "restore", "reset-password", "rebuild-ratings"):
        assert action in out.stdout


@pytest.mark.parametrize("number", ["²", "①", "٣", "7 ", "-1"])
def test_a_report_number_is_ascii_digits(number: str, tmp_path: Path) -> None:
    # "²" made int() raise a bare ValueError; "٣" closed report 3.
    url = f"sqlite+aiosqlite:///{tmp_path / 'golf.db'}"
    with pytest.raises(GolfError, match="a report number is a whole number"):
        run_action(url, "close-report", number)


def test_admin_rebuilds_ratings(server: ServerProcess) -> None:
    out = admin(server, "rebuild-ratings")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ratings rebuilt from ")


@pytest.mark.parametrize("reason", ["", "x" * 501])
def test_report_reasons_out_of_bounds_are_refused(server: ServerProcess, reason: str) -> None:
    ann, bob = browser(server), browser(server)
    r = ann.post(f"/api/players/{bob.me()['player']['id']}/report", {"reason": reason})
    assert r.status_code in (400, 422) and "reason" in r.text
    ann.close()
    bob.close()

