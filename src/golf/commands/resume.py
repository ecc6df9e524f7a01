"""``golf resume``: continue a game saved with ``golf play --save FILE``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..table import read_save, restore
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
    add_display_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    saved = read_save(path)
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
