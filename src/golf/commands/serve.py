"""``golf serve``: run the Golf server (tables over the network, the browser client)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import GolfError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="run the Golf server: play with friends in the browser or over the "
        "protocol",
        description="Run the Golf server: many tables, people and bots, any preset and house "
        "rules. Tables, seats and every move are stored in a database (SQLite in the data "
        "directory by default), so a restart continues every table where it was.",
        epilog="examples: golf serve | golf serve --host 0.0.0.0 --port 8080 | "
        "golf serve --db postgresql://golf@localhost/golf. The protocol is in "
        "docs/protocol.md, running it for friends in docs/server.md.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; "
                   "0.0.0.0 for the whole network)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL, e.g. postgresql://user:pass@host/db "
                   "(default: SQLite file golf.db in the data directory)")
    p.add_argument("--data-dir", default="golf-data", metavar="DIR",
                   help="directory for the SQLite database (default ./golf-data)")
    p.add_argument("--keep-finished", type=float, default=600.0, metavar="SECONDS",
                   help="how long a finished table nobody looks at stays in memory "
                   "(default 600; it stays in the database and loads again when asked for)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   dest="allow_origin",
                   help="also accept writes and WebSockets from pages of this origin, e.g. "
                   "https://golf.example.org (repeatable; the server's own pages are always "
                   "accepted, other sites' pages never)")
    p.add_argument("--gc", default="steady", choices=("python", "steady"),
                   help="garbage collection policy: steady (default) freezes what start-up "
                   "made, collects the young objects once a second and freezes them, and runs "
                   "a full collection only when memory grows more than the tables explain, "
                   "so the event loop never stops for long; python keeps Python's defaults")
    p.add_argument("--bot-wait", type=float, default=None, metavar="SECONDS",
                   help="quick play: seconds a player waits for people before they may "
                   "fill their table with bots (default 20)")
    p.add_argument("--hole-break", type=float, default=None, metavar="SECONDS",
                   help="the longest break between two holes: the next hole starts when "
                   "every person has closed the hole-end dialog, or after this many seconds "
                   "(default 15; a testing and operator knob)")
    p.add_argument("--commit-interval", type=float, default=None, metavar="MS",
                   help="group commit: while several tables write, a transaction begins at "
                   "most this often, carrying every write queued meanwhile (default 8 ms; 0: "
                   "as soon as the previous commit is done); under load fewer, larger commits "
                   "cost less CPU; a write after a quiet spell, or of a table writing alone, "
                   "never waits")
    p.add_argument("--metrics", action="store_true",
                   help="serve /api/debug/metrics: event-loop lag, collection pauses and CPU "
                   "per thread kind (for benchmarks; off by default)")
    p.add_argument("--node", default=None, metavar="NAME",
                   help="this process's name among several on one PostgreSQL database "
                   "(default HOST:PORT of this machine; unique per process; a process "
                   "restarted under the same name takes its tables back at once)")
    p.add_argument("--lease-ttl", type=float, default=3.0, metavar="SECONDS",
                   help="several processes: how long a table's lease lasts unrenewed, i.e. "
                   "how soon another process takes over the tables of one that died "
                   "(default 3)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                   dest="trusted_proxy",
                   help="a reverse proxy (IP address or CIDR network, e.g. 127.0.0.1 or "
                   "10.0.0.0/8; repeatable) whose X-Forwarded-For and X-Forwarded-Proto "
                   "headers are believed: the client address for sign-in limits, logs and "
                   "sessions, and whether it came over TLS. Every other peer's headers are "
                   "ignored (default: no proxy is trusted)")
    p.add_argument("--no-migrate", action="store_false", dest="migrate",
                   help="never upgrade the database: refuse to start unless its schema is "
                   "exactly this release's (every process of a cluster; `golf migrate` "
                   "upgrades it once)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise GolfError(f"--port must be from 1 to 65535, got {args.port}")
    try:
        from ..server.app import Config
        from ..server.serve import run as serve
    except ImportError as e:
        raise GolfError(f"the server needs the 'web' extra ({e.name} is missing): "
                        "pip install 'golf-cards[web]'") from None
    from ..server.http.guard import check_allowed_origin
    from ..server.http.proxies import parse_trusted

    parse_trusted(args.trusted_proxy)  # a clear error for a bad one, before start-up

    if not args.keep_finished > 0:
        raise GolfError(f"--keep-finished must be more than 0 seconds, got {args.keep_finished}")
    try:
        origins = tuple(check_allowed_origin(o) for o in args.allow_origin)
    except ValueError as e:
        raise GolfError(str(e)) from None
    extra = {} if args.bot_wait is None else {"bot_wait": args.bot_wait}
    if args.bot_wait is not None and not 0 <= args.bot_wait <= 3600:
        raise GolfError(f"--bot-wait must be from 0 to 3600 seconds, got {args.bot_wait}")
    if args.hole_break is not None:
        if not 0 <= args.hole_break <= 3600:
            raise GolfError(f"--hole-break must be from 0 to 3600 seconds, got {args.hole_break:g}")
        extra["hole_break"] = args.hole_break
    if not 0.5 <= args.lease_ttl <= 600:
        raise GolfError(f"--lease-ttl must be from 0.5 to 600 seconds, got {args.lease_ttl}")
    if args.commit_interval is not None:
        if not 0 <= args.commit_interval <= 1000:
            raise GolfError("--commit-interval must be from 0 to 1000 ms, got "
                            f"{args.commit_interval:g}")
        extra["commit_interval"] = args.commit_interval / 1000
    check_schema(Config(db=args.db, data_dir=args.data_dir), args.migrate)
    print(f"Golf server on http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    serve(Config(host=args.host, port=args.port, db=args.db, data_dir=args.data_dir,
                 keep_finished=args.keep_finished, allow_origins=origins,
                 metrics=args.metrics, gc=args.gc, migrate=args.migrate, node=args.node,
                 lease_ttl=args.lease_ttl, trusted_proxies=tuple(args.trusted_proxy),
                 **extra))
    return 0


def check_schema(config: Any, migrate: bool) -> None:
    """Refuse, before the server starts, a database of another release (golf.server.storage.schema):
    a clear one-line error instead of a failed start-up."""
    import asyncio

    from ..server.storage import schema

    schema.ensure_sqlite_dir(config.data_dir, config.db)
    asyncio.run(schema.check_url(config.database_url(), migrate))
