"""The ``openspiel-ismcts`` bot: OpenSpiel's IS-MCTS searching the hole being played.

Like every bot it sees only its view and the legal actions. At each decision it
builds ``python_golf`` worlds for the current hole (a one-hole match: the search
minimises the bot's own hole score) in which every card it cannot see is dealt at
random from the cards it has not seen, and runs
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` over them with random rollouts.
After a reshuffle the view says which cards the stock holds (``stock_cards``), and
the worlds keep exactly those cards in the stock.

Options: ``simulations`` (per decision, default 100), ``uct`` (the exploration
constant, in points of score, default 10), ``worlds`` (how many worlds to sample,
-1 for a new one every simulation), ``rollouts`` (playouts per leaf, default 1) and
``rollout`` (who plays them: ``random``, OpenSpiel's random rollouts, the default;
or the name of a registry bot such as ``greedy``, which plays every seat from its
own view - stronger and rules-aware, at the cost of that bot's time).

Importing this module needs ``open_spiel`` (extra ``golf-cards[openspiel]``); without
it the import fails with ImportError and the bot registry simply lacks this bot.

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
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from ..actions import Action
from ..cards import build_deck
from ..envs.openspiel import GolfGame, GolfState
from ..game import Game
from ..rules import Rules, load_rules
from .base import Bot, make_bot, register

_GAMES: dict[tuple[Rules, int], GolfGame] = {}


def hole_game(rules: Rules, players: int) -> GolfGame:
    """The ``python_golf`` game of one hole under ``rules`` (built once per rules)."""
    key = (rules, players)
    game = _GAMES.get(key)
    if game is None:
        one = load_rules(rules, {"holes": 1, "target": 0, "tie_break": "share"})
        game = _GAMES[key] = GolfGame({"players": players}, rules=one)
    return game


def in_stock(view: Mapping[str, Any]) -> list[int]:
    """The cards the view's seat knows to be in the stock: after a reshuffle, the view's
    ``stock_cards`` less the card the seat holds from it (it is in its hand, not the
    stock); none before.

    >>> in_stock({"stock_cards": [1, 5, 5], "held": 5, "held_from": "stock"})
    [1, 5]
    >>> in_stock({"stock_cards": None, "held": None, "held_from": None})
    []
    """
    cards = view["stock_cards"]
    if cards is None:
        return []
    cards = list(cards)
    held = view["held"]
    if held is not None and view["held_from"] == "stock":
        cards.remove(held)
    return cards


def _visible(view: Mapping[str, Any]) -> Counter[int]:
    cards = [c for grid in view["grids"] if grid is not None for c in grid if c is not None]
    cards += view["discard"]
    if view["held"] is not None:
        cards.append(view["held"])
    return Counter(cards)


def world(game: GolfGame, view: Mapping[str, Any], in_stock: Sequence[int],
          rng: random.Random) -> GolfState:
    """A ``python_golf`` state of ``game`` that the view's seat cannot tell from the
    real one: its view, with every card it cannot see dealt from the cards it has not
    seen (``in_stock`` are cards it knows to be in the stock)."""
    rules = game.golf_rules
    players, me = view["players"], view["seat"]
    deck = Counter(build_deck(rules.decks_for(players), rules.jokers_per_deck))
    unseen = deck - _visible(view) - Counter(in_stock)
    cards = list(unseen.elements())
    rng.shuffle(cards)
    grids: list[list[int] | None] = []
    for grid in view["grids"]:
        grids.append(None if grid is None else [cards.pop() if c is None else c for c in grid])
    stock = cards + list(in_stock)
    rng.shuffle(stock)
    phase = view["phase"]
    chosen: list[int] = []
    if phase == "setup":
        if rules.setup == "reveal":
            chosen = [i + 1 for i, up in enumerate(view["face_up"][me]) if up]
        else:
            chosen = list(view["peeked"])
    pos = {
        "players": players,
        "active": view["active"],
        "dealer": view["dealer"],
        "phase": phase,
        "current_player": view["current_player"],
        "grids": grids,
        "face_up": view["face_up"],
        "peeked": [list(view["peeked"]) if s == me else (view["peeked_cells"][s] or [])
                   for s in range(players)],
        "setup_chosen": chosen,
        "stock": stock,
        "discard": view["discard"],
        "held": view["held"],
        "held_from": view["held_from"],
        "turns": view["turns"],
        "knocked_by": view["knocked_by"],
        "final_turns_from": view["final_turns_from"],
        "reshuffles": 0 if view["stock_cards"] is None else 1,
    }
    state = game.new_initial_state()
    core = state._core
    core.g = Game.from_position(rules, pos)
    core.dealing = None
    return state


class BotRolloutEvaluator:
    """An IS-MCTS evaluator whose playouts are played by registry bots, one per seat,
    each from its own view, straight on the engine (a sampled world's stock is
    already in random order, so its draws are chance draws)."""

    def __init__(self, spec: str, rules: Rules, rollouts: int, rng: random.Random) -> None:
        make_bot(spec, rules)  # a bad spec fails at once, with the registry's message
        self.spec, self.rules, self.rollouts, self.rng = spec, rules, rollouts, rng

    def evaluate(self, state: GolfState) -> Any:
        start = state._core.g
        total = np.zeros(start.players)
        for _ in range(self.rollouts):
            g = start.clone()
            bots = [make_bot(self.spec, self.rules, seed=self.rng.randrange(2**32))
                    for _ in range(g.players)]
            while not g.is_over:
                seat = g.current_player
                assert seat is not None
                g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
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
        known = in_stock(view)
        rng = self._rng
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
        search.set_resampler(lambda state, player: world(game, view, known, rng))
        action = game.encoding.action(search.step(world(game, view, known, rng)))
        if action not in legal:  # pragma: no cover - the worlds share the real legal moves
            raise AssertionError(f"IS-MCTS chose {action}, which is not legal here")
        return action
