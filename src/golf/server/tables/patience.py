"""A slow friend at a table without a turn timer: what the host can do about it while the
match runs (a part of :class:`golf.server.tables.room.Room`, ``room.patience``, as
:mod:`.seating` is ``room.seating``).

* **Nudge** (``POST /api/tables/{id}/nudge``): a reminder to the person whose turn it
  is, sent to everyone at the table as a ``nudge`` frame (so nobody is nudged in
  secret); at most one per :data:`NUDGE_EVERY` seconds per table.
* **A turn timer mid-match** (``POST /api/tables/{id}/timer``): the host adds (or
  changes) the turn timer while the match runs. It is the same for every seat and shown
  in the table's options; the running turn's timer counts from the moment it was set,
  so nobody loses time they were never told about.

* **A bot in a person's place** (``POST /api/tables/{id}/seats/{seat}/bot``): the host
  proposes it (the host's yes is given by proposing), and every other person seated
  answers (``POST .../bot/consent``). A person who is present (a socket open, or another
  page of the site open) is asked too: nobody present and playing loses the seat, or a
  rated match, by someone else's tap. Only a person who is away may be replaced without
  their yes: at a casual table when the others agree; at a rated table only once the
  absence rules gave up on them (or they left), since a rated match counts a replaced
  person last (``rated_away`` until then). One no drops the proposal (everyone hears it,
  the ``bot_declined`` frame). Once all agreed, the stand-in bot
  (:data:`golf.server.tables.match.STAND_IN`) plays that seat to the match's end. The person
  replaced abandoned the match (a rated match counts them last, as any abandonment), their
  seat token stops working and their sockets close (4001 ``replaced``). The replacement is
  stored with the clocks, so a restart keeps it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core.protocol import ProtocolError, dumps
from ..core.tokens import hash_token, new_token
from .match import runs
from .seating import check_options

if TYPE_CHECKING:
    from ..storage.records import TableRecord
    from ..storage.store import Store
    from .audience import Audience, Seat
    from .clocks import Clocks
    from .match import LiveMatch

__all__ = ["NUDGE_EVERY", "Patience"]

#: Seconds between two nudges at one table (a nudge is a reminder, not a horn).
NUDGE_EVERY = 20.0


class Patience:
    """The host's tools for a slow turn: nudge, a turn timer added mid-match, and a bot in
    a person's place.

    A part of the room, given what it works on: the table's record, its lock, its seats,
    the store, the audience (a nudge is sent to everyone), the room's match and clocks
    (read when asked), and the room's calls it makes after a change (plan the next move,
    tell everyone the table, store the clocks)."""

    def __init__(self, rec: TableRecord, lock: asyncio.Lock, seats: list[Seat],
                 store: Store, audience: Audience, *, live: Callable[[], LiveMatch | None],
                 clocks: Callable[[], Clocks], reschedule: Callable[[bool], None],
                 send_table: Callable[[], None],
                 save_clocks: Callable[[bool], Awaitable[None]]) -> None:
        self.rec = rec
        self.lock = lock
        self._seats = seats
        self._store = store
        self.audience = audience
        self._live = live
        self._clocks = clocks
        self._reschedule = reschedule
        self._send_table = send_table
        self._save_clocks = save_clocks
        #: When this table's last nudge was sent (time.monotonic()).
        self._nudged = float("-inf")
        #: The proposed bot seating: the seat to replace, the seats that consented, and
        #: whether its person is asked too (present when it was proposed), or None.
        self._proposal: tuple[int, set[int], bool] | None = None

    @property
    def running(self) -> bool:
        """A match runs (the room's :attr:`~golf.server.tables.room.Room.running`)."""
        return runs(self.rec.status, self._live())

    def _check_running(self, what: str) -> LiveMatch:
        live = self._live()
        if not self.running or live is None or live.to_act is None:
            raise ProtocolError("not_started", f"{what} while a match runs")
        return live

    async def nudge(self, host: Seat) -> dict[str, Any]:
        """Remind the person whose turn it is (the host's call); returns the frame sent."""
        async with self.lock:
            live = self._check_running("a nudge is sent")
            seat = self._seats[live.to_act] if live.to_act is not None else None
            assert seat is not None
            if not seat.is_person or seat.stand_in:
                raise ProtocolError("bad_seats", f"seat {seat.position} is played by a bot "
                                    "now; only a person is nudged", field="seat")
            if seat is host:
                raise ProtocolError("bad_seats", "it is your own turn", field="seat")
            now = time.monotonic()
            wait = self._nudged + NUDGE_EVERY - now
            if wait > 0:
                raise ProtocolError("rate_limited", f"one nudge per {NUDGE_EVERY:g} seconds "
                                    "at a table; this one was not sent",
                                    extra={"retry_after": int(wait * 1000) + 1})
            self._nudged = now
            frame = {"type": "nudge", "table": self.rec.id, "seat": seat.position,
                     "by": host.position, "version": live.version}
            self.audience.push_all(dumps(frame))
            return frame

    async def set_timer(self, seconds: int | float | None) -> None:
        """The host sets the turn timer while the match runs (None: no timer again).
        The reserve is the table's (option ``reserve``), full for every seat when the
        timer is added; the running turn counts from now."""
        async with self.lock:
            self._check_running("the turn timer is set here")
            options = check_options({"turn_timer": seconds}, self.rec.options)
            had = self.rec.options["turn_timer"]
            self.rec.options = options
            self._clocks().retime(options, fresh_reserve=had is None)
            await self._store.save_table(self.rec)
            self._reschedule(True)
            self._send_table()

    # --- a bot in a person's place, with everyone's consent ---------------------------------
    def _consenters(self, target: int, ask_target: bool) -> list[int]:
        """The people whose consent seating a bot for ``target`` needs: every person seated
        but those who abandoned the match themselves, and the one replaced only when they
        are asked (they were present when it was proposed)."""
        abandoned = self._clocks().abandoned
        return [s.position for s in self._seats if s.is_person
                and (s.position != target or ask_target)
                and (not abandoned[s.position] or s.position == target)]

    def _present(self, position: int) -> bool:
        """The seat's person is here: a socket to the table, or another page of the site
        open (they can still answer)."""
        seat = self._seats[position]
        return bool(seat.conns) or seat.elsewhere

    def proposal_info(self) -> dict[str, Any] | None:
        """The proposed bot seating for the table summary (None: none is proposed)."""
        if self._proposal is None or not self.running:
            return None
        target, agreed, ask_target = self._proposal
        if not ask_target and self._present(target):
            # Back while the others were asked: from now on the seat is theirs to answer
            # for too (and stays so), never given away under a present person.
            ask_target = True
            self._proposal = (target, agreed, True)
        people = self._consenters(target, ask_target)
        return {"seat": target, "accepted": sorted(p for p in people if p in agreed),
                "waiting": [p for p in people if p not in agreed]}

    async def propose_bot(self, host: Seat, position: int) -> None:
        """The host proposes that a bot plays seat ``position`` for the rest of the match
        (the host's consent is given by proposing); it happens once all asked consent.
        A present person is asked; an away one at a rated table is the absence rules'."""
        async with self.lock:
            self._check_running("a bot takes a person's seat")
            if not 0 <= position < len(self._seats):
                raise ProtocolError("bad_seats", f"there is no seat {position}", field="seat")
            seat = self._seats[position]
            if not seat.is_person or seat is host:
                raise ProtocolError("bad_seats", f"seat {position} holds no other person; a "
                                    "bot takes the seat of another person only", field="seat")
            if position in self._clocks().replaced:
                raise ProtocolError("bad_seats", f"a bot plays seat {position} already",
                                    field="seat")
            # Presence is checked before abandonment: one who came back after the
            # absence rules gave up on them plays on, and is asked too.
            present = self._present(position)
            gone = self._clocks().abandoned[position]
            if not present and not gone and self.rec.rated:
                name = seat.rec.name or f"seat {position}"
                raise ProtocolError(
                    "rated_away", f"{name} is away from a rated table, where the absence "
                    "rules decide for an away person: the seat waits for them until their "
                    "grace runs out (the table's absence option then applies); a bot is "
                    "not seated by the others' vote, which would count them last")
            self._proposal = (position, {host.position}, present)
            await self._bot_if_agreed()

    async def consent_bot(self, seat: Seat, position: int, consent: bool) -> None:
        """A person answers the proposal for seat ``position``: consent, or decline (the
        proposal is dropped, one no is enough, and everyone hears whose no it was)."""
        async with self.lock:
            info = self.proposal_info()
            if info is None or info["seat"] != position:
                raise ProtocolError("no_proposal", f"no bot is proposed for seat {position} "
                                    "now; the host proposes one during a match")
            if seat.position not in info["waiting"] + info["accepted"]:
                raise ProtocolError("bad_seats", "your consent is not asked for this",
                                    field="seat")
            assert self._proposal is not None
            if not consent:
                self._proposal = None
                self.audience.push_all(dumps({"type": "bot_declined", "table": self.rec.id,
                                              "seat": position, "by": seat.position}))
                self._send_table()
                return
            self._proposal[1].add(seat.position)
            await self._bot_if_agreed()

    async def _bot_if_agreed(self) -> None:
        info = self.proposal_info()
        if info is None or info["waiting"]:
            self._send_table()
            return
        target = self._seats[info["seat"]]
        self._proposal = None
        self._clocks().replace_with_bot(target.position)
        target.hand_to_bot(True)
        # Nobody holds the new token: the replaced person's old one stops working.
        target.rec.token_hash = hash_token(new_token())
        await self._store.save_seat(self.rec.id, target.rec)
        await self._save_clocks(False)
        target.close_all(4001, "replaced", "a bot plays your seat for the rest of the "
                         "match, as everyone asked agreed")
        self._reschedule(True)
        self._send_table()
