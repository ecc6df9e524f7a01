"""The hub: every live table of this server process, loaded on demand.

Unfinished tables are loaded at start (their bots and clocks must run); finished ones
when someone asks for them. Tables are found by id, seat tokens and invite codes are
looked up in the database, so a restarted process finds everything again. A finished or
ended table nobody is connected to leaves memory once nobody has asked for it for
``keep_finished`` seconds (:meth:`Hub.sweep`); the next request loads it again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .protocol import ProtocolError
from .room import CHAT_HISTORY, Lifecycle, Room
from .store import Store, TableRecord
from .tokens import hash_token

log = logging.getLogger("golf.server")


class Hub:
    def __init__(self, store: Store, keep_finished: float = 600.0) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        #: Shared with every room: whether the server is shutting down.
        self.life = Lifecycle()
        self.started = time.time()
        self.keep_finished = keep_finished
        self._loading = asyncio.Lock()
        self._asked: dict[str, float] = {}  # table id -> when it was last looked up

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
        return len(idle)

    async def load_unfinished(self) -> int:
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

    async def room(self, table_id: Any) -> Room:
        room = await self.get(table_id)
        if room is None:
            raise ProtocolError("no_table", f"there is no table {str(table_id)[:40]!r}; "
                                "check the link, or create a table")
        return room

    async def add(self, rec: TableRecord) -> Room:
        await self.store.create_table(rec)
        room = self.rooms[rec.id] = Room(rec, self.store, self.life)
        self._asked[rec.id] = time.monotonic()
        return room

    async def by_invite(self, code: Any) -> Room:
        table_id = await self.store.table_of_invite(code) if isinstance(code, str) and \
            len(code) <= 64 else None
        room = await self.get(table_id) if table_id else None
        if room is None:
            raise ProtocolError("bad_invite", "this invite code leads to no table; ask the "
                                "host for a new link")
        return room

    async def by_token(self, token: str) -> tuple[Room, int] | None:
        found = await self.store.table_of_token(hash_token(token))
        if found is None:
            return None
        room = await self.get(found[0])
        return None if room is None else (room, found[1])

    def connections(self) -> int:
        return sum(r.connections() for r in self.rooms.values())

    async def drain(self) -> None:
        """Stop planned moves, let running ones finish, and close every socket with
        the reason ``reconnect``."""
        self.life.drain()
        for room in self.rooms.values():
            room.cancel_timers()
        for room in list(self.rooms.values()):
            await room.settle()
            # The clocks stand still until the server is back (see clocks.Clocks.restore).
            try:
                await room.save_clocks(final=True)
            except Exception:  # a failed write must not keep the others from closing
                log.exception("table %s: its clocks could not be saved", room.id)
            room.close_clients(1012, "reconnect", "the server is restarting; reconnect")
