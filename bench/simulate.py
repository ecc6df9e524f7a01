"""Batch simulation speed: `golf simulate`'s Python path against its compiled path.

For each kind of play (random; the greedy and expert policies where compiled ones
exist) it measures holes per CPU second of one process:

* python path: ``run_matches(engine="python", workers=1)`` then ``summarise``: a
  ``golf.Game`` and a ``Table`` per match, a view per decision, the registry bots;
* compiled path: ``run_matches(engine="compiled")`` then ``summarise``, what
  ``golf simulate --engine compiled`` does (the records are built in Python);
* compiled core alone: ``golf.fast.batch.play_batch``, no records;

and compares random six-card play with the C figure the issue quotes (1.2-1.6 M holes/s
per core). The compiled greedy policy is not the greedy bot (it decides differently in
about one decision in twenty) and the compiled expert policy is the ``fast-expert``
bot, not ``expert``: those rows compare the speed of comparable play, not the same play.

    .venv/bin/python bench/simulate.py --seconds 3
    .venv/bin/python bench/simulate.py --variant german --players 4

Figures depend on the machine's load: say so with them.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from golf import load_rules
from golf.fast.batch import play_batch, policy_config
from golf.fast.policies import POLICIES
from golf.rules import Rules
from golf.simulate import match_seed, run_matches, summarise

C_SPEED = (1.2e6, 1.6e6)


def rate(work: Callable[[int], int], seconds: float, start: int = 1) -> tuple[float, int]:
    """(holes per CPU second, holes) of ``work(n)`` (which plays n matches and returns
    its holes), doubling n until one call takes ``seconds`` (after one untimed call:
    compiled code loads on first use)."""
    work(1)
    n = start
    while True:
        t = time.process_time()
        holes = work(n)
        spent = time.process_time() - t
        if spent >= seconds or n >= 1 << 22:
            return holes / spent, holes
        n = max(n * 2, int(n * seconds / max(spent, 1e-3) * 1.1))


def python_path(rules: Rules, players: int, spec: str) -> Callable[[int], int]:
    def work(n: int) -> int:
        rs = run_matches(rules, players, [spec], n, seed=1, engine="python")
        summarise(rs, rules, players, [spec], 1)
        return sum(len(r.hole_scores) for r in rs)
    return work


def compiled_path(rules: Rules, players: int, spec: str) -> Callable[[int], int]:
    def work(n: int) -> int:
        rs = run_matches(rules, players, [spec], n, seed=1, engine="compiled")
        summarise(rs, rules, players, [spec], 1)
        return sum(len(r.hole_scores) for r in rs)
    return work


def core(rules: Rules, players: int, policy: str) -> Callable[[int], int]:
    cfg = policy_config(rules, players, [policy])
    cap = int(rules.holes) or 32

    def work(n: int) -> int:
        seeds = np.array([match_seed(1, i) for i in range(n)], dtype=np.int64)
        pol = np.full((n, players), POLICIES[policy], dtype=np.int64)
        return int(play_batch(cfg, seeds, pol, cap)[3].sum())
    return work


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    a = p.parse_args(argv)
    rules = load_rules(a.variant)
    print(f"golf simulate speed: {a.variant}, {a.players} players, one process, "
          f"{a.seconds:g} CPU s per figure (holes per CPU second)", flush=True)
    t = time.perf_counter()
    core(rules, a.players, "random")(1)
    print(f"load/compile the core: {time.perf_counter() - t:.1f} s wall", flush=True)
    # (Python bot, the bot the compiled path plays or None, the compiled policy): the
    # compiled expert policy is the fast-expert bot, another player than expert.
    kinds = [("random", "random", "random"), ("greedy", None, "greedy")]
    if "expert" in POLICIES:
        kinds.append(("expert", "fast-expert", "expert"))
    from golf.fast import play

    plain, plain_holes = rate(lambda n: int(play(rules, a.players, n, 1, "random")[1].sum()),
                              a.seconds, 64)
    print(f"golf.fast.play, random (totals only, no records): {plain:,.0f} holes/s "
          f"({plain_holes:,} holes)", flush=True)
    for spec, compiled, policy in kinds:
        py, py_holes = rate(python_path(rules, a.players, spec), a.seconds)
        fast, fast_holes = (rate(compiled_path(rules, a.players, compiled), a.seconds, 64)
                            if compiled else (float("nan"), 0))
        raw, raw_holes = rate(core(rules, a.players, policy), a.seconds, 64)
        print(f"{spec:>7}: python path {py:>11,.0f} holes/s ({py_holes:,} holes)", flush=True)
        if fast_holes:
            print(f"{'':>7}  compiled path{fast:>10,.0f} holes/s ({fast_holes:,} holes, "
                  f"--bots {compiled}), {fast / py:,.0f}x the python path", flush=True)
        else:
            print(f"{'':>7}  compiled path: not taken (the compiled {policy} policy does "
                  f"not play the {spec} bot)", flush=True)
        print(f"{'':>7}  compiled core {raw:>10,.0f} holes/s ({raw_holes:,} holes), "
              f"{raw / py:,.0f}x the python path", flush=True)
        if spec == "random":
            lo, hi = C_SPEED
            print(f"{'':>7}  C figure {lo / 1e6:.1f}-{hi / 1e6:.1f} M holes/s: the core is at "
                  f"{raw / hi:.0%}-{raw / lo:.0%} of it, the compiled path at "
                  f"{fast / hi:.0%}-{fast / lo:.0%}", flush=True)


if __name__ == "__main__":
    main()
