"""``golf demo``: random players play one full match, printed turn by turn."""

from __future__ import annotations

import argparse
import random
from typing import Any

from ..cards import card_str
from ..game import Game
from ..rules import default_players
from ..table import PersonSeat, Table
from ._common import add_rule_options, rules_from_args


def register(sub: Any) -> None:
    p = sub.add_parser(
        "demo", help="watch random players play one match",
        description="Random players play one whole match; every action is printed with the "
        "scores of each hole.",
    )
    add_rule_options(p)
    p.add_argument("--players", "-p", type=int, default=None,
                   help="number of players (default: the variant's smallest count, at least 2)")
    p.add_argument("--seed", "-s", type=int, default=None, help="seed of the deal and the players")
    p.set_defaults(func=run)


def _grid(g: Game, seat: int) -> str:
    v = g.view(seat)
    cells = ["??" if c is None else c for c in v["grids"][seat]]
    cols = g.rules.cols
    return " / ".join(" ".join(f"{c:>3}" for c in cells[i:i + cols])
                      for i in range(0, len(cells), cols))


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = default_players(rules) if args.players is None else args.players
    g = Game(rules, players=players, seed=args.seed)
    rng = random.Random(g.seed)
    # Every seat is a "person" answering at random, through the one table driver.
    table = Table(g, [PersonSeat(lambda view, legal: rng.choice(legal))] * g.players)
    noun = "random player" if g.players == 1 else "random players"
    print(f"{rules.name}, {g.players} {noun}, seed {g.seed}")
    while not g.is_over:
        if not g.history or g.ended_hole:  # a hole was just dealt
            tag = " (playoff)" if g.is_playoff else ""
            print(f"\n== hole {g.hole}{tag}: dealer is player {g.dealer + 1} ==")
        seat = g.current_player
        assert seat is not None
        top = g.view(seat)["discard_top"]
        action = table.step().action
        line = f"player {seat + 1}: {action}"
        if action.kind in ("take",):
            line += f" ({top})"
        print(line)
        if g.ended_hole:
            last = g.hole_results[-1]
            for s, grid in enumerate(last.grids):
                if grid:
                    cards = " ".join(card_str(c, suits=False) for c in grid)
                    print(f"  player {s + 1}: {cards:<30} scores {last.scores[s]}")
            print(f"  totals: {', '.join(str(t) for t in g.totals)}")
        elif g.phase == "turn" and g.current_player != seat:
            print(f"  player {seat + 1}'s grid: {_grid(g, seat)}")
    names = ", ".join(f"player {w + 1}" for w in g.winners)
    print(f"\nwinner{'s' if len(g.winners) > 1 else ''}: {names} with {min(g.totals)}")
    return 0
