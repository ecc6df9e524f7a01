"""Lobby REST additions for the browser client: the settings schema and table options."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from harness import Client, ServerProcess, play_out

from golf.rules import setting_schema


def patch(server: ServerProcess, tid: str, body: Any, token: str) -> httpx.Response:
    return httpx.patch(f"{server.base}/api/tables/{tid}", json=body,
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)


def test_presets_serve_the_engines_settings_schema(server: ServerProcess) -> None:
    r = server.get("/api/presets")
    assert r.status_code == 200
    data = r.json()
    assert data["settings"] == setting_schema()
    # Every rule a preset lists has its kind; the labels are not table settings.
    for p in data["presets"]:
        assert set(p["settings"]) - {"name", "description", "sources"} == set(data["settings"])


def test_show_peeked_is_an_option_echoed_in_the_summary(server: ServerProcess) -> None:
    t = server.create()
    tid, token = t["table"]["id"], t["token"]
    assert t["table"]["options"]["show_peeked"] is False
    t2 = server.create(options={"show_peeked": True})
    assert t2["table"]["options"]["show_peeked"] is True
    assert server.get(f"/api/tables/{t2['table']['id']}").json()["options"]["show_peeked"] is True
    # PATCH changes it and keeps the other options.
    r = patch(server, tid, {"options": {"show_peeked": True}}, token)
    assert r.status_code == 200, r.text
    options = r.json()["options"]
    assert options["show_peeked"] is True and options["bot_delay"] == 0
    assert server.get(f"/api/tables/{tid}").json()["options"]["show_peeked"] is True
    # A wrong type is refused at creation and at PATCH, naming the field; nothing changes.
    for bad in ("yes", 1, None):
        r = server.post("/api/tables", {"name": "Ann", "preset": "six-card",
                                        "options": {"show_peeked": bad}})
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert (err["code"], err["field"]) == ("bad_option", "show_peeked")
        assert "true or false" in err["message"]
        r = patch(server, tid, {"options": {"show_peeked": bad}}, token)
        assert r.status_code == 422 and r.json()["error"]["field"] == "show_peeked"
    assert server.get(f"/api/tables/{tid}").json()["options"]["show_peeked"] is True


def test_a_finished_table_leaves_memory_and_loads_again(fresh_server: ServerProcess) -> None:
    server = fresh_server
    server.args = ["--keep-finished", "1"]
    server.start()
    t = server.create(seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                      rules={"holes": 1})
    tid = t["table"]["id"]

    async def run() -> None:
        c = await Client(server.ws_url, tid, t["token"]).connect()
        await c.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, t["token"])
        await c.wait(lambda c: c.state is not None, what="the first state")
        await play_out([c], random.Random(3))
        await c.close()

    asyncio.run(run())
    assert server.get("/api/health").json()["tables"] == 1
    deadline = time.monotonic() + 30
    while server.get("/api/health").json()["tables"] != 0:
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        time.sleep(0.2)
    # Still in the database: asking for it loads it again, with its finished match.
    r = server.get(f"/api/tables/{tid}")
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    assert server.get("/api/health").json()["tables"] == 1


def test_keep_finished_must_be_positive(tmp_path: Any) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "golf", "serve", "--keep-finished", "0",
                          "--data-dir", str(tmp_path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode != 0
    assert "--keep-finished must be more than 0 seconds" in run.stderr
    assert "Traceback" not in run.stderr
