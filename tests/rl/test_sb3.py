"""Breaks 1 and 4 of issue 12 through Stable-Baselines3 and sb3-contrib (extra
``golf-cards[learn]``): ``make_vec_env`` builds the env (it asks for ``rgb_array``),
MaskablePPO trains on it, and a model takes a seat as an opponent (self-play)."""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger

import golf.envs  # noqa: F401  registers the ids
from golf.envs import GolfEnv
from golf.envs.opponents import ObservationPolicy

torch.set_num_threads(1)


def test_make_vec_env_builds_the_registered_ids() -> None:
    for env_id in ("golf/Golf-v0", "golf/SixCard-1Hole-v0", "golf.envs:golf/German-v0"):
        venv = make_vec_env(env_id, n_envs=2, seed=0)
        assert venv.render_mode == "rgb_array"  # what make_vec_env asks for first
        obs = venv.reset()
        assert obs.shape == (2, *venv.observation_space.shape)
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
        pictures = venv.get_images()
        assert all(p.dtype == np.uint8 and p.ndim == 3 for p in pictures)
        venv.close()


def test_sb3_env_checker() -> None:
    sb3_check_env(GolfEnv(variant="six-card", players=3, rules={"holes": 1}))


def test_maskable_ppo_learns_a_few_steps_and_plays_as_an_opponent() -> None:
    venv = make_vec_env("golf/SixCard-1Hole-v0", n_envs=2, seed=1)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=1,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # no folder left in /tmp
    model.learn(total_timesteps=128)
    # The model itself as the opponent (sb3 models have predict): the self-play hook.
    env = GolfEnv(variant="six-card", players=2, rules={"holes": 1}, opponents=model)
    obs, info = env.reset(seed=5)
    assert env.bots[1].name == "policy"
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool))
        obs, _, done, _, info = env.step(int(action))
    assert env.game.is_over and len(env.game.history) > 8
    # A callable over the learner's numbers works the same way.
    frozen = ObservationPolicy(lambda o, m: model.predict(o, action_masks=m.astype(bool),
                                                          deterministic=True)[0])
    env = GolfEnv(variant="six-card", players=3, rules={"holes": 1},
                  opponents=[frozen, "greedy"])
    env.reset(seed=1)
    assert [b.name for b in env.bots.values()] == ["policy", "greedy"]
