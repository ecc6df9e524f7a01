"""Helpers shared by subcommands: rule options and variant loading."""

from __future__ import annotations

import argparse
import difflib
from typing import Any

from ..errors import RulesError
from ..rules import Rules, load_rules, parse_rule_option, preset_names


def add_rule_options(p: argparse.ArgumentParser, default_variant: str | None = "six-card") -> None:
    p.add_argument(
        "--variant", "-v", default=default_variant, metavar="NAME",
        help="preset name or path to a .toml rules file (see 'golf variants'); "
        f"default {default_variant}",
    )
    p.add_argument(
        "--rule", "-r", action="append", default=[], metavar="KEY=VALUE",
        help="override one setting, e.g. --rule holes=18 --rule points.2=2 "
        "--rule 'match=[\"columns\",\"rows\"]' (repeatable; see 'golf variants show NAME')",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    overrides: dict[str, Any] = {}
    for text in args.rule:
        key, value = parse_rule_option(text)
        if key.startswith("points."):
            overrides.setdefault("points", {})[key.split(".", 1)[1]] = value
        else:
            overrides[key] = value
    try:
        return load_rules(args.variant, overrides or None)
    except RulesError as e:
        guess = difflib.get_close_matches(str(args.variant), preset_names(), n=1)
        if str(e).startswith("unknown variant") and guess:
            raise RulesError(f"{e} (did you mean {guess[0]!r}?)") from None
        raise

