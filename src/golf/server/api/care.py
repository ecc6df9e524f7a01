"""The REST routes of care (``/api/blocks``, and blocking and reporting a player from a
table's seat or a profile): Pydantic models at the edge, one call of
:class:`golf.server.moderation.care.Care` per route.

Who asks is the player of the request's cookies
(:func:`golf.server.players.sessions.current_player`); every state-changing route takes
:func:`golf.server.api.checked.checked_write` (this site's Origin and the browser's CSRF
token), as the account routes do.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from ..moderation.care import MAX_REASON, Care
from ..players.sessions import Identity, Player, current_player
from .checked import AccountRoute, Body, checked_write
from .openapi import SeatNumber, errors, raises

__all__ = ["care_router"]


class BlockOut(BaseModel):
    id: str
    name: str | None
    since: float


class Blocks(BaseModel):
    blocks: list[BlockOut]


#: Why a player is reported (golf.server.moderation.care.Care.report collapses runs of spaces).
Reason = Annotated[str, Field(max_length=MAX_REASON, json_schema_extra={
    "minLength": 1, "pattern": r"\S",
    "description": f"why: 1 to {MAX_REASON} characters, not only spaces"})]


class ReportIn(Body):
    """A report: the reason, and the times (the chat frames' ``time``) of the reported
    player's lines at this table to keep with it."""

    reason: Reason
    chat: list[int] = Field(default_factory=list, max_length=10)


class ReportPlayerIn(Body):
    """A report from a profile: the reason only (chat lines belong to a table: report
    from the table's seat to keep some)."""

    reason: Reason
    #: Sent empty by the browser's one report form; lines belong to a table's report.
    chat: list[int] = Field(default_factory=list, max_length=0)


class Reported(BaseModel):
    report: int


PlayerDep = Annotated[Player, Depends(current_player)]
Writer = Annotated[Identity, Depends(checked_write)]


def care_router() -> APIRouter:
    """Blocks and reports; the service is the application's ``state.care``."""
    api = APIRouter(prefix="/api", route_class=AccountRoute, tags=["care"])

    @raises("try_again")
    def service(request: Request) -> Care:
        care: Care = request.app.state.care
        return care

    Service = Annotated[Care, Depends(service)]

    @api.get("/blocks")
    async def my_blocks(player: PlayerDep, care: Service) -> Blocks:
        """Whom I have blocked."""
        rows = await care.blocked_by(player.id)
        return Blocks(blocks=[BlockOut.model_validate(r) for r in rows])

    @api.post("/tables/{table_id}/seats/{position}/block", status_code=204,
              responses=errors("no_player", "is_you"))
    async def block_seat(table_id: str, position: SeatNumber, who: Writer, care: Service
                         ) -> Response:
        """Block the player in this seat: quick play never seats us together."""
        await care.block(who.player.id, await care.player_at(table_id, position))
        return Response(status_code=204)

    @api.post("/players/{player_id}/block", status_code=204,
              responses=errors("no_player", "is_you"))
    async def block_player(player_id: str, who: Writer, care: Service) -> Response:
        await care.block(who.player.id, player_id)
        return Response(status_code=204)

    @api.delete("/players/{player_id}/block", status_code=204)
    async def unblock_player(player_id: str, who: Writer, care: Service) -> Response:
        await care.unblock(who.player.id, player_id)
        return Response(status_code=204)

    @api.post("/tables/{table_id}/seats/{position}/report", status_code=201,
              responses=errors("no_player", "is_you"))
    async def report_seat(table_id: str, position: SeatNumber, body: ReportIn, who: Writer,
                          care: Service) -> Reported:
        """Report the player in this seat, with their chat lines at these times."""
        whom = await care.player_at(table_id, position)
        rid = await care.report(who.player.id, whom, body.reason, table_id, body.chat)
        return Reported(report=rid)

    @api.post("/players/{player_id}/report", status_code=201,
              responses=errors("no_player", "is_you"))
    async def report_player(player_id: str, body: ReportPlayerIn, who: Writer,
                            care: Service) -> Reported:
        rid = await care.report(who.player.id, player_id, body.reason, None)
        return Reported(report=rid)

    return api
