"""A Gymnasium environment: the learner holds one seat, registry bots hold the others.

Observations are the :class:`~golf.envs.Encoding` vector of the learner's view; the
legal actions come as ``info["action_mask"]`` (int8) and from :meth:`GolfEnv.action_masks`
(the name sb3-contrib's maskable algorithms look for). An episode is one match of the
rules (override ``holes`` for shorter ones). Rewards: ``reward="hole"`` gives minus
the learner's score whenever a hole ends; ``reward="match"`` gives +1 if the learner
wins the match (alone or shared) and -1 otherwise. An illegal action changes nothing
and costs ``illegal_reward`` (``info["illegal_action"]`` is then True).

Opponents are named bots (``golf.bots.make_bot``), one spec for all or one per other
seat, e.g. ``opponents=["random", "greedy"]``. They play at a :class:`golf.table.Table`
where the learner's seat is :class:`~golf.table.Outside`; each bot's seed comes from
the match's seed and its seat (:func:`golf.table.bot_seed`), the match's seed from the
seed given to ``reset``.

>>> from golf.envs.gymnasium_env import GolfEnv
>>> env = GolfEnv(variant="six-card", players=3, rules={"holes": 1}, seat=1)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum())
((383,), 6)
>>> obs, reward, terminated, truncated, info = env.step(0)
>>> reward, terminated
(0.0, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from ..bots import Bot, make_bot
from ..errors import GolfError
from ..game import Game
from ..rules import Rules
from ..table import BotSeat, Outside, Seat, Table, bot_seat
from .encoding import Encoding, Mask, Obs, describe, env_rules


class GolfEnv(gymnasium.Env[Obs, np.int64]):
    """Golf for Gymnasium. See the module docs and ``docs/rl.md``."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        rules: Mapping[str, Any] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        reward: str = "hole",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.golf_rules = env_rules(variant, players, rules, reward, render_mode)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise GolfError(f"seat must be from 0 to {players - 1}, got {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise GolfError(f"give one opponent spec, or {players - 1} (one per other seat); "
                            f"got {len(specs)}")
        for spec in specs:  # fail now, with the registry's message, on a bad spec
            make_bot(spec, self.golf_rules, seed=0)
        self.players = players
        self.seat = seat
        self.opponent_specs = specs
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoding = enc = Encoding(self.golf_rules, players)
        self.observation_space = gymnasium.spaces.Box(enc.low, enc.high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(enc.num_actions)
        self._seeds = random.Random()
        self.game = Game(self.golf_rules, players=players, seed=0)
        self.table = Table(self.game, [Outside() for _ in range(players)])
        self._holes_seen = 0

    # --- the Gymnasium API --------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new match and let the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        g = self.game = Game(self.golf_rules, players=self.players,
                             seed=self._seeds.randrange(2**32))
        specs = iter(self.opponent_specs)
        seats: list[Seat] = [Outside() if s == self.seat
                             else bot_seat(next(specs), self.golf_rules, g.seed, s)
                             for s in range(self.players)]
        self.table = Table(g, seats)
        self._holes_seen = 0
        self._play_bots()
        self._rewards()  # a hole cannot end before anyone acts, but keep the count right
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots until the learner must act again."""
        g = self.game
        if g.is_over:
            raise GolfError("the match is over: call reset() to deal a new one")
        a = self.encoding.action(action)
        if a not in g.legal_actions():
            return self._observe(), self.illegal_reward, False, False, self._info(illegal=True)
        self.table.play(a, self.seat)
        self._play_bots()
        reward = self._rewards()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, g.is_over, False, self._info()

    def action_masks(self) -> Mask:
        """1 for each legal action id of the learner now."""
        g = self.game
        if g.is_over or g.current_player != self.seat:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(g.legal_actions())

    def render(self) -> str | None:
        """The learner's view as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "make the env with render_mode='ansi' or 'human'")
            return None
        text = describe(self.game.view(self.seat, codes=True))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @property
    def bots(self) -> dict[int, Bot]:
        """The opponents of this episode, by seat."""
        return {s: seat.bot for s, seat in enumerate(self.table.seats)
                if isinstance(seat, BotSeat)}

    # --- inside ---------------------------------------------------------------------
    def _play_bots(self) -> None:
        self.table.run()  # the bots play until the learner's turn or the match's end

    def _rewards(self) -> float:
        g, reward = self.game, 0.0
        results = g.hole_results
        while self._holes_seen < len(results):
            score = results[self._holes_seen].scores[self.seat]
            self._holes_seen += 1
            if self.reward_mode == "hole" and score is not None:
                reward -= float(score)
        if self.reward_mode == "match" and g.is_over:
            reward = 1.0 if self.seat in g.winners else -1.0
        return reward

    def _observe(self) -> Obs:
        view = self.game.view(self.seat, codes=True)
        return self.encoding.encode(view)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if illegal:
            info["illegal_action"] = True
        return info
