"""``golf resume``: continue a game saved with ``golf play --save FILE``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..bots.cmdspec import is_cmd_spec
from ..errors import GolfError
from ..table import Saved, read_save, restore
from ..terminal.console import Console
from ..terminal.session import Options, Session, match_result
from ..terminal.style import detect
from .play import add_display_options, console_for, delay_for


def register(sub: Any) -> None:
    p = sub.add_parser(
        "resume", help="continue a saved game",
        description="Continue a game saved with 'golf play --save FILE' exactly where it "
        "stopped: the same seats, bots and options. It goes on saving to FILE.",
    )
    p.add_argument("file", help="the save file")
    p.add_argument("--save", default=None, metavar="OTHER",
                   help="save to OTHER from now on instead of FILE")
    p.add_argument("--allow-programs", action="store_true",
                   help="start the external programs (cmd: bots) the save names without "
                   "asking")
    add_display_options(p)
    p.set_defaults(func=run)


def programs(saved: Saved) -> list[str]:
    """The external bots' specs in a save: each would start a program on this computer."""
    return [s.bot for s in saved.seats if s.bot is not None and is_cmd_spec(s.bot)]


def consent(saved: Saved, allow: bool) -> None:
    """Raise unless the programs the save would start are allowed: a save someone sent
    may name any command, so it runs only with ``--allow-programs`` or a "y" at the
    prompt, and never unasked in a run nobody can answer."""
    named = programs(saved)
    if not named or allow:
        return
    listing = "\n".join(f"  {spec}" for spec in named)
    if not sys.stdin.isatty():
        raise GolfError("this save would start programs on this computer:\n"
                        f"{listing}\nnothing was started; if you trust them, run again "
                        "with --allow-programs")
    print(f"This save would start programs on this computer:\n{listing}", flush=True)
    try:
        answer = input("Start them? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise GolfError("not resumed: the save's programs were not allowed (nothing was "
                        "started)")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    saved = read_save(path)
    consent(saved, args.allow_programs)
    game, bots = restore(saved)
    names = [s.name for s in saved.seats]
    if game.is_over:
        console = Console(sys.stdin, sys.stdout, detect(sys.stdout, args.ascii))
        console.say(match_result(game, names, console.style))
        console.say(f"This game is over; watch it with: golf replay {path}")
        return 0
    console = console_for(args)
    show_peeks = saved.options.get("show_peeks", False) is True
    save = Path(args.save) if args.save else path
    options = Options(delay_for(args, console), show_peeks, save)
    return Session(game, saved.seats, bots, console, options).run()
