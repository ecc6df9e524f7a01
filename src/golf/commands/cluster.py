"""``golf cluster``: PostgreSQL, N ``golf serve`` processes and nginx on this machine.

For trying several processes as one server (golf.cluster); ``golf cluster stop`` stops one
started by another command, ``golf cluster status`` shows what runs.
"""

from __future__ import annotations

import argparse
import signal
import threading
from types import FrameType
from typing import Any

from ..errors import GolfError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "cluster", help="run N server processes on PostgreSQL behind nginx, on this machine",
        description="Start PostgreSQL (a throwaway one, unless --db names yours), migrate its "
        "schema once, start N `golf serve --no-migrate` processes on loopback ports and nginx "
        "in front of them, routing every table to one process by its id. Ctrl-C (or `golf "
        "cluster stop`) stops everything, nginx and PostgreSQL included, however often it "
        "is pressed. PostgreSQL and nginx are Debian's packages, installed when missing (as "
        "root).",
        epilog="examples: golf cluster | golf cluster --processes 4 --port 8080 | "
        "golf cluster status | golf cluster stop (both read the state `golf cluster` keeps "
        "in --data-dir, so give the same one). status lists each process (pid, port, node "
        "name, whether it answers /api/health, the tables whose lease it holds, how long "
        "its lease row has left and how long it has renewed unbroken), nginx (pid, "
        "health, its files) and PostgreSQL (URL, reachable, its files if the cluster "
        "started it); it exits 0, or 2 with the reason if no cluster runs there. The design "
        "is in docs/server.md, 'Running a cluster'.",
    )
    p.add_argument("action", nargs="?", default="start", choices=("start", "stop", "status"),
                   help="start (default: runs until Ctrl-C), stop a running one, or show "
                   "the status of a running one")
    p.add_argument("--json", action="store_true",
                   help="status: print it as one JSON object (for scripts)")
    p.add_argument("--processes", "-n", type=int, default=3,
                   help="golf serve processes (default 3)")
    p.add_argument("--port", type=int, default=8080,
                   help="nginx's port (default 8080); process i listens on PORT+1+i")
    p.add_argument("--db", default=None, metavar="URL",
                   help="an existing PostgreSQL database (default: start a throwaway "
                   "PostgreSQL on PORT+N+1, removed at stop)")
    p.add_argument("--data-dir", default="golf-cluster", metavar="DIR",
                   help="logs, nginx's generated configuration and the state `golf cluster "
                   "stop` reads (default ./golf-cluster)")
    p.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                   help="pass ARG to every golf serve (repeatable), e.g. --serve-arg=--metrics")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..cluster import Cluster, shown_url, stop_recorded

    if args.action == "status":
        return show_status(args.data_dir, args.json)
    if args.action == "stop":
        if not stop_recorded(args.data_dir):
            raise GolfError(f"no running cluster is recorded in {args.data_dir}/")
        print("the cluster is stopped")
        return 0
    if args.db is not None and not args.db.startswith(("postgresql", "postgres:")):
        raise GolfError("a cluster's processes share one PostgreSQL database: --db must be "
                        f"a postgresql:// URL, not {args.db!r}")
    cluster = Cluster(processes=args.processes, base_port=args.port, pg_url=args.db,
                      data_dir=args.data_dir, serve_args=args.serve_arg)
    stopping = threading.Event()

    def on_signal(sig: int, frame: FrameType | None) -> None:
        stopping.set()

    # Started before the handlers exist, a Ctrl-C during start-up still stops what started
    # (Cluster.start cleans up on any exception).
    cluster.start()
    try:
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        print(f"Golf cluster on {cluster.url}/ ({args.processes} processes on ports "
              f"{cluster.port(0)}-{cluster.port(args.processes - 1)}, database "
              f"{shown_url(cluster.db_url)}); logs in {args.data_dir}/. Ctrl-C stops it.",
              flush=True)
        while not stopping.wait(1.0):
            for i in range(cluster.processes):
                # A Ctrl-C reaches the whole group: a process it ended is not started again.
                if cluster.pid(i) is None and not stopping.is_set():
                    # A process that died is started again, as a supervisor would.
                    print(f"process {i} exited; starting it again", flush=True)
                    cluster.restart(i)
    finally:
        print("stopping the cluster ...", flush=True)
        cluster.stop()
        # Everything is stopped: a Ctrl-C still arriving (a person pressing it again) must
        # not turn this clean exit into a KeyboardInterrupt on the way out.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return 0


def _secs(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f} s"


def show_status(data_dir: str, as_json: bool) -> int:
    import json

    from ..cluster import ClusterError, status

    try:
        st = status(data_dir)
    except ClusterError as e:
        raise GolfError(str(e)) from None
    if as_json:
        print(json.dumps(st, indent=2))
        return 0
    yes = {True: "yes", False: "NO"}
    owner = st["owner"]
    print(f"golf cluster in {data_dir}/, started by pid {owner} "
          f"({'running' if st['owner_running'] else 'no longer running'})")
    px = st["proxy"]
    print(f"proxy     {px['url']}  nginx pid {px['pid']} "
          f"({'running' if px['running'] else 'NOT running'}), answers /api/health: "
          f"{yes[px['healthy']]}; its files in {px['dir']} (error log "
          f"{px['error_log']})")
    d = st["database"]
    where = (f"throwaway PostgreSQL on port {d['port']}, pid {d['pid']}, its files in "
             f"{d['dir']}" if d["own"] else "given with --db (not started by the cluster)")
    print(f"database  {d['url']}  reachable: {yes[d['reachable']]}"
          + (f" ({d['error']})" if d["error"] else "") + f"; {where}")
    print(f"{'process':<8} {'pid':>8} {'port':>6}  {'node':<28} {'health':<7} {'tables':>6} "
          f"{'row left':>9} {'renewing':>10} {'oldest lease':>13} {'newest lease':>13}")
    for p in st["processes"]:
        pid = f"{p['pid']}" if p["running"] else f"{p['pid'] or '-'}!"
        print(f"{p['index']:<8} {pid:>8} {p['port']:>6}  {p['node']:<28} "
              f"{'ok' if p['healthy'] else 'NO':<7} {p.get('tables', '-'):>6} "
              f"{_secs(p.get('row_left_s')):>9} {_secs(p.get('renewing_s')):>10} "
              f"{_secs(p.get('oldest_lease_s')):>13} {_secs(p.get('newest_lease_s')):>13}")
    for node, n in st["other_nodes"].items():
        print(f"{'other':<8} {'':>8} {'':>6}  {node:<28} {'':<7} {n['tables']:>6} "
              f"{_secs(n['row_left_s']):>9} {_secs(n['renewing_s']):>10} "
              f"{_secs(n['oldest_lease_s']):>13} {_secs(n['newest_lease_s']):>13}")
    if any(not p["running"] for p in st["processes"]):
        print("(a pid marked ! has exited; `golf cluster` starts it again within a second)")
    return 0
