"""A live table: the rules of play for one table, each change stored and then announced.

A room holds its parts, each in its own module and each given what it works on (the
table's record, lock, seats, store, the room's match and clocks, and the room's calls it
makes back), none reaching into another:

* the lobby's rules (:mod:`.seating`, ``room.seating``): seats, the host role, settings
  between matches;
* the end of a hole or a match (:mod:`.finish`, ``room.finish``): the break before the
  next hole, the rematch invitation;
* the host's tools for a slow turn (:mod:`.patience`, ``room.patience``): nudge, a turn
  timer mid-match, a bot in a person's place;
* what clients are told (:mod:`.telling`, ``room.telling``): the table, state, welcome,
  history and clock frames;
* the moves the room makes by itself (:mod:`.autopilot`, ``room.autopilot``) and the
  Hint's coach (:mod:`.coach`, ``room.coach``);
* the match (:mod:`.match`, the engine bridge's client: the room never touches the
  engine itself), the connections (:mod:`.audience`), the clocks (:mod:`.clocks`) and
  the store (:mod:`golf.server.storage.store`: every change is written before anyone
  hears of it).

All changes to one table run under the table's lock, one at a time. An accepted action
is played by the match, written to the database in the transaction that acknowledges
it, and only then announced: each receiver gets one ``state`` frame with the new
version, the engine's event for it and its view. If the write fails, the match is
rebuilt from what is stored, so the table is as it was.

Time-driven moves (bots, the turn timer, the absence policy) are planned by
:meth:`Room.reschedule` after every change (:mod:`.autopilot`).

The room knows nothing of the hub that holds it: it gets the store and the server's
:class:`Lifecycle` (is the server shutting down?).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ...errors import GolfError, IllegalAction, NotationError
from ..core.protocol import ProtocolError, RefusedWithState
from ..core.tokens import new_seed
from ..storage.errors import Behind, Fenced, Unavailable
from ..storage.records import MatchRecord, TableRecord
from ..storage.store import Store
from .audience import Audience, Client, Seat, dumps
from .autopilot import Autopilot
from .clocks import HOLE_BREAK, Clocks, Plan, clock_key
from .coach import Coach
from .finish import Finish
from .match import BY_BOT, BY_STAND_IN, LiveMatch, runs
from .patience import Patience
from .seating import DEFAULT_OPTIONS, Changes, Seating, check_options, table_rules
from .telling import Telling

__all__ = ["DEFAULT_OPTIONS", "Changes", "Client", "Lifecycle", "Room", "Seat",
           "check_options"]

log = logging.getLogger("golf.server")

class Lifecycle:
    """What a room needs to know about its server process: whether it is shutting
    down (then no new time-driven move is planned and nobody inherits the host role),
    and how long the break between two holes lasts at most (``golf serve --hole-break``)."""

    def __init__(self, hole_break: float = HOLE_BREAK,
                 behind: Callable[[str], None] | None = None) -> None:
        self._draining = False
        self.break_length = hole_break
        #: Called with a table's id when its copy here proved behind the database
        #: (storage.errors.Behind): the hub gives the table up, to be read again.
        self.behind = behind

    @property
    def draining(self) -> bool:
        return self._draining

    def drain(self) -> None:
        """The server begins to shut down."""
        self._draining = True


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
        #: Given up by its process (its lease lost or handed over): it makes no move any
        #: more, not even one that was waiting for its lock.
        self.gone = False
        self.record: MatchRecord | None = rec.current
        self.live: LiveMatch | None = None
        self.clocks = Clocks(self.options, len(self._seats), life.break_length)
        self.telling = Telling(
            rec, self._seats, self.audience, chat, live=self._live, record=self._record,
            clocks=self._clocks, rematch=lambda: self.finish.rematch_info(),
            proposal=lambda: self.patience.proposal_info())
        self.seating = Seating(
            rec, self.lock, self._seats, store, live=self._live, clocks=self._clocks,
            send_table=self.telling.send_table, reschedule=self.reschedule,
            save_clocks=self.save_clocks, rewelcome=self.telling.rewelcome)
        self.finish = Finish(
            rec, self.lock, self._seats, store, self.audience, live=self._live,
            record=self._record, clocks=self._clocks, reschedule=self.reschedule,
            telling=self.telling, next_hole=self._next_hole, apply=self.seating.apply,
            start=self._start)
        self.patience = Patience(
            rec, self.lock, self._seats, store, self.audience, live=self._live,
            clocks=self._clocks, reschedule=self.reschedule, send_table=self.telling.send_table,
            save_clocks=self.save_clocks)
        self.coach = Coach(rec, self.lock, live=self._live,
                           keeps_peeks=self.telling.keeps_peeks)
        self.autopilot = Autopilot(
            rec.id, self.lock, plan=self.plan, fire=self._fire,
            draining=lambda: life.draining, clock=lambda: self.clocks.clock,
            send_clock=self.telling.send_clock)
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

    def _record(self) -> MatchRecord | None:
        return self.record

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
        return runs(self.rec.status, self.live)

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

    # --- what clients are told (telling.py) ------------------------------------------------
    def summary(self, host_view: bool = False) -> dict[str, Any]:
        return self.telling.summary(host_view)

    def state_for(self, seat: int | None, event: dict[str, Any] | None = None,
                  scoring: list[dict[str, Any] | None] | None = None) -> dict[str, Any]:
        return self.telling.state_for(seat, event, scoring)

    def show_peeks(self, seat: Seat, keep: bool) -> None:
        self.telling.show_peeks(seat, keep)

    def send_table(self) -> None:
        self.telling.send_table()

    async def here(self, seat: Seat) -> None:
        """The person of ``seat`` has another page of the site open (the lobby, a
        profile) and the table is still theirs to open: while they say so, their absence
        grace never runs out (it starts again when it would)."""
        async with self.lock:
            was = seat.elsewhere
            seat.mark_seen_elsewhere()
            if not was and self.running:
                self.send_table()

    def _next_hole(self) -> None:
        """The break is over: plan the next move and give everyone the state again."""
        self.reschedule()
        self.audience.send_each(self.state_for)

    # --- connections ---------------------------------------------------------------------
    def attach(self, client: Client) -> None:
        """A client said hello (the lock is held)."""
        seat = client.seat
        if seat is None:
            self.audience.watch(client)
            self.telling.greet(client)
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
        self.telling.greet(client)
        if returning:
            self.send_table()
            if clock_key(before) != clock_key(self.clocks.clock):
                self.telling.send_clock()

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
        self.telling.add_chat(line)
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
            rules = table_rules(self.rec)
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
        self.clocks = Clocks(self.options, len(self._seats), self._life.break_length)
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
        # Asked twice on every action: a list's count, not a generator.
        started = self.clocks.absence_started
        return self.options["turn_timer"] is not None or started.count(None) < len(started)

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
        if self.gone:
            # The table is another process's now: if this process took it back since,
            # its lease would let this old copy write.
            raise Fenced(self.id)
        # Before the move changes the match: a write refused now must not cost a rebuild.
        self._store.writable(self.id)
        index = live.version
        was = self._current_turn()
        try:
            turn = live.play(action)
        except NotationError as e:
            raise ProtocolError("bad_action", str(e)) from None
        except (IllegalAction, GolfError) as e:
            raise ProtocolError("illegal_action", str(e)) from None
        # Who abandoned is settled with the result and stored with it: the table, the
        # rating, the replay and the profiles then read one answer.
        result = live.result(None, self.telling.memory(), self.finish.leavers(),
                             [*m.by, by]) if live.is_over else None
        try:
            # The commit is the acknowledgement (append_action shields the write: a
            # cancelled caller does not cancel it).
            await self._store.append_action(self.id, m.id, index, str(turn.action), by,
                                            result)
        except BaseException as e:
            # Not stored: the table goes back to what the database holds.
            self.live = self._restore(m, think=True)
            if isinstance(e, Behind) and self._life.behind is not None:
                # Or stored after all, and this copy is behind the database: read again.
                self._life.behind(self.id)
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
            self.finish.begin_break()
            await self._after_move(self.finish.save_break(), "the hole break")
        if self._current_turn() != was and (mattered or self._clocks_matter()):
            # A new turn's clocks are stored, so that a crash does not reset them.
            await self._after_move(self.save_clocks(final=False), "the clocks")
        self.reschedule()
        self.telling.announce(by, event, scoring)
        if result is not None:
            self.send_table()
            await self.finish.rate(m)

    async def _after_move(self, write: Awaitable[None], what: str) -> None:
        """A write that follows a stored move (the lock is held). If the database went
        away in between, the move still stands and is announced: it is stored, and a
        refusal would tell its player that nothing was. What this write keeps is then
        as it was last stored (the clocks go on from their last save after a restart)."""
        try:
            await write
        except Unavailable:
            log.warning("table %s: %s not stored after a move: the server cannot reach "
                        "its database", self.id, what)

    # --- time-driven moves ---------------------------------------------------------------
    def plan(self) -> Plan | None:
        """The next move the server makes by itself (and the clock clients see)."""
        self.clocks.stop()
        if not self.running or self.gone:
            # Gone: its clients leaving after it was given up must not plan a move that
            # would only be refused.
            return None
        live = self.live
        assert live is not None and live.to_act is not None
        seat = self._seats[live.to_act]
        mover = BY_BOT if seat.is_server_bot else BY_STAND_IN if seat.stand_in else None
        return self.clocks.plan(self.version, seat.position, mover, seat.has_conns,
                                self.options["absence"] == "wait")

    def reschedule(self, announce: bool = False) -> None:
        """Plan the next time-driven move (autopilot.py)."""
        self.autopilot.reschedule(announce)

    async def _fire(self, p: Plan) -> None:
        live = self.live
        assert live is not None and live.to_act is not None
        # Nothing decided (a bot's move is CPU work) for a write that would be refused.
        self._store.writable(self.id)
        seat = self._seats[live.to_act]
        if p.kind == "next_hole":  # nobody closed the hole-end dialog in time
            was = self.clocks.break_state()
            self.clocks.end_break()
            # Not stored: the break goes on, and the retry plans the next hole again
            # (it planned the next hole's first turn, nobody was told of the new hole,
            # and a table of people stood still for good).
            await self.finish.save_break(was)
            self._next_hole()
        elif p.kind in (BY_BOT, BY_STAND_IN):
            action = await asyncio.to_thread(live.decide, p.kind)
            await self._play(action, p.kind)
        elif p.kind == "timeout":
            await self._play(live.timeout_move(), "timeout")
        elif seat.elsewhere:
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
                await self.finish.end_for_absence(seat)
            else:
                self.reschedule(announce=True)

    # --- shutting down -------------------------------------------------------------------
    def cancel_timers(self) -> None:
        self.autopilot.cancel()
        self.seating.cancel()

    async def settle(self) -> None:
        """Wait until no planned move is running (used when draining)."""
        async with self.lock:
            pass

    def leave(self) -> None:
        """This process gives the table up (its lease lost or handed over): no move of its
        own any more, not even one waiting for the lock, and its clients are told to
        reconnect (the proxy brings them to the table's holder)."""
        self.gone = True
        self.cancel_timers()
        self.close_clients(1012, "reconnect", "this table moved to another server process; "
                           "reconnect")

    def close_clients(self, code: int, reason: str, message: str) -> None:
        self.audience.close_all(code, reason, message)

