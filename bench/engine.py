"""Engine speed: random legal six-card play (2 and 4 players) on one core.

Prints holes/s, actions/s (each action includes generating the legal actions and a
random choice, as any client pays) and clones/s.

    .venv/bin/python bench/engine.py [--seconds 3] [--variant six-card]
"""

from __future__ import annotations

import argparse
import random
import time

import golf


def play_holes(variant: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Random 9-hole matches for ``seconds``: (holes/s, actions/s, holes played)."""
    rng = random.Random(1)
    holes = actions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = golf.Game(variant, players=players, seed=seed)
        seed += 1
        legal, apply, choice = g.legal_actions, g.apply, rng.choice
        while not g.is_over:
            apply(choice(legal()))
            actions += 1
        holes += len(g.hole_results)
    elapsed = time.perf_counter() - start
    return holes / elapsed, actions / elapsed, holes


def clones(variant: str, players: int, seconds: float) -> float:
    """Clones per second of mid-hole states."""
    rng = random.Random(2)
    g = golf.Game(variant, players=players, seed=3)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            g.clone()
        n += 1000
    return n / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--variant", default="six-card")
    args = p.parse_args()
    print(f"engine benchmark: {args.variant}, random legal play, one core, "
          f"{args.seconds:g}s per figure")
    for players in (2, 4):
        hps, aps, holes = play_holes(args.variant, players, args.seconds)
        cps = clones(args.variant, players, args.seconds / 2)
        print(f"{players} players: {hps:9,.0f} holes/s  {aps:10,.0f} actions/s  "
              f"{cps:10,.0f} clones/s  ({holes:,} holes)")


if __name__ == "__main__":
    main()
