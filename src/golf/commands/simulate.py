"""``golf simulate``: bots play many matches; statistics, JSON, CSV and a plot."""

from __future__ import annotations

import argparse
import csv
import json
import logging
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots import external
from ..bots.base import make_bot, split_specs
from ..errors import GolfError
from ..rules import Rules, default_players
from ..simulate import (
    MatchResult,
    Progress,
    duplicate_summary,
    format_duplicate,
    format_table,
    pick_engine,
    run_matches,
    seat_bots,
    summarise,
)
from ._backend import add_backend_options, backend_from_args
from ._common import add_rule_options, rules_from_args

EPILOG = """\
Bots are given as a comma-separated list, one per seat in seat order; options follow a
colon, e.g. 'expert:memory=0.6,noise=1'. With fewer bots than players the list repeats
(--players 4 --bots expert,greedy seats expert, greedy, expert, greedy); more bots than
players is an error. Each match's seed is derived from --seed and the match's number, so
the results are the same for any --workers and on a Ray cluster (--ray [ADDRESS]). A
shared match win counts 1/k for each of the k joint winners. Intervals are 95%. With
--duplicate each of GAMES deals is played once per seat rotation (players x GAMES
matches) and the paired figures follow the table.
--engine auto (the default) plays in the compiled core (golf.fast, one process) when
every seat's bot has a compiled policy that plays exactly like it (random, fast-expert) and
the core plays the rules, else at Python tables; the header says which and why. The
compiled core deals with its own generator, so its matches are other deals of the
same seeds: the same statistics, not the same games.

External bots: 'cmd:COMMAND' runs a program of your own in any language, one process per
match, over the line protocol of docs/bot-protocol.md; the command runs up to the next
comma (quote commas inside it; 'python' means the Python golf runs on). Its options go in
brackets: 'cmd[timeout=5,start_timeout=10,fallback=forfeit,stderr=capture]:COMMAND'
(defaults shown; fallback=greedy or any other bot plays for a program that times out,
crashes or answers an illegal action). A forfeited match is left out of the figures and
the CSV and listed after the table; the figures count every fallback.

examples:
  golf simulate --variant six-card --players 2 --bots expert,greedy --games 200
  golf simulate --bots 'cmd:python mybot.py,expert' --games 50
  golf simulate --bots expert,greedy --games 100000 --ray 10.0.0.5:6379
  golf simulate --bots 'cmd[timeout=1,fallback=greedy]:node examples/bots/minstd.js,expert'
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate", help="bots play many matches; win rates and scores with intervals",
        description="Play GAMES matches between bots in worker processes and print, per seat\n"
        "and bot, the mean hole score and the match win rate with 95% intervals, the mean\n"
        "number of turns per hole and the first player's advantage.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(p)
    p.add_argument("--players", "-p", type=int, default=None,
                   help="players per match (default: the variant's smallest count, at least 2)")
    p.add_argument("--bots", "-b", default="expert,greedy", metavar="SPEC,...",
                   help="bots in seat order, repeated to fill the seats (default "
                   "expert,greedy); 'cmd:COMMAND' is a program of your own (see below)")
    p.add_argument("--games", "-g", type=int, default=100, help="number of matches (default 100)")
    p.add_argument("--holes", type=int, default=None, metavar="H",
                   help="holes per match (default: the variant's)")
    p.add_argument("--seed", "-s", type=int, default=None,
                   help="base seed (default: random, printed so a run can be repeated)")
    add_backend_options(p, "worker processes (default: the number of CPUs)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="print the figures as JSON (seats numbered from 0, as in the engine)")
    out.add_argument("--csv", metavar="FILE",
                     help="also write one row per match and seat to FILE ('-' for stdout)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="write a PNG of each bot's hole-score distribution (needs matplotlib)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    p.add_argument("--duplicate", action="store_true",
                   help="play each of GAMES deals once per seat rotation (the same cards for "
                   "every bot in every seat) and add win rates and scores paired by deal")
    p.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                   help="where the matches are played: auto (compiled when every bot has a "
                   "compiled policy and the rules allow it), python or compiled (an error "
                   "naming the bot or setting when it cannot)")
    p.set_defaults(func=run)


def _rules(args: argparse.Namespace) -> Rules:
    if args.holes is not None:
        if args.holes < 1:
            raise GolfError(f"--holes must be at least 1, got {args.holes}")
        args.rule = [*args.rule, f"holes={args.holes}"]
    return rules_from_args(args)


def _bots(text: str) -> list[str]:
    return split_specs(text)


def run(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.players is None:
        args.players = default_players(rules)
    bots = _bots(args.bots)
    rules.check_players(args.players)
    seat_bots(bots, args.players)
    for spec in bots:
        make_bot(spec, rules, programs=True)
    if args.games < 1:
        raise GolfError(f"--games must be at least 1, got {args.games}")
    if args.workers is not None and args.workers < 1:
        raise GolfError(f"--workers must be at least 1, got {args.workers}")
    backend = backend_from_args(args)
    if args.plot:
        _check_matplotlib()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if seed < 0:
        raise GolfError(f"--seed must be 0 or more, got {seed}")
    engine = pick_engine(rules, args.players, bots, args.engine)
    progress = None if args.quiet else Progress(sys.stderr)
    if progress is not None and engine[0] == "compiled":
        print("loading the compiled core (its first run on a machine compiles it: up to a "
              "minute or two; it is cached afterwards)", file=sys.stderr, flush=True)
    # External bots' fallbacks are counted in the summary, not logged line by line.
    logging.getLogger(external.__name__).setLevel(logging.ERROR)
    start = time.monotonic()
    results = run_matches(rules, args.players, bots, args.games, seed, progress=progress,
                          duplicate=args.duplicate, engine=engine[0], backend=backend)
    elapsed = time.monotonic() - start
    if all(r.forfeit is not None for r in results):
        raise GolfError(f"every one of the {len(results)} matches was forfeited; the first: "
                        f"{results[0].forfeit}")
    summary = summarise(results, rules, args.players, bots, seed, engine)
    if args.duplicate:
        summary["duplicate"] = duplicate_summary(results, args.players)
        for row in summary["seats"]:  # every bot sat in every seat
            row["bot"] = "(each bot in turn)"
    if args.csv:
        _write_csv(args.csv, results, rules)
    if args.json:
        print(json.dumps(_finite(summary), indent=2))
    elif args.csv != "-":
        print(format_table(summary))
        if args.duplicate:
            print(format_duplicate(summary["duplicate"]))
        holes = sum(len(r.hole_scores) for r in results)
        where = ("in one process (compiled core)" if engine[0] == "compiled"
                 else f"on {backend.describe()}")
        rate = (f", {holes / elapsed:,.0f} holes/s, {len(results) / elapsed:,.1f} matches/s,"
                if elapsed > 0 else "")
        print(f"{holes} holes in {elapsed:.1f}s{rate} {where}")
    if args.plot:
        _plot(args.plot, results, summary)
        if not args.json and args.csv != "-":
            print(f"plot written to {args.plot}")
    return 0


def _finite(data: Any) -> Any:
    """JSON has no NaN: intervals that need more matches become null."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, Mapping):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


CSV_FIELDS = ("match", "seed", "seat", "bot", "holes", "total", "mean_hole_score", "win",
              "turns", "hole_scores")


def _write_csv(path: str, results: Sequence[MatchResult], rules: Rules) -> None:
    try:
        f = sys.stdout if path == "-" else open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise GolfError(f"cannot write --csv file {path!r}: {e.strerror}") from None
    try:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for r in results:
            if r.forfeit is not None:  # left out, as from the figures (listed in the table)
                continue
            share = 1.0 / len(r.winners) if r.winners else 0.0
            for s, bot in enumerate(r.bots):
                scores = [h[s] for h in r.hole_scores]
                turns = sum(t[s] for t in r.turns)
                w.writerow([
                    r.index, r.seed, s + 1, bot, len(scores), r.totals[s],
                    f"{sum(scores) / len(scores):.4f}" if scores else "",
                    f"{share if s in r.winners else 0.0:.4f}", turns,
                    " ".join(str(v) for v in scores),
                ])
    finally:
        if f is not sys.stdout:
            f.close()


def _check_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GolfError("--plot needs matplotlib: pip install 'golf-cards[sim]'") from None


def _plot(path: str, results: Sequence[MatchResult], summary: Mapping[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores: dict[str, list[int]] = {}
    for r in results:
        for s, bot in enumerate(r.bots):
            scores.setdefault(bot, []).extend(h[s] for h in r.hole_scores)
    lo = min(min(v) for v in scores.values())
    hi = max(max(v) for v in scores.values())
    bins = [x - 0.5 for x in range(lo, hi + 2)]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for bot, values in scores.items():
        mean = sum(values) / len(values)
        ax.hist(values, bins=bins, histtype="step", linewidth=1.6, density=True,
                label=f"{bot} (mean {mean:.2f}, {len(values)} holes)")
    ax.set_xlabel("hole score")
    ax.set_ylabel("share of holes")
    ax.set_title(f"{summary['variant']}, {summary['players']} players, "
                 f"{summary['matches']} matches")
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as e:
        raise GolfError(f"cannot write --plot file {path!r}: {e.strerror}") from None
    finally:
        plt.close(fig)
