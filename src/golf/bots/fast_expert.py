"""The ``fast-expert`` bot: the compiled expert policy (:mod:`golf.fast.expert`) behind
the ordinary bot interface, so that it plays in :class:`golf.Game` and table matches.

It reads the view only: :class:`golf.knowledge.Sampler` gives a position holding every
fact of the view, its unknown places filled with one consistent choice of the unseen
cards (each group's cards in sorted order); the compiled core loads it
(:meth:`golf.fast.FastGame.from_position`) and the policy picks the action. The policy
reads nothing its seat cannot see, so any consistent filling gives the same decision
(the tests check it). Decisions depend on the view alone (no seed, no options). Needs
the ``fast`` extra (numba).

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=11)
>>> bots = [make_bot("fast-expert", g.rules, seed=s) for s in (1, 2)]
>>> while g.hole == 1:
...     seat = g.current_player
...     g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
>>> len(g.hole_scores)
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ..actions import Action
from ..errors import GolfError
from ..fast import FastGame
from ..fast.expert import expert_action, expert_config
from ..knowledge import Sampler
from ..rules import Rules
from .base import Bot, register


def view_state(view: Mapping[str, Any], rules: Rules) -> FastGame:
    """A compiled game holding every fact of ``view`` (card codes), the places its seat
    cannot see filled with some cards consistent with it."""
    sampler = Sampler(view, rules, 0)
    return FastGame.from_position(rules, sampler.position(sampler.filled()), chance="fast")


@register
class FastExpertBot(Bot):
    """The compiled expert policy as a bot; see the module docs."""

    name = "fast-expert"
    defaults: ClassVar[Mapping[str, Any]] = {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise GolfError("the bot was asked to move but no action is legal")
        if len(legal) == 1:
            return legal[0]
        f = view_state(view, self.rules)
        cfg = expert_config(self.rules, int(view["players"]))
        codes = np.array([int(a) for a in legal], dtype=np.int64)
        a = int(expert_action(f.state, cfg, codes, len(legal)))
        for b in legal:
            if int(b) == a:
                return b
        raise GolfError(  # pragma: no cover - the policy picks among the legal codes
            f"the compiled expert chose {a}, which is not legal here")
