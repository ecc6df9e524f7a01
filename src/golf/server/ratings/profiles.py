"""Public player profiles and leaderboards, read from the stored matches and ratings.

A profile holds public figures only (what anyone at the player's tables could see): the
display name, games, wins, hole scores, ratings, recent matches with their replays and
head-to-head records. Never a token, a session, an account detail or a hidden card.

Figures per variant (``PRESET/BAND``; a table with house rules is its own line,
``PRESET/BAND house``) come from every *finished* match the player sat in
(``golf_seats.player_id``); a match the absence policy ended counts in the recent
matches and, if rated, in the rating and the completion rate, not in games and wins.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ...ratings import (
    BANDS,
    PROVISIONAL_MATCHES,
    Anchors,
    Rating,
    Variant,
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

__all__ = ["DELETED", "LEADERBOARD_PAGE", "RECENT", "Leaderboard", "Profile",
           "leaderboard", "played_names", "profile", "rating_svg", "shown_names"]

#: How a deleted player is shown in others' histories.
DELETED = "deleted player"
#: Recent matches on a profile.
RECENT = 10
#: Opponents in the head-to-head table.
HEAD_TO_HEAD = 10
#: Rows per leaderboard page.
LEADERBOARD_PAGE = 20


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


async def _names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str | None]:
    """Profile names of players; a deleted one is "deleted player", a guest who never
    chose a profile name None (shown by the name they played under: :func:`_who`)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await conn.execute(sa.select(db.players.c.id, db.players.c.name,
                                        db.players.c.status)
                              .where(db.players.c.id.in_(wanted)))
    return {r.id: DELETED if r.status == "deleted" else (r.name or None) for r in rows}


async def played_names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str]:
    """The name each of these players last sat at a table under (shown to everyone at
    that table already): how a guest who never chose a profile name is shown. A player
    who never sat anywhere is left out."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    s = db.seats
    rows = (await conn.execute(sa.select(s.c.player_id, s.c.name).where(
        s.c.player_id.in_(wanted), s.c.name.is_not(None)).order_by(s.c.id))).all()
    return {r.player_id: str(r.name) for r in rows}  # the newest seat last: it wins


async def shown_names(conn: AsyncConnection, ids: Iterable[str]) -> dict[str, str]:
    """Each player's name as others are shown it: the profile name, else the name they
    last played under, else "guest"; a deleted player "deleted player"."""
    names = await _names(conn, ids)
    played = await played_names(conn, [i for i, n in names.items() if n is None])
    return {i: n if n is not None else played.get(i, "guest") for i, n in names.items()}


async def player_name(conn: AsyncConnection, player_id: str) -> str | None:
    """The display name of a player whose profile may be shown, None if there is no
    such player (or it was deleted: a deleted profile is gone)."""
    row = (await conn.execute(sa.select(db.players.c.name, db.players.c.status)
                              .where(db.players.c.id == player_id))).first()
    if row is None or row.status == "deleted":
        return None
    if row.name:
        return str(row.name)
    # A guest who never chose a profile name: the name they last sat at a table under
    # (shown to everyone at that table already).
    return (await played_names(conn, [player_id])).get(player_id, "guest")


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
    names = await _names(conn, [o.player_id for o in others if o.player_id])
    rated = await _rated_deltas(conn, player_id)
    rated_places = await _rated_places(conn, rated)
    records: dict[str, Record] = {}
    for row in mine:
        label = variant_label(row.rules, row.players)
        result = row.result or {}
        totals = list(result.get("totals") or [])
        winners = list(result.get("winners") or [])
        places = placings(winners, totals) if len(totals) == row.players else None
        won = row.position in winners
        if row.id in rated_places:
            # A rated match shows the places it was rated by: an abandoner is last and
            # did not win, whatever the cards said (history, wins and rating agree).
            places, gone = rated_places[row.id]
            won = places[row.position] == 0 and row.position not in gone
        if row.status == "finished" and places is not None:
            scores = [h[row.position] for h in result.get("hole_scores") or []
                      if row.position < len(h)]
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


# --- the rating graph -------------------------------------------------------------------

async def rating_history(conn: AsyncConnection, player_id: str
                         ) -> dict[str, list[tuple[float, int]]]:
    """Each variant's shown rating after every rated match, oldest first, starting
    with the rating before the first: ``{variant: [(time, rating), ...]}``."""
    rs, rm = db.rated_seats, db.rated_matches
    rows = await conn.execute(
        sa.select(rm.c.variant, rm.c.finished, rs.c.mu_before, rs.c.sigma_before,
                  rs.c.mu_after, rs.c.sigma_after)
        .join(rm, rm.c.match_id == rs.c.match_id)
        .where(rs.c.player_id == player_id).order_by(rm.c.finished, rm.c.match_id))
    out: dict[str, list[tuple[float, int]]] = {}
    for r in rows:
        line = out.setdefault(r.variant, [])
        if not line:
            line.append((r.finished, display_rating(r.mu_before, r.sigma_before)))
        line.append((r.finished, display_rating(r.mu_after, r.sigma_after)))
    return out


_SVG_WORDS = {
    "en": {"title": "Rating of {name} over time",
           "desc": "One line per variant, each point the rating after a rated match. {lines}",
           "line": "{variant}: {n} rated matches, from {first} to {last}",
           "none": "No rated matches yet.", "matches": "rated matches"},
    "de": {"title": "Wertung von {name} im Verlauf",
           "desc": "Eine Linie je Variante, jeder Punkt die Wertung nach einer gewerteten "
                   "Partie. {lines}",
           "line": "{variant}: {n} gewertete Partien, von {first} bis {last}",
           "none": "Noch keine gewerteten Partien.", "matches": "gewertete Partien"},
}
#: Line colours told apart by people with colour-blindness (Okabe-Ito), each with its
#: own dash pattern too, so colour is never the only difference.
_STYLES = [("#0072B2", ""), ("#D55E00", "6 3"), ("#009E73", "2 3"), ("#CC79A7", "8 3 2 3")]
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 640, 260, 52, 16, 16, 56


def rating_svg(name: str, history: Mapping[str, Sequence[tuple[float, int]]],
               lang: str = "en") -> str:
    """The rating-over-time graph as an SVG document: an accessible title and
    description (the figures in words), axes with the lowest and highest rating, one
    line per variant (the four with the most matches), x by match number.

    >>> svg = rating_svg("Ann", {"six-card/2": [(0.0, 900), (1.0, 1049)]})
    >>> "<title id=\\"t\\">Rating of Ann over time</title>" in svg, "polyline" in svg
    (True, True)
    """
    words = _SVG_WORDS.get(lang, _SVG_WORDS["en"])
    lines = sorted(history.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:len(_STYLES)]
    said = " ".join(words["line"].format(variant=v, n=len(pts) - 1, first=pts[0][1],
                                         last=pts[-1][1]) for v, pts in lines)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
            f'width="{W}" height="{H}" role="img" aria-labelledby="t d" '
            'font-family="sans-serif" font-size="12">'
            f'<title id="t">{escape(words["title"].format(name=name))}</title>'
            f'<desc id="d">{escape(words["desc"].format(lines=said) if lines else words["none"])}'
            '</desc><rect width="100%" height="100%" fill="#fff"/>')
    if not lines:
        return head + (f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle" fill="#333">'
                       f'{escape(words["none"])}</text></svg>')
    values = [p[1] for _, pts in lines for p in pts]
    lo, hi = min(values), max(values)
    if hi - lo < 50:  # a flat line still gets a readable scale
        lo, hi = lo - 25, hi + 25
    longest = max(len(pts) for _, pts in lines) - 1
    span_x = W - PAD_L - PAD_R
    span_y = H - PAD_T - PAD_B

    def x(i: int) -> float:
        return PAD_L + (span_x * i / longest if longest else span_x / 2)

    def y(v: int) -> float:
        return PAD_T + span_y * (hi - v) / (hi - lo)

    parts = [head,
             f'<line x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" y2="{H - PAD_B}" stroke="#555"/>',
             f'<line x1="{PAD_L}" y1="{H - PAD_B}" x2="{W - PAD_R}" y2="{H - PAD_B}" '
             'stroke="#555"/>']
    for v in (lo, (lo + hi) // 2, hi):
        parts.append(f'<text x="{PAD_L - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
                     f'fill="#333">{v}</text>')
        parts.append(f'<line x1="{PAD_L}" y1="{y(v):.1f}" x2="{W - PAD_R}" y2="{y(v):.1f}" '
                     'stroke="#ddd"/>')
    parts.append(f'<text x="{W - PAD_R}" y="{H - PAD_B + 16}" text-anchor="end" fill="#333">'
                 f'{longest} {escape(words["matches"])}</text>')
    for k, (variant, pts) in enumerate(lines):
        colour, dash = _STYLES[k]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_, v) in enumerate(pts))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dashed} '
                     f'points="{coords}"/>')
        lx = PAD_L + (k % 2) * span_x / 2
        ly = H - PAD_B + 30 + (k // 2) * 16
        parts.append(f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 24:.1f}" y2="{ly - 4}" '
                     f'stroke="{colour}" stroke-width="2.5"{dashed}/>')
        parts.append(f'<text x="{lx + 30:.1f}" y="{ly}" fill="#222">{escape(variant)} '
                     f'({pts[-1][1]})</text>')
    return "".join(parts) + "</svg>"


# --- leaderboards -----------------------------------------------------------------------

@dataclass
class Leaderboard:
    """One page of a variant's leaderboard and the viewer's own position."""

    variant: str
    page: int
    pages: int
    total: int
    rows: list[dict[str, Any]]
    me: dict[str, Any] | None
    bots: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "page": self.page, "pages": self.pages,
                "total": self.total, "per_page": LEADERBOARD_PAGE, "rows": self.rows,
                "me": self.me, "bots": self.bots,
                "min_matches": PROVISIONAL_MATCHES}


async def leaderboard(conn: AsyncConnection, variant: Variant, page: int,
                      viewer: str | None, anchors: Anchors | None = None) -> Leaderboard:
    """Page ``page`` (from 1) of ``variant``'s leaderboard: people with at least
    :data:`~golf.ratings.PROVISIONAL_MATCHES` rated matches, highest shown rating first
    (ties: the more settled, i.e. higher ``mu - 3 sigma`` unrounded, then the player
    id); deleted and suspended players are left out. ``viewer``'s own row (with its
    rank) is given whether or not it is on the page; a viewer not yet on the board gets
    their rating and how many matches they still need. The variant's bots are listed
    apart at their fixed ratings."""
    r, p = db.ratings, db.players
    rows = (await conn.execute(
        sa.select(r.c.player_id, r.c.mu, r.c.sigma, r.c.matches, r.c.abandoned, p.c.name)
        .join(p, p.c.id == r.c.player_id)
        .where(r.c.variant == variant.key, r.c.matches >= PROVISIONAL_MATCHES,
               p.c.status == "active"))).all()
    ranked = sorted(rows, key=lambda x: (-display_rating(x.mu, x.sigma),
                                         -(x.mu - 3 * x.sigma), x.player_id))
    # A guest on the board is shown by the name they played under (never "guest").
    played = await played_names(conn, [x.player_id for x in ranked if not x.name])
    entries = [{"rank": i + 1, "player": x.player_id,
                "name": x.name or played.get(x.player_id, "guest"),
                "rating": display_rating(x.mu, x.sigma), "matches": x.matches,
                "completion_rate": (x.matches - x.abandoned) / x.matches}
               for i, x in enumerate(ranked)]
    pages = max(1, math.ceil(len(entries) / LEADERBOARD_PAGE))
    start = (page - 1) * LEADERBOARD_PAGE
    me = next((e for e in entries if e["player"] == viewer), None)
    if me is None and viewer is not None:
        mine = (await conn.execute(sa.select(r).where(
            r.c.player_id == viewer, r.c.variant == variant.key))).first()
        rating = Rating() if mine is None else Rating(mine.mu, mine.sigma, mine.matches)
        me = {"rank": None, "player": viewer, "rating": rating.display,
              "matches": rating.matches, "provisional": True,
              "needed": PROVISIONAL_MATCHES - rating.matches}
    elif me is not None:
        me = {**me, "page": (me["rank"] - 1) // LEADERBOARD_PAGE + 1}
    fixed = Anchors.measured() if anchors is None else anchors
    anchored = sorted(fixed.by_variant.get(variant, {}).items(),
                      key=lambda kv: (-kv[1].display, kv[0]))
    bots = [{"bot": b, "name": bot_label(b), "rating": a.display} for b, a in anchored]
    return Leaderboard(variant.key, page, pages, len(entries),
                       entries[start:start + LEADERBOARD_PAGE], me, bots)

