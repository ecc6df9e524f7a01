"""Lobby REST additions for the browser client: the settings schema and table options."""

from __future__ import annotations

from typing import Any

import httpx
from harness import ServerProcess

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
