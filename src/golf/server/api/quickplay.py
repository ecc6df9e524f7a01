"""The REST routes of quick play (``/api/quickplay``) and care (blocks and reports):
Pydantic models at the edge, one service call per route.

Who asks is the player of the request's cookies
(:func:`golf.server.players.accounts.current_player`);
every state-changing route takes :func:`golf.server.api.accounts.checked_write` (this
site's Origin and the browser's CSRF token), as the account routes do. A quick play
client polls its ticket about once a second (``GET /api/quickplay/{ticket}``): polling
works through any proxy and any server process, and keeps the ticket alive
(docs/quickplay.md).
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from ...rules import preset_names
from ..core.protocol import MAX_SEATS
from ..matchmaking.quickplay import QuickPlay, TicketState
from ..moderation.care import MAX_REASON, Care
from ..players.accounts import Identity, Player, current_player
from .accounts import AccountRoute, checked_write
from .openapi import SeatNumber, errors, raises

__all__ = ["care_router", "quickplay_router"]


class Body(BaseModel):
    """A request body: JSON types as they are, no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


class QueueIn(Body):
    """Which queue: a preset played unchanged and the table's number of seats."""

    preset: str = Field(max_length=64, json_schema_extra={"enum": list[JsonValue](preset_names())})
    players: int = Field(json_schema_extra={"minimum": 2, "maximum": MAX_SEATS})


class TicketOut(BaseModel):
    """A ticket's state. ``waited`` seconds so far, the rating ``window`` (± display
    points) it matches within now, ``bots_in`` seconds until "fill with bots" is
    allowed; once ``matched``, the ``table`` and ``seat``."""

    ticket: str
    status: str
    preset: str
    players: int
    rating: int
    waited: float
    window: int
    bots_in: float
    table: str | None
    seat: int | None


class Queued(BaseModel):
    """A new ticket: its state and the seat token the table's seat will hold (shown only
    now; keep it as any seat token)."""

    token: str
    state: TicketOut


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


def _out(s: TicketState) -> TicketOut:
    return TicketOut(ticket=s.id, status=s.status, preset=s.preset, players=s.players,
                     rating=s.rating, waited=s.waited, window=s.window, bots_in=s.bots_in,
                     table=s.table, seat=s.seat)


PlayerDep = Annotated[Player, Depends(current_player)]
Writer = Annotated[Identity, Depends(checked_write)]


def quickplay_router() -> APIRouter:
    """Quick play's routes; the service is the application's ``state.quickplay``."""
    api = APIRouter(prefix="/api/quickplay", route_class=AccountRoute, tags=["quick play"])

    @raises("try_again")  # the queue is in the database, which may be away
    def service(request: Request) -> QuickPlay:
        qp: QuickPlay = request.app.state.quickplay
        return qp

    Service = Annotated[QuickPlay, Depends(service)]

    @api.post("", status_code=201,
              responses=errors("bad_rules", "bad_seats", "suspended", "unauthorized",
                               "draining"))
    async def queue(body: QueueIn, who: Writer, qp: Service) -> Queued:
        """Play now: join the queue of (preset, players)."""
        p = who.player
        ticket, state = await qp.join(p.id, p.name, body.preset, body.players)
        return Queued(token=ticket.token, state=_out(state))

    @api.get("/{ticket}", responses=errors("no_ticket"))
    async def poll(ticket: str, player: PlayerDep, qp: Service) -> TicketOut:
        """The ticket's state (poll about once a second; 30 s without one drops it)."""
        return _out(await qp.state(player.id, ticket))

    @api.delete("/{ticket}", status_code=204, responses=errors("no_ticket"))
    async def leave(ticket: str, who: Writer, qp: Service) -> Response:
        """Leave the queue, at once."""
        await qp.leave(who.player.id, ticket)
        return Response(status_code=204)

    @api.post("/{ticket}/bots", responses=errors("no_ticket", "too_early", "draining"))
    async def bots(ticket: str, who: Writer, qp: Service) -> TicketOut:
        """Fill the table now: the compatible people waiting, then bots of similar
        rating (after the server's wait)."""
        return _out(await qp.fill_with_bots(who.player.id, ticket))

    return api


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
