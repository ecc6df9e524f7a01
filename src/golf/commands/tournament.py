"""``golf tournament``: bots, programs and chat agents meet; OpenSkill ratings."""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from pathlib import Path
from typing import Any

from ..bots import external
from ..bots.base import split_specs
from ..envs.text import FORFEIT, TextOptions
from ..errors import GolfError
from ..rules import default_players
from ..simulate import Progress
from ..tournament import (
    FORMATS,
    Tournament,
    format_html,
    format_markdown,
    run_tournament,
)
from ._backend import add_backend_options, backend_from_args
from ._common import add_rule_options, rules_from_args

EPILOG = """\
Entrants are bot specs ('expert', 'search:ms=50'), programs of your own ('cmd:python
mybot.py', the line protocol of docs/bot-protocol.md) or chat agents
('openai:BASE_URL:MODEL', answering the text prompts of golf arena). Round robin seats
every set of --players entrants at a table, every round; Swiss orders the entrants by
rating each round and seats them in order, each table with those it has met least
(the ones left over sit the round out, in turn). Every table plays --deals deals a
round, each once per seat rotation, and all tables of a round play the same deals.

Ratings are OpenSkill's Plackett-Luce (mu starts at 25, sigma at 8.33), updated match
by match in schedule order with every seat ranked by its placing (a seat that forfeits
is last); the leaderboard shows mu with its 95% interval (mu +- 1.96 sigma), the
ordinal (mu - 3 sigma) and each entrant's match wins.

Each finished match is appended to the state file (default
golf-tournament-<hash of the settings>.jsonl here): after an interruption the same
command plays only the missing matches and prints the same leaderboard. --ray
[ADDRESS] spreads the matches over a Ray cluster with the same results.

examples:
  golf tournament --entrants random,greedy,easy,medium,hard --deals 20
  golf tournament --entrants expert,greedy,'cmd:python mybot.py' --players 3 \\
      --variant four-card --format swiss --rounds 4 --html board.html
  golf tournament --entrants expert,openai:http://127.0.0.1:8000/v1:qwen --deals 5
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament", help="round robin or Swiss between bots and agents; OpenSkill ratings",
        description="Play a round robin or Swiss tournament over duplicate deals and print "
        "a leaderboard of OpenSkill ratings with 95% intervals.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(p)
    p.add_argument("--entrants", "-e", required=True, metavar="SPEC,...",
                   help="the entrants: bot specs, cmd:COMMAND or openai:BASE_URL:MODEL")
    p.add_argument("--players", "-p", type=int, default=None,
                   help="seats a table (default: the variant's smallest, at least 2)")
    p.add_argument("--format", "-f", choices=FORMATS, default="round-robin",
                   help="round-robin (default) or swiss")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds (default: 1 for a round robin, 3 for Swiss)")
    p.add_argument("--deals", "-n", type=int, default=10,
                   help="duplicate deals a table and round (default 10)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--state", type=Path, default=None, metavar="FILE.jsonl",
                   help="where finished matches are kept for resuming (default "
                   "golf-tournament-<hash>.jsonl in this directory)")
    p.add_argument("--fresh", action="store_true",
                   help="start over: forget the state file's matches")
    p.add_argument("--markdown", type=Path, default=None, metavar="FILE.md",
                   help="also write the leaderboard as Markdown")
    p.add_argument("--json", default=None, metavar="FILE",
                   help="write the leaderboard as JSON ('-': print it instead of Markdown)")
    p.add_argument("--html", type=Path, default=None, metavar="FILE.html",
                   help="write a self-contained page with the leaderboard and rating plot")
    add_backend_options(p, "worker processes (default: the number of CPUs)")
    p.add_argument("--retries", type=int, default=2,
                   help="a chat agent's wrong answers forgiven per decision (default 2)")
    p.add_argument("--fallback", default=FORFEIT, metavar="forfeit|BOT",
                   help="after a chat agent's retries: forfeit, or this bot's move")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per request to a chat endpoint (default 60)")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY", metavar="NAME",
                   help="environment variable holding a chat endpoint's key")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    p.set_defaults(func=run)


def tournament_from_args(args: argparse.Namespace) -> Tournament:
    rules = rules_from_args(args)
    players = default_players(rules) if args.players is None else args.players
    rounds = args.rounds if args.rounds is not None else (3 if args.format == "swiss" else 1)
    return Tournament(
        tuple(split_specs(args.entrants)), rules, players, args.deals, rounds, args.format,
        args.seed, TextOptions(retries=args.retries, fallback=args.fallback),
        {"timeout": args.timeout, "api_key_env": args.api_key_env},
    )


def run(args: argparse.Namespace) -> int:
    t = tournament_from_args(args)
    if args.workers is not None and args.workers < 1:
        raise GolfError(f"--workers must be at least 1, got {args.workers}")
    state = args.state if args.state is not None else Path(
        f"golf-tournament-{t.fingerprint()}.jsonl")
    backend = backend_from_args(args)
    if not args.quiet:
        print(f"{t.matches} matches; finished ones are kept in {state} (the same command "
              "resumes)", file=sys.stderr)
    logging.getLogger(external.__name__).setLevel(logging.ERROR)
    progress = None if args.quiet else Progress(sys.stderr)
    start = time.monotonic()
    board = run_tournament(t, backend, state, fresh=args.fresh, progress=progress)
    if not args.quiet:
        print(f"done in {time.monotonic() - start:.1f}s on {backend.describe()}",
              file=sys.stderr)
    text = format_markdown(board)
    _write(args.markdown, text + "\n")
    _write(args.html, format_html(board))
    if args.json == "-":
        print(json.dumps(_finite(board), indent=2))
    else:
        if args.json is not None:
            _write(Path(args.json), json.dumps(_finite(board), indent=2) + "\n")
        print(text)
    return 0


def _write(path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise GolfError(f"cannot write {str(path)!r}: {e.strerror}") from None


def _finite(data: Any) -> Any:
    """JSON has no NaN: figures without matches become null."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data
