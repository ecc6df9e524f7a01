"""A PettingZoo AEC environment: every seat is an agent (``player_0`` ...).

Each agent observes a dict with ``observation`` (the :class:`~golf.envs.Encoding`
vector of its view) and ``action_mask`` (int8, 1 for legal action ids); an agent that
is not to act gets an all-zero mask. An episode is one match of the rules (override
``holes`` for shorter ones). Rewards: ``reward="hole"`` gives every seat minus its
score when a hole ends (playoff holes too); ``reward="match"`` gives +1 to the winners
and -1 to the others when the match ends. An illegal action raises
:class:`golf.IllegalAction` and changes nothing.

>>> from golf.envs.pettingzoo_env import env
>>> e = env(variant="six-card", players=2, rules={"holes": 1})
>>> e.reset(seed=7)
>>> obs, reward, done, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (286,), 6)
>>> e.step(0)   # reveal 1
>>> e.agent_selection
'player_0'
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..errors import GolfError
from ..game import Game
from ..rules import Rules
from .encoding import Encoding, Mask, Obs, describe, env_rules

ObsDict = dict[str, Obs | Mask]


class GolfAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """Golf for PettingZoo's AEC API. See the module docs and ``docs/rl.md``."""

    metadata: ClassVar[dict[str, Any]] = {"name": "golf_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        rules: Mapping[str, Any] | None = None,
        reward: str = "hole",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.golf_rules = env_rules(variant, players, rules, reward, render_mode)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.encoding = enc = Encoding(self.golf_rules, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        # Each agent has its own space objects, so seeding one leaves the others alone.
        self.observation_spaces = {a: observation_space(enc) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(enc.num_actions)
                              for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = Game(self.golf_rules, players=players, seed=0)
        self._holes_seen = 0
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` fixes it (and the seeds of later resets)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game(self.golf_rules, players=len(self.possible_agents),
                         seed=self._seeds.randrange(2**32))
        self._holes_seen = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        seat = self.game.current_player
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seats[agent]
        g = self.game
        view = g.view(seat, codes=True)
        enc = self.encoding
        obs = enc.encode(view)
        if view["current_player"] == seat:
            mask = enc.mask(g.legal_actions())
        else:
            mask = np.zeros(enc.num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise GolfError(f"{agent} must act: give an action id, not None")
        g = self.game
        a = self.encoding.action(action)
        g.apply(a)  # an illegal action raises IllegalAction saying why; nothing changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        results = g.hole_results
        if self.reward_mode == "hole":
            while self._holes_seen < len(results):
                scores = results[self._holes_seen].scores
                self._holes_seen += 1
                for seat, s in enumerate(scores):
                    if s is not None:
                        self.rewards[self.possible_agents[seat]] -= float(s)
        if g.is_over:
            if self.reward_mode == "match":
                winners = g.winners
                for seat, name in enumerate(self.possible_agents):
                    self.rewards[name] = 1.0 if seat in winners else -1.0
            for name in self.agents:
                self.terminations[name] = True
        self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The view of the agent to act as text (``ansi`` returns it, ``human`` prints)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "make the env with render_mode='ansi' or 'human'")
            return None
        seat = self._seats[self.agent_selection]
        text = describe(self.game.view(seat, codes=True))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def observation_space(enc: Encoding) -> gymnasium.spaces.Dict:
    """The space of one agent's observation dict."""
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(enc.low, enc.high, dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (enc.num_actions,), dtype=np.int8),
    })


def raw_env(**kwargs: Any) -> GolfAECEnv:
    """The environment without PettingZoo's wrappers."""
    return GolfAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment inside PettingZoo's order-enforcing wrapper (the usual entry)."""
    return wrappers.OrderEnforcingWrapper(GolfAECEnv(**kwargs))
