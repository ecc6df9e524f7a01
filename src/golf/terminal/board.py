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
from ..view import remembered as shown_remembered
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


def remembered(
    view: Mapping[str, Any], rules: Rules, show_peeks: bool = False,
) -> Mapping[str, Any]:
    """What a player is shown of ``view``: in memory mode, once they have drawn, their
    peeked cards as backs (:func:`golf.view.remembered`, the table rule the server
    applies too), with nothing said of where they peeked."""
    v = shown_remembered(view, rules, show_peeks)
    if v is view:
        return view
    return masked(v, True, False)


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
    cancelled: set[int] | None = None, last: set[int] | None = None,
) -> list[str]:
    """The grid row by row, each card with its 1-based position; cancelled cards
    (0-based cells) carry a mark, and the cells the last move changed (``last``)
    are highlighted where the terminal has colour."""
    cancelled = cancelled or set()
    last = last or set()
    width = len(str(rows * cols))
    out = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            i = r * cols + c
            pos = style.paint(f"{i + 1:>{width}}:", "dim")
            card = style.card(cards[i])
            if i in last:
                card = style.paint(style.strip(card), "last")
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


def side_by_side(
    blocks: Sequence[list[str]], width: int, block_width: int = 0,
) -> list[str]:
    """Blocks of lines placed next to each other, wrapping to fit ``width`` columns;
    each block at least ``block_width`` wide (so that columns stay put as the
    blocks' contents change)."""
    out: list[str] = []
    row: list[list[str]] = []
    used = 0
    for block in blocks:
        w = max(block_width, *(visible_len(line) for line in block)) + _GAP
        if row and used + w > width:
            out.extend(_join(row, block_width))
            out.append("")
            row, used = [], 0
        row.append(block)
        used += w
    if row:
        out.extend(_join(row, block_width))
    return out


def _join(row: Sequence[list[str]], block_width: int = 0) -> list[str]:
    height = max(len(b) for b in row)
    widths = [max(block_width, *(visible_len(line) for line in b)) + _GAP for b in row]
    lines = []
    for k in range(height):
        parts = [pad(b[k] if k < len(b) else "", w) for b, w in zip(row, widths, strict=True)]
        lines.append("".join(parts).rstrip())
    return lines


def board(
    view: Mapping[str, Any], names: Sequence[str], rules: Rules, style: Style,
    width: int = 80, bots: Sequence[str | None] | None = None,
    last: Mapping[int, set[int]] | None = None,
) -> str:
    """The whole table as the view shows it: a header, every grid with its player's
    total, the piles and whose turn it is. ``last``: per seat, the cells the last
    move changed, highlighted. Every grid's block has the same width whatever its
    scores and matches, so the grids do not move as the hole goes on."""
    last = last or {}
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
        lines += ["  " + line for line in grid_lines(cards, rows, cols, style, cancelled,
                                                     last.get(seat))]
        showing = known.total
        lines.append(f"  total {v['totals'][seat]:>3}{style.dot.rstrip()} showing {showing:>3}")
        for m in matches:
            lines.append("  " + style.paint("*", "cancel") + f" {m.label} scores {m.points}")
        blocks.append(lines)
    out = [_title(v, names, style, bool(rules.target))]
    cell = len(str(rows * cols)) + 1 + 4  # "12:" and a card with its mark
    fixed = max(24, 2 + cols * (cell + 1), *(len(n) + 12 for n in names))
    out += side_by_side(blocks, width, min(fixed, max(0, width - _GAP)))
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
    """The scores of every finished hole, each hole's winner marked ``*`` (lowest
    score, shared on a tie), the totals, and any playoff holes.

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=1, rules={"holes": 1})
    >>> while not g.is_over:
    ...     g.apply(g.legal_actions()[0])
    >>> print(scorecard(g.view(0), ["Ann", "Bob"], Style()))  # doctest: +NORMALIZE_WHITESPACE
    Hole      Ann   Bob
    1          27*   41
    Total      27    41
    (* won the hole)
    """
    n = len(names)
    width = max(6, *(len(name) + 2 for name in names))
    head = "Hole".ljust(8) + "".join(name.rjust(width) + " " for name in names)
    lines = [style.paint(head.rstrip(), "bold")]
    for k, scores in enumerate(view["hole_scores"], 1):
        lines.append(f"{k:<8}" + _score_cells(scores, width, style))
    if not view["hole_scores"]:
        lines.append("(no hole finished yet)")
    lines.append(style.paint(("Total".ljust(8) + "".join(
        f"{t:>{width}} " for t in view["totals"])).rstrip(), "bold"))
    for k, scores in enumerate(view["playoff_scores"], 1):
        lines.append(f"{'Playoff ' + str(k):<8}" + _score_cells(scores[:n], width, style))
    if view["hole_scores"]:
        lines.append("(* won the hole)")
    return "\n".join(lines)


def _score_cells(scores: Sequence[int | None], width: int, style: Style) -> str:
    played = [s for s in scores if s is not None]
    low = min(played) if played else None
    cells = []
    for s in scores:
        if s is None:
            cells.append("-".rjust(width) + " ")
        elif s == low:
            cells.append(str(s).rjust(width) + style.paint("*", "good"))
        else:
            cells.append(str(s).rjust(width) + " ")
    return "".join(cells).rstrip()


def placings(totals: Sequence[int], winners: Sequence[int], names: Sequence[str]) -> str:
    """Everyone's place, lowest total first; equal totals share a place (the match's
    winners, after any playoff, come first).

    >>> print(placings([20, 12, 20], [1], ["Ann", "Bob", "Cid"]))
    1st  Bob   12
    2nd  Ann   20 (shared)
    2nd  Cid   20 (shared)
    """
    order = sorted(range(len(totals)), key=lambda s: (s not in winners, totals[s], s))
    width = max(len(n) for n in names)
    lines = []
    for s in order:
        place = 1 + sum(1 for o in order if (o in winners, -totals[o]) > (s in winners,
                                                                          -totals[s]))
        shared = sum(1 for o in order if o != s and (o in winners) == (s in winners)
                     and totals[o] == totals[s])
        tag = " (shared)" if shared else ""
        lines.append(f"{_ordinal(place):<5}{names[s]:<{width}} {totals[s]:>4}{tag}")
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
