"""The checked write: what every state-changing route of the people's services (accounts,
quick play, care) passes, and how their refusals are answered.

A state-changing route takes :func:`checked_write`: the request's ``Origin`` (else
``Referer``) must be this site's own (:func:`golf.identity.same_origin`), and its
``X-CSRF-Token`` header the token ``GET /api/me`` gave this browser. A refusal
(:class:`~golf.server.players.sessions.AccountError`) is the lobby's error shape,
``{"error": {"code", "message", "field"?, "retry_after"?}}`` (:class:`AccountRoute`).
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict

from ...identity import allowed_origins, same_origin
from ..players.sessions import AccountError, Identity, current_identity, is_tls, same_secret
from .openapi import raises

__all__ = ["AccountRoute", "Body", "Who", "Writer", "checked_write", "own_origin"]


class AccountRoute(APIRoute):
    """A route whose AccountError becomes the error body, with ``Retry-After`` when the
    rate limit answered."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except AccountError as e:
                headers = {"Cache-Control": "no-store"}
                if e.retry_after is not None:
                    headers["Retry-After"] = str(e.retry_after)
                return JSONResponse(e.body(), status_code=e.http_status, headers=headers)

        return run


class Body(BaseModel):
    """A request body: JSON types as they are, no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


Who = Annotated[Identity, Depends(current_identity)]


def own_origin(request: Request) -> str:
    """This site's origin as the request addressed it."""
    scheme = "https" if is_tls(request) else "http"
    return f"{scheme}://{request.headers.get('host', request.url.netloc)}"


@raises("cross_site", "bad_csrf")
async def checked_write(request: Request, who: Who) -> Identity:
    """The identity of a state-changing request that came from this site's own page
    (Origin, else Referer) with this browser's CSRF token; 403 ``cross_site`` or
    ``bad_csrf`` otherwise."""
    try:
        allowed = allowed_origins([own_origin(request)])
    except ValueError:
        allowed = frozenset()
    if not same_origin(request.headers.get("origin"), request.headers.get("referer"),
                       allowed):
        raise AccountError("cross_site", "account changes are accepted from this site's "
                           "own pages only (the Origin header must name it)", 403)
    token = request.headers.get("x-csrf-token", "")
    if not token or not same_secret(token, who.csrf):
        raise AccountError("bad_csrf", "this page's security token is missing or old; "
                           "reload the page and try again", 403)
    return who


Writer = Annotated[Identity, Depends(checked_write)]
