"""Load benchmark of ``golf serve``: N concurrent tables over real WebSockets on loopback.

Each table has two scripted people and one server-side bot. A person answers its turn
after a think time (``--think`` seconds, jittered), a bot after the table's bot delay
(``--bot-delay``). The server runs as a separate process (SQLite in a temp dir, or
``--db URL``); this process is the clients. For each person's action it measures the
latency from sending the action to the moment *every* seat of that table has the
state with the new version, and prints, per load level, actions/s (all actions,
bots' included), p50/p99 of that latency, and the CPU the server and the clients used.
It stops after two levels in a row miss the target (p99 <= 50 ms) and reports the
largest N that met it, with the clients' own event-loop lag and the machine's load
average (on a shared machine both explain outliers). ``--profile`` runs the server
under cProfile and prints where its time went.

    .venv/bin/python bench/server.py                       # levels 10..1000, 15 s each
    .venv/bin/python bench/server.py --levels 50,200 --seconds 10
    .venv/bin/python bench/server.py --levels 200 --profile

Loopback only; bounded by --levels, --seconds and --limit (total seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

TARGET_P99_MS = 50.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(parts[11]) + int(parts[12])) / tick


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    recording: bool = False


class Seat:
    def __init__(self, table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.ws: Any = None
        self.version = -1

    async def run(self, url: str) -> None:
        self.ws = await websockets.connect(url, max_size=2**20, open_timeout=60,
                                           ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "protocol": 1,
                                       "table": self.table.id, "token": self.token}))
        async for text in self.ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "state":
                self.table.on_state(self, msg)
            elif kind == "error" and msg["code"] != "stale_version":
                self.table.stats.errors += 1


class Table:
    def __init__(self, bench: Bench, tid: str, tokens: list[str], host: str) -> None:
        self.bench = bench
        self.stats = bench.stats
        self.id = tid
        self.host = host
        self.seats = [Seat(self, t) for t in tokens]
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.match = 1
        self.rng = random.Random(tid)
        self.last_version = 0
        self.rematching = False

    def on_state(self, seat: Seat, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        v = msg["version"]
        if msg["match"] != self.match:
            if msg["match"] > self.match:
                self.match = msg["match"]
                self.pending.clear()
                self.last_version = 0
            else:
                return
        idx = self.seats.index(seat)
        seat.version = v
        if idx == 0 and v > self.last_version:
            if self.stats.recording:
                self.stats.actions += v - self.last_version
            self.last_version = v
        p = self.pending.get(v)
        if p is not None:
            p[1].discard(idx)
            if not p[1]:
                del self.pending[v]
                if self.stats.recording:
                    self.stats.latencies.append(now - p[0])
        if msg["view"]["is_over"]:
            if idx == 0 and not self.rematching:
                self.rematching = True
                asyncio.get_running_loop().create_task(self.rematch())
            return
        if msg["your_turn"]:
            asyncio.get_running_loop().create_task(self.act(seat, msg))

    async def act(self, seat: Seat, msg: dict[str, Any]) -> None:
        think = self.bench.think
        await asyncio.sleep(think * self.rng.uniform(0.5, 1.5) if think else 0)
        if seat.version != msg["version"] or self.bench.stopping:
            return
        action = self.rng.choice(msg["legal_actions"])
        self.pending[msg["version"] + 1] = (time.perf_counter(), {0, 1})
        with contextlib.suppress(Exception):
            await seat.ws.send(json.dumps({"type": "action", "version": msg["version"],
                                           "action": action}))

    async def rematch(self) -> None:
        with contextlib.suppress(Exception):
            await self.bench.http.post(f"/api/tables/{self.id}/rematch", json={},
                                       headers={"Authorization": f"Bearer {self.host}"})
        self.rematching = False


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.think = args.think
        self.stats = Stats()
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.http: httpx.AsyncClient = None  # type: ignore[assignment]
        self.proc: subprocess.Popen[bytes] | None = None
        self.tmp = Path(tempfile.mkdtemp(prefix="golf-bench-"))
        self.lag_max = 0.0

    async def watch_lag(self) -> None:
        """The clients' own event-loop lag: a stalled client inflates latencies too."""
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.02)
            self.lag_max = max(self.lag_max, time.perf_counter() - t - 0.02)

    def start_server(self) -> None:
        cmd = [sys.executable]
        if self.args.profile:
            cmd += ["-m", "cProfile", "-o", str(self.tmp / "server.prof")]
        cmd += ["-m", "golf", "serve", "--port", str(self.port), "--data-dir", str(self.tmp)]
        if self.args.db:
            cmd += ["--db", self.args.db]
        self.log = (self.tmp / "server.log").open("wb")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise SystemExit("the server did not start: " + (self.tmp / "server.log").read_text())

    def stop_server(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT if self.args.profile else signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    async def add_table(self) -> None:
        body = {"name": "A", "preset": self.args.preset, "rules": {},
                "seats": [{"kind": "human"}, {"kind": "human"},
                          {"kind": "bot", "bot": self.args.bot}],
                "options": {"bot_delay": self.args.bot_delay}}
        r = (await self.http.post("/api/tables", json=body)).json()
        tid, host = r["table"]["id"], r["token"]
        j = (await self.http.post(f"/api/invites/{r['invite']}/join",
                                  json={"name": "B"})).json()
        t = Table(self, tid, [host, j["token"]], host)
        self.tables.append(t)
        url = f"ws://127.0.0.1:{self.port}/ws"
        for s in t.seats:
            self.tasks.append(asyncio.create_task(s.run(url)))
        while any(s.ws is None for s in t.seats):
            await asyncio.sleep(0.01)
        await self.http.post(f"/api/tables/{tid}/start",
                             headers={"Authorization": f"Bearer {host}"})

    async def grow_to(self, n: int) -> None:
        sem = asyncio.Semaphore(20)

        async def one() -> None:
            async with sem:
                await self.add_table()

        await asyncio.gather(*(one() for _ in range(n - len(self.tables))))

    async def run(self) -> list[dict[str, Any]]:
        levels = [int(x) for x in self.args.levels.split(",")]
        self.start_server()
        assert self.proc is not None
        results = []
        misses = 0
        began = time.monotonic()
        lag = asyncio.create_task(self.watch_lag())
        limits = httpx.Limits(max_connections=40)
        async with httpx.AsyncClient(base_url=self.base, limits=limits, timeout=120) as http:
            self.http = http
            for n in levels:
                if time.monotonic() - began > self.args.limit:
                    print(f"stopping: the time limit of {self.args.limit:.0f} s is reached")
                    break
                t0 = time.monotonic()
                await self.grow_to(n)
                ramp = time.monotonic() - t0
                await asyncio.sleep(self.args.warmup)
                self.stats = Stats(recording=True)
                for t in self.tables:
                    t.stats = self.stats
                srv0, cli0 = cpu_seconds(self.proc.pid), time.process_time()
                self.lag_max = 0.0
                w0 = time.monotonic()
                await asyncio.sleep(self.args.seconds)
                wall = time.monotonic() - w0
                self.stats.recording = False
                srv = cpu_seconds(self.proc.pid) - srv0
                cli = time.process_time() - cli0
                lat = sorted(self.stats.latencies)
                res = {
                    "tables": n, "ramp_s": round(ramp, 1),
                    "actions_per_s": round(self.stats.actions / wall, 1),
                    "person_actions": len(lat),
                    "p50_ms": round(1000 * lat[len(lat) // 2], 1) if lat else None,
                    "p99_ms": round(1000 * lat[int(len(lat) * 0.99)], 1) if lat else None,
                    "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
                    "server_cpu": round(srv / wall, 2), "client_cpu": round(cli / wall, 2),
                    "server_cpu_ms_per_action": round(1000 * srv / max(1, self.stats.actions),
                                                      2),
                    "errors": self.stats.errors,
                }
                res["client_loop_lag_max_ms"] = round(1000 * self.lag_max, 1)
                res["load_avg"] = round(os.getloadavg()[0], 1)
                results.append(res)
                print(json.dumps(res), flush=True)
                # Under a shared machine one level can miss by bad luck: stop only after
                # two misses in a row.
                missed = res["p99_ms"] is None or res["p99_ms"] > TARGET_P99_MS
                misses = misses + 1 if missed else 0
                if misses >= 2:
                    break
            self.stopping = True
            lag.cancel()
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
        self.stop_server()
        return results


def report(results: list[dict[str, Any]], args: argparse.Namespace, tmp: Path) -> None:
    ok = [r for r in results if r["p99_ms"] is not None and r["p99_ms"] <= TARGET_P99_MS]
    print()
    print(f"{'tables':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'server cpu':>10} "
          f"{'client cpu':>10} {'ms cpu/action':>13} {'client lag ms':>13} {'load':>5}")
    for r in results:
        print(f"{r['tables']:>7} {r['actions_per_s']:>10} {r['p50_ms']!s:>8} "
              f"{r['p99_ms']!s:>8} {r['server_cpu']:>10} {r['client_cpu']:>10} "
              f"{r['server_cpu_ms_per_action']:>13} {r['client_loop_lag_max_ms']:>13} "
              f"{r['load_avg']:>5}")
    best = max((r["tables"] for r in ok), default=None)
    print(f"\nlargest N with p99 <= {TARGET_P99_MS:.0f} ms: {best} "
          f"(think {args.think} s, bot delay {args.bot_delay} s, {os.cpu_count()} cores "
          "shared by server and clients)")
    prof = tmp / "server.prof"
    if args.profile and prof.exists():
        import pstats

        print("\nwhere the server's time went (cProfile, by own time):")
        st = pstats.Stats(str(prof))
        st.sort_stats("tottime").print_stats(20)
        print("\nthe server's own functions, by cumulative time:")
        st.sort_stats("cumulative").print_stats("golf/(server|view|game|bots)", 25)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--levels", default="10,50,100,250,500,750,1000",
                   help="table counts to measure, ascending (default %(default)s)")
    p.add_argument("--seconds", type=float, default=15, help="measuring time per level")
    p.add_argument("--warmup", type=float, default=3, help="seconds before measuring")
    p.add_argument("--think", type=float, default=1.0,
                   help="a scripted person's mean think time in seconds (default 1)")
    p.add_argument("--bot-delay", type=float, default=0.5, help="the tables' bot delay")
    p.add_argument("--bot", default="easy", help="the bot difficulty (default easy)")
    p.add_argument("--preset", default="six-card")
    p.add_argument("--db", default=None, help="database URL (default SQLite in a temp dir)")
    p.add_argument("--limit", type=float, default=900, help="total seconds at most")
    p.add_argument("--profile", action="store_true", help="profile the server (cProfile)")
    args = p.parse_args()
    bench = Bench(args)
    try:
        results = asyncio.run(bench.run())
    finally:
        bench.stop_server()
    report(results, args, bench.tmp)


if __name__ == "__main__":
    main()
