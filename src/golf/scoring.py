"""Scoring a grid: the lowest-scoring arrangement of matches, with its explanation.

Matches come in two kinds. *Lines* (columns, rows, pairs side by side in a row,
diagonals, adjacent pairs) always apply when their cards are equal, and may share
cards: every card in a matched line scores zero. *Sets* (any pair, 2x2 blocks) use
each card at most once, so where several sets are possible the scorer picks those
giving the lowest total. A card in a chosen block scores its share of the block's
points instead of its own. Lines and pairs compare cards as ``match_by`` says,
blocks as ``block_match_by`` says.

>>> s = score("A 2 3 / A 5 K", "six-card")
>>> s.total
6
>>> print(s.explain())
A  2  3
A  5  K
column 1 (A A): 0
cards left: 2=-2 3=3 5=5 K=0
total: 6
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .cards import JOKER, RANK_MASK, card_str, parse_card
from .errors import NotationError
from .rules import MatchBy, Rules, load_rules

#: The kind of one matched cell group (one per pattern of ``Rules.match``).
Kind = Literal["column", "row", "row-pair", "diagonal", "adjacent", "pair", "block"]


@dataclass(frozen=True)
class Pattern:
    """One way cards of a grid can match: which cells, what kind, what it scores."""

    kind: Kind
    label: str  # "column 2", "row 1", "cells 1+4" ...
    cells: tuple[int, ...]
    mask: int
    exclusive: bool  # sets (pairs, blocks) use each card once; lines may share cards
    points: int  # what the matched cards score together (0, or the block's points)
    match_by: MatchBy = "rank"  # its cards are equal by rank, or by points


@dataclass(frozen=True)
class Match:
    """A match applied to a scored grid."""

    rule: Kind
    label: str
    cells: tuple[int, ...]  # 1-based positions
    points: int


@dataclass(frozen=True)
class Score:
    """A scored grid: its total and why."""

    total: int
    cards: tuple[int, ...]
    rows: int
    cols: int
    points: tuple[int, ...]  # what each card counts after matches (0 when matched)
    matched: tuple[bool, ...]
    matches: tuple[Match, ...]

    def explain(self) -> str:
        """A table-side explanation: the grid, each match, the cards left, the total."""
        names = [card_str(c, suits=False) for c in self.cards]
        width = max(len(n) for n in names) + 1
        lines = [
            " ".join(names[r * self.cols + c].ljust(width) for c in range(self.cols)).rstrip()
            for r in range(self.rows)
        ]
        for m in self.matches:
            cards = " ".join(names[i - 1] for i in m.cells)
            lines.append(f"{m.label} ({cards}): {m.points}")
        left = [f"{names[i]}={self.points[i]}" for i in range(len(names)) if not self.matched[i]]
        lines.append("cards left: " + (" ".join(left) if left else "none"))
        lines.append(f"total: {self.total}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.total,
            "grid": [
                [card_str(self.cards[r * self.cols + c], suits=False) for c in range(self.cols)]
                for r in range(self.rows)
            ],
            "matches": [
                {"rule": m.rule, "label": m.label, "cells": list(m.cells), "points": m.points}
                for m in self.matches
            ],
            "cards": [
                {
                    "position": i + 1,
                    "card": card_str(c, suits=False),
                    "points": self.points[i],
                    "matched": self.matched[i],
                }
                for i, c in enumerate(self.cards)
            ],
        }


def patterns(rules: Rules) -> tuple[Pattern, ...]:
    """Every cell group of the rules' grid that can match, in a stable order."""
    R, C = rules.rows, rules.cols
    out: list[Pattern] = []

    def add(kind: Kind, label: str, cells: Sequence[int], exclusive: bool, pts: int = 0,
            by: MatchBy = rules.match_by) -> None:
        mask = 0
        for i in cells:
            mask |= 1 << i
        out.append(Pattern(kind, label, tuple(cells), mask, exclusive, pts, by))

    for pat in rules.match:
        if pat == "columns" and R >= 2:
            for c in range(C):
                add("column", f"column {c + 1}", [r * C + c for r in range(R)], False)
        elif pat == "rows" and C >= 2:
            for r in range(R):
                add("row", f"row {r + 1}", [r * C + c for c in range(C)], False)
        elif pat == "row-pairs":
            for r in range(R):
                for c in range(C - 1):
                    i = r * C + c
                    add("row-pair", f"row {r + 1} cells {i + 1}+{i + 2}", [i, i + 1], False)
        elif pat == "diagonals" and R >= 2:
            add("diagonal", "diagonal \\", [i * C + i for i in range(R)], False)
            add("diagonal", "diagonal /", [i * C + (C - 1 - i) for i in range(R)], False)
        elif pat == "adjacent":
            for r in range(R):
                for c in range(C):
                    i = r * C + c
                    if c + 1 < C:
                        add("adjacent", f"cells {i + 1}+{i + 2}", [i, i + 1], False)
                    if r + 1 < R:
                        add("adjacent", f"cells {i + 1}+{i + C + 1}", [i, i + C], False)
        elif pat == "pairs":
            for a, b in itertools.combinations(range(R * C), 2):
                add("pair", f"pair {a + 1}+{b + 1}", [a, b], True)
        elif pat == "blocks":
            for r in range(R - 1):
                for c in range(C - 1):
                    i = r * C + c
                    cells = [i, i + 1, i + C, i + C + 1]
                    add("block", f"block {'+'.join(str(x + 1) for x in cells)}", cells, True,
                        rules.block_points, rules.block_match_by)
    return tuple(out)


def linked_groups(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The grid's cells in groups that some pattern links (a cell no pattern links stands
    alone): a grid's score is the sum of its groups' scores, so an estimate may value
    each group apart.

    >>> from golf import load_rules
    >>> linked_groups(load_rules("six-card"))
    ((0, 3), (1, 4), (2, 5))
    """
    parent = list(range(rules.cells))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for p in patterns(rules):
        first = find(p.cells[0])
        for i in p.cells[1:]:
            parent[find(i)] = first
    groups: dict[int, list[int]] = {}
    for i in range(rules.cells):
        groups.setdefault(find(i), []).append(i)
    return tuple(sorted(tuple(g) for g in groups.values()))


def _equal(cells: tuple[int, ...], keys: Sequence[int], wild: Sequence[bool],
           ranks: Sequence[int]) -> bool:
    """Whether the known cards on ``cells`` are all equal by ``keys`` (what each rank
    is compared by); a wild card equals any card."""
    key = -1_000_000
    for i in cells:
        r = ranks[i]
        if not r:  # an unknown (face-down) card matches nothing
            return False
        if wild[r]:
            continue
        k = keys[r]
        if key == -1_000_000:
            key = k
        elif k != key:
            return False
    return True


class Scorer:
    """The scorer compiled for one rules object; :meth:`total` is cached by ranks."""

    __slots__ = ("_cache", "_line_checks", "_set_checks", "cells", "lines", "points", "rules",
                 "sets", "wild")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cells = rules.cells
        self.points = rules.points
        # What a rank is compared by: itself, or the points it scores.
        keys: dict[MatchBy, tuple[int, ...]] = {"rank": tuple(range(15)), "points": rules.points}
        self.wild = tuple(rules.jokers_wild and r == JOKER for r in range(15))
        pats = patterns(rules)
        self.lines = tuple(p for p in pats if not p.exclusive)
        self.sets = tuple(p for p in pats if p.exclusive)
        # Flat (cells, keys, mask or pattern) tuples: the hot loops read no attributes.
        self._line_checks = tuple((p.cells, keys[p.match_by], p.mask) for p in self.lines)
        self._set_checks = tuple((p.cells, keys[p.match_by], p) for p in self.sets)
        self._cache: dict[tuple[int, ...], int] = {}

    def _solve(self, ranks: Sequence[int]) -> tuple[int, int, tuple[Pattern, ...]]:
        """(total, mask of cells zeroed by lines, chosen sets) of the best arrangement."""
        zero = 0
        wild = self.wild
        for cells, keys, mask in self._line_checks:
            if _equal(cells, keys, wild, ranks):
                zero |= mask
        pts = self.points
        if not self.sets:
            total = sum(pts[r] for i, r in enumerate(ranks) if not zero >> i & 1)
            return total, zero, ()
        candidates = [p for cells, keys, p in self._set_checks if _equal(cells, keys, wild, ranks)]
        by_first: dict[int, list[Pattern]] = {}
        for p in candidates:
            by_first.setdefault(p.cells[0], []).append(p)
        n = len(ranks)
        memo: dict[tuple[int, int], tuple[int, tuple[Pattern, ...]]] = {}

        def best(i: int, used: int) -> tuple[int, tuple[Pattern, ...]]:
            if i == n:
                return 0, ()
            if used >> i & 1:
                return best(i + 1, used)
            key = (i, used)
            hit = memo.get(key)
            if hit is not None:
                return hit
            own = 0 if zero >> i & 1 else pts[ranks[i]]
            rest, chosen = best(i + 1, used)
            result = (own + rest, chosen)
            for p in by_first.get(i, ()):
                if p.mask & used:
                    continue
                sub, sub_chosen = best(i + 1, used | p.mask)
                if p.points + sub < result[0]:
                    result = (p.points + sub, (p, *sub_chosen))
            memo[key] = result
            return result

        total, chosen = best(0, 0)
        return total, zero, chosen

    def total(self, ranks: tuple[int, ...]) -> int:
        """The lowest total of a fully known grid given as ranks (1-14)."""
        hit = self._cache.get(ranks)
        if hit is None:
            if len(self._cache) > 500_000:
                self._cache.clear()
            hit = self._cache[ranks] = self._solve(ranks)[0]
        return hit

    def partial(self, cards: Sequence[int | None]) -> Score:
        """The explained score of the known cards of a grid in play: unknown cards
        (None) count nothing and match nothing, so only matches among known cards
        show, as the table sees them mid-hole.

        >>> from golf import load_rules, parse_card
        >>> s = scorer(load_rules("six-card")).partial(
        ...     [parse_card("5"), None, parse_card("K"), parse_card("5"), parse_card("7"), None])
        >>> s.total, [m.label for m in s.matches]
        (7, ['column 1'])
        """
        return self.score([0 if c is None else c for c in cards])

    def score(self, cards: Sequence[int]) -> Score:
        """The explained score of a fully known grid of card codes (code 0, used by
        :meth:`partial`, is an unknown card)."""
        ranks = tuple(c & RANK_MASK for c in cards)
        total, zero, chosen = self._solve(ranks)
        pts = list(self.points[r] for r in ranks)
        matched = [bool(zero >> i & 1) for i in range(len(ranks))]
        matches = [
            Match(p.kind, p.label, tuple(i + 1 for i in p.cells), 0)
            for p, (cells, keys, _) in zip(self.lines, self._line_checks, strict=True)
            if _equal(cells, keys, self.wild, ranks)
        ]
        for p in chosen:
            matches.append(Match(p.kind, p.label, tuple(i + 1 for i in p.cells), p.points))
            for i in p.cells:
                matched[i] = True
        for i in range(len(ranks)):
            if matched[i]:
                pts[i] = 0
        return Score(
            total, tuple(cards), self.rules.rows, self.rules.cols, tuple(pts), tuple(matched),
            tuple(matches),
        )


def scorer(rules: Rules) -> Scorer:
    """The compiled scorer of ``rules`` (built once and kept on the rules object)."""
    return rules.cached("_scorer", Scorer)


def parse_grid(text: str, rules: Rules) -> list[int]:
    """Parse ``"A 2 3 / A 5 K"``: rows split by ``/``, cards by spaces, row by row."""
    rows = [r.split() for r in text.split("/")]
    shape = f"{rules.rows} row(s) of {rules.cols} cards"
    if len(rows) != rules.rows or any(len(r) != rules.cols for r in rows):
        got = " / ".join(str(len(r)) for r in rows)
        raise NotationError(
            f"grid {text!r} has rows of {got} cards; {rules.name} needs {shape}, rows separated "
            "by '/', for example " + " / ".join(" ".join(["A"] * rules.cols) for _ in
                                                range(rules.rows))
        )
    cards = [parse_card(c) for row in rows for c in row]
    if any(c & RANK_MASK == JOKER for c in cards) and rules.jokers_per_deck == 0:
        raise NotationError(
            f"{rules.name} is played without jokers; set jokers_per_deck to use JK"
        )
    return cards


def score(
    grid: str | Sequence[int] | Sequence[str],
    variant: str | Rules = "six-card",
    rules: Mapping[str, Any] | None = None,
) -> Score:
    """Score a fully face-up grid under a preset (with overrides) and explain it.

    ``grid`` is text (``"A 2 3 / A 5 K"``) or a row-by-row sequence of cards.
    """
    r = load_rules(variant, rules)
    if isinstance(grid, str):
        cards = parse_grid(grid, r)
    else:
        cards = [parse_card(c) if isinstance(c, str) else int(c) for c in grid]
        if len(cards) != r.cells:
            raise NotationError(f"a {r.name} grid has {r.cells} cards, got {len(cards)}")
        for c in cards:
            if not (0 <= c < 64 and 1 <= c & RANK_MASK <= JOKER):
                raise NotationError(
                    f"{c!r} is not a card code: codes are rank (1-13, 14 for a joker) "
                    "+ 16 x suit (0-3)"
                )
        if any(c & RANK_MASK == JOKER for c in cards) and r.jokers_per_deck == 0:
            raise NotationError(
                f"{r.name} is played without jokers; set jokers_per_deck to use JK"
            )
    return scorer(r).score(cards)
