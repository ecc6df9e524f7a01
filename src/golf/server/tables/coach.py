"""The Hint: the coach's advice for the seat to act, sent back as a ``hint`` frame
(docs/protocol.md). The coach is the strongest measured bot that explains within its
budget (:func:`golf.server.core.bridge.coach_for`), built once per room; it advises from
the view the seat is shown (at a memory-mode table, never from a peeked card the seat no
longer sees). A room asks it only at a casual table, on the asker's own turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...bots.base import Bot
from ..core import bridge
from ..core.protocol import ProtocolError
from ..storage.records import TableRecord
from .audience import Seat
from .match import LiveMatch, runs

__all__ = ["Coach", "Question"]


@dataclass(frozen=True)
class Question:
    """What the coach is asked: its bot, the seat's view and the legal actions."""

    bot: Bot
    view: dict[str, Any]
    legal: Sequence[Action]

    async def answer(self, version: int) -> dict[str, Any]:
        """The ``hint`` frame: each option explained, or the bot's one choice when it
        does not explain (thought over in a worker thread, the table's lock not held)."""
        options = await asyncio.to_thread(self.bot.explain, self.view, self.legal)
        if options:
            out = [{"action": str(o.action), "expected": round(o.expected, 2),
                    "reason": o.reason,
                    "value": None if o.value is None else round(o.value, 2),
                    "parts": [[what, round(points, 2)] for what, points in o.parts]}
                   for o in options]
        else:
            choice = await asyncio.to_thread(self.bot.choose, self.view, self.legal)
            out = [{"action": str(choice)}]
        return {"type": "hint", "version": version, "options": out}


class Coach:
    """One room's coach, built on the first hint asked for.

    A part of the room (``room.coach``), given the table's record and lock, the room's
    match (read when asked) and whether a seat keeps its peeked cards shown."""

    def __init__(self, rec: TableRecord, lock: asyncio.Lock, *,
                 live: Callable[[], LiveMatch | None],
                 keeps_peeks: Callable[[int], bool]) -> None:
        self.rec = rec
        self.lock = lock
        self._live = live
        self._keeps_peeks = keeps_peeks
        self._bot: Bot | None = None

    async def hint(self, seat: Seat | None, version: int) -> dict[str, Any]:
        """The ``hint`` frame for ``seat``'s own turn (ProtocolError for a spectator, at
        a rated table, before a match or on another's turn)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for hints")
        if self.rec.rated:
            # No expert advice where a rating is at stake (docs/ratings.md).
            raise ProtocolError("rated_table", "the Hint is off at rated tables: a rating "
                                "measures the players, not the coach")
        async with self.lock:
            live = self._live()
            if not runs(self.rec.status, live) or live is None:
                raise ProtocolError("not_started", "hints are given during a match")
            if live.to_act != seat.position:
                raise ProtocolError("not_your_turn", "hints are given on your own turn")
            question = self.question(live, seat.position, self._keeps_peeks(seat.position))
        return await question.answer(version)

    def question(self, live: LiveMatch, seat: int, keep_peeks: bool) -> Question:
        """What to ask about ``seat``'s turn (under the table's lock: the match stands
        still while the view is built)."""
        if self._bot is None:
            self._bot = bridge.new_bot(bridge.coach_for(live.rules, live.players),
                                       live.rules, 0)
        return Question(self._bot, live.coach_view(seat, keep_peeks), live.legal_actions())
