"""Tune the expert's weights for a preset by self-play on duplicate deals.

Each candidate (``expert`` with one or more weights changed) plays today's expert on
the same deals with the seats rotated (``golf simulate --duplicate``): every deal is
played once per rotation, so both bots get every seat of every deal. The figure is
the paired per-deal difference of mean hole scores, candidate minus today's expert
(negative: the candidate scores lower, i.e. better), with a 95% normal interval over
deals. A value *passes* when the whole interval is below zero.

With several weights the search is coordinate descent: the weights are tried in the
order given, each one's candidates with the values already kept for the earlier
ones, and a passing value (the best mean among those that pass) is kept before
the next weight. ``--confirm`` replays every kept change on fresh deals (another
seed) and keeps it only if it passes again.

    nice -n 10 python bench/tune_expert.py six-card --weights w_def,margin \\
        --games 400 --seed 1 --confirm

Prints a table per weight; figures depend on the seed and the number of deals, not
on the workers. The machine's load changes only how long it takes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence

from golf import load_rules
from golf.errors import GolfError
from golf.expert_weights import WEIGHTS, weights
from golf.rules import Rules
from golf.simulate import MatchResult, Progress, mean_ci, run_matches

BASE = "expert"


def spec_of(values: Mapping[str, float | int]) -> str:
    """The bot spec of a candidate: today's expert with ``values`` on top."""
    if not values:
        return BASE
    return BASE + ":" + ",".join(f"{k}={v}" for k, v in sorted(values.items()))


def paired(results: Sequence[MatchResult], players: int, cand: str) -> list[float]:
    """Per deal: the candidate's mean hole score minus today's expert's, over every
    seat each plays in the deal's rotations (integer sums, divided once)."""
    deals: dict[int, list[int]] = {}
    for r in results:
        acc = deals.setdefault(r.index // players, [0, 0, 0, 0])
        for s, b in enumerate(r.bots):
            k = 0 if b == cand else 2
            acc[k] += sum(h[s] for h in r.hole_scores)
            acc[k + 1] += len(r.hole_scores)
    return [c / nc - b / nb for c, nc, b, nb in deals.values()]


def measure(rules: Rules, players: int, values: Mapping[str, float | int], games: int,
            seed: int, workers: int, label: str) -> dict[str, object]:
    """Play the candidate against today's expert on ``games`` duplicate deals."""
    cand = spec_of(values)
    bar = Progress(sys.stderr, f"matches ({label})", every=30.0)
    start = time.perf_counter()
    results = run_matches(rules, players, [cand, BASE], games, seed, workers,
                          progress=bar, duplicate=True)
    diffs = paired(results, players, cand)
    m, lo, hi = mean_ci(diffs)
    holes = sum(len(r.hole_scores) for r in results)
    return {"spec": cand, "deals": len(diffs), "holes": holes, "mean": m, "lo": lo,
            "hi": hi, "passes": hi < 0.0, "seconds": time.perf_counter() - start}


def candidates(weight: str, base: float | int, given: Sequence[str] | None) -> list[float | int]:
    """The values to try: ``given``, or by default a step either side of ``base``."""
    kind = WEIGHTS[weight]
    if given:
        return [kind(float(v)) if kind is int else float(v) for v in given]
    if kind is int:
        return [v for v in (int(base) - 2, int(base) + 2) if v >= 0]
    step = abs(float(base)) * 0.5 or 0.5
    return [round(float(base) - step, 3), round(float(base) + step, 3)]


def row(res: Mapping[str, object], seed: int) -> str:
    verdict = "PASS" if res["passes"] else "-"
    return (f"  {res['spec']:<40} seed {seed:<7} {res['deals']:>6} deals {res['holes']:>7} holes"
            f"  {res['mean']:+.3f} ({res['lo']:+.3f} to {res['hi']:+.3f})  {verdict}"
            f"  [{res['seconds']:.0f}s]")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="Tune the expert's weights for a preset: each candidate plays today's "
                    "expert on duplicate deals; a value passes when the 95%% interval of "
                    "the paired per-deal difference of mean hole scores (candidate minus "
                    "today's) is wholly below zero.")
    p.add_argument("variant", help="preset name or rules file")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--weights", default="w_def",
                   help=f"comma-separated weights, tried in order (of: {', '.join(WEIGHTS)})")
    p.add_argument("--values", action="append", metavar="WEIGHT=V1,V2",
                   help="candidate values of a weight (default: a step either side of "
                        "today's value); repeat per weight")
    p.add_argument("--games", type=int, default=200, help="duplicate deals per candidate")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--confirm", action="store_true",
                   help="replay each kept change on fresh deals (seed + 1000)")
    a = p.parse_args(argv)
    try:
        rules = load_rules(a.variant)
        names = [w.strip() for w in a.weights.split(",") if w.strip()]
        for w in names:
            if w not in WEIGHTS:
                raise GolfError(f"unknown weight {w!r}; weights: {', '.join(WEIGHTS)}")
        given: dict[str, list[str]] = {}
        for item in a.values or []:
            w, eq, vals = item.partition("=")
            if not eq or w not in names:
                raise GolfError(f"--values {item!r}: give WEIGHT=V1,V2 for one of --weights")
            given[w] = vals.split(",")
        today = weights(rules)
        kept: dict[str, float | int] = {}
        print(f"{a.variant}, {a.players} players: candidates against today's expert, "
              f"{a.games} duplicate deals each, seed {a.seed}; difference = candidate "
              "minus today's mean hole score (negative is better), 95% interval")
        for w in names:
            print(f"{w} (today {today[w]}):")
            best: tuple[float, float | int] | None = None
            for v in candidates(w, today[w], given.get(w)):
                if v == today[w]:
                    continue
                res = measure(rules, a.players, {**kept, w: v}, a.games, a.seed, a.workers,
                              f"{w}={v}")
                print(row(res, a.seed), flush=True)
                mean = float(res["mean"])  # type: ignore[arg-type]
                if res["passes"] and (best is None or mean < best[0]):
                    best = (mean, v)
            if best is None:
                print(f"  keep {w} = {today[w]}")
                continue
            value = best[1]
            if a.confirm:
                res = measure(rules, a.players, {**kept, w: value}, a.games, a.seed + 1000,
                              a.workers, f"confirm {w}={value}")
                print(row(res, a.seed + 1000) + "  (confirmation, fresh deals)", flush=True)
                if not res["passes"]:
                    print(f"  not confirmed: keep {w} = {today[w]}")
                    continue
            kept[w] = value
            print(f"  kept {w} = {value}")
        print(f"result for {a.variant}: {spec_of(kept)}")
    except GolfError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
