"""The compiled expert (golf.fast.expert): speed, and weights tried in compiled play.

Speed (default): holes/s of expert self-play in the compiled core (2-player six-card,
whole matches, one core; fast-greedy self-play in the same run for scale), the start-up
cost of a process that plays one expert match (cold: an empty numba cache; warm: the
cache filled), and decisions/s of the ``fast-expert`` bot the way a table uses it (a
view per decision, the view turned into a compiled state, one compiled call).

Tuning (``--try NAME=VALUE,...``): the expert with those weights against the default
weights in the compiled core, duplicate deals (each deal played twice, seats swapped,
the same cards both times); prints the per-hole score difference and the match win
share with 95% intervals over deals. What counts is play against the Python expert
(``golf simulate --duplicate --bots fast-expert,expert``); this is the fast filter.

Figures are CPU seconds of this process (time.process_time); on a shared machine they
are still noisy.

    .venv/bin/python bench/fast_expert.py [--seconds 3] [--no-startup] [--variant six-card]
    .venv/bin/python bench/fast_expert.py --try margin=300,w_def=150 --deals 2000
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import numpy.typing as npt

import golf
from golf.bots import make_bot
from golf.fast import expert_config, play
from golf.fast._jit import jit
from golf.fast.expert import WEIGHTS, expert_action
from golf.fast.layout import C_O_TOTALS, C_PLAYERS, CHANCE_RNG, S_CUR, S_HOLES_ENDED, S_PHASE
from golf.fast.machine import MAX_LEGAL, legal_actions, new_state, seed_rng, start_match, step
from golf.phases import OVER

Ints = npt.NDArray[np.int64]

_STARTUP = ("import time; t = time.perf_counter(); from golf.fast import play; "
            "play('six-card', 2, 1, policy='expert'); print(time.perf_counter() - t)")


def startup(cache: str) -> tuple[float, float]:
    """(wall, CPU) seconds to import golf.fast and play one expert match in a new
    process, with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", _STARTUP], env=env, check=True,
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return float(out.stdout.strip().splitlines()[-1]), cpu


def core_holes(variant: str, players: int, policy: str, seconds: float) -> tuple[float, int]:
    """(holes per CPU second, holes) of whole matches in the compiled core."""
    play(variant, players, 5, seed=0, policy=policy)  # compiled before timing
    holes, seed, chunk = 0, 1, 200
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, h = play(variant, players, chunk, seed=seed, policy=policy)
        holes += int(h.sum())
        seed += 1
    return holes / (time.process_time() - start), holes


def bot_decisions(variant: str, players: int, seconds: float) -> tuple[float, int]:
    """(decisions per CPU second, decisions) of the fast-expert bot in golf.Game
    matches: a view per decision, as a table asks."""
    rules = golf.load_rules(variant)
    bot = make_bot("fast-expert", rules)
    n, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = golf.Game(rules, players=players, seed=seed)
        seed += 1
        while not g.is_over:
            seat = g.current_player
            g.apply(bot.choose(g.view(seat, codes=True), g.legal_actions()))
            n += 1
    return n / (time.process_time() - start), n


@jit
def duplicate(cfg_a: Ints, cfg_b: Ints, deals: int, seed: int) -> tuple[Ints, Ints, Ints]:
    """Each deal twice: seat 0 plays ``cfg_a``'s weights, then ``cfg_b``'s (the others
    the other one), with the same generator (the expert draws nothing, so the cards
    are the same). Per deal: A's total minus B's, A's match wins (x2: shared wins
    count half) and the holes played."""
    n = cfg_a[C_PLAYERS]
    diff = np.zeros(deals, dtype=np.int64)
    wins = np.zeros(deals, dtype=np.int64)
    holes = np.zeros(deals, dtype=np.int64)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    o_tot = cfg_a[C_O_TOTALS]
    for d in range(deals):
        for rot in range(2):
            rng = seed_rng(seed * 1_000_003 + d)
            st = new_state(cfg_a, CHANCE_RNG)
            start_match(st, cfg_a, rng)
            while st[S_PHASE] != OVER:
                k = legal_actions(st, cfg_a, legal)
                mine = (st[S_CUR] % 2 == 0) == (rot == 0)
                a = expert_action(st, cfg_a if mine else cfg_b, legal, k)
                step(st, cfg_a, a, rng)
            ta, na, tb, nb = 0, 0, 0, 0
            best = st[o_tot]
            for s in range(n):
                best = min(best, st[o_tot + s])
            wa, wb = 0, 0
            for s in range(n):
                if (s % 2 == 0) == (rot == 0):
                    ta += st[o_tot + s]
                    na += 1
                    wa += st[o_tot + s] == best
                else:
                    tb += st[o_tot + s]
                    nb += 1
                    wb += st[o_tot + s] == best
            diff[d] += (ta * nb - tb * na)  # in units of 1 / (na * nb)
            if wa and not wb:
                wins[d] += 2
            elif wa and wb:
                wins[d] += 1
            holes[d] += st[S_HOLES_ENDED]
    return diff, wins, holes


def _interval(xs: npt.NDArray[np.float64]) -> tuple[float, float, float]:
    m = float(xs.mean())
    half = 1.96 * float(xs.std(ddof=1)) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - half, m + half


def try_weights(variant: str, players: int, spec: str, deals: int, seed: int) -> None:
    weights = {}
    for part in spec.split(","):
        name, _, value = part.partition("=")
        weights[name.strip()] = int(value)
    if players < 2:
        raise SystemExit("--try needs at least 2 players")
    rules = golf.load_rules(variant)
    a = expert_config(rules, players, weights)
    b = expert_config(rules, players)
    start = time.process_time()
    diff, wins, holes = duplicate(a, b, deals, seed)
    per = max(1, players // 2) * max(1, players - players // 2)
    d = _interval(diff / per / holes)
    w = _interval(wins / 4)
    print(f"{variant}, {players} players, {deals} deals x 2 seatings, {spec} against the "
          f"defaults ({time.process_time() - start:.1f} CPU s)")
    print(f"  per-hole score difference {d[0]:+.3f} [{d[1]:+.3f}, {d[2]:+.3f}] "
          "(negative: the tried weights score lower)")
    print(f"  match win share           {w[0]:.3f} [{w[1]:.3f}, {w[2]:.3f}]")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU time per figure")
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--no-startup", action="store_true", help="skip the compile-time figures")
    p.add_argument("--try", dest="weights", metavar="NAME=VALUE,...",
                   help=f"weights to compare with the defaults ({', '.join(WEIGHTS)})")
    p.add_argument("--deals", type=int, default=1000, help="deals for --try")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.weights:
        try_weights(a.variant, a.players, a.weights, a.deals, a.seed)
        return
    v, n = a.variant, a.players
    print(f"golf.fast expert benchmark: {v}, {n} players, one core, {a.seconds:g} CPU s "
          "per figure")
    if not a.no_startup:
        with tempfile.TemporaryDirectory() as cache:
            cold = startup(cache)
            warm = startup(cache)
        print(f"start-up, cold (empty cache)  : {cold[0]:6.2f} s wall, {cold[1]:6.2f} s CPU")
        print(f"start-up, warm (cache filled) : {warm[0]:6.2f} s wall, {warm[1]:6.2f} s CPU")
    expert, eh = core_holes(v, n, "expert", a.seconds)
    greedy, gh = core_holes(v, n, "fast-greedy", a.seconds)
    print(f"expert self-play, core     : {expert:12,.0f} holes/s ({eh:,} holes)")
    print(f"fast-greedy self-play, core: {greedy:12,.0f} holes/s ({gh:,} holes)")
    rate, k = bot_decisions(v, n, a.seconds)
    print(f"fast-expert bot (views)    : {rate:12,.0f} decisions/s ({k:,} decisions)")


if __name__ == "__main__":
    main()
