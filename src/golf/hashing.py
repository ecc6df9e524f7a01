"""One stable hash of small numbers, shared by everything that derives a number from
others: match seeds (:func:`golf.results.match_seed`), bot seeds
(:func:`golf.table.bot_seed`) and what a bot with imperfect memory remembers
(:mod:`golf.bots.counting`). It depends on nothing, so the engine's drivers and the bots
can all use it.

>>> mix(1, 2) == mix(1, 2) != mix(2, 1)
True
>>> 0 <= mix(2**70, -1) < 2**64
True
"""

from __future__ import annotations

__all__ = ["mix"]

_MASK = (1 << 64) - 1


def mix(*values: int) -> int:
    """A 64-bit hash of small non-negative ints, stable across processes and runs."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (v & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        h ^= h >> 31
        h = h * 0x94D049BB133111EB & _MASK
        h ^= h >> 29
    return h
