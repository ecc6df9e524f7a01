"""Ratings in the server: recording rated matches, reading ratings, rebuilding them.

:mod:`golf.ratings` is the model (docs/ratings.md); this module keeps it in the
database's tables (:mod:`golf.server.storage.db`):

* ``golf_rated_matches`` and ``golf_rated_seats``: every rated match with each seat's
  place, whether it abandoned, and a person's rating before and after (bots: none,
  their anchors are fixed). The ratings are rebuilt from these rows.
* ``golf_ratings``: each person's current rating per variant.

A rated match is recorded by :func:`record_op`'s operation, run by the store's writer
in one transaction (the match's rows and the new ratings commit together or not at
all). The places come from the match's result (:func:`golf.results.placings`); a person
who abandoned (left for good, or whose absence the server gave up on) is last.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ...ratings import (
    EXTERNAL,
    Anchors,
    RatedMatch,
    Rating,
    RatingBook,
    RatingChange,
    Seat,
    Variant,
    band_for,
    bots_below,
    casual_cause,
    casual_reason,
    placings,
    rate_match,
)
from ...rules import Rules
from ..storage import db
from ..storage.store import Store

__all__ = ["RatedSeat", "SeatAtEnd", "SeatChange", "casual_cause_for", "casual_reason_for",
           "change_frame", "match_changes", "rate_finished", "rating_for", "ratings_of",
           "rebuild_ratings", "record_op", "stored_matches"]

log = logging.getLogger("golf.server")

Connish = AsyncConnection | AsyncEngine
T = TypeVar("T")


@dataclass(frozen=True)
class RatedSeat:
    """A seat of a finished match as the rating needs it: a person's player id, or a
    server bot's spec; and whether the person abandoned."""

    position: int
    player_id: str | None = None
    bot: str | None = None
    abandoned: bool = False


@dataclass(frozen=True)
class SeatChange:
    """One person's rating change in a recorded match (what the ``rating`` frame says)."""

    position: int
    player_id: str
    change: RatingChange
    #: The person abandoned the match and was rated last (the note says so by the change).
    abandoned: bool = False

    def to_json(self) -> dict[str, Any]:
        """The seat's entry of the ``rating`` frame (docs/protocol.md)."""
        c = self.change
        return {"seat": self.position, "player": self.player_id,
                "before": c.before.display, "after": c.after.display, "delta": c.delta,
                "provisional": c.after.provisional, "matches": c.after.matches,
                "passed": list(c.passed), "abandoned": self.abandoned}


def _bots(seat_kinds: Sequence[tuple[str, str | None]]) -> list[str]:
    """The bots among these seats (each ``(kind, bot spec)``); an external bot has no
    measured rating, so it makes a table casual."""
    return [bot or "medium" if kind == "bot" else EXTERNAL
            for kind, bot in seat_kinds if kind in ("bot", "external")]


def casual_reason_for(rules: Rules, seat_kinds: Sequence[tuple[str, str | None]],
                      anchors: Anchors | None = None) -> str | None:
    """Why a table of these rules and seats (each ``(kind, bot spec)``) cannot be rated,
    or None."""
    return casual_reason(rules, len(seat_kinds), _bots(seat_kinds), anchors)


def casual_cause_for(rules: Rules, seat_kinds: Sequence[tuple[str, str | None]],
                     anchors: Anchors | None = None) -> dict[str, str] | None:
    """:func:`casual_reason_for` as data (:func:`golf.ratings.casual_cause`): the
    ``cause`` of a ``not_rateable`` refusal, which a page words in its language."""
    return casual_cause(rules, len(seat_kinds), _bots(seat_kinds), anchors)


def rated_match(variant: Variant, seats: Sequence[RatedSeat],
                result: Mapping[str, Any]) -> RatedMatch:
    """The rated match of a finished (or ended) match's result: places by
    :func:`placings` of its winners and totals, abandoners last."""
    places = placings(list(result.get("winners") or []), list(result["totals"]))
    out = []
    for s in seats:
        who = s.player_id if s.player_id is not None else (s.bot or "medium")
        out.append(Seat(who, places[s.position], bot=s.player_id is None,
                        abandoned=s.abandoned and s.player_id is not None))
    return RatedMatch(variant, tuple(out))


# --- reading ---------------------------------------------------------------------------

async def _run(conn_or_engine: Connish, read: Callable[[AsyncConnection], Awaitable[T]]
               ) -> T:
    if isinstance(conn_or_engine, AsyncEngine):
        async with conn_or_engine.connect() as conn:
            return await read(conn)
    return await read(conn_or_engine)


def _rating(row: Any) -> Rating:
    return Rating(float(row.mu), float(row.sigma), int(row.matches), int(row.abandoned))


async def rating_for(conn_or_engine: Connish, player_id: str,
                     variant: Variant | str) -> Rating:
    """A person's current rating in ``variant`` (a :class:`Variant` or its key such as
    ``six-card/2``); a new player's default :class:`Rating` before any rated match.
    Quick play matches people by it."""
    key = variant.key if isinstance(variant, Variant) else Variant.parse(variant).key

    async def read(conn: AsyncConnection) -> Rating:
        row = (await conn.execute(sa.select(db.ratings).where(
            db.ratings.c.player_id == player_id, db.ratings.c.variant == key))).first()
        return Rating() if row is None else _rating(row)

    return await _run(conn_or_engine, read)


async def ratings_of(conn_or_engine: Connish, player_id: str) -> dict[str, Rating]:
    """A person's ratings by variant key."""
    async def read(conn: AsyncConnection) -> dict[str, Rating]:
        rows = await conn.execute(sa.select(db.ratings).where(
            db.ratings.c.player_id == player_id).order_by(db.ratings.c.variant))
        return {r.variant: _rating(r) for r in rows}

    return await _run(conn_or_engine, read)


async def stored_matches(conn_or_engine: Connish) -> list[tuple[int, float, RatedMatch]]:
    """Every stored rated match as (match id, when it ended, the match), in the order
    they ended (ties by id): what a rebuild rates again."""
    async def read(conn: AsyncConnection) -> list[tuple[int, float, RatedMatch]]:
        heads = (await conn.execute(sa.select(db.rated_matches).order_by(
            db.rated_matches.c.finished, db.rated_matches.c.match_id))).all()
        rows = (await conn.execute(sa.select(db.rated_seats).order_by(
            db.rated_seats.c.match_id, db.rated_seats.c.position))).all()
        by_match: dict[int, list[Seat]] = {}
        for r in rows:
            person = r.player_id is not None
            by_match.setdefault(r.match_id, []).append(Seat(
                r.player_id if person else r.bot, r.place, bot=not person,
                abandoned=bool(r.abandoned)))
        return [(h.match_id, float(h.finished),
                 RatedMatch(Variant.parse(h.variant), tuple(by_match.get(h.match_id, ()))))
                for h in heads]

    return await _run(conn_or_engine, read)


# --- recording -------------------------------------------------------------------------

def record_op(match_id: int, variant: Variant, seats: Sequence[RatedSeat],
              result: Mapping[str, Any], anchors: Anchors | None = None,
              finished: float | None = None
              ) -> Callable[[AsyncConnection], Awaitable[list[SeatChange]]]:
    """The database operation that records one rated match and updates the people's
    ratings (give it to :meth:`golf.server.storage.store.Store.submit`, which runs it in the
    writer's transaction). Its result is each person's change, in seat order. A match
    recorded before (the same ``match_id``) is refused by the primary key."""
    match = rated_match(variant, seats, result)
    fixed = Anchors.measured() if anchors is None else anchors
    when = time.time() if finished is None else finished

    async def op(conn: AsyncConnection) -> list[SeatChange]:
        current: dict[str, Rating] = {}
        for person in match.people:
            current[person] = await rating_for(conn, person, variant)
        changes = rate_match(current, match, fixed)
        await conn.execute(db.rated_matches.insert().values(
            match_id=match_id, variant=variant.key, finished=when))
        await conn.execute(db.rated_seats.insert(), [
            _seat_row(match_id, s, seat, changes.get(seat.player) if not seat.bot else None)
            for s, seat in zip(seats, match.seats, strict=True)])
        for person, change in changes.items():
            await _save_rating(conn, person, variant.key, change.after, when,
                               exists=current[person].matches > 0)
        return [SeatChange(s.position, s.player_id, changes[s.player_id], s.abandoned)
                for s in seats if s.player_id is not None]

    return op


def _seat_row(match_id: int, s: RatedSeat, seat: Seat,
              change: RatingChange | None) -> dict[str, Any]:
    return {"match_id": match_id, "position": s.position, "player_id": s.player_id,
            "bot": None if s.player_id is not None else seat.player, "place": seat.place,
            "abandoned": seat.abandoned,
            "mu_before": change.before.mu if change else None,
            "sigma_before": change.before.sigma if change else None,
            "mu_after": change.after.mu if change else None,
            "sigma_after": change.after.sigma if change else None}


async def _save_rating(conn: AsyncConnection, player: str, key: str, r: Rating,
                       when: float, exists: bool) -> None:
    values = {"mu": r.mu, "sigma": r.sigma, "matches": r.matches, "abandoned": r.abandoned,
              "updated": when}
    if exists:
        await conn.execute(db.ratings.update().where(
            db.ratings.c.player_id == player, db.ratings.c.variant == key).values(**values))
    else:
        await conn.execute(db.ratings.insert().values(player_id=player, variant=key,
                                                      **values))


def change_frame(table_id: str, number: int, variant: Variant,
                 changes: Sequence[SeatChange]) -> dict[str, Any]:
    """The ``rating`` frame sent after a rated match is recorded (docs/protocol.md)."""
    return {"type": "rating", "table": table_id, "match": number, "variant": variant.key,
            "seats": [c.to_json() for c in changes]}


# --- rebuilding ------------------------------------------------------------------------

async def rebuild_ratings(engine: AsyncEngine, anchors: Anchors | None = None) -> int:
    """Rate every stored rated match again from scratch, in the order they ended, with
    ``anchors`` (the shipped measured ones unless given), and rewrite ``golf_ratings``
    and each stored seat's before/after in one transaction. Returns how many matches
    were rated. With the anchors they were recorded with, the ratings come out as
    they were (``golf admin rebuild-ratings`` calls this after the bots are measured
    again)."""
    fixed = Anchors.measured() if anchors is None else anchors
    async with engine.begin() as conn:
        matches = await stored_matches(conn)
        book = RatingBook(fixed)
        updated: dict[tuple[str, str], float] = {}
        for match_id, finished, match in matches:
            changes = book.record(match)
            for seat in match.seats:
                if seat.bot:
                    continue
                c = changes[seat.player]
                await conn.execute(db.rated_seats.update().where(
                    db.rated_seats.c.match_id == match_id,
                    db.rated_seats.c.player_id == seat.player).values(
                        mu_before=c.before.mu, sigma_before=c.before.sigma,
                        mu_after=c.after.mu, sigma_after=c.after.sigma))
                updated[(seat.player, match.variant.key)] = finished
        await conn.execute(db.ratings.delete())
        rows = [{"player_id": p, "variant": v.key, "mu": r.mu, "sigma": r.sigma,
                 "matches": r.matches, "abandoned": r.abandoned,
                 "updated": updated[(p, v.key)]}
                for (v, p), r in sorted(book.ratings.items())]
        if rows:
            await conn.execute(db.ratings.insert(), rows)
    return len(matches)


# --- a room's finished match -----------------------------------------------------------

@dataclass(frozen=True)
class SeatAtEnd:
    """A seat as the room knows it when a rated match ends: its kind (``human``,
    ``bot``, ``external``), a server bot's spec, and whether its person abandoned (left
    for good, or the absence policy gave up on them and they did not come back)."""

    position: int
    kind: str
    bot: str | None
    abandoned: bool


@dataclass(frozen=True)
class Unrated:
    """Why a rated table's match was not rated: the sentence (the ``rating`` frame's
    ``reason``) and the same as data a page words in its language (its ``cause``)."""

    reason: str
    cause: dict[str, Any]


def _people_op(table_id: str, seats: Sequence[SeatAtEnd]
               ) -> Callable[[AsyncConnection], Awaitable[list[RatedSeat] | Unrated]]:
    """Reads which player sits in each person's seat; why not instead when a person
    has no player profile (a seat from before profiles) or sits twice."""
    async def op(conn: AsyncConnection) -> list[RatedSeat] | Unrated:
        rows = await conn.execute(sa.select(db.seats.c.position, db.seats.c.player_id)
                                  .where(db.seats.c.table_id == table_id))
        ids = {int(r.position): r.player_id for r in rows}
        out = []
        for s in seats:
            if s.kind != "human":
                out.append(RatedSeat(s.position, None, s.bot or "medium"))
                continue
            pid = ids.get(s.position)
            if pid is None:
                return Unrated(f"seat {s.position} has no player profile, so the match is "
                               "casual", {"reason": "no_profile", "seat": s.position})
            out.append(RatedSeat(s.position, pid, None, s.abandoned))
        people = [s.player_id for s in out if s.player_id is not None]
        if len(set(people)) != len(people):
            return Unrated("a player sat in two seats, so the match is casual",
                           {"reason": "two_seats"})
        return out

    return op


async def rate_finished(store: Store, table_id: str, match_id: int, number: int,
                        rules: Rules, seats: Sequence[SeatAtEnd],
                        result: Mapping[str, Any], anchors: Anchors | None = None
                        ) -> dict[str, Any]:
    """Rate a rated table's match that just ended (finished, or ended by the absence
    policy) and return the ``rating`` frame for everyone at the table: each person's
    change, or why the match was not rated. Reading the seats' players, rating and
    writing run in one transaction of the store's writer. A failure to rate never
    stops the table: it is logged and the frame says the match was not rated."""
    kinds = [(s.kind, s.bot) for s in seats]
    reason = casual_reason_for(rules, kinds, anchors)
    head: dict[str, Any] = {"type": "rating", "table": table_id, "match": number}
    if reason is not None:
        return {**head, "rated": False, "reason": reason,
                "cause": casual_cause_for(rules, kinds, anchors)}
    variant = Variant(rules.name, band_for(len(seats)))
    people = _people_op(table_id, seats)

    async def op(conn: AsyncConnection) -> list[SeatChange] | Unrated:
        rated = await people(conn)
        if isinstance(rated, Unrated):
            return rated
        return await record_op(match_id, variant, rated, result, anchors)(conn)

    try:
        done = await store.submit(op)
    except Exception:  # the match is stored and announced: a rating failure is logged only
        log.exception("table %s: match %d could not be rated", table_id, number)
        done = Unrated("the match could not be rated (a server error, logged)",
                       {"reason": "error"})
    if isinstance(done, Unrated):
        return {**head, "variant": variant.key, "rated": False, "reason": done.reason,
                "cause": done.cause}
    return {**change_frame(table_id, number, variant, done), "rated": True}


async def match_changes(conn_or_engine: Connish, table_id: str, number: int,
                        anchors: Anchors | None = None) -> dict[str, Any] | None:
    """The ``rating`` frame of a stored rated match (a table that reconnects after the
    match fetches it by REST), or None when that match was not rated."""
    fixed = Anchors.measured() if anchors is None else anchors

    async def read(conn: AsyncConnection) -> dict[str, Any] | None:
        head = (await conn.execute(
            sa.select(db.rated_matches.c.match_id, db.rated_matches.c.variant,
                      db.rated_matches.c.finished)
            .join(db.matches, db.matches.c.id == db.rated_matches.c.match_id)
            .where(db.matches.c.table_id == table_id, db.matches.c.number == number))).first()
        if head is None:
            return None
        variant = Variant.parse(head.variant)
        rows = await conn.execute(sa.select(db.rated_seats).where(
            db.rated_seats.c.match_id == head.match_id, db.rated_seats.c.player_id.is_not(None)
        ).order_by(db.rated_seats.c.position))
        changes = []
        for r in rows.all():
            n = await _matches_until(conn, r.player_id, head)
            before = Rating(r.mu_before, r.sigma_before, n - 1)
            after = Rating(r.mu_after, r.sigma_after, n)
            was = set(bots_below(before, variant, fixed))
            passed = tuple(b for b in bots_below(after, variant, fixed) if b not in was)
            changes.append(SeatChange(int(r.position), r.player_id,
                                      RatingChange(before, after, passed), bool(r.abandoned)))
        return {**change_frame(table_id, number, variant, changes), "rated": True}

    return await _run(conn_or_engine, read)


async def _matches_until(conn: AsyncConnection, player_id: str, head: Any) -> int:
    """How many rated matches of ``head``'s variant the player had played once it
    ended (it included): the stored rows keep mu and sigma, not the running count."""
    rm = db.rated_matches
    earlier = sa.or_(rm.c.finished < head.finished,
                     sa.and_(rm.c.finished == head.finished, rm.c.match_id <= head.match_id))
    q = (sa.select(sa.func.count()).select_from(db.rated_seats.join(
        rm, rm.c.match_id == db.rated_seats.c.match_id))
        .where(db.rated_seats.c.player_id == player_id, rm.c.variant == head.variant, earlier))
    return int((await conn.execute(q)).scalar_one())
