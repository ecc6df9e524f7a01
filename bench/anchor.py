"""What the search's anchor test (its ``z`` option) is worth, by measured advantages.

The search leaves the playout policy's own move (the *anchor*) for its best action only
when that action's paired advantage is ``z`` standard errors clear. Whether a lower or
higher ``z`` plays better is hard to see in match results (a point of win share needs
thousands of matches); this measures it decision by decision instead:

1. play the search (``--bot``, its ``z`` ignored for the figures below but used for its
   own moves) against ``--opponent`` on duplicate deals, and at each decision where the
   search's best action is not the anchor keep how clear it was
   (:meth:`golf.bots.search.Measured.clearness`);
2. for each such decision at least ``--min-z`` clear, measure the best action's
   advantage over the anchor again with ``--worlds`` fresh worlds
   (:func:`golf.bots.search.advantage`): an estimate without the search's selection;
3. for each threshold z print how many decisions a match would leave the anchor and the
   summed measured advantage of those decisions a match: the points a match that the
   threshold's deviations are worth when every seat plays the playout policy afterwards.

    .venv/bin/python bench/anchor.py --deals 16 --workers 2        # about 10 minutes
    .venv/bin/python bench/anchor.py --deals 10 --bot search:ms=10 --worlds 2000

Figures depend on the machine's load (a loaded core gives fewer playouts in ``ms``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

from golf import Game, load_rules
from golf.bots import make_bot
from golf.bots.search import SearchBot, advantage
from golf.results import match_seed
from golf.table import bot_seed

#: Thresholds the table shows.
THRESHOLDS = (0.8, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0)
#: One kept decision: how clear the search found its best action, its worlds, and the
#: re-measured advantage over the anchor with its standard error (points a hole).
Row = tuple[float, int, float, float]


def _deal(job: tuple[str, str, str, int, int, float]) -> tuple[int, int, list[Row]]:
    """(search decisions, matches, kept rows) of one deal played once per seating."""
    variant, bot, other, seed, worlds, min_z = job
    rules = load_rules(variant)
    rows: list[Row] = []
    decisions = 0
    for seat in range(2):
        g = Game(rules, players=2, seed=seed)
        search = make_bot(bot, rules, seed=bot_seed(seed, seat))
        if not isinstance(search, SearchBot):
            raise SystemExit(f"--bot must be a search bot, got {bot!r}")
        opponent = make_bot(other, rules, seed=bot_seed(seed, 1 - seat))
        while not g.is_over:
            s = g.current_player
            assert s is not None
            view, legal = g.view(s, codes=True), g.legal_actions()
            if s != seat:
                g.apply(opponent.choose(view, legal))
                continue
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            m = search.measure(view, legal)
            decisions += 1
            clear = m.clearness(m.top)
            if m.top != m.anchor and clear >= min_z:
                mean, se = advantage(rules, view, legal, m.anchor, m.top, worlds,
                                     seed=decisions * 2 + seat + seed)
                rows.append((clear, m.counts[m.top], mean, se))
            g.apply(legal[m.chosen])
    return decisions, 2, rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bot", default="search:ms=50", help="the search bot (default %(default)s)")
    p.add_argument("--opponent", default="expert", help="default %(default)s")
    p.add_argument("--variant", default="six-card", help="default %(default)s")
    p.add_argument("--deals", type=int, default=40,
                   help="deals, each played with the search in both seats (default 40)")
    p.add_argument("--seed", type=int, default=5150, help="default %(default)s")
    p.add_argument("--worlds", type=int, default=4000,
                   help="fresh worlds to re-measure each kept decision (default 4000)")
    p.add_argument("--min-z", type=float, default=0.8,
                   help="re-measure decisions at least this clear (default 0.8)")
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args(argv)
    if a.deals < 1 or a.worlds < 2 or a.workers < 1:
        p.error("--deals and --workers must be at least 1, --worlds at least 2")
    jobs = [(a.variant, a.bot, a.opponent, match_seed(a.seed, i), a.worlds, a.min_z)
            for i in range(a.deals)]
    rows: list[Row] = []
    decisions = matches = 0
    t0 = time.perf_counter()
    with multiprocessing.Pool(a.workers) as pool:
        for k, (d, m, r) in enumerate(pool.imap_unordered(_deal, jobs), 1):
            decisions, matches = decisions + d, matches + m
            rows += r
            print(f"  {k}/{a.deals} deals, {len(rows)} decisions re-measured "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    print(f"{a.bot} vs {a.opponent}, {a.variant}, 2 players: {matches} matches, {decisions} "
          f"search decisions, {len(rows)} re-measured with {a.worlds} worlds (seed {a.seed})")
    print("  threshold z | leaves the anchor, a match | measured advantage, points a match "
          "(standard error) | of them worse than the anchor")
    for z in THRESHOLDS:
        if z < a.min_z:
            continue
        sel = [r for r in rows if r[0] > z and r[1] >= 8]
        gain = sum(r[2] for r in sel) / matches
        se = sum(r[3] ** 2 for r in sel) ** 0.5 / matches
        worse = sum(1 for r in sel if r[2] < 0)
        print(f"  {z:11.2f} | {len(sel) / matches:26.2f} | {gain:+22.3f} ({se:.3f}) | {worse}")
    print(f"  {time.perf_counter() - t0:.0f} s with {a.workers} worker(s)")


if __name__ == "__main__":
    main()
