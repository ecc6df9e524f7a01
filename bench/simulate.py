"""Batch simulation speed per core: `golf simulate`'s Python worker pool against its
compiled path, on the same matches.

For each bot with a compiled policy that plays it (``random``; ``fast-expert``, the
compiled expert behind the bot interface) it plays the same ``--games`` matches (bots,
seeds) both ways and prints holes per CPU second, counting every process's CPU time:

* python pool: ``run_matches(engine="python", workers=W)`` then ``summarise``, what
  ``golf simulate --engine python --workers W`` does (a ``golf.Game``, a ``Table`` and
  the registry's bots per match, a view per decision); the CPU time is this process's
  and its workers' (``getrusage`` of the reaped children), so the figure is per core
  whatever W is;
* compiled: ``run_matches(engine="compiled")`` then ``summarise``, what
  ``golf simulate --engine compiled`` does (whole matches in the core, the records built
  in Python, one process); the same matches are played again until ``--seconds`` of CPU
  have passed, as one pass takes far less.

The compiled core deals with its own generator, so its matches are other deals of the
same bots and seeds; the statistics are alike, the cards are not.

    .venv/bin/python bench/simulate.py [--games 200] [--workers 2] [--seconds 2]
    .venv/bin/python bench/simulate.py --variant german --players 4

Figures depend on the machine's load: say so with them.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from golf import load_rules
from golf.rules import Rules
from golf.simulate import run_matches, summarise


def cpu() -> float:
    """CPU seconds of this process and of its reaped children (the pool's workers)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def per_core(rules: Rules, players: int, spec: str, games: int, engine: str, workers: int,
             seconds: float) -> tuple[float, int, int]:
    """(holes per CPU second, holes, passes) of ``games`` matches of ``spec`` on every
    seat, played by ``engine`` (and summarised) until ``seconds`` of CPU have passed."""
    bots = [spec]
    run_matches(rules, players, bots, 1, seed=1, workers=1, engine=engine)  # load first
    holes = passes = 0
    start = cpu()
    while True:
        rs = run_matches(rules, players, bots, games, seed=1, workers=workers, engine=engine)
        summarise(rs, rules, players, bots, 1)
        holes += sum(len(r.hole_scores) for r in rs)
        passes += 1
        if cpu() - start >= seconds:
            return holes / (cpu() - start), holes, passes


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=200, help="matches per pass")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="the Python path's worker processes")
    p.add_argument("--seconds", type=float, default=2.0, help="least CPU seconds a figure")
    p.add_argument("--bots", default="random,fast-expert",
                   help="bots with a compiled policy, comma-separated")
    a = p.parse_args(argv)
    rules = load_rules(a.variant)
    print(f"golf simulate speed: {a.variant}, {a.players} players, {a.games} matches per "
          f"pass, the python path with {a.workers} workers; holes per CPU second "
          f"(every process counted)", flush=True)
    for spec in a.bots.split(","):
        py, py_holes, _ = per_core(rules, a.players, spec, a.games, "python", a.workers,
                                   a.seconds)
        fast, fast_holes, passes = per_core(rules, a.players, spec, a.games, "compiled", 1,
                                            a.seconds)
        print(f"--bots {spec:<12} python pool {py:>10,.0f} holes/s per core "
              f"({py_holes:,} holes);  compiled {fast:>11,.0f} holes/s per core "
              f"({fast_holes:,} holes, {passes} passes);  {fast / py:,.0f}x", flush=True)


if __name__ == "__main__":
    main()
