"""What a room tells its clients: the table frame, each receiver's ``state`` frame, the
welcome and the history a (re)joining client gets, the clock (docs/protocol.md).

:class:`Telling` is a part of :class:`golf.server.tables.room.Room` (``room.telling``), as
:mod:`.seating` is: it is given the table's record, its seats and audience, the last chat
lines, the room's match and clocks (read when asked) and where the offered rematch and
the proposed bot seating are told from (:mod:`.finish`, :mod:`.patience`). It builds
frames and sends them; it changes nothing at the table but its own caches and the seats'
display settings (:meth:`Telling.show_peeks`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import GolfError
from ..core import bridge
from ..core.protocol import PROTOCOL
from ..ratings import rating_service
from .audience import Audience, Client, Seat, dumps
from .match import BY_STAND_IN, LiveMatch, runs
from .seating import bot_numbers, table_rules

if TYPE_CHECKING:
    from ..storage.records import MatchRecord, TableRecord
    from .clocks import Clocks

__all__ = ["CHAT_HISTORY", "Telling"]

#: Chat lines a (re)joining client receives.
CHAT_HISTORY = 50


class Telling:
    """The frames of one room, built from its record, its seats and its match."""

    def __init__(self, rec: TableRecord, seats: list[Seat], audience: Audience,
                 chat: Iterable[dict[str, Any]], *, live: Callable[[], LiveMatch | None],
                 record: Callable[[], MatchRecord | None], clocks: Callable[[], Clocks],
                 rematch: Callable[[], dict[str, Any] | None],
                 proposal: Callable[[], dict[str, Any] | None]) -> None:
        self.rec = rec
        self._seats = seats
        self.audience = audience
        self._live = live
        self._record = record
        self._clocks = clocks
        self._rematch = rematch
        self._proposal = proposal
        self._public: tuple[int, dict[str, Any]] | None = None  # (version, public view)
        #: Seats whose player keeps their peeked cards shown (the page's display setting);
        #: the others, at a memory-mode table, are shown them only until their first draw.
        self._peeks_shown: set[int] = set()
        #: The last chat lines (as stored), oldest first.
        self._chat: deque[dict[str, Any]] = deque(chat, maxlen=CHAT_HISTORY)

    @property
    def running(self) -> bool:
        """A match runs (the room's :attr:`~golf.server.tables.room.Room.running`)."""
        return runs(self.rec.status, self._live())

    def add_chat(self, line: dict[str, Any]) -> None:
        """A chat line was stored: (re)joining clients get it with the history."""
        self._chat.append(line)

    def summary(self, host_view: bool = False) -> dict[str, Any]:
        r = self.rec
        out: dict[str, Any] = {
            "id": r.id, "title": r.title, "status": r.status, "preset": r.preset,
            "rules": r.overrides, "public": r.public, "options": r.options, "host": r.host,
            "seats": [self._seat_info(s) for s in self._seats],
            "spectators": self.audience.spectators, "match": r.match,
            "watch_url": f"/watch/{r.id}", "rated": r.rated, "memory": self.memory(),
            **(self._casual() if r.rated else {"casual_reason": None, "casual_cause": None}),
            "rematch": self._rematch(),
            "bot_proposal": self._proposal(),
        }
        if host_view:
            out["invite"] = r.invite
            out["invite_url"] = f"/join/{r.invite}"
        return out

    def memory(self) -> bool:
        """Whether the table plays memory mode (bridge.memory_mode): its rules hide
        a seat's peeked cards after its first draw and the table does not keep them shown.
        The table's rule, told to everyone; at a casual table a player may still keep
        their own peeks shown (:meth:`keeps_peeks`)."""
        try:
            rules = table_rules(self.rec)
        except GolfError:
            return False
        return bridge.memory_mode(rules, bool(self.rec.options["show_peeked"]))

    def _casual(self) -> dict[str, Any]:
        """The summary's ``casual_reason``: why this rated table's next match would not be
        rated (seats or rules changed since it was created), None when it would; and
        ``casual_cause``, the same as data a page words in its own language."""
        try:
            rules = table_rules(self.rec)
        except GolfError as e:  # rules the engine refuses are not a preset's unchanged
            return {"casual_reason": str(e), "casual_cause": {"reason": "house_rules"}}
        kinds = [(s.rec.kind, s.rec.bot) for s in self._seats]
        return {"casual_reason": rating_service.casual_reason_for(rules, kinds),
                "casual_cause": rating_service.casual_cause_for(rules, kinds)}

    def _seat_info(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.position, "kind": s.rec.kind, "name": s.rec.name, "bot": s.rec.bot,
                # "Easy bot 2": the bot's number among its level's at this table (seating).
                "bot_number": bot_numbers([x.rec for x in self._seats]).get(s.position),
                "taken": s.taken, "connected": s.connected,
                "away": self.running and not s.connected, "stand_in": s.stand_in,
                "abandoned": self.abandoned(s), "elsewhere": s.elsewhere}

    def abandoned(self, s: Seat) -> bool:
        """Whether this seat's person abandoned the match (left for good, or their grace
        ran out): a rated match counts them last, whatever happens after. Once the match
        is over, as its stored result says (the rating's answer, after a restart too)."""
        m = self._record()
        if m is not None and m.result is not None and "abandoned" in m.result:
            return s.rec.kind == "human" and s.position in m.result["abandoned"]
        marks = self._clocks().abandoned
        return self._live() is not None and self.rec.status != "waiting" and \
            s.rec.kind == "human" and s.position < len(marks) and marks[s.position]

    def state_for(self, seat: int | None, event: dict[str, Any] | None = None,
                  scoring: list[dict[str, Any] | None] | None = None) -> dict[str, Any]:
        """The ``state`` frame for a seat (None: spectators): the version, the view and,
        after an action, the engine's event for that receiver (docs/protocol.md)."""
        live, m = self._live(), self._record()
        assert live is not None and m is not None
        clocks = self._clocks()
        # A seat's view as it is shown: after the first draw, at a memory-mode table, its
        # peeked cards never leave the server again unless it keeps them shown.
        view = self._public_view() if seat is None else \
            live.view(seat, self.keeps_peeks(seat))
        return {"type": "state", "table": self.rec.id, "match": m.number,
                "version": live.version, "view": view, "legal_actions": view["legal_actions"],
                # Between holes nobody is on turn yet (finish.py).
                "your_turn": bool(view["legal_actions"]) and not clocks.breaking,
                "clock": clocks.clock,
                "event": event, "scoring": scoring}

    def keeps_peeks(self, seat: int) -> bool:
        """Whether ``seat`` is shown the cards it peeked at after its first draw: the
        table option ``show_peeked`` (the same for everyone, in the table frame), or at a
        casual table the player's own display setting. At a rated table memory mode is
        the table's rule, which no player's display setting undoes."""
        return bool(self.rec.options["show_peeked"]) or (
            not self.rec.rated and seat in self._peeks_shown)

    def show_peeks(self, seat: Seat, keep: bool) -> None:
        """Whether this seat's player keeps the cards they peeked at shown after their first
        draw (a display setting of theirs; the table option ``show_peeked`` keeps them for
        everyone)."""
        if keep:
            self._peeks_shown.add(seat.position)
        else:
            self._peeks_shown.discard(seat.position)

    def _public_view(self) -> dict[str, Any]:
        """The public view of the current state, built once per version and only when a
        spectator receives it."""
        live = self._live()
        assert live is not None
        if self._public is None or self._public[0] != live.version:
            self._public = (live.version, live.public_view())
        return self._public[1]

    def send_table(self) -> None:
        self.audience.push_all(dumps({"type": "table", "table": self.summary()}))

    def greet(self, client: Client) -> None:
        """Welcome a client that just said hello: who it is, the table, the state."""
        seat = client.seat
        role = "spectator" if seat is None else ("bot" if seat.rec.kind == "external"
                                                  else "player")
        pos = None if seat is None else seat.position
        client.push(dumps({
            "type": "welcome", "protocol": PROTOCOL, "table": self.rec.id, "seat": pos,
            "role": role, "host": pos is not None and pos == self.rec.host,
            "muted": [] if seat is None else seat.rec.muted}))
        client.push(dumps({"type": "table", "table": self.summary()}))
        if self._live() is not None:
            client.push(dumps(self.state_for(pos)))
        client.push(dumps(self.history_for(seat)))

    def history_for(self, seat: Seat | None) -> dict[str, Any]:
        """What a (re)joining receiver missed: the last chat lines it may see, the
        match's moves so far rendered for it, and for a person a stand-in played for,
        where "while you were away" starts (docs/protocol.md, ``history``)."""
        pos = None if seat is None else seat.position
        muted = set() if seat is None else set(seat.rec.muted)
        chat = [{"type": "chat", **line} for line in self._chat if line["seat"] not in muted]
        live, m = self._live(), self._record()
        log: list[dict[str, Any]] = []
        if live is not None and m is not None:
            log = [{"version": v, "hole": hole, "event": {**event.to_dict(pos), "by": by}}
                   for v, ((_seat, hole, event), by) in
                   enumerate(zip(live.played(), m.by, strict=False), 1)]
        return {"type": "history", "match": None if m is None else m.number, "chat": chat,
                "log": log, "away_since": self._away_since(pos)}

    def _away_since(self, pos: int | None) -> int | None:
        """The version after this seat's last own move, when a stand-in bot played for
        it since (None: nothing was played for it). Read from who played each stored
        action, so it holds after a restart too."""
        live, m = self._live(), self._record()
        if pos is None or live is None or m is None:
            return None
        since, stood_in = 0, False
        for v, ((seat, _hole, _event), by) in enumerate(zip(live.played(), m.by,
                                                                strict=False), 1):
            if seat != pos:
                continue
            if by == BY_STAND_IN:
                stood_in = True
            else:
                since, stood_in = v, False
        return since if stood_in else None

    def announce(self, by: str, event: Any, scoring: list[dict[str, Any] | None] | None
                  ) -> None:
        """One frame per receiver after an action: its view and its event."""
        def frame(seat: int | None) -> dict[str, Any]:
            return self.state_for(seat, {**event.to_dict(seat), "by": by}, scoring)
        self.audience.send_each(frame)

    def send_clock(self) -> None:
        live, m = self._live(), self._record()
        if m is None:
            return
        self.audience.push_all(dumps({"type": "clock", "match": m.number,
                                      "version": live.version if live else 0,
                                      "clock": self._clocks().clock}))

    def rewelcome(self, seats: Sequence[Seat]) -> None:
        for s in seats:
            for c in s.conns:
                self.greet(c)
