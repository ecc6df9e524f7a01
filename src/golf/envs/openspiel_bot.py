"""The ``openspiel-ismcts`` bot: OpenSpiel's IS-MCTS searching the hole being played.

Like every bot it sees only its view and the legal actions. At each decision it
builds ``python_golf`` worlds for the current hole (under rules that end the match
with it: the totals so far are alike in every world, so the search minimises the
bot's own hole score), drawn from its view by :class:`golf.knowledge.Sampler`, and
runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` over them with random
rollouts. After a reshuffle the view says which cards the stock holds
(``stock_cards``), and the worlds keep exactly those cards in the stock.

Options: ``simulations`` (per decision, default 100), ``uct`` (the exploration
constant, in points of score, default 10), ``worlds`` (how many worlds to sample,
-1 for a new one every simulation), ``rollouts`` (playouts per leaf, default 1) and
``rollout`` (who plays them: ``random``, OpenSpiel's random rollouts, the default;
or the name of a registry bot such as ``greedy``, which plays every seat from its
own view - stronger and rules-aware, at the cost of that bot's time).

Importing this module needs ``open_spiel`` (extra ``golf-cards[openspiel]``); without
it the import fails with ImportError and the bot registry simply lacks this bot. It
lives with the OpenSpiel game it searches (:mod:`golf.envs.openspiel`) and plays its
rollouts at a :class:`golf.table.Table`, both above the bots; the registry
(:data:`golf.bots.base.BUILTIN`) names it like every other built-in bot.

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=4)
>>> for a in ("reveal 1", "reveal 4", "reveal 1", "reveal 4"):
...     g.apply(a)
>>> bot = make_bot("openspiel-ismcts:simulations=50", g.rules, seed=1)
>>> g.view(0)["discard_top"], str(bot.choose(g.view(0, codes=True), g.legal_actions()))
('KH', 'take')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from ..actions import Action
from ..bots.base import Bot, make_bot, register
from ..knowledge import Sampler
from ..rules import Rules, load_rules
from ..table import BotSeat, Table
from .openspiel import GolfGame, GolfState, engine_game, state_at

_GAMES: dict[tuple[Rules, int], GolfGame] = {}


def hole_game(rules: Rules, players: int) -> GolfGame:
    """The ``python_golf`` game of one hole under ``rules`` (built once per rules)."""
    key = (rules, players)
    game = _GAMES.get(key)
    if game is None:
        one = load_rules(rules, {"holes": 1, "target": 0, "tie_break": "share"})
        game = _GAMES[key] = GolfGame({"players": players}, rules=one)
    return game


def worlds(game: GolfGame, view: Mapping[str, Any],
           rng: random.Random) -> Callable[[], GolfState]:
    """Draws of ``python_golf`` states of ``game`` that the view's seat cannot tell
    from the real one: :class:`golf.knowledge.Sampler` worlds of its view (after a
    reshuffle the stock keeps exactly the cards the view lists), each with its own
    future chance. The view is read once; every call draws a new world."""
    sampler = Sampler(view, game.golf_rules, rng)
    return lambda: state_at(game, sampler.game(sampler.world(), replayable=False))


class BotRolloutEvaluator:
    """An IS-MCTS evaluator whose playouts are played by registry bots, one per seat,
    each from its own view, straight on the engine (a sampled world's stock is
    already in random order, so its draws are chance draws)."""

    def __init__(self, spec: str, rules: Rules, rollouts: int, rng: random.Random) -> None:
        make_bot(spec, rules)  # a bad spec fails at once, with the registry's message
        self.spec, self.rules, self.rollouts, self.rng = spec, rules, rollouts, rng

    def evaluate(self, state: GolfState) -> Any:
        start = engine_game(state)
        total = np.zeros(start.players)
        for _ in range(self.rollouts):
            g = start.clone()
            # Seeded by the search's own generator: every playout plays differently.
            seats = [BotSeat(make_bot(self.spec, self.rules, seed=self.rng.randrange(2**32)))
                     for _ in range(g.players)]
            Table(g, seats).run()
            total -= np.array(g.totals, dtype=float)
        return total / self.rollouts

    def prior(self, state: GolfState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@register
class OpenSpielISMCTSBot(Bot):
    """IS-MCTS from OpenSpiel over the current hole. See the module docs."""

    name = "openspiel-ismcts"
    defaults: ClassVar[Mapping[str, Any]] = {
        "simulations": 100, "uct": 10.0, "worlds": -1, "rollouts": 1, "rollout": "random"}

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        self.reset()

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self._np = np.random.RandomState(self.seed % 2**32)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = hole_game(self.rules, view["players"])
        rng = self._rng
        world = worlds(game, view, rng)
        rollouts, policy = int(self.options["rollouts"]), str(self.options["rollout"])
        evaluator = (mcts.RandomRolloutEvaluator(rollouts, self._np) if policy == "random"
                     else BotRolloutEvaluator(policy, self.rules, rollouts, rng))
        search = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=float(self.options["uct"]),
            max_simulations=int(self.options["simulations"]),
            max_world_samples=int(self.options["worlds"]),
            random_state=self._np,
            use_observation_string=True,
        )
        search.set_resampler(lambda state, player: world())
        action = game.encoding.action(search.step(world()))
        if action not in legal:  # pragma: no cover - the worlds share the real legal moves
            raise AssertionError(f"IS-MCTS chose {action}, which is not legal here")
        return action
