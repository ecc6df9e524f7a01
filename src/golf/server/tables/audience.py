"""Who is at a table and how to reach them: seats with their connections, spectators,
and the frames sent to them.

Each frame is built for its receiver only: a seat's view for a seat that has a
connection, the public view once per change and only when someone watches.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ..core.protocol import dumps
from ..storage.records import SeatRecord

__all__ = ["HERE_FOR", "Audience", "Client", "Seat", "dumps"]

#: Seconds a person counts as on another page of the site after saying so
#: (``POST /api/tables/{id}/here``; a page says it every 20 s).
HERE_FOR = 45.0


class Client(Protocol):
    """A connection as a room sees it (see ``sockets.Connection``)."""

    seat: Seat | None

    def push(self, text: str) -> None: ...
    def close_soon(self, code: int, reason: str, message: str) -> None: ...


class Seat:
    """One seat at run time: the stored record, its connections, whether a stand-in
    bot plays it now."""

    def __init__(self, rec: SeatRecord) -> None:
        self.rec = rec
        self._conns: set[Client] = set()
        self._stand_in = False
        #: When the person last said, from another page of the site, that the table is
        #: still theirs to open (time.monotonic(); golf.server.tables.room.Room.here).
        self.seen_elsewhere = float("-inf")

    def mark_seen_elsewhere(self) -> None:
        """The person just said, from another page, that the table is still theirs."""
        self.seen_elsewhere = time.monotonic()

    @property
    def elsewhere(self) -> bool:
        """The person has no connection to the table but has another page of the site
        open (``here``, within :data:`HERE_FOR` seconds): they are not taken for absent."""
        return self.is_person and not self._conns and not self._stand_in and \
            time.monotonic() - self.seen_elsewhere < HERE_FOR

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
    def is_person(self) -> bool:
        return self.rec.kind == "human" and self.taken

    @property
    def stand_in(self) -> bool:
        """True while a bot plays for this seat's absent person."""
        return self._stand_in

    def hand_to_bot(self, playing: bool) -> None:
        """A stand-in bot takes the seat over (True) or gives it back (False)."""
        self._stand_in = playing

    @property
    def connected(self) -> bool:
        return self.is_server_bot or bool(self._conns)

    @property
    def conns(self) -> frozenset[Client]:
        return frozenset(self._conns)

    @property
    def has_conns(self) -> bool:
        """Whether the seat has a connection: ``bool(conns)`` without copying the set
        (asked for every seat on every action)."""
        return bool(self._conns)

    def add(self, client: Client) -> bool:
        """Add a connection; True if the seat had none (its person came back)."""
        first = not self._conns
        self._conns.add(client)
        return first

    def remove(self, client: Client) -> bool:
        """Remove a connection; True if it was the seat's last one."""
        if client not in self._conns:
            return False
        self._conns.discard(client)
        return not self._conns

    def close_all(self, code: int, reason: str, message: str) -> None:
        """Close every connection of the seat (it was removed, or its person left)."""
        for c in list(self._conns):
            c.close_soon(code, reason, message)
        self._conns.clear()

    def push(self, text: str) -> None:
        for c in list(self._conns):
            c.push(text)


class Audience:
    """The seats' connections and the spectators of one table."""

    def __init__(self, seats: Callable[[], Iterable[Seat]]) -> None:
        self._seats = seats
        self._spectators: set[Client] = set()

    @property
    def spectators(self) -> int:
        return len(self._spectators)

    def watch(self, client: Client) -> None:
        self._spectators.add(client)

    def unwatch(self, client: Client) -> bool:
        """Forget a spectator; True if it was one."""
        if client not in self._spectators:
            return False
        self._spectators.discard(client)
        return True

    def clients(self) -> list[Client]:
        return [c for s in self._seats() for c in s.conns] + list(self._spectators)

    def connections(self) -> int:
        return sum(len(s.conns) for s in self._seats()) + len(self._spectators)

    def push_all(self, text: str) -> None:
        for c in self.clients():
            c.push(text)

    def send_each(self, frame_for: Callable[[int | None], dict[str, Any]]) -> None:
        """One frame per receiver kind: a seat's own frame to each seat with
        connections, the public one (built once) to the spectators."""
        for s in self._seats():
            if s.has_conns:
                s.push(dumps(frame_for(s.position)))
        if self._spectators:
            text = dumps(frame_for(None))
            for c in list(self._spectators):
                c.push(text)

    def chat(self, sender: int, text: str) -> None:
        """A chat line to everyone except the seats that muted its sender."""
        for s in self._seats():
            if sender not in s.rec.muted:
                s.push(text)
        for c in list(self._spectators):
            c.push(text)

    def close_all(self, code: int, reason: str, message: str) -> None:
        for c in self.clients():
            c.close_soon(code, reason, message)
