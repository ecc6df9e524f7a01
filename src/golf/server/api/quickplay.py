"""The REST routes of quick play (``/api/quickplay``): Pydantic models at the edge, one
service call per route.

Who asks is the player of the request's cookies
(:func:`golf.server.players.sessions.current_player`);
every state-changing route takes :func:`golf.server.api.checked.checked_write` (this
site's Origin and the browser's CSRF token), as the account routes do. A quick play
client polls its ticket about once a second (``GET /api/quickplay/{ticket}``): polling
works through any proxy and any server process, and keeps the ticket alive
(docs/quickplay.md).
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field, JsonValue

from ...rules import preset_names
from ..core.protocol import MAX_SEATS
from ..matchmaking.quickplay import QuickPlay, TicketState
from ..players.sessions import Identity, Player, current_player
from .checked import AccountRoute, Body, checked_write
from .openapi import errors, raises

__all__ = ["quickplay_router"]


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
