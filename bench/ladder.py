"""The bot ladder: every bot against one reference bot on duplicate deals.

Each deal (a match seed: the same cards) is played once per seating, the ladder bot in
every seat in turn and the reference bot in the others, so both get the same cards and
the luck of the deal cancels out. Per deal it records the ladder bot's mean hole score
minus the reference's (over every regular hole of the deal's matches: negative is
better) and its match win share (a shared win counts 1/k); the 95% intervals are over
deals (the seatings of a deal are paired). It also times the ladder bot's decisions
(the data of ``golf.bots.ladder``).

``clairvoyant`` is a bound, not a bot: the ``search`` bot's own search given the true
position as its only world, the stock's order included
(``golf.bots.search.clairvoyant_choose``, 100 playouts a decision with the compiled
expert's continuation). It shows how much knowing the hidden cards is worth to that
search.

    .venv/bin/python bench/ladder.py --deals 200                       # cheap rows
    .venv/bin/python bench/ladder.py --bots search:ms=50 --deals 20    # one row
    .venv/bin/python bench/ladder.py --json ladder.json                # keep the figures

Figures depend on the machine's load: say so with them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from golf import Game, load_rules
from golf.actions import Action
from golf.rules import Rules
from golf.simulate import match_seed, mean_ci, rotated
from golf.table import Table, bot_seat

LADDER = ("random", "greedy", "easy", "medium", "hard", "expert",
          "search:ms=10", "search:ms=50", "search:ms=200", "clairvoyant")


class Timed:
    """A seat that times its own decisions (only those with a choice)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.decisions = 0

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | str:
        t = time.perf_counter()
        a: Action | str = self.inner.decide(view, legal)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - t
            self.decisions += 1
        return a


class Clairvoyant:
    """Plays from the true position of ``game`` with the search bot's own search
    (``golf.bots.search.clairvoyant_choose``: expert playouts, the stock's order known),
    so the row shows what hidden information costs that search."""

    def __init__(self, game: Game, seed: int, sims: int = 100) -> None:
        self.game = game
        self.seed = seed
        self.sims = sims

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        from golf.bots.search import clairvoyant_choose

        if len(legal) == 1:
            return legal[0]
        self.seed += 1
        return clairvoyant_choose(self.game, sims=self.sims, seed=self.seed)


def _seat(spec: str, game: Game, rules: Rules, seed: int, s: int) -> Any:
    if spec == "clairvoyant":
        return Clairvoyant(game, seed + s)
    return bot_seat(spec, rules, seed, s)


def play_deal(job: tuple[str, int, str, str, int]) -> tuple[float, float, float, int]:
    """(score difference per hole, win share, decision seconds, decisions) of one deal."""
    variant, players, bot, ref, seed = job
    rules = load_rules(variant)
    base = (bot, *[ref] * (players - 1))
    diff, holes, share = 0.0, 0, 0.0
    seconds, decisions = 0.0, 0
    for k in range(players):
        specs = rotated(base, k)
        me = k  # rotated() moves seat 0's bot k seats on
        g = Game(rules, players=players, seed=seed)
        seats: list[Any] = [_seat(spec, g, rules, seed, s) for s, spec in enumerate(specs)]
        timed = Timed(seats[me])
        seats[me] = timed
        Table(g, seats).run()
        for h in g.hole_scores:
            others = [v for s, v in enumerate(h) if s != me]
            diff += h[me] - sum(others) / len(others)
            holes += 1
        if me in g.winners:
            share += 1 / len(g.winners)
        seconds += timed.seconds
        decisions += timed.decisions
    return diff / holes, share / players, seconds, decisions


def warm_up(bot: str, variant: str, players: int) -> None:
    """One decision of ``bot`` before the clock runs (compiled code loads on first use)."""
    rules = load_rules(variant)
    g = Game(rules, players=players, seed=1)
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    seat = g.current_player
    assert seat is not None
    _seat(bot, g, rules, 1, seat).decide(g.view(seat, codes=True), g.legal_actions())


def _clamp(lo: float, hi: float) -> list[float]:
    return [max(0.0, lo), min(1.0, hi)]


def run_row(bot: str, ref: str, variant: str, players: int, deals: int, seed: int,
            workers: int) -> dict[str, Any]:
    warm_up(bot, variant, players)
    jobs = [(variant, players, bot, ref, match_seed(seed, d)) for d in range(deals)]
    diffs: list[float] = []
    shares: list[float] = []
    seconds, decisions = 0.0, 0
    t0 = time.perf_counter()
    every = max(1, deals // 10)

    def take(r: tuple[float, float, float, int]) -> None:
        nonlocal seconds, decisions
        diffs.append(r[0])
        shares.append(r[1])
        seconds += r[2]
        decisions += r[3]
        if len(diffs) % every == 0 or len(diffs) == deals:
            m, lo, hi = mean_ci(diffs)
            print(f"  {bot}: {len(diffs)}/{deals} deals, score difference {m:+.2f} "
                  f"[{lo:+.2f}, {hi:+.2f}] ({time.perf_counter() - t0:.0f} s)",
                  file=sys.stderr, flush=True)

    if workers == 1:
        for job in jobs:
            take(play_deal(job))
    else:
        with multiprocessing.Pool(workers) as pool:
            for r in pool.imap_unordered(play_deal, jobs):
                take(r)
    d, dlo, dhi = mean_ci(diffs)
    w, wlo, whi = mean_ci(shares)
    return {"bot": bot, "reference": ref, "deals": deals, "matches": deals * players,
            "score_difference": d, "score_difference_ci95": [dlo, dhi],
            "win_rate": w, "win_rate_ci95": _clamp(wlo, whi),
            "ms_per_decision": 1000 * seconds / decisions if decisions else 0.0,
            "seconds": time.perf_counter() - t0}


def costs(specs: Sequence[str], variant: str, players: int, matches: int) -> None:
    """Print each bot's steady CPU cost per decision (one bot per seat kept over
    ``matches`` self-play matches, as the coach keeps its bot): choose and explain."""
    from golf.bots import make_bot

    rules = load_rules(variant)
    for spec in specs:
        if spec == "clairvoyant":
            continue
        ch = ex = 0.0
        n = 0
        bots = [make_bot(spec, rules, seed=s) for s in range(players)]
        for seed in range(matches):
            g = Game(rules, players=players, seed=seed)
            while not g.is_over:
                s = g.current_player
                assert s is not None
                view, legal = g.view(s, codes=True), g.legal_actions()
                t0 = time.process_time()
                a = bots[s].choose(view, legal)
                t1 = time.process_time()
                bots[s].explain(view, legal)
                t2 = time.process_time()
                if len(legal) > 1:
                    ch, ex, n = ch + t1 - t0, ex + t2 - t1, n + 1
                g.apply(a)
        print(f"{spec}: choose {1000 * ch / n:.3f} ms, explain {1000 * ex / n:.3f} ms per "
              f"decision ({n} decisions, CPU time)", flush=True)


def format_row(r: Mapping[str, Any]) -> str:
    lo, hi = r["score_difference_ci95"]
    wlo, whi = r["win_rate_ci95"]
    return (f"| {r['bot']} | {r['matches']} | {r['score_difference']:+.2f} "
            f"[{lo:+.2f}, {hi:+.2f}] | {r['win_rate']:.3f} [{wlo:.3f}, {whi:.3f}] | "
            f"{r['ms_per_decision']:.2f} |")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bots", default=",".join(LADDER),
                   help="comma-separated ladder (default: the whole ladder)")
    p.add_argument("--reference", default="expert")
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--deals", type=int, default=100, help="deals per row")
    p.add_argument("--games", type=int, default=0,
                   help="matches per row instead of --deals (rounded up to whole deals)")
    p.add_argument("--deals-for", action="append", default=[], metavar="BOT=N",
                   help="deals for one row, e.g. search:ms=200=10 (costly rows)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", help="write the rows to this file as JSON")
    p.add_argument("--costs", type=int, default=0, metavar="MATCHES",
                   help="instead of the ladder, each bot's steady cost per decision over "
                   "MATCHES self-play matches")
    a = p.parse_args(argv)
    if a.costs:
        costs(a.bots.split(","), a.variant, a.players, a.costs)
        return
    per: dict[str, int] = {}
    for item in a.deals_for:
        bot, _, n = item.rpartition("=")
        per[bot] = int(n)
    deals = -(-a.games // a.players) if a.games else a.deals
    rows = []
    print(f"ladder: {a.variant}, {a.players} players, each bot against {a.reference} on "
          f"duplicate deals (seed {a.seed}), {a.workers} worker(s)", flush=True)
    print("| bot | matches | mean hole score minus reference (95%) | match win rate (95%) "
          "| ms/decision |")
    print("|---|---|---|---|---|", flush=True)
    for bot in a.bots.split(","):
        r = run_row(bot, a.reference, a.variant, a.players, per.get(bot, deals), a.seed,
                    a.workers)
        rows.append(r)
        print(format_row(r), flush=True)
        if a.json:
            with open(a.json, "w") as f:
                json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
