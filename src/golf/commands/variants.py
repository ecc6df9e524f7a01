"""``golf variants``: the presets, and every setting of one with its source."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from ..rules import (
    CHOICES,
    SETTINGS,
    Rules,
    choice_words,
    describe_points,
    load_rules,
    preset_names,
    setting_words,
)
from ..terminal.summary import for_players, rules_summary


def register(sub: Any) -> None:
    p = sub.add_parser(
        "variants", help="list the rule presets, or show one in full",
        description="List the presets (a table, or JSON with --json). "
        "'golf variants show NAME' explains one preset: its rules in a dozen lines and the "
        "settings that matter for it, each named in words (--sources: every setting and where "
        "it comes from).",
    )
    p.add_argument("action", nargs="?", choices=["show"], help="show one preset in full")
    p.add_argument("name", nargs="?", help="preset name or .toml path (with 'show')")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--sources", action="store_true",
                   help="with 'show': every setting, each with the rule of the source text "
                   "it comes from")
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
        return _show(args.name, args.json, args.sources)
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
              f"{for_players(row['description'])}")
    print("\n'golf variants show NAME' lists every setting of a preset.")
    return 0


#: Settings that matter only with another one: the setting, and when it matters.
_ONLY_IF: dict[str, Callable[[Rules], bool]] = {
    "jokers_wild": lambda r: r.jokers_per_deck > 0,
    "block_points": lambda r: "blocks" in r.match,
    "block_match_by": lambda r: "blocks" in r.match,
    "match_by": lambda r: any(p != "blocks" for p in r.match),  # blocks: block_match_by
    "setup_cells": lambda r: r.setup_count > 0,
    "knock_first_turn": lambda r: r.knock,
    "final_turns": lambda r: r.end_on_complete == "first",
    "target_ends": lambda r: r.target > 0,
    "holes": lambda r: r.holes > 0,
    "target": lambda r: r.target > 0,
    "turn_limit": lambda r: False,  # the engine's safety net, not a rule of play
}


def relevant(r: Rules) -> list[str]:
    """The settings that change how this preset plays, in the order of SETTINGS.

    >>> "block_points" in relevant(load_rules("six-card"))
    False
    >>> "knock_first_turn" in relevant(load_rules("six-card-knock"))
    True
    """
    return [k for k in SETTINGS if k not in ("name", "description", "sources")
            and (k not in _ONLY_IF or _ONLY_IF[k](r))]


def _value(r: Rules, key: str, data: dict[str, Any]) -> str:
    value = data[key]
    if key == "points":
        return describe_points(r)
    if key == "players":
        return f"{value[0]} to {value[1]}"
    if key == "decks":
        return ", ".join(f"{n} for {p}+ players" for p, n in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def meaning(r: Rules, key: str) -> str:
    """What setting ``key`` is called, and for a choice what its value is called, in the
    words the web lobby shows too.

    >>> meaning(load_rules("german"), "setup")
    'At the start of a hole: looked at in secret'
    >>> meaning(load_rules("six-card"), "holes")
    'Holes'
    """
    name = setting_words(key).name
    value = getattr(r, key)
    if key == "match":
        return f"{name}: " + (", ".join(choice_words(key, p).name for p in value) or "nothing")
    if key in CHOICES:
        return f"{name}: {choice_words(key, value).name}"
    return name


def _show(name: str, as_json: bool, sources: bool = False) -> int:
    r = load_rules(name)
    data = r.to_dict()
    if as_json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{r.name}: {for_players(r.description)}\n" if r.description else f"{r.name}\n")
    lo = r.players[0]
    print("\n".join(rules_summary(r, max(2, lo) if r.players[1] >= 2 else lo)
                    .splitlines()[2:]))
    keys = [k for k in SETTINGS if k not in ("name", "description", "sources")] if sources \
        else relevant(r)
    width = max(len(k) for k in keys)
    print("\nSettings (change one with --rule KEY=VALUE):")
    values = {key: _value(r, key, data) for key in keys}
    # Short values line up; a long one (the points table) pushes its own line's words out.
    value_width = max((len(v) for v in values.values() if len(v) <= 16), default=0)
    for key in keys:
        print(f"  {key:<{width}}  {values[key]:<{value_width}}  ({meaning(r, key)})")
        src = r.source(key)
        if sources and src:
            print(f"  {'':<{width}}    from: {src}")
    if not sources:
        print(f"\n'golf variants show {name} --sources' lists every setting and the rule of "
              "the source text it comes from.")
    return 0
