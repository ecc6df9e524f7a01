"""What a batch of matches yields, how its matches are seeded and seated, and the one
rule that places a finished match's seats (:func:`placings`).

Shared by the simulator's two paths: the Python tables (:mod:`golf.simulate`) and the
compiled core (:mod:`golf.fast.batch`); tournaments, player ratings and the text
environment place seats with :func:`placings`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .hashing import mix

_SEED_MASK = (1 << 63) - 1


@dataclass(frozen=True)
class MatchResult:
    """One finished match: per hole and seat scores, turns and who moved first."""

    index: int
    seed: int
    bots: tuple[str, ...]  # spec per seat
    hole_scores: tuple[tuple[int, ...], ...]  # regular holes, per seat
    turns: tuple[tuple[int, ...], ...]  # turns per seat in each regular hole
    first: tuple[int, ...]  # the seat that moved first in each regular hole
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    #: Why the match was forfeited (an external bot failed with fallback=forfeit), or
    #: None; a forfeited match is left out of the figures and listed apart.
    forfeit: str | None = None
    forfeit_seat: int | None = None
    #: Failures that a bot's fallback covered (an external bot's messages).
    fallbacks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "bots": list(self.bots),
            "hole_scores": [list(h) for h in self.hole_scores],
            "turns": [list(t) for t in self.turns],
            "first": list(self.first),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "forfeit": self.forfeit,
            "forfeit_seat": self.forfeit_seat,
            "fallbacks": list(self.fallbacks),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchResult:
        """The result :meth:`to_dict` wrote (a tournament's state file keeps them).

        >>> r = MatchResult(3, 7, ("a", "b"), ((1, 2),), ((3, 3),), (0,), (1, 2), (0,))
        >>> MatchResult.from_dict(r.to_dict()) == r
        True
        """
        return cls(
            int(data["index"]), int(data["seed"]), tuple(data["bots"]),
            tuple(tuple(h) for h in data["hole_scores"]), tuple(tuple(t) for t in data["turns"]),
            tuple(data["first"]), tuple(data["totals"]), tuple(data["winners"]),
            data.get("forfeit"), data.get("forfeit_seat"), tuple(data.get("fallbacks", ())),
        )


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run with base ``seed``."""
    return mix(seed, index) & _SEED_MASK


def rotated(seats: Sequence[str], k: int) -> tuple[str, ...]:
    """The seats' bots moved ``k`` seats on: rotation k of a duplicate deal.

    >>> rotated(("expert", "greedy", "random"), 1)
    ('random', 'expert', 'greedy')
    """
    n = len(seats)
    return tuple(seats[(s - k) % n] for s in range(n))


def placings(winners: Collection[int], totals: Sequence[int],
             forfeit: int | None = None) -> list[int]:
    """Each seat's place in a finished match, as how many seats finished ahead of it
    (0 is first; seats that tie share a place): the match's winners first (a playoff
    may have settled a tie on totals), then the others by total, lower first; the seat
    that ``forfeit`` names comes last whatever its total.

    >>> placings([1], [9, 4, 4, 20])
    [2, 0, 1, 3]
    >>> placings([], [3, 10, 10], forfeit=1)
    [0, 2, 1]
    """
    keys = [(s == forfeit, s not in winners, t) for s, t in enumerate(totals)]
    return [sum(k < mine for k in keys) for mine in keys]
