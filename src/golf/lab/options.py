"""Which options a sweep tries, and which house-rule values the effects table measures.

* :func:`preset_options`: every setting value some shipped preset uses that differs from
  the variant's, where it applies to the variant's grid (the grid, player range and deck
  counts stay the variant's): "the options of the presets". A value that cannot be
  played alone (``jokers_wild`` without jokers) brings the companion settings the error
  names, from the preset it came from; one that still cannot be played is skipped.
* :func:`house_options`: for the browser's table creation, each setting of
  :func:`golf.rules.setting_schema` with the alternative values a player would try: the
  other value of a switch, every other choice, each pattern added or removed, a few
  numbers (18 holes, a target of 100, one more card turned up, jokers, a second deck).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from ..rules import (
    load_rules,
    parse_rule_option,
    preset_names,
    raw_settings,
    setting_schema,
)

#: Settings that define the variant's shape, not a house rule to sweep.
STRUCTURAL = ("name", "description", "sources", "players", "rows", "cols", "decks",
              "turn_limit")

Option = dict[str, Any]


def label(option: Option) -> str:
    """``knock=true, final_turns=false``: an option as the command line writes it."""
    def text(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list | tuple):
            return "[" + ",".join(str(x) for x in v) + "]"
        return str(v)
    return ", ".join(f"{k}={text(v)}" for k, v in option.items())


def toml_value(v: Any) -> str:
    """``v`` written as TOML, the language of ``--rule KEY=VALUE`` values and rules
    files: ``true``, ``18``, ``"peek"``, ``["columns","blocks"]``, ``{1=1,4=2}``.

    >>> toml_value({"1": 1, "4": 2}), toml_value(["rows"]), toml_value(False)
    ('{1=1,4=2}', '["rows"]', 'false')
    """
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string
    if isinstance(v, Mapping):
        return "{" + ",".join(f"{_toml_key(str(k))}={toml_value(x)}"
                              for k, x in v.items()) + "}"
    if isinstance(v, list | tuple):
        return "[" + ",".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")


def _toml_key(k: str) -> str:
    return k if k and all(c.isascii() and (c.isalnum() or c in "-_") for c in k) \
        else json.dumps(k, ensure_ascii=False)


def rule_text(key: str, value: Any) -> str:
    """``KEY=VALUE`` as ``--rule`` reads it (:func:`golf.rules.parse_rule_option`), so
    that it reads back as the same value: ``knock=true``, ``setup=peek`` (a word needs no
    quotes there), ``decks={1=1,4=2}``, ``match=["columns","blocks"]``.

    >>> rule_text("knock", True), rule_text("setup", "peek"), rule_text("points.2", 2)
    ('knock=true', 'setup=peek', 'points.2=2')
    """
    text = f"{key}={toml_value(value)}"
    if isinstance(value, str) and value and not any(c.isspace() for c in value):
        bare = f"{key}={value}"
        if parse_rule_option(bare) == (key, value):
            return bare
    return text


def playable(variant: str, option: Option) -> str | None:
    """None if ``variant`` with ``option`` is a valid ruleset, else why not."""
    try:
        load_rules(variant, option)
    except RulesError as e:
        return str(e)
    return None


def _flat(raw: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in raw.items() if k not in STRUCTURAL and k != "points"}
    for rank, p in (raw.get("points") or {}).items():
        out[f"points.{rank}"] = p
    return out


def _with_companions(variant: str, option: Option, source: dict[str, Any]) -> Option | None:
    for _ in range(3):
        try:
            load_rules(variant, option)
            return option
        except RulesError as e:
            keys = [k for k in (e.params or {}).get("keys", []) if k in source
                    and k not in option and k not in STRUCTURAL]
            if not keys:
                return None
            option = {**option, **{k: source[k] for k in keys}}
    return None


def preset_options(variant: str) -> list[Option]:
    """The sweep's options for ``variant``: each value another preset uses, one at a time."""
    mine = _flat(raw_settings(variant))
    mine.setdefault("points.JK", load_rules(variant).points[14])
    seen: list[Option] = []
    for name in preset_names():
        if name == variant:
            continue
        other = _flat(raw_settings(name))
        for key, value in other.items():
            if mine.get(key) == value:
                continue
            option = _with_companions(variant, {key: value}, other)
            if option is not None and option not in seen:
                seen.append(option)
    return seen


def house_options(variant: str) -> dict[str, list[Option]]:
    """Per setting the browser offers, the alternative values the effects table measures
    (only those playable with ``variant``; companions as in :func:`preset_options`)."""
    rules = load_rules(variant)
    cur = rules.to_dict()
    out: dict[str, list[Option]] = {}
    for key, spec in setting_schema().items():
        if key in STRUCTURAL:
            continue
        tries: list[Option] = []
        kind = spec["type"]
        if kind == "bool":
            tries = [{key: not cur[key]}]
        elif kind == "choice":
            tries = [{key: c} for c in spec["choices"] if c != cur[key]]
        elif kind == "patterns":
            have = list(cur[key])
            for p in spec["choices"]:
                tries.append({key: [x for x in have if x != p] if p in have else [*have, p]})
        elif kind == "points":
            pts = cur["points"]
            tries = [{"points.2": 2 if pts["2"] < 0 else -2},
                     {"points.K": 10 if pts["K"] == 0 else 0}]
        elif key == "holes":
            tries = [{"holes": 18}] if cur["holes"] != 18 else [{"holes": 9}]
        elif key == "target":
            tries = [{"target": 100, "holes": 0}] if not cur["target"] else [{"target": 0}]
        elif key == "setup_count":
            tries = [{"setup_count": cur["setup_count"] + d} for d in (-1, 1)
                     if cur["setup_count"] + d >= 0]
        elif key == "jokers_per_deck":
            tries = [{"jokers_per_deck": 0 if cur[key] else 2}]
        elif key == "block_points" and "blocks" in cur["match"]:
            tries = [{"block_points": 0}]
        fallback = {"jokers_per_deck": 2, "knock": True, "holes": 9}
        good = []
        for t in tries:
            o = _with_companions(variant, t, {**cur, **fallback, **{
                k: v for k, v in t.items()}})
            if o is not None and o not in good:
                good.append(o)
        if good:
            out[key] = good
    return out
