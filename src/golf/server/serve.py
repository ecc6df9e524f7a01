"""Running the server: uvicorn with a drain on SIGTERM.

On SIGTERM (or Ctrl-C) the server refuses new tables, stops the bots' and clocks'
planned moves, waits for moves in progress, and closes every socket with code 1012
and the reason ``reconnect``; clients come back when it is up again.
"""

from __future__ import annotations

import asyncio
import logging
from types import FrameType
from typing import Any

import uvicorn

from .app import Config, create_app
from .core.protocol import HARD_MAX_FRAME


class DrainingServer(uvicorn.Server):
    """uvicorn, but sockets are closed with 'reconnect' before it stops."""

    _loop: asyncio.AbstractEventLoop | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        hub = getattr(self.config.app.state, "hub", None) if hasattr(
            self.config.app, "state") else None
        loop = self._loop
        if hub is not None and not hub.draining and loop is not None:

            def done(_: Any) -> None:
                super(DrainingServer, self).handle_exit(sig, frame)

            def begin() -> None:
                loop.create_task(hub.drain()).add_done_callback(done)

            loop.call_soon_threadsafe(begin)
            return
        super().handle_exit(sig, frame)

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)


def uvicorn_config(config: Config, **extra: Any) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(config), host=config.host, port=config.port, ws_max_size=HARD_MAX_FRAME,
        ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=5,
        # Frames are a few KiB of JSON: compressing them costs more CPU than it saves.
        ws_per_message_deflate=False,
        # Forwarded headers are golf.server.http.proxies' business (only --trusted-proxy peers);
        # uvicorn's own would believe 127.0.0.1 (or $FORWARDED_ALLOW_IPS) by default.
        proxy_headers=False,
        log_level="warning", lifespan="on", **extra)


def run(config: Config) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    server = DrainingServer(uvicorn_config(config))
    server.run()
