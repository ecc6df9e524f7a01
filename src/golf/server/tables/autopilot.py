"""The moves a room makes by itself: a server bot's, a stand-in's, the turn timer's,
the end of an absence grace or of a hole's break.

After every change the room asks its :class:`Autopilot` to :meth:`~Autopilot.reschedule`:
the room's plan (:class:`golf.server.tables.clocks.Plan`: what happens next, when, at
which version) becomes one task that sleeps until then and re-checks under the table's
lock that the table is still where it was planned for, so a move that lost a race does
nothing. While the server drains, nothing new is planned.

A move that could not be stored because the database cannot be reached
(:class:`~golf.server.storage.errors.Unavailable`; the room went back to what is stored)
is planned again after a pause, :data:`RETRY_FIRST` seconds doubled after each failure up
to :data:`RETRY_MOST`, until it is stored: nothing else would ever make it, and a table
waiting on a bot, a stand-in or a clock would wait for ever. It stops when the table
leaves this process (:meth:`Autopilot.cancel`, called when its lease is lost or handed
over) or the write is refused for a lost lease (:class:`~golf.server.storage.errors.Fenced`:
the table is another process's now). Any other failure is a bug, logged, not retried.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..storage.errors import Fenced, Unavailable
from .clocks import Plan, clock_key

__all__ = ["RETRY_FIRST", "RETRY_MOST", "SLACK", "Autopilot"]

log = logging.getLogger("golf.server")

#: Seconds a time-driven move may fire early (timer granularity).
SLACK = 0.02
#: Seconds before the first retry of a move the database could not store, and the longest
#: pause between retries: a table moves again within this long of the database's return.
RETRY_FIRST = 0.25
RETRY_MOST = 2.0


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
        #: Automatic moves in a row the database could not store (0: the last one was).
        self.failures = 0

    def reschedule(self, announce: bool = False) -> None:
        """Plan the next time-driven move (cancelling a planned one that has not fired);
        with ``announce``, a clock that changed is sent to everyone."""
        self._schedule(0.0, announce)

    def _schedule(self, pause: float, announce: bool = False) -> None:
        """Plan the next move, not before ``pause`` seconds from now."""
        self.cancel()
        before = self._clock()
        p = self._plan()
        if p is not None and not self._draining():
            self._timer = asyncio.create_task(
                self._fire_at(p, time.monotonic() + pause if pause else 0.0))
        if announce and clock_key(before) != clock_key(self._clock()):
            self._send_clock()

    def cancel(self) -> None:
        """Forget the planned move (a fired one runs to its end), or its retry."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _fire_at(self, p: Plan, not_before: float) -> None:
        await asyncio.sleep(max(0.0, p.at - time.monotonic(), not_before - time.monotonic()))
        self._timer = None  # fired: from here on a reschedule must not cancel this task
        try:
            async with self._lock:
                now = time.monotonic()
                q = self._plan()
                if q is None or q.kind != p.kind or q.version != p.version or \
                        q.at > now + SLACK:
                    self.reschedule()
                    return
                try:
                    await self._fire(q)
                except Unavailable:
                    # Not stored; the room is as the database holds it. Planned again
                    # under the lock, so a handover waiting for it cancels the retry.
                    self._retry(q)
                    return
                if self.failures:
                    log.info("table %s: automatic %s move stored after %d failed tries",
                             self._table_id, q.kind, self.failures)
                    self.failures = 0
        except Fenced:
            # The lease is another process's now: the renewal hands the table over.
            log.warning("table %s: automatic %s move refused: the table moved to another "
                        "server process", self._table_id, p.kind)
        except Exception:  # a failed automatic move must not kill the table
            log.exception("table %s: automatic %s move failed", self._table_id, p.kind)

    def _retry(self, p: Plan) -> None:
        """The database could not store the move ``p``: plan the table's next move again
        after a pause that doubles with each failure in a row (at most RETRY_MOST)."""
        pause = min(RETRY_MOST, RETRY_FIRST * 2 ** self.failures)
        self.failures += 1
        if self.failures == 1:
            log.warning("table %s: automatic %s move not stored: the server cannot reach "
                        "its database; trying again every %g s at most", self._table_id,
                        p.kind, RETRY_MOST)
        self._schedule(pause)
