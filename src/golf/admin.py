"""``golf admin``: what a site's operator does about players, on the server's database.

Each action is one call of :class:`golf.server.moderation.care.Care` (or of the ratings service),
run on the database ``golf serve`` uses (``--db URL``, else the SQLite file in
``--data-dir``). The database is first brought to the newest schema, as ``golf serve``
does at start. A running server sees every change at once: suspension and password
resets act on the stored sessions, which every request reads.

>>> from golf.admin import describe_report
>>> from golf.server.moderation.care import Report
>>> print(describe_report(Report(7, "r1", "p2", "Bo", "T1", "rude", [
...     {"seat": 1, "name": "Bo", "text": "you lose", "time": 0}], "open", 0.0,
...     None, "Ann", "ann_k")))
#7 open  1970-01-01 00:00 UTC  about Bo (guest p2) at table T1, by Ann (username ann_k, r1)
  reason: rude
  chat:   [seat 1] Bo: you lose
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .digits import whole
from .errors import GolfError

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from .server.moderation.care import Report

__all__ = ["ACTIONS", "describe_report", "run_action"]

T = TypeVar("T")


def describe_report(r: Report) -> str:
    """A report as lines of text for the terminal."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(r.created))
    where = f" at table {r.table}" if r.table else ""
    lines = [f"#{r.id} {r.status}  {when}  about "
             f"{_who(r.reported_name, r.reported_username, r.reported)}{where}, by "
             f"{_who(r.reporter_name, r.reporter_username, r.reporter)}",
             f"  reason: {r.reason}"]
    for i, line in enumerate(r.chat):
        head = "  chat:  " if i == 0 else "         "
        lines.append(f"{head} [seat {line.get('seat')}] {line.get('name')}: {line.get('text')}")
    return "\n".join(lines)


def _who(name: str | None, username: str | None, player_id: str) -> str:
    """A player in a report: the name players see, and the account's username (which
    ``suspend`` and ``reset-password`` take) or that it is a guest, and the player id.

    >>> _who(None, None, "p9")
    '(no name) (guest p9)'
    """
    account = f"username {username}, " if username else "guest "
    return f"{name or '(no name)'} ({account}{player_id})"


async def _reports(engine: AsyncEngine, show_all: bool, limit: int) -> str:
    from .server.moderation.care import Care

    found = await Care(engine).reports(None if show_all else "open", limit)
    if not found:
        return "no open reports" if not show_all else "no reports"
    return "\n\n".join(describe_report(r) for r in found)


async def _close(engine: AsyncEngine, report: int) -> str:
    from .server.moderation.care import Care

    await Care(engine).close_report(report)
    return f"report #{report} closed"


async def _status(engine: AsyncEngine, who: str, status: str) -> str:
    from .server.moderation.care import Care, find_player

    pid, username, _old = await find_player(engine, who)
    await Care(engine).set_status(pid, status)
    name = username or pid
    if status == "suspended":
        return (f"{name} is suspended: their sessions ended; they cannot sign in or play "
                "until restored")
    return f"{name} is restored: they can sign in and play again"


async def _reset(engine: AsyncEngine, who: str) -> str:
    from .server.moderation.care import Care, find_player

    pid, username, _status_now = await find_player(engine, who)
    code = await Care(engine).reset_password(pid)
    return (f"{username or pid}'s password no longer works and their sessions ended.\n"
            f"One-time code: {code}\n"
            "Give it to them privately: they sign in with their username and this code "
            "(\"Use a recovery code\") and then choose a new password. It works once.")


async def _rebuild(engine: AsyncEngine) -> str:
    from .server.ratings.rating_service import rebuild_ratings

    n = await rebuild_ratings(engine)
    return f"ratings rebuilt from {n} stored rated matches"


#: The actions: name -> (what it does, for --help).
ACTIONS = {
    "reports": "list reports, newest first (open ones; --all for closed too)",
    "close-report": "mark report ID as dealt with",
    "suspend": "suspend USER: their sessions end, they cannot sign in or play",
    "restore": "lift USER's suspension",
    "reset-password": "USER's password stops working; print a one-time sign-in code",
    "rebuild-ratings": "rate every stored rated match again, from scratch, in order",
}


def run_action(url: str, action: str, target: str | None, show_all: bool = False,
               limit: int = 50) -> str:
    """Run one action on the database at ``url``; returns what to print. GolfError for
    what the operator can fix (an unknown user, a missing argument)."""
    def needs(what: str) -> str:
        if not target:
            raise GolfError(f"'golf admin {action}' needs {what}")
        return target

    calls: dict[str, Callable[[AsyncEngine], Awaitable[str]]] = {
        "reports": lambda e: _reports(e, show_all, limit),
        "close-report": lambda e: _close(e, _number(needs("a report number"))),
        "suspend": lambda e: _status(e, needs("a username or player id"), "suspended"),
        "restore": lambda e: _status(e, needs("a username or player id"), "active"),
        "reset-password": lambda e: _reset(e, needs("a username or player id")),
        "rebuild-ratings": _rebuild,
    }
    call = calls[action]
    return asyncio.run(_on_database(url, call))


def _number(text: str) -> int:
    number = whole(text)
    if number is None:
        raise GolfError(f"a report number is a whole number such as 7, not {text!r}")
    return number


async def _on_database(url: str, call: Callable[[AsyncEngine], Awaitable[T]]) -> T:
    from sqlalchemy.exc import DBAPIError

    from .server.storage import db

    engine = db.make_engine(url)
    try:
        await db.migrate(engine)
        return await call(engine)
    except LookupError as e:
        raise GolfError(str(e.args[0]) if e.args else str(e)) from None
    except (OSError, DBAPIError) as e:
        raise GolfError(f"cannot use the database: {e}") from None
    finally:
        await engine.dispose()


def database_url(db_url: str | None, data_dir: str) -> str:
    """The database ``golf serve`` with these options uses."""
    from .server.storage import db

    if db_url:
        return db.async_url(db_url)
    path = Path(data_dir) / "golf.db"
    if not path.is_file():
        raise GolfError(f"no database at {path}: give --data-dir of the server, or --db URL")
    return db.default_url(Path(data_dir))
