"""``golf score``: the score calculator for a grid of real cards, or for a whole table
(``--table FILE``: every player's grid, hole after hole, with running totals)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ..cards import JOKER, RANK_MASK, SUITS, card_str, parse_card
from ..errors import GolfError, NotationError
from ..rules import Rules
from ..scoring import Score, parse_grid, scorer
from ..terminal.summary import match_length
from ._common import add_rule_options, rules_from_args

TABLE_EXAMPLE = """\
# a physical game of three: the players, then one line per hole,
# each player's grid in seat order, separated by ';'
players: Ann, Bob, Cid
A 2 3 / A 5 K ; 7 7 Q / 2 3 4 ; K K 5 / 5 6 6
4 4 J / 9 9 2 ; A 2 A / 3 3 3 ; Q Q 10 / 8 8 K
"""

_PATTERNS = {"columns": "columns", "rows": "rows", "diagonals": "diagonals",
             "adjacent": "cards side by side or one above the other",
             "pairs": "any two cards", "blocks": "2x2 blocks"}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score", help="score a grid of cards (or a whole table) and explain it",
        description="Score a face-up grid under a variant's rules and explain which cards "
        "cancelled and why. GRID lists rows separated by '/', cards by spaces or commas: "
        "ranks A 2 3 4 5 6 7 8 9 10 J Q K (T for 10), an optional suit letter S H D C, JK "
        "for a joker. With --table FILE, score every grid of a game at a real table: a "
        "'players:' line, then a line per hole with each player's grid separated by ';' "
        "('-' for stdin).",
        epilog='examples: golf score --variant six-card "A 2 3 / A 5 K" | '
        "golf score --table scores.txt --variant nine-card\n\n" + TABLE_EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("grid", nargs="?", help='the grid, e.g. "A 2 3 / A 5 K"')
    add_rule_options(p)
    p.add_argument("--table", metavar="FILE", default=None,
                   help="score a whole table: a file of grids, one line per hole")
    p.add_argument("--json", action="store_true", help="print a JSON object (field 'score')")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.table is not None:
        if args.grid:
            raise GolfError("give a GRID or --table FILE, not both")
        return _table(args.table, rules, args.json)
    if not args.grid:
        raise GolfError('give a grid to score, e.g. golf score "A 2 3 / A 5 K", or '
                        "--table FILE for a whole table")
    s = score_text(args.grid, rules)
    if args.json:
        print(json.dumps({"variant": rules.name, **s.to_dict()}, indent=2))
    else:
        print(f"{rules.name}:")
        print(s.explain())
        for line in why_not(s, rules):
            print(line)
    return 0


def score_text(
    text: str, rules: Rules, copies: Counter[str] | None = None, players: int | None = None,
) -> Score:
    """The score of one grid typed by a person: commas allowed, and no more copies of
    a card than the variant's decks hold (``copies`` counts across several grids, for
    a whole table)."""
    text = text.replace(",", " ")
    tokens = [t.upper() for t in text.replace("/", " ").split()]
    counted = copies if copies is not None else Counter()
    counted.update(_card_key(t) for t in tokens)
    _check_copies(counted, rules, players)
    try:
        cards = parse_grid(text, rules)
    except NotationError as e:
        if "without jokers" in str(e):
            raise GolfError(f"{rules.name} is played without jokers; to score JK, add the "
                            "jokers, e.g. --rule jokers_per_deck=2 (and --rule points.JK=-2 "
                            "for what a joker counts)") from None
        raise
    return scorer(rules).score(cards)


def _card_key(token: str) -> str:
    """A token as ``rank`` or ``rank+suit`` (``10H``), or ``JK``; cards that do not
    parse are left for the grid parser to explain."""
    try:
        code = parse_card(token)
    except NotationError:
        return "?" + token
    name = card_str(code & RANK_MASK if code & RANK_MASK != JOKER else code, suits=False)
    if code & RANK_MASK != JOKER and len(token) >= 2 and token[-1] in SUITS:
        return name + token[-1]
    return name


def _check_copies(counted: Counter[str], rules: Rules, players: int | None) -> None:
    """No more copies of a card than the decks of ``players`` (default: the most the
    variant allows) hold."""
    players = players or rules.players[1]
    deck = rules.deck(players)
    copies = Counter(card_str(c) for c in deck)  # "QS": how many; "JK": every joker
    per_rank = Counter(card_str(c, suits=False) for c in deck)
    decks = rules.decks_for(players)
    deck_text = "one deck" if decks == 1 else f"{decks} decks"
    ranks: Counter[str] = Counter()
    for key, n in counted.items():
        if key.startswith("?"):
            continue
        if key == "JK":
            ranks[key] += n
            continue
        suited = key[-1] in SUITS and key[:-1] in _RANKS
        rank = key[:-1] if suited else key
        ranks[rank] += n
        if suited and n > copies[key]:
            raise GolfError(f"{key} appears {n} times, but {rules.name} is played with at "
                            f"most {deck_text}: there are only {copies[key]} of it")
    for rank, n in ranks.items():
        most = per_rank[rank]
        if n > most and (rank != "JK" or most):
            what = "jokers" if rank == "JK" else f"cards of rank {rank}"
            raise GolfError(f"{n} {what}, but {rules.name}'s cards ({deck_text} at most) "
                            f"hold only {most}")


_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


def why_not(s: Score, rules: Rules) -> list[str]:
    """Why equal cards left in the grid did not cancel: they are not in a pattern this
    variant matches (four-card ``5 5 / K 2``: the fives share a row, only columns
    match)."""
    if not rules.match:
        return []
    left: dict[int, list[int]] = {}
    for i, c in enumerate(s.cards):
        if not s.matched[i] and c & RANK_MASK != JOKER:
            left.setdefault(c & RANK_MASK, []).append(i + 1)
    out = []
    patterns = " and ".join(_PATTERNS.get(p, p) for p in rules.match)
    for rank_, cells in left.items():
        if len(cells) < 2:
            continue
        name = card_str(rank_, suits=False)
        where = " and ".join(str(c) for c in cells)
        out.append(f"the {name}s at positions {where} do not cancel: in {rules.name} only "
                   f"{patterns} of equal cards match")
    return out


# --- a whole table -----------------------------------------------------------------------

def _table(source: str, rules: Rules, as_json: bool) -> int:
    text = _read(source)
    players, holes = parse_table(text, rules, "stdin" if source == "-" else source)
    totals = [0] * len(players)
    rows: list[dict[str, Any]] = []
    width = max(6, *(len(p) + 2 for p in players))
    if not as_json:
        print(f"{rules.name}: {len(players)} players, {len(holes)} holes "
              f"({match_length(rules)})")
        print("Hole".ljust(6) + "".join(p.rjust(width) for p in players))
    for k, grids in enumerate(holes, 1):
        scores = [g.total for g in grids]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        rows.append({"hole": k, "scores": scores, "totals": list(totals)})
        if not as_json:
            low = min(scores)
            cells = "".join((f"{s}*" if s == low else f"{s} ").rjust(width + 1)[1:]
                            for s in scores)
            print(f"{k:<6}" + cells + "   running: " + " ".join(str(t) for t in totals))
    if as_json:
        print(json.dumps({"variant": rules.name, "players": players, "holes": rows},
                         indent=2))
        return 0
    print("Total".ljust(6) + "".join(str(t).rjust(width) for t in totals))
    low = min(totals)
    leaders = [p for p, t in zip(players, totals, strict=True) if t == low]
    print(f"(* won the hole) lowest total: {' and '.join(leaders)} with {low}")
    ended = [i for i, t in enumerate(totals) if rules.target and t > rules.target]
    if ended:
        print(f"{', '.join(players[i] for i in ended)} passed {rules.target}: the match is "
              "over")
    return 0


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as e:
        raise GolfError(f"cannot read the table file {source!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise GolfError(f"{source!r} is not a text file of grids; see 'golf score --help' "
                        "for the format") from None


def parse_table(text: str, rules: Rules, source: str = "the table"
                ) -> tuple[list[str], list[list[Score]]]:
    """The players and each hole's scored grids of a table file; a bad line is a
    clear error naming the line and the grid.

    >>> from golf import load_rules
    >>> players, holes = parse_table("players: Ann, Bob\\nA 2 3 / A 5 K; 7 7 Q / 2 3 4",
    ...                              load_rules("six-card"))
    >>> players, [[g.total for g in grids] for grids in holes]
    (['Ann', 'Bob'], [[6, 29]])
    """
    players: list[str] = []
    holes: list[list[Score]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("players:"):
            players = [p.strip() for p in line.split(":", 1)[1].split(",") if p.strip()]
            continue
        grids = [g.strip() for g in line.split(";")]
        if not players:
            players = [f"Player {i + 1}" for i in range(len(grids))]
        if len(grids) != len(players):
            raise GolfError(f"{source} line {n}: {len(grids)} grids for {len(players)} "
                            "players (separate the grids with ';')")
        copies: Counter[str] = Counter()
        scored = []
        for k, grid in enumerate(grids):
            try:
                scored.append(score_text(grid, rules, copies, len(players)))
            except GolfError as e:
                raise GolfError(f"{source} line {n}, {players[k]}'s grid: {e}") from None
        holes.append(scored)
    if not holes:
        raise GolfError(f"{source} has no grids: write one line per hole, each player's "
                        "grid separated by ';' (see 'golf score --help')")
    return players, holes
