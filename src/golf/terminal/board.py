"""Drawing the table: every grid, the piles, the scores and the end-of-hole reveal.

Everything drawn here comes from a view (``Game.view(seat)``, possibly with cards
masked by :func:`masked`) or from the engine's explained :class:`~golf.Score`;
matches are found by the engine's scorer, never by rules of our own.

>>> from golf import Game
>>> from golf.terminal.style import Style
>>> g = Game("six-card", players=2, seed=5)
>>> for a in ("reveal 1", "reveal 4", "reveal 2", "reveal 5"):
...     g.apply(a)
>>> v = g.view(0)
>>> text = board(v, ["Ann", "Bob"], g.rules, Style())
>>> "Ann" in text and "Stock: 39" in text and "###" in text
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import parse_card
from ..rules import Rules
from ..scoring import Match, Score, scorer
from .narrate import verb
from .style import Style, pad, visible_len

_GAP = 4


def masked(view: Mapping[str, Any], hide_own_face_down: bool, hide_held: bool) -> dict[str, Any]:
    """A copy of ``view`` showing less: the viewer's face-down cards as backs (memory
    mode, or a public screen), and the held card hidden unless it came from the discard
    pile (which everyone saw)."""
    v = dict(view)
    seat = v["seat"]
    if hide_own_face_down and v["grids"][seat] is not None:
        up = v["face_up"][seat]
        grids = list(v["grids"])
        grids[seat] = [c if up[i] else None for i, c in enumerate(grids[seat])]
        v["grids"] = grids
        v["peeked"] = []
    if hide_held and v["held_from"] == "stock":
        v["held"] = None
    return v


def has_drawn(view: Mapping[str, Any]) -> bool:
    """Whether the viewer has drawn (or otherwise ended a turn) in this hole: memory mode
    hides their peeked cards from then on."""
    seat = view["seat"]
    if view["turns"][seat] > 0:
        return True
    return view["current_player"] == seat and view["phase"] in ("hold", "flip")


def known_score(rules: Rules, cards: Sequence[str | None], face_up: Sequence[bool]) -> Score:
    """The engine's score of a grid's face-up cards: what they score now and the
    matches among them (face-down cards count nothing and match nothing).

    >>> from golf import load_rules
    >>> r = load_rules("six-card")
    >>> s = known_score(r, ["5H", None, "KS", "5C", "7D", None],
    ...                 [True, False, True, True, True, False])
    >>> s.total, [m.label for m in s.matches]
    (7, ['column 1'])
    """
    return scorer(rules).partial([parse_card(c) if c is not None and up else None
                                  for c, up in zip(cards, face_up, strict=True)])


def visible_matches(
    rules: Rules, cards: Sequence[str | None], face_up: Sequence[bool]
) -> tuple[Match, ...]:
    """The matches among a grid's face-up cards, as the engine's scorer finds them."""
    return known_score(rules, cards, face_up).matches


def grid_lines(
    cards: Sequence[str | None], rows: int, cols: int, style: Style,
    cancelled: set[int] | None = None,
) -> list[str]:
    """The grid row by row, each card with its 1-based position; cancelled cards
    (0-based cells) carry a mark."""
    cancelled = cancelled or set()
    width = len(str(rows * cols))
    out = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            i = r * cols + c
            pos = style.paint(f"{i + 1:>{width}}:", "dim")
            card = style.card(cards[i])
            if i in cancelled:
                card += style.paint("*", "cancel")
            else:
                card += " "
            cells.append(pos + card)
        out.append(" ".join(cells).rstrip())
    return out


def _match_text(style: Style, names: Sequence[str | None], m: Match) -> str:
    cards = " ".join(style.card_name(c) for c in (names[i - 1] for i in m.cells) if c)
    return f"{m.label} ({cards}) scores {m.points}"


def side_by_side(blocks: Sequence[list[str]], width: int) -> list[str]:
    """Blocks of lines placed next to each other, wrapping to fit ``width`` columns."""
    out: list[str] = []
    row: list[list[str]] = []
    used = 0
    for block in blocks:
        w = max((visible_len(line) for line in block), default=0) + _GAP
        if row and used + w > width:
            out.extend(_join(row))
            out.append("")
            row, used = [], 0
        row.append(block)
        used += w
    if row:
        out.extend(_join(row))
    return out


def _join(row: Sequence[list[str]]) -> list[str]:
    height = max(len(b) for b in row)
    widths = [max((visible_len(line) for line in b), default=0) + _GAP for b in row]
    lines = []
    for k in range(height):
        parts = [pad(b[k] if k < len(b) else "", w) for b, w in zip(row, widths, strict=True)]
        lines.append("".join(parts).rstrip())
    return lines


def board(
    view: Mapping[str, Any], names: Sequence[str], rules: Rules, style: Style,
    width: int = 80, bots: Sequence[str | None] | None = None,
) -> str:
    """The whole table as the view shows it: a header, every grid with its player's
    total, the piles and whose turn it is."""
    v = view
    rows, cols = v["rows"], v["cols"]
    blocks = []
    current = v["current_player"]
    for seat, cards in enumerate(v["grids"]):
        name = names[seat]
        arrow = ("▶ " if style.unicode else "> ") if seat == current else "  "
        head = arrow + (style.paint(name, "turn") if seat == current else style.paint(name, "bold"))
        tags = []
        if bots and bots[seat]:
            tags.append("bot")
        if v["knocked_by"] == seat:
            tags.append("knocked")
        elif v["final_turns_from"] == seat:
            tags.append("out")
        if tags:
            head += style.paint(f" ({', '.join(tags)})", "dim")
        if cards is None:
            blocks.append([head, "  sits out this playoff", f"  total {v['totals'][seat]}"])
            continue
        up = v["face_up"][seat]
        known = known_score(rules, cards, up)
        matches = known.matches
        cancelled = {i - 1 for m in matches for i in m.cells}
        lines = [head]
        lines += ["  " + line for line in grid_lines(cards, rows, cols, style, cancelled)]
        showing = known.total
        lines.append(f"  total {v['totals'][seat]}{style.dot.rstrip()} showing {showing}")
        for m in matches:
            lines.append("  " + style.paint("*", "cancel") + f" {m.label} scores {m.points}")
        blocks.append(lines)
    out = [_title(v, names, style, bool(rules.target))]
    out += side_by_side(blocks, width)
    out.append(_piles(v, names, style))
    return "\n".join(out)


def _title(v: Mapping[str, Any], names: Sequence[str], style: Style, target: bool) -> str:
    hole = f"Hole {v['hole']}"
    if v["playoff"]:
        hole = f"Playoff hole (hole {v['hole']})"
    elif v["holes"]:
        # With a target too, a match usually ends before its last hole.
        hole += f" of {'up to ' if target else ''}{v['holes']}"
    parts = [hole, f"{v['variant']}", f"dealer {names[v['dealer']]}"]
    bar = style.dash * 2
    return style.paint(f"{bar} {style.dot.join(parts)} {bar}", "bold")


def _piles(v: Mapping[str, Any], names: Sequence[str], style: Style) -> str:
    top = v["discard_top"]
    discard = style.card_name(top) if top else "empty"
    parts = [f"Stock: {v['stock_size']}", f"Discard: {discard}"]
    if v["held_by"] is not None:
        who = names[v["held_by"]]
        held = style.card_name(v["held"]) if v["held"] else "a card"
        source = "from the stock" if v["held_from"] == "stock" else "from the discard pile"
        parts.append(f"{verb(who, 'holds', 'hold')} {held} {source}")
    line = style.dot.join(parts)
    if v["knocked_by"] is not None:
        line += f"\n{names[v['knocked_by']]} knocked: everyone else has one last turn."
    elif v["final_turns_from"] is not None:
        line += (f"\n{names[v['final_turns_from']]} has every card face up: "
                 "everyone else has one last turn.")
    return line


def scorecard(view: Mapping[str, Any], names: Sequence[str], style: Style) -> str:
    """The scores of every finished hole, the totals, and any playoff holes."""
    n = len(names)
    width = max(6, *(len(name) + 2 for name in names))
    head = "Hole".ljust(8) + "".join(name.rjust(width) for name in names)
    lines = [style.paint(head, "bold")]
    for k, scores in enumerate(view["hole_scores"], 1):
        lines.append(f"{k:<8}" + "".join(f"{s:>{width}}" for s in scores))
    if not view["hole_scores"]:
        lines.append("(no hole finished yet)")
    lines.append(style.paint("Total".ljust(8) + "".join(
        f"{t:>{width}}" for t in view["totals"]), "bold"))
    for k, scores in enumerate(view["playoff_scores"], 1):
        cells = "".join(("-" if s is None else str(s)).rjust(width) for s in scores[:n])
        lines.append(f"{'Playoff ' + str(k):<8}" + cells)
    return "\n".join(lines)


def explain(score: Score, names: Sequence[str], style: Style) -> str:
    """One line saying why a grid scores what it does: each match, then the sum.

    >>> from golf import score
    >>> s = score("A 2 3 / A 5 K", "six-card")
    >>> explain(s, ["AS", "2H", "3C", "AD", "5S", "KH"], Style())
    'column 1 (AS AD) scores 0; -2 + 3 + 5 + 0 = 6'
    """
    parts = [_match_text(style, names, m) for m in score.matches]
    terms = [m.points for m in score.matches if m.points]
    terms += [score.points[i] for i in range(len(names)) if not score.matched[i]]
    if terms:
        sums = str(terms[0]) + "".join(f" - {-t}" if t < 0 else f" + {t}" for t in terms[1:])
        parts_text = ", ".join(parts)
        return (parts_text + "; " if parts else "") + f"{sums} = {score.total}"
    return ", ".join(parts) + f"; {score.total}"


def reveal(
    last_hole: Mapping[str, Any], scores: Sequence[Score | None], names: Sequence[str],
    rules: Rules, style: Style, width: int = 80,
) -> str:
    """The end of a hole: every grid face up with its cancelled cards marked, a line per
    player saying what cancelled and how the score adds up, and the hole's winner."""
    rows, cols = rules.rows, rules.cols
    blocks = []
    why = []
    grids = last_hole["grids"]
    for seat, score in enumerate(scores):
        if score is None or grids[seat] is None:
            continue
        cards = grids[seat]
        cancelled = {i for i, m in enumerate(score.matched) if m}
        lines = [style.paint(f"{names[seat]}: {score.total}", "bold")]
        lines += ["  " + line for line in grid_lines(cards, rows, cols, style, cancelled)]
        blocks.append(lines)
        why.append(f"{names[seat]}: {explain(score, cards, style)}")
    number = last_hole["number"]
    kind = "Playoff hole" if last_hole["playoff"] else "Hole"
    bar = style.dash * 2
    out = [style.paint(f"{bar} End of {kind.lower()} {number} {bar}", "bold")]
    if last_hole["knocked_by"] is not None:
        out.append(f"{names[last_hole['knocked_by']]} knocked.")
    elif last_hole["went_out"] is not None:
        out.append(f"{names[last_hole['went_out']]} went out.")
    out += side_by_side(blocks, width)
    out += why
    played = [(s, score.total) for s, score in enumerate(scores) if score is not None]
    low = min(t for _, t in played)
    best = [names[s] for s, t in played if t == low]
    who = verb(best[0], "wins", "win") if len(best) == 1 else " and ".join(best) + " share"
    out.append(style.paint(f"{who} the hole with {low}.", "good"))
    return "\n".join(out)
