"""RL adapter speed: random legal actions through each toolkit's interface, one core.

Prints steps per second of the PettingZoo AEC environment (the usual ``env()``, inside
PettingZoo's order-enforcing wrapper, and the bare ``raw_env()``), of the Gymnasium
environment (learner steps; each includes the ``random`` opponents' moves, also
counted as actions/s) and OpenSpiel: states per second (``apply_action`` on
``python_golf``, chance nodes included, plus legal actions or chance outcomes at
every state, but no observations), what a learner gets through
``rl_environment.Environment`` (decisions per second, each with every seat's
information-state tensor, the chance nodes played inside) and the cost of one
``observation_tensor()`` call. Each PettingZoo and Gymnasium step includes building
the observation and the legal-action mask, as a learner needs them.

Rates are per second of this process's CPU time, so other work sharing the machine
disturbs them less than it would wall-clock rates (caches and frequency still vary).

    .venv/bin/python bench/envs.py [--seconds 3] [--variant six-card] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from golf.envs.gymnasium_env import GolfEnv
from golf.envs.pettingzoo_env import env, raw_env

#: CPU time of this process: the machine is shared, and wall time would count the others.
clock = time.process_time


def aec_steps(make: Any, variant: str, players: int, seconds: float) -> float:
    """Agent steps per second: ``last()`` (observation and mask) then ``step()``."""
    rng = random.Random(1)
    e = make(variant=variant, players=players)
    e.reset(seed=1)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        for _ in e.agent_iter():  # one whole match
            obs, _, done, truncated, _ = e.last()
            if done or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        e.reset()
    return steps / (clock() - start)


def gym_steps(variant: str, players: int, seconds: float) -> tuple[float, float]:
    """(learner steps/s, all actions/s) with ``random`` opponents."""
    rng = random.Random(2)
    e = GolfEnv(variant=variant, players=players, opponents="random")
    steps = actions = 0
    start = clock()
    seed = 0
    while clock() - start < seconds:
        _, info = e.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        actions += len(e.game.history)
    elapsed = clock() - start
    return steps / elapsed, actions / elapsed


def openspiel_game(variant: str, players: int) -> Any:
    import pyspiel

    import golf.envs.openspiel  # noqa: F401  registers python_golf

    return pyspiel.load_game("python_golf", {"preset": variant, "players": players})


def openspiel_states(variant: str, players: int, seconds: float) -> float:
    """States per second of random play on python_golf, chance nodes included."""
    game = openspiel_game(variant, players)
    rng = random.Random(3)
    states = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            states += 1
    return states / (clock() - start)


def openspiel_learner(variant: str, players: int, seconds: float) -> float:
    """Decisions per second through ``rl_environment`` (info-state tensors for all)."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(openspiel_game(variant, players))
    rng = random.Random(4)
    steps = 0
    start = clock()
    ts = env.reset()
    while clock() - start < seconds:
        if ts.last():
            ts = env.reset()
            continue
        legal = ts.observations["legal_actions"][ts.observations["current_player"]]
        ts = env.step([legal[rng.randrange(len(legal))]])
        steps += 1
    return steps / (clock() - start)


def observation_tensor_us(variant: str, players: int, seconds: float) -> float:
    """Microseconds per ``state.observation_tensor(player)`` on decision states."""
    game = openspiel_game(variant, players)
    rng = random.Random(5)
    states = []
    state = game.new_initial_state()
    while len(states) < 200:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    calls = 0
    start = clock()
    while clock() - start < seconds:
        for k, st in enumerate(states):
            st.observation_tensor(k % players)
        calls += len(states)
    return 1e6 * (clock() - start) / calls


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    args = p.parse_args()
    v, n, s = args.variant, args.players, args.seconds
    print(f"RL adapters: {v}, {n} players, random legal actions, one core, "
          f"{s:g} CPU s per figure")
    print(f"  PettingZoo AEC env()       {aec_steps(env, v, n, s):>9,.0f} steps/s")
    print(f"  PettingZoo AEC raw_env()   {aec_steps(raw_env, v, n, s):>9,.0f} steps/s")
    learner, actions = gym_steps(v, n, s)
    print(f"  Gymnasium GolfEnv          {learner:>9,.0f} steps/s "
          f"({actions:,.0f} actions/s with the opponents')")
    print(f"  OpenSpiel python_golf      {openspiel_states(v, n, s):>9,.0f} states/s "
          f"(no observations)")
    print(f"  OpenSpiel rl_environment   {openspiel_learner(v, n, s):>9,.0f} decisions/s "
          f"(every seat's information-state tensor)")
    print(f"  OpenSpiel observation_tensor() {observation_tensor_us(v, n, s):>5,.0f} us a call")


if __name__ == "__main__":
    main()
