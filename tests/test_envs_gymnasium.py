"""The Gymnasium environment: Gymnasium's own env checker for every preset, and the
environment's opponents, rewards, masks and errors."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import golf
from golf.envs import GYM_ID, GolfEnv

CASES = [(name, players) for name in golf.preset_names()
         for players in sorted({max(2, golf.load_rules(name).players[0]),
                                golf.load_rules(name).players[1]})]


@pytest.mark.parametrize("variant, players", CASES)
def test_gymnasium_env_checker(variant: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        env = gymnasium.make(GYM_ID, variant=variant, players=players, seat=players - 1)
        check_env(env.unwrapped)  # with a spec, so every render mode is checked too


def play_out(env: GolfEnv, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        assert sorted(env.encoding.action(i) for i in legal) == sorted(env.game.legal_actions())
        assert env.game.current_player == env.seat
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += float(reward)
        steps += 1
    return total, steps


def test_hole_rewards_add_up_to_minus_the_learners_scores() -> None:
    env = GolfEnv(variant="six-card", players=3, seat=1, opponents=["random", "random:"])
    total, steps = play_out(env, 3)
    g = env.game
    assert g.is_over and steps > 9
    assert total == -g.totals[1]
    assert env.action_masks().all()  # over: any action, a vector env's reset ignores it
    with pytest.raises(golf.GolfError, match="the match is over: call reset"):
        env.step(0)


def test_match_reward_says_whether_the_learner_won() -> None:
    for seed in range(4):
        env = GolfEnv(variant="four-card", players=3, rules={"holes": 1}, reward="match")
        total, _ = play_out(env, seed)
        assert total == (1.0 if 0 in env.game.winners else -1.0)


def test_an_illegal_action_costs_the_penalty_and_changes_nothing() -> None:
    env = GolfEnv(variant="six-card", players=2, illegal_reward=-3.0)
    obs, _ = env.reset(seed=1)
    before = env.game.position()
    obs2, reward, done, truncated, info = env.step(env.encoding.action_id("knock"))
    assert reward == -3.0 and not done and not truncated and info["illegal_action"]
    np.testing.assert_array_equal(obs, obs2)
    assert env.game.position() == before


def test_the_bots_play_the_other_seats_between_learner_turns() -> None:
    env = GolfEnv(variant="six-card", players=4, seat=2, opponents="random")
    env.reset(seed=9)
    assert env.game.current_player == 2
    assert sorted(env.bots) == [0, 1, 3]
    assert {b.name for b in env.bots.values()} == {"random"}
    # Seats 0 and 1 have made their setup choices before the learner's first turn.
    assert sum(env.game.face_up(0)) == sum(env.game.face_up(1)) == 2


def test_seeds_fix_the_deal_and_the_bots() -> None:
    def run(seed: int) -> list[float]:
        env = GolfEnv(variant="german", players=3, rules={"target": 30})
        return [play_out(env, seed)[0], *env.game.totals]

    assert run(7) == run(7)


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(golf.GolfError, match="give one opponent spec, or 2"):
        GolfEnv(players=3, opponents=["random"])
    with pytest.raises(golf.GolfError, match="unknown bot 'wizard'"):
        GolfEnv(opponents="wizard")
    with pytest.raises(golf.GolfError, match="seat must be from 0 to 1"):
        GolfEnv(seat=2)
    with pytest.raises(golf.GolfError, match="is for 3 to 7 players"):
        GolfEnv(variant="four-card", players=2)


def test_rendering_as_text() -> None:
    env = GolfEnv(variant="nine-card", players=2, render_mode="ansi", seat=1)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "seen by seat 1" in text.splitlines()[0]
    assert len(text.splitlines()) == 4
