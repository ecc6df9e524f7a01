"""Learn to play six-card Golf against a random player, through the Gymnasium env.

A small numpy learner: a softmax policy over the legal actions, scored by a linear
function of features of each action read from the observation vector (the layout of
``docs/rl.md``: the learner's own cells, the held card, the discard top), with
weights shared across grid positions so that what it learns about one cell holds
for all. It is trained by REINFORCE with a running baseline; an episode is one hole
and the reward is minus the learner's hole score. Every few hundred holes it prints
the learner's and its opponent's mean hole score: a random player scores about 30.

    .venv/bin/python examples/learn_policy.py [--holes 6000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from golf.envs.gymnasium_env import GolfEnv

RANKS = 14  # A..K and the joker, one-hot in the observation


class Features:
    """phi(observation, action) for every action id, from the documented layout."""

    def __init__(self, env: GolfEnv) -> None:
        enc = env.encoding
        self.cells, self.cols = enc.cells, env.golf_rules.cols
        self.own = enc.section("own_grid")
        self.held = enc.section("held")
        self.top = enc.section("discard_top")
        self.kinds = [a.kind for a in enc.actions]
        self.cell_of = [a.cell for a in enc.actions]
        # Blocks of the weight vector: one per kind of decision.
        sizes = {"swap": RANKS * 15 * 2, "discard": RANKS, "take": RANKS, "draw": 1,
                 "flip": 15, "pass": 1, "reveal": 15 + self.cells}
        self.offset: dict[str, int] = {}
        total = 0
        for kind, size in sizes.items():
            self.offset[kind] = total
            total += size
        self.size = total + 1  # and knocking, which six-card has not

    def __call__(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """One row of features per legal action."""
        grid = obs[self.own.start:self.own.stop].reshape(self.cells, 15).argmax(axis=1)
        held = int(obs[self.held.start:self.held.start + RANKS].argmax())
        top = int(obs[self.top.start:self.top.stop].argmax())
        rows = np.zeros((len(legal), self.size))
        for row, a in enumerate(legal):
            kind, cell = self.kinds[a], self.cell_of[a]
            at = self.offset.get(kind, self.size - 1)
            if kind == "swap":
                assert cell is not None
                partner = (cell + self.cols) % self.cells  # the other card of its column
                rows[row, at + held * 15 + grid[cell]] = 1.0
                rows[row, at + RANKS * 15 + held * 15 + grid[partner]] = 1.0
            elif kind in ("discard", "take"):
                rows[row, at + (held if kind == "discard" else top)] = 1.0
            elif kind == "flip":
                assert cell is not None
                rows[row, at + grid[(cell + self.cols) % self.cells]] = 1.0
            elif kind == "reveal":
                assert cell is not None
                rows[row, at + cell] = 1.0
            else:
                rows[row, at] = 1.0
        return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--holes", type=int, default=6000, help="holes to train for")
    p.add_argument("--every", type=int, default=500, help="report interval, in holes")
    p.add_argument("--lr", type=float, default=0.05, help="learning rate")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    env = GolfEnv(variant="six-card", players=2, rules={"holes": 1}, opponents="random")
    features = Features(env)
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(features.size)
    baseline, spread = -30.0, 10.0
    mine: list[float] = []
    theirs: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    print(f"{'holes':>6}  {'learner':>8}  {'random':>8}   mean hole score (lower is better)")
    for hole in range(1, args.holes + 1):
        obs, info = env.reset(seed=args.seed * 1_000_003 + hole)
        trace = []
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            phi = features(obs, legal)
            logits = phi @ theta
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            pick = int(rng.choice(len(legal), p=probs))
            trace.append(phi[pick] - probs @ phi)  # the gradient of log pi(action)
            obs, r, done, _, info = env.step(int(legal[pick]))
            reward += float(r)
        # REINFORCE: every step shares the hole's return, less a running baseline.
        theta += args.lr * (reward - baseline) / spread * np.sum(trace, axis=0)
        baseline += 0.01 * (reward - baseline)
        spread += 0.01 * (abs(reward - baseline) - spread)
        mine.append(-reward)
        theirs.append(float(env.game.hole_scores[-1][1]))
        if hole % args.every == 0:
            print(f"{hole:>6}  {np.mean(mine[-args.every:]):>8.1f}  "
                  f"{np.mean(theirs[-args.every:]):>8.1f}")
    last = np.array(mine[-1000:])
    print(f"last {len(last)} holes: learner {last.mean():.1f} ± "
          f"{1.96 * last.std(ddof=1) / np.sqrt(len(last)):.1f} (95%), "
          f"random {np.mean(theirs[-1000:]):.1f}")
    print(f"{args.holes} holes in {time.perf_counter() - start:.0f}s "
          f"({time.process_time() - cpu:.0f} s CPU)")


if __name__ == "__main__":
    main()
