"""``golf score``: the score calculator for a grid of real cards."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..scoring import parse_grid, scorer
from ._common import add_rule_options, rules_from_args


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score", help="score a grid of cards and explain it",
        description="Score a face-up grid under a variant's rules and explain which cards "
        "cancelled and why. GRID lists rows separated by '/', cards by spaces: ranks "
        "A 2 3 4 5 6 7 8 9 10 J Q K (T for 10), an optional suit letter S H D C, JK for a joker.",
        epilog='example: golf score --variant six-card "A 2 3 / A 5 K"',
    )
    p.add_argument("grid", help='the grid, e.g. "A 2 3 / A 5 K"')
    add_rule_options(p)
    p.add_argument("--json", action="store_true", help="print a JSON object (field 'score')")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    s = scorer(rules).score(parse_grid(args.grid, rules))
    if args.json:
        print(json.dumps({"variant": rules.name, **s.to_dict()}, indent=2))
    else:
        print(s.explain())
    return 0
