"""A player's rating over time: each variant's shown rating after every rated match
(read from the stored ratings) and the graph of it as an accessible SVG document
(``GET /api/players/{id}/rating.svg``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ...ratings import display_rating
from ..storage import db

__all__ = ["rating_history", "rating_svg"]


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
#: From the x axis to the legend's top: the axis label ("12 rated matches") above it.
LEGEND_GAP = 22


def rating_svg(name: str, history: Mapping[str, Sequence[tuple[float, int]]],
               lang: str = "en") -> str:
    """The rating-over-time graph as an SVG document: an accessible title and
    description (the figures in words), axes with the lowest and highest rating, one
    line per variant (the four with the most matches), x by match number.

    >>> svg = rating_svg("Ann", {"six-card/2": [(0.0, 900), (1.0, 1049)]})
    >>> "<title id=\\"t\\">Rating of Ann over time</title>" in svg, "polyline" in svg
    (True, True)
    >>> svg.split('<g id="legend" data-top="226">')[1].count("<text")  # under the plot
    1
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
    legend = []
    for k, (variant, pts) in enumerate(lines):
        colour, dash = _STYLES[k]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_, v) in enumerate(pts))
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dashed} '
                     f'points="{coords}"/>')
        lx = PAD_L + (k % 2) * span_x / 2
        ly = H - PAD_B + 30 + (k // 2) * 16
        legend.append(f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 24:.1f}" y2="{ly - 4}" '
                      f'stroke="{colour}" stroke-width="2.5"{dashed}/>')
        legend.append(f'<text x="{lx + 30:.1f}" y="{ly}" fill="#222">{escape(variant)} '
                      f'({pts[-1][1]})</text>')
    # The legend in a group of its own, with where it begins: the profile page words it
    # (its variants' names are too long for a column of this drawing, and its 12 px would
    # be scaled down to 6 on a phone) and shows it as a list under the drawing, which it
    # crops to the plot and its axis labels (js/profile.js, graphParts).
    parts.append(f'<g id="legend" data-top="{H - PAD_B + LEGEND_GAP}">{"".join(legend)}</g>')
    return "".join(parts) + "</svg>"
