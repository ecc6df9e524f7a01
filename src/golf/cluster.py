"""Several ``golf serve`` processes on one PostgreSQL behind nginx, on this machine.

For trying a cluster out (``golf cluster``, ``make cluster``), for the cluster tests and for
``bench/server.py --cluster``. It runs from an installed package as from a source checkout:
PostgreSQL and nginx come from the package's ``golf/deploy/postgres.sh`` and
``golf/deploy/nginx.sh`` (Debian's packages, installed when missing, started on loopback
without systemd) and the proxy's routing from the shipped ``golf/deploy/golf.conf`` (in a
checkout ``scripts/ci/*.sh`` and ``deploy/nginx/golf.conf`` are links to them).

A second Ctrl-C (or SIGTERM) while the cluster stops does not cut the stopping short:
:meth:`Cluster.stop` holds those signals off until nginx and PostgreSQL are stopped, and
the helper scripts run in sessions of their own, so a Ctrl-C at the terminal never kills
one half-way.

    with Cluster(processes=3, base_port=18100) as c:   # nginx on 18100, processes 18101..
        httpx.get(c.url + "/api/health")
        c.kill(1)                                      # SIGKILL process 1
        c.restart(1)

The database is migrated once (``golf migrate``) before the processes start; each process
runs with ``--no-migrate``, so one of another release refuses the database (see
golf.server.storage.schema).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from .errors import GolfError

#: The helpers shipped in the package (package data, see pyproject.toml).
DEPLOY = Path(__file__).resolve().parent / "deploy"
POSTGRES_SH = DEPLOY / "postgres.sh"
NGINX_SH = DEPLOY / "nginx.sh"
NGINX_CONF = DEPLOY / "golf.conf"
#: What ``golf cluster stop`` reads to find a cluster started by another command.
STATE_FILE = "cluster.json"


class ClusterError(GolfError):
    """A part of the cluster could not be started (its log's tail is in the message)."""


def healthy(url: str, timeout: float = 2.0) -> bool:
    """Whether ``url``/api/health answers 200 (not draining)."""
    try:
        with urllib.request.urlopen(url + "/api/health", timeout=timeout) as r:
            return bool(r.status == 200)
    except (OSError, urllib.error.URLError, http.client.HTTPException):
        # Refused, reset, or cut off mid-answer (a process starting or stopping).
        return False


def tail(path: Path, chars: int = 3000) -> str:
    with contextlib.suppress(OSError):
        return path.read_text(errors="replace")[-chars:]
    return ""


def free_port_block(n: int, tries: int = 50) -> int:
    """A base port such that base..base+n-1 are all free now (a cluster's ports are
    consecutive)."""
    for _ in range(tries):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = int(s.getsockname()[1])
        if base + n >= 65536:
            continue
        socks: list[socket.socket] = []
        try:
            for p in range(base, base + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise ClusterError(f"found no {n} consecutive free loopback ports")


def need_checkout() -> None:
    """The helpers are shipped; a clear error if an incomplete install lost one."""
    missing = [p for p in (POSTGRES_SH, NGINX_SH, NGINX_CONF) if not p.is_file()]
    if missing:
        raise ClusterError(f"golf cluster needs {missing[0]}, which this install of golf "
                           "lacks: reinstall golf-cards")


@contextlib.contextmanager
def held_off() -> Iterator[None]:
    """SIGINT and SIGTERM wait while the block runs (a second Ctrl-C during the stop only
    says so), then the old handlers are back. Only the main thread can set handlers;
    elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    said: list[bool] = []

    def patience(sig: int, frame: FrameType | None) -> None:
        if not said:
            said.append(True)
            print("still stopping the cluster (nginx, PostgreSQL): a moment ...",
                  file=sys.stderr, flush=True)

    old = {s: signal.signal(s, patience) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def run_script(script: Path, action: str, env: dict[str, str], timeout: float) -> str:
    """Run one of the scripts/ci helpers; its stdout, or ClusterError with its stderr."""
    try:
        # A session of its own: a Ctrl-C at the terminal (sent to the whole foreground
        # group) must not kill a stop half-way; this process decides when to stop.
        run = subprocess.run(["bash", str(script), action], env={**os.environ, **env},
                             capture_output=True, text=True, timeout=timeout,
                             start_new_session=True)
    except subprocess.TimeoutExpired:
        raise ClusterError(f"{script.name} {action} took more than {timeout:.0f} s") from None
    if run.returncode != 0:
        raise ClusterError(f"{script.name} {action} failed:\n{run.stderr[-3000:]}")
    return run.stdout


class Cluster:
    """nginx on ``base_port``, process i on ``base_port + 1 + i``, PostgreSQL at ``pg_url``
    (or a throwaway one on ``pg_port`` started and removed with the cluster)."""

    def __init__(self, processes: int = 3, base_port: int = 8080, pg_url: str | None = None,
                 data_dir: str | Path | None = None, pg_port: int | None = None,
                 serve_args: Sequence[str] = (), python: str = sys.executable,
                 access_log: bool = False) -> None:
        if processes < 1:
            raise ClusterError(f"a cluster has at least 1 process, not {processes}")
        if not (base_port > 0 and base_port + processes < 65536):
            raise ClusterError(f"ports {base_port}..{base_port + processes} are not valid")
        self.processes = processes
        self.base_port = base_port
        self.pg_url = pg_url
        self.pg_port = pg_port if pg_port is not None else base_port + processes + 1
        self.own_postgres = pg_url is None
        self.data_dir = Path(data_dir) if data_dir else Path(
            tempfile.mkdtemp(prefix="golf-cluster-"))
        self.serve_args = list(serve_args)
        self.python = python
        #: nginx logs each request's table and process in nginx/logs/access.log.
        self.access_log = access_log
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * processes
        self.nginx_dir = self.data_dir / "nginx"
        self.pg_dir = Path(tempfile.gettempdir()) / f"golf-cluster-pg-{self.pg_port}"
        self.started = False

    # --- where things are ------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The proxy: what clients use."""
        return f"http://127.0.0.1:{self.base_port}"

    def port(self, i: int) -> int:
        return self.base_port + 1 + i

    @property
    def process_urls(self) -> list[str]:
        """Each process directly (for tests and the benchmark's per-process figures)."""
        return [f"http://127.0.0.1:{self.port(i)}" for i in range(self.processes)]

    def pid(self, i: int) -> int | None:
        proc = self.procs[i]
        return proc.pid if proc is not None and proc.poll() is None else None

    def log(self, i: int) -> Path:
        return self.data_dir / f"serve-{i}.log"

    @property
    def db_url(self) -> str:
        if self.pg_url is None:
            raise ClusterError("the cluster's PostgreSQL is not started")
        return self.pg_url

    # --- start and stop --------------------------------------------------------------------
    def start(self, timeout: float = 120) -> None:
        """PostgreSQL (unless given), the migrations once, every process, then nginx; returns
        when the proxy answers /api/health."""
        need_checkout()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.started = True
        try:
            if self.own_postgres:
                self.start_postgres()
            self.migrate()
            for i in range(self.processes):
                self.spawn(i)
            for i in range(self.processes):
                self.wait_ready(i, timeout)
            self.start_nginx()
            self.wait_proxy(timeout)
            self.write_state()
        except BaseException:
            self.stop()
            raise

    def start_postgres(self) -> None:
        self.pg_dir.mkdir(parents=True, exist_ok=True)
        # The postgres user must reach its data dir (as root, initdb runs as postgres).
        os.chmod(self.pg_dir, 0o755)
        out = run_script(POSTGRES_SH, "start", self.pg_env(), timeout=900)
        line = [x for x in out.splitlines() if x.startswith("GOLF_TEST_POSTGRES=")][-1]
        self.pg_url = line.split("=", 1)[1]

    def pg_env(self) -> dict[str, str]:
        return {"GOLF_PG_PORT": str(self.pg_port), "GOLF_PG_DIR": str(self.pg_dir)}

    def migrate(self) -> None:
        try:
            run = subprocess.run([self.python, "-m", "golf", "migrate", "--db", self.db_url],
                                 capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            raise ClusterError("golf migrate took more than 300 s") from None
        if run.returncode != 0:
            raise ClusterError(f"golf migrate failed: {run.stderr.strip()}")

    def command(self, i: int) -> list[str]:
        return [self.python, "-m", "golf", "serve", "--port", str(self.port(i)),
                "--db", self.db_url, "--data-dir", str(self.data_dir / f"serve-{i}"),
                # nginx on this machine forwards every client: believe its headers only.
                "--no-migrate", "--trusted-proxy", "127.0.0.1", *self.serve_args]

    def spawn(self, i: int) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log(i).open("ab") as out:
            self.procs[i] = subprocess.Popen(self.command(i), stdout=out,
                                             stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, i: int, timeout: float = 120) -> None:
        proc = self.procs[i]
        assert proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ClusterError(f"process {i} (golf serve on port {self.port(i)}) exited "
                                   f"with status {proc.returncode}:\n{tail(self.log(i))}")
            if healthy(self.process_urls[i]):
                return
            time.sleep(0.1)
        raise ClusterError(f"process {i} did not answer within {timeout:.0f} s:\n"
                           f"{tail(self.log(i))}")

    def nginx_env(self) -> dict[str, str]:
        servers = " ".join(f"127.0.0.1:{self.port(i)}" for i in range(self.processes))
        return {"GOLF_NGINX_PORT": str(self.base_port), "GOLF_NGINX_DIR": str(self.nginx_dir),
                "GOLF_NGINX_SERVERS": servers, "GOLF_NGINX_TEMPLATE": str(NGINX_CONF),
                "GOLF_NGINX_LOG": "1" if self.access_log else ""}

    def start_nginx(self) -> None:
        run_script(NGINX_SH, "start", self.nginx_env(), timeout=600)

    def wait_proxy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if healthy(self.url):
                return
            time.sleep(0.1)
        raise ClusterError(f"nginx on {self.url} did not answer:\n"
                           f"{tail(self.nginx_dir / 'logs' / 'error.log')}")

    def routed(self) -> list[tuple[str, str, str, str, int]]:
        """With ``access_log``: every request nginx passed on so far, as (method, path,
        table or '', the process address(es) tried, status)."""
        out = []
        with contextlib.suppress(OSError):
            for line in (self.nginx_dir / "logs" / "access.log").read_text().splitlines():
                method, path, rest = line.split(" ", 2)
                table, _, rest = rest.removeprefix("table=").partition(" upstream=")
                upstream, _, status = rest.rpartition(" status=")
                out.append((method, path, table, upstream, int(status)))
        return out

    def stop(self) -> None:
        """Every process (SIGTERM: they drain), nginx, and PostgreSQL if the cluster started
        it. Safe to call twice; a Ctrl-C meanwhile does not cut it short (:func:`held_off`)."""
        with held_off():
            self._stop()

    def _stop(self) -> None:
        for i in range(self.processes):
            self.terminate(i)
        try:
            run_script(NGINX_SH, "stop", self.nginx_env(), timeout=60)
        except (ClusterError, subprocess.TimeoutExpired) as e:
            # The stop goes on (PostgreSQL next), and says what may still run.
            print(f"golf cluster: nginx may still run: {e}", file=sys.stderr, flush=True)
        if self.own_postgres and self.pg_url is not None:
            try:
                run_script(POSTGRES_SH, "stop", self.pg_env(), timeout=120)
            except (ClusterError, subprocess.TimeoutExpired) as e:
                print(f"golf cluster: PostgreSQL on port {self.pg_port} may still run: {e}",
                      file=sys.stderr, flush=True)
            self.pg_url = None
        with contextlib.suppress(OSError):
            (self.data_dir / STATE_FILE).unlink()
        self.started = False

    # --- faults ------------------------------------------------------------------------------
    def kill(self, i: int) -> None:
        """kill -9 process i: no drain, no goodbye."""
        proc = self.procs[i]
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)

    def terminate(self, i: int, timeout: float = 30) -> int | None:
        """SIGTERM process i (it drains and closes its sockets with 'reconnect'); its exit
        status, or None if it was not running."""
        proc = self.procs[i]
        if proc is None or proc.poll() is not None:
            return None if proc is None else proc.returncode
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            return proc.returncode

    def restart(self, i: int, timeout: float = 120) -> None:
        """Start process i again (stopping it first if it runs) and wait until it answers."""
        self.terminate(i)
        self.spawn(i)
        self.wait_ready(i, timeout)
        self.write_state()

    # --- golf cluster stop -----------------------------------------------------------------
    def write_state(self) -> None:
        # ``ports``, ``db`` and ``host`` are for ``golf cluster status``.
        state = {"owner": os.getpid(), "pids": [self.pid(i) for i in range(self.processes)],
                 "ports": [self.port(i) for i in range(self.processes)],
                 "nginx": self.nginx_env(), "url": self.url, "db": self.pg_url,
                 "host": socket.gethostname(),
                 "postgres": self.pg_env() if self.own_postgres else None}
        (self.data_dir / STATE_FILE).write_text(json.dumps(state))

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def stop_recorded(data_dir: str | Path, timeout: float = 30) -> bool:
    """Stop the cluster whose state ``golf cluster`` wrote in ``data_dir`` (its processes,
    nginx, its own PostgreSQL); False if there is none."""
    path = Path(data_dir) / STATE_FILE
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    owner = state.get("owner")
    if owner and owner != os.getpid() and alive(owner):
        # The `golf cluster` that started it is still running: it stops its own parts.
        os.kill(owner, signal.SIGTERM)
        deadline = time.monotonic() + timeout + 30
        while path.exists() and alive(owner) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not path.exists():
            return True
    for pid in state["pids"]:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for pid in state["pids"]:
        while pid and alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if pid and alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    run_script(NGINX_SH, "stop", state["nginx"], timeout=60)
    if state["postgres"]:
        run_script(POSTGRES_SH, "stop", state["postgres"], timeout=120)
    with contextlib.suppress(OSError):
        path.unlink()
    return True


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A child of ours that exited but was not reaped counts as gone.
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return False
    return True


def shown_url(url: str | None) -> str | None:
    """A database URL as printed (the start banner, ``golf cluster status`` and its JSON):
    its password hidden (``***``), since these land in terminals, logs and bug reports."""
    if not url:
        return url
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:  # not one SQLAlchemy reads: its user's password cut by hand
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def recorded(data_dir: str | Path) -> dict[str, Any] | None:
    """The state ``golf cluster`` wrote in ``data_dir``, or None if there is none (never
    started there, or stopped: the stop removes it)."""
    try:
        state = json.loads((Path(data_dir) / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


#: What ``golf cluster status`` asks the database (its clock: lease times are on it).
_NODES = """
SELECT n.node, n.expires - extract(epoch from clock_timestamp()) AS left_s,
       extract(epoch from clock_timestamp()) - n.since AS unbroken_s,
       count(l.table_id) AS tables,
       extract(epoch from clock_timestamp()) - min(l.changed) AS oldest_s,
       extract(epoch from clock_timestamp()) - max(l.changed) AS newest_s
FROM golf_nodes n LEFT JOIN golf_leases l ON l.owner = n.node
GROUP BY n.node, n.expires, n.since ORDER BY n.node
"""


def _pid_file(path: Path) -> int | None:
    """The pid in a pid file (nginx's, or PostgreSQL's postmaster.pid: its first line)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(path.read_text().split()[0])
    return None


def status(data_dir: str | Path, timeout: float = 5.0) -> dict[str, Any]:
    """What runs of the cluster recorded in ``data_dir``: each process (pid, port, node
    name, health, and from the database the tables it holds and its lease's age), the
    proxy and the database. ClusterError if no cluster is recorded there or none of it
    runs."""
    state = recorded(data_dir)
    if state is None:
        raise ClusterError(f"no running cluster is recorded in {data_dir}/ (start one with "
                           "`golf cluster`, or name its --data-dir)")
    pids: list[int | None] = state.get("pids") or []
    # Before ports were recorded: process i listens on the proxy's port + 1 + i.
    base = int(state["nginx"]["GOLF_NGINX_PORT"])
    ports: list[int] = state.get("ports") or [base + 1 + i for i in range(len(pids))]
    host = state.get("host") or socket.gethostname()
    nginx_dir = Path(state["nginx"]["GOLF_NGINX_DIR"])
    nginx_pid = _pid_file(nginx_dir / "nginx.pid")
    pg = state.get("postgres")
    pg_dir = Path(pg["GOLF_PG_DIR"]) if pg else None
    pg_pid = _pid_file(pg_dir / "data" / "postmaster.pid") if pg_dir else None
    out: dict[str, Any] = {
        "data_dir": str(data_dir), "owner": state.get("owner"),
        "owner_running": bool(state.get("owner")) and alive(int(state["owner"])),
        "proxy": {"url": state["url"], "pid": nginx_pid,
                  "running": nginx_pid is not None and alive(nginx_pid),
                  "healthy": healthy(state["url"], timeout), "dir": str(nginx_dir),
                  "config": str(nginx_dir / "nginx.conf"),
                  "error_log": str(nginx_dir / "logs" / "error.log")},
        "database": {"url": shown_url(state.get("db")), "own": pg is not None,
                     "dir": str(pg_dir) if pg_dir else None,
                     "port": int(pg["GOLF_PG_PORT"]) if pg else None, "pid": pg_pid,
                     "reachable": False, "error": None},
        "processes": [],
    }
    nodes: dict[str, dict[str, Any]] = {}
    if state.get("db"):
        try:
            nodes = _read_nodes(str(state["db"]), timeout)
            out["database"]["reachable"] = True
        except Exception as e:  # reported, not raised: the rest of the status stands
            out["database"]["error"] = f"{type(e).__name__}: {e}"
    for i, (pid, port) in enumerate(zip(pids, ports, strict=False)):
        node = f"{host}:{port}"
        url = f"http://127.0.0.1:{port}"
        out["processes"].append({
            "index": i, "pid": pid, "running": bool(pid) and alive(int(pid or 0)),
            "port": port, "url": url, "node": node, "healthy": healthy(url, timeout),
            "log": str(Path(data_dir) / f"serve-{i}.log"), **nodes.pop(node, {})})
    # Rows of other names: another cluster's processes on the same database, or a
    # process started with its own --node.
    out["other_nodes"] = nodes
    if not (out["owner_running"] or out["proxy"]["running"]
            or any(p["running"] for p in out["processes"])):
        raise ClusterError(f"the cluster recorded in {data_dir}/ is not running (none of "
                           f"its processes, nor nginx, nor the `golf cluster` that started "
                           f"it); `golf cluster stop --data-dir {data_dir}` clears what is "
                           "left")
    return out


def _read_nodes(db_url: str, timeout: float) -> dict[str, dict[str, Any]]:
    """Each node row of the database: seconds its row has left, how long it has renewed
    unbroken, the tables whose lease it holds and the age of its oldest and newest."""
    import asyncio

    import asyncpg  # type: ignore[import-untyped]

    async def read() -> dict[str, dict[str, Any]]:
        conn = await asyncpg.connect(db_url.replace("+asyncpg", "", 1), timeout=timeout)
        try:
            rows = await conn.fetch(_NODES, timeout=timeout)
        finally:
            await conn.close()
        return {str(r["node"]): {
            "row_left_s": float(r["left_s"]),
            "renewing_s": None if r["unbroken_s"] is None else float(r["unbroken_s"]),
            "tables": int(r["tables"]),
            "oldest_lease_s": None if r["oldest_s"] is None else float(r["oldest_s"]),
            "newest_lease_s": None if r["newest_s"] is None else float(r["newest_s"])}
            for r in rows}

    return asyncio.run(read())
