"""Care: players blocking and reporting each other, and what an operator does about it
(``golf admin``, :mod:`golf.admin`).

* **Block.** A block is one player's choice about another (``golf_blocks``): quick play
  never seats the two together (:mod:`golf.server.matchmaking.quickplay`), whichever of them
  blocked. A block is private: the blocked player is never told.
* **Report.** A report names a player, a reason, and optionally the table and the chat
  lines it is about; the lines are *copied* from the table's stored chat into the report
  (``golf_reports.chat``), so the report outlives the chat. Only lines the reported
  player wrote at that table can be attached: a report cannot put words in their mouth.
* A host's mute (a seat's own chat filter, :meth:`Seating.mute`) is unchanged by both.
* **Operators** list reports, close them, suspend or restore an account (a suspended
  player's sessions end, their queue tickets are dropped; sign-in and play refuse them,
  see :mod:`golf.server.players.accounts`), and reset a password: the old one stops working and a
  one-time code is printed, with which the user signs in through the recovery path and
  sets a new password.

Players at a table are named by seat (the browser knows seats, not profile ids); the
seat's ``player_id`` says who sat there.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ...identity import issue_recovery_codes, lookup_key
from ..core.protocol import ProtocolError, clean_text
from ..players.sessions import NO_PASSWORD
from ..ratings.names import shown_names
from ..storage import db

__all__ = ["MAX_REASON", "Care", "Report", "find_player"]

#: The longest reason a report keeps (the column's size).
MAX_REASON = 500
#: At most this many chat lines are copied into one report.
MAX_LINES = 10


@dataclass(frozen=True)
class Report:
    """A stored report as an operator sees it."""

    id: int
    reporter: str
    reported: str
    reported_name: str | None
    table: str | None
    reason: str
    chat: list[dict[str, Any]]
    status: str
    created: float
    #: The reported player's account username (None: a guest), for the operator only.
    reported_username: str | None = None
    #: The reporter as others see them (profile name, else the name they played under).
    reporter_name: str | None = None
    #: The reporter's account username (None: a guest).
    reporter_username: str | None = None


class Care:
    """Blocks and reports of the players asking, and the operator's calls."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # --- players --------------------------------------------------------------------
    async def player_at(self, table_id: str, position: int) -> str:
        """The profile that sits in seat ``position`` of a table (no_player when the
        seat holds a bot, nobody or a seat from before profiles)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.seats.c.player_id).where(
                db.seats.c.table_id == table_id, db.seats.c.position == position))).first()
        if row is None:
            raise ProtocolError("no_player", f"table {table_id[:40]!r} has no seat {position}")
        if row[0] is None:
            raise ProtocolError("no_player", f"seat {position} holds no player profile "
                                "(a bot, or nobody)")
        return str(row[0])

    async def block(self, who: str, whom: str) -> None:
        """``who`` blocks ``whom`` (again is fine)."""
        await self._check_other(who, whom)
        async with self.engine.begin() as conn:
            exists = (await conn.execute(sa.select(db.blocks.c.player_id).where(
                db.blocks.c.player_id == who, db.blocks.c.blocked_id == whom))).first()
            if exists is None:
                await conn.execute(db.blocks.insert().values(
                    player_id=who, blocked_id=whom, created=time.time()))

    async def unblock(self, who: str, whom: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(db.blocks.delete().where(
                db.blocks.c.player_id == who, db.blocks.c.blocked_id == whom))

    async def blocked_by(self, who: str) -> list[dict[str, Any]]:
        """Whom ``who`` has blocked: id and current display name (a guest's: the name
        they played under), newest first."""
        b, p = db.blocks, db.players
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(b.c.blocked_id, p.c.name, b.c.created)
                .join(p, p.c.id == b.c.blocked_id)
                .where(b.c.player_id == who).order_by(b.c.created.desc()))).all()
            names = await shown_names(conn, [r[0] for r in rows])
        return [{"id": r[0], "name": names.get(r[0], r[1]), "since": r[2]} for r in rows]

    async def report(self, who: str, whom: str, reason: str, table_id: str | None = None,
                     chat_times: Sequence[int] = ()) -> int:
        """Store a report by ``who`` about ``whom``; the chat lines ``whom`` wrote at
        ``table_id`` at ``chat_times`` (the lines' ``time``) are copied into it.
        Returns the report's id."""
        await self._check_other(who, whom)
        text = clean_text(reason)  # no controls: a moderator reads it in a terminal
        if not 1 <= len(text) <= MAX_REASON:
            raise ProtocolError("bad_message", f"reason is text of 1 to {MAX_REASON} "
                                "characters", field="reason")
        if chat_times and table_id is None:
            raise ProtocolError("bad_message", "chat lines belong to a table: name it",
                                field="chat")
        if len(chat_times) > MAX_LINES:
            raise ProtocolError("bad_message", f"at most {MAX_LINES} chat lines per report",
                                field="chat")
        async with self.engine.begin() as conn:
            lines = await _lines_of(conn, table_id, whom, chat_times) if chat_times else []
            res = await conn.execute(db.reports.insert().values(
                reporter_id=who, reported_id=whom, table_id=table_id, reason=text,
                chat=lines or None, status="open", created=time.time())
                .returning(db.reports.c.id))
            return int(res.scalar_one())

    async def _check_other(self, who: str, whom: str) -> None:
        if who == whom:
            raise ProtocolError("is_you", "you cannot block or report yourself",
                                field="player")
        async with self.engine.connect() as conn:
            found = (await conn.execute(sa.select(db.players.c.status).where(
                db.players.c.id == whom))).scalar()
        if found is None or found == "deleted":
            raise ProtocolError("no_player", "there is no such player")

    # --- operators ------------------------------------------------------------------
    async def reports(self, status: str | None = "open", limit: int = 100) -> list[Report]:
        """Reports, newest first (``status`` None: all)."""
        r, p = db.reports, db.players
        q = (sa.select(r, p.c.name.label("reported_name"))
             .join(p, p.c.id == r.c.reported_id)
             .order_by(r.c.created.desc(), r.c.id.desc()).limit(limit))
        if status is not None:
            q = q.where(r.c.status == status)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).mappings().all()
            # Names as players see them (a guest by the name they played under, never
            # "guest" or nothing) and the accounts' usernames, which the operator acts on.
            ids = {x["reporter_id"] for x in rows} | {x["reported_id"] for x in rows}
            names = await shown_names(conn, ids)
            a = db.accounts
            users = {r.player_id: r.username for r in await conn.execute(
                sa.select(a.c.player_id, a.c.username).where(a.c.player_id.in_(sorted(ids))))
            } if ids else {}
        return [Report(x["id"], x["reporter_id"], x["reported_id"],
                       names.get(x["reported_id"], x["reported_name"]), x["table_id"],
                       x["reason"], list(x["chat"] or []), x["status"], x["created"],
                       users.get(x["reported_id"]), names.get(x["reporter_id"]),
                       users.get(x["reporter_id"])) for x in rows]

    async def close_report(self, report_id: int) -> None:
        async with self.engine.begin() as conn:
            res = await conn.execute(db.reports.update().where(db.reports.c.id == report_id)
                                     .values(status="closed"))
        if res.rowcount != 1:
            raise LookupError(f"there is no report {report_id}")

    async def set_status(self, player_id: str, status: str) -> None:
        """Suspend (``suspended``) or restore (``active``) a player. Suspending ends
        their sessions and drops their quick play tickets."""
        assert status in ("active", "suspended")
        async with self.engine.begin() as conn:
            res = await conn.execute(db.players.update().where(
                db.players.c.id == player_id, db.players.c.status != "deleted")
                .values(status=status))
            if res.rowcount != 1:
                raise LookupError(f"there is no player {player_id}")
            if status == "suspended":
                await conn.execute(db.sessions.delete().where(
                    db.sessions.c.player_id == player_id))
                await conn.execute(db.queue.delete().where(
                    db.queue.c.player_id == player_id, db.queue.c.status == "waiting"))

    async def reset_password(self, player_id: str) -> str:
        """The old password stops working and every session ends; returns a one-time
        code (stored as a digest among the recovery codes) to sign in with through the
        recovery path, after which the user sets a new password."""
        issued = issue_recovery_codes(1)
        async with self.engine.begin() as conn:
            res = await conn.execute(db.accounts.update().where(
                db.accounts.c.player_id == player_id)
                .values(password_hash=NO_PASSWORD, password_changed=time.time()))
            if res.rowcount != 1:
                raise LookupError(f"player {player_id} has no account (a guest has no "
                                  "password)")
            await conn.execute(db.sessions.delete().where(db.sessions.c.player_id == player_id))
            await conn.execute(db.recovery_codes.insert().values(
                player_id=player_id, digest=issued.digests[0], used=None))
        return issued.codes[0]


async def find_player(engine: AsyncEngine, who: str) -> tuple[str, str | None, str]:
    """A player named by username (any case) or profile id: (id, username, status);
    LookupError when neither matches."""
    a, p = db.accounts, db.players
    async with engine.connect() as conn:
        row = (await conn.execute(
            sa.select(p.c.id, a.c.username, p.c.status).select_from(p.outerjoin(
                a, a.c.player_id == p.c.id))
            .where(sa.or_(a.c.username_key == lookup_key(who), p.c.id == who)))).first()
    if row is None:
        raise LookupError(f"no player has the username or id {who!r}")
    return str(row[0]), row[1], str(row[2])


async def _lines_of(conn: AsyncConnection, table_id: str | None, whom: str,
                    times: Sequence[int]) -> list[dict[str, Any]]:
    """The chat lines the player ``whom`` wrote at ``table_id`` at these times (from the
    seats they held there), as copied into a report; bad_message when one is not
    theirs."""
    seats = [r[0] for r in await conn.execute(sa.select(db.seats.c.position).where(
        db.seats.c.table_id == table_id, db.seats.c.player_id == whom))]
    c = db.chat.c
    rows = (await conn.execute(
        sa.select(c.seat, c.name, c.text, c.at).where(
            c.table_id == table_id, c.seat.in_(seats), c.at.in_(list(times)))
        .order_by(c.id))).all()
    found = {int(r[3]) for r in rows}
    missing = [t for t in times if t not in found]
    if missing:
        raise ProtocolError("no_player", f"no chat line of this player at time "
                            f"{missing[0]} at this table", field="chat")
    return [{"seat": r[0], "name": r[1], "text": r[2], "time": int(r[3])} for r in rows]
