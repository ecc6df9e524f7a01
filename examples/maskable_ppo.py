"""Train MaskablePPO (sb3-contrib) at one-hole six-card Golf: first against ``random``,
then against ``greedy``, on the CPU, and measure it against both.

Needs the ``learn`` extra (``pip install 'golf-cards[learn]'``: stable-baselines3,
sb3-contrib and the CPU build of torch). The environment is the registered
``golf/SixCard-1Hole-v0``: one hole against one opponent, the scaled observation,
reward minus the learner's hole score, the legal-action mask through
``action_masks()``. Every ``--log-every`` steps it prints the mean hole score of the
holes finished since (learner and opponent, lower is better); at the end of each
phase it plays ``--eval`` holes with the greedy (deterministic) policy against both
opponents and prints the mean hole score with a 95% interval.

    .venv/bin/python examples/maskable_ppo.py                      # the documented run
    .venv/bin/python examples/maskable_ppo.py --random-steps 4096 --greedy-steps 2048
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium.wrappers import TransformReward
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger

import golf.envs  # noqa: F401  registers golf/SixCard-1Hole-v0
from golf.envs import GolfEnv

ENV_ID = "golf/SixCard-1Hole-v0"


class HoleLog(BaseCallback):
    """Prints the training holes' mean scores every ``every`` steps."""

    def __init__(self, every: int, label: str) -> None:
        super().__init__()
        self.every, self.label = every, label
        self.mine: list[float] = []
        self.theirs: list[float] = []
        self.next_at = 0
        self.started = time.process_time()

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.every

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "hole_scores" in info:
                self.mine.append(float(info["hole_scores"][0]))
                self.theirs.append(float(info["hole_scores"][1]))
        if self.num_timesteps >= self.next_at and self.mine:
            print(f"{self.num_timesteps:>8}  {self.label:<7} {np.mean(self.mine):>8.1f} "
                  f"{np.mean(self.theirs):>9.1f} {len(self.mine):>6} "
                  f"{time.process_time() - self.started:>8.0f}", flush=True)
            self.mine, self.theirs = [], []
            self.next_at += self.every
        return True


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    a = np.asarray(xs, float)
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(len(a)))


def evaluate(model: MaskablePPO, opponent: str, holes: int, seed: int) -> dict[str, Any]:
    """The learner's and the opponent's mean hole score over ``holes`` one-hole games."""
    env = GolfEnv(variant="six-card", players=2, rules={"holes": 1, "target": 0,
                                                        "tie_break": "share"},
                  opponents=opponent)
    mine, theirs, wins = [], [], 0
    for k in range(holes):
        obs, info = env.reset(seed=seed + k)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool),
                                      deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        mine.append(float(info["hole_scores"][0]))
        theirs.append(float(info["hole_scores"][1]))
        wins += bool(info["won"][0])
    (m, mh), (t, th) = interval(mine), interval(theirs)
    print(f"  vs {opponent:<7} learner {m:5.1f} ± {mh:3.1f}   {opponent} {t:5.1f} ± {th:3.1f}   "
          f"learner wins or shares {100 * wins / holes:.0f}% of {holes} holes", flush=True)
    return {"opponent": opponent, "learner": m, "learner_pm": mh, "opponent_score": t,
            "opponent_pm": th, "wins": wins / holes}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--random-steps", type=int, default=200_000,
                   help="learner steps against random (default 200000)")
    p.add_argument("--greedy-steps", type=int, default=200_000,
                   help="then learner steps against greedy (default 200000)")
    p.add_argument("--envs", type=int, default=8, help="environments stepped together")
    p.add_argument("--log-every", type=int, default=20_000, help="steps between log lines")
    p.add_argument("--eval", type=int, default=1000, help="holes per evaluation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lr", type=float, default=1e-3, help="learning rate")
    p.add_argument("--reward-scale", type=float, default=0.1,
                   help="rewards are multiplied by this (a hole is worth tens of points)")
    p.add_argument("--save", help="write the trained model to this .zip")
    args = p.parse_args(argv)
    torch.set_num_threads(1)  # small networks: one thread is fastest and shares the machine

    cpu, wall = time.process_time(), time.perf_counter()
    def scaled(env: gymnasium.Env[Any, Any]) -> gymnasium.Env[Any, Any]:
        return TransformReward(env, lambda r: args.reward_scale * float(r))

    venv = make_vec_env(ENV_ID, n_envs=args.envs, seed=args.seed, wrapper_class=scaled,
                        env_kwargs={"opponents": "random"})
    model = MaskablePPO("MlpPolicy", venv, learning_rate=args.lr, n_steps=256, batch_size=256,
                        n_epochs=4, gamma=1.0, ent_coef=0.01, seed=args.seed, device="cpu",
                        policy_kwargs={"net_arch": [128, 128]})
    # The example prints its own table; sb3's default logger would leave a folder in /tmp
    # for every learn() call.
    model.set_logger(Logger(folder=None, output_formats=[]))
    print(f"{'steps':>8}  {'against':<7} {'learner':>8} {'opponent':>9} {'holes':>6} "
          f"{'cpu s':>8}   mean hole score of the training holes (lower is better)")
    results: dict[str, Any] = {"phases": []}
    for opponent, steps in (("random", args.random_steps), ("greedy", args.greedy_steps)):
        if steps <= 0:
            continue
        if opponent != "random":
            venv = make_vec_env(ENV_ID, n_envs=args.envs, seed=args.seed + 1,
                                wrapper_class=scaled, env_kwargs={"opponents": opponent})
            model.set_env(venv)
        model.learn(total_timesteps=steps, callback=HoleLog(args.log_every, opponent),
                    reset_num_timesteps=False)
        print(f"after {model.num_timesteps} steps ({time.process_time() - cpu:.0f} s CPU):")
        evals = [evaluate(model, name, args.eval, 10**6 * (k + 1))
                 for k, name in enumerate(("random", "greedy"))]
        results["phases"].append({"trained_against": opponent, "steps": model.num_timesteps,
                                  "cpu_seconds": time.process_time() - cpu, "eval": evals})
    results["cpu_seconds"] = time.process_time() - cpu
    results["wall_seconds"] = time.perf_counter() - wall
    print(f"{model.num_timesteps} steps in {results['cpu_seconds']:.0f} s CPU "
          f"({results['wall_seconds']:.0f} s wall)")
    if args.save:
        model.save(args.save)
    return results


if __name__ == "__main__":
    main()
