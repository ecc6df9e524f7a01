"""Test harness: a real `golf serve` in a subprocess and real WebSocket clients.

Nothing here stands in for the server or the database: the server is the installed
``golf serve`` on a loopback port, the clients speak the protocol over ``websockets``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

from ports import free_port
from zygote import Forked, spawn

PROTOCOL = 2




class ServerProcess:
    """``golf serve`` as a child process; kill -9 and restart keep the same database."""

    def __init__(self, data_dir: Path, db: str | None = None) -> None:
        self.data_dir = data_dir
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | Forked | None = None
        self.log = data_dir / "server.log"
        self.args: list[str] = []  # more `golf serve` options

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 60) -> None:
        argv = ["serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.db:
            argv += ["--db", self.db]
        argv += self.args
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = spawn(argv, log=self.log, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"golf serve exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"golf serve did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """kill -9: no drain, no goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self, timeout: float = 20) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    # --- REST -------------------------------------------------------------------------
    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.base + path, json=body, headers=headers, timeout=30)

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.get(self.base + path, headers=headers, timeout=30)

    def create(self, preset: str = "six-card", seats: list[dict[str, Any]] | None = None,
               rules: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
               name: str = "Ann", **extra: Any) -> dict[str, Any]:
        body = {"name": name, "preset": preset, "rules": rules or {},
                "seats": seats or [{"kind": "human"}, {"kind": "human"},
                                   {"kind": "bot", "bot": "easy"}],
                "options": {"bot_delay": 0, **(options or {})}, **extra}
        r = self.post("/api/tables", body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def table_with_people(self, preset: str = "six-card", people: int = 2,
                          **kw: Any) -> tuple[dict[str, Any], list[str]]:
        """A table where ``people`` joined (host first); returns its data and tokens."""
        t = self.create(preset, **kw)
        tokens = [t["token"]]
        for i in range(1, people):
            r = self.post(f"/api/invites/{t['invite']}/join", {"name": f"P{i}"})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        return t, tokens

    def start_table(self, table_id: str, token: str) -> None:
        r = self.post(f"/api/tables/{table_id}/start", token=token)
        assert r.status_code == 200, r.text


class Client:
    """One WebSocket client: records every frame, keeps the latest state.

    With ``reconnect`` it comes back by itself when the server closes or vanishes,
    as the protocol asks clients to.
    """

    def __init__(self, url: str, table: str, token: str | None,
                 reconnect: bool = False) -> None:
        self.url = url
        self.table = table
        self.token = token
        self.reconnect = reconnect
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.summary: dict[str, Any] | None = None
        self.history: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.closes: list[tuple[int | None, str | None]] = []
        self.ws: Any = None
        self.changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.connects = 0

    async def connect(self) -> Client:
        await self._open()
        self._task = asyncio.create_task(self._run())
        return self

    async def _open(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=2**20, open_timeout=10)
        self.connects += 1
        await self.ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL,
                                       "table": self.table, "token": self.token}))

    async def _run(self) -> None:
        while not self._closed:
            try:
                async for text in self.ws:
                    self._receive(text)
            except ConnectionClosed:
                pass
            self.closes.append((self.ws.close_code, self.ws.close_reason))
            self.changed.set()
            if self._closed or not self.reconnect:
                return
            delay = 0.05
            while not self._closed:
                try:
                    await self._open()
                    break
                except (TimeoutError, OSError, ConnectionClosed, websockets.InvalidHandshake):
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 0.5)

    def _receive(self, text: str) -> None:
        msg = json.loads(text)
        self.raw.append(text)
        self.frames.append(msg)
        kind = msg["type"]
        if kind == "state":
            self.state = msg
        elif kind == "welcome":
            self.welcome = msg
        elif kind == "history":
            self.history = msg
        elif kind == "table":
            self.summary = msg["table"]
        elif kind == "error":
            self.errors.append(msg)
        self.changed.set()

    async def send(self, payload: Any) -> None:
        await self.ws.send(payload if isinstance(payload, str | bytes) else json.dumps(payload))

    async def act(self, action: str, version: int | None = None) -> None:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        await self.send({"type": "action", "version": v, "action": action})

    async def wait(self, pred: Callable[[Client], bool], timeout: float = 30,
                   what: str = "condition") -> None:
        deadline = time.monotonic() + timeout
        while not pred(self):
            left = deadline - time.monotonic()
            if left <= 0:
                last = self.frames[-3:] if self.frames else []
                raise AssertionError(f"timed out waiting for {what}; last frames: "
                                     f"{json.dumps(last)[:1500]}")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(left, 0.5))

    async def wait_error(self, count: int, timeout: float = 10) -> dict[str, Any]:
        await self.wait(lambda c: len(c.errors) >= count, timeout, "an error")
        return self.errors[count - 1]

    async def close(self) -> None:
        self._closed = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5)

    async def drop(self) -> None:
        """Cut the connection without a goodbye (as a lost network does)."""
        with contextlib.suppress(Exception):
            self.ws.transport.abort()

    def resynced(self, connects: int) -> bool:
        """Connected more than ``connects`` times and had a state since the last welcome."""
        if self.connects <= connects:
            return False
        last = max((i for i, f in enumerate(self.frames) if f["type"] == "welcome"),
                   default=None)
        return last is not None and any(f["type"] == "state" for f in self.frames[last:])

    def events(self) -> list[dict[str, Any]]:
        """The events received so far, in order (each rides on its ``state`` frame)."""
        return [f["event"] for f in self.frames if f["type"] == "state" and f["event"]]

    @property
    def version(self) -> int:
        return -1 if self.state is None else int(self.state["version"])

    @property
    def over(self) -> bool:
        return self.state is not None and bool(self.state["view"]["is_over"])


def ended_a_hole(state: dict[str, Any]) -> bool:
    """True when this state's event ended a hole and the match goes on."""
    event = state.get("event") or {}
    return not state["view"]["is_over"] and any(
        f["type"] == "hole_end" for f in event.get("facts") or [])


async def play_out(clients: list[Client], rng: random.Random, timeout: float = 600,
                   until: Callable[[], bool] | None = None) -> None:
    """Every seated client plays a random legal move on its turn until the match ends
    (or ``until`` holds)."""
    deadline = time.monotonic() + timeout
    acted: dict[int, int] = {}
    readied: dict[int, int] = {}
    seen_errors = [len(c.errors) for c in clients]
    while True:
        for c in clients:
            c.changed.clear()
        states = [c.state for c in clients if c.state is not None]
        if states and all(s["view"]["is_over"] for s in states):
            return
        if until is not None and until():
            return
        if time.monotonic() > deadline:
            raise AssertionError("the match did not finish in time")
        moved = False
        for i, c in enumerate(clients):
            if len(c.errors) > seen_errors[i]:  # e.g. rate_limited: try that move again
                seen_errors[i] = len(c.errors)
                acted.pop(i, None)
                await asyncio.sleep(0.1)
            s = c.state
            if s is not None and ended_a_hole(s) and readied.get(i) != s["version"]:
                # A person closes the hole-end dialog: the next hole waits for it.
                readied[i] = s["version"]
                await c.send({"type": "ready"})
            if s is None or not s["your_turn"] or acted.get(i) == s["version"]:
                continue
            acted[i] = s["version"]
            await c.act(rng.choice(s["legal_actions"]), s["version"])
            moved = True
        if not moved:
            waiters = [asyncio.ensure_future(c.changed.wait()) for c in clients]
            await asyncio.wait(waiters, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
            for w in waiters:
                w.cancel()
