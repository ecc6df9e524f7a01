"""Sampler speed: worlds consistent with a seat's view, as a search bot draws them.

A search bot reads its view at each decision, builds a :class:`golf.knowledge.Sampler`
and draws many worlds; to play them out it needs a :class:`golf.Game` of each. The
decisions here are those of random 2-player six-card play (every seat, every phase,
reshuffles included); each figure counts the sampler's construction too.

Prints, per second: samplers built (one per decision), worlds sampled in batches
(``worlds(n)``) and one at a time (``world()``), and playable games (a world, its
Game, and that Game's legal actions), with the path the Game is built through.

    .venv/bin/python bench/knowledge.py [--seconds 3] [--batch 1000] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import golf
from golf.knowledge import Sampler


def decision_views(
    variant: str, players: int, count: int,
) -> list[tuple[dict[str, Any], golf.Rules]]:
    """Views of the seat to act at ``count`` decisions of random play."""
    rng = random.Random(1)
    out = []
    seed = 0
    while len(out) < count:
        g = golf.Game(variant, players=players, seed=seed, rules={"holes": 1})
        seed += 1
        while not g.is_over and len(out) < count:
            seat = g.current_player
            assert seat is not None
            out.append((g.view(seat, codes=True), g.rules))
            g.apply(rng.choice(g.legal_actions()))
    return out


def rate(seconds: float, work: Callable[[], int]) -> float:
    """Items per second of ``work`` (which returns how many items it made)."""
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        n += work()
    return n / (time.process_time() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--batch", type=int, default=1000, help="worlds drawn per decision")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--variant", default="six-card")
    args = p.parse_args()
    views = decision_views(args.variant, args.players, 200)
    at = [0]

    def next_view() -> tuple[dict[str, Any], golf.Rules]:
        at[0] = (at[0] + 1) % len(views)
        return views[at[0]]

    rng = random.Random(3)
    batch = args.batch

    def samplers() -> int:
        for _ in range(100):
            Sampler(*next_view(), rng)
        return 100

    def batched() -> int:
        Sampler(*next_view(), rng).worlds(batch)
        return batch

    def single() -> int:
        s = Sampler(*next_view(), rng)
        for _ in range(batch):
            s.world()
        return batch

    small = batch

    def playable(replayable: bool) -> Callable[[], int]:
        def work() -> int:
            s = Sampler(*next_view(), rng)
            for w in s.worlds(small):
                s.game(w, replayable).legal_actions()
            return small
        return work

    print(f"knowledge benchmark: {args.variant}, {args.players} players, views of random "
          f"play, CPU time of one process, {args.seconds:g}s per figure")
    print(f"  samplers built (one per decision): {rate(args.seconds, samplers):12,.0f}/s")
    print(f"  worlds, batches of {batch}:        {rate(args.seconds, batched):12,.0f}/s")
    print(f"  worlds, one at a time:             {rate(args.seconds, single):12,.0f}/s")
    print(f"  playable games (world + Game + its legal actions, batches of {small}), built by")
    print(f"  {_path()}:")
    print(f"    replayable records:              {rate(args.seconds, playable(True)):12,.0f}/s")
    print(f"    replayable=False (for playouts): {rate(args.seconds, playable(False)):12,.0f}/s")

def _path() -> str:
    """Which engine entry point turns a world into a Game."""
    import inspect

    src = inspect.getsource(Sampler.game)
    if "from_state" in src:
        return "Game.from_state (the first world of each view through Game.from_position)"
    return "Game.from_position"


if __name__ == "__main__":
    main()
