"""Replays of finished matches: the stored match, and its steps built once by the engine
bridge (:class:`golf.server.core.bridge.Replay`) and kept for the last
:data:`REPLAY_CACHE` matches asked for (stepping through a replay asks for the same match
again and again). A running match is never replayed.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from ..core import bridge
from ..core.protocol import ProtocolError
from ..storage.records import MatchRecord
from ..storage.store import Store
from .room import Room

__all__ = ["REPLAY_CACHE", "Replays", "finished_match"]

#: How many matches' replay steps are kept built.
REPLAY_CACHE = 32


async def finished_match(store: Store, room: Room, number: int) -> MatchRecord:
    """The stored match ``number`` of this table, once it is over (a replay never shows a
    running match): ``no_match`` or ``match_running`` otherwise."""
    m = await store.match(room.id, number)
    if m is None:
        raise ProtocolError("no_match", f"table {room.id} has no match {number}")
    if m.status == "playing":
        raise ProtocolError("match_running", "the replay is available once the match is "
                            "over")
    return m


class Replays:
    """The replay steps of the finished matches asked for lately, newest last."""

    def __init__(self, size: int = REPLAY_CACHE) -> None:
        self.size = size
        self._built: OrderedDict[tuple[str, int], bridge.Replay] = OrderedDict()

    async def steps(self, store: Store, room: Room, number: int) -> bridge.Replay:
        """The steps of the table's finished match ``number`` (built on a worker thread
        the first time)."""
        key = (room.id, number)
        if key in self._built:
            self._built.move_to_end(key)
            return self._built[key]
        m = await finished_match(store, room, number)
        rec = {"rules": m.rules, "players": m.players, "seed": m.seed, "actions": m.actions,
               "by": m.by}
        # The table's memory rule as the match was played (stored with its result; a
        # match stored before that: the table's option now, which changes only between
        # matches).
        memory = (m.result or {}).get("memory")
        keep = not memory if isinstance(memory, bool) else bool(room.options["show_peeked"])
        steps = self._built[key] = await asyncio.to_thread(bridge.Replay, rec, keep)
        while len(self._built) > self.size:
            self._built.popitem(last=False)
        return steps
