"""A live table: the rules of the lobby and of play for one table, each change stored
and then announced.

A room puts together these parts, each in its own module:

* the lobby's rules (:mod:`.seating`): seats, the host role, settings between matches;
* the match (:mod:`.match`): a :class:`golf.table.Table` with its bots;
* the connections and broadcasting (:mod:`.audience`): seats, spectators, frames;
* the clocks (:mod:`.clocks`): turn timer, absence grace, bot pace, the next
  time-driven move;
* persistence (:mod:`golf.server.storage.store`): every change is written before anyone hears of it.

All changes to one table run under the table's lock, one at a time. An accepted action
is played by the match, written to the database in the transaction that acknowledges
it, and only then announced: each receiver gets one ``state`` frame with the new
version, the engine's event for it and its view. If the write fails, the match is
rebuilt from what is stored, so the table is as it was.

Time-driven moves (bots, the turn timer, the absence policy) are planned by
:meth:`Room.reschedule` after every change. A planned move is a task that sleeps, then
re-checks under the lock that the table is still where it was planned for, so a move
that lost a race does nothing.

The room knows nothing of the hub that holds it: it gets the store and the server's
:class:`Lifecycle` (is the server shutting down?).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import GolfError, IllegalAction, NotationError
from ...rules import Rules, preset_rules
from ..core import bridge
from ..core.protocol import PROTOCOL, ProtocolError
from ..core.tokens import new_seed
from ..ratings import rating_service
from ..storage.store import MatchRecord, Store, TableRecord
from .audience import Audience, Client, Seat, dumps
from .clocks import Clocks, Plan, clock_key
from .finish import Finish
from .match import BY_BOT, BY_STAND_IN, LiveMatch
from .patience import Patience
from .seating import DEFAULT_OPTIONS, Changes, Seating, bot_numbers, check_options

__all__ = ["DEFAULT_OPTIONS", "Changes", "Client", "Lifecycle", "Room", "Seat",
           "check_options"]

log = logging.getLogger("golf.server")

#: Seconds a time-driven move may fire early (timer granularity).
SLACK = 0.02
#: Chat lines a (re)joining client receives.
CHAT_HISTORY = 50
#: Seconds a person counts as on another page of the site after saying so
#: (``POST /api/tables/{id}/here``; a page says it every 20 s).
HERE_FOR = 45.0
class Lifecycle:
    """What a room needs to know about its server process: whether it is shutting
    down (then no new time-driven move is planned and nobody inherits the host role)."""

    def __init__(self) -> None:
        self._draining = False

    @property
    def draining(self) -> bool:
        return self._draining

    def drain(self) -> None:
        """The server begins to shut down."""
        self._draining = True


class RefusedWithState(ProtocolError):
    """A refused action, answered with the receiver's current state."""

    def __init__(self, e: ProtocolError, state: dict[str, Any]) -> None:
        super().__init__(e.code, e.message, e.field)
        self.state = state


class Room:
    """One table: its seats, its match, its clocks; every move. The lobby's rules are its
    :attr:`seating`, the end of a hole or match its :attr:`finish`, the host's tools for a
    slow turn its :attr:`patience`: parts given what they work on, calling back the room
    where a change needs the whole table (to tell it, to plan the next move)."""

    def __init__(self, rec: TableRecord, store: Store, life: Lifecycle,
                 chat: Iterable[dict[str, Any]] = ()) -> None:
        self.rec = rec
        self._store = store
        self._life = life
        # A table stored before an option existed shows that option's default.
        rec.options = {**DEFAULT_OPTIONS, **rec.options}
        self._seats = [Seat(s) for s in rec.seats]
        self.audience = Audience(lambda: self._seats)
        self.lock = asyncio.Lock()
        self.record: MatchRecord | None = rec.current
        self.live: LiveMatch | None = None
        self.clocks = Clocks(self.options, len(self._seats))
        self._timer: asyncio.Task[None] | None = None
        self._coach: Any = None
        self._public: tuple[int, dict[str, Any]] | None = None  # (version, public view)
        #: Seats whose player keeps their peeked cards shown (the page's display setting);
        #: the others, at a memory-mode table, are shown them only until their first draw.
        self._peeks_shown: set[int] = set()
        #: The last chat lines (as stored), oldest first.
        self._chat: deque[dict[str, Any]] = deque(chat, maxlen=CHAT_HISTORY)
        self.seating = Seating(
            rec, self.lock, self._seats, store, live=self._live, clocks=self._clocks,
            send_table=self.send_table, reschedule=self.reschedule,
            save_clocks=self.save_clocks, rewelcome=self._rewelcome)
        self.finish = Finish(
            rec, self.lock, self._seats, store, live=self._live, clocks=self._clocks,
            reschedule=self.reschedule, send_table=self.send_table,
            send_clock=self._send_clock, next_hole=self._next_hole,
            apply=self.seating.apply, start=self._start)
        self.patience = Patience(
            rec, self.lock, self._seats, store, self.audience, live=self._live,
            clocks=self._clocks, reschedule=self.reschedule, send_table=self.send_table,
            save_clocks=self.save_clocks)
        if self.record is not None:
            self.live = self._restore(self.record, think=rec.status == "playing")
            self._new_clocks()
            if rec.clocks is not None and rec.status == "playing":
                self.clocks.restore(rec.clocks, self._current_turn())
                for position in self.clocks.replaced:
                    self._seats[position].hand_to_bot(True)
            self.finish.restore_pending(rec)

    def _restore(self, m: MatchRecord, think: bool) -> LiveMatch:
        """The stored match rebuilt; with ``think`` its bots are shown every decision
        they made (a running match goes on as it would have), else not (a finished
        match only needs its positions)."""
        bots = self._bot_specs() if think else {}
        return LiveMatch.restore(m.rules, m.players, m.seed, bots, m.actions,
                                 m.by if think else [""] * len(m.actions))

    def _bot_specs(self) -> dict[int, str]:
        return {s.position: s.rec.bot or "medium" for s in self._seats if s.is_server_bot}

    def _live(self) -> LiveMatch | None:
        return self.live

    def _clocks(self) -> Clocks:
        return self.clocks

    # --- facts -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def options(self) -> dict[str, Any]:
        return self.rec.options

    @property
    def version(self) -> int:
        return self.live.version if self.live else 0

    @property
    def status(self) -> str:
        return self.rec.status

    @property
    def running(self) -> bool:
        return self.rec.status == "playing" and self.live is not None and \
            not self.live.is_over

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self._seats)

    @property
    def host(self) -> int:
        return self.rec.host

    def seat_of(self, token_hash: str) -> Seat | None:
        return next((s for s in self._seats if s.rec.token_hash == token_hash), None)

    def free_seats(self) -> int:
        return sum(not s.taken for s in self._seats)

    def connections(self) -> int:
        return self.audience.connections()

    def _rules(self) -> Rules:
        """The table's rules: its preset (a shipped name; never a file, not even for a
        table stored by an older server that took paths) with its overrides."""
        return preset_rules(self.rec.preset, self.rec.overrides or None)

    # --- what clients are told ---------------------------------------------------------
    def summary(self, host_view: bool = False) -> dict[str, Any]:
        r = self.rec
        out: dict[str, Any] = {
            "id": r.id, "title": r.title, "status": r.status, "preset": r.preset,
            "rules": r.overrides, "public": r.public, "options": r.options, "host": r.host,
            "seats": [self._seat_info(s) for s in self._seats],
            "spectators": self.audience.spectators, "match": r.match,
            "watch_url": f"/watch/{r.id}", "rated": r.rated, "memory": self._memory(),
            "casual_reason": self._casual_reason() if r.rated else None,
            "rematch": self.finish.rematch_info(),
            "bot_proposal": self.patience.proposal_info(),
        }
        if host_view:
            out["invite"] = r.invite
            out["invite_url"] = f"/join/{r.invite}"
        return out

    def _memory(self) -> bool:
        """Whether the table plays memory mode (bridge.memory_mode): its rules hide
        a seat's peeked cards after its first draw and the table does not keep them shown.
        The table's rule, told to everyone; at a casual table a player may still keep
        their own peeks shown (:meth:`keeps_peeks`)."""
        try:
            rules = self._rules()
        except GolfError:
            return False
        return bridge.memory_mode(rules, bool(self.options["show_peeked"]))

    def _casual_reason(self) -> str | None:
        """Why this rated table's next match would not be rated (seats or rules changed
        since it was created), or None."""
        try:
            rules = self._rules()
        except GolfError as e:
            return str(e)
        return rating_service.casual_reason_for(rules, [(s.rec.kind, s.rec.bot)
                                                        for s in self._seats])

    def _seat_info(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.position, "kind": s.rec.kind, "name": s.rec.name, "bot": s.rec.bot,
                # "Easy bot 2": the bot's number among its level's at this table (seating).
                "bot_number": bot_numbers([x.rec for x in self._seats]).get(s.position),
                "taken": s.taken, "connected": s.connected,
                "away": self.running and not s.connected, "stand_in": s.stand_in,
                "abandoned": self._abandoned(s), "elsewhere": self._elsewhere(s)}

    def _elsewhere(self, s: Seat) -> bool:
        """The person has no connection to the table but has another page of the site
        open (``here``): they are not taken for absent."""
        return s.is_person and not s.conns and not s.stand_in and \
            time.monotonic() - s.seen_elsewhere < HERE_FOR

    async def here(self, seat: Seat) -> None:
        """The person of ``seat`` has another page of the site open (the lobby, a
        profile) and the table is still theirs to open: while they say so, their absence
        grace never runs out (it starts again when it would)."""
        async with self.lock:
            was = self._elsewhere(seat)
            seat.mark_seen_elsewhere()
            if not was and self.running:
                self.send_table()

    def _abandoned(self, s: Seat) -> bool:
        """Whether this seat's person abandoned the match (left for good, or their grace
        ran out): a rated match counts them last, whatever happens after."""
        marks = self.clocks.abandoned
        return self.live is not None and self.rec.status != "waiting" and \
            s.rec.kind == "human" and s.position < len(marks) and marks[s.position]

    def state_for(self, seat: int | None, event: dict[str, Any] | None = None,
                  scoring: list[dict[str, Any] | None] | None = None) -> dict[str, Any]:
        """The ``state`` frame for a seat (None: spectators): the version, the view and,
        after an action, the engine's event for that receiver (docs/protocol.md)."""
        live, m = self.live, self.record
        assert live is not None and m is not None
        # A seat's view as it is shown: after the first draw, at a memory-mode table, its
        # peeked cards never leave the server again unless it keeps them shown.
        view = self._public_view() if seat is None else \
            live.view(seat, self.keeps_peeks(seat))
        return {"type": "state", "table": self.id, "match": m.number,
                "version": live.version, "view": view, "legal_actions": view["legal_actions"],
                # Between holes nobody is on turn yet (finish.py).
                "your_turn": bool(view["legal_actions"]) and not self.clocks.breaking,
                "clock": self.clocks.clock,
                "event": event, "scoring": scoring}

    def keeps_peeks(self, seat: int) -> bool:
        """Whether ``seat`` is shown the cards it peeked at after its first draw: the
        table option ``show_peeked`` (the same for everyone, in the table frame), or at a
        casual table the player's own display setting. At a rated table memory mode is
        the table's rule, which no player's display setting undoes."""
        return bool(self.options["show_peeked"]) or (
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
        live = self.live
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
            "type": "welcome", "protocol": PROTOCOL, "table": self.id, "seat": pos,
            "role": role, "host": pos is not None and pos == self.rec.host,
            "muted": [] if seat is None else seat.rec.muted}))
        client.push(dumps({"type": "table", "table": self.summary()}))
        if self.live is not None:
            client.push(dumps(self.state_for(pos)))
        client.push(dumps(self.history_for(seat)))

    def history_for(self, seat: Seat | None) -> dict[str, Any]:
        """What a (re)joining receiver missed: the last chat lines it may see, the
        match's moves so far rendered for it, and for a person a stand-in played for,
        where "while you were away" starts (docs/protocol.md, ``history``)."""
        pos = None if seat is None else seat.position
        muted = set() if seat is None else set(seat.rec.muted)
        chat = [{"type": "chat", **line} for line in self._chat if line["seat"] not in muted]
        live, m = self.live, self.record
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
        live, m = self.live, self.record
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

    def _announce(self, by: str, event: Any, scoring: list[dict[str, Any] | None] | None
                  ) -> None:
        """One frame per receiver after an action: its view and its event."""
        def frame(seat: int | None) -> dict[str, Any]:
            return self.state_for(seat, {**event.to_dict(seat), "by": by}, scoring)
        self.audience.send_each(frame)

    def _next_hole(self) -> None:
        """The break is over: plan the next move and give everyone the state again."""
        self.reschedule()
        self.audience.send_each(self.state_for)

    def _send_clock(self) -> None:
        if self.record is None:
            return
        self.audience.push_all(dumps({"type": "clock", "match": self.record.number,
                                      "version": self.version, "clock": self.clocks.clock}))

    def _rewelcome(self, seats: Sequence[Seat]) -> None:
        for s in seats:
            for c in s.conns:
                self.greet(c)

    # --- connections ---------------------------------------------------------------------
    def attach(self, client: Client) -> None:
        """A client said hello (the lock is held)."""
        seat = client.seat
        if seat is None:
            self.audience.watch(client)
            self.greet(client)
            self.send_table()
            return
        returning = seat.add(client)
        before = self.clocks.clock
        if returning:
            seat.hand_to_bot(False)
            if self.live is not None:
                self.clocks.returned(seat.position)
            if seat.position == self.rec.host:
                self.seating.host_back()
            # Planned before the greeting: its state shows no absence clock for this seat.
            self.reschedule()
        self.greet(client)
        if returning:
            self.send_table()
            if clock_key(before) != clock_key(self.clocks.clock):
                self._send_clock()

    def detach(self, client: Client) -> None:
        """A client's socket closed (the lock is held)."""
        seat = client.seat
        if seat is None:
            if self.audience.unwatch(client):
                self.send_table()
            return
        if not seat.remove(client):
            return
        self.send_table()
        self.finish.left_break(seat)
        if seat.position == self.rec.host and not self._life.draining:
            self.seating.host_left(seat)
        self.reschedule(announce=True)

    async def chat(self, seat: Seat, text: str, at: int) -> None:
        """A chat line from ``seat``: stored with the table, then sent to everyone who
        has not muted it. (No table lock: a line need not wait for a bot's move.)"""
        line = {"seat": seat.position, "name": seat.rec.name, "text": text, "time": at}
        await self._store.add_chat(self.id, seat.position, seat.rec.name, text, at)
        self._chat.append(line)
        self.audience.chat(seat.position, dumps({"type": "chat", **line}))

    # --- starting --------------------------------------------------------------------------
    async def start(self) -> None:
        """The host starts the first match."""
        async with self.lock:
            self.seating.check_waiting()
            await self._start()

    async def _start(self) -> None:
        """Start match ``match + 1`` with the seats as they are (the lock is held)."""
        open_seats = [s.position for s in self._seats if not s.taken]
        if open_seats:
            raise ProtocolError("seats_open", "seats " + ", ".join(map(str, open_seats))
                                + " wait for people; share the invite, remove the seats or "
                                "make them bots")
        try:
            rules = self._rules()
        except GolfError as e:
            raise ProtocolError("bad_rules", f"this table's rules cannot be played: {e}",
                                field="preset") from None
        try:
            rules.check_players(len(self._seats))
        except GolfError as e:
            raise ProtocolError("bad_seats", str(e)) from None
        seed = new_seed()
        self.rec.match += 1
        self.rec.status = "playing"
        names = [s.rec.name or f"Seat {s.position}" for s in self._seats]
        self.record = await self._store.start_match(self.rec, rules.to_dict(),
                                                    len(self._seats), seed, names)
        self.live = LiveMatch.new(rules, len(self._seats), seed, self._bot_specs())
        self._new_clocks()
        self.reschedule()
        self.send_table()
        self.audience.send_each(self.state_for)

    def _new_clocks(self) -> None:
        for s in self._seats:
            s.hand_to_bot(False)
        self.clocks = Clocks(self.options, len(self._seats))
        self._track_turn()

    def _current_turn(self) -> tuple[int, int] | None:
        """The running turn: (hole, seat to act), None once the match is over."""
        live = self.live
        seat = None if live is None else live.to_act
        return None if live is None or seat is None else (live.hole, seat)

    def _track_turn(self) -> None:
        self.clocks.track_turn(self._current_turn())

    def _clocks_matter(self) -> bool:
        """True if a clock of this match can run out: a turn timer, or someone away."""
        return self.options["turn_timer"] is not None or any(
            t is not None for t in self.clocks.absence_started)

    async def save_clocks(self, final: bool) -> None:
        """Store the running match's clocks (``final``: the server is shutting down)."""
        if self.running:
            await self._store.save_clocks(self.id, self.clocks.snapshot(final))

    # --- playing -----------------------------------------------------------------------
    async def act(self, client: Client, version: int, text: str) -> None:
        """A client's action (raises ProtocolError for the sender only)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators watch; only seated players act")
        async with self.lock:
            if self.live is None or self.record is None or self.rec.status == "waiting":
                raise ProtocolError("not_started", "the match has not started; the host "
                                    "starts it from the waiting room")
            if self.live.is_over or self.rec.status != "playing":
                raise ProtocolError("match_over", "the match is over; the host may start a "
                                    "rematch")
            if version != self.version:
                raise RefusedWithState(ProtocolError(
                    "stale_version", f"the action was made on version {version}, but the "
                    f"state is at version {self.version}; here is the current state"),
                    self.state_for(seat.position))
            self.finish.refuse_in_break()  # no state with it: the next hole's comes soon
            if self.live.to_act != seat.position:
                raise RefusedWithState(ProtocolError(
                    "not_your_turn", f"it is seat {self.live.to_act}'s turn, not "
                    f"yours (seat {seat.position}); wait for your turn"),
                    self.state_for(seat.position))
            try:
                await self._play(text, "player")
            except ProtocolError as e:
                raise RefusedWithState(e, self.state_for(seat.position)) from None

    async def _play(self, action: Any, by: str) -> None:
        """Play, store, then announce one action (the lock is held)."""
        live, m = self.live, self.record
        assert live is not None and m is not None
        index = live.version
        was = self._current_turn()
        try:
            turn = live.play(action)
        except NotationError as e:
            raise ProtocolError("bad_action", str(e)) from None
        except (IllegalAction, GolfError) as e:
            raise ProtocolError("illegal_action", str(e)) from None
        result = live.result(None, self._memory()) if live.is_over else None
        try:
            # The commit is the acknowledgement (append_action shields the write: a
            # cancelled caller does not cancel it).
            await self._store.append_action(self.id, m.id, index, str(turn.action), by,
                                            result)
        except BaseException:
            # Not stored: the table goes back to what the database holds.
            self.live = self._restore(m, think=True)
            raise
        m.actions.append(str(turn.action))
        m.by.append(by)
        self.clocks.moved()
        if result is not None:
            self.rec.status = m.status = "finished"
            m.result = result
        mattered = self._clocks_matter()
        self._track_turn()
        scoring = live.explained(event := turn.event)  # type: ignore[arg-type]
        if scoring is not None and result is None:
            self.finish.hole_ended()
            await self.finish.save_break()
        if self._current_turn() != was and (mattered or self._clocks_matter()):
            # A new turn's clocks are stored, so that a crash does not reset them.
            await self.save_clocks(final=False)
        self.reschedule()
        self._announce(by, event, scoring)
        if result is not None:
            self.send_table()
            await self._rate(m)

    async def _end_for_absence(self, seat: Seat) -> None:
        live, m = self.live, self.record
        assert live is not None and m is not None
        reason = f"seat {seat.position} ({seat.rec.name}) did not come back"
        result = live.result(reason, self._memory())
        await asyncio.shield(self._store.end_match(self.id, m.id, result, "ended"))
        self.rec.status = m.status = "ended"
        m.result = result
        self.clocks.stop()
        event: dict[str, Any] = {"seat": seat.position, "action": None, "by": "absence",
                                 "ended": reason, "facts": []}
        self.audience.send_each(lambda receiver: self.state_for(receiver, event))
        self.send_table()
        await self._rate(m)

    async def _rate(self, m: MatchRecord) -> None:
        """A rated table's match ended: rate it and tell everyone (the ``rating`` frame).
        A person abandoned it if they are gone and no grace is left for them (they left,
        or the absence policy took over and they did not come back)."""
        if not self.rec.rated or self.live is None or m.result is None:
            return
        # Abandonment sticks: a stand-in never plays a rated match to its end for a person
        # whose grace ran out, even if they looked in again before the end.
        seats = [rating_service.SeatAtEnd(
            s.position, s.rec.kind, s.rec.bot,
            s.rec.kind == "human" and (self._abandoned(s) or (
                not s.conns and self.clocks.grace_left[s.position] <= 0)))
            for s in self._seats]
        frame = await rating_service.rate_finished(self._store, self.id, m.id, m.number,
                                                   self.live.rules, seats, m.result)
        self.audience.push_all(dumps(frame))

    # --- time-driven moves ---------------------------------------------------------------
    def plan(self) -> Plan | None:
        """The next move the server makes by itself (and the clock clients see)."""
        self.clocks.stop()
        if not self.running:
            return None
        live = self.live
        assert live is not None and live.to_act is not None
        seat = self._seats[live.to_act]
        mover = BY_BOT if seat.is_server_bot else BY_STAND_IN if seat.stand_in else None
        return self.clocks.plan(self.version, seat.position, mover, bool(seat.conns),
                                self.options["absence"] == "wait")

    def reschedule(self, announce: bool = False) -> None:
        """Plan the next time-driven move (cancelling a planned one that has not fired)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        before = self.clocks.clock
        p = self.plan()
        if p is not None and not self._life.draining:
            self._timer = asyncio.create_task(self._fire_at(p))
        if announce and clock_key(before) != clock_key(self.clocks.clock):
            self._send_clock()

    async def _fire_at(self, p: Plan) -> None:
        await asyncio.sleep(max(0.0, p.at - time.monotonic()))
        self._timer = None  # fired: from here on a reschedule must not cancel this task
        try:
            async with self.lock:
                now = time.monotonic()
                q = self.plan()
                if q is None or q.kind != p.kind or q.version != p.version or \
                        q.at > now + SLACK:
                    self.reschedule()
                    return
                await self._fire(q)
        except Exception:  # a failed automatic move must not kill the table
            log.exception("table %s: automatic %s move failed", self.id, p.kind)

    async def _fire(self, p: Plan) -> None:
        live = self.live
        assert live is not None and live.to_act is not None
        seat = self._seats[live.to_act]
        if p.kind == "next_hole":  # nobody closed the hole-end dialog in time
            self.clocks.end_break()
            await self.finish.save_break()
            self._next_hole()
        elif p.kind in (BY_BOT, BY_STAND_IN):
            action = await asyncio.to_thread(live.decide, p.kind)
            await self._play(action, p.kind)
        elif p.kind == "timeout":
            await self._play(live.timeout_move(), "timeout")
        elif self._elsewhere(seat):
            # On another page of the site, the table still theirs to open: not absent.
            # Their grace starts again; the host has the nudge, the timer and the bot.
            self.clocks.returned(seat.position)
            self.reschedule(announce=True)
        else:  # the absence grace ran out: the person abandoned the match
            self.clocks.gave_up(seat.position)
            # Stored at once: a restart must not forget an abandonment.
            await self.save_clocks(final=False)
            policy = self.options["absence"]
            if policy == "bot":
                seat.hand_to_bot(True)
                self.send_table()
                self.reschedule(announce=True)
            elif policy == "end":
                await self._end_for_absence(seat)
            else:
                self.reschedule(announce=True)

    async def hint(self, client: Client, version: int) -> dict[str, Any]:
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for hints")
        if self.rec.rated:
            # No expert advice where a rating is at stake (docs/ratings.md).
            raise ProtocolError("rated_table", "the Hint is off at rated tables: a rating "
                                "measures the players, not the coach")
        async with self.lock:
            live = self.live
            if not self.running or live is None:
                raise ProtocolError("not_started", "hints are given during a match")
            if live.to_act != seat.position:
                raise ProtocolError("not_your_turn", "hints are given on your own turn")
            if self._coach is None:
                self._coach = bridge.new_bot(bridge.coach_for(live.rules, live.players),
                                             live.rules, 0)
            view = live.coach_view(seat.position, self.keeps_peeks(seat.position))
            legal = live.legal_actions()
            coach = self._coach
        options = await asyncio.to_thread(coach.explain, view, legal)
        if options:
            out = [{"action": str(o.action), "expected": round(o.expected, 2),
                    "reason": o.reason,
                    "value": None if o.value is None else round(o.value, 2),
                    "parts": [[what, round(points, 2)] for what, points in o.parts]}
                   for o in options]
        else:
            out = [{"action": str(await asyncio.to_thread(coach.choose, view, legal))}]
        return {"type": "hint", "version": version, "options": out}

    # --- shutting down -------------------------------------------------------------------
    def cancel_timers(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.seating.cancel()

    async def settle(self) -> None:
        """Wait until no planned move is running (used when draining)."""
        async with self.lock:
            pass

    def close_clients(self, code: int, reason: str, message: str) -> None:
        self.audience.close_all(code, reason, message)

