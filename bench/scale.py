"""Throughput of ``golf simulate``'s execution backends on one run: the local worker
pool (``--workers``), a local Ray instance (``--ray``) and a Ray cluster (``--ray
ADDRESS``), in matches per second and per core, and what a match costs in CPU time.

    python bench/scale.py --games 400 --repeat 3 [--cluster 127.0.0.1:6379]

Every backend plays the same matches (same bots, rules and seed) and the results are
checked equal. Ray's start-up (a local instance, or joining a cluster) is timed apart
from the runs. The figures depend on what else the machine runs: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from golf.backend import Backend, LocalPool, RayBackend
from golf.rules import load_rules
from golf.simulate import MatchResult, run_matches


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="expert,greedy")
    ap.add_argument("--variant", default="six-card")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="also measure the Ray cluster at ADDRESS")
    args = ap.parse_args()
    rules = load_rules(args.variant)
    bots = args.bots.split(",")
    print(f"golf simulate --bots {args.bots} --variant {args.variant} --games {args.games} "
          f"--seed {args.seed}: median of {args.repeat} runs; load average "
          f"{os.getloadavg()[0]:.1f} at the start")

    def play(backend: Backend | None, workers: int = 1) -> list[MatchResult]:
        return run_matches(rules, 2, bots, args.games, args.seed, workers=workers,
                           backend=backend)

    start = time.process_time()
    reference = play(None)
    cpu = (time.process_time() - start) / args.games
    print(f"cost: {1000 * cpu:.1f} ms of CPU per match in one process "
          f"({1 / cpu:.1f} matches per CPU second)")

    def report(name: str, cores: int, run: Callable[[], list[MatchResult]]) -> None:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            assert run() == reference, f"{name}: other results than one process"
            times.append(time.perf_counter() - t0)
        rate = args.games / statistics.median(times)
        print(f"{name:<34} {cores} cores  {rate:6.1f} matches/s  {rate / cores:5.1f} per core  "
              f"(runs {', '.join(f'{t:.1f}' for t in times)} s)")

    report(f"local pool (--workers {args.workers})", args.workers,
           lambda: play(LocalPool(args.workers)))
    import ray

    for name, address in (("local Ray instance (--ray)", None),
                          (f"Ray cluster (--ray {args.cluster})", args.cluster)):
        if name.startswith("Ray cluster") and address is None:
            continue
        t0 = time.perf_counter()
        if address is None:
            ray.init(address="local", num_cpus=args.workers, include_dashboard=False,
                     logging_level="WARNING")
        else:
            ray.init(address=address, logging_level="WARNING")
        cores = int(ray.cluster_resources()["CPU"])
        backend = RayBackend(address or "local")
        play(backend)  # the workers' first imports, once
        print(f"{name}: start-up and first run {time.perf_counter() - t0:.1f} s")
        report(name, cores, lambda backend=backend: play(backend))  # type: ignore[misc]
        ray.shutdown()
    report(f"local pool (--workers {args.workers}), again", args.workers,
           lambda: play(LocalPool(args.workers)))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
