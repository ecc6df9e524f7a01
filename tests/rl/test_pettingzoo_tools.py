"""PettingZoo's own converters and tests on the AEC env (issue 12): the parallel
route through ``turn_based_aec_to_parallel``, the global ``state()`` for centralised
critics, and the rewards credited to the agent that earned them."""

from __future__ import annotations

import random

import numpy as np
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from golf import Game
from golf.envs.pettingzoo_env import env, raw_env


def test_turn_based_aec_to_parallel_passes_the_parallel_api_test() -> None:
    for variant, players in (("six-card", 2), ("german", 3)):
        par = turn_based_aec_to_parallel(env(variant=variant, players=players,
                                             rules={"holes": 1, "target": 0}))
        parallel_api_test(par, num_cycles=200)


def test_a_parallel_loop_plays_whole_holes() -> None:
    par = turn_based_aec_to_parallel(env(variant="six-card", players=2, rules={"holes": 2}))
    observations, _ = par.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        # Every agent gives an action; only the one whose mask has a legal id counts.
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                   if o["action_mask"].any() else 0 for a, o in observations.items()}
        observations, rewards, _terms, _truncs, _infos = par.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    game = par.unwrapped.game
    assert game.is_over
    assert totals == {a: -float(game.totals[s]) for s, a in enumerate(par.possible_agents)}


def test_state_holds_every_card_the_observations_hide() -> None:
    e = raw_env(variant="german", players=3)
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(20):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = e.state()
    assert e.state_space.contains(state)
    views = {a: e.observe(a)["observation"] for a in e.possible_agents}
    # Trade two hidden cards of seat 1: the state changes, no observation does.
    g = e.game
    pos = g.position()
    hidden = [i for i, up in enumerate(pos["face_up"][1]) if not up
              and i + 1 not in pos["peeked"][1]]
    grid = pos["grids"][1]
    i, j = next((a, b) for a in hidden for b in hidden if grid[a] & 15 != grid[b] & 15)
    grid[i], grid[j] = grid[j], grid[i]
    e.game = Game.from_position(g.rules, pos)
    assert not np.array_equal(e.state(), state)
    for a in e.possible_agents:
        np.testing.assert_array_equal(e.observe(a)["observation"], views[a])


def test_last_credits_a_hole_to_a_seat_that_did_not_end_it() -> None:
    """The AEC way: ``last()`` gives each agent what it earned since it last acted, so a
    hole that the other seat ends still reaches it (Tianshou's per-step rewards do
    not, see docs/rl.md)."""
    e = raw_env(variant="six-card", players=2, rules={"holes": 1})
    e.reset(seed=9)
    rng = random.Random(9)
    got = dict.fromkeys(e.possible_agents, 0.0)
    last_actor = None
    for agent in e.agent_iter():
        obs, reward, done, _, _ = e.last()
        got[agent] += reward
        if done:
            e.step(None)
            continue
        last_actor = agent
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = e.game.hole_scores[-1]
    assert got == {a: -float(scores[s]) for s, a in enumerate(e.possible_agents)}
    assert last_actor is not None
