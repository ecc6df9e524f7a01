"""Load benchmark of ``golf serve``: N tables of scripted people over real WebSockets.

Each table has two scripted people (``--people``) and, with ``--bots``, server-side bots. A
person answers its turn after thinking ``--think`` ± ``--jitter`` seconds (uniform). The
latency of an action is the time from sending it to the moment the actor receives the
state with the new version (its acknowledgement: the action is stored by then). For each
load level it prints actions/s (all actions), p50/p99 of that latency and:

* the server's CPU per action, from ``/proc`` of the server process, split into the event
  loop's thread, the database driver's thread, the bots' worker threads and the rest (read
  from the server's ``/api/debug/metrics``; without it only the process total);
* the longest event-loop pause the server saw (its loop-lag monitor) and its longest
  garbage collection per generation;
* the load generators' own CPU and loop lag (they run in ``--workers`` processes of their
  own, apart from the server, so their time is never counted as the server's).

With ``--spy`` it records the server with py-spy (when installed) during each measuring
window and prints where the event loop's time went, by own and by inclusive time.

By default it starts ``golf serve --metrics`` itself (SQLite in a temp dir, or ``--db
URL``; ``--gc`` picks its collection policy); ``--url`` runs the same load against any
running server instead (``--pid`` names its process for the CPU figures).

    .venv/bin/python bench/server.py --levels 250,1000,2000 --seconds 180
    .venv/bin/python bench/server.py --levels 500 --gc python       # Python's collector
    .venv/bin/python bench/server.py --url http://127.0.0.1:8000 --pid 1234 --levels 500
    .venv/bin/python bench/server.py --levels 2000 --spy                # where time goes
    .venv/bin/python bench/server.py --cluster 3 --levels 1000,3000 --workers 2

``--cluster N`` starts N processes on PostgreSQL behind nginx (golf.cluster) and drives the
same load through the proxy; it prints p50/p99 and CPU per action per process (a table
belongs to the process nginx routed its calls to) and the CPU of PostgreSQL's and nginx's
processes per action and as a share of all the CPU the cluster used.

Loopback only; bounded by --levels, --seconds and --limit (total seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import websockets

TARGET_P99_MS = 50.0
TARGET_PAUSE_MS = 50.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc), its threads included."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system (kernel: socket calls, wake-ups) CPU seconds of a process."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(parts[11]) / tick, int(parts[12]) / tick


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of a process and all its descendants now alive, plus what its exited
    children used (reaped: cutime and cstime). PostgreSQL's postmaster and its backends,
    nginx's master and its workers."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
    total, todo = 0.0, [root]
    tick = os.sysconf("SC_CLK_TCK")
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
            total += (int(parts[11]) + int(parts[12])) / tick
            if pid == root:
                total += (int(parts[13]) + int(parts[14])) / tick
        todo += children.get(pid, [])
    return total


def context_switches(pid: int) -> int:
    """Voluntary + involuntary context switches of all a process's threads (Linux /proc):
    each hand-off between the event loop and a worker thread costs some."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{tid}/status") as f:
            for line in f:
                name, _, value = line.partition(":")
                if name.endswith("ctxt_switches"):
                    total += int(value)
    return total


# --- the load generator (a worker process) ---------------------------------------------------

@dataclass
class Stats:
    #: Per table: the latencies of its people's actions, and its actions (people's and bots').
    latencies: dict[str, list[float]] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    #: Refusals other than stale_version, by error code.
    errors: dict[str, int] = field(default_factory=dict)
    recording: bool = False


class Seat:
    def __init__(self, table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.ws: Any = None
        self.version = -1
        self.sent: tuple[int, float] | None = None  # (version acted on, when)

    async def run(self, url: str, protocol: int) -> None:
        self.ws = await websockets.connect(url, max_size=2**20, open_timeout=120,
                                           ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "protocol": protocol,
                                       "table": self.table.id, "token": self.token}))
        async for text in self.ws:
            msg = json.loads(text)
            if "view" in msg and "version" in msg and msg["type"] != "error":
                self.table.on_state(self, msg)
            elif msg["type"] == "error":
                # A refused action must not leave the seat waiting for its acknowledgement.
                if msg["code"] != "stale_version":
                    errors = self.table.gen.stats.errors
                    errors[msg["code"]] = errors.get(msg["code"], 0) + 1
                self.sent = None
                if "state" in msg:
                    self.table.on_state(self, msg["state"])


class Table:
    def __init__(self, gen: Generator, tid: str, tokens: list[str], host: str) -> None:
        self.gen = gen
        self.id = tid
        self.host = host
        self.seats = [Seat(self, t) for t in tokens]
        self.match = 1
        self.rng = random.Random(tid)
        self.last_version = 0
        self.rematching = False

    def on_state(self, seat: Seat, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        stats = self.gen.stats
        v = msg["version"]
        match = msg.get("match", self.match)
        if match != self.match:
            if match < self.match:
                return
            self.match = match
            self.last_version = 0
            for s in self.seats:
                s.sent = None
        seat.version = v
        if seat is self.seats[0] and v > self.last_version:
            if stats.recording:
                stats.actions[self.id] = stats.actions.get(self.id, 0) + v - self.last_version
            self.last_version = v
        if seat.sent is not None and v > seat.sent[0]:
            if stats.recording:
                stats.latencies.setdefault(self.id, []).append(now - seat.sent[1])
            seat.sent = None
        view = msg["view"]
        if not view["is_over"] and ended_a_hole(msg):
            # A person reads the hole's end and closes its dialog: the next hole waits
            # for that `ready` (or its countdown), as for a browser.
            asyncio.get_running_loop().create_task(self.ready(seat))
        if view["is_over"]:
            if seat is self.seats[0] and not self.rematching:
                self.rematching = True
                asyncio.get_running_loop().create_task(self.rematch())
            return
        # your_turn, not legal_actions: between holes the next hole's first player has
        # legal actions but waits for everyone's `ready` (an action then is `hole_break`).
        if msg.get("your_turn") and seat.sent is None:
            asyncio.get_running_loop().create_task(self.act(seat, v, view["legal_actions"]))

    async def act(self, seat: Seat, version: int, legal: list[str]) -> None:
        g = self.gen
        await asyncio.sleep(max(0.0, g.think + self.rng.uniform(-g.jitter, g.jitter)))
        if seat.version != version or g.stopping or seat.sent is not None:
            return
        seat.sent = (version, time.perf_counter())
        with contextlib.suppress(Exception):
            await seat.ws.send(json.dumps({"type": "action", "version": version,
                                           "action": self.rng.choice(legal)}))

    async def ready(self, seat: Seat) -> None:
        g = self.gen
        await asyncio.sleep(max(0.0, g.think + self.rng.uniform(-g.jitter, g.jitter)))
        with contextlib.suppress(Exception):
            await seat.ws.send(json.dumps({"type": "ready"}))

    async def rematch(self) -> None:
        """The host offers a rematch and every other person accepts it."""
        with contextlib.suppress(Exception):
            await self.gen.http.post(f"/api/tables/{self.id}/rematch", json={},
                                     headers={"Authorization": f"Bearer {self.host}"})
            for seat in self.seats[1:]:
                await self.gen.http.post(f"/api/tables/{self.id}/rematch/accept", json={},
                                         headers={"Authorization": f"Bearer {seat.token}"})
        self.rematching = False


def ended_a_hole(msg: dict[str, Any]) -> bool:
    """Whether this state's event ended a hole (its facts name a hole end)."""
    event = msg.get("event") or {}
    return any(f.get("type") == "hole_end" for f in event.get("facts") or [])


class Generator:
    """One worker's tables; commands come on stdin, answers go to stdout (JSON lines)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.think = args.think
        self.jitter = args.jitter
        self.stats = Stats()
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.http: httpx.AsyncClient = None  # type: ignore[assignment]
        self.lag_max = 0.0
        self.protocol = 1
        self.setup_errors = 0

    async def watch_lag(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.02)
            self.lag_max = max(self.lag_max, time.perf_counter() - t - 0.02)

    async def post(self, url: str, **kw: Any) -> Any:
        """A lobby call of the ramp-up; retried when a kept-alive connection was closed
        under it (on a busy machine the server's keep-alive timeout can win that race)."""
        for attempt in range(4):
            try:
                return (await self.http.post(url, **kw)).json()
            except httpx.TransportError:
                if attempt == 3:
                    raise
                await asyncio.sleep(0.5)
        return None

    async def add_table(self) -> None:
        a = self.args
        seats = [{"kind": "human"} for _ in range(a.people)]
        seats += [{"kind": "bot", "bot": a.bot} for _ in range(a.bots)]
        body = {"name": "P0", "preset": a.preset, "rules": {}, "seats": seats,
                "options": {"bot_delay": a.bot_delay}}
        r = await self.post_json("/api/tables", body)
        tid, host = r["table"]["id"], r["token"]
        tokens = [host]
        for i in range(1, a.people):
            # ?table= lets a cluster's proxy send the join to the table's process (an invite
            # code names no table); a single server ignores it.
            j = await self.post_json(f"/api/invites/{r['invite']}/join?table={tid}",
                                     {"name": f"P{i}"})
            tokens.append(j["token"])
        t = Table(self, tid, tokens, host)
        self.tables.append(t)
        # ?table= as js/socket.js sends it: a cluster's proxy routes the socket by it.
        url = a.url.replace("http", "ws", 1) + f"/ws?table={tid}"
        for s in t.seats:
            self.tasks.append(asyncio.create_task(s.run(url, self.protocol)))
        while any(s.ws is None for s in t.seats):
            await asyncio.sleep(0.01)
        await self.post(f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {host}"})

    async def post_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """A set-up call, tried again a few times when refused (a cluster's table that is
        moving between processes answers try_again); each refusal counts as an error."""
        r: httpx.Response | None = None
        for attempt in range(5):
            try:
                r = await self.http.post(path, json=body)
            except httpx.TransportError:
                # A kept-alive connection closed under the call (a busy machine): again.
                self.setup_errors += 1
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            if r.status_code < 300:
                return dict(r.json())
            self.setup_errors += 1
            await asyncio.sleep(0.2 * (attempt + 1))
        raise SystemExit(f"{path} was refused 5 times (the last: {r.status_code} "
                         f"{r.text[:300]})" if r is not None else f"{path} failed 5 times")

    async def grow_to(self, n: int) -> None:
        sem = asyncio.Semaphore(10)

        async def one() -> None:
            async with sem:
                await self.add_table()

        await asyncio.gather(*(one() for _ in range(n - len(self.tables))))

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        lag = asyncio.create_task(self.watch_lag())
        limits = httpx.Limits(max_connections=20)
        async with httpx.AsyncClient(base_url=self.args.url, limits=limits,
                                     timeout=120) as http:
            self.http = http
            self.protocol = (await http.get("/api/health")).json()["protocol"]
            while line := await reader.readline():
                cmd = json.loads(line)
                if cmd["do"] == "grow":
                    await self.grow_to(cmd["n"])
                    answer({"grown": len(self.tables), "setup_errors": self.setup_errors})
                elif cmd["do"] == "start":
                    self.stats = Stats(recording=True)
                    self.lag_max = 0.0
                    self.cpu0 = time.process_time()
                    answer({"started": True})
                elif cmd["do"] == "stop":
                    self.stats.recording = False
                    answer({"latencies": self.stats.latencies, "actions": self.stats.actions,
                            "errors": self.stats.errors, "lag_max": self.lag_max,
                            "cpu": time.process_time() - self.cpu0})
                elif cmd["do"] == "quit":
                    break
            self.stopping = True
            lag.cancel()
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)


def answer(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def run_worker(args: argparse.Namespace) -> None:
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    asyncio.run(Generator(args).serve())


# --- the controller -----------------------------------------------------------------------

class Worker:
    def __init__(self, args: argparse.Namespace, url: str) -> None:
        cmd = [sys.executable, __file__, "--worker", "--url", url]
        for name in ("think", "jitter", "people", "bots", "bot_delay", "bot", "preset"):
            cmd += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def send(self, **cmd: Any) -> None:
        stdin: IO[str] | None = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(cmd) + "\n")
        stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a load generator died; see its output above")
        return dict(json.loads(line))

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.send(do="quit")
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="golf-bench-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = args.pid
        self.url = args.url
        self.cluster: Any = None
        #: (tables, py-spy's file) per measured level, with --spy.
        self.spies: list[tuple[int, Path]] = []

    def start_cluster(self) -> None:
        """``--cluster N``: PostgreSQL (``--db`` or a throwaway one), N processes and nginx
        (golf.cluster), the load through the proxy."""
        from golf.cluster import Cluster, free_port_block

        n = self.args.cluster
        self.cluster = Cluster(processes=n, base_port=free_port_block(n + 2),
                               pg_url=self.args.db, data_dir=self.tmp / "cluster",
                               serve_args=["--metrics", "--gc", self.args.gc,
                                           *self.args.serve_arg],
                               access_log=True)
        self.cluster.start()
        self.url = self.cluster.url

    def postgres_pid(self) -> int | None:
        """The postmaster: ``--pg-pid``, or the one the cluster started."""
        if self.args.pg_pid:
            return int(self.args.pg_pid)
        if self.cluster is None or not self.cluster.own_postgres:
            return None
        with contextlib.suppress(OSError, ValueError):
            return int((self.cluster.pg_dir / "data" / "postmaster.pid").read_text().split()[0])
        return None

    def nginx_pid(self) -> int | None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            return int((self.cluster.nginx_dir / "nginx.pid").read_text().strip())
        return None

    def process_of_table(self) -> dict[str, int]:
        """Which process each table's calls went to (nginx's log of the start call)."""
        where = {f"127.0.0.1:{self.cluster.port(i)}": i for i in range(self.cluster.processes)}
        out = {}
        for method, path, table, upstream, status in self.cluster.routed():
            if method == "POST" and path.endswith("/start") and status == 200:
                out[table] = where.get(upstream.split(", ")[-1], -1)
        return out

    def start_server(self) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        cmd = [sys.executable]
        if self.args.profile:
            cmd += ["-m", "cProfile", "-o", str(self.tmp / "server.prof")]
        cmd += ["-m", "golf", "serve", "--port", str(port), "--data-dir",
                str(self.tmp), "--metrics", "--gc", self.args.gc, *self.args.serve_arg]
        if self.args.db:
            cmd += ["--db", self.args.db]
        self.log = (self.tmp / "server.log").open("wb")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise SystemExit("the server did not start: " + (self.tmp / "server.log").read_text())

    def stop_server(self) -> None:
        if self.proc and self.proc.poll() is None:
            # SIGINT lets cProfile write its file; SIGTERM is the server's drain.
            self.proc.send_signal(signal.SIGINT if self.args.profile else signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def start_spy(self, n: int) -> subprocess.Popen[bytes] | None:
        """py-spy recording the server for the measuring window (without stopping it:
        ``--nonblocking``), or None when not asked for or not installed."""
        if not self.args.spy or self.pid is None:
            return None
        exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if not Path(exe).exists():
            print("--spy: py-spy is not installed; no profile", file=sys.stderr)
            return None
        out = self.tmp / f"spy-{n}.txt"
        self.spies.append((n, out))
        return subprocess.Popen(
            # --gil: only the thread holding the GIL, so waiting for it is not counted.
            [exe, "record", "--nonblocking", "--gil", "-p", str(self.pid), "-r", "100", "-d",
             str(max(1, int(self.args.seconds) - 2)), "-f", "raw", "-o", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def metrics(self, reset: bool = False, frozen: bool = False) -> dict[str, Any] | None:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            r = httpx.get(self.url + "/api/debug/metrics",
                          params={"reset": reset, "frozen": frozen}, timeout=30)
            if r.status_code == 200:
                return dict(r.json())
        return None

    def run(self) -> list[dict[str, Any]]:
        a = self.args
        if self.args.cluster:
            self.start_cluster()
        elif self.url is None:
            self.start_server()
        workers = [Worker(a, self.url) for _ in range(a.workers)]
        levels = [int(x) for x in a.levels.split(",")]
        results = []
        began = time.monotonic()
        try:
            for n in levels:
                if time.monotonic() - began > a.limit:
                    print(f"stopping: the time limit of {a.limit:.0f} s is reached")
                    break
                t0 = time.monotonic()
                for i, w in enumerate(workers):
                    w.send(do="grow", n=n // len(workers) + (i < n % len(workers)))
                refused = sum(w.read()["setup_errors"] for w in workers)
                if refused:
                    print(f"{refused} set-up calls were refused and tried again")
                ramp = time.monotonic() - t0
                time.sleep(a.warmup)
                results.append(self.measure(n, workers, ramp))
                print(json.dumps(results[-1]), flush=True)
        finally:
            for w in workers:
                w.stop()
            self.stop_server()
            if self.cluster is not None:
                self.cluster.stop()
        return results

    def cluster_cpu(self) -> dict[str, float]:
        """CPU seconds so far: each process, PostgreSQL (all its processes) and nginx."""
        c = self.cluster
        out = {f"p{i}": cpu_seconds(c.pid(i)) for i in range(c.processes) if c.pid(i)}
        for name, pid in (("postgres", self.postgres_pid()), ("nginx", self.nginx_pid())):
            if pid:
                out[name] = tree_cpu_seconds(pid)
        return out

    def measure(self, n: int, workers: list[Worker], ramp: float) -> dict[str, Any]:
        if self.cluster is not None:
            return measure_cluster(self, n, workers, ramp)
        a = self.args
        self.metrics(reset=True)
        m0 = self.metrics()
        srv0 = cpu_seconds(self.pid) if self.pid else None
        split0 = cpu_split(self.pid) if self.pid else None
        cs0 = context_switches(self.pid) if self.pid else None
        for w in workers:
            w.send(do="start")
        for w in workers:
            w.read()
        w0 = time.monotonic()
        spy = self.start_spy(n)
        time.sleep(a.seconds)
        for w in workers:
            w.send(do="stop")
        got = [w.read() for w in workers]
        wall = time.monotonic() - w0
        srv = cpu_seconds(self.pid) - srv0 if self.pid and srv0 is not None else None
        split = (None if not self.pid or split0 is None else
                 [b - a for a, b in zip(split0, cpu_split(self.pid), strict=True)])
        switches = (context_switches(self.pid) - cs0 if self.pid and cs0 is not None
                    else None)
        m1 = self.metrics(frozen=True)  # after the window: counting the frozen objects stalls
        if spy is not None:
            spy.wait()
        lat = sorted(x for g in got for xs in g["latencies"].values() for x in xs)
        actions = sum(v for g in got for v in g["actions"].values())
        res: dict[str, Any] = {
            "tables": n, "ramp_s": round(ramp, 1), "seconds": round(wall, 1),
            "actions_per_s": round(actions / wall, 1), "person_actions": len(lat),
            "p50_ms": round(1000 * lat[len(lat) // 2], 1) if lat else None,
            "p99_ms": round(1000 * lat[int(len(lat) * 0.99)], 1) if lat else None,
            "max_ms": round(1000 * lat[-1], 1) if lat else None,
            "errors": sum(sum(g["errors"].values()) for g in got),
            "errors_by_code": dict(sum((Counter(g["errors"]) for g in got), Counter())),
            "server_cpu_cores": None if srv is None else round(srv / wall, 2),
            "server_cpu_ms_per_action": None if srv is None else round(
                1000 * srv / max(1, actions), 3),
            "server_kernel_share": None if not split or not sum(split) else round(
                split[1] / sum(split), 2),
            "context_switches_per_action": None if switches is None else round(
                switches / max(1, actions), 2),
            "clients_cpu_cores": round(sum(g["cpu"] for g in got) / wall, 2),
            "clients_lag_max_ms": round(1000 * max(g["lag_max"] for g in got), 1),
            "load_avg": round(os.getloadavg()[0], 1),
        }
        if m0 is not None and m1 is not None:
            per = {k: round(1000 * (m1["cpu_s"][k] - m0["cpu_s"][k]) / max(1, actions), 3)
                   for k in m1["cpu_s"]}
            res["cpu_ms_per_action_by_thread"] = per
            res["server_cpu_ms_per_action_without_bots"] = round(
                sum(v for k, v in per.items() if k != "bots"), 3)
            res["loop_pause_max_ms"] = m1["loop_lag_max_ms"]
            res["loop_pause_max_at_s"] = m1.get("loop_lag_max_at_s")
            res["gc_max_ms"] = {g: d["max_ms"] for g, d in m1["gc"].items()}
            res["gc_max_cpu_ms"] = {g: d.get("max_cpu_ms") for g, d in m1["gc"].items()}
            res["gc_count"] = {g: d["count"] for g, d in m1["gc"].items()}
            res["gc_collected"] = {g: d["collected"] for g, d in m1["gc"].items()}
            res["gc_frozen"] = m1["gc_frozen"]
            res["rss_mb"] = m1["rss_mb"]
            res["stalls"] = m1.get("stalls", [])
            if "commits" in m0 and "commits" in m1:
                batches = m1["commits"]["batches"] - m0["commits"]["batches"]
                writes = m1["commits"]["writes"] - m0["commits"]["writes"]
                res["commits_per_s"] = round(batches / wall, 1)
                res["writes_per_commit"] = round(writes / max(1, batches), 2)
        return res


def percentile(xs: list[float], q: float) -> float | None:
    """The q-quantile of sorted ``xs`` in ms (None when empty)."""
    return round(1000 * xs[min(len(xs) - 1, int(len(xs) * q))], 1) if xs else None


def measure_cluster(bench: Bench, n: int, workers: list[Worker], ramp: float
                    ) -> dict[str, Any]:
    """One level through the cluster's proxy: overall and per-process figures, and the
    shares of PostgreSQL and nginx in the CPU spent."""
    c = bench.cluster
    for url in c.process_urls:
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(url + "/api/debug/metrics", params={"reset": True}, timeout=30)
    cpu0 = bench.cluster_cpu()
    for w in workers:
        w.send(do="start")
    for w in workers:
        w.read()
    w0 = time.monotonic()
    time.sleep(bench.args.seconds)
    for w in workers:
        w.send(do="stop")
    got = [w.read() for w in workers]
    wall = time.monotonic() - w0
    cpu1 = bench.cluster_cpu()
    used = {k: cpu1[k] - cpu0[k] for k in cpu1 if k in cpu0}
    home = bench.process_of_table()
    lat: dict[int, list[float]] = {}
    acts: dict[int, int] = {}
    for g in got:
        for tid, xs in g["latencies"].items():
            lat.setdefault(home.get(tid, -1), []).extend(xs)
        for tid, k in g["actions"].items():
            acts[home.get(tid, -1)] = acts.get(home.get(tid, -1), 0) + k
    everything = sorted(x for xs in lat.values() for x in xs)
    actions = sum(acts.values())
    per = []
    for i in range(c.processes):
        xs = sorted(lat.get(i, []))
        m: dict[str, Any] = {}
        with contextlib.suppress(httpx.HTTPError, ValueError):
            m = httpx.get(c.process_urls[i] + "/api/debug/metrics", timeout=30).json()
        per.append({
            "process": i, "tables": sum(1 for v in home.values() if v == i),
            "actions_per_s": round(acts.get(i, 0) / wall, 1),
            "p50_ms": percentile(xs, 0.5), "p99_ms": percentile(xs, 0.99),
            "cpu_cores": round(used.get(f"p{i}", 0) / wall, 2),
            "cpu_ms_per_action": round(1000 * used.get(f"p{i}", 0) / max(1, acts.get(i, 0)), 3),
            "loop_pause_max_ms": m.get("loop_lag_max_ms"), "rss_mb": m.get("rss_mb")})
    servers = sum(used.get(f"p{i}", 0) for i in range(c.processes))
    total = servers + used.get("postgres", 0) + used.get("nginx", 0)
    return {
        "tables": n, "processes": c.processes, "ramp_s": round(ramp, 1),
        "seconds": round(wall, 1), "actions_per_s": round(actions / wall, 1),
        "person_actions": len(everything), "p50_ms": percentile(everything, 0.5),
        "p99_ms": percentile(everything, 0.99), "max_ms": percentile(everything, 1.0),
        "errors": sum(sum(g["errors"].values()) for g in got),
        "errors_by_code": dict(sum((Counter(g["errors"]) for g in got), Counter())),
        "unrouted_tables": sum(1 for v in home.values() if v < 0),
        "per_process": per,
        "servers_cpu_ms_per_action": round(1000 * servers / max(1, actions), 3),
        "postgres_cpu_ms_per_action": round(1000 * used.get("postgres", 0) / max(1, actions),
                                            3) if "postgres" in used else None,
        "nginx_cpu_ms_per_action": round(1000 * used.get("nginx", 0) / max(1, actions), 3)
        if "nginx" in used else None,
        # Per table held, whatever its pace: what scaling out multiplies.
        "postgres_cores_per_1000_tables": round(1000 * used.get("postgres", 0) / wall / n, 4),
        "nginx_cores_per_1000_tables": round(1000 * used.get("nginx", 0) / wall / n, 4),
        "servers_cores_per_1000_tables": round(1000 * servers / wall / n, 4),
        "postgres_share": round(used.get("postgres", 0) / total, 3) if total else None,
        "nginx_share": round(used.get("nginx", 0) / total, 3) if total else None,
        "cpu_cores_total": round(total / wall, 2),
        "clients_cpu_cores": round(sum(g["cpu"] for g in got) / wall, 2),
        "clients_lag_max_ms": round(1000 * max(g["lag_max"] for g in got), 1),
        "load_avg": round(os.getloadavg()[0], 1),
    }


def report_cluster(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"\n{'tables':>7} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'srv ms/a':>8} {'pg ms/a':>8} {'nginx ms/a':>10} {'pg share':>8} "
          f"{'cores':>6} {'cli lag':>7} {'load':>5}")
    for r in results:
        print(f"{r['tables']:>7} {r['actions_per_s']:>7} {r['p50_ms']!s:>7} "
              f"{r['p99_ms']!s:>7} {r['max_ms']!s:>7} {r['servers_cpu_ms_per_action']!s:>8} "
              f"{r['postgres_cpu_ms_per_action']!s:>8} {r['nginx_cpu_ms_per_action']!s:>10} "
              f"{r['postgres_share']!s:>8} {r['cpu_cores_total']!s:>6} "
              f"{r['clients_lag_max_ms']:>7} {r['load_avg']:>5}")
        for p in r["per_process"]:
            print(f"   process {p['process']}: {p['tables']} tables, {p['actions_per_s']} "
                  f"act/s, p50 {p['p50_ms']} ms, p99 {p['p99_ms']} ms, "
                  f"{p['cpu_ms_per_action']} ms CPU/action ({p['cpu_cores']} cores), "
                  f"longest loop pause {p['loop_pause_max_ms']} ms")
    for r in results:
        for stall in r.get("stalls", []):
            print(f"\nat {r['tables']} tables the loop stalled (caught {stall['after_ms']} ms "
                  f"in{', in a collection' if stall['in_collection'] else ''}) in:\n"
                  f"{stall['stack']}")
    ok = [r["tables"] for r in results if r["p99_ms"] is not None
          and r["p99_ms"] <= TARGET_P99_MS]
    print(f"\nlargest N with p99 <= {TARGET_P99_MS:.0f} ms through the proxy: "
          f"{max(ok, default=None)} ({args.cluster} processes, think {args.think} ± "
          f"{args.jitter} s, {args.people} people per table, {os.cpu_count()} cores shared "
          f"by the processes, PostgreSQL, nginx and {args.workers} load generators)")

def frame_name(frame: str) -> str:
    """A py-spy frame ``function (path:line)`` as ``function (file)``, paths shortened."""
    name, _, where = frame.partition(" (")
    path = where.rsplit(":", 1)[0]
    path = re.sub(r".*/(site-packages|src|lib/python3\.\d+)/", "", path)
    return f"{name} ({path})" if where else name


def print_spy(path: Path, top: int = 25) -> None:
    """The event loop's share of samples per function: by own time (where the thread
    was when sampled) and by inclusive time (on the stack at all)."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [frame_name(f) for f in stack.split(";")]
        if any("_connection_worker_thread" in f or "Thread.run" in f for f in frames):
            continue  # the database's and the bots' threads: figures of their own above
        n = int(count)
        total += n
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
    if not total:
        return
    print(f"\nthe event loop's samples ({total}), by own time:")
    for f, c in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {100 * c / total:5.1f}%  {f}")
    print("by inclusive time:")
    for f, c in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top * 3]:
        if c < 0.9 * total:  # leave out the entry frames every sample has
            print(f"  {100 * c / total:5.1f}%  {f}")


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    if args.cluster:
        report_cluster(results, args)
        return
    print()
    print(f"{'tables':>7} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'srv cores':>9} {'ms/action':>9} {'no bots':>8} {'pause ms':>8} "
          f"{'gc2 ms':>7} {'w/commit':>8} {'cli cores':>9} {'cli lag':>7} {'load':>5}")
    for r in results:
        print(f"{r['tables']:>7} {r['actions_per_s']:>7} {r['p50_ms']!s:>7} "
              f"{r['p99_ms']!s:>7} {r['max_ms']!s:>7} {r['server_cpu_cores']!s:>9} "
              f"{r['server_cpu_ms_per_action']!s:>9} "
              f"{r.get('server_cpu_ms_per_action_without_bots', '-')!s:>8} "
              f"{r.get('loop_pause_max_ms', '-')!s:>8} "
              f"{r.get('gc_max_ms', {}).get('2', '-')!s:>7} "
              f"{r.get('writes_per_commit', '-')!s:>8} {r['clients_cpu_cores']:>9} "
              f"{r['clients_lag_max_ms']:>7} {r['load_avg']:>5}")
    ok = [r["tables"] for r in results if r["p99_ms"] is not None
          and r["p99_ms"] <= TARGET_P99_MS and r.get("loop_pause_max_ms", 0) <= TARGET_PAUSE_MS]
    print(f"\nlargest N with p99 <= {TARGET_P99_MS:.0f} ms and no pause over "
          f"{TARGET_PAUSE_MS:.0f} ms: {max(ok, default=None)} (think {args.think} ± "
          f"{args.jitter} s, {args.people} people and {args.bots} bots per table, gc "
          f"{args.gc}, {os.cpu_count()} cores shared by the server and {args.workers} load "
          "generators)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--levels", default="250,500,1000,2000",
                   help="table counts to measure, ascending (default %(default)s)")
    p.add_argument("--seconds", type=float, default=60, help="measuring time per level")
    p.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    p.add_argument("--think", type=float, default=3.0, help="a person's mean think time")
    p.add_argument("--jitter", type=float, default=1.0, help="± this much, uniform")
    p.add_argument("--people", type=int, default=2, help="scripted people per table")
    p.add_argument("--bots", type=int, default=0, help="server bots per table")
    p.add_argument("--bot-delay", type=float, default=1.0, help="the tables' bot delay")
    p.add_argument("--bot", default="easy", help="the bots' difficulty (default easy)")
    p.add_argument("--preset", default="six-card")
    p.add_argument("--db", default=None, help="database URL (default SQLite in a temp dir)")
    p.add_argument("--gc", default="steady", choices=("python", "steady"),
                   help="the started server's collection policy")
    p.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                   help="one more option for each started `golf serve`, e.g. "
                   "--serve-arg=--commit-interval=5 (repeatable)")
    p.add_argument("--url", default=None, help="load a running server instead of starting one")
    p.add_argument("--cluster", type=int, default=0, metavar="N",
                   help="start N processes on PostgreSQL behind nginx (golf cluster; --db "
                   "names the database, else a throwaway PostgreSQL) and load them through "
                   "the proxy")
    p.add_argument("--pg-pid", type=int, default=None,
                   help="with --cluster --db: the postmaster's pid, for PostgreSQL's CPU")
    p.add_argument("--pid", type=int, default=None, help="its process id (CPU figures)")
    p.add_argument("--workers", type=int, default=1, help="load generator processes")
    p.add_argument("--limit", type=float, default=900, help="total seconds at most")
    p.add_argument("--profile", action="store_true",
                   help="run the started server under cProfile and print where its time went")
    p.add_argument("--spy", action="store_true",
                   help="record the server with py-spy while measuring (if installed) and "
                   "print where the event loop's time went")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        run_worker(args)
        return
    bench = Bench(args)
    results = bench.run()
    report(results, args)
    for n, path in bench.spies:
        if path.exists():
            print(f"\n--- py-spy at {n} tables ({path})")
            print_spy(path)
    prof = bench.tmp / "server.prof"
    if args.profile and prof.exists():
        import pstats

        print("\nwhere the server's time went (cProfile, by own time):")
        stats = pstats.Stats(str(prof))
        stats.sort_stats("tottime").print_stats(25)
        print("\nby inclusive time:")
        stats.sort_stats("cumulative").print_stats(60)


if __name__ == "__main__":
    main()
