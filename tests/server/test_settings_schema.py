"""``golf.rules.setting_schema()`` (served as ``GET /api/presets``'s ``settings``) against
the engine's own validation: what it allows passes the setting's check, what it excludes
is refused by it."""

from __future__ import annotations

from typing import Any

import pytest

from golf import GolfError, load_rules, preset_names
from golf.rules import SETTINGS, setting_schema

SCHEMA = setting_schema()
LABELS = {"name", "description", "sources"}


def refusal(key: str, value: Any) -> str:
    """The engine's message for ``key = value`` on six-card ('' if accepted)."""
    try:
        load_rules("six-card", {key: value})
    except GolfError as e:
        return str(e)
    return ""


def test_every_playing_setting_is_described() -> None:
    assert set(SCHEMA) == set(SETTINGS) - LABELS
    assert all("type" in s and "default" in s for s in SCHEMA.values())


@pytest.mark.parametrize("key", [k for k, s in SCHEMA.items() if s["type"] == "int"])
def test_integer_ranges_are_the_validators(key: str) -> None:
    lo, hi = SCHEMA[key]["min"], SCHEMA[key]["max"]
    for inside in (lo, hi):
        # A combination may still be refused (8 rows of 3 cells), but not for the range.
        assert "must be between" not in refusal(key, inside), (key, inside)
    for outside in (lo - 1, hi + 1):
        assert f"must be between {lo} and {hi}" in refusal(key, outside), (key, outside)


@pytest.mark.parametrize("key", [k for k, s in SCHEMA.items() if s["type"] == "choice"])
def test_choices_are_the_validators(key: str) -> None:
    for choice in SCHEMA[key]["choices"]:
        assert "must be one of" not in refusal(key, choice), (key, choice)
    assert "must be one of" in refusal(key, "no-such-choice")


def test_patterns_points_players_decks() -> None:
    for pattern in SCHEMA["match"]["choices"]:
        # Some need a grid shape (diagonals: square), never an unknown name.
        assert "unknown pattern" not in refusal("match", [pattern]), pattern
    assert "unknown pattern" in refusal("match", ["columns", "zigzag"])
    pts = SCHEMA["points"]
    assert refusal("points", {r: pts["max"] for r in pts["ranks"]}) == ""
    assert refusal("points", {pts["ranks"][0]: pts["min"]}) == ""
    assert "must be between" in refusal("points", {"K": pts["max"] + 1})
    assert "unknown rank" in refusal("points", {"Z": 1})
    pl = SCHEMA["players"]
    assert "must be between" in refusal("players", [pl["min"] - 1, 4])
    assert "must be between" in refusal("players", [2, pl["max"] + 1])
    d = SCHEMA["decks"]
    assert refusal("decks", d["max"]) == ""
    assert "must be between" in refusal("decks", d["max"] + 1)
    assert refusal("decks", {str(d["players_min"]): 1, "4": 2}) == ""
    assert "must be between" in refusal("decks", {str(d["players_max"] + 1): 1})


def conforms(kind: dict[str, Any], value: Any) -> bool:
    t = kind["type"]
    if t == "int":
        return type(value) is int and kind["min"] <= value <= kind["max"]
    if t == "bool":
        return type(value) is bool
    if t == "choice":
        return value in kind["choices"]
    if t == "patterns":
        return isinstance(value, list) and set(value) <= set(kind["choices"])
    if t == "points":
        return set(value) <= set(kind["ranks"]) and \
            all(kind["min"] <= p <= kind["max"] for p in value.values())
    if t == "players":
        return len(value) == 2 and all(kind["min"] <= n <= kind["max"] for n in value)
    if t == "decks":
        return all(kind["players_min"] <= int(a) <= kind["players_max"]
                   and kind["min"] <= b <= kind["max"] for a, b in value.items())
    raise AssertionError(f"unknown type {t}")


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_value_fits_its_schema(preset: str) -> None:
    settings = load_rules(preset).to_dict()
    for key, kind in SCHEMA.items():
        assert conforms(kind, settings[key]), (preset, key, settings[key])
        assert conforms(kind, kind["default"]), (key, kind["default"])
