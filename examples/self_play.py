"""Self-play on the PettingZoo AEC environment: one policy plays every seat of
one-hole six-card Golf and learns from all of them at once.

The policy is the small numpy learner of ``learn_policy.py`` (a softmax over the
legal actions scored by features of the observation). Here it holds both seats of
the AEC env; each seat keeps its own trace of decisions, and each seat's reward is
read from ``last()``, the AEC env's reward *since that agent last acted*, so the
hole's result reaches a seat even when the other seat ended the hole (the crediting
Tianshou's per-step rewards miss; see docs/rl.md). After each hole both traces
update the one set of weights (REINFORCE with a running baseline). Every ``--every``
holes the current policy is measured, through the Gymnasium env, against ``random``
and ``greedy`` (mean hole score, lower is better).

    .venv/bin/python examples/self_play.py [--holes 6000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learn_policy import Features  # the same features as the REINFORCE example

from golf.envs.gymnasium_env import GolfEnv
from golf.envs.pettingzoo_env import raw_env

ONE_HOLE = {"holes": 1, "target": 0, "tie_break": "share"}


def pick(theta: np.ndarray, phi: np.ndarray, rng: np.random.Generator) -> tuple[int, np.ndarray]:
    """A sampled row of ``phi`` and the gradient of its log-probability."""
    logits = phi @ theta
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    k = int(rng.choice(len(probs), p=probs))
    return k, phi[k] - probs @ phi


def measure(theta: np.ndarray, features: Features, opponent: str, holes: int,
            seed: int) -> tuple[float, float]:
    """The policy's mean hole score against ``opponent`` (sampling, as it plays) and
    the half-width of its 95% interval."""
    env = GolfEnv(variant="six-card", players=2, rules=ONE_HOLE, opponents=opponent)
    rng = np.random.default_rng(seed)
    scores = []
    for k in range(holes):
        obs, info = env.reset(seed=seed + k)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            i, _ = pick(theta, features(obs, legal), rng)
            obs, _, done, _, info = env.step(int(legal[i]))
        scores.append(float(info["hole_scores"][0]))
    return float(np.mean(scores)), float(1.96 * np.std(scores, ddof=1) / np.sqrt(holes))


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--holes", type=int, default=6000, help="self-play holes")
    p.add_argument("--every", type=int, default=1000, help="holes between measurements")
    p.add_argument("--measure", type=int, default=200, help="holes per measurement")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    env = raw_env(variant="six-card", players=2, rules=ONE_HOLE)
    features = Features(env)  # type: ignore[arg-type]  # it reads encoding and rules only
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(features.size)
    baseline, spread = -25.0, 10.0
    log: list[dict[str, Any]] = []
    start = time.process_time()
    print(f"{'holes':>6}  {'vs random':>11}  {'vs greedy':>11}  {'cpu s':>6}   "
          f"mean hole score of the self-play policy (lower is better)")
    for hole in range(1, args.holes + 1):
        env.reset(seed=args.seed * 1_000_003 + hole)
        traces: dict[str, list[np.ndarray]] = {a: [] for a in env.possible_agents}
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, done, truncated, _ = env.last()
            returns[agent] += reward  # what this seat earned since it last acted
            if done or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            i, grad = pick(theta, features(obs["observation"], legal), rng)
            traces[agent].append(grad)
            env.step(int(legal[i]))
        for agent, trace in traces.items():
            g = returns[agent]
            theta += args.lr * (g - baseline) / spread * np.sum(trace, axis=0)
            baseline += 0.01 * (g - baseline)
            spread += 0.01 * (abs(g - baseline) - spread)
        if hole % args.every == 0:
            (r, rh), (g, gh) = (measure(theta, features, name, args.measure, seed * hole)
                                for name, seed in (("random", 7), ("greedy", 11)))
            row = {"holes": hole, "random": r, "random_pm": rh, "greedy": g, "greedy_pm": gh,
                   "cpu_seconds": time.process_time() - start}
            log.append(row)
            print(f"{hole:>6}  {r:>5.1f} ± {rh:<3.1f}  {g:>5.1f} ± {gh:<3.1f}  "
                  f"{row['cpu_seconds']:>6.0f}", flush=True)
    return log


if __name__ == "__main__":
    main()
