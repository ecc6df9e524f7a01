"""A Gymnasium environment: the learner holds one seat, opponents hold the others.

Observations are the :class:`~golf.envs.Encoding` vector of the learner's view
(``observation="scaled"``, the default, every number in [-1, 1]; ``"raw"``: counts and
totals as they are); the legal actions come as ``info["action_mask"]`` (int8) and from
:meth:`GolfEnv.action_masks` (the name sb3-contrib's maskable algorithms look for).
Once the match is over the mask is all ones: no action is legal, and under a vector
env's autoreset the next action is ignored, so a masked sampler keeps working. An
episode is one match of the rules (override ``holes`` for shorter ones, or use the
registered one-hole ids such as ``golf/SixCard-1Hole-v0``). Rewards: ``reward="hole"``
gives minus the learner's score whenever a hole ends; ``reward="match"`` gives +1 if
the learner wins the match (alone or shared) and -1 otherwise. An illegal action
changes nothing and costs ``illegal_reward`` (``info["illegal_action"]`` is then True).

Results travel in ``info``, so they survive a vector env's autoreset: when a hole ends,
``hole_scores`` (every seat's, seat order; 0 for a seat sitting it out, which
``dealt_in`` marks False) and ``totals``;
when the match ends also ``won`` (per seat, True for each winner) and ``record`` (the
match's :meth:`golf.Game.record` as JSON text, since vector envs split dicts apart:
``Game.from_record(json.loads(info["record"]))`` replays it).

Opponents: one spec for all or one per other seat, e.g. ``opponents=["random",
"greedy"]``; a spec is a registry name, a bot, a callable ``(view, legal) -> action``
or a learned policy (:mod:`golf.envs.opponents`).
They play at a :class:`golf.table.Table` where the learner's seat is
:class:`~golf.table.Outside`; each opponent's seed comes from the match's seed and its seat
(:func:`golf.table.bot_seed`), the match's seed from the seed given to ``reset``.

>>> from golf.envs.gymnasium_env import GolfEnv
>>> env = GolfEnv(variant="six-card", players=3, rules={"holes": 1}, seat=1)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum())
((401,), 6)
>>> obs, reward, terminated, truncated, info = env.step(0)
>>> reward, terminated
(0.0, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from ..bots import Bot
from ..errors import GolfError
from ..game import Game
from ..rules import Rules
from ..state import HoleResult
from ..table import BotSeat, Outside, Seat, Table, bot_seed
from .encoding import Encoding, Mask, Obs, env_rules
from .episode import HoleWatch, render_view, results, rewards
from .opponents import make_opponent, opponent_specs
from .picture import Image


class GolfEnv(gymnasium.Env[Obs, np.int64]):
    """Golf for Gymnasium. See the module docs and ``docs/rl.md``."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        rules: Mapping[str, Any] | None = None,
        opponents: Any = "random",
        seat: int = 0,
        reward: str = "hole",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        observation: str = "scaled",
    ) -> None:
        self.golf_rules = env_rules(variant, players, rules, reward, render_mode, observation)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise GolfError(f"seat must be from 0 to {players - 1}, got {seat!r}")
        specs = opponent_specs(opponents, players)
        for spec in specs:  # fail now, with a message saying what is accepted, on a bad spec
            make_opponent(spec, self.golf_rules, players, seed=0)
        self.players = players
        self.seat = seat
        self.opponent_specs = specs
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoding = enc = Encoding(self.golf_rules, players,
                                       scaled=observation == "scaled")
        self.observation_space = gymnasium.spaces.Box(enc.low, enc.high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(enc.num_actions)
        self._seeds = random.Random()
        self.game = Game(self.golf_rules, players=players, seed=0)
        self.table = Table(self.game, [Outside() for _ in range(players)])
        self._holes = HoleWatch(self.game)
        self.table.watch(self._holes)

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
        seats: list[Seat] = [
            Outside() if s == self.seat
            else BotSeat(make_opponent(next(specs), self.golf_rules, self.players,
                                       seed=bot_seed(g.seed, s)))
            for s in range(self.players)]
        self.table = Table(g, seats)
        self._holes = HoleWatch(g)
        self.table.watch(self._holes)
        self._play_bots()
        return self._observe(), self._info(self._holes.take())

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots until the learner must act again."""
        g = self.game
        if g.is_over:
            raise GolfError("the match is over: call reset() to deal a new one")
        a = self.encoding.action(action)
        if a not in g.legal_actions():
            info = self._info([], illegal=True)
            return self._observe(), self.illegal_reward, False, False, info
        self.table.play(a, self.seat)
        self._play_bots()
        ended = self._holes.take()
        reward = rewards(g, ended, self.reward_mode)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, g.is_over, False, self._info(ended)

    def action_masks(self) -> Mask:
        """1 for each legal action id of the learner now; all ones once the match is
        over (nothing is legal then; a vector env ignores the action that resets)."""
        g = self.game
        if g.is_over:
            return np.ones(self.encoding.num_actions, np.int8)
        if g.current_player != self.seat:  # pragma: no cover - the bots play on first
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(g.legal_actions())

    def render(self) -> str | Image | None:
        """The learner's view: ``ansi`` returns it as text, ``human`` prints it,
        ``rgb_array`` returns a picture (:func:`golf.envs.picture.table_image`)."""
        return render_view(self.game, self.seat, self.render_mode)

    @property
    def bots(self) -> dict[int, Bot]:
        """The opponents of this episode, by seat."""
        return {s: seat.bot for s, seat in enumerate(self.table.seats)
                if isinstance(seat, BotSeat)}

    # --- inside ---------------------------------------------------------------------
    def _play_bots(self) -> None:
        self.table.run()  # the bots play until the learner's turn or the match's end

    def _observe(self) -> Obs:
        view = self.game.view(self.seat, codes=True)
        return self.encoding.encode(view)

    def _info(self, ended: list[HoleResult], illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if illegal:
            info["illegal_action"] = True
        info.update(results(self.game, ended))
        return info
