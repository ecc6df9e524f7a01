"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset
and player count, and the environment's rewards, errors and rendering."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import golf
from golf import IllegalAction
from golf.envs import GolfAECEnv
from golf.envs.pettingzoo_env import env, raw_env

CASES = [(name, players) for name in golf.preset_names()
         for players in range(max(2, golf.load_rules(name).players[0]),
                              golf.load_rules(name).players[1] + 1)]
# PettingZoo warns about every dict observation with an action mask, its own
# convention for masked games (its card games warn the same); nothing else may warn.
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("variant, players", CASES)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant=variant, players=players), num_cycles=1000)
        seed_test(lambda: env(variant=variant, players=players), num_cycles=300)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def play_out(e: GolfAECEnv, seed: int) -> dict[str, float]:
    """Random legal play to the end; the rewards each agent collected."""
    rng = random.Random(seed)
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        got[agent] += reward
        if done or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


def test_hole_rewards_add_up_to_minus_every_hole_score() -> None:
    e = raw_env(variant="german", players=3)
    e.reset(seed=12)
    got = play_out(e, 1)
    g = e.game
    for seat, agent in enumerate(e.possible_agents):
        playoffs = sum(s[seat] or 0 for s in g.playoff_scores)
        assert got[agent] == -(g.totals[seat] + playoffs)
    assert any(got.values())


def test_match_rewards_say_who_won() -> None:
    e = raw_env(variant="six-card", players=3, rules={"holes": 2}, reward="match")
    e.reset(seed=4)
    got = play_out(e, 2)
    winners = e.game.winners
    assert got == {a: (1.0 if s in winners else -1.0) for s, a in enumerate(e.possible_agents)}


def test_only_the_agent_to_act_has_legal_actions() -> None:
    e = raw_env(variant="six-card", players=3)
    e.reset(seed=3)
    for _ in range(40):
        to_act = e.agent_selection
        for agent in e.possible_agents:
            mask = e.observe(agent)["action_mask"]
            assert mask.any() == (agent == to_act)
        legal = [e.encoding.action(i) for i in np.flatnonzero(e.observe(to_act)["action_mask"])]
        assert sorted(legal) == sorted(e.game.legal_actions())
        e.step(e.encoding.action_id(legal[0]))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(variant="six-card", players=2)
    e.reset(seed=1)
    before = e.game.position()
    with pytest.raises(IllegalAction, match="draw: first each player must turn up 2 card"):
        e.step(e.encoding.action_id("draw"))
    with pytest.raises(golf.GolfError, match="action id 99 is out of range"):
        e.step(99)
    assert e.game.position() == before and e.agent_selection == "player_0"


def test_seeds_fix_the_deals() -> None:
    a, b = raw_env(players=2), raw_env(players=2)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game.position() == b.game.position()
    a.reset()
    b.reset()
    assert a.game.position() == b.game.position()  # later resets follow the seed too
    b.reset(seed=6)
    assert a.game.position() != b.game.position()


def test_rendering_as_text() -> None:
    e = raw_env(variant="six-card", players=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert isinstance(text, str)
    assert text.startswith("six-card hole 1/9 setup, seat 0 to act; seen by seat 0")
    with pytest.raises(golf.GolfError,
                       match="render_mode must be None, 'human', 'ansi' or 'rgb_array'"):
        raw_env(render_mode="video")
    picture = raw_env(variant="six-card", players=2, render_mode="rgb_array")
    picture.reset(seed=2)
    img = picture.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape[2] == 3
    with pytest.raises(golf.GolfError, match="reward must be 'hole' or 'match'"):
        raw_env(reward="money")
