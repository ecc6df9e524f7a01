"""Players, accounts and sessions on a real server (SQLite and PostgreSQL).

Each browser is an ``httpx.Client`` keeping its cookies, sending the site's own
``Origin`` and the CSRF token that ``GET /api/me`` gave it, as the web client does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from harness import ServerProcess


class Browser:
    """One browser: its cookie jar, its Origin, the CSRF token of its identity."""

    def __init__(self, server: ServerProcess, origin: str | None = None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=60)
        self.origin = origin or server.base
        self.csrf = ""
        self.bodies: list[str] = []

    def me(self) -> dict[str, Any]:
        r = self.http.get("/api/me")
        assert r.status_code == 200, r.text
        self.bodies.append(r.text)
        out: dict[str, Any] = r.json()
        self.csrf = out["csrf"]
        return out

    def send(self, method: str, path: str, body: Any = None, csrf: bool = True,
             headers: dict[str, str] | None = None) -> httpx.Response:
        h = {"Origin": self.origin}
        if csrf:
            h["X-CSRF-Token"] = self.csrf
        h.update(headers or {})
        r = self.http.request(method, path, json=body, headers=h)
        self.bodies.append(r.text)
        if r.status_code < 300 and r.headers.get("content-type", "").startswith(
                "application/json"):
            data = r.json()
            if isinstance(data, dict) and isinstance(data.get("me"), dict):
                self.csrf = data["me"]["csrf"]
        return r

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.send("POST", path, body, **kw)

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browsers(server: ServerProcess) -> Iterator[list[Browser]]:
    made: list[Browser] = []

    class Make(list[Browser]):
        pass

    yield made
    for b in made:
        b.close()


def new_browser(made: list[Browser], server: ServerProcess) -> Browser:
    b = Browser(server)
    made.append(b)
    return b


def seat_players(server: ServerProcess, table_id: str) -> list[str | None]:
    """golf_seats.player_id of a table, read from the server's own database."""
    import asyncio

    import sqlalchemy as sa

    from golf.server import db

    url = server.db or db.default_url(server.data_dir)

    async def read() -> list[str | None]:
        engine = db.make_engine(url)
        try:
            async with engine.connect() as conn:
                rows = (await conn.execute(
                    sa.select(db.seats.c.player_id).where(db.seats.c.table_id == table_id)
                    .order_by(db.seats.c.position))).all()
            return [r[0] for r in rows]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def test_guest_is_recorded_on_the_seats_it_takes(server: ServerProcess,
                                                 browsers: list[Browser]) -> None:
    ann, bob = new_browser(browsers, server), new_browser(browsers, server)
    me_ann = ann.me()
    assert me_ann["signed_in"] is False and me_ann["player"]["username"] is None
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", me_ann["player"]["id"])
    cookie = ann.http.cookies.get("golf_guest")
    assert cookie and cookie.startswith(me_ann["player"]["id"] + ".")
    r = ann.post("/api/tables", {"name": "Ann", "seats": [{"kind": "human"},
                                                          {"kind": "human"}]}, csrf=False)
    assert r.status_code == 201, r.text
    t = r.json()
    r = bob.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"}, csrf=False)
    assert r.status_code == 200, r.text
    me_bob = bob.me()
    assert me_bob["player"]["id"] != me_ann["player"]["id"]
    assert seat_players(server, t["table"]["id"]) == [me_ann["player"]["id"],
                                                      me_bob["player"]["id"]]
    # The table follows the profile: /api/me lists it with the seat.
    tables = ann.me()["tables"]
    assert [(x["table_id"], x["seat"]) for x in tables] == [(t["table"]["id"], 0)]
