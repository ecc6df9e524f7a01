"""``golf play``: play Golf at the terminal against bots, friends (hot-seat) or both."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..bots.base import split_specs
from ..errors import GolfError, UsageError
from ..game import Game
from ..rules import Rules
from ..table import build_bots, read_save, restore
from ..terminal.console import Console
from ..terminal.screen import Screen
from ..terminal.seats import PREFERRED_BOT, available_bot, seat_table, split_names
from ..terminal.session import Options, Session
from ..terminal.style import detect, isatty
from ._common import add_rule_options, rules_from_args

#: Seconds between bots' moves when the output is a terminal.
DEFAULT_DELAY = 0.6
DEFAULT_NAME = "You"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play Golf at the terminal against bots or friends",
        description="Play a match at the terminal. By default you play six-card Golf against "
        "two expert bots. People listed with --humans share the terminal (hot-seat); "
        "--bots names the bots who sit with them and --players fixes the table's size. "
        "Type 'help' during the game for the moves and commands.",
        epilog="examples: golf play | golf play --variant german --bots greedy | "
        "golf play --humans Ann,Bob --bots expert --save match.json | "
        "golf play --bots 'cmd:bash examples/bots/first_legal.sh' | "
        "echo 'reveal 1' | golf play --rule holes=1 (moves can be piped on stdin)",
    )
    add_rule_options(p)
    p.add_argument("--players", "-p", type=int, default=None, metavar="N",
                   help="number of players, people and bots together; bots fill the seats "
                   "the people leave. Without --players: with --bots, one bot per name in "
                   "--bots (--bots easy: you against one bot); without --bots, one person "
                   "plays two bots and two or more people play each other, with bots "
                   "added where the variant needs more players")
    p.add_argument("--bots", "-b", default=None, metavar="LIST",
                   help=f"bots by name or difficulty, comma-separated, e.g. easy,hard, "
                   f"expert,greedy or expert:memory=0.6 (default {PREFERRED_BOT}): each "
                   "name is one bot seat; with --players, a single name fills every bot "
                   "seat; 'cmd:COMMAND' plays a program of your own over "
                   "the line protocol of docs/bot-protocol.md, e.g. 'cmd:python mybot.py' or "
                   "'cmd[timeout=2,fallback=greedy]:node mybot.js' (a program that fails "
                   "ends the match with a message unless a fallback bot takes over)")
    p.add_argument("--humans", default=None, metavar="NAMES",
                   help=f"the people playing, comma-separated, e.g. Ann,Bob (default "
                   f"'{DEFAULT_NAME}'; an empty list '' lets bots play alone)")
    p.add_argument("--seed", "-s", type=int, default=None, help="seed of the deals and bots")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="save the game to FILE after every move ('golf resume FILE' goes on)")
    p.add_argument("--show-peeks", action="store_true",
                   help="keep peeked cards visible all hole (variants with a private peek "
                   "hide them after your first draw, as their rules intend)")
    add_display_options(p)
    p.set_defaults(func=run)


def add_display_options(p: argparse.ArgumentParser, delay: bool = True) -> None:
    """``--ascii``, ``--plain`` and ``--delay``, shared by play, resume and replay."""
    p.add_argument("--ascii", action="store_true",
                   help="plain ASCII without colour (S H D C for the suits, ### for a card "
                   "back); the default when the terminal cannot show more")
    p.add_argument("--plain", action="store_true",
                   help="line by line, scrolling, instead of the fixed full-screen board "
                   "(the default when the input or output is not a terminal)")
    if delay:
        p.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                       help=f"pause after each bot move (default {DEFAULT_DELAY} on a terminal, "
                       "0 when the output is not a terminal)")


def console_for(args: argparse.Namespace) -> Console:
    """The fixed full-screen board where a person plays at a real terminal; lines
    otherwise (pipes, scripts, ``--plain``, ``TERM=dumb``)."""
    style = detect(sys.stdout, args.ascii)
    if full_screen_possible(args):
        return Screen(sys.stdin, sys.stdout, style)
    return Console(sys.stdin, sys.stdout, style)


def full_screen_possible(args: argparse.Namespace) -> bool:
    return (not getattr(args, "plain", False) and isatty(sys.stdin) and isatty(sys.stdout)
            and os.environ.get("TERM", "") not in ("", "dumb"))


def delay_for(args: argparse.Namespace, console: Console) -> float:
    if args.delay is None:
        return DEFAULT_DELAY if console.output_is_terminal else 0.0
    if not args.delay >= 0:
        raise UsageError(f"--delay must be 0 or more seconds, got {args.delay}")
    return float(args.delay)


def check_save_target(path: Path) -> None:
    """Refuse to overwrite anything but a finished game: an unfinished save or another
    file would be lost."""
    if not path.exists():
        return
    try:
        game, _ = restore(read_save(path))
    except GolfError:
        raise UsageError(f"{str(path)!r} exists and is not a saved game; choose another "
                         "file for --save") from None
    if not game.is_over:
        raise UsageError(f"{str(path)!r} holds an unfinished game; continue it with "
                         f"'golf resume {path}', or choose another file for --save")


def seats_wanted(
    args: argparse.Namespace, rules: Rules | None = None,
) -> tuple[list[str], list[str]]:
    """The people and the bot specs the options ask for. Where neither --players nor
    --bots says how many bots, enough of them sit down for the variant's smallest
    player count (four-card needs three players: two people get a bot)."""
    humans = [DEFAULT_NAME] if args.humans is None else split_names(args.humans)
    players = args.players
    if players is not None and players < 1:
        raise UsageError(f"--players must be at least 1, got {players}")
    if args.bots is not None:
        bots = split_specs(args.bots) if args.bots.strip() else []
        if players is not None:
            free = players - len(humans)
            if len(bots) == 1 and free > 1:
                bots *= free
            elif len(bots) != free:
                raise UsageError(
                    f"--players {players} with {len(humans)} people leaves {max(free, 0)} "
                    f"seat(s) for bots, but --bots names {len(bots)}"
                )
    elif players is not None:
        if players < len(humans):
            raise UsageError(f"--players {players} is fewer than the {len(humans)} people "
                             "named by --humans")
        bots = [available_bot()] * (players - len(humans))
    elif len(humans) >= 2:
        bots = []  # friends at one terminal play each other unless they ask for bots
    else:
        bots = [available_bot()] * 2
    if rules is not None and args.bots is None and players is None:
        short = rules.players[0] - len(humans) - len(bots)
        if short > 0:
            bots += [available_bot()] * short
    if not humans and not bots:
        raise UsageError("nobody to play: name people with --humans or bots with --bots")
    return humans, bots


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    humans, bots = seats_wanted(args, rules)
    game = Game(rules, players=len(humans) + len(bots), seed=args.seed)
    seats = seat_table(humans, bots, game.seed)
    bot_objects = build_bots(seats, rules)
    save = Path(args.save) if args.save else None
    if save is not None:
        check_save_target(save)
    console = console_for(args)
    if args.bots is None and bots and bots[0] != PREFERRED_BOT:
        console.say(f"(the {PREFERRED_BOT} bot is not installed; playing against "
                    f"{bots[0]} bots)")
    options = Options(delay_for(args, console), args.show_peeks, save)
    code = Session(game, seats, bot_objects, console, options).run()
    while code == 0 and game.is_over and humans and again(console):
        # The same table, a new deal: a new seed, the bots reseeded from it.
        game = Game(rules, players=len(seats), seed=None)
        seats = seat_table(humans, bots, game.seed)
        save = None
        console = console_for(args)
        options = Options(options.delay, options.show_peeks, None)
        code = Session(game, seats, build_bots(seats, rules), console, options).run()
    return code


def again(console: Console) -> bool:
    """Ask whether to play another match (only a person at a terminal is asked)."""
    if not console.input_is_terminal:
        return False
    answer = Console(console.stdin, console.stdout, console.style).ask(
        "Play again with the same players? [y/N] ")
    return answer is not None and answer.strip().lower() in ("y", "yes")
