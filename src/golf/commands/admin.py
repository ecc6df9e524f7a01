"""``golf admin``: the operator's tools (reports, suspension, password resets, ratings);
the work is done in :mod:`golf.admin`."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import GolfError


def register(sub: Any) -> None:
    from ..admin import ACTIONS

    p = sub.add_parser(
        "admin", help="operate a Golf server's players: reports, suspensions, password "
        "resets, ratings",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Operate on the database of a Golf server (the one 'golf serve' uses: "
        "--db URL, else golf.db in --data-dir). Changes act at once, also on a running "
        "server.\n\nactions:\n" + "\n".join(f"  {name:<16} {what}"
                                            for name, what in ACTIONS.items()),
        epilog="examples:\n"
        "  golf admin reports                     open reports, newest first\n"
        "  golf admin reports --all --limit 200   every report\n"
        "  golf admin close-report 7              report #7 is dealt with\n"
        "  golf admin suspend ann                 by username (any case) or player id\n"
        "  golf admin restore ann\n"
        "  golf admin reset-password ann          prints a one-time code for ann\n"
        "  golf admin rebuild-ratings --db postgresql://golf@localhost/golf\n\n"
        "A user signs in with a reset code through 'Use a recovery code' and must then "
        "choose a new password; docs/admin.md explains each action.",
    )
    p.add_argument("action", choices=list(ACTIONS), metavar="ACTION",
                   help="one of: " + ", ".join(ACTIONS))
    p.add_argument("target", nargs="?", metavar="USER|ID",
                   help="a username or player id (suspend, restore, reset-password), or a "
                   "report number (close-report)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL, e.g. postgresql://user:pass@host/db (default: the "
                   "SQLite file golf.db in the data directory)")
    p.add_argument("--data-dir", default="golf-data", metavar="DIR",
                   help="the server's data directory (default ./golf-data)")
    p.add_argument("--all", action="store_true", dest="show_all",
                   help="reports: closed ones too")
    p.add_argument("--limit", type=int, default=50, metavar="N",
                   help="reports: at most N (default 50)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..admin import database_url, run_action
    except ImportError as e:  # pragma: no cover - the server extras missing
        raise GolfError(f"golf admin needs the 'web' extra ({e.name} is missing): "
                        "pip install 'golf-cards[web]'") from None
    if not 1 <= args.limit <= 10_000:
        raise GolfError(f"--limit must be from 1 to 10000, got {args.limit}")
    url = database_url(args.db, args.data_dir)
    print(run_action(url, args.action, args.target, args.show_all, args.limit))
    return 0
