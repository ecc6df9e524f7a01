"""``golf lab``: what a house rule does to the game, measured (docs/lab.md)."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import GolfError, RulesError
from ..rules import Rules, load_rules, parse_rule_option, preset_names, setting_schema
from ._backend import add_backend_options, backend_from_args
from ._common import default_players

EPILOG = """\
golf lab VARIANT [--rule KEY=VALUE ...] [--vs BASE]
    the ruleset (VARIANT with the --rule changes) against BASE (default: VARIANT as it
    is) on the same deals: length, scores and their spread, first- and last-seat edge,
    knocks, final turns, pairs, wild cards, reshuffles, ties and playoffs, skill share.
golf lab sweep VARIANT
    every option of the presets changed one at a time against VARIANT, at each --players
    (default 2 and 4): a table sorted by effect, PREFIX.json, PREFIX.md and PREFIX.html;
    resumable through its results file; --ray spreads it over a cluster.
golf lab table [--out FILE]
    regenerate the effects table the browser shows (src/golf/lab/effects.json).

Every figure has a 95% interval; effects are paired by deal. The bots are the compiled
expert (self-play) wherever the compiled core plays the rules, else the Python expert at
tables; the header says which engine ran and why.

examples:
  golf lab six-card --rule knock=true
  golf lab six-card --rule final_turns=false --players 4 --deals 4000
  golf lab sweep six-card --out lab/six-card --workers 2
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "lab", help="what a house rule does to the game: paired deals, 95%% intervals",
        description="The rules lab: measure a ruleset against a base on the same deals, "
        "sweep every option of a variant, or rebuild the shipped effects table.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("what", metavar="VARIANT|sweep|table",
                   help="a preset (or .toml file) to measure, 'sweep' or 'table'")
    p.add_argument("variant", nargs="?", default=None, metavar="VARIANT",
                   help="after 'sweep': the variant to sweep")
    p.add_argument("--rule", "-r", action="append", default=[], metavar="KEY=VALUE",
                   help="change one setting of VARIANT (repeatable)")
    p.add_argument("--vs", default=None, metavar="BASE",
                   help="the base ruleset (a preset or .toml file; default VARIANT as it is)")
    p.add_argument("--players", "-p", default=None, metavar="N[,N...]",
                   help="players (default: the variant's smallest count; sweep: 2,4)")
    p.add_argument("--deals", "-d", type=int, default=None,
                   help="paired deals (default 2000; table: 400)")
    p.add_argument("--skill-deals", type=int, default=None,
                   help="deals for the skill share, each played in every seat rotation "
                   "(default a quarter of --deals; 0: skip)")
    p.add_argument("--search-deals", type=int, default=0,
                   help="deals for search against expert (costly: default 0, not measured)")
    p.add_argument("--seed", "-s", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                   help="auto (default): the compiled core where it plays the rules")
    p.add_argument("--json", metavar="FILE", default=None, help="write the report as JSON")
    p.add_argument("--out", metavar="PREFIX", default=None,
                   help="sweep: write PREFIX.json/.md/.html (default lab-sweep-VARIANT); "
                   "table: the file (default src/golf/lab/effects.json)")
    p.add_argument("--results", metavar="FILE", default=None,
                   help="sweep: the results file a rerun continues (default PREFIX.jsonl)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    add_backend_options(p, "sweep: worker processes (default 1)")
    p.set_defaults(func=run)


def _rules(variant: str, texts: list[str]) -> Rules:
    overrides: dict[str, Any] = {}
    for text in texts:
        key, value = parse_rule_option(text)
        head = key.split(".", 1)[0]
        if head not in setting_schema() and head not in ("name", "description"):
            close = difflib.get_close_matches(head, list(setting_schema()), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise RulesError(f"--rule {text!r}: unknown setting '{head}'{hint}; see "
                             "'golf variants show VARIANT' for the settings")
        if key.startswith("points."):
            overrides.setdefault("points", {})[key.split(".", 1)[1]] = value
        else:
            overrides[key] = value
    try:
        return load_rules(variant, overrides or None)
    except RulesError as e:
        guess = difflib.get_close_matches(str(variant), preset_names(), n=1)
        if str(e).startswith("unknown variant") and guess:
            raise RulesError(f"{e} (did you mean {guess[0]!r}?)") from None
        raise


def _players(text: str | None, default: list[int]) -> list[int]:
    if text is None:
        return default
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise GolfError(f"--players must be a number or numbers with commas, got {text!r}"
                        ) from None
    if not out:
        raise GolfError("--players is empty")
    return out


def _say(quiet: bool) -> Any:
    return None if quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))


def run(args: argparse.Namespace) -> int:
    if args.deals is not None and args.deals < 2:
        raise GolfError(f"--deals must be at least 2, got {args.deals}")
    if args.what == "sweep":
        return _sweep(args)
    if args.what == "table":
        return _table(args)
    if args.variant is not None:
        raise GolfError(f"unexpected argument {args.variant!r}: give one VARIANT (or "
                        "'sweep VARIANT', 'table')")
    try:
        from ..lab.run import format_report, lab
    except ImportError as e:
        raise _missing(e) from None

    rules = _rules(args.what, args.rule)
    base = _rules(args.vs or args.what, [])
    players = _players(args.players, [default_players(rules)])
    if len(players) != 1:
        raise GolfError("golf lab VARIANT takes one --players count (sweep takes several)")
    report = lab(rules, base, players[0], args.deals or 2000, args.seed, args.engine,
                 args.skill_deals, args.search_deals, _say(args.quiet))
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def _missing(e: ImportError) -> GolfError:
    """The lab's measurements run on numpy and the compiled core (the ``fast`` extra),
    which a light install (``make run``: the ``web`` extra) does not have."""
    return GolfError(f"golf lab needs the 'fast' extra (numpy and numba; {e.name or e} is "
                     "missing): pip install 'golf-cards[fast]'")


def _sweep(args: argparse.Namespace) -> int:
    try:
        from ..lab.sweep import run_sweep, write_outputs
    except ImportError as e:
        raise _missing(e) from None
    from ..simulate import Progress

    if args.variant is None:
        raise GolfError("golf lab sweep needs a VARIANT, e.g. golf lab sweep six-card")
    if args.rule or args.vs:
        raise GolfError("golf lab sweep takes no --rule or --vs: it sweeps every option "
                        "against the variant as it is")
    rules = _rules(args.variant, [])
    players = _players(args.players, [p for p in (2, 4)
                                      if rules.players[0] <= p <= rules.players[1]]
                       or [default_players(rules)])
    prefix = Path(args.out or f"lab-sweep-{Path(args.variant).stem}")
    results = Path(args.results or f"{prefix}.jsonl")
    backend = backend_from_args(args, default_workers=1)
    report = run_sweep(args.variant, players, args.deals or 2000, args.seed, results,
                       args.engine, args.skill_deals, backend,
                       None if args.quiet else Progress(sys.stderr, "jobs"))
    report["backend"] = backend.describe()
    paths = write_outputs(report, prefix)
    print(f"sweep of {args.variant}: {len(report['options'])} rows ({report['jobs']} jobs, "
          f"{report['jobs_resumed']} taken from {results}); wrote "
          + ", ".join(str(p) for p in paths))
    return 0


def _table(args: argparse.Namespace) -> int:
    try:
        from ..lab.ship import build_table, write_table
    except ImportError as e:
        raise _missing(e) from None

    if args.variant is not None:
        raise GolfError("golf lab table takes no VARIANT: it measures every preset")
    deals = args.deals or 400
    out = Path(args.out or "src/golf/lab/effects.json")
    command = f"golf lab table --deals {deals} --seed {args.seed} --out {out}"
    from ..simulate import Progress

    data = build_table(deals, args.seed, command,
                       progress=None if args.quiet else Progress(sys.stderr, "rulesets"),
                       backend=backend_from_args(args, default_workers=1))
    write_table(data, out)
    print(f"wrote {out}")
    return 0
