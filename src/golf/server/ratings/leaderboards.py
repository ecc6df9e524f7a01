"""A variant's leaderboard, read from the stored ratings: people with enough rated
matches, highest shown rating first, the viewer's own row, the variant's bots apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ...ratings import PROVISIONAL_MATCHES, Anchors, Rating, Variant, display_rating
from ..core.bridge import bot_label
from ..storage import db
from .names import played_names

__all__ = ["LEADERBOARD_PAGE", "Leaderboard", "leaderboard"]

#: Rows per leaderboard page.
LEADERBOARD_PAGE = 20


@dataclass
class Leaderboard:
    """One page of a variant's leaderboard and the viewer's own position."""

    variant: str
    page: int
    pages: int
    total: int
    rows: list[dict[str, Any]]
    me: dict[str, Any] | None
    bots: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "page": self.page, "pages": self.pages,
                "total": self.total, "per_page": LEADERBOARD_PAGE, "rows": self.rows,
                "me": self.me, "bots": self.bots,
                "min_matches": PROVISIONAL_MATCHES}


async def leaderboard(conn: AsyncConnection, variant: Variant, page: int,
                      viewer: str | None, anchors: Anchors | None = None) -> Leaderboard:
    """Page ``page`` (from 1) of ``variant``'s leaderboard: people with at least
    :data:`~golf.ratings.PROVISIONAL_MATCHES` rated matches, highest shown rating first
    (ties: the more settled, i.e. higher ``mu - 3 sigma`` unrounded, then the player
    id); deleted and suspended players are left out. ``viewer``'s own row (with its
    rank) is given whether or not it is on the page; a viewer not yet on the board gets
    their rating and how many matches they still need. The variant's bots are listed
    apart at their fixed ratings."""
    r, p = db.ratings, db.players
    rows = (await conn.execute(
        sa.select(r.c.player_id, r.c.mu, r.c.sigma, r.c.matches, r.c.abandoned, p.c.name)
        .join(p, p.c.id == r.c.player_id)
        .where(r.c.variant == variant.key, r.c.matches >= PROVISIONAL_MATCHES,
               p.c.status == "active"))).all()
    ranked = sorted(rows, key=lambda x: (-display_rating(x.mu, x.sigma),
                                         -(x.mu - 3 * x.sigma), x.player_id))
    # A guest on the board is shown by the name they played under (never "guest").
    played = await played_names(conn, [x.player_id for x in ranked if not x.name])
    entries = [{"rank": i + 1, "player": x.player_id,
                "name": x.name or played.get(x.player_id, "guest"),
                "rating": display_rating(x.mu, x.sigma), "matches": x.matches,
                "completion_rate": (x.matches - x.abandoned) / x.matches}
               for i, x in enumerate(ranked)]
    pages = max(1, math.ceil(len(entries) / LEADERBOARD_PAGE))
    start = (page - 1) * LEADERBOARD_PAGE
    me = next((e for e in entries if e["player"] == viewer), None)
    if me is None and viewer is not None:
        mine = (await conn.execute(sa.select(r).where(
            r.c.player_id == viewer, r.c.variant == variant.key))).first()
        rating = Rating() if mine is None else Rating(mine.mu, mine.sigma, mine.matches)
        me = {"rank": None, "player": viewer, "rating": rating.display,
              "matches": rating.matches, "provisional": True,
              "needed": PROVISIONAL_MATCHES - rating.matches}
    elif me is not None:
        me = {**me, "page": (me["rank"] - 1) // LEADERBOARD_PAGE + 1}
    fixed = Anchors.measured() if anchors is None else anchors
    anchored = sorted(fixed.by_variant.get(variant, {}).items(),
                      key=lambda kv: (-kv[1].display, kv[0]))
    bots = [{"bot": b, "name": bot_label(b), "rating": a.display} for b, a in anchored]
    return Leaderboard(variant.key, page, pages, len(entries),
                       entries[start:start + LEADERBOARD_PAGE], me, bots)
