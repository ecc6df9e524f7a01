"""The ``greedy`` bot: one-step rules of thumb.

It values unknown cards at the deck's average (it counts nothing), takes the discard
when that lowers its estimated score by at least :attr:`GreedyBot.take_gain` points
(a match or a low card), otherwise draws; it swaps a drawn card in where it helps
most and discards it when it helps nowhere; after discarding it flips a face-down
card only while two or more remain, and it knocks once its estimated score is at
most one point per card. Scores come from the engine's scorer.

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=4)
>>> bot = make_bot("greedy", g.rules)
>>> str(bot.choose(g.view(0, codes=True), g.legal_actions()))
'reveal 1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import (
    CELL_MASK,
    DISCARD,
    DRAW,
    K_FLIP,
    K_SWAP,
    KIND_SHIFT,
    KNOCK,
    PASS,
    TAKE,
    Action,
)
from ..cards import RANK_MASK
from ..rules import Rules
from .base import Bot, register
from .counting import deck_counts
from .estimate import Evaluation, estimator


@register
class GreedyBot(Bot):
    """One-step rules of thumb; see the module docs."""

    name = "greedy"
    #: Take the discard when it lowers the estimated score by this many points.
    take_gain = 2.0

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        self.est = estimator(rules)
        self._protos: dict[int, Evaluation] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        phase = view["phase"]
        if phase == "setup":
            return legal[0]
        seat = view["seat"]
        grid = view["grids"][seat]
        ranks = [0 if c is None else c & RANK_MASK for c in grid]
        # The deck's counts never change, so the sums (and samples) built from them are
        # worked out once and shared by every decision.
        proto = self._protos.get(view["players"])
        if proto is None:
            counts = deck_counts(self.rules, view["players"])
            proto = self._protos[view["players"]] = Evaluation(self.est, counts, seed=self.seed)
            if any(len(c) > 2 for c in self.est.comps):
                proto.samples()
        ev = proto.fork()
        total = ev.grid(ranks)
        swaps = [a for a in legal if a >> KIND_SHIFT == K_SWAP]
        flips = [a for a in legal if a >> KIND_SHIFT == K_FLIP]
        if phase == "turn":
            if KNOCK in legal and total <= self.rules.cells:
                return KNOCK
            top = view["discard_top"]
            if top is not None and TAKE in legal:
                cells = self.rules.replaceable(view["face_up"][seat])
                best = min((ev.placements(ranks, i, False)[top & RANK_MASK] for i in cells),
                           default=total)
                if total - best >= self.take_gain:
                    return TAKE
            return DRAW if DRAW in legal else legal[0]
        if phase == "hold":
            held = view["held"] & RANK_MASK
            best_a, best_e = swaps[0] if swaps else legal[0], float("inf")
            for a in swaps:
                e = ev.placements(ranks, a & CELL_MASK, False)[held]
                if e < best_e:
                    best_a, best_e = a, e
            if DISCARD in legal and best_e >= total:
                return DISCARD
            return best_a
        # flip phase: flip while two or more cards are face down, never the last one
        if PASS in legal and len(flips) < 2:
            return PASS
        return flips[0] if flips else legal[0]
