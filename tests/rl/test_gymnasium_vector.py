"""Breaks 2 and 3 of issue 12, through Gymnasium's own vector envs: results survive the
autoreset in ``info``, and the common masked-sampling loop runs across episode ends in
both autoreset modes. Also the registered ids and the scaled observation's bounds."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import TimeLimit

import golf
import golf.envs
from golf import Game
from golf.envs import gym_id


def masked_choice(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """The loop researchers write: one legal id per sub-env, from the mask."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_results_survive_the_next_step_autoreset() -> None:
    envs = gymnasium.make_vec("golf/SixCard-1Hole-v0", num_envs=3, vectorization_mode="sync",
                              opponents="greedy")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(0)
    obs, infos = envs.reset(seed=4)
    returns = np.zeros(3)
    finished = []
    for _ in range(400):
        obs, rewards, terminated, _truncated, infos = envs.step(
            masked_choice(rng, infos["action_mask"]))
        assert envs.single_observation_space.contains(obs[0])
        returns += rewards
        for i in np.flatnonzero(terminated):
            assert infos["_won"][i] and infos["_record"][i]
            scores = infos["hole_scores"][i]
            assert returns[i] == -scores[0]  # the learner's reward is minus its score
            # The record replays to the same result: the game is gone, its story is not.
            replay = Game.from_record(json.loads(infos["record"][i]))
            assert list(replay.hole_scores[-1]) == list(scores)
            assert list(infos["won"][i]) == [s in replay.winners for s in range(2)]
            assert infos["action_mask"][i].all()  # nothing is legal; anything will do
            finished.append(scores)
            returns[i] = 0.0
    assert len(finished) >= 6
    assert np.mean([s[1] for s in finished]) < np.mean([s[0] for s in finished])  # greedy wins
    envs.close()


def test_the_masked_loop_runs_in_same_step_mode_too() -> None:
    envs = gymnasium.make_vec("golf/German-1Hole-v0", num_envs=2, vectorization_mode="sync",
                              vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=2)
    ends = 0
    for _ in range(300):
        _, _, terminated, _, infos = envs.step(masked_choice(rng, infos["action_mask"]))
        for i in np.flatnonzero(terminated):
            ends += 1
            # Same step: the info is the new episode's, the finished one's is kept aside.
            assert infos["action_mask"][i].sum() < len(infos["action_mask"][i])
            assert infos["final_info"]["_record"][i]
    assert ends >= 2
    envs.close()


def test_every_preset_has_a_match_id_and_a_one_hole_id() -> None:
    for name in golf.preset_names():
        for one_hole in (False, True):
            env = gymnasium.make(gym_id(name, one_hole))
            assert isinstance(env, TimeLimit)
            assert env.spec is not None and env.spec.max_episode_steps
            inner = env.unwrapped
            assert inner.golf_rules.name == name  # type: ignore[attr-defined]
            if one_hole:
                _, info = env.reset(seed=1)
                done, steps = False, 0
                while not done:
                    action = int(np.flatnonzero(info["action_mask"])[0])
                    _, _, done, truncated, info = env.step(action)
                    steps += 1
                    assert not truncated
                assert len(inner.game.hole_results) == 1  # type: ignore[attr-defined]
                assert Game.from_record(json.loads(info["record"])).is_over
            env.close()


def test_a_learner_looping_on_illegal_actions_is_truncated() -> None:
    env = gymnasium.make("golf/FourCard-1Hole-v0")
    env.reset(seed=0)
    knock = env.unwrapped.encoding.action_id("knock")  # type: ignore[attr-defined]
    budget = env.spec.max_episode_steps  # type: ignore[union-attr]
    steps, truncated = 0, False
    while not truncated:
        _, reward, terminated, truncated, info = env.step(knock)
        steps += 1
        assert reward == -1.0 and info["illegal_action"] and not terminated
    assert steps == budget


@pytest.mark.parametrize("name", golf.preset_names())
def test_the_scaled_observation_is_bounded_by_one(name: str) -> None:
    env = gymnasium.make(gym_id(name), rules={"target": 0, "holes": 3})
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    assert space.low.min() == -1.0 and space.high.max() == 1.0
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        assert space.contains(obs)
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    raw = gymnasium.make(gym_id(name), observation="raw")
    assert raw.observation_space.high.max() > 1.0  # type: ignore[attr-defined]
