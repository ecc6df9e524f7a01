"""Card counting for bots: :mod:`golf.knowledge`'s exact facts, degraded by memory.

What a seat has seen is defined once, in :mod:`golf.knowledge`: the unseen cards are
the deck less every card the seat knows about (face-up cards, its own peeked cards,
the discard pile, a card it holds and, after a reshuffle, the stock's public cards).
A bot with imperfect memory forgets some peeked cards and some cards deep in the
discard pile, which then count as unseen again; whether it remembers one is a fixed
function of its seed and where and when it saw the card, so a decision never
depends on call history. The public stock and the top of the pile stay remembered:
the view shows them at every decision, as the table does.

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

from ..cards import RANK_MASK
from ..hashing import mix
from ..knowledge import deck_ranks, draw_counts, unseen_counts
from ..rules import Rules

#: Kinds of remembered card, so that a peek and a discard never share a draw.
PEEK, PILE = 1, 2


def deck_counts(rules: Rules, players: int) -> tuple[int, ...]:
    """How many cards of each rank (index 1-14) the game's deck holds
    (:func:`golf.knowledge.deck_ranks`)."""
    return deck_ranks(rules, players)


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
    forgotten: what a face-down card it cannot see may be. ``view`` has card codes
    (``Game.view(seat, codes=True)``). With full memory this is
    :func:`golf.knowledge.unseen_counts`."""
    counts = list(unseen_counts(view, rules))
    if memory >= 1.0:
        return counts
    seat, hole = view["seat"], view["hole"]
    up = view["face_up"][seat]
    for i, c in enumerate(view["grids"][seat]):
        if c is not None and not up[i] and not remembers(memory, seed, hole, PEEK, i, c):
            counts[c & RANK_MASK] += 1
    pile = view["discard"]
    for j in range(len(pile) - 1):  # the top card is in plain sight
        c = pile[j]
        if not remembers(memory, seed, hole, PILE, j, c):
            counts[c & RANK_MASK] += 1
    return counts


def draws(view: Mapping[str, Any], rules: Rules) -> list[int] | None:
    """Counts by rank of the cards a draw from the stock can give, where they differ
    from :func:`unseen`: a public stock after a reshuffle (the card the viewer holds
    from it excepted), or the discard pile below its top when the stock is empty and
    the draw reshuffles it. None otherwise, when a draw is one of the unseen cards
    (:func:`golf.knowledge.draw_counts`)."""
    counts = draw_counts(view, rules)
    return None if counts is None else list(counts)
