"""A PettingZoo AEC environment: every seat is an agent (``player_0`` ...).

Each agent observes a dict with ``observation`` (the :class:`~golf.envs.Encoding`
vector of its view; ``observation="scaled"``, the default, or ``"raw"``) and
``action_mask`` (int8, 1 for legal action ids); an agent that is not to act gets an
all-zero mask. :meth:`GolfAECEnv.state` is the whole state (every card) for
centralised critics. When a hole ends every agent's ``info`` holds ``hole_scores``
and ``totals``, and at the end of the match ``won`` and ``record`` (as in the
Gymnasium env). For the parallel API use PettingZoo's
``pettingzoo.utils.conversions.turn_based_aec_to_parallel``. An episode is one match
of the rules (override ``holes`` for shorter ones). Rewards: ``reward="hole"`` gives
every seat minus its score when a hole ends (playoff holes too); ``reward="match"``
gives +1 to the winners and -1 to the others when the match ends. An illegal action raises
:class:`golf.IllegalAction` and changes nothing.

>>> from golf.envs.pettingzoo_env import env
>>> e = env(variant="six-card", players=2, rules={"holes": 1})
>>> e.reset(seed=7)
>>> obs, reward, done, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (298,), 6)
>>> e.unwrapped.state().shape
(310,)
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
from .encoding import Encoding, Mask, Obs, env_rules
from .episode import ended_holes, render_view, results, rewards
from .picture import Image

ObsDict = dict[str, Obs | Mask]


class GolfAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """Golf for PettingZoo's AEC API. See the module docs and ``docs/rl.md``."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "golf_v0", "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False}

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        rules: Mapping[str, Any] | None = None,
        reward: str = "hole",
        render_mode: str | None = None,
        observation: str = "scaled",
    ) -> None:
        super().__init__()
        self.golf_rules = env_rules(variant, players, rules, reward, render_mode, observation)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.encoding = enc = Encoding(self.golf_rules, players,
                                       scaled=observation == "scaled")
        low, high = enc.state_bounds()
        self.state_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        # Each agent has its own space objects, so seeding one leaves the others alone.
        self.observation_spaces = {a: observation_space(enc) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(enc.num_actions)
                              for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = Game(self.golf_rules, players=players, seed=0)
        self._stale_infos = False
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
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._stale_infos = False
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

    def state(self) -> Obs:
        """The whole state, every card included (:meth:`golf.envs.Encoding.encode_state`),
        for centralised critics in training; never give it to a player's policy."""
        return self.encoding.encode_state(self.game)

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
        ended = ended_holes(g)
        self.rewards = dict(zip(self.possible_agents, rewards(g, ended, self.reward_mode),
                                strict=True))
        if ended:
            news = results(g, ended)
            self.infos = {name: dict(news) for name in self.agents}
        elif self._stale_infos:  # last step's results are not this step's
            self.infos = {name: {} for name in self.agents}
        self._stale_infos = bool(ended)
        if g.is_over:
            for name in self.agents:
                self.terminations[name] = True
        self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | Image | None:
        """The view of the agent to act: ``ansi`` returns it as text, ``human`` prints
        it, ``rgb_array`` returns a picture."""
        return render_view(self.game, self._seats[self.agent_selection], self.render_mode)

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
