"""What every request passes before a route sees it: where it comes from and its body's shape.

One ASGI middleware in front of the whole application:

* **Cross-site writes are refused.** A browser names the page that sent a request in
  ``Origin`` (and says ``Sec-Fetch-Site: cross-site`` for another site). A write (REST
  ``POST``/``PUT``/``PATCH``/``DELETE``) or a WebSocket handshake from a page of another site
  is answered ``403 cross_site``, unless that site is allowed (``golf serve --allow-origin``).
  The server's own pages are of the same origin as the ``Host`` they were loaded from. A
  request without ``Origin`` (a program, curl, the tests) is not a browser's cross-site
  request and passes.
* **A write's body is JSON.** A body that is not ``Content-Type: application/json`` is
  ``415 bad_content_type`` (a plain HTML form or a ``text/plain`` fetch cannot be one without
  the browser asking the server first), over ``MAX_BODY`` bytes ``413 too_large``, and nested
  deeper than ``MAX_DEPTH`` ``400 too_deep``: judged on the raw bytes, before any parser
  could recurse on them. Bytes that are not UTF-8 are ``400 bad_json``.

>>> origin_key("HTTPS://Golf.example.org:443/"), origin_key("http://127.0.0.1:8000")
('https://golf.example.org', 'http://127.0.0.1:8000')
>>> host_of_origin("https://golf.example.org"), host_key("golf.example.org:443")
('golf.example.org', 'golf.example.org')
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from ...digits import whole
from ..core.protocol import MAX_BODY, ProtocolError, deep_error, too_deep

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def origin_key(url: str) -> str | None:
    """``scheme://host[:port]`` of an origin, lower case, without a default port; None for
    anything that is not an http(s) origin (``null``, garbage)."""
    try:
        u = urlsplit(url.strip())
        port = u.port
    except ValueError:
        return None
    if u.scheme.lower() not in ("http", "https") or not u.hostname:
        return None
    scheme = u.scheme.lower()
    host = u.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}")


def host_of_origin(url: str) -> str | None:
    """The ``host[:port]`` part of an origin (what its ``Host`` header would be)."""
    key = origin_key(url)
    return None if key is None else key.split("://", 1)[1]


def host_key(host: str) -> str:
    """A ``Host`` header without a default port, lower case (the scheme behind a proxy is
    not known here, so both default ports are dropped)."""
    host = host.strip().lower()
    for port in (":80", ":443"):
        if host.endswith(port):
            return host[: -len(port)]
    return host


def check_allowed_origin(url: str) -> str:
    """An ``--allow-origin`` value as its origin key, or ValueError saying what is wrong."""
    key = origin_key(url)
    if key is None or urlsplit(url.strip()).path not in ("", "/"):
        raise ValueError(f"--allow-origin takes an origin such as https://golf.example.org "
                         f"(scheme, host and optional port, no path), not {url!r}")
    return key


class Guard:
    """The middleware: see the module's docstring."""

    def __init__(self, app: ASGIApp, allow_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(check_allowed_origin(o) for o in allow_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            refusal = self.cross_site(scope)
            if refusal is not None:
                await refuse_websocket(scope, receive, send, refusal)
                return
        elif kind == "http" and scope["method"] in WRITES:
            try:
                refusal = self.cross_site(scope)
                if refusal is not None:
                    raise refusal
                receive = await checked_body(scope, receive)
            except ProtocolError as e:
                await answer(send, e)
                return
        await self.app(scope, receive, send)

    def cross_site(self, scope: Scope) -> ProtocolError | None:
        """The refusal of a request a browser sent from another site's page, if it is one."""
        headers = _headers(scope)
        origin = headers.get("origin")
        if origin is None:
            if headers.get("sec-fetch-site") == "cross-site":
                return ProtocolError("cross_site", "a page of another site sent this request "
                                     "(Sec-Fetch-Site: cross-site); refused")
            return None
        if origin_key(origin) in self.allowed:
            return None
        own = headers.get("host")
        if own is not None and host_of_origin(origin) == host_key(own):
            return None
        return ProtocolError("cross_site", f"requests from pages of {origin[:80]} are refused: "
                             "only this server's own pages (and origins its operator allows "
                             "with --allow-origin) may change tables")


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


async def checked_body(scope: Scope, receive: Receive) -> Receive:
    """Read a write's body (at most MAX_BODY bytes), check its type and depth, and hand
    it on to the route as if it was read for the first time."""
    headers = _headers(scope)
    # Headers are latin-1 text: "²" (byte 0xB2) is a digit to str.isdigit(), not to int().
    # A length that is not ASCII digits is no length: the body's real size decides.
    declared = whole(headers.get("content-length", ""))
    if declared is not None and declared > MAX_BODY:
        raise _too_large(declared)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise _too_large(size)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if body.strip():
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise ProtocolError("bad_content_type", "a request body is JSON sent with "
                                "Content-Type: application/json, not "
                                f"{kind[:60] or 'no content type'}")
        if too_deep(body):
            raise deep_error("the request body")
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            # JSON travels as UTF-8 (RFC 8259); the parser behind would answer in another
            # shape than the protocol's.
            raise ProtocolError("bad_json", "the request body is not valid JSON: it is not "
                                "UTF-8 text") from None
    done = False

    async def replay() -> Message:
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _too_large(size: int) -> ProtocolError:
    return ProtocolError("too_large", f"the request body has {size} bytes; at most {MAX_BODY} "
                         "are allowed")


async def answer(send: Send, e: ProtocolError) -> None:
    """The REST error body (as the lobby's errors) with the code's HTTP status."""
    body: dict[str, Any] = {"code": e.code, "message": e.message}
    if e.field is not None:
        body["field"] = e.field
    data = json.dumps({"error": body}).encode()
    await send({"type": "http.response.start", "status": e.status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


async def refuse_websocket(scope: Scope, receive: Receive, send: Send,
                           e: ProtocolError) -> None:
    """Refuse a handshake with HTTP 403 and the error body where the server can send one
    (the ASGI denial response), else with a plain 403."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        data = json.dumps({"error": {"code": e.code, "message": e.message}}).encode()
        await send({"type": "websocket.http.response.start", "status": e.status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "websocket.http.response.body", "body": data})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": e.code})
