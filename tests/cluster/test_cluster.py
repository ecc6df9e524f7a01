"""The cluster runner: N real `golf serve` processes on PostgreSQL behind a real nginx.

What is checked here is the infrastructure (golf.cluster, scripts/ci/nginx.sh and the
shipped deploy/nginx/golf.conf): every request that names a table reaches one process, chosen
by the table id; the rest is spread; a process that is down is skipped; the runner's kill,
terminate and restart do what they say; `golf cluster` starts and stops everything.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import httpx
from harness import Client, play_out
from sqlalchemy.engine import make_url

from golf.cluster import Cluster, healthy
from ports import free_port_block

SEATS = [{"kind": "human"}, {"kind": "human"}]


def create(c: Cluster) -> tuple[str, list[str]]:
    """A public two-person table through the proxy; its id and both tokens. The second
    person joins by the table's id, a call the proxy routes to the table's process (an
    invite code names no table: that join goes to any process)."""
    r = httpx.post(c.url + "/api/tables", json={
        "name": "Ann", "preset": "six-card", "rules": {}, "seats": SEATS, "public": True,
        "options": {"bot_delay": 0}}, timeout=30)
    assert r.status_code == 201, r.text
    t = r.json()
    tid = t["table"]["id"]
    j = httpx.post(f"{c.url}/api/tables/{tid}/join", json={"name": "Bo"}, timeout=30)
    assert j.status_code == 200, j.text
    return tid, [t["token"], j.json()["token"]]


def upstreams_by_table(c: Cluster) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for _, _, table, upstream, _ in c.routed():
        if table:
            out[table].add(upstream)
    return out


def wait_for_log(c: Cluster, count: int) -> None:
    """nginx writes its access log after the response: wait until ``count`` lines are in."""
    deadline = time.monotonic() + 10
    while len(c.routed()) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_requests_naming_a_table_meet_in_one_process(cluster3: Cluster) -> None:
    c = cluster3
    logged = len(c.routed())
    tables = []
    for _ in range(12):
        tid, tokens = create(c)
        tables.append(tid)
        for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/matches"):
            assert httpx.get(c.url + path, timeout=30).status_code == 200
        # The WebSocket handshake carries the table in its URL (js/socket.js does the same).
        asyncio.run(hello(c.url.replace("http", "ws", 1) + f"/ws?table={tid}", tid, tokens[0]))
    for _ in range(6):
        assert httpx.get(c.url + "/api/tables", timeout=30).status_code == 200
    wait_for_log(c, logged + 12 * 4 + 12 + 6)
    by_table = upstreams_by_table(c)
    assert set(by_table) == set(tables)
    for tid, ups in by_table.items():
        assert len(ups) == 1, (tid, ups)  # REST and the socket reached the same process
    used = {u for ups in by_table.values() for u in ups}
    assert len(used) >= 2, used  # 12 tables on one process of three: the hash is broken
    # Calls that name no table (the lobby list, creating, joining by invite) are spread.
    lobby = {u for m, p, t, u, _ in c.routed()[logged:]
             if not t and p == "/api/tables" and m == "GET"}
    assert len(lobby) >= 2, lobby
    # One browser's calls that name no table stay in one process (its guest cookie is the
    # key): a passkey ceremony's two steps meet there.
    logged = len(c.routed())
    with httpx.Client(base_url=c.url, timeout=30) as browser:
        assert browser.get("/api/me").status_code == 200
        assert "golf_guest" in browser.cookies
        for _ in range(6):
            assert browser.get("/api/tables").status_code == 200
    wait_for_log(c, logged + 7)
    # (The first call, without a cookie yet, went anywhere.)
    mine = {u for m, p, t, u, _ in c.routed()[logged:] if not t and p == "/api/tables"}
    assert len(mine) == 1, mine


async def hello(url: str, table: str, token: str) -> None:
    client = Client(url, table, token)
    await client.connect()
    try:
        await client.wait(lambda cl: cl.welcome is not None, 30, "welcome")
    finally:
        await client.close()


def test_a_process_that_is_down_is_skipped_and_comes_back(cluster3: Cluster) -> None:
    c = cluster3
    logged = len(c.routed())
    tid, _ = create(c)
    assert httpx.get(f"{c.url}/api/tables/{tid}", timeout=30).status_code == 200
    wait_for_log(c, logged + 3)
    (home,) = upstreams_by_table(c)[tid]
    victim = [f"127.0.0.1:{c.port(i)}" for i in range(c.processes)].index(home)
    c.kill(victim)
    assert c.pid(victim) is None and not healthy(c.process_urls[victim])
    # The table's requests go to another process (proxy_next_upstream), never a 502.
    for _ in range(5):
        r = httpx.get(f"{c.url}/api/tables/{tid}", timeout=30)
        assert r.status_code == 200, r.text
        assert r.json()["id"] == tid
    c.restart(victim)
    assert healthy(c.process_urls[victim])
    # After nginx's fail_timeout (3 s in golf.conf) the table is routed home again.
    deadline = time.monotonic() + 15
    n = len(c.routed())
    while time.monotonic() < deadline:
        assert httpx.get(f"{c.url}/api/tables/{tid}", timeout=30).status_code == 200
        wait_for_log(c, n + 1)
        n = len(c.routed())
        if c.routed()[-1][3] == home:
            break
        time.sleep(0.5)
    assert c.routed()[-1][3] == home


def test_terminate_drains_and_a_match_plays_through_the_proxy(cluster3: Cluster) -> None:
    c = cluster3
    tid, tokens = create(c)
    r = httpx.post(f"{c.url}/api/tables/{tid}/start",
                   headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=30)
    assert r.status_code == 200, r.text
    ws = c.url.replace("http", "ws", 1) + f"/ws?table={tid}"

    async def play() -> None:
        clients = [await Client(ws, tid, t).connect() for t in tokens]
        try:
            for cl in clients:
                await cl.wait(lambda x: x.state is not None, 30, "a state")
            await play_out(clients, random.Random(7), timeout=240)
            assert all(cl.over for cl in clients)
        finally:
            for cl in clients:
                await cl.close()

    asyncio.run(play())
    # SIGTERM: drained and exited by itself (uvicorn re-raises the signal when done), not
    # killed after the runner's timeout (-9).
    assert c.terminate(0) in (0, -signal.SIGTERM)
    assert c.pid(0) is None
    assert healthy(c.url)  # the others still serve through the proxy
    c.restart(0)
    assert healthy(c.process_urls[0])


def test_golf_cluster_command_starts_and_stops_everything(tmp_path: Path,
                                                          postgres_url: str) -> None:
    from server.conftest import fresh_database

    base = free_port_block(3)
    data = tmp_path / "golf-cluster"
    # With a password (the test's PostgreSQL trusts loopback and ignores it): never printed.
    db = make_url(fresh_database(postgres_url)).set(password=PASSWORD).render_as_string(
        hide_password=False)
    cmd = [sys.executable, "-m", "golf", "cluster", "--processes", "2", "--port", str(base),
           "--db", db, "--data-dir", str(data)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        if not first.startswith(f"Golf cluster on http://127.0.0.1:{base}/"):
            proc.wait(120)
            raise AssertionError(first + proc.stdout.read())
        assert PASSWORD not in first and ":***@" in first, first
        assert healthy(f"http://127.0.0.1:{base}")
        assert all(healthy(f"http://127.0.0.1:{base + 1 + i}") for i in range(2))
        check_status(base, data)
        stop = subprocess.run([sys.executable, "-m", "golf", "cluster", "stop", "--data-dir",
                               str(data)], capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stderr
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
    for port in range(base, base + 3):
        assert not healthy(f"http://127.0.0.1:{port}", timeout=1)
    again = subprocess.run([sys.executable, "-m", "golf", "cluster", "stop", "--data-dir",
                            str(data)], capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "no running cluster" in again.stderr
    gone = status(data)
    assert gone.returncode == 2 and "no running cluster is recorded" in gone.stderr, gone


#: The database password of the cluster started by `golf cluster` (it must never show).
PASSWORD = "pw-not-to-print"


def status(data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "golf", "cluster", "status", "--data-dir",
                           str(data), *extra], capture_output=True, text=True, timeout=60)


def check_status(base: int, data: Path) -> None:
    """`golf cluster status` of a running cluster of two: every part, and the one table
    made, held by one process with its lease's age."""
    r = httpx.post(f"http://127.0.0.1:{base}/api/tables", timeout=30, json={
        "name": "Ann", "preset": "six-card",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
    assert r.status_code == 201, r.text
    # Its lease is taken by the process its id hashes to, on the first request naming it.
    tid, token = r.json()["table"]["id"], r.json()["token"]
    r = httpx.get(f"http://127.0.0.1:{base}/api/tables/{tid}", timeout=30,
                  headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    text = status(data)
    assert text.returncode == 0, text.stderr
    assert PASSWORD not in text.stdout and ":***@" in text.stdout, text.stdout
    for port in (base, base + 1, base + 2):
        assert f"{port}" in text.stdout, text.stdout
    assert "reachable: yes" in text.stdout and "answers /api/health: yes" in text.stdout
    js = status(data, "--json")
    assert js.returncode == 0, js.stderr
    assert PASSWORD not in js.stdout
    st = json.loads(js.stdout)
    assert st["owner_running"] and st["proxy"]["healthy"] and st["proxy"]["running"]
    assert st["database"]["reachable"] and not st["database"]["own"]
    assert [p["port"] for p in st["processes"]] == [base + 1, base + 2]
    assert all(p["running"] and p["healthy"] and p["row_left_s"] > 0
               for p in st["processes"]), st["processes"]
    held = [p for p in st["processes"] if p["tables"]]
    assert len(held) == 1 and held[0]["tables"] == 1, st["processes"]
    assert held[0]["oldest_lease_s"] >= 0 and held[0]["renewing_s"] >= 0


def test_golf_cluster_status_without_a_cluster(tmp_path: Path) -> None:
    """A clear error, exit 2, where no cluster was started (or it was stopped)."""
    r = status(tmp_path / "nothing")
    assert r.returncode == 2 and "no running cluster is recorded in" in r.stderr, r
    assert "golf cluster" in r.stderr and r.stdout == ""
    helped = subprocess.run([sys.executable, "-m", "golf", "cluster", "--help"],
                            capture_output=True, text=True, timeout=60)
    words = " ".join(helped.stdout.split())
    assert "golf cluster status" in words and "node name" in words, words
