"""``golf arena``: an agent against bots over duplicate deals, with 95% intervals."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from ..arena import format_summary, run_arena, summarise
from ..bots.base import split_specs
from ..envs.text import FORFEIT, TextOptions
from ..rules import default_players
from ..simulate import Progress
from ._backend import add_backend_options, backend_from_args
from ._common import add_rule_options, rules_from_args

EPILOG = """\
The agent is a bot spec ('expert', 'search:ms=50', 'cmd:python mybot.py' for a program
of your own over the line protocol of docs/bot-protocol.md) or an OpenAI-compatible
chat endpoint, 'openai:BASE_URL:MODEL' (what vLLM, llama.cpp's server and Ollama
serve), which gets each turn as the text of golf.envs.text and answers in words; its
key, if the server needs one, is read from the environment variable --api-key-env
(never printed). A wrong answer gets a specific message and --retries more tries, then
--fallback decides: 'forfeit' (the match is lost) or a bot's move played for it.

Each deal is played once per seat, the opponents keeping their order, and the figures
are paired by deal; --workers N plays N matches at once, --ray [ADDRESS] spreads them
over a Ray cluster, with the same results. --transcript writes one JSON line per match,
in match order: its game record (replayable with golf.Game.from_record) with every
prompt and answer.

examples:
  golf arena --agent greedy --opponents expert --deals 50
  golf arena --agent openai:http://127.0.0.1:8000/v1:qwen2.5-7b --opponents medium \\
      --variant four-card-wild --players 3 --deals 20 --transcript runs.jsonl
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "arena", help="evaluate an agent (a bot, a program or a chat model) against bots",
        description="Play an agent against bots over duplicate deals and report its win "
        "share and margin with 95% intervals.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(p)
    p.add_argument("--agent", "-a", required=True, metavar="SPEC",
                   help="a bot spec, cmd:COMMAND, or openai:BASE_URL:MODEL")
    p.add_argument("--opponents", "-o", default="expert", metavar="SPECS",
                   help="comma-separated bots for the other seats, in order (default expert)")
    p.add_argument("--players", "-p", type=int, default=None,
                   help="players a table (default: the variant's smallest, at least 2)")
    p.add_argument("--deals", "-n", type=int, default=20, help="deals to play (default 20)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--retries", type=int, default=2,
                   help="wrong answers forgiven per decision (default 2)")
    p.add_argument("--fallback", default=FORFEIT, metavar="forfeit|BOT",
                   help="after the retries: forfeit the match, or play this bot's move "
                   "(default forfeit)")
    p.add_argument("--show-peeks", action="store_true",
                   help="keep describing secretly peeked cards after the first draw")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per request to a chat endpoint (default 60)")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY", metavar="NAME",
                   help="environment variable holding the endpoint's key")
    p.add_argument("--transcript", type=Path, default=None, metavar="FILE.jsonl",
                   help="write every match's record and conversation here")
    add_backend_options(p, "worker processes playing matches at once (default 1)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = default_players(rules) if args.players is None else args.players
    text = TextOptions(retries=args.retries, fallback=args.fallback,
                       show_peeks=args.show_peeks)
    chat = {"timeout": args.timeout, "api_key_env": args.api_key_env}
    out: IO[str] | None = None
    try:
        if args.transcript is not None:
            out = args.transcript.open("w", encoding="utf-8")
        progress = None if args.no_progress else Progress(label="matches")
        result = run_arena(args.agent, split_specs(args.opponents), rules, players,
                           args.deals, args.seed, text=text, chat=chat, transcript=out,
                           progress=progress, backend=backend_from_args(args, 1))
    finally:
        if out is not None:
            out.close()
    summary = summarise(result)
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
        if args.transcript is not None:
            print(f"  transcript: {args.transcript}")
    return 0
