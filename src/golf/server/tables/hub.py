"""The hub: every live table of this server process, loaded on demand.

Unfinished tables are loaded at start (their bots and clocks must run); finished ones
when someone asks for them. Tables are found by id, seat tokens and invite codes are
looked up in the database, so a restarted process finds everything again. A finished or
ended table nobody is connected to leaves memory once nobody has asked for it for
``keep_finished`` seconds (:meth:`Hub.sweep`); the next request loads it again.

With several processes on one PostgreSQL database (:mod:`golf.server.cluster.lease`), a
process loads a table only once it holds the table's lease (:meth:`Hub._claim`), gives it
up when another process asks for it or took it (:meth:`Hub.give_up`), and reads without
taking for the lobby's lists (:meth:`Hub.peek`, :meth:`Hub.open_tables`); see
docs/server.md, "Design of a cluster".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..cluster.lease import Leases
from ..cluster.notify import MIN_HOLD
from ..core.protocol import ProtocolError
from ..core.tokens import hash_token
from ..storage.errors import Fenced, Unavailable
from ..storage.records import TableRecord
from ..storage.store import Store
from .clocks import HOLE_BREAK
from .room import Lifecycle, Room
from .telling import CHAT_HISTORY

log = logging.getLogger("golf.server")
#: Seconds a request for a table another process holds waits for it (lease expiry or
#: handover) before it is refused with ``try_again``.
CLAIM_WAIT = 8.0
#: Orphaned tables one scan takes over at most (the next scan takes the next ones).
ORPHANS_PER_SCAN = 10
#: Shortest pause between attempts to take such a lease (the longest is four times it).
CLAIM_POLL = 0.05


class Hub:
    def __init__(self, store: Store, keep_finished: float = 600.0,
                 leases: Leases | None = None,
                 ask_handover: Callable[[str], Awaitable[None]] | None = None,
                 hole_break: float = HOLE_BREAK) -> None:
        self.store = store
        #: Set when several processes share the database (golf.server.cluster.lease); the hub
        #: then loads a table only once it holds its lease (see docs/server.md).
        self.leases = leases if leases is not None and leases.enabled else None
        #: Called with a table id to ask its current holder to hand it over.
        self.ask_handover = ask_handover
        self.rooms: dict[str, Room] = {}
        #: Shared with every room: whether the server is shutting down, the longest break
        #: between two holes, and (where leases let another process read a table again)
        #: what to do with a copy that proved behind the database.
        self.life = Lifecycle(hole_break,
                              behind=self._behind if self.leases is not None else None)
        self.started = time.time()
        self.keep_finished = keep_finished
        self._loading = asyncio.Lock()
        # table id -> its loading lock and how many wait for it (cluster)
        self._claims: dict[str, tuple[asyncio.Lock, int]] = {}
        self._asked: dict[str, float] = {}  # table id -> when it was last looked up
        # Tables given up because their copy here proved behind the database, or because
        # a write found their lease another process's.
        self._rereads: set[asyncio.Task[None]] = set()
        if self.leases is not None:
            store.on_fenced(self._fenced)
        self._drained: asyncio.Task[None] | None = None

    def _behind(self, table_id: str) -> None:
        """A table's copy here is behind the database (a move of its was stored although
        its commit's answer was lost, so this copy lacks it): give it up, with its lease,
        so that its clients reconnect and the next claim reads it as stored. Without
        this the table refused every move until the process stopped: each one met the
        stored move's key. A task: the room's lock is held by the move that found out."""
        if table_id not in self.rooms:
            return
        log.warning("golf server: table %s is behind the database (a commit's answer was "
                    "lost); reading it again", table_id)
        self._later(self.give_up(table_id, release=True))

    def _fenced(self, table_id: str) -> None:
        """A write of a table was refused because its lease is another process's now (the
        store's callback): give the table up at once, its clients sent on, rather than go
        on playing a copy that the database has left behind until a renewal notices."""
        leases = self.leases
        if leases is None or table_id not in self.rooms:
            return  # given up already
        leases.forget(table_id)
        log.warning("golf server: table %s was taken over by another process (a write "
                    "was refused)", table_id)
        self._later(self.give_up(table_id, release=False))

    def _later(self, work: Awaitable[None]) -> None:
        """Run ``work`` on a task of its own, kept until it ends."""
        task = asyncio.ensure_future(work)
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)

    def retry_now(self) -> None:
        """This process reaches the database again (its leases renewed after failing):
        every table whose automatic move is waiting to be tried again tries it now. The
        pause between tries doubles up to 2 s while the database is away, and a local
        refusal (golf.server.cluster.lease.Leases.precheck) fails at once, so without
        this most tables waited most of 2 s after the return."""
        for room in list(self.rooms.values()):
            # A room whose lock is held is in the middle of a move, and plans its next
            # one when it ends.
            if room.autopilot.failures and not room.lock.locked():
                room.reschedule()

    @property
    def draining(self) -> bool:
        return self.life.draining

    def sweep(self) -> int:
        """Forget finished and ended tables that nobody is connected to and nobody has
        asked for in ``keep_finished`` seconds (they stay in the database); returns how
        many. A request that still holds such a room was made before that time, so
        dropping it cannot give one table two live rooms."""
        now = time.monotonic()
        idle = [tid for tid, room in self.rooms.items()
                if room.rec.status in ("finished", "ended") and room.connections() == 0
                and now - self._asked.get(tid, 0.0) >= self.keep_finished]
        for tid in idle:
            del self.rooms[tid]
            self._asked.pop(tid, None)
            if self.leases is not None:
                # Kept in the database while this process lives: given back when another
                # process asks for it (handover_requested).
                self.leases.forget(tid)
        return len(idle)

    async def load_unfinished(self) -> int:
        if self.leases is not None:
            # Before serving: its own tables from before a restart and any orphans, all.
            total = 0
            while n := await self.adopt_orphans(grace=self.leases.ttl):
                total += n
            return total
        ids = await self.store.unfinished_ids()
        for table_id in ids:
            room = await self.get(table_id)
            if room is not None:
                room.reschedule()
        return len(ids)

    async def get(self, table_id: Any) -> Room | None:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            return None
        self._asked[table_id] = time.monotonic()
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if self.leases is not None:
            return await self._claim(table_id, wait=CLAIM_WAIT)
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                rec = await self.store.load(table_id)
                if rec is None:
                    return None
                chat = await self.store.recent_chat(table_id, CHAT_HISTORY)
                room = self.rooms[table_id] = Room(rec, self.store, self.life, chat)
        self._asked[table_id] = time.monotonic()
        return room

    # --- many processes (golf.server.cluster.lease) -----------------------------------------------
    async def _claim(self, table_id: str, wait: float) -> Room | None:
        """Load a table this process does not hold: take its lease (waiting up to
        ``wait`` seconds for it to expire or be handed over), then read it from the
        database, which has every move its last holder stored."""
        leases = self.leases
        assert leases is not None
        # One deadline for the whole claim, the wait for another request's claim of the
        # same table included: a request queued behind one that waited its CLAIM_WAIT
        # and was refused is refused too, not after a CLAIM_WAIT of its own (every hello
        # is answered within the documented bound).
        deadline = time.monotonic() + wait
        lock, users = self._claims.get(table_id, (asyncio.Lock(), 0))
        self._claims[table_id] = (lock, users + 1)
        try:
            if wait > 0:
                try:
                    await asyncio.wait_for(lock.acquire(), timeout=wait)
                except TimeoutError:
                    raise ProtocolError("try_again", f"table {table_id} is still played by "
                                        "another server process; try again in a "
                                        "moment") from None
            else:
                await lock.acquire()
            try:
                room = self.rooms.get(table_id)
                if room is not None:
                    return room
                try:
                    if not await self._take_lease(leases, table_id,
                                                  max(0.0, deadline - time.monotonic())):
                        return None
                    rec = await self.store.load(table_id)
                    chat = await self.store.recent_chat(table_id, CHAT_HISTORY) \
                        if rec is not None else []
                except ProtocolError:
                    raise
                except Exception:
                    leases.forget(table_id)
                    raise Unavailable() from None
                if rec is None:
                    leases.forget(table_id)
                    return None
                if not leases.holds(table_id):
                    # Handed over or lost while it loaded: a room without its lease would
                    # refuse every write and never be dropped.
                    raise ProtocolError("try_again", f"table {table_id} moved to another "
                                        "server process while it loaded; try again")
                room = self.rooms[table_id] = Room(rec, self.store, self.life, chat)
                # Its bots and clocks run here now.
                room.reschedule()
                return room
            finally:
                lock.release()
        finally:
            # The lock goes once nobody waits for it (a second lock for the same table
            # could load it twice).
            lock, users = self._claims[table_id]
            if users == 1:
                del self._claims[table_id]
            else:
                self._claims[table_id] = (lock, users - 1)

    async def _take_lease(self, leases: Leases, table_id: str, wait: float) -> bool:
        """The lease, once free (asking its holder to hand it over each second); False
        if there is no such table; ProtocolError try_again if it stays held."""
        began = time.monotonic()
        deadline = began + wait
        asked = 0.0
        while True:
            if await leases.acquire(table_id) is not None:
                if (waited := time.monotonic() - began) > 0.5:
                    log.info("golf server: table %s taken over after %.2f s", table_id,
                             waited)
                return True
            left = await leases.remaining(table_id)
            if left is None:
                return False
            now = time.monotonic()
            if now >= deadline:
                raise ProtocolError("try_again", f"table {table_id} is still played by "
                                    "another server process; try again in a moment")
            if self.ask_handover is not None and now - asked >= 1.0:
                asked = now
                await self.ask_handover(table_id)
            # Until the lease runs out (a dead holder), but look again soon: a holder
            # asked to hand over releases it early.
            await asyncio.sleep(min(max(left, CLAIM_POLL), 4 * CLAIM_POLL))

    async def adopt_orphans(self, grace: float) -> int:
        """Take the playing tables nobody holds (their process died, or this node's own
        from before a restart), so that their bots and clocks run; how many."""
        leases = self.leases
        if leases is None or self.draining:
            return 0
        n = 0
        # A few at a time: rebuilding a table is CPU work on the event loop, and a loop
        # busy for a TTL would let this process's own leases run out.
        for table_id in await leases.orphans(grace, limit=ORPHANS_PER_SCAN):
            with contextlib.suppress(ProtocolError):
                if await self._claim(table_id, wait=0) is not None:
                    n += 1
            await asyncio.sleep(0)
        return n

    async def give_up(self, table_id: str, release: bool) -> None:
        """Stop playing a table here: its planned moves stop, its clients are told to
        reconnect (the proxy brings them to its next holder) and, with ``release``
        (a handover), its clocks are stored and the lease given back at once; without
        (the lease was lost), nothing more is written."""
        leases = self.leases
        room = self.rooms.get(table_id)
        if leases is None:
            return
        if room is not None and not release:
            # Lost: nothing of it may be written any more, so nothing need wait for the
            # move in progress (its lock may be held by a write waiting on the database
            # for seconds): its clients go on to the table's holder now. That move's write
            # is refused (the lease is forgotten) and the room, gone, makes no other.
            leases.forget(table_id)
            self._drop(room)
        elif room is not None:
            async with room.lock:
                room.cancel_timers()
                try:
                    await room.save_clocks(final=True)
                except (Fenced, Unavailable) as e:
                    # The clocks then go on from their last save (lost meanwhile: the
                    # holder's are the ones that count).
                    log.warning("table %s: its clocks were not saved when it was given "
                                "up (%s)", table_id, type(e).__name__)
                except Exception:
                    log.exception("table %s: its clocks could not be saved", table_id)
                leases.forget(table_id)
                self._drop(room)
        leases.forget(table_id)
        if release:
            await leases.release([table_id])

    def _drop(self, room: Room) -> None:
        """A room leaves this process: no move of its own any more, its clients told to
        reconnect (the proxy brings them to the table's holder)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        room.leave()

    async def handover_requested(self, table_id: str) -> None:
        """Another process asks for a table: give it up unless it just came here."""
        leases = self.leases
        if leases is None:
            return
        if table_id not in leases.held:
            # Not played here, but perhaps still this process's in the database (a finished
            # table swept from memory, a load that failed): a lease lives as long as its
            # process, so give it back (only if it is this process's).
            await leases.release([table_id])
            return
        if time.monotonic() - leases.since.get(table_id, 0.0) < MIN_HOLD:
            return
        await self.give_up(table_id, release=True)

    async def room(self, table_id: Any) -> Room:
        room = await self.get(table_id)
        if room is None:
            raise ProtocolError("no_table", f"there is no table {str(table_id)[:40]!r}; "
                                "check the link, or create a table")
        return room

    async def add(self, rec: TableRecord) -> Room:
        await self.store.create_table(rec)
        room = Room(rec, self.store, self.life)
        if self.leases is not None:
            # Not played here: the proxy sends the table's requests to the process its id
            # hashes to, which takes the (still free) lease on the first of them.
            return room
        self.rooms[rec.id] = room
        self._asked[rec.id] = time.monotonic()
        return room

    async def by_invite(self, code: Any, read_only: bool = False) -> Room:
        """The table of an invite code (``read_only``: see :meth:`peek`)."""
        table_id = await self.store.table_of_invite(code) if isinstance(code, str) and \
            len(code) <= 64 else None
        find = self.peek if read_only else self.get
        room = await find(table_id) if table_id else None
        if room is None:
            raise ProtocolError("bad_invite", "this invite code leads to no table; ask the "
                                "host for a new link")
        return room

    async def by_token(self, token: str) -> tuple[Room, int] | None:
        found = await self.store.table_of_token(hash_token(token))
        if found is None:
            return None
        room = await self.peek(found[0])
        return None if room is None else (room, found[1])

    async def peek(self, table_id: str) -> Room | None:
        """A table to read, not to change: the live room when this process plays it,
        else (several processes) a copy read from the database that nobody plays and
        no client joins, so a read never moves a table between processes. Its seats show
        no connections (those are known only where the table is played)."""
        if self.leases is None or table_id in self.rooms:
            return await self.get(table_id)
        try:
            rec = await self.store.load(table_id)
        except Exception:
            raise Unavailable() from None
        return None if rec is None else Room(rec, self.store, self.life)

    async def open_tables(self) -> list[dict[str, Any]]:
        """The public tables waiting or playing: id, title, preset, status, seats, free,
        spectators. Several processes: read from the database (every process lists the
        same tables), spectators counted where the table is played here."""
        if self.leases is None:
            return [{"id": room.id, "title": room.rec.title, "preset": room.rec.preset,
                     "status": room.status, "seats": len(room.seats),
                     "free": room.free_seats(), "spectators": room.audience.spectators,
                     "rated": room.rec.rated}
                    for room in self.rooms.values()
                    if room.rec.public and room.status in ("waiting", "playing")]
        try:
            rows = await self.store.open_tables()
        except Exception:
            raise Unavailable() from None
        for row in rows:
            room = self.rooms.get(row["id"])
            row["spectators"] = room.audience.spectators if room is not None else 0
        return rows

    def connections(self) -> int:
        return sum(r.connections() for r in self.rooms.values())

    async def drain(self) -> None:
        """Stop planned moves, let running ones finish, and close every socket with
        the reason ``reconnect``. Once: SIGTERM begins it (golf.server.serve) and the
        app's shutdown asks for it again, which then waits for the first."""
        if self._drained is None:
            self._drained = asyncio.ensure_future(self._drain())
        await asyncio.shield(self._drained)

    async def _put_down(self, room: Room) -> None:
        """Draining: the table's running move finished, its clocks stored, its clients
        told to reconnect."""
        await room.settle()
        # The clocks stand still until the server is back (see clocks.Clocks.restore).
        try:
            await room.save_clocks(final=True)
        except (Fenced, Unavailable) as e:  # lost meanwhile, or the database away
            log.warning("table %s: its clocks were not saved at shutdown (%s)",
                        room.id, type(e).__name__)
        except Exception:  # a failed write must not keep the others from closing
            log.exception("table %s: its clocks could not be saved", room.id)
        room.close_clients(1012, "reconnect", "the server is restarting; reconnect")

    async def _drain(self) -> None:
        self.life.drain()
        for room in self.rooms.values():
            room.cancel_timers()
        # Every table side by side: one after the other, each waiting for its own write,
        # a process holding 80 tables released their leases only after 6 s, and the
        # processes its clients reconnected to waited for them that long.
        await asyncio.gather(*(self._put_down(room) for room in list(self.rooms.values())))
        if self.leases is not None:
            # Given back now: the processes the clients reconnect to need not wait.
            try:
                await self.leases.release(list(self.leases.held))
            except Exception:  # they expire by themselves
                log.exception("golf server: leases could not be released")
