"""``golf lab``: what a house rule does to the game, measured (docs/lab.md)."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ..digits import is_digits
from ..errors import GolfError, RulesError
from ..rules import (
    Rules,
    default_players,
    load_rules,
    parse_rule_option,
    preset_names,
    setting_schema,
)
from ._backend import add_backend_options, backend_from_args

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
tables; the header says which engine ran and why. Without the 'fast' extra (numpy and
numba) golf lab VARIANT and golf lab sweep play at the engine's tables, many times
slower; pip install 'golf-cards[fast]' adds the compiled core (golf lab table needs it).

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
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress on stderr (a bar where stderr is a terminal)")
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
    parts = [x.strip() for x in text.split(",") if x.strip()]
    if not all(is_digits(x) for x in parts):  # ASCII digits: int() reads "٣" as 3
        raise GolfError(f"--players must be a number or numbers with commas, got {text!r}")
    out = [int(x) for x in parts]
    if not out:
        raise GolfError("--players is empty")
    return out


class _Stderr:
    """What a long run tells on stderr: a line for each stage and, where stderr is a
    terminal, a progress bar (``golf.simulate.Progress``) below them. Nothing with
    ``--quiet``; no bar where stderr is a file or a pipe."""

    def __init__(self, quiet: bool, label: str = "deals",
                 stream: TextIO | None = None) -> None:
        from ..simulate import Progress

        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.bar = Progress(self.stream, label) if self.tty and not quiet else None

    def say(self, msg: str) -> None:
        if self.quiet:
            return
        # on a terminal the bar's line is cleared first; the bar comes back below
        self.stream.write(("\r\033[K" if self.bar else "") + msg + "\n")
        self.stream.flush()

    def tick(self, done: int, total: int) -> None:
        if self.bar is not None and total:
            self.bar(done, total)


def check_output(path: Path, option: str) -> None:
    """Refuse at once an output file that cannot be written (a missing folder, a
    folder's name), before a run of minutes ends in a traceback."""
    if path.is_dir():
        raise GolfError(f"{option} {str(path)!r} is a folder; give a file name, e.g. "
                        f"{path / 'lab.json'}")
    folder = path.parent
    if not folder.is_dir():
        raise GolfError(f"{option} {str(path)!r}: the folder {str(folder)!r} does not "
                        "exist; create it first or choose another path")
    if not os.access(folder, os.W_OK):
        raise GolfError(f"{option} {str(path)!r}: the folder {str(folder)!r} is not "
                        "writable")


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
    from ..lab.run import format_report, lab  # no numpy: the engine's tables need none

    rules = _rules(args.what, args.rule)
    base = _rules(args.vs or args.what, [])
    players = _players(args.players, [default_players(rules)])
    if len(players) != 1:
        raise GolfError("golf lab VARIANT takes one --players count (sweep takes several)")
    out = Path(args.json) if args.json else None
    if out is not None:
        check_output(out, "--json")
    err = _Stderr(args.quiet)
    try:
        report = lab(rules, base, players[0], args.deals or 2000, args.seed, args.engine,
                     args.skill_deals, args.search_deals, err.say, err.tick)
    except ImportError as e:  # --engine compiled without numpy and numba
        raise _missing(e) from None
    print(format_report(report))
    if out is not None:
        out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def _missing(e: ImportError) -> GolfError:
    """The compiled core (the ``fast`` extra: numpy and numba), which a light install
    (``make run``: the ``web`` extra) does not have: the table and ``--engine compiled``
    need it; ``golf lab VARIANT`` and sweeps play without it at the engine's tables."""
    return GolfError(f"this needs the compiled core, the 'fast' extra (numpy and numba; "
                     f"{e.name or e} is missing): pip install 'golf-cards[fast]' adds it "
                     "(golf lab VARIANT --engine python plays without it, slower)")


def _sweep(args: argparse.Namespace) -> int:
    from ..lab.sweep import run_sweep, write_outputs
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
    prefix = Path(args.out or f"lab-sweep-{_stem(args.variant)}")
    results = Path(args.results or f"{prefix}.jsonl")
    backend = backend_from_args(args, default_workers=1)
    if not args.quiet and args.engine != "python":
        print("checking, for each option and player count, that the compiled expert plays "
              "the Python expert's moves (where it does not, the engine's tables play)",
              file=sys.stderr)
    try:
        report = run_sweep(args.variant, players, args.deals or 2000, args.seed, results,
                           args.engine, args.skill_deals, backend,
                           None if args.quiet else Progress(sys.stderr, "jobs"))
    except ImportError as e:  # pragma: no cover - the engine is picked by what is installed
        raise _missing(e) from None
    report["backend"] = backend.describe()
    paths = write_outputs(report, prefix)
    print(f"sweep of {args.variant}: {len(report['options'])} rows ({report['jobs']} jobs, "
          f"{report['jobs_resumed']} taken from {results}); wrote "
          + ", ".join(str(p) for p in paths))
    return 0


def _stem(variant: str) -> str:
    """A variant's name for a file name: a preset as it is, a rules file without its
    folder and its ``.toml`` (``my.rules.toml`` -> ``my.rules``, every other dot kept)."""
    name = Path(variant).name
    return name[: -len(".toml")] if name.endswith(".toml") else name


def _table(args: argparse.Namespace) -> int:
    from ..lab.play import compiled_available
    from ..lab.ship import build_table, write_table

    if not compiled_available():  # the table is measured in the compiled core only
        raise _missing(ImportError("numpy or numba", name="numpy or numba"))

    if args.variant is not None:
        raise GolfError("golf lab table takes no VARIANT: it measures every preset")
    deals = args.deals or 400
    out = Path(args.out or "src/golf/lab/effects.json")
    check_output(out, "--out")
    command = f"golf lab table --deals {deals} --seed {args.seed} --out {out}"
    from ..simulate import Progress

    try:
        if not args.quiet:
            print("checking on each ruleset that the compiled expert plays the Python "
                  "expert's moves (rulesets where it does not are left out)", file=sys.stderr)
        bars: list[Progress] = []

        def played(done: int, total: int) -> None:
            if not bars:  # its clock starts when the playing does, after the check
                bars.append(Progress(sys.stderr, "rulesets"))
            bars[0](done, total)

        data = build_table(deals, args.seed, command,
                           progress=None if args.quiet else played,
                           backend=backend_from_args(args, default_workers=1),
                           checked=None if args.quiet else Progress(sys.stderr,
                                                                    "rulesets checked"))
    except ImportError as e:
        raise _missing(e) from None
    write_table(data, out)
    print(f"wrote {out}")
    return 0
