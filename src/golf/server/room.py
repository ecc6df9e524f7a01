"""A live table: its seats, connections, match, clocks and bots.

All changes to one table run under the table's lock, one at a time. An action is
applied to a clone of the game by the engine, written to the database, and only then
made current and announced: a failed write leaves the table as it was.

Time-driven moves (bots, the turn timer, the absence policy) are planned by
:meth:`Room.reschedule` after every change. A planned move is a task that sleeps, then
re-checks under the lock that the table is still where it was planned for, so a
move that lost a race does nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..bots.base import Bot
from ..errors import GolfError, IllegalAction, NotationError
from ..game import Game
from ..rules import Rules, load_rules
from . import bridge
from .protocol import ProtocolError, now_ms
from .store import MatchRecord, SeatRecord, TableRecord
from .tokens import new_seed

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("golf.server")
dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode

#: Seconds a time-driven move may fire early (timer granularity).
SLACK = 0.02
DEFAULT_OPTIONS: dict[str, Any] = {
    "bot_delay": 0.8, "absence": "bot", "grace": 60, "turn_timer": None, "reserve": 30,
    "show_peeked": False,
}


class Client(Protocol):
    """A connection as a room sees it (see ``sockets.Connection``)."""

    seat: Seat | None

    def push(self, text: str) -> None: ...
    def close_soon(self, code: int, reason: str, message: str) -> None: ...


class Seat:
    """One seat at run time: the stored record plus connections and clocks."""

    def __init__(self, rec: SeatRecord) -> None:
        self.rec = rec
        self.conns: set[Client] = set()
        self.grace_left = 0.0
        self.absence_started: float | None = None
        self.stand_in = False
        self.reserve_left = 0.0
        self.bot: Bot | None = None

    @property
    def position(self) -> int:
        return self.rec.position

    @property
    def taken(self) -> bool:
        return self.rec.kind != "human" or self.rec.token_hash is not None

    @property
    def is_server_bot(self) -> bool:
        return self.rec.kind == "bot"

    @property
    def connected(self) -> bool:
        return self.is_server_bot or bool(self.conns)


@dataclass(frozen=True)
class Plan:
    """The next time-driven move: what, for which version, and when."""

    kind: str  # bot | stand_in | timeout | absence
    version: int
    at: float  # time.monotonic()


def check_options(options: Any, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Table options merged over ``base`` and checked (ProtocolError bad_option).

    >>> check_options({"turn_timer": 20})["turn_timer"]
    20
    """
    if not isinstance(options, Mapping):
        raise ProtocolError("bad_option", "options are an object, e.g. "
                            '{"bot_delay": 0.8, "absence": "bot"}', field="options")
    # Defaults first: a table stored before an option existed gets its default.
    out = {**DEFAULT_OPTIONS, **(base or {})}
    for key, value in options.items():
        if key not in DEFAULT_OPTIONS:
            raise ProtocolError("bad_option", f"unknown option {key!r}; options are: "
                                + ", ".join(DEFAULT_OPTIONS), field=str(key))
        out[key] = value

    def number(key: str, lo: float, hi: float, none_ok: bool = False) -> None:
        v = out[key]
        if v is None and none_ok:
            return
        if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
            extra = " or null" if none_ok else ""
            raise ProtocolError("bad_option", f"{key} must be a number from {lo:g} to {hi:g}"
                                f"{extra}, got {dumps(v)}", field=key)

    number("bot_delay", 0, 5)
    number("grace", 1, 600)
    number("turn_timer", 1, 600, none_ok=True)
    number("reserve", 0, 600)
    if not isinstance(out["show_peeked"], bool):
        raise ProtocolError("bad_option", "show_peeked must be true or false, got "
                            f"{dumps(out['show_peeked'])}", field="show_peeked")
    if out["absence"] not in ("wait", "bot", "end"):
        raise ProtocolError("bad_option", "absence must be 'wait', 'bot' or 'end', got "
                            f"{dumps(out['absence'])}", field="absence")
    return out


class Room:
    def __init__(self, hub: Hub, rec: TableRecord) -> None:
        self.hub = hub
        self.rec = rec
        # A table stored before an option existed shows that option's default.
        rec.options = {**DEFAULT_OPTIONS, **rec.options}
        self.seats = [Seat(s) for s in rec.seats]
        self.spectators: set[Client] = set()
        self.lock = asyncio.Lock()
        self.game: Game | None = None
        self.match: MatchRecord | None = rec.current
        self.rules: Rules = self._rules()
        self._timer: asyncio.Task[None] | None = None
        self._host_task: asyncio.Task[None] | None = None
        self._turn: tuple[int, int] | None = None  # (hole, seat) whose turn runs
        self._turn_started = time.monotonic()
        self._changed = time.monotonic()
        self.clock: dict[str, Any] | None = None
        self._coach: Bot | None = None
        self._public: tuple[Game, dict[str, Any]] | None = None
        if self.match is not None:
            self.game = bridge.restore_game(self.match.rules, self.match.players,
                                            self.match.seed, self.match.actions)
            self.rules = self.game.rules
            self._reset_clocks()

    # --- facts -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def version(self) -> int:
        return len(self.game.history) if self.game else 0

    @property
    def running(self) -> bool:
        return self.rec.status == "playing" and self.game is not None and not self.game.is_over

    @property
    def options(self) -> dict[str, Any]:
        return self.rec.options

    def _rules(self) -> Rules:
        return load_rules(self.rec.preset, self.rec.overrides or None)

    def seat_of(self, token_hash: str) -> Seat | None:
        return next((s for s in self.seats if s.rec.token_hash == token_hash), None)

    def connections(self) -> int:
        return sum(len(s.conns) for s in self.seats) + len(self.spectators)

    # --- what clients are told ---------------------------------------------------------
    def summary(self, host_view: bool = False) -> dict[str, Any]:
        r = self.rec
        out: dict[str, Any] = {
            "id": r.id, "title": r.title, "status": r.status, "preset": r.preset,
            "rules": r.overrides, "public": r.public, "options": r.options, "host": r.host,
            "seats": [self._seat_info(s) for s in self.seats],
            "spectators": len(self.spectators), "match": r.match,
            "watch_url": f"/watch/{r.id}",
        }
        if host_view:
            out["invite"] = r.invite
            out["invite_url"] = f"/join/{r.invite}"
        return out

    def _seat_info(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.position, "kind": s.rec.kind, "name": s.rec.name, "bot": s.rec.bot,
                "taken": s.taken, "connected": s.connected,
                "away": self.running and not s.connected, "stand_in": s.stand_in}

    def state_for(self, seat: int | None) -> dict[str, Any]:
        assert self.game is not None and self.match is not None
        view = self.public() if seat is None else bridge.seat_view(self.game, seat)
        return {"type": "state", "table": self.id, "match": self.match.number,
                "version": self.version, "view": view, "legal_actions": view["legal_actions"],
                "your_turn": bool(view["legal_actions"]), "clock": self.clock}

    def public(self) -> dict[str, Any]:
        """The public view of the current state (kept until the next change)."""
        assert self.game is not None
        if self._public is None or self._public[0] is not self.game:
            self._public = (self.game, bridge.public_view(self.game))
        return self._public[1]

    def _table_message(self) -> dict[str, Any]:
        return {"type": "table", "table": self.summary()}

    def send_table(self) -> None:
        text = dumps(self._table_message())
        for c in self._all_clients():
            c.push(text)

    def _all_clients(self) -> list[Client]:
        return [c for s in self.seats for c in s.conns] + list(self.spectators)

    def greet(self, client: Client) -> None:
        """Welcome a client that just said hello: who it is, the table, the state."""
        seat = client.seat
        role = "spectator" if seat is None else ("bot" if seat.rec.kind == "external"
                                                  else "player")
        pos = None if seat is None else seat.position
        client.push(dumps({
            "type": "welcome", "protocol": 1, "table": self.id, "seat": pos, "role": role,
            "host": pos is not None and pos == self.rec.host,
            "muted": [] if seat is None else seat.rec.muted}))
        client.push(dumps(self._table_message()))
        if self.game is not None:
            client.push(dumps(self.state_for(pos)))

    def _broadcast_state(self, outcome: bridge.Outcome | None = None) -> None:
        assert self.match is not None
        for s in self.seats:
            if s.conns:
                self._send_update(s.conns, s.position, outcome)
        if self.spectators:
            self._send_update(self.spectators, None, outcome)

    def _send_update(self, clients: set[Client], seat: int | None,
                     outcome: bridge.Outcome | None) -> None:
        assert self.match is not None
        texts = []
        if outcome is not None:
            texts.append(dumps({"type": "event", "match": self.match.number,
                                     "version": self.version,
                                     "event": outcome.event_for(seat)}))
        texts.append(dumps(self.state_for(seat)))
        for c in list(clients):
            for t in texts:
                c.push(t)

    def _send_clock(self) -> None:
        if self.match is None:
            return
        text = dumps({"type": "clock", "match": self.match.number,
                           "version": self.version, "clock": self.clock})
        for c in self._all_clients():
            c.push(text)

    # --- connections ---------------------------------------------------------------------
    def attach(self, client: Client) -> None:
        seat = client.seat
        if seat is None:
            self.spectators.add(client)
            self.greet(client)
            self.send_table()
            return
        returning = not seat.conns
        seat.conns.add(client)
        before = self.clock
        if returning:
            seat.grace_left = float(self.options["grace"])
            seat.absence_started = None
            seat.stand_in = False
            if seat.position == self.rec.host and self._host_task:
                self._host_task.cancel()
                self._host_task = None
            # The absence clock stops before the greeting, so its state shows no clock
            # for the seat that just came; the others hear of it after.
            self.reschedule()
        self.greet(client)
        if returning:
            self.send_table()
            if _clock_key(before) != _clock_key(self.clock):
                self._send_clock()

    def detach(self, client: Client) -> None:
        seat = client.seat
        if seat is None:
            if client in self.spectators:
                self.spectators.discard(client)
                self.send_table()
            return
        if client not in seat.conns:
            return
        seat.conns.discard(client)
        if not seat.conns:
            self.send_table()
            if seat.position == self.rec.host and not self.hub.draining:
                self._host_task = asyncio.create_task(self._hand_over_later(seat))
            self.reschedule(announce=True)

    async def _hand_over_later(self, seat: Seat) -> None:
        await asyncio.sleep(float(self.options["grace"]))
        async with self.lock:
            if not seat.conns and seat.position == self.rec.host:
                await self._pass_host(exclude=seat)

    async def _pass_host(self, exclude: Seat) -> None:
        """Hand the host role to the next seated person, connected ones first."""
        people = [s for s in self.seats if s is not exclude and s.rec.kind == "human"
                  and s.taken]
        n = len(self.seats)
        people.sort(key=lambda s: (not s.conns, (s.position - exclude.position) % n))
        if people:
            self.rec.host = people[0].position
            await self.hub.store.save_table(self.rec)
            self._rewelcome(people[0])
            self.send_table()

    def _rewelcome(self, seat: Seat) -> None:
        for c in list(seat.conns):
            self.greet(c)

    # --- playing -----------------------------------------------------------------------
    async def act(self, client: Client, version: int, text: str) -> None:
        """A client's action (raises ProtocolError for the sender only)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators watch; only seated players act")
        async with self.lock:
            if self.game is None or self.match is None or self.rec.status == "waiting":
                raise ProtocolError("not_started", "the match has not started; the host "
                                    "starts it from the waiting room")
            if self.game.is_over or self.rec.status != "playing":
                raise ProtocolError("match_over", "the match is over; the host may start a "
                                    "rematch")
            if version != self.version:
                raise self._with_state(ProtocolError(
                    "stale_version", f"the action was made on version {version}, but the "
                    f"state is at version {self.version}; here is the current state"), seat)
            if self.game.current_player != seat.position:
                raise self._with_state(ProtocolError(
                    "not_your_turn", f"it is seat {self.game.current_player}'s turn, not "
                    f"yours (seat {seat.position}); wait for your turn"), seat)
            try:
                await self._play(text, "player")
            except ProtocolError as e:
                raise self._with_state(e, seat) from None

    def _with_state(self, e: ProtocolError, seat: Seat) -> ProtocolError:
        e.state = self.state_for(seat.position)  # type: ignore[attr-defined]
        return e

    async def _play(self, text: str | Any, by: str) -> None:
        """Apply, store, then announce one action (the lock is held)."""
        assert self.game is not None and self.match is not None
        g = self.game.clone()
        try:
            outcome = bridge.apply_and_describe(g, text, by)
        except NotationError as e:
            raise ProtocolError("bad_action", str(e)) from None
        except IllegalAction as e:
            raise ProtocolError("illegal_action", str(e)) from None
        except GolfError as e:
            raise ProtocolError("illegal_action", str(e)) from None
        index = len(self.game.history)
        result = self._result(g, None) if g.is_over else None
        # The commit is the acknowledgement: a cancelled caller must not leave the
        # database and the table apart, so the write is shielded.
        await asyncio.shield(self.hub.store.append_action(
            self.id, self.match.id, index, outcome.action, by, result))
        self.game = g
        self._public = (g, outcome.after)
        self.match.actions.append(outcome.action)
        self.match.by.append(by)
        self._changed = time.monotonic()
        if result is not None:
            self.rec.status = "finished"
            self.match.status = "finished"
            self.match.result = result
        self._track_turn()
        self.reschedule()
        self._broadcast_state(outcome)
        if result is not None:
            self.send_table()

    def _result(self, g: Game, ended: str | None) -> dict[str, Any]:
        return {"totals": g.totals, "winners": g.winners, "ended": ended,
                "hole_scores": g.hole_scores}

    async def start(self, rules_overrides: Mapping[str, Any] | None = None) -> None:
        """Start match ``match + 1`` with the seats as they are (the lock is held)."""
        open_seats = [s.position for s in self.seats if not s.taken]
        if open_seats:
            raise ProtocolError("seats_open", "seats " + ", ".join(map(str, open_seats))
                                + " wait for people; share the invite, remove the seats or "
                                "make them bots")
        rules = self._rules()
        try:
            rules.check_players(len(self.seats))
        except GolfError as e:
            raise ProtocolError("bad_seats", str(e)) from None
        seed = new_seed()
        self.rec.match += 1
        self.rec.status = "playing"
        names = [s.rec.name or f"Seat {s.position}" for s in self.seats]
        self.match = await self.hub.store.start_match(self.rec, rules.to_dict(),
                                                      len(self.seats), seed, names)
        self.rules = rules
        self.game = bridge.new_game(rules, len(self.seats), seed)
        self._changed = time.monotonic()
        self._reset_clocks()
        self.reschedule()
        self.send_table()
        self._broadcast_state()

    def _reset_clocks(self) -> None:
        for s in self.seats:
            s.grace_left = float(self.options["grace"])
            s.absence_started = None
            s.stand_in = False
            s.reserve_left = float(self.options["reserve"])
            s.bot = None
        self._turn = None
        self._track_turn()

    def _track_turn(self) -> None:
        """Notice a new turn (another seat or another hole): settle the last one's clocks."""
        g = self.game
        if g is None or g.current_player is None:
            self._turn = None
            return
        turn = (g.hole, g.current_player)
        if turn == self._turn:
            return
        now = time.monotonic()
        if self._turn is not None:
            last = self.seats[self._turn[1]]
            timer = self.options["turn_timer"]
            if timer is not None:
                over = now - self._turn_started - float(timer)
                last.reserve_left = max(0.0, last.reserve_left - max(0.0, over))
            if last.absence_started is not None:
                last.grace_left = max(0.0, last.grace_left - (now - last.absence_started))
                last.absence_started = None
        self._turn = turn
        self._turn_started = now

    async def end_for_absence(self, seat: Seat) -> None:
        assert self.game is not None and self.match is not None
        reason = f"seat {seat.position} ({seat.rec.name}) did not come back"
        result = self._result(self.game, reason)
        await asyncio.shield(self.hub.store.end_match(self.id, self.match.id, result, "ended"))
        self.rec.status = "ended"
        self.match.status = "ended"
        self.match.result = result
        self.clock = None
        event: dict[str, Any] = {
            "seat": seat.position, "action": None, "by": "absence", "ended": reason,
            "hole": self.game.hole, "card": None, "replaced": None, "hole_over": None,
            "match_over": True, "facts": []}
        text = dumps({"type": "event", "match": self.match.number,
                           "version": self.version, "event": event})
        for c in self._all_clients():
            c.push(text)
        self._broadcast_state()
        self.send_table()

    # --- time-driven moves ---------------------------------------------------------------
    def plan(self) -> Plan | None:
        """The next move the server makes by itself, and the clock clients see."""
        self.clock = None
        if not self.running:
            return None
        g = self.game
        assert g is not None
        seat = self.seats[g.current_player]  # type: ignore[index]
        now = time.monotonic()
        if seat.is_server_bot or seat.stand_in:
            delay = float(self.options["bot_delay"])
            kind = "bot" if seat.is_server_bot else "stand_in"
            return Plan(kind, self.version, self._changed + delay)
        plans: list[tuple[Plan, dict[str, Any]]] = []
        timer = self.options["turn_timer"]
        if timer is not None:
            at = self._turn_started + float(timer) + seat.reserve_left
            plans.append((Plan("timeout", self.version, at),
                          {"seat": seat.position, "kind": "turn",
                           "reserve": int(seat.reserve_left * 1000)}))
        if not seat.conns and not (self.options["absence"] == "wait" and
                                   seat.grace_left <= 0):
            if seat.absence_started is None:
                seat.absence_started = now
            at = seat.absence_started + seat.grace_left
            plans.append((Plan("absence", self.version, at),
                          {"seat": seat.position, "kind": "absence", "reserve": 0}))
        if not plans:
            return None
        best, clock = min(plans, key=lambda p: p[0].at)
        remaining = max(0.0, best.at - now)
        self.clock = {**clock, "remaining": int(remaining * 1000),
                      "deadline": now_ms() + int(remaining * 1000)}
        return best

    def reschedule(self, announce: bool = False) -> None:
        """Plan the next time-driven move (cancelling a planned one that has not fired)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        before = self.clock
        p = self.plan()
        if p is not None and not self.hub.draining:
            self._timer = asyncio.create_task(self._fire_at(p))
        if announce and _clock_key(before) != _clock_key(self.clock):
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
        g = self.game
        assert g is not None
        pos = g.current_player
        assert pos is not None
        seat = self.seats[pos]
        if p.kind in ("bot", "stand_in"):
            bot = self._bot_for(seat)
            view = bridge.bot_view(g, pos)
            legal = g.legal_actions()
            action = await asyncio.to_thread(bot.choose, view, legal)
            await self._play(action, p.kind)
        elif p.kind == "timeout":
            view = bridge.seat_view(g, pos)
            await self._play(bridge.default_move(view, view["legal_actions"]), "timeout")
        else:  # absence ran out
            seat.grace_left = 0.0
            seat.absence_started = None
            policy = self.options["absence"]
            if policy == "bot":
                seat.stand_in = True
                self.send_table()
                self.reschedule(announce=True)
            elif policy == "end":
                await self.end_for_absence(seat)
            else:
                self.reschedule(announce=True)

    def _bot_for(self, seat: Seat) -> Bot:
        if seat.bot is None:
            name = seat.rec.bot if seat.is_server_bot and seat.rec.bot else bridge.STAND_IN
            seat.bot = bridge.new_bot(name, self.rules, seat.rec.bot_seed)
        return seat.bot

    async def hint(self, client: Client, version: int) -> dict[str, Any]:
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for hints")
        async with self.lock:
            if not self.running or self.game is None:
                raise ProtocolError("not_started", "hints are given during a match")
            if self.game.current_player != seat.position:
                raise ProtocolError("not_your_turn", "hints are given on your own turn")
            if self._coach is None:
                self._coach = bridge.new_bot(bridge.coach_for(self.rules, self.game.players),
                                             self.rules, 0)
            view = bridge.bot_view(self.game, seat.position)
            legal = self.game.legal_actions()
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

    def cancel_timers(self) -> None:
        for t in (self._timer, self._host_task):
            if t is not None:
                t.cancel()
        self._timer = self._host_task = None

    async def settle(self) -> None:
        """Wait until no planned move is running (used when draining)."""
        async with self.lock:
            pass

    def close_clients(self, code: int, reason: str, message: str) -> None:
        for c in self._all_clients():
            c.close_soon(code, reason, message)


def _clock_key(clock: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    return None if clock is None else (clock["seat"], clock["kind"])
