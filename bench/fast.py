"""Compiled core speed (golf.fast) against C and the Python engine, in the same run, one core.

Prints holes/s of random legal play of 2-player six-card in the compiled core beside the
C yardstick (``../shared/yardstick/golf6.c``, built here with ``gcc -O2`` when gcc and
the file are there: one six-card hole per game, uniformly random legal actions, the
same rules), alternating the two ``--rounds`` times and printing each round, the best
and the spread, and the ratio; then golf.Game, fast-greedy and expert self-play in the core,
playouts/s from a mid-hole state (what a search runs), actions/s of FastGame driven from
Python, and the start-up cost of compilation: cold (an empty numba cache) and warm.

Every figure is per CPU second of the process that did the work (``time.process_time``
here, ``getrusage`` of the child for C; the C program's own figure is per wall second
and is printed beside it), so other load on the machine slows them less than wall time;
on a shared machine they are still noisy: compare figures of one run.

    .venv/bin/python bench/fast.py [--seconds 3] [--rounds 3] [--players 2] [--no-startup]
                                   [--yardstick PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import golf
from golf.fast import FastGame, config, play, playout
from golf.fast.machine import seed_rng

# Timed from the start of the process's first line: importing numba is part of the cost.
_STARTUP = ("import time; t = time.perf_counter(); from golf.fast import play; "
            "play('six-card', 2, 1); print(time.perf_counter() - t)")


def startup(cache: str) -> tuple[float, float]:
    """(wall, CPU) seconds to import golf.fast and play one match in a new process, with
    numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", _STARTUP], env=env, check=True,
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return float(out.stdout.strip().splitlines()[-1]), cpu


#: Where the C yardstick lives: the shared checkout beside the repository (or beside the
#: worktree's parent).
_ROOT = Path(__file__).resolve().parents[1]
YARDSTICK = [_ROOT.parent / "shared/yardstick/golf6.c",
             _ROOT.parent.parent / "shared/yardstick/golf6.c"]


def build_yardstick(source: Path | None, where: str) -> Path | None:
    """The C yardstick compiled with ``gcc -O2`` into ``where`` (None: no gcc or source)."""
    src = source or next((p for p in YARDSTICK if p.exists()), None)
    gcc = shutil.which("gcc")
    if src is None or not src.exists() or gcc is None:
        return None
    exe = Path(where) / "golf6"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(src)], check=True)
    return exe


def c_holes(exe: Path, players: int, games: int) -> tuple[float, float]:
    """(games per CPU second of the child, the program's own games per wall second) of
    the yardstick: each game is one hole."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(exe), str(players), str(games)], check=True,
                         capture_output=True, text=True).stdout.split()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return games / max(cpu, 1e-9), float(out[out.index("games/s") + 1])


def spread(xs: list[float]) -> str:
    """The best of ``xs`` and their range, in thousands."""
    return f"best {max(xs):12,.0f}  (range {min(xs) / 1e3:,.0f}k-{max(xs) / 1e3:,.0f}k)"


def core_holes(players: int, policy: str, seconds: float) -> tuple[float, int]:
    """(holes per CPU second, holes) of whole six-card matches in the compiled core."""
    play("six-card", players, 10, seed=0, policy=policy)  # compiled before timing
    holes, seed, chunk = 0, 1, 2000
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, h = play("six-card", players, chunk, seed=seed, policy=policy)
        holes += int(h.sum())
        seed += 1
    return holes / (time.process_time() - start), holes


def engine_holes(players: int, seconds: float) -> tuple[float, int]:
    """(holes per CPU second, holes) of random six-card matches in golf.Game."""
    rng = random.Random(1)
    holes, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = golf.Game("six-card", players=players, seed=seed)
        seed += 1
        legal, apply, choice = g.legal_actions, g.apply, rng.choice
        while not g.is_over:
            apply(choice(legal()))
        holes += len(g.hole_results)
    return holes / (time.process_time() - start), holes


def playouts(players: int, seconds: float) -> float:
    """Random playouts per CPU second from a mid-hole state to the end of the hole, each
    on a fresh copy of the state (what a determinized search does per simulation)."""
    f = FastGame("six-card", players=players, seed=5, chance="fast")
    pick = random.Random(5)
    for _ in range(12):
        f.apply(pick.choice(f.legal_actions()))
    cfg, pol, rng = f.cfg, np.zeros(players, dtype=np.int64), seed_rng(9)
    playout(f.state.copy(), cfg, pol, rng, 1)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            playout(f.state.copy(), cfg, pol, rng, 1)
        n += 1000
    return n / (time.process_time() - start)


def api_actions(players: int, seconds: float) -> float:
    """Actions per CPU second of FastGame driven from Python (legal_actions + apply)."""
    rng = random.Random(3)
    n, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = FastGame("six-card", players=players, seed=seed)
        seed += 1
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
    return n / (time.process_time() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU time per figure")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--no-startup", action="store_true", help="skip the compile-time figures")
    p.add_argument("--rounds", type=int, default=3, help="alternations of core and C")
    p.add_argument("--yardstick", type=Path, help="golf6.c (default: ../shared/yardstick)")
    a = p.parse_args()
    n = a.players
    print(f"golf.fast benchmark: six-card, {n} players, one core, {a.seconds:g} CPU s per figure")
    if not a.no_startup:
        with tempfile.TemporaryDirectory() as cache:
            cold = startup(cache)
            warm = startup(cache)
        print(f"start-up, cold (empty cache)  : {cold[0]:6.2f} s wall, {cold[1]:6.2f} s CPU")
        print(f"start-up, warm (cache filled) : {warm[0]:6.2f} s wall, {warm[1]:6.2f} s CPU")
    config(golf.load_rules("six-card"), n)
    with tempfile.TemporaryDirectory() as where:
        exe = build_yardstick(a.yardstick, where)
        cores: list[float] = []
        cs: list[float] = []
        for r in range(a.rounds):
            fast, fh = core_holes(n, "random", a.seconds)
            cores.append(fast)
            line = f"round {r + 1}: random play, compiled core {fast:12,.0f} holes/s ({fh:,})"
            if exe is not None:
                c, wall = c_holes(exe, n, max(200_000, int(fast * a.seconds * 5)))
                cs.append(c)
                line += f";  C {c:12,.0f} (its wall figure {wall:,.0f});  ratio {fast / c:.2f}"
            print(line, flush=True)
    print(f"random play, compiled core : {spread(cores)} holes/s")
    if cs:
        print(f"random play, C yardstick   : {spread(cs)} holes/s")
        print(f"core / C (best / best)     : {max(cores) / max(cs):12.2f}")
    else:
        print("C yardstick                : not run (no gcc or no golf6.c; see --yardstick)")
    fast = max(cores)
    slow, sh = engine_holes(n, a.seconds)
    print(f"random play, golf.Game     : {slow:12,.0f} holes/s ({sh:,} holes)")
    print(f"speed-up                   : {fast / slow:12,.0f}x")
    greedy, gh = core_holes(n, "fast-greedy", a.seconds)
    print(f"fast-greedy self-play, core: {greedy:12,.0f} holes/s ({gh:,} holes)")
    expert, eh = core_holes(n, "expert", a.seconds)
    print(f"expert self-play, core     : {expert:12,.0f} holes/s ({eh:,} holes)"
          "  (bench/fast_expert.py: more)")
    print(f"playouts to hole end, core : {playouts(n, a.seconds):12,.0f} /s (random policy)")
    print(f"FastGame from Python       : {api_actions(n, a.seconds):12,.0f} actions/s")


if __name__ == "__main__":
    main()
