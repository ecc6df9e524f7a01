"""The end of a hole and of a match at a live table: the break before the next hole, a
match ended for an absence and rated, and the rematch invitation (a part of
:class:`golf.server.tables.room.Room`, ``room.finish``, as :mod:`.seating` is
``room.seating``).

**Between holes.** When a hole ends (and the match goes on), the next hole waits until
every person connected at that moment has closed the hole-end dialog (their page sends
``ready``) or the countdown ends (:data:`golf.server.tables.clocks.HOLE_BREAK` seconds unless
``golf serve --hole-break`` says otherwise). The
countdown is the match's clocks' (``clock.kind == "next_hole"``); meanwhile no bot moves,
no turn timer runs and no action is accepted (``hole_break``), and ``your_turn`` is false
for everyone. When it ends, everyone gets the state again (a page closes a hole-end
dialog still open then). Nobody to wait for but spectators watching: the countdown runs
out. A person who leaves during the
break is not waited for. The break is stored with the table (``golf_tables.hole_break``:
the match, the version, the seats still waited for and the wall-clock end of the
countdown) when it begins, on each ``ready`` and when it ends, so a ``ready`` sent to a
process that then stops, or hands the table to another, is not lost.

**Rematch.** After a finished (or ended) match the host offers a rematch (with changes,
``POST /api/tables/{id}/rematch``); it is an invitation that each person seated accepts
(``POST /api/tables/{id}/rematch/accept``) or declines (``.../rematch/decline``: the offer
is dropped, and everyone is told who declined); bots accept at once, the host by offering.
The new match starts when the last person accepts. The offer and its acceptances are stored
with the table (``golf_tables.rematch``), so they survive a restart or a handover.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core.protocol import ProtocolError, dumps
from ..ratings import rating_service
from ..storage.errors import Unavailable

if TYPE_CHECKING:
    from ..storage.records import MatchRecord, TableRecord
    from ..storage.store import Store
    from .audience import Audience, Seat
    from .clocks import BreakState, Clocks
    from .match import LiveMatch
    from .seating import Changes
    from .telling import Telling

__all__ = ["Finish"]


class Finish:
    """The hole break and the rematch invitation of a room.

    A part of the room, given what it works on: the table's record, its lock, its seats,
    the store, the audience, the room's match, its stored record and clocks (read when
    asked), what the room tells (:class:`.Telling`), and the room's calls it makes: plan
    the next move, go on with the next hole, check and apply a rematch's changes
    (:meth:`.Seating.apply`), start a match."""

    def __init__(self, rec: TableRecord, lock: asyncio.Lock, seats: list[Seat],
                 store: Store, audience: Audience, *,
                 live: Callable[[], LiveMatch | None],
                 record: Callable[[], MatchRecord | None], clocks: Callable[[], Clocks],
                 reschedule: Callable[[], None], telling: Telling,
                 next_hole: Callable[[], None], apply: Callable[[Changes], None],
                 start: Callable[[], Awaitable[None]]) -> None:
        self.rec = rec
        self.lock = lock
        self._seats = seats
        self._store = store
        self.audience = audience
        self._live = live
        self._record = record
        self._clocks = clocks
        self._reschedule = reschedule
        self.telling = telling
        self._next_hole = next_hole
        self._apply = apply
        self._start = start
        #: Seats that accepted the offered rematch (None: no rematch is offered).
        self._rematch: set[int] | None = None

    # --- between holes ---------------------------------------------------------------------
    def _people_here(self) -> set[int]:
        """The seats of the people connected now (not bots, not stand-ins)."""
        return {s.position for s in self._seats
                if s.rec.kind == "human" and s.conns and not s.stand_in}

    def begin_break(self) -> None:
        """A hole ended and the match goes on: the break begins (the lock is held). Only
        spectators watching (bots play every seat): it runs its countdown, waiting for
        nobody, so that the next hole does not start behind their hole-end dialog."""
        self._clocks().begin_break(self._people_here(),
                                   watched=self.audience.spectators > 0)

    async def ready(self, seat: Seat | None) -> None:
        """A person closed the hole-end dialog (spectators' and late frames are ignored)."""
        if seat is None:
            return
        async with self.lock:
            clocks = self._clocks()
            if not clocks.breaking or seat.position not in clocks.waiting:
                return
            was = clocks.break_state()
            ended = clocks.ready(seat.position)
            # Stored before anyone hears of it: what clients are told is what a restart
            # or a handover resumes. Not stored: the person is told to try again, and the
            # countdown still ends the break.
            await self.save_break(was)
            if ended:
                self._next_hole()
            else:
                self._reschedule()
                self.telling.send_clock()

    async def save_break(self, was: BreakState | None = None) -> None:
        """Store the running break (or that none runs): what a restart resumes. ``was``:
        the break before the change being stored, put back if the database cannot be
        reached (the break then stands as the database holds it, so that a retry makes
        the same change again instead of moving on from one nobody was told of)."""
        try:
            await self._write_break()
        except Unavailable:
            if was is not None:
                self._clocks().put_back(was)
            raise

    async def _write_break(self) -> None:
        live, clocks = self._live(), self._clocks()
        data = None
        if clocks.breaking and live is not None and clocks.break_until is not None:
            data = {"match": self.rec.match, "version": live.version,
                    "waiting": sorted(clocks.waiting),
                    "until": time.time() + max(0.0, clocks.break_until
                                                - time.monotonic())}
        if data != self.rec.hole_break:
            await self._store.save_pending(self.rec.id, hole_break=data)
            # Only once stored: a write that failed is made again by the next save.
            self.rec.hole_break = data

    async def _save_rematch(self) -> None:
        """Store the offered rematch and who accepted it (or that none is offered)."""
        data = None if self._rematch is None else {"match": self.rec.match,
                                                   "accepted": sorted(self._rematch)}
        if data != self.rec.rematch:
            self.rec.rematch = data
            await self._store.save_pending(self.rec.id, rematch=data)

    def restore_pending(self, rec: TableRecord) -> None:
        """Take back a stored break or rematch offer of this very match and version
        (after a restart or a handover); a stale one is ignored."""
        live, brk, offer = self._live(), rec.hole_break, rec.rematch
        if (brk is not None and live is not None and rec.status == "playing"
                and brk.get("match") == rec.match and brk.get("version") == live.version):
            self._clocks().resume_break({int(s) for s in brk.get("waiting") or []},
                                        float(brk.get("until") or 0.0))
        if (offer is not None and rec.status in ("finished", "ended")
                and offer.get("match") == rec.match):
            self._rematch = {int(s) for s in offer.get("accepted") or []}

    def left_break(self, seat: Seat) -> None:
        """``seat`` is no longer waited for (ready, or gone; the lock is held)."""
        clocks = self._clocks()
        if not clocks.breaking or seat.position not in clocks.waiting:
            return
        if clocks.ready(seat.position):
            self._next_hole()
        else:
            self._reschedule()
            self.telling.send_clock()

    def refuse_in_break(self) -> None:
        if self._clocks().breaking:
            raise ProtocolError("hole_break", "the next hole starts once everyone has read "
                                "the last one's end (at most a few seconds); wait for it")

    # --- the match's end ---------------------------------------------------------------------
    async def end_for_absence(self, seat: Seat) -> None:
        """The absence policy ``end``: the match ends because ``seat``'s person did not
        come back (the lock is held)."""
        live, m = self._live(), self._record()
        assert live is not None and m is not None
        reason = f"seat {seat.position} ({seat.rec.name}) did not come back"
        result = live.result(reason, self.telling.memory(), self.leavers(), m.by)
        await asyncio.shield(self._store.end_match(self.rec.id, m.id, result, "ended"))
        self.rec.status = m.status = "ended"
        m.result = result
        self._clocks().stop()
        event: dict[str, Any] = {"seat": seat.position, "action": None, "by": "absence",
                                 "ended": reason, "facts": []}
        self.audience.send_each(lambda receiver: self.telling.state_for(receiver, event))
        self.telling.send_table()
        await self.rate(m)

    def leavers(self) -> list[int]:
        """The seats whose person abandoned the match as it ends: they left for good, or
        their grace ran out (marked so when it happened), or they are gone with no grace
        left. Stored with the result (``abandoned``), which everything after reads."""
        clocks = self._clocks()
        return [s.position for s in self._seats if s.rec.kind == "human" and (
            clocks.abandoned[s.position]
            or (not s.conns and clocks.grace_left[s.position] <= 0))]

    async def rate(self, m: MatchRecord) -> None:
        """A rated table's match ended: rate it and tell everyone (the ``rating`` frame).
        A person abandoned it as its result says (:meth:`leavers`)."""
        live = self._live()
        if not self.rec.rated or live is None or m.result is None:
            return
        # Abandonment sticks: a stand-in never plays a rated match to its end for a person
        # whose grace ran out, even if they looked in again before the end.
        gone = set(m.result.get("abandoned") or ())
        seats = [rating_service.SeatAtEnd(s.position, s.rec.kind, s.rec.bot,
                                          s.rec.kind == "human" and s.position in gone)
                 for s in self._seats]
        frame = await rating_service.rate_finished(self._store, self.rec.id, m.id,
                                                   m.number, live.rules, seats, m.result)
        self.audience.push_all(dumps(frame))

    # --- the rematch invitation -----------------------------------------------------------
    def rematch_info(self) -> dict[str, Any] | None:
        """The offered rematch for the table summary: who accepted, who is awaited."""
        if self._rematch is None:
            return None
        people = [s.position for s in self._seats if s.rec.kind == "human"]
        return {"accepted": sorted(self._rematch),
                "waiting": [p for p in people if p not in self._rematch]}

    def _everyone_accepted(self) -> bool:
        return self._rematch is not None and all(
            s.position in self._rematch for s in self._seats if s.rec.kind == "human")

    async def offer_rematch(self, host: Seat, changes: Changes | None) -> None:
        """The host offers the next match (with changes); it starts once each person
        seated has accepted (at once when the host is the only person)."""
        async with self.lock:
            if self.rec.status not in ("finished", "ended"):
                raise ProtocolError("not_finished", "a rematch follows a finished match")
            if changes is not None:
                self._apply(changes)
            if any(not s.taken for s in self._seats):
                raise ProtocolError("seats_open", "a seat was left; the rematch needs every "
                                    "seat filled")
            self._rematch = {host.position}
            if changes is not None:
                # The offer's changes are stored with it: a restart keeps both.
                await self._store.save_table(self.rec)
            await self._start_if_accepted()
            await self._save_rematch()

    async def accept_rematch(self, seat: Seat) -> None:
        """A person seated accepts the offered rematch."""
        async with self.lock:
            if self._rematch is None or self.rec.status not in ("finished", "ended"):
                raise ProtocolError("no_rematch", "no rematch is offered now; the host "
                                    "offers one after the match")
            self._rematch.add(seat.position)
            await self._start_if_accepted()
            await self._save_rematch()

    async def decline_rematch(self, seat: Seat) -> None:
        """A person seated says no to the offered rematch (the host may take it back): the
        offer is dropped and everyone hears who declined (``rematch_declined``)."""
        async with self.lock:
            if self._rematch is None or self.rec.status not in ("finished", "ended"):
                raise ProtocolError("no_rematch", "no rematch is offered now; the host "
                                    "offers one after the match")
            self._rematch = None
            await self._save_rematch()
            self.audience.push_all(dumps({"type": "rematch_declined", "table": self.rec.id,
                                          "by": seat.position}))
            self.telling.send_table()

    async def _start_if_accepted(self) -> None:
        if self._everyone_accepted():
            self._rematch = None
            await self._start()
        else:
            self.telling.send_table()
