"""``golf migrate``: bring a server database to this release's schema, once.

``golf serve`` migrates at start by itself; a cluster's processes (``--no-migrate``) never
do, so an upgrade of a cluster stops its processes, runs this once and starts the new
release's processes (docs/server.md, "Running a cluster").
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from ..errors import GolfError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "migrate", help="upgrade a server database to this release's schema",
        description="Upgrade the Golf server's database to this release's newest schema "
        "revision (keeping every table and replay), then exit. A database written by a "
        "newer release is refused and left as it is.",
        epilog="examples: golf migrate --db postgresql://golf@localhost/golf | "
        "golf migrate --data-dir golf-data",
    )
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (default: SQLite file golf.db in the data directory)")
    p.add_argument("--data-dir", default="golf-data", metavar="DIR",
                   help="directory of the SQLite database (default ./golf-data)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..server.app import Config
        from ..server.storage import schema
    except ImportError as e:
        raise GolfError(f"migrating needs the 'web' extra ({e.name} is missing): "
                        "pip install 'golf-cards[web]'") from None
    schema.ensure_sqlite_dir(args.data_dir, args.db)
    url = Config(db=args.db, data_dir=args.data_dir).database_url()
    before, after = asyncio.run(schema.migrate_url(url))
    if before == after:
        print(f"the database is at revision {after}, this release's newest: nothing to do")
    else:
        print(f"the database is upgraded from revision {before or '(empty)'} to {after}")
    return 0
