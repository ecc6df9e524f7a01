"""Public player profiles, read from the stored matches and ratings (the leaderboards
are :mod:`.leaderboards`, the rating graph :mod:`.rating_graph`, the names shown
:mod:`.names`).

A profile holds public figures only (what anyone at the player's tables could see): the
display name, games, wins, hole scores, ratings, recent matches with their replays and
head-to-head records. Never a token, a session, an account detail or a hidden card.

Figures per variant (``PRESET/BAND``; a table with house rules is its own line,
``PRESET/BAND house``) come from every *finished* match the player sat in
(``golf_seats.player_id``); a match the absence policy ended counts in the recent
matches and, if rated, in the rating and the completion rate, not in games and wins.
A person who abandoned a match is last in it (and did not win it) everywhere here, as
the rating counts them, and their hole figures hold only the holes they played
themselves (none where a stand-in bot made a move for them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ...ratings import (
    BANDS,
    Rating,
    completion_rate,
    display_rating,
    effective_places,
    placings,
    rules_rateable,
)
from ...ratings import Seat as RatedSeatOf
from ...rules import rules_from_dict
from ..core.bridge import bot_label
from ..storage import db
from .names import DELETED, player_name, profile_names

__all__ = ["RECENT", "Profile", "band_label", "profile", "variant_label"]

#: Recent matches on a profile.
RECENT = 10
#: Opponents in the head-to-head table.
HEAD_TO_HEAD = 10


def band_label(players: int) -> str:
    """The band of a player count; ``1`` for solitaire (which has no rating)."""
    for name, (lo, hi) in BANDS.items():
        if lo <= players <= hi:
            return name
    return str(players)


_rateable_cache: dict[str, bool] = {}


def variant_label(rules: Mapping[str, Any], players: int) -> str:
    """``PRESET/BAND`` of a stored match's rules, ``PRESET/BAND house`` with house
    rules (rules checked once per distinct rule set)."""
    key = json.dumps(rules, sort_keys=True)
    if key not in _rateable_cache:
        try:
            _rateable_cache[key] = rules_rateable(rules_from_dict(rules))
        except Exception:  # a stored rule set this version cannot read: not a preset
            _rateable_cache[key] = False
    label = f"{rules.get('name', '?')}/{band_label(players)}"
    return label if _rateable_cache[key] else label + " house"


@dataclass
class Who:
    """An opponent: a person (player id) or a server bot (spec)."""

    player: str | None
    bot: str | None
    name: str

    def key(self) -> str:
        return f"p:{self.player}" if self.player else f"b:{self.bot}"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "bot": self.bot, "name": self.name}


@dataclass
class VariantFigures:
    """One variant's figures of a profile."""

    games: int = 0
    wins: int = 0
    holes: int = 0
    hole_total: int = 0
    best_hole: int | None = None

    def add(self, won: bool, hole_scores: Iterable[int]) -> None:
        self.games += 1
        self.wins += won
        for s in hole_scores:
            self.holes += 1
            self.hole_total += s
            self.best_hole = s if self.best_hole is None else min(self.best_hole, s)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins,
                "win_rate": self.wins / self.games if self.games else None,
                "average_hole": self.hole_total / self.holes if self.holes else None,
                "best_hole": self.best_hole, "holes": self.holes}


@dataclass
class Record:
    """A head-to-head record against one opponent."""

    who: Who
    matches: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.who.to_json(), "matches": self.matches, "wins": self.wins,
                "losses": self.losses, "ties": self.ties}


@dataclass
class Profile:
    """A player's public profile (:func:`profile`)."""

    id: str
    name: str
    figures: dict[str, VariantFigures] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)
    recent: list[dict[str, Any]] = field(default_factory=list)
    head_to_head: list[Record] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        variants = sorted(set(self.figures) | set(self.ratings))
        rows = []
        for v in variants:
            r = self.ratings.get(v)
            rows.append({"variant": v, **self.figures.get(v, VariantFigures()).to_json(),
                         "rating": None if r is None else _rating_json(r)})
        rated = list(self.ratings.values())
        return {"id": self.id, "name": self.name, "variants": rows,
                "rated_matches": sum(r.matches for r in rated),
                "abandoned": sum(r.abandoned for r in rated),
                "completion_rate": completion_rate(rated),
                "recent": self.recent,
                "head_to_head": [h.to_json() for h in self.head_to_head],
                "rating_graph": f"/api/players/{self.id}/rating.svg"}


def _rating_json(r: Rating) -> dict[str, Any]:
    return {"rating": r.display, "provisional": r.provisional, "matches": r.matches,
            "abandoned": r.abandoned}


async def profile(conn: AsyncConnection, player_id: str) -> Profile | None:
    """The public profile of ``player_id`` (None: no such player, or deleted)."""
    name = await player_name(conn, player_id)
    if name is None:
        return None
    out = Profile(player_id, name)
    s, m = db.seats, db.matches
    mine = (await conn.execute(
        sa.select(s.c.table_id, s.c.position, m.c.id, m.c.number, m.c.status, m.c.rules,
                  m.c.players, m.c.result, m.c.finished, m.c.names)
        .join(m, m.c.table_id == s.c.table_id)
        .where(s.c.player_id == player_id, m.c.status.in_(("finished", "ended")))
        .order_by(m.c.finished.desc(), m.c.id.desc()))).all()
    if mine:
        others = (await conn.execute(
            sa.select(s.c.table_id, s.c.position, s.c.kind, s.c.bot, s.c.player_id, s.c.name)
            .where(s.c.table_id.in_({r.table_id for r in mine})))).all()
    else:
        others = []
    seats_of: dict[str, list[Any]] = {}
    for o in others:
        seats_of.setdefault(o.table_id, []).append(o)
    names = await profile_names(conn, [o.player_id for o in others if o.player_id])
    rated = await _rated_deltas(conn, player_id)
    rated_places = await _rated_places(conn, rated)
    records: dict[str, Record] = {}
    for row in mine:
        label = variant_label(row.rules, row.players)
        result = row.result or {}
        totals = list(result.get("totals") or [])
        winners = list(result.get("winners") or [])
        places = placings(winners, totals) if len(totals) == row.players else None
        # Who abandoned, as stored with the result (a match stored before it was kept
        # there: nobody, unless its rating says so below).
        gone = {int(p) for p in result.get("abandoned") or ()}
        if places is not None and gone:
            places = effective_places([RatedSeatOf("", p, abandoned=i in gone)
                                       for i, p in enumerate(places)])
        if row.id in rated_places:
            # A rated match shows the places it was rated by: an abandoner is last and
            # did not win, whatever the cards said (history, wins and rating agree).
            places, gone = rated_places[row.id]
        won = places[row.position] == 0 and row.position not in gone \
            if places is not None else row.position in winners
        if row.status == "finished" and places is not None:
            # Only the holes the person played: a hole where a stand-in bot made a move
            # for them is the bot's as much as theirs.
            stood_in = list(result.get("stood_in") or ())
            skip = set(stood_in[row.position]) if row.position < len(stood_in) else set()
            scores = [h[row.position] for i, h in enumerate(result.get("hole_scores") or [])
                      if row.position < len(h) and i + 1 not in skip]
            out.figures.setdefault(label, VariantFigures()).add(won, scores)
        table_seats = [o for o in seats_of.get(row.table_id, ()) if o.position < row.players]
        # Each opponent as the table showed them in this match (its stored names: a
        # numbered bot "Easy bot 2", a guest by the name they played under).
        played = list(row.names or [])
        opponents = [_who(o, names, played[o.position] if o.position < len(played) else None)
                     for o in sorted(table_seats, key=lambda o: o.position)
                     if o.position != row.position]
        if places is not None and row.status == "finished":
            _count_head_to_head(records, row.position, places, table_seats, names)
        if len(out.recent) < RECENT:
            out.recent.append({
                "table": row.table_id, "match": row.number, "variant": label,
                "status": row.status, "finished": row.finished,
                "place": None if places is None else places[row.position] + 1,
                "left": row.position in gone,
                "players": row.players, "rating_delta": rated.get(row.id),
                "rated": row.id in rated,
                "replay": f"/replay/{row.table_id}/{row.number}",
                "opponents": [o.to_json() for o in opponents]})
    out.head_to_head = sorted(records.values(),
                              key=lambda r: (-r.matches, r.who.name, r.who.key()))[:HEAD_TO_HEAD]
    rows = await conn.execute(sa.select(db.ratings).where(db.ratings.c.player_id == player_id))
    out.ratings = {r.variant: Rating(r.mu, r.sigma, r.matches, r.abandoned) for r in rows}
    return out


def _who(seat: Any, names: Mapping[str, str | None], played: str | None = None) -> Who:
    """The opponent in ``seat``; ``played``: the name the seat had in the match (None: a
    head-to-head record over several matches, where a bot is its level)."""
    if seat.kind == "bot":
        spec = seat.bot or "medium"
        return Who(None, spec, played or bot_label(spec))
    if seat.player_id:
        name = names.get(seat.player_id, DELETED)
        if name is None:  # a guest: the name they played under, never "guest"
            name = played or seat.name or "guest"
        # A deleted player is nobody's to link to.
        return Who(None if name == DELETED else seat.player_id, None, name)
    return Who(None, None, played or seat.name or f"Seat {seat.position}")


def _count_head_to_head(records: dict[str, Record], me: int, places: Sequence[int],
                        seats: Sequence[Any], names: Mapping[str, str | None]) -> None:
    for o in seats:
        if o.position == me:
            continue
        who = _who(o, names)
        if who.player is None and who.bot is None:
            continue  # a seat of no profile (or a deleted one) has no record to keep
        rec = records.setdefault(who.key(), Record(who))
        rec.matches += 1
        if places[me] < places[o.position]:
            rec.wins += 1
        elif places[me] > places[o.position]:
            rec.losses += 1
        else:
            rec.ties += 1


async def _rated_places(conn: AsyncConnection, match_ids: Iterable[int]
                        ) -> dict[int, tuple[list[int], set[int]]]:
    """Each of these rated matches' places as rated (golf.ratings.effective_places: an
    abandoner last) by seat position, and the positions that abandoned."""
    wanted = sorted(set(match_ids))
    if not wanted:
        return {}
    rs = db.rated_seats
    rows = (await conn.execute(sa.select(rs.c.match_id, rs.c.position, rs.c.place,
                                         rs.c.abandoned)
                               .where(rs.c.match_id.in_(wanted)))).all()
    by_match: dict[int, list[Any]] = {}
    for r in rows:
        by_match.setdefault(r.match_id, []).append(r)
    out: dict[int, tuple[list[int], set[int]]] = {}
    for match_id, seats in by_match.items():
        seats.sort(key=lambda r: r.position)
        if [r.position for r in seats] != list(range(len(seats))):
            continue  # not every seat stored: keep the result's places
        rated = effective_places([RatedSeatOf("", int(r.place), abandoned=bool(r.abandoned))
                                  for r in seats])
        out[match_id] = (rated, {r.position for r in seats if r.abandoned})
    return out


async def _rated_deltas(conn: AsyncConnection, player_id: str) -> dict[int, int]:
    """The shown rating's change in each rated match of the player, by match id."""
    rs = db.rated_seats
    rows = await conn.execute(sa.select(rs.c.match_id, rs.c.mu_before, rs.c.sigma_before,
                                        rs.c.mu_after, rs.c.sigma_after)
                              .where(rs.c.player_id == player_id))
    return {r.match_id: display_rating(r.mu_after, r.sigma_after)
            - display_rating(r.mu_before, r.sigma_before) for r in rows}
