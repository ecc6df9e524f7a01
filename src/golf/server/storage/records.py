"""The stored records of a table, its seats and its current match: plain data, read
from their rows by :class:`golf.server.storage.store.Store` and kept up to date by the
room that owns them (:mod:`golf.server.tables.room`); and the conversions between the
records and their rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from . import db

__all__ = ["MatchRecord", "SeatRecord", "TableRecord", "insert_seats", "load_match",
           "load_table", "table_values"]


@dataclass
class SeatRecord:
    position: int
    kind: str  # human | bot | external
    name: str | None
    bot: str | None
    token_hash: str | None
    bot_seed: int
    muted: list[int] = field(default_factory=list)
    id: int | None = None
    #: The player profile seated here (golf.server.players.accounts); None for bots.
    player_id: str | None = None


@dataclass
class MatchRecord:
    id: int
    number: int
    status: str
    rules: dict[str, Any]
    players: int
    seed: int
    names: list[str]
    result: dict[str, Any] | None
    actions: list[str]
    by: list[str]


@dataclass
class TableRecord:
    id: str
    title: str
    status: str
    preset: str
    overrides: dict[str, Any]
    public: bool
    options: dict[str, Any]
    host: int
    invite: str
    match: int
    created: float
    seats: list[SeatRecord]
    current: MatchRecord | None = None
    #: The running match's clocks as last saved (golf.server.tables.clocks.Clocks.snapshot).
    clocks: dict[str, Any] | None = None
    #: Rated or casual (golf.server.ratings.rating_service): a rated table's matches are rated.
    rated: bool = False
    #: The hole break and the rematch offer as last stored (golf.server.tables.finish).
    hole_break: dict[str, Any] | None = None
    rematch: dict[str, Any] | None = None


def table_values(t: TableRecord) -> dict[str, Any]:
    return {"id": t.id, "title": t.title, "status": t.status, "preset": t.preset,
            "overrides": dict(t.overrides), "public": t.public, "options": dict(t.options),
            "host": t.host, "invite": t.invite, "match": t.match, "created": t.created,
            "rated": t.rated}


async def insert_seats(conn: AsyncConnection, table_id: str,
                        seats: Sequence[SeatRecord]) -> None:
    if not seats:
        return
    rows = [{"table_id": table_id, "position": s.position, "kind": s.kind, "name": s.name,
             "bot": s.bot, "token_hash": s.token_hash, "bot_seed": str(s.bot_seed),
             "muted": list(s.muted)} for s in seats]
    # player_id only when a seat has one (NULL is the column's default): the rows stay
    # writable into a database of the schema before players (migration 0003).
    if any(s.player_id is not None for s in seats):
        for row, s in zip(rows, seats, strict=True):
            row["player_id"] = s.player_id
    await conn.execute(db.seats.insert(), rows)


async def load_table(conn: AsyncConnection, row: sa.RowMapping) -> TableRecord:
    seat_rows = (await conn.execute(sa.select(db.seats).where(
        db.seats.c.table_id == row["id"]).order_by(db.seats.c.position))).mappings().all()
    seats = [SeatRecord(s["position"], s["kind"], s["name"], s["bot"], s["token_hash"],
                        int(s["bot_seed"]), list(s["muted"] or []), s["id"],
                        s["player_id"])
             for s in seat_rows]
    t = TableRecord(row["id"], row["title"], row["status"], row["preset"],
                    dict(row["overrides"]), bool(row["public"]), dict(row["options"]),
                    row["host"], row["invite"], row["match"], row["created"], seats,
                    clocks=row.get("clocks"), rated=bool(row.get("rated")),
                    hole_break=row.get("hole_break"), rematch=row.get("rematch"))
    if t.match:
        m = (await conn.execute(sa.select(db.matches).where(
            db.matches.c.table_id == t.id, db.matches.c.number == t.match))).mappings().first()
        if m is not None:
            t.current = await load_match(conn, m)
    return t


async def load_match(conn: AsyncConnection, m: sa.RowMapping) -> MatchRecord:
    acts = (await conn.execute(sa.select(db.actions.c.action, db.actions.c.by).where(
        db.actions.c.match_id == m["id"]).order_by(db.actions.c.idx))).all()
    return MatchRecord(m["id"], m["number"], m["status"], dict(m["rules"]), m["players"],
                       int(m["seed"]), list(m["names"]), m["result"], [a[0] for a in acts],
                       [a[1] for a in acts])
