"""How fast the bots play: holes per second, expert against expert, 2-player six-card.

Runs on one core (one process). Besides the headline figure it splits the time of
an expert hole into the engine (legal actions and applying them), building the
views the bots read, and the bots' own thinking, and it replays the same games
without bots to show the ceiling that the engine and the views alone set.

    .venv/bin/python bench/bots.py              # about 10 seconds
    .venv/bin/python bench/bots.py --seconds 30 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from golf import Game, load_rules
from golf.bots import make_bot
from golf.view import view


def play(specs: tuple[str, str], seconds: float, seed: int = 0) -> tuple[int, float, list[Game]]:
    """Whole 9-hole matches until ``seconds`` have passed: (holes, seconds, games)."""
    rules = load_rules("six-card")
    holes = 0
    games: list[Game] = []
    start = time.perf_counter()
    m = 0
    while time.perf_counter() - start < seconds:
        g = Game(rules, players=2, seed=seed + m)
        bots = [make_bot(specs[s], rules, seed=seed + 2 * m + s) for s in (0, 1)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(view(g, seat, True), g.legal_actions()))
        holes += len(g.hole_scores)
        games.append(g)
        m += 1
    return holes, time.perf_counter() - start, games


def split(games: list[Game]) -> dict[str, float]:
    """Seconds spent per part when the recorded games are played again by bots."""
    rules = games[0].rules
    parts = {"engine": 0.0, "view": 0.0, "bot": 0.0}
    clock = time.perf_counter
    for i, old in enumerate(games):
        g = Game(rules, players=2, seed=old.seed)
        bots = [make_bot("expert", rules, seed=2 * i + s) for s in (0, 1)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            t0 = clock()
            legal = g.legal_actions()
            t1 = clock()
            v = view(g, seat, True)
            t2 = clock()
            action = bots[seat].choose(v, legal)
            t3 = clock()
            g.apply(action)
            t4 = clock()
            parts["engine"] += (t1 - t0) + (t4 - t3)
            parts["view"] += t2 - t1
            parts["bot"] += t3 - t2
    return parts


def replay(games: list[Game], with_views: bool) -> float:
    """Seconds to replay the games' actions (and build each view) without bots."""
    rules = games[0].rules
    start = time.perf_counter()
    for old in games:
        g = Game(rules, players=2, seed=old.seed)
        for action in old.history:
            if with_views:
                seat = g.current_player
                assert seat is not None
                g.legal_actions()
                view(g, seat, True)
            g.apply(action)
    return time.perf_counter() - start


def report(label: str, holes: int, seconds: float) -> None:
    print(f"{label:<38} {holes / seconds:>8.0f} holes/s  ({holes} holes in {seconds:.1f}s)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=6.0, help="time for the expert run")
    p.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = p.parse_args(argv)

    holes, seconds, games = play(("expert", "expert"), args.seconds)
    report("expert vs expert (six-card, 2 players)", holes, seconds)
    decisions = sum(len(g.history) for g in games)
    print(f"{'':<38} {decisions / holes:>8.1f} decisions per hole, "
          f"{seconds / decisions * 1e6:.1f} us per decision")

    parts = split(games)
    total = sum(parts.values())
    for name, t in parts.items():
        print(f"  {name:<10} {100 * t / total:5.1f}%  {t / decisions * 1e6:6.1f} us per decision")
    ceiling = replay(games, with_views=True)
    report("same games, engine and views, no bots", holes, ceiling)
    report("same games, engine alone", holes, replay(games, with_views=False))

    quick: list[tuple[str, tuple[str, str]]] = [
        ("greedy vs greedy", ("greedy", "greedy")),
        ("random vs random", ("random", "random")),
    ]
    for label, specs in quick:
        h, s, _ = play(specs, min(2.0, args.seconds))
        report(label, h, s)

    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(play, ("expert", "expert"), args.seconds)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
