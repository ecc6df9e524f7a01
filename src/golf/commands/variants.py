"""``golf variants``: the presets, and every setting of one with its source."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..rules import SETTINGS, describe_points, load_rules, preset_names


def register(sub: Any) -> None:
    p = sub.add_parser(
        "variants", help="list the rule presets, or show one in full",
        description="List the presets (a table, or JSON with --json). "
        "'golf variants show NAME' prints every setting of one preset and the rule of the "
        "source text it comes from.",
    )
    p.add_argument("action", nargs="?", choices=["show"], help="show one preset in full")
    p.add_argument("name", nargs="?", help="preset name or .toml path (with 'show')")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _summary(name: str) -> dict[str, Any]:
    r = load_rules(name)
    return {
        "name": r.name,
        "players": list(r.players),
        "grid": f"{r.rows}x{r.cols}",
        "holes": r.holes,
        "target": r.target,
        "description": r.description,
    }


def run(args: argparse.Namespace) -> int:
    if args.action == "show":
        if not args.name:
            from ..errors import RulesError

            raise RulesError("'golf variants show' needs a preset name, e.g. six-card")
        return _show(args.name, args.json)
    rows = [_summary(n) for n in preset_names()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'name':<16}{'players':<9}{'grid':<6}{'match end':<22}description")
    for row in rows:
        lo, hi = row["players"]
        end = []
        if row["holes"]:
            end.append(f"{row['holes']} holes")
        if row["target"]:
            end.append(f"target {row['target']}")
        print(f"{row['name']:<16}{f'{lo}-{hi}':<9}{row['grid']:<6}{' / '.join(end):<22}"
              f"{row['description']}")
    print("\n'golf variants show NAME' lists every setting of a preset.")
    return 0


def _show(name: str, as_json: bool) -> int:
    r = load_rules(name)
    data = r.to_dict()
    if as_json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{r.name}: {r.description}\n")
    width = max(len(k) for k in SETTINGS)
    for key in SETTINGS:
        if key in ("name", "description", "sources"):
            continue
        value = describe_points(r) if key == "points" else json.dumps(data[key])
        print(f"{key:<{width}}  {value}")
        src = r.source(key)
        if src:
            print(f"{'':<{width}}    from: {src}")
    return 0
