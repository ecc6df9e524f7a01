"""How a player is named in public: their profile name, else the name they last played
under, else "guest"; a deleted player is "deleted player". Read by the profiles, the
leaderboards, the care desk and the account menu.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..storage import db

__all__ = ["DELETED", "played_names", "player_name", "profile_names", "shown_names"]

#: How a deleted player is shown in others' histories.
DELETED = "deleted player"


async def profile_names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str | None]:
    """Profile names of players; a deleted one is "deleted player", a guest who never
    chose a profile name None (shown by the name they played under: :func:`played_names`)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await conn.execute(sa.select(db.players.c.id, db.players.c.name,
                                        db.players.c.status)
                              .where(db.players.c.id.in_(wanted)))
    return {r.id: DELETED if r.status == "deleted" else (r.name or None) for r in rows}


async def played_names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str]:
    """The name each of these players last sat at a table under (shown to everyone at
    that table already): how a guest who never chose a profile name is shown. A player
    who never sat anywhere is left out."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    s = db.seats
    rows = (await conn.execute(sa.select(s.c.player_id, s.c.name).where(
        s.c.player_id.in_(wanted), s.c.name.is_not(None)).order_by(s.c.id))).all()
    return {r.player_id: str(r.name) for r in rows}  # the newest seat last: it wins


async def shown_names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str]:
    """Each player's name as others are shown it: the profile name, else the name they
    last played under, else "guest"; a deleted player "deleted player"."""
    names = await profile_names(conn, ids)
    played = await played_names(conn, [i for i, n in names.items() if n is None])
    return {i: n if n is not None else played.get(i, "guest") for i, n in names.items()}


async def player_name(conn: AsyncConnection, player_id: str) -> str | None:
    """The display name of a player whose profile may be shown, None if there is no
    such player (or it was deleted: a deleted profile is gone)."""
    row = (await conn.execute(sa.select(db.players.c.name, db.players.c.status)
                              .where(db.players.c.id == player_id))).first()
    if row is None or row.status == "deleted":
        return None
    if row.name:
        return str(row.name)
    # A guest who never chose a profile name: the name they last sat at a table under
    # (shown to everyone at that table already).
    return (await played_names(conn, [player_id])).get(player_id, "guest")
