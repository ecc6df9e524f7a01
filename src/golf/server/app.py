"""The ASGI application: lobby routes, the WebSocket, static files, start and stop.

>>> from golf.server.app import Config
>>> Config(data_dir="/tmp/x").database_url().startswith("sqlite+aiosqlite:///")
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import iter_route_contexts
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from .api.accounts import account_router
from .api.care import care_router
from .api.errors import error_response, refused_body
from .api.lobby import router
from .api.openapi import install as describe_errors
from .api.quickplay import quickplay_router
from .api.ratings import router as ratings_router
from .cluster.lease import Leases, renew_forever
from .cluster.notify import ask_handover, listen_forever
from .core.protocol import ProtocolError
from .http.guard import Guard
from .http.proxies import ProxyHeaders
from .matchmaking.quickplay import BOT_WAIT, QuickPlay
from .metrics import Metrics, apply_gc_policy, garbage_census
from .moderation.care import Care
from .players.accounts import Players
from .storage import db, schema
from .storage.errors import Unavailable
from .storage.store import COMMIT_INTERVAL, Store
from .tables.clocks import HOLE_BREAK
from .tables.hub import ORPHANS_PER_SCAN, Hub
from .tables.sockets import endpoint

log = logging.getLogger("golf.server")
#: The browser client's files (owned by the web client; served when present).
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Golf server</title></head>
<body><h1>The Golf server is running</h1>
<p>The browser client is not installed yet. Clients speak the protocol described in
<code>docs/protocol.md</code>; <a href="/api/health">/api/health</a> shows the server's state
and <a href="/api/presets">/api/presets</a> the variants.</p></body></html>
"""


@dataclass
class Config:
    host: str = "127.0.0.1"
    port: int = 8000
    db: str | None = None
    data_dir: str | Path = "golf-data"
    static: Path = STATIC
    #: Seconds a finished table nobody asks for stays in memory (it stays in the database).
    keep_finished: float = 600.0
    #: Origins (``https://host[:port]``) besides the server's own whose pages may write.
    allow_origins: tuple[str, ...] = ()
    #: Serve ``/api/debug/metrics`` (loop lag, collections, CPU per thread kind).
    metrics: bool = False
    #: The garbage collection policy (metrics.GC_POLICIES).
    gc: str = "steady"
    #: Quick play: seconds of waiting before a player may fill their table with bots.
    bot_wait: float = BOT_WAIT
    #: Seconds the next hole waits at most for the people to read the last one's end
    #: (golf.server.tables.clocks; shorter for tests).
    hole_break: float = HOLE_BREAK
    #: This process's name among several on one PostgreSQL database (None: host:port).
    node: str | None = None
    #: Seconds a table's lease lasts unrenewed (golf.server.cluster.lease).
    lease_ttl: float = 3.0
    #: Upgrade an older database at start; False (a cluster's processes) refuses one.
    migrate: bool = True
    #: Group commit: seconds from one transaction's start to the next (golf.server.storage.store).
    commit_interval: float = COMMIT_INTERVAL
    #: Proxies (addresses or CIDR networks) whose X-Forwarded-For/-Proto are believed
    #: (golf.server.http.proxies); every other peer's are ignored.
    trusted_proxies: tuple[str, ...] = ()

    def database_url(self) -> str:
        if self.db:
            return db.async_url(self.db)
        return db.default_url(Path(self.data_dir))


async def sweep_forever(hub: Hub) -> None:
    """Forget idle finished tables now and then, so memory holds the live ones."""
    while True:
        await asyncio.sleep(min(60.0, max(0.2, hub.keep_finished / 2)))
        if n := hub.sweep():
            log.info("golf server: %d finished tables left memory", n)


async def adopt_forever(hub: Hub, every: float) -> None:
    """Take over, now and then, playing tables whose process died and nobody asked for
    (their bots and clocks must run even when no client comes back)."""
    pause = every
    while True:
        await asyncio.sleep(pause)
        pause = every
        try:
            # Two TTLs of grace: a client that comes back claims its table first.
            n = await hub.adopt_orphans(grace=2 * every)
            if n:
                log.info("golf server: took over %d tables nobody held", n)
            # Perhaps more: the next ten soon. Ten a scan every TTL left the tables nobody
            # was connected to standing for 16 s after a process that had held 97 of 100
            # restarted (the soak's restart-2).
            if n >= ORPHANS_PER_SCAN:
                pause = min(every, 0.25)
        except Exception as e:  # the database is away: next time
            log.warning("golf server: no orphan scan (%s)", type(e).__name__)


def start_sharing(hub: Hub, leases: Leases, engine: Any) -> list[asyncio.Task[None]]:
    """Several processes on one PostgreSQL database: renew leases, hand tables over on
    request, adopt orphans (nothing on SQLite)."""
    if not leases.enabled:
        return []
    return [asyncio.create_task(renew_forever(leases, lambda t: hub.give_up(t, False),
                                              back=hub.retry_now)),
            asyncio.create_task(listen_forever(engine, leases.node, hub.handover_requested)),
            asyncio.create_task(adopt_forever(hub, leases.ttl))]


OPENAPI_URL = "/api/openapi.json"
DOCS_URL = "/api/docs"


def docs_page(spec: dict[str, Any]) -> str:
    """A self-contained page listing the REST calls (no scripts from elsewhere: the server
    works offline); the machine-readable document is at OPENAPI_URL."""
    rows = []
    for path, ops in sorted(spec.get("paths", {}).items()):
        for method, op in ops.items():
            summary = op.get("summary") or op.get("operationId", "")
            rows.append(f"<tr><td><code>{escape(method.upper())}</code></td>"
                        f"<td><code>{escape(path)}</code></td><td>{escape(summary)}</td></tr>")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(spec['info']['title'])} API</title></head><body>"
            f"<h1>{escape(spec['info']['title'])}: REST calls</h1>"
            f"<p>{escape(spec['info'].get('description', ''))}</p>"
            f"<p>The OpenAPI document: <a href=\"{OPENAPI_URL}\">{OPENAPI_URL}</a>.</p>"
            "<table><tr><th>method</th><th>path</th><th>what</th></tr>"
            + "".join(rows) + "</table></body></html>")


def allowed_methods(request: Request) -> str:
    """Every method some route takes at the request's path, for a 405's ``Allow``.

    Starlette's own ``Allow`` names the methods of the first route whose path matched, but
    several routes may share a path (``GET`` and ``POST /api/tables``)."""
    path, root = request.scope["path"], request.scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root):]
    methods: set[str] = set()
    # FastAPI keeps included routers as such: their routes are reached through contexts.
    for context in iter_route_contexts(request.app.router.routes):
        regex = getattr(context, "path_regex", None)
        taken = context.methods
        if regex is not None and taken and regex.match(path):
            methods |= taken
    return ", ".join(sorted(methods))


def create_app(config: Config) -> FastAPI:
    state: dict[str, Hub] = {}
    watch = Metrics() if config.metrics else None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not config.db:
            Path(config.data_dir).mkdir(parents=True, exist_ok=True)
        if config.migrate:
            # On an engine of its own: a migration's statements may outlast the serving
            # engine's statement timeout (db.stall_settings).
            setup = db.make_engine(config.database_url())
            try:
                await schema.check(setup, migrate=True)
                await db.migrate(setup)
            finally:
                await setup.dispose()
        engine = db.make_engine(config.database_url(), stall=config.lease_ttl)
        await schema.check(engine, migrate=config.migrate)
        # The lease renewals' own connection (a second one while a stalled one is given
        # up): never queued behind the serving pool's work (golf.server.cluster.lease).
        # An attempt to connect gives up after a TTL: one begun while the link was cut
        # must not keep the next from noticing that it healed.
        renewing = db.make_engine(config.database_url(), stall=config.lease_ttl, pool=1,
                                  overflow=2, connect_timeout=config.lease_ttl,
                                  pool_timeout=config.lease_ttl) \
            if engine.dialect.name == "postgresql" else None
        leases = Leases(engine, config.node or f"{socket.gethostname()}:{config.port}",
                        ttl=config.lease_ttl, renew_engine=renewing)
        store = Store(engine, leases, commit_interval=config.commit_interval)
        hub = Hub(store, keep_finished=config.keep_finished, leases=leases,
                  hole_break=config.hole_break,
                  ask_handover=lambda t: ask_handover(engine, t, leases.node))
        state["hub"] = hub
        app.state.hub = hub
        app.state.players = players = Players(store)
        app.state.sessions = players.sessions
        app.state.quickplay = QuickPlay(hub, engine, bot_wait=config.bot_wait)
        app.state.care = Care(engine)
        n = await hub.load_unfinished()
        log.info("golf server: %d unfinished tables loaded", n)
        sweeper = asyncio.create_task(sweep_forever(hub))
        shared = start_sharing(hub, leases, engine)
        if watch is not None:
            watch.start()
        freezer = apply_gc_policy(config.gc, tables=lambda: len(hub.rooms))
        try:
            yield
        finally:
            sweeper.cancel()
            for task in shared:
                task.cancel()
            if freezer is not None:
                freezer.cancel()
            if watch is not None:
                watch.stop()
            await hub.drain()
            await store.close()
            if renewing is not None:
                await renewing.dispose()

    app = FastAPI(title="Golf server", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=OPENAPI_URL,
                  description="The REST half of the Golf server protocol (the lobby); the "
                  "WebSocket half and every error code are in docs/protocol.md.")
    app.add_middleware(Guard, allow_origins=config.allow_origins)
    # Outermost: everything inside sees the client a trusted proxy forwarded, or the peer.
    app.add_middleware(ProxyHeaders, trusted=config.trusted_proxies)

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, e: ProtocolError) -> JSONResponse:
        return error_response(e)

    @app.exception_handler(sa.exc.DBAPIError)
    @app.exception_handler(ConnectionError)
    @app.exception_handler(TimeoutError)
    async def database_away(request: Request, e: Exception) -> JSONResponse:
        """A read the database could not answer (a write says so itself): ``try_again``
        (503), as every write refused meanwhile, not an internal error (500). Refused,
        reset, timed out, or "the database system is starting up" (a plain DBAPIError);
        a refusal of the data or the query itself stays the internal error it is."""
        if isinstance(e, sa.exc.IntegrityError | sa.exc.ProgrammingError | sa.exc.DataError):
            raise e
        log.warning("golf server: %s %s: the database cannot be reached (%s)",
                    request.method, request.url.path[:80], type(e).__name__)
        return error_response(Unavailable())

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, e: RequestValidationError) -> JSONResponse:
        return error_response(refused_body(e))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, e: HTTPException) -> Response:
        """No such call (404), not with this method (405): the protocol's error body, never
        ``{"detail": ...}``; any other status keeps Starlette's answer."""
        call = f"{request.method} {request.url.path}"[:120]
        if e.status_code == 404:
            return error_response(ProtocolError("not_found", f"there is no {call}; the calls "
                                                f"are listed at {DOCS_URL}"))
        if e.status_code == 405:
            allowed = allowed_methods(request)
            answer = error_response(ProtocolError("bad_method", f"{call} is not a call; "
                                                  f"this path takes {allowed or 'others'}"))
            if allowed:
                answer.headers["Allow"] = allowed
            return answer
        return JSONResponse({"detail": e.detail}, status_code=e.status_code,
                            headers=e.headers)

    if watch is not None:
        @app.get("/api/debug/metrics", include_in_schema=False)
        async def metrics(reset: bool = False, frozen: bool = False) -> dict[str, Any]:
            assert watch is not None
            out = watch.snapshot(frozen)
            # Group commit: how many writes each transaction carried (totals since start).
            out["commits"] = state["hub"].store.commit_counts()
            if reset:
                watch.reset()
            return out

        @app.get("/api/debug/garbage", include_in_schema=False)
        async def garbage() -> dict[str, Any]:
            return garbage_census()

    @app.get(DOCS_URL, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(docs_page(app.openapi()))

    class LazyHub:
        """The router is built before the hub exists (the lifespan makes it)."""

        def __getattr__(self, name: str) -> object:
            return getattr(state["hub"], name)

    app.include_router(router(LazyHub()))  # type: ignore[arg-type]
    app.include_router(ratings_router(LazyHub()))  # type: ignore[arg-type]
    app.include_router(account_router())
    app.include_router(quickplay_router())
    app.include_router(care_router())
    describe_errors(app)

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await endpoint(websocket, state["hub"])

    index = config.static / "index.html"
    if config.static.is_dir():
        app.mount("/static", StaticFiles(directory=config.static), name="static")

    async def page() -> Response:
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    for prefix in ("join/{code}", "t/{table_id}", "watch/{table_id}",
                   "replay/{table_id}/{number}", "players/{player_id}", "leaderboards",
                   "leaderboards/{preset}/{band}"):
        app.add_api_route(f"/{prefix}", page, methods=["GET"], include_in_schema=False)
    return app
