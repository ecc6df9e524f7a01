"""Messages between server processes on one PostgreSQL database: ``LISTEN/NOTIFY``.

One message exists: a handover request. A process that must play a table another live
process holds (the proxy now sends that table's clients to it, e.g. because it came
back after a restart) sends ``NOTIFY golf_handover, '<table id> <node>'``; the holder
closes the table's sockets with ``reconnect``, stores its clocks and releases the lease,
and the asker takes it. The holder keeps a table it took less than
:data:`MIN_HOLD` seconds ago, so two processes that both receive a table's clients (a
proxy that has not settled) pass it back and forth at most once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["CHANNEL", "MIN_HOLD", "ask_handover", "listen_forever"]

log = logging.getLogger("golf.server")

CHANNEL = "golf_handover"
#: Seconds a process keeps a table it just took before it hands it over on request.
MIN_HOLD = 1.0


async def ask_handover(engine: AsyncEngine, table_id: str, node: str) -> None:
    """Ask whichever process holds ``table_id`` to give it up."""
    async with engine.begin() as conn:
        await conn.execute(sa.text("SELECT pg_notify(:c, :p)"),
                           {"c": CHANNEL, "p": f"{table_id} {node}"})


def plain_dsn(engine: AsyncEngine) -> str:
    """The engine's URL as asyncpg's own ``connect`` takes it."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def listen_forever(engine: AsyncEngine, node: str,
                         requested: Callable[[str], Awaitable[None]]) -> None:
    """Listen for handover requests of other nodes and call ``requested(table_id)``;
    reconnect (every second) when the database goes away."""
    import asyncpg  # type: ignore[import-untyped]

    # Each table's handover runs as a task of its own, and a request for a table whose
    # handover is under way is dropped: served one after the other, a restarted process's
    # requests for the dozens of tables its clients came back for (each asked again every
    # second) waited behind each other's database writes, and clients stood still for 36 s
    # after a rolling restart. Side by side, their writes share the store's group commits.
    running: dict[str, asyncio.Task[None]] = {}

    async def serve(table_id: str) -> None:
        try:
            await requested(table_id)
        except Exception:  # one failed handover must not stop the others
            log.exception("golf server: handover of table %s failed", table_id)

    def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
        table_id, _, sender = payload.partition(" ")
        if sender == node or table_id in running:
            return
        task = asyncio.get_running_loop().create_task(serve(table_id))
        running[table_id] = task
        task.add_done_callback(lambda _: running.pop(table_id, None))

    try:
        while True:
            conn = None
            try:
                conn = await asyncpg.connect(plain_dsn(engine))
                await conn.add_listener(CHANNEL, heard)
                while not conn.is_closed():
                    await asyncio.sleep(1.0)
            except Exception as e:  # the database is away: listen again once it is back
                log.warning("golf server: not listening for handovers (%s)", type(e).__name__)
            finally:
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(1.0)
    finally:
        for task in list(running.values()):
            task.cancel()
