"""Quick play ("Play now"): a queue per (preset, player count) that matches people by
rating, and fills the remaining seats with bots on request.

Who is matched with whom is the rule of :mod:`.matching`; after ``bot_wait`` seconds a
person may fill the rest of their table with bots (the compatible people waiting then,
and bots of the anchored rating nearest their own for the seats left).

The queue is a database table (``golf_queue``), so that every server process on one
database shares it. Nothing runs in the background: every join, poll and fill of a
queue runs the matcher for that queue. On PostgreSQL the matcher takes the waiting rows
with ``SELECT ... FOR UPDATE SKIP LOCKED`` (two processes never claim one person); on
SQLite, which has one process, an asyncio lock serialises it. A claimed group is marked
``matching``, its table made by :func:`golf.server.tables.creation.create_table` (the
one path that makes tables, ``POST /api/tables`` too), its people seated with
:meth:`golf.server.tables.seating.Seating.join` (``room.seating.join``), its match
started, and the rows marked ``matched`` with their table and seat.

A person's seat token is made when they queue: they get it then, the queue keeps only
its hash, and the seat they are given holds that hash. So no secret is ever stored, and
a ticket's poll tells its owner only the table and seat.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ...errors import GolfError
from ...ratings import Anchors, Variant, band_for
from ...rules import load_rules, preset_names, preset_title, unknown_preset
from ..core import bridge
from ..core.protocol import ProtocolError, check_name
from ..core.tokens import hash_token, new_token
from ..ratings.rating_service import rating_for
from ..storage import db
from ..tables.creation import SeatSpec, TableSpec, create_table
from ..tables.hub import Hub
from ..tables.room import Room
from .matching import Blocks, Entry, nearest_bot, pick_groups, unique_names, window

__all__ = ["BOT_WAIT", "STALE_AFTER", "QuickPlay", "Ticket", "TicketState", "check_queue"]

log = logging.getLogger("golf.server")

#: Seconds of waiting after which a person may fill their table with bots.
BOT_WAIT = 20.0
#: A waiting ticket not polled for this many seconds is dropped (its browser is gone).
STALE_AFTER = 30.0
#: A claimed group whose table was not made within this many seconds (its process died)
#: goes back to waiting.
CLAIM_TIMEOUT = 30.0
#: A matched ticket is kept this long for its owner to read where they sit.
MATCHED_KEPT = 600.0
#: A poll runs its queue's matcher at most once a second per process (joins and fills
#: always run it): the matcher looks at the whole queue, and polls come every second from
#: everyone waiting (bench/quickplay.py measures it).
MATCH_EVERY = 1.0


@dataclass(frozen=True)
class Ticket:
    """A person's place in a queue: its id and the seat token their seat will hold."""

    id: str
    token: str


@dataclass(frozen=True)
class TicketState:
    """What a ticket's owner may know: waiting (how long, the window, whether bots may
    fill yet) or matched (the table and their seat)."""

    id: str
    status: str
    preset: str
    players: int
    rating: int
    waited: float
    window: int
    bots_in: float
    table: str | None = None
    seat: int | None = None


@dataclass
class _Row:
    id: str
    player_id: str
    name: str
    preset: str
    players: int
    rating: int
    token_hash: str
    status: str
    joined: float
    polled: float
    table_id: str | None
    seat: int | None

    def entry(self) -> Entry:
        return Entry(self.id, self.player_id, self.name, self.rating, self.joined)


@dataclass(frozen=True)
class _Claim:
    """A group claimed by this matcher: its people in seat order and the bots after."""

    people: list[_Row]
    bots: list[str]
    preset: str
    rated_bots: bool


class QuickPlay:
    """The quick play service of one server process (the queue itself is shared)."""

    def __init__(self, hub: Hub, engine: AsyncEngine, bot_wait: float = BOT_WAIT,
                 clock: Callable[[], float] = time.time,
                 anchors: Anchors | None = None) -> None:
        self.hub = hub
        self.engine = engine
        self.bot_wait = bot_wait
        self.clock = clock
        self.anchors = Anchors.measured() if anchors is None else anchors
        self.postgres = engine.dialect.name == "postgresql"
        # SQLite has one process and one writer: the matcher runs one at a time here.
        self._local = asyncio.Lock()
        self._ran: dict[tuple[str, int], float] = {}  # queue -> when polls last matched it

    # --- the service's calls (one per route) ----------------------------------------
    async def join(self, player_id: str, name: str | None, preset: str,
                   players: int) -> tuple[Ticket, TicketState]:
        """Queue ``player_id`` for a ``players``-seat table of ``preset`` (a previous
        waiting ticket of theirs is replaced). Returns the ticket, with the seat token
        shown only now, and its state (it may be matched at once)."""
        check_queue(preset, players)
        shown = check_name(name) if name else "Player"
        variant = Variant(preset, band_for(players))
        now = self.clock()
        token = new_token()
        ticket = Ticket(secrets.token_hex(12), token)
        async with self.engine.begin() as conn:
            await self._check_may_play(conn, player_id)
            rating = (await rating_for(conn, player_id, variant)).display
            await conn.execute(db.queue.delete().where(db.queue.c.player_id == player_id))
            await conn.execute(db.queue.insert().values(
                id=ticket.id, player_id=player_id, name=shown, preset=preset,
                players=players, rating=rating, token_hash=hash_token(token),
                status="waiting", joined=now, polled=now, table_id=None, seat=None))
        await self.match(preset, players)
        return ticket, await self.state(player_id, ticket.id)

    async def state(self, player_id: str, ticket_id: str) -> TicketState:
        """The ticket's state for its owner (a poll: it also keeps the ticket alive and
        runs the matcher of its queue)."""
        row = await self._own(player_id, ticket_id)
        if row.status == "waiting":
            now = self.clock()
            async with self.engine.begin() as conn:
                await conn.execute(db.queue.update().where(db.queue.c.id == ticket_id)
                                   .values(polled=now))
            key = (row.preset, row.players)
            if now - self._ran.get(key, -MATCH_EVERY) >= MATCH_EVERY:
                self._ran[key] = now
                await self.match(row.preset, row.players)
                row = await self._own(player_id, ticket_id)
        return self._state_of(row)

    async def leave(self, player_id: str, ticket_id: str) -> None:
        """Leave the queue at once (a ticket already matched keeps its seat; leaving the
        table is the table's own call). A ticket that is not this player's, or was left
        already, is ``no_ticket``: nothing was left."""
        async with self.engine.begin() as conn:
            gone = await conn.execute(db.queue.delete().where(
                db.queue.c.id == ticket_id, db.queue.c.player_id == player_id,
                db.queue.c.status == "waiting"))
            if gone.rowcount:
                return
        await self._own(player_id, ticket_id)  # matched (or being seated): still its own

    async def fill_with_bots(self, player_id: str, ticket_id: str) -> TicketState:
        """Make the table now: the compatible people waiting, and bots of similar
        rating for the other seats (allowed after ``bot_wait`` seconds of waiting)."""
        row = await self._own(player_id, ticket_id)
        if row.status == "waiting":
            left = row.joined + self.bot_wait - self.clock()
            if left > 0:
                raise ProtocolError("too_early", f"bots may fill the table after "
                                    f"{self.bot_wait:g} s of waiting: {left:.0f} s to go",
                                    extra={"retry_after": round(left, 1)})
            await self.match(row.preset, row.players, first=ticket_id)
            row = await self._own(player_id, ticket_id)
        return self._state_of(row)

    # --- the matcher ---------------------------------------------------------------
    async def match(self, preset: str, players: int, first: str | None = None) -> int:
        """Run the matcher of one queue: claim the groups that can play now (with
        ``first``, the group around that ticket, topped up with bots) and seat them.
        Returns how many tables it made."""
        if self.postgres:
            claims = await self._claim(preset, players, first)
        else:
            async with self._local:
                claims = await self._claim(preset, players, first)
        for claim in claims:
            await self._seat(claim, players)
        return len(claims)

    async def _claim(self, preset: str, players: int, first: str | None) -> list[_Claim]:
        now = self.clock()
        q = db.queue.c
        async with self.engine.begin() as conn:
            await self._tidy(conn, now)
            sel = (sa.select(db.queue)
                   .where(q.preset == preset, q.players == players, q.status == "waiting")
                   .order_by(q.joined, q.id))
            if self.postgres:
                # Rows another process is claiming are skipped, not waited for: they
                # are that matcher's to place.
                sel = sel.with_for_update(skip_locked=True)
            rows = {r.id: r for r in map(_row, (await conn.execute(sel)).mappings())}
            if first is not None and first not in rows:
                return []
            entries = [r.entry() for r in rows.values()]
            blocks = await blocks_among(conn, [e.player_id for e in entries])
            anchor = rows[first].entry() if first is not None else None
            groups = pick_groups(entries, players, now, blocks, anchor)
            claims = []
            for group in groups:
                people = [rows[e.id] for e in group]
                await conn.execute(db.queue.update().where(q.id.in_([p.id for p in people]))
                                   .values(status="matching", polled=now))
                bots, rated = self._bots_for(people, preset, players)
                claims.append(_Claim(people, bots, preset, rated))
            return claims

    async def _tidy(self, conn: AsyncConnection, now: float) -> None:
        """Drop tickets whose browser stopped polling and old matched tickets; put
        claims whose process died back in the queue."""
        q = db.queue.c
        await conn.execute(db.queue.delete().where(
            q.status == "waiting", q.polled < now - STALE_AFTER))
        await conn.execute(db.queue.delete().where(
            q.status == "matched", q.polled < now - MATCHED_KEPT))
        await conn.execute(db.queue.update().where(
            q.status == "matching", q.polled < now - CLAIM_TIMEOUT).values(status="waiting"))

    def _bots_for(self, people: list[_Row], preset: str, players: int
                  ) -> tuple[list[str], bool]:
        """The bots for the seats people leave open: the anchored bot nearest the
        group's mean rating, and whether it is anchored in this variant."""
        missing = players - len(people)
        if missing <= 0:
            return [], True
        mean = round(sum(p.rating for p in people) / len(people))
        bot, anchored = nearest_bot(mean, Variant(preset, band_for(players)), self.anchors)
        return [bot] * missing, anchored

    async def _seat(self, claim: _Claim, players: int) -> None:
        """Make the claimed group's table through the lobby, seat its people, start the
        match and tell the tickets where they sit. A failure puts them back in the
        queue."""
        ids = [p.id for p in claim.people]
        try:
            room = await self._make_table(claim)
        except (ProtocolError, GolfError):
            log.exception("quick play: a table for %d people could not be made", len(ids))
            async with self.engine.begin() as conn:
                await conn.execute(db.queue.update().where(db.queue.c.id.in_(ids))
                                   .values(status="waiting"))
            return
        async with self.engine.begin() as conn:
            for p in claim.people:
                seat = room.seat_of(p.token_hash)
                assert seat is not None  # seated by _make_table just now
                await conn.execute(db.queue.update().where(db.queue.c.id == p.id).values(
                    status="matched", table_id=room.id, seat=seat.position,
                    polled=self.clock()))

    async def _make_table(self, claim: _Claim) -> Room:
        host, *others = claim.people
        # Bots' names first: a person is renamed rather than a bot (a table refuses a
        # name twice).
        labels = [bridge.bot_label(b) for b in claim.bots]
        names = unique_names(labels + [p.name for p in claim.people])[len(labels):]
        seats = [SeatSpec("human") for _ in claim.people] + \
            [SeatSpec("bot", bot=b) for b in claim.bots]
        # Rated, unless a bot had to be borrowed from another band (no anchor here).
        spec = TableSpec(names[0], claim.preset, seats=seats, public=False,
                         title=f"Quick play · {preset_title(load_rules(claim.preset).name)}",
                         rated=claim.rated_bots)
        made, _ = await create_table(self.hub, spec, host.token_hash, host.player_id)
        # The live table, its lease taken (several processes on PostgreSQL: a new table is
        # nobody's until a process claims it, and its seats and start are fenced writes).
        room = await self.hub.room(made.id)
        for p, name in zip(others, names[1:], strict=True):
            await room.seating.join(name, p.token_hash, p.player_id)
        await room.start()
        return room

    # --- reading -------------------------------------------------------------------
    async def _own(self, player_id: str, ticket_id: str) -> _Row:
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(db.queue).where(
                db.queue.c.id == ticket_id, db.queue.c.player_id == player_id))
            ).mappings().first()
        if r is None:
            raise ProtocolError("no_ticket", "you are not in this queue (you left it, or "
                                "stopped asking for 30 s); press Play now again")
        return _row(r)

    def _state_of(self, row: _Row) -> TicketState:
        waited = max(0.0, self.clock() - row.joined)
        return TicketState(row.id, row.status, row.preset, row.players, row.rating,
                           round(waited, 1), window(waited),
                           round(max(0.0, self.bot_wait - waited), 1), row.table_id,
                           row.seat)

    async def _check_may_play(self, conn: AsyncConnection, player_id: str) -> None:
        status = (await conn.execute(sa.select(db.players.c.status).where(
            db.players.c.id == player_id))).scalar()
        if status is None:
            raise ProtocolError("unauthorized", "quick play needs a player profile: "
                                "reload the page to get one")
        if status != "active":
            raise ProtocolError("suspended", "this account is suspended and cannot play")


def _row(r: sa.RowMapping) -> _Row:
    return _Row(r["id"], r["player_id"], r["name"], r["preset"], r["players"], r["rating"],
                r["token_hash"], r["status"], r["joined"], r["polled"], r["table_id"],
                r["seat"])


def check_queue(preset: str, players: int) -> None:
    """A queue exists for every shipped preset and each player count its rules allow
    (ProtocolError naming what is allowed)."""
    if preset not in preset_names():
        raise ProtocolError("bad_rules", str(unknown_preset()), field="preset")
    try:
        load_rules(preset).check_players(players)
        band_for(players)
    except GolfError as e:
        raise ProtocolError("bad_seats", str(e), field="players") from None


async def blocks_among(conn: AsyncConnection, player_ids: Iterable[str]) -> Blocks:
    """The pairs among ``player_ids`` where one has blocked the other."""
    ids = list(set(player_ids))
    if len(ids) < 2:
        return frozenset()
    b = db.blocks.c
    res = await conn.execute(sa.select(b.player_id, b.blocked_id).where(
        b.player_id.in_(ids), b.blocked_id.in_(ids)))
    return frozenset(frozenset((r[0], r[1])) for r in res)
