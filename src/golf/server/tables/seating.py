"""The lobby's rules of a table: who sits where, the host role, the table's settings
between matches (each called by one REST route, see :mod:`golf.server.api.lobby`).

:class:`Seating` is a part of :class:`golf.server.tables.room.Room` (``room.seating``):
every rule runs under the table's lock, is stored, and then announced to everyone at the
table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...rules import Rules, preset_rules
from ..core.bridge import bot_label
from ..core.protocol import ProtocolError
from ..core.tokens import hash_token, new_token
from ..storage.records import SeatRecord, TableRecord
from ..storage.store import Store
from .audience import Seat, dumps

if TYPE_CHECKING:
    from .clocks import Clocks
    from .match import LiveMatch

__all__ = ["ABSENCE", "DEFAULT_OPTIONS", "OPTION_RANGES", "Changes", "Seating", "bot_numbers",
           "check_options", "number_bots", "options_schema", "table_rules"]

DEFAULT_OPTIONS: dict[str, Any] = {
    "bot_delay": 0.8, "absence": "bot", "grace": 60, "turn_timer": None, "reserve": 30,
    "show_peeked": False,
}
#: The numeric options' ranges (seconds): (lowest, highest, whether null is allowed).
OPTION_RANGES: dict[str, tuple[float, float, bool]] = {
    "bot_delay": (0, 5, False), "grace": (1, 600, False), "turn_timer": (1, 600, True),
    "reserve": (0, 600, False)}
#: What ``absence`` may be.
ABSENCE = ("wait", "bot", "end")


def options_schema() -> dict[str, Any]:
    """The JSON schema of a table's ``options`` object, from the same facts
    :func:`check_options` checks (the OpenAPI document shows it).

    >>> options_schema()["properties"]["turn_timer"]
    {'anyOf': [{'type': 'number', 'minimum': 1, 'maximum': 600}, {'type': 'null'}]}
    """
    props: dict[str, Any] = {}
    for key, (lo, hi, none_ok) in OPTION_RANGES.items():
        number = {"type": "number", "minimum": lo, "maximum": hi}
        props[key] = {"anyOf": [number, {"type": "null"}]} if none_ok else number
    props["show_peeked"] = {"type": "boolean"}
    props["absence"] = {"type": "string", "enum": list(ABSENCE)}
    assert set(props) == set(DEFAULT_OPTIONS)
    return {"type": "object", "properties": props, "additionalProperties": False}


def bot_numbers(seats: Sequence[SeatRecord]) -> dict[int, int]:
    """Each server bot's number among the bots of its level at one table, by position:
    1 for the first in seat order, 2 for the next of that level, and so on, so that a
    person can tell them apart ("Easy bot", "Easy bot 2"). A number whose name a person
    or an external bot at the table already has is skipped (a table refuses a name twice).

    >>> rec = lambda i, kind, bot=None, name=None: SeatRecord(i, kind, name, bot, None, 0)
    >>> bot_numbers([rec(0, "human", name="Ann"), rec(1, "bot", "easy"),
    ...              rec(2, "bot", "hard"), rec(3, "bot", "easy")])
    {1: 1, 2: 1, 3: 2}
    >>> bot_numbers([rec(0, "human", name="easy bot 2"), rec(1, "bot", "easy"),
    ...              rec(2, "bot", "easy")])
    {1: 1, 2: 3}
    """
    taken = {s.name.lower() for s in seats if s.kind != "bot" and s.name}
    last: dict[str, int] = {}
    out: dict[int, int] = {}
    for s in seats:
        if s.kind != "bot":
            continue
        label = bot_label(s.bot or "medium")
        n = last.get(label, 0) + 1
        while numbered(label, n).lower() in taken:
            n += 1
        last[label] = out[s.position] = n
    return out


def numbered(label: str, n: int) -> str:
    """A bot's name from its level's label and its number: ``Easy bot``, ``Easy bot 2``."""
    return label if n == 1 else f"{label} {n}"


def number_bots(seats: Sequence[SeatRecord]) -> None:
    """Name each server bot seat by its level and number (:func:`bot_numbers`). The name
    is stored with the seat, so the table frame, the match's stored names (replays,
    profiles' histories) and every other reader agree."""
    for position, n in bot_numbers(seats).items():
        seat = seats[position]
        seat.name = numbered(bot_label(seat.bot or "medium"), n)


def table_rules(rec: TableRecord) -> Rules:
    """A table's rules: its preset (a shipped name; never a file, not even for a table
    stored by an older server that took paths) with its overrides."""
    return preset_rules(rec.preset, rec.overrides or None)


@dataclass(frozen=True)
class Changes:
    """Checked changes of a table between matches (None: unchanged)."""

    rules: dict[str, Any] | None = None
    options: dict[str, Any] | None = None
    public: bool | None = None
    title: str | None = None


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

    for key, (lo, hi, none_ok) in OPTION_RANGES.items():
        number(key, lo, hi, none_ok)
    if not isinstance(out["show_peeked"], bool):
        raise ProtocolError("bad_option", "show_peeked must be true or false, got "
                            f"{dumps(out['show_peeked'])}", field="show_peeked")
    if out["absence"] not in ABSENCE:
        raise ProtocolError("bad_option", "absence must be 'wait', 'bot' or 'end', got "
                            f"{dumps(out['absence'])}", field="absence")
    return out


class Seating:
    """Seats, the host role and the table's settings: the lobby's rules of a room.

    A part of the room, given what it works on: the table's record, its lock, its seats
    (the room's list, which only this part changes), the store, the room's match and
    clocks (read when asked: they change from match to match), and the room's calls it
    makes after a change (tell everyone the table, plan the next move, store the clocks,
    greet some seats' connections again)."""

    def __init__(self, rec: TableRecord, lock: asyncio.Lock, seats: list[Seat],
                 store: Store, *, live: Callable[[], LiveMatch | None],
                 clocks: Callable[[], Clocks], send_table: Callable[[], None],
                 reschedule: Callable[[bool], None],
                 save_clocks: Callable[[bool], Awaitable[None]],
                 rewelcome: Callable[[Sequence[Seat]], None]) -> None:
        self.rec = rec
        self.lock = lock
        self._seats = seats
        self._store = store
        self._live = live
        self._clocks = clocks
        self._send_table = send_table
        self._reschedule = reschedule
        self._save_clocks = save_clocks
        self._rewelcome = rewelcome
        #: Hands the host role on when an absent host does not come back in time.
        self._host_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def options(self) -> dict[str, Any]:
        return self.rec.options

    def host_left(self, seat: Seat) -> None:
        """The host's last connection closed: the role passes on after the grace unless
        they come back (:meth:`host_back`)."""
        self._host_task = asyncio.create_task(self._hand_over_later(seat))

    def host_back(self) -> None:
        """The host came back in time: the role stays theirs."""
        self.cancel()

    def cancel(self) -> None:
        """Forget a pending handover of the host role (shutting down)."""
        if self._host_task is not None:
            self._host_task.cancel()
            self._host_task = None

    def seat_at(self, position: int) -> Seat:
        if not 0 <= position < len(self._seats):
            raise ProtocolError("bad_seats", f"there is no seat {position}; seats are 0 to "
                                f"{len(self._seats) - 1}", field="seat")
        return self._seats[position]

    async def _hand_over_later(self, seat: Seat) -> None:
        await asyncio.sleep(float(self.options["grace"]))
        async with self.lock:
            if not seat.conns and seat.position == self.rec.host:
                await self._pass_host(exclude=seat)

    async def _pass_host(self, exclude: Seat) -> None:
        """Hand the host role to the next seated person, connected ones first."""
        people = [s for s in self._seats if s is not exclude and s.is_person]
        n = len(self._seats)
        people.sort(key=lambda s: (not s.conns, (s.position - exclude.position) % n))
        if people:
            self.rec.host = people[0].position
            await self._store.save_table(self.rec)
            self._rewelcome([people[0]])
            self._send_table()

    def check_waiting(self) -> None:
        if self.rec.status != "waiting":
            raise ProtocolError("already_started", "seats change only before the match "
                                "starts")

    async def join(self, name: str, token_hash: str, player_id: str | None = None) -> Seat:
        """A person (the profile ``player_id``) takes the first free seat under ``name``."""
        async with self.lock:
            if self.rec.status != "waiting":
                raise ProtocolError("already_started", "the match has started; watch it at "
                                    f"/watch/{self.id}")
            if any(s.rec.name and s.rec.name.lower() == name.lower() for s in self._seats):
                raise ProtocolError("name_taken", f"someone at this table is called {name!r};"
                                    " choose another name", field="name")
            seat = next((s for s in self._seats if not s.taken), None)
            if seat is None:
                raise ProtocolError("table_full", "every seat is taken")
            seat.rec.name = name
            seat.rec.token_hash = token_hash
            seat.rec.player_id = player_id
            await self._store.save_seat(self.id, seat.rec)
            self._send_table()
            return seat

    async def reissue_token(self, player_id: str) -> tuple[int, str]:
        """A fresh token for the seat the profile ``player_id`` holds here (the player
        signed in on another browser); the seat's older token stops working and its
        sockets are closed (4001), so a copied token is worth nothing from now on."""
        async with self.lock:
            seat = next((s for s in self._seats if s.rec.kind == "human"
                         and s.rec.player_id == player_id and s.taken), None)
            if seat is None:
                raise ProtocolError("bad_token", "you hold no seat at this table")
            token = new_token()
            seat.rec.token_hash = hash_token(token)
            await self._store.save_seat(self.id, seat.rec)
            # A reason of its own (docs/protocol.md, "bye"): the browser that lost the seat
            # says so plainly, not as a removal by the host.
            seat.close_all(4001, "opened_elsewhere",
                           "this seat was opened in another browser")
            return seat.position, token

    async def add_seat(self, rec: SeatRecord, most: int) -> None:
        """The host adds a seat (at most ``most`` seats)."""
        async with self.lock:
            self.check_waiting()
            if len(self._seats) >= most:
                raise ProtocolError("bad_seats", f"a table has at most {most} seats")
            rec.position = len(self._seats)
            self._seats.append(Seat(rec))
            await self._seats_changed()

    async def replace_seat(self, position: int, rec: SeatRecord) -> None:
        """The host makes a seat that holds no person a bot, an external bot or open."""
        async with self.lock:
            self.check_waiting()
            seat = self.seat_at(position)
            if seat.rec.kind == "human" and seat.taken:
                raise ProtocolError("bad_seats", f"seat {position} holds a person; remove "
                                    "them first")
            rec.position = position
            self._seats[position] = Seat(rec)
            await self._seats_changed()

    async def remove_seat(self, host: Seat, position: int) -> None:
        """The host removes a seat; its connections are closed, later seats move up."""
        async with self.lock:
            self.check_waiting()
            seat = self.seat_at(position)
            if seat is host:
                raise ProtocolError("bad_seats", "the host cannot remove themself; hand the "
                                    "host role over or leave")
            del self._seats[position]
            self._renumber()
            self.rec.host = host.position
            await self._store.save_table(self.rec, seats=True)
            seat.close_all(4001, "removed", "the host removed you from this table")
            self._rewelcome(self._seats[position:])
            self._send_table()

    async def _seats_changed(self) -> None:
        self._renumber()
        await self._store.save_table(self.rec, seats=True)
        self._send_table()

    def _renumber(self) -> None:
        for i, s in enumerate(self._seats):
            s.rec.position = i
        self.rec.seats = [s.rec for s in self._seats]
        number_bots(self.rec.seats)  # "Easy bot", "Easy bot 2" in seat order

    async def hand_over(self, old: Seat, position: int) -> None:
        """The host hands the host role to the person in seat ``position``."""
        async with self.lock:
            new = self.seat_at(position)
            if not new.is_person:
                raise ProtocolError("bad_seats", f"seat {position} holds no person; the host "
                                    "must be a person at the table", field="seat")
            self.rec.host = new.position
            await self._store.save_table(self.rec)
            self._rewelcome([old, new])
            self._send_table()

    async def change(self, changes: Changes) -> None:
        """The host changes rules, options, visibility or title between matches."""
        async with self.lock:
            if self.rec.status == "playing":
                raise ProtocolError("already_started", "rules and options change between "
                                    "matches, not during one")
            self.apply(changes)
            await self._store.save_table(self.rec)
            self._send_table()

    def apply(self, changes: Changes) -> None:
        rec = self.rec
        # Checked before anything changes: a refused option leaves the table as it was.
        options = None if changes.options is None else \
            check_options(changes.options, rec.options)
        if changes.rules is not None:
            rec.overrides = dict(changes.rules)
        if options is not None:
            rec.options = options
        if changes.public is not None:
            rec.public = changes.public
        if changes.title is not None:
            rec.title = changes.title

    async def leave(self, seat: Seat) -> None:
        """A person leaves: before the match the seat opens again; during it the seat is
        away for good (no grace), and the absence policy takes over."""
        async with self.lock:
            if seat.rec.kind != "human":
                raise ProtocolError("bad_seats", "bot seats are removed by the host")
            if self.rec.status == "waiting":
                seat.rec.name = None
                seat.rec.token_hash = None
                seat.rec.player_id = None
                seat.rec.muted = []
                await self._store.save_seat(self.id, seat.rec)
                seat.close_all(4001, "left", "you left this table")
            else:
                if self._live() is not None and self.rec.status == "playing":
                    self._clocks().gave_up(seat.position)
                    # Stored at once: a restart must not forget an abandonment.
                    await self._save_clocks(False)
                seat.close_all(1000, "left", "you left this table")
                self._reschedule(True)
            if seat.position == self.rec.host:
                await self._pass_host(exclude=seat)
            self._send_table()

    async def mute(self, seat: Seat, other: int, muted: bool) -> None:
        """``seat`` stops (or resumes) receiving chat from seat ``other``."""
        if not 0 <= other < len(self._seats) or other == seat.position:
            raise ProtocolError("bad_message", f"seat must be another seat, 0 to "
                                f"{len(self._seats) - 1}", field="seat")
        async with self.lock:
            current = set(seat.rec.muted)
            if muted:
                current.add(other)
            else:
                current.discard(other)
            seat.rec.muted = sorted(current)
            await self._store.save_seat(self.id, seat.rec)
        seat.push(dumps({"type": "muted", "seats": seat.rec.muted}))
