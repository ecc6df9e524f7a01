"""The search bot against another bot on duplicate deals, and its search speed.

Each deal (a match seed) is played twice, once with the search bot in each seat
(2 players), so both bots get the same cards; the win rate counts a shared win as
half, and its 95% interval is over deals (the two matches of a deal are paired).
It also prints playouts per second and decision time.

    .venv/bin/python bench/search.py --deals 500 --bot search:ms=50      # the target run
    .venv/bin/python bench/search.py --deals 100 --bot search:ms=50,sigma=8 --csv s8.csv
    .venv/bin/python bench/search.py --deals 50 --bot search:sims=200 --workers 2
    .venv/bin/python bench/search.py --deals 50 --clairvoyant known --sims 200

``--clairvoyant known|shuffled`` plays the search that sees every card
(:func:`golf.bots.search.clairvoyant_choose`, not a bot: it reads the game) in the
search bot's seat instead, with ``--sims`` simulations a decision: a bound on what
hidden information costs the search.

Figures depend on the machine's load: say so with them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from typing import Any

from golf import Game, Rules, load_rules
from golf.bots import make_bot
from golf.simulate import match_seed, mean_ci, play_match
from golf.table import bot_seed

#: A clairvoyant's stock mode and simulations a decision, or None for the bot given.
Clairvoyant = tuple[str, int] | None


def clairvoyant_match(rules: Rules, players: int, seat: int, other: str, seed: int,
                      stock: str, sims: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(totals, winners) of a match where ``seat`` is played by the clairvoyant search
    (see :func:`golf.bots.search.clairvoyant_choose`) and every other seat by ``other``."""
    from golf.bots.search import clairvoyant_choose

    g = Game(rules, players=players, seed=seed)
    bots = {s: make_bot(other, rules, seed=bot_seed(seed, s)) for s in range(players)
            if s != seat}
    while not g.is_over:
        s = g.current_player
        assert s is not None
        if s == seat:
            g.apply(clairvoyant_choose(g, sims=sims, seed=bot_seed(seed, s), stock=stock))
        else:
            g.apply(bots[s].choose(g.view(s, codes=True), g.legal_actions()))
    return tuple(g.totals), tuple(g.winners)


def _deal(job: tuple[str, int, str, str, int, dict[str, Any], Clairvoyant]
          ) -> tuple[float, int, float, int]:
    """(search's win share over both seatings, its summed margin, seconds, the deal's
    seed) of one deal."""
    variant, players, bot, other, seed, over, clair = job
    rules = load_rules(variant, over)
    t = time.perf_counter()
    share, margin = 0.0, 0
    for seat in range(players):
        if clair is None:
            bots = [other] * players
            bots[seat] = bot
            r = play_match(rules, players, bots, seed)
            totals, winners = r.totals, r.winners
        else:
            totals, winners = clairvoyant_match(rules, players, seat, other, seed, *clair)
        if seat in winners:
            share += 1 / len(winners)
        best_other = min(totals[s] for s in range(players) if s != seat)
        margin += best_other - totals[seat]
    return share / players, margin, time.perf_counter() - t, seed


def speed(bot: str, variant: str, decisions: int = 40) -> tuple[float, float, int, float]:
    """(playouts per second, mean ms per decision, median playouts per decision, 95th
    percentile ms) of ``bot`` in seat 0 against the expert, over seeded decisions."""
    from golf.bots.search import SearchBot

    g = Game(variant, players=2, seed=12)
    b = make_bot(bot, g.rules, seed=1)
    other = make_bot("expert", g.rules, seed=2)
    assert isinstance(b, SearchBot)
    b.choose(g.view(0, codes=True), g.legal_actions())  # compile / load the cache
    sims: list[int] = []
    times: list[float] = []
    while len(sims) < decisions and not g.is_over:
        seat = g.current_player
        assert seat is not None
        legal = g.legal_actions()
        view = g.view(seat, codes=True)
        if seat == 0 and len(legal) > 1:
            t = time.perf_counter()
            a = b.choose(view, legal)
            times.append(time.perf_counter() - t)
            sims.append(b.last_sims)
        else:
            a = other.choose(view, legal)
        g.apply(a)
    spent = sum(times)
    times.sort()
    return (sum(sims) / spent, 1000 * spent / max(len(times), 1), sorted(sims)[len(sims) // 2],
            1000 * times[int(0.95 * len(times))])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bot", default="search:ms=50")
    p.add_argument("--opponent", default="expert")
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--no-speed", action="store_true")
    p.add_argument("--decisions", type=int, default=100,
                   help="decisions the speed figures are measured over (default 100)")
    p.add_argument("--clairvoyant", choices=("known", "shuffled"),
                   help="play the search that sees every card instead of --bot (stock "
                        "order known, or shuffled)")
    p.add_argument("--csv", metavar="FILE",
                   help="also write one row per deal (seed, win share, margin a match) to "
                        "FILE, to pair two runs on the same deals")
    p.add_argument("--sims", type=int, default=200,
                   help="simulations a decision of --clairvoyant (default 200)")
    a = p.parse_args(argv)
    clair: Clairvoyant = None if a.clairvoyant is None else (a.clairvoyant, a.sims)
    if clair is not None:
        a.bot = f"clairvoyant:stock={a.clairvoyant},sims={a.sims}"
        a.no_speed = True
    if not a.no_speed:
        rate, ms, median, p95 = speed(a.bot, a.variant, a.decisions)
        print(f"{a.bot}: {rate:,.0f} playouts/s, {ms:.1f} ms per decision (95th percentile "
              f"{p95:.1f}), median {median} playouts per decision ({a.variant}, 2 players, "
              f"{a.decisions} decisions against the expert)", flush=True)
    jobs = [(a.variant, a.players, a.bot, a.opponent, match_seed(a.seed, i), {}, clair)
            for i in range(a.deals)]
    shares: list[float] = []
    margins: list[float] = []
    t0 = time.perf_counter()
    rows: list[tuple[int, float, float]] = []
    with multiprocessing.Pool(a.workers) as pool:
        for share, margin, _, seed in pool.imap_unordered(_deal, jobs):
            shares.append(share)
            margins.append(margin / a.players)
            rows.append((seed, share, margin / a.players))
            if len(shares) % 10 == 0 or len(shares) == a.deals:
                m, lo, hi = mean_ci(shares)
                print(f"  {len(shares)}/{a.deals} deals: win rate {m:.3f} [{lo:.3f}, {hi:.3f}]"
                      f" ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    if a.csv:
        with open(a.csv, "w", encoding="utf-8") as out:
            out.write("seed,win_share,margin\n")
            for seed, share, margin in sorted(rows):
                out.write(f"{seed},{share:.4f},{margin:.2f}\n")
    m, lo, hi = mean_ci(shares)
    mm, mlo, mhi = mean_ci(margins)
    print(f"{a.bot} vs {a.opponent}, {a.variant}, {a.players} players, {a.deals} deals x "
          f"{a.players} seatings = {a.deals * a.players} matches (seed {a.seed}):")
    print(f"  win rate {m:.3f}, 95% interval [{lo:.3f}, {hi:.3f}] (paired by deal; a shared "
          "win counts as a share)")
    print(f"  margin over the best opponent per match {mm:+.2f} points [{mlo:+.2f}, {mhi:+.2f}]")
    print(f"  {time.perf_counter() - t0:.0f} s with {a.workers} worker(s)")


if __name__ == "__main__":
    main()
