"""How long a rules-lab sweep takes: ``golf lab sweep`` of a variant, from an empty
results file, with ``--workers`` local processes; prints wall time, CPU time of every
process (this one and the reaped workers), the jobs and the load average.

The issue's target: every option of six-card (the union of the presets' options that
apply to its grid), 2 and 4 players, 2,000 paired deals each, in under 10 minutes on 2
cores:

    .venv/bin/python bench/lab.py --variant six-card --players 2,4 --deals 2000 --workers 2

Figures depend on the machine's load: say so with them (the load average is printed).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from golf.backend import LocalPool
from golf.lab.options import preset_options
from golf.lab.sweep import run_sweep
from golf.simulate import Progress


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="six-card")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--skill-deals", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    players = [int(p) for p in args.players.split(",")]
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "sweep.jsonl"
        # warm the compiled code first (a cold numba cache compiles for a minute)
        t = time.perf_counter()
        run_sweep(args.variant, players[:1], 2, args.seed, Path(tmp) / "warm.jsonl",
                  skill_deals=2)
        warm = time.perf_counter() - t
        wall0, cpu0 = time.perf_counter(), _cpu()
        r = run_sweep(args.variant, players, args.deals, args.seed, results,
                      skill_deals=args.skill_deals, backend=LocalPool(args.workers),
                      progress=Progress(sys.stderr, "jobs"))
        wall, cpu = time.perf_counter() - wall0, _cpu() - cpu0
    load1 = os.getloadavg()
    n_opt = len(preset_options(args.variant))
    print(f"golf lab sweep benchmark: {args.variant}, players {args.players}, "
          f"{args.deals} paired deals ({r['skill_deals']} for the skill share), "
          f"{args.workers} workers")
    print(f"options swept        : {n_opt} (x {len(players)} player counts = "
          f"{len(r['options'])} rows), {r['jobs']} jobs")
    print(f"engines              : {sorted({o['engine'] for o in r['options']})}")
    print(f"warm-up (2 deals)    : {warm:8.1f} s wall")
    print(f"sweep                : {wall:8.1f} s wall ({wall / 60:.2f} min), "
          f"{cpu:8.1f} s CPU (all processes)")
    print(f"load average         : {load0[0]:.2f} before, {load1[0]:.2f} after "
          f"(1-minute; other jobs share the machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
