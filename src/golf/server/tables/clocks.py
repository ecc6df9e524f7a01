"""A match's clocks: the turn timer with each seat's reserve, the absence grace, the
bot pace, and the one next move the server makes by itself (:class:`Plan`).

The clocks only measure and plan; the room acts on a plan when it is due. A turn is a
(hole, seat) pair: when it changes, the seat that just played is charged the time it
took beyond the turn timer (from its reserve) and the time it was away (from its grace).

>>> c = Clocks({"turn_timer": 20, "reserve": 30, "grace": 60, "bot_delay": 0.5}, 2)
>>> c.track_turn((1, 0), now=100.0)
>>> p = c.plan(3, seat=0, mover=None, connected=True, wait_when_gone=False, now=100.0)
>>> p.kind, p.at, c.clock["kind"], c.clock["remaining"], c.clock["reserve"]
('timeout', 150.0, 'turn', 20000, 30000)
>>> p = c.plan(3, seat=0, mover=None, connected=True, wait_when_gone=False, now=125.0)
>>> c.clock["remaining"], c.clock["reserve"]  # 5 s into the reserve
(0, 25000)
>>> c.track_turn((1, 1), now=125.0)  # seat 0 took 25 s: 5 s beyond the timer
>>> c.reserve_left[0]
25.0
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.protocol import now_ms

__all__ = ["HOLE_BREAK", "BreakState", "Clocks", "Plan"]

#: Seconds the next hole waits at most for the people at the table to close the hole-end
#: dialog (they say so with ``ready``); no bot moves and no turn timer runs meanwhile. The
#: default of ``golf serve --hole-break``.
HOLE_BREAK = 15.0


@dataclass(frozen=True)
class Plan:
    """The next time-driven move: what, for which version, and when."""

    kind: str  # bot | stand_in | timeout | absence | next_hole
    version: int
    at: float  # time.monotonic()


@dataclass(frozen=True)
class BreakState:
    """A break as it stood (:meth:`Clocks.break_state`): its end, the seats it waits for,
    and when the turn's and the bot's pause began."""

    until: float | None
    waiting: frozenset[int]
    turn_started: float
    changed: float


class Clocks:
    """Every seat's clocks during one match (made anew for each match)."""

    def __init__(self, options: Mapping[str, Any], players: int,
                 hole_break: float = HOLE_BREAK) -> None:
        self._options = options
        #: Seconds the next hole waits at most (``golf serve --hole-break``).
        self.break_length = hole_break
        self.grace_left = [float(options["grace"])] * players
        self.reserve_left = [float(options["reserve"])] * players
        self.absence_started: list[float | None] = [None] * players
        #: Seats whose person abandoned this match: left for good, or let the grace run
        #: out. It stays so when they come back (a rated match counts them last).
        self.abandoned = [False] * players
        #: Seats a bot plays for the rest of the match, with the others' consent
        #: (golf.server.tables.patience).
        self.replaced: set[int] = set()
        self._turn: tuple[int, int] | None = None  # (hole, seat) whose turn runs
        self._turn_started = time.monotonic()
        self._changed = time.monotonic()
        #: The countdown clients see (``state.clock``), set by :meth:`plan`.
        self.clock: dict[str, Any] | None = None
        #: Between two holes: when the next one starts at the latest, and the seats of
        #: the people it still waits for (None: no break runs).
        self.break_until: float | None = None
        self.waiting: set[int] = set()

    # --- between holes -------------------------------------------------------------------
    @property
    def breaking(self) -> bool:
        """True while the next hole waits for people to read the last one's end."""
        return self.break_until is not None

    def begin_break(self, people: set[int], now: float | None = None,
                    watched: bool = False) -> None:
        """A hole ended (not the match): the next one waits until each seat of ``people``
        (the people connected now) is ready, at most :attr:`break_length` seconds. With
        nobody to wait for (bots only) the break runs its whole countdown when someone
        watches (``watched``: spectators), and there is none otherwise.

        >>> c = Clocks({"turn_timer": None, "reserve": 0, "grace": 60, "bot_delay": 0}, 2)
        >>> c.begin_break(set(), now=10.0); c.breaking
        False
        >>> c.begin_break(set(), now=10.0, watched=True); c.breaking, c.break_until, c.waiting
        (True, 25.0, set())
        """
        now = time.monotonic() if now is None else now
        self.waiting = set(people)
        self.break_until = now + self.break_length if people or watched else None

    def resume_break(self, waiting: set[int], until: float, now: float | None = None
                     ) -> None:
        """Take back a stored break (after a restart or a handover): it waits for the
        seats not yet ready until the wall-clock time ``until``, as it would have."""
        now = time.monotonic() if now is None else now
        self.waiting = set(waiting)
        self.break_until = now + max(0.0, until - time.time())

    def ready(self, seat: int, now: float | None = None) -> bool:
        """``seat`` has read the hole's end (or left): True when that ended the break.

        >>> c = Clocks({"turn_timer": None, "reserve": 0, "grace": 60, "bot_delay": 0}, 3)
        >>> c.begin_break({0, 2}, now=10.0)
        >>> c.ready(0, now=11.0), c.breaking, c.ready(2, now=12.0), c.breaking
        (False, True, True, False)
        """
        if self.break_until is None:
            return False
        self.waiting.discard(seat)
        if self.waiting:
            return False
        self.end_break(now)
        return True

    def break_state(self) -> BreakState:
        """What :meth:`ready` and :meth:`end_break` change, to :meth:`put_back` when the
        break's end could not be stored (the break goes on as the database holds it).

        >>> c = Clocks({"turn_timer": None, "reserve": 0, "grace": 60, "bot_delay": 0}, 2)
        >>> c.begin_break({0, 1}, now=10.0); was = c.break_state()
        >>> c.ready(0, now=11.0), c.ready(1, now=12.0), c.breaking
        (False, True, False)
        >>> c.put_back(was); c.breaking, c.break_until, sorted(c.waiting)
        (True, 25.0, [0, 1])
        """
        return BreakState(self.break_until, frozenset(self.waiting), self._turn_started,
                          self._changed)

    def put_back(self, state: BreakState) -> None:
        self.break_until = state.until
        self.waiting = set(state.waiting)
        self._turn_started, self._changed = state.turn_started, state.changed

    def end_break(self, now: float | None = None) -> None:
        """The next hole starts: its first turn and a bot's pause count from now."""
        now = time.monotonic() if now is None else now
        self.break_until = None
        self.waiting = set()
        self._turn_started = self._changed = now

    def retime(self, options: Mapping[str, Any], fresh_reserve: bool,
               now: float | None = None) -> None:
        """The host changed the turn timer mid-match (golf.server.tables.patience): the new
        options from now on, the running turn counted from now, and with
        ``fresh_reserve`` (there was no timer before) every seat's full reserve."""
        self._options = options
        if fresh_reserve:
            self.reserve_left = [float(options["reserve"])] * len(self.reserve_left)
        self._turn_started = time.monotonic() if now is None else now

    # --- what happened -------------------------------------------------------------------
    def moved(self, now: float | None = None) -> None:
        """An action was played: a bot's pause counts from now."""
        self._changed = time.monotonic() if now is None else now

    def returned(self, seat: int) -> None:
        """A seat got a connection back: its grace is full again, no absence runs."""
        self.grace_left[seat] = float(self._options["grace"])
        self.absence_started[seat] = None

    def gave_up(self, seat: int) -> None:
        """A person left during the match, or their grace ran out: no grace is left to
        wait for them, and they abandoned the match."""
        self.grace_left[seat] = 0.0
        self.absence_started[seat] = None
        self.abandoned[seat] = True

    def replace_with_bot(self, seat: int) -> None:
        """The others agreed that a bot plays ``seat`` for the rest of the match: its
        person gave up the seat (an abandonment, counted as any other)."""
        self.gave_up(seat)
        self.replaced.add(seat)

    def track_turn(self, turn: tuple[int, int] | None, now: float | None = None) -> None:
        """Notice a new turn (another seat or another hole): settle the last one's clocks."""
        if turn == self._turn:
            return
        now = time.monotonic() if now is None else now
        if self._turn is not None:
            last = self._turn[1]
            timer = self._options["turn_timer"]
            if timer is not None:
                over = now - self._turn_started - float(timer)
                self.reserve_left[last] = max(0.0, self.reserve_left[last] - max(0.0, over))
            started = self.absence_started[last]
            if started is not None:
                self.grace_left[last] = max(0.0, self.grace_left[last] - (now - started))
                self.absence_started[last] = None
        self._turn = turn
        self._turn_started = now

    # --- what comes next -----------------------------------------------------------------
    def plan(self, version: int, seat: int, mover: str | None, connected: bool,
             wait_when_gone: bool, now: float | None = None) -> Plan | None:
        """The next move the server makes by itself for ``seat`` (the seat to act), and
        the clock clients see. ``mover`` is ``bot`` or ``stand_in`` when a bot plays the
        seat; ``wait_when_gone``: the absence policy is ``wait`` (no more countdown once
        the grace is spent)."""
        self.clock = None
        now = time.monotonic() if now is None else now
        if self.break_until is not None:
            remaining = max(0.0, self.break_until - now)
            self.clock = {"seat": None, "kind": "next_hole", "reserve": 0,
                          "waiting": sorted(self.waiting), "remaining": int(remaining * 1000),
                          "deadline": now_ms() + int(remaining * 1000)}
            return Plan("next_hole", version, self.break_until)
        if mover is not None:
            return Plan(mover, version, self._changed + float(self._options["bot_delay"]))
        plans: list[tuple[Plan, dict[str, Any]]] = []
        timer = self._options["turn_timer"]
        if timer is not None:
            at = self._turn_started + float(timer) + self.reserve_left[seat]
            plans.append((Plan("timeout", version, at),
                          {"seat": seat, "kind": "turn",
                           "reserve": int(self.reserve_left[seat] * 1000)}))
        if not connected and not (wait_when_gone and self.grace_left[seat] <= 0):
            started = self.absence_started[seat]
            if started is None:
                started = self.absence_started[seat] = now
            plans.append((Plan("absence", version, started + self.grace_left[seat]),
                          {"seat": seat, "kind": "absence", "reserve": 0}))
        if not plans:
            return None
        best, clock = min(plans, key=lambda p: p[0].at)
        remaining = max(0.0, best.at - now)
        # ``deadline`` is when the server acts: for a turn, after the timer and the reserve.
        clock = {**clock, "remaining": int(remaining * 1000),
                 "deadline": now_ms() + int(remaining * 1000)}
        if best.kind == "timeout" and timer is not None:
            # ``remaining`` is the turn timer's own time and ``reserve`` the seat's reserve
            # (docs/protocol.md), which runs only once the timer is up.
            turn_left = self._turn_started + float(timer) - now
            clock["remaining"] = int(max(0.0, turn_left) * 1000)
            clock["reserve"] = int(max(0.0, self.reserve_left[seat] + min(0.0, turn_left))
                                   * 1000)
        self.clock = clock
        return best

    def stop(self) -> None:
        """No countdown runs (the match is over)."""
        self.clock = None

    # --- across a restart --------------------------------------------------------------
    def snapshot(self, final: bool, now: float | None = None) -> dict[str, Any]:
        """The clocks as data to store. ``final``: taken when the server shuts down
        cleanly, so the time until it comes back is nobody's; otherwise (taken when a
        turn begins) a crash's downtime counts as time spent, the most a crash can
        have taken."""
        now = time.monotonic() if now is None else now
        wall = time.time()
        return {
            "final": final, "at": wall,
            "turn": None if self._turn is None else list(self._turn),
            "turn_started": wall - (now - self._turn_started),
            "grace_left": list(self.grace_left), "reserve_left": list(self.reserve_left),
            "abandoned": list(self.abandoned),
            "replaced": sorted(self.replaced),
            "absence_started": [None if t is None else wall - (now - t)
                                for t in self.absence_started],
        }

    def restore(self, snap: Mapping[str, Any], turn: tuple[int, int] | None,
                now: float | None = None) -> None:
        """Take the clocks back from :meth:`snapshot` for the match now at ``turn``: each
        seat's grace and reserve as they were left, and the running turn's and absence's
        time spent (a clean shutdown's downtime not counted)."""
        players = len(self.grace_left)
        if len(snap.get("grace_left", ())) != players:
            return  # another match's clocks: keep the fresh ones
        now = time.monotonic() if now is None else now
        wall = time.time()
        # A clean shutdown's clocks stand still until the server is back.
        shift = wall - float(snap["at"]) if snap.get("final") else 0.0
        self.grace_left = [float(x) for x in snap["grace_left"]]
        self.reserve_left = [float(x) for x in snap["reserve_left"]]
        # Stored before abandonment was kept: a seat with no grace left abandoned.
        self.abandoned = [bool(x) for x in snap.get(
            "abandoned", [g <= 0 for g in self.grace_left])]
        self.replaced = {int(s) for s in snap.get("replaced", ())}
        saved = snap.get("turn")
        if saved is not None and turn is not None and tuple(saved) == turn:
            self._turn = turn
            self._turn_started = now - (wall - shift - float(snap["turn_started"]))
            self.absence_started = [
                None if t is None else now - (wall - shift - float(t))
                for t in snap["absence_started"]]


def clock_key(clock: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    """What makes two clocks the same countdown (for announcing only real changes)."""
    return None if clock is None else (clock["seat"], clock["kind"],
                                       tuple(clock.get("waiting", ())))
