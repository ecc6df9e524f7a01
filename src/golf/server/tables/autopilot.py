"""The moves a room makes by itself: a server bot's, a stand-in's, the turn timer's,
the end of an absence grace or of a hole's break.

After every change the room asks its :class:`Autopilot` to :meth:`~Autopilot.reschedule`:
the room's plan (:class:`golf.server.tables.clocks.Plan`: what happens next, when, at
which version) becomes one task that sleeps until then and re-checks under the table's
lock that the table is still where it was planned for, so a move that lost a race does
nothing. While the server drains, nothing new is planned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .clocks import Plan, clock_key

__all__ = ["SLACK", "Autopilot"]

log = logging.getLogger("golf.server")

#: Seconds a time-driven move may fire early (timer granularity).
SLACK = 0.02


class Autopilot:
    """One room's next time-driven move: at most one planned task at a time.

    It is given the table's id (for the log) and lock, and the room's calls: ``plan``
    (the next move, or None), ``fire`` (make it; the lock is held), ``draining`` (is the
    server shutting down?), ``clock`` (the clock clients see) and ``send_clock`` (tell
    everyone the clock)."""

    def __init__(self, table_id: str, lock: asyncio.Lock, *,
                 plan: Callable[[], Plan | None], fire: Callable[[Plan], Awaitable[None]],
                 draining: Callable[[], bool],
                 clock: Callable[[], dict[str, Any] | None],
                 send_clock: Callable[[], None]) -> None:
        self._table_id = table_id
        self._lock = lock
        self._plan = plan
        self._fire = fire
        self._draining = draining
        self._clock = clock
        self._send_clock = send_clock
        self._timer: asyncio.Task[None] | None = None

    def reschedule(self, announce: bool = False) -> None:
        """Plan the next time-driven move (cancelling a planned one that has not fired);
        with ``announce``, a clock that changed is sent to everyone."""
        self.cancel()
        before = self._clock()
        p = self._plan()
        if p is not None and not self._draining():
            self._timer = asyncio.create_task(self._fire_at(p))
        if announce and clock_key(before) != clock_key(self._clock()):
            self._send_clock()

    def cancel(self) -> None:
        """Forget the planned move (a fired one runs to its end)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _fire_at(self, p: Plan) -> None:
        await asyncio.sleep(max(0.0, p.at - time.monotonic()))
        self._timer = None  # fired: from here on a reschedule must not cancel this task
        try:
            async with self._lock:
                now = time.monotonic()
                q = self._plan()
                if q is None or q.kind != p.kind or q.version != p.version or \
                        q.at > now + SLACK:
                    self.reschedule()
                    return
                await self._fire(q)
        except Exception:  # a failed automatic move must not kill the table
            log.exception("table %s: automatic %s move failed", self._table_id, p.kind)
