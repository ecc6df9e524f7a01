"""The ASGI application: lobby routes, the WebSocket, static files, start and stop.

>>> from golf.server.app import Config
>>> Config(data_dir="/tmp/x").database_url().startswith("sqlite+aiosqlite:///")
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from . import db
from .hub import Hub
from .lobby import error_response, refused_body, router
from .protocol import ProtocolError
from .sockets import endpoint
from .store import Store

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


def create_app(config: Config) -> FastAPI:
    state: dict[str, Hub] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not config.db:
            Path(config.data_dir).mkdir(parents=True, exist_ok=True)
        engine = db.make_engine(config.database_url())
        await db.migrate(engine)
        store = Store(engine)
        hub = Hub(store, keep_finished=config.keep_finished)
        state["hub"] = hub
        app.state.hub = hub
        n = await hub.load_unfinished()
        log.info("golf server: %d unfinished tables loaded", n)
        sweeper = asyncio.create_task(sweep_forever(hub))
        try:
            yield
        finally:
            sweeper.cancel()
            await hub.drain()
            await store.close()

    app = FastAPI(title="Golf server", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, e: ProtocolError) -> JSONResponse:
        return error_response(e)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, e: RequestValidationError) -> JSONResponse:
        return error_response(refused_body(e))

    class LazyHub:
        """The router is built before the hub exists (the lifespan makes it)."""

        def __getattr__(self, name: str) -> object:
            return getattr(state["hub"], name)

    app.include_router(router(LazyHub()))  # type: ignore[arg-type]

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
                   "replay/{table_id}/{number}"):
        app.add_api_route(f"/{prefix}", page, methods=["GET"], include_in_schema=False)
    return app
