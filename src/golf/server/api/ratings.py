"""REST routes of ratings: public profiles, the rating graph, leaderboards and a rated
match's rating changes (docs/protocol.md, "Players and ratings").

Everything here is public (what anyone at a player's tables could see); no route reads
a seat token, a cookie's secret or an account detail. The viewer's own leaderboard
position comes from their player profile (the request's cookies,
:func:`golf.server.players.sessions.player_for_request`) or from ``me``, a player id:
positions are public, so naming one reveals nothing.
"""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations.
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel

from ...errors import GolfError
from ...ratings import BANDS, PROVISIONAL_MATCHES, Variant
from ...rules import preset_names
from ..core.protocol import ProtocolError
from ..players.sessions import player_for_request
from ..ratings import leaderboards, profiles, rating_service
from ..ratings.names import player_name
from ..ratings.rating_graph import rating_history, rating_svg
from ..storage import db
from ..tables.hub import Hub
from .openapi import Number, Page, errors

__all__ = ["router"]

class VariantRow(BaseModel):
    variant: str
    games: int
    wins: int
    win_rate: float | None
    average_hole: float | None
    best_hole: int | None
    holes: int
    rating: dict[str, Any] | None


class ProfileOut(BaseModel):
    """A player's public profile."""

    id: str
    name: str
    variants: list[VariantRow]
    rated_matches: int
    abandoned: int
    completion_rate: float | None
    recent: list[dict[str, Any]]
    head_to_head: list[dict[str, Any]]
    rating_graph: str


class LeaderboardOut(BaseModel):
    """One page of a variant's leaderboard."""

    variant: str
    page: int
    pages: int
    total: int
    per_page: int
    min_matches: int
    rows: list[dict[str, Any]]
    me: dict[str, Any] | None
    bots: list[dict[str, Any]]


class Boards(BaseModel):
    presets: list[str]
    bands: list[str]
    variants: list[dict[str, Any]]


class RatingFrame(BaseModel):
    """The ``rating`` frame of a rated match (as sent when it ended)."""

    type: str
    table: str
    match: int
    variant: str
    rated: bool
    seats: list[dict[str, Any]]


def _variant(preset: str, band: str) -> Variant:
    try:
        return Variant(preset, band)
    except GolfError as e:
        raise ProtocolError("bad_variant", str(e)) from None


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    async def viewer_id(request: Request, me: str | None) -> str | None:
        player = await player_for_request(request)
        return me if player is None else str(player.id)

    @api.get("/players/{player_id}", responses=errors("no_player"))
    async def player(player_id: str) -> ProfileOut:
        async with hub.store.engine.connect() as conn:
            found = await profiles.profile(conn, player_id)
        if found is None:
            raise ProtocolError("no_player", f"there is no player {player_id!r}")
        return ProfileOut.model_validate(found.to_json())

    @api.get("/players/{player_id}/rating.svg", response_class=Response,
             responses=errors("no_player", "bad_message"))
    async def rating_graph(player_id: str, lang: Literal["en", "de"] = "en") -> Response:
        async with hub.store.engine.connect() as conn:
            name = await player_name(conn, player_id)
            if name is None:
                raise ProtocolError("no_player", f"there is no player {player_id!r}")
            history = await rating_history(conn, player_id)
        return Response(rating_svg(name, history, lang), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-cache"})

    @api.get("/leaderboards")
    async def boards() -> Boards:
        async with hub.store.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(db.ratings.c.variant, sa.func.count())
                .where(db.ratings.c.matches >= PROVISIONAL_MATCHES)
                .group_by(db.ratings.c.variant).order_by(db.ratings.c.variant))
            variants = [{"variant": v, "players": n} for v, n in rows]
        return Boards(presets=preset_names(), bands=list(BANDS), variants=variants)

    @api.get("/leaderboards/{preset}/{band}", responses=errors("bad_variant", "bad_message"))
    async def board(request: Request, preset: str, band: str, page: Page = 1,
                    me: str | None = None) -> LeaderboardOut:
        variant = _variant(preset, band)
        viewer = await viewer_id(request, me)
        async with hub.store.engine.connect() as conn:
            # A page past the last has no rows (``pages`` says how many there are): the
            # board shrinks while a client pages through it.
            out = await leaderboards.leaderboard(conn, variant, page, viewer)
        return LeaderboardOut.model_validate(out.to_json())

    @api.get("/tables/{table_id}/matches/{number}/ratings", responses=errors("no_match"))
    async def match_ratings(table_id: str, number: Number) -> RatingFrame:
        frame = await rating_service.match_changes(hub.store.engine, table_id, number)
        if frame is None:
            raise ProtocolError("no_match", f"table {table_id} has no rated match {number}")
        return RatingFrame.model_validate(frame)

    return api
