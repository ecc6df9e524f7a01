"""``golf replay``: step through a saved or finished game."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..table import read_save
from ..terminal.replay import replay, seat_named
from .play import add_display_options, console_for


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="step through a saved or finished game",
        description="Show a game saved with 'golf play --save FILE' (or a bare game record) "
        "turn by turn, as the table saw it: press Enter for the next turn, b to go back one, "
        "h N to jump to hole N, s NAME to see a player's private cards (s alone: the "
        "table's view again), a for all the rest, q to stop. With --all, or when the input "
        "is not a terminal, everything is printed at once.",
    )
    p.add_argument("file", help="the save file or game record")
    p.add_argument("--all", action="store_true", help="print the whole game without stopping")
    p.add_argument("--seat", default=None, metavar="NAME",
                   help="show one player's private cards too (a name, or a seat number "
                   "from 1)")
    add_display_options(p, delay=False)
    p.set_defaults(func=run)


def _seat(text: str | None, names: list[str]) -> int | None:
    if text is None:
        return None
    seat = seat_named(text, names)
    if seat is None:
        raise UsageError(f"--seat {text!r} is not a player; players are "
                         f"{', '.join(names)} (or seat numbers 1 to {len(names)})")
    return seat


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    saved = read_save(path)
    seat = _seat(args.seat, [s.name for s in saved.seats])
    if args.all:  # printed at once: lines, not a screen that would vanish at the end
        args.plain = True
    return replay(saved, console_for(args), args.all, seat, source=str(path))
