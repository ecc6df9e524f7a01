"""Card counting: which cards a seat has not seen, from its view alone.

The unseen cards are the game's deck (:func:`golf.cards.build_deck`, so the deck
composition comes from the engine) less every card the seat knows about: face-up
cards on every grid, its own peeked cards, the discard pile and a card it holds.
A bot with imperfect memory forgets some peeked cards and some cards deep in the
discard pile; whether it remembers one is a fixed function of its seed and where
and when it saw the card, so a decision never depends on call history.

>>> from golf import Game, load_rules
>>> g = Game("six-card", players=2, seed=5)
>>> v = g.view(0, codes=True)
>>> counts = unseen(v, load_rules("six-card"))
>>> sum(counts), g.stock_size + 12   # everything but the discard is unseen at first
(51, 51)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import build_deck
from ..rules import Rules

_DECKS: dict[tuple[int, int, int], tuple[int, ...]] = {}
_MASK = (1 << 64) - 1
#: Kinds of remembered card, so that a peek and a discard never share a draw.
PEEK, PILE = 1, 2


def deck_counts(rules: Rules, players: int) -> tuple[int, ...]:
    """How many cards of each rank (index 1-14) the game's deck holds."""
    decks = rules.decks_for(players)
    key = (decks, rules.jokers_per_deck, 0)
    hit = _DECKS.get(key)
    if hit is None:
        counts = [0] * 15
        for c in build_deck(decks, rules.jokers_per_deck):
            counts[c & 15] += 1
        hit = _DECKS[key] = tuple(counts)
    return hit


def mix(*values: int) -> int:
    """A 64-bit hash of small non-negative ints, stable across processes and runs."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (v & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        h ^= h >> 31
        h = h * 0x94D049BB133111EB & _MASK
        h ^= h >> 29
    return h


def remembers(memory: float, seed: int, hole: int, kind: int, index: int, card: int) -> bool:
    """Whether a bot with ``memory`` (0-1) remembers a card it saw."""
    if memory >= 1.0:
        return True
    if memory <= 0.0:
        return False
    return mix(seed, hole, kind, index, card) < memory * 2.0**64


def unseen(
    view: Mapping[str, Any], rules: Rules, memory: float = 1.0, seed: int = 0,
) -> list[int]:
    """Counts by rank (index 0 unused) of the cards the viewer has not seen or has
    forgotten. ``view`` has card codes (``Game.view(seat, codes=True)``)."""
    counts = list(deck_counts(rules, view["players"]))
    seat, hole = view["seat"], view["hole"]
    for s, grid in enumerate(view["grids"]):
        if grid is None:
            continue
        if s == seat and memory < 1.0:
            up = view["face_up"][s]
            for i, c in enumerate(grid):
                if c is not None and (up[i] or remembers(memory, seed, hole, PEEK, i, c)):
                    counts[c & 15] -= 1
            continue
        for c in grid:
            if c is not None:
                counts[c & 15] -= 1
    pile = view["discard"]
    if memory >= 1.0:
        for c in pile:
            counts[c & 15] -= 1
    else:
        last = len(pile) - 1
        for j, c in enumerate(pile):
            if j == last or remembers(memory, seed, hole, PILE, j, c):
                counts[c & 15] -= 1
    held = view["held"]
    if held is not None:
        counts[held & 15] -= 1
    for r in range(15):
        if counts[r] < 0:  # only with a view that is not from this deck
            counts[r] = 0
    return counts
