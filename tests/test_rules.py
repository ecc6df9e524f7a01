"""Rule settings: presets, files with ``extends``, overrides, dotted keys and validation."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path
from typing import Any

import pytest

import golf
from golf.rules import (
    SETTINGS,
    Rules,
    load_rules,
    parse_rule_option,
    preset_names,
    rules_from_dict,
)

PRESETS = ["four-card", "four-card-wild", "german", "nine-card", "six-card", "six-card-knock"]


def test_the_six_presets_are_shipped() -> None:
    assert preset_names() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_loads_and_round_trips_through_its_dict(name: str) -> None:
    r = load_rules(name)
    assert r.name == name and r.description
    assert rules_from_dict(r.to_dict()) == r
    assert load_rules(r) is r
    # Every setting a preset sets explicitly says which rule of which text it comes from
    # (the table is what 'golf variants show' prints).
    assert r.source("rows") and r.source("players")


@pytest.mark.parametrize("name", PRESETS)
def test_every_player_count_of_a_preset_gets_enough_cards(name: str) -> None:
    r = load_rules(name)
    lo, hi = r.players
    for n in range(lo, hi + 1):
        assert r.deck_size(n) >= n * r.cells + 1
        g = golf.Game(name, players=n, seed=0)
        assert len(g.census()) == r.deck_size(n)


def test_presets_extend_six_card() -> None:
    six = load_rules("six-card")
    knock = load_rules("six-card-knock")
    # Everything six-card-knock does not set comes from six-card.
    for key in ("rows", "cols", "decks", "points", "match", "holes", "flip_after_discard"):
        assert getattr(knock, key) == getattr(six, key), key
    assert knock.knock and not six.knock


def test_overrides_apply_on_top_of_a_preset() -> None:
    r = load_rules("six-card", {"holes": 18, "final_turns": False})
    assert (r.holes, r.final_turns) == (18, False)
    assert r.rows == 2 and r.name == "six-card"
    g = golf.Game("six-card", rules={"holes": 18})
    assert g.rules.holes == 18
    assert load_rules("six-card").holes == 9  # the cached preset is untouched


def test_points_override_merges_by_rank() -> None:
    r = load_rules("german", {"points": {"2": -2}})
    assert r.points[2] == -2 and r.points[1] == 1 and r.points[13] == 0
    t = load_rules("six-card", {"points": {"T": 0, "q": 3}})
    assert t.points[10] == 0 and t.points[12] == 3 and t.points[11] == 10


def test_dotted_points_keys() -> None:
    r = load_rules("german", {"points.2": -2, "points.K": 5})
    assert r.points[2] == -2 and r.points[13] == 5
    with pytest.raises(golf.RulesError, match=r"only 'points\.RANK' may be dotted"):
        load_rules("six-card", {"match.rows": True})
    with pytest.raises(golf.RulesError, match="unknown rank 'Z'"):
        load_rules("six-card", {"points.Z": 1})


def test_rules_file_with_extends(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "six-card"\nholes = 4\nmatch = ["columns", "rows"]\n'
                 '[points]\nK = -1\n', encoding="utf-8")
    r = load_rules(f)
    assert r.name == "house"  # a file without a name is named after itself
    assert (r.holes, r.match, r.points[13], r.points[2]) == (4, ("columns", "rows"), -1, -2)
    assert load_rules(str(f)) == r
    g = golf.Game(str(f), players=2, seed=1, rules={"holes": 2})
    assert g.rules.holes == 2 and g.rules.match == ("columns", "rows")


def test_rules_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("holes = = 3\n", encoding="utf-8")
    with pytest.raises(golf.RulesError, match="not valid TOML"):
        load_rules(bad)
    with pytest.raises(golf.RulesError, match="cannot read rules file"):
        load_rules(tmp_path / "missing.toml")
    parent = tmp_path / "parent.toml"
    parent.write_text('extends = "no-such-preset"\n', encoding="utf-8")
    with pytest.raises(golf.RulesError, match="unknown variant 'no-such-preset'"):
        load_rules(parent)
    typed = tmp_path / "typed.toml"
    typed.write_text("extends = 3\n", encoding="utf-8")
    with pytest.raises(golf.RulesError, match="'extends' must name a preset"):
        load_rules(typed)


def test_unknown_variant_lists_the_presets() -> None:
    with pytest.raises(golf.RulesError) as e:
        golf.Game("seven-card")
    assert "unknown variant 'seven-card'" in str(e.value)
    for name in PRESETS:
        assert name in str(e.value)


@pytest.mark.parametrize(
    "key, suggestion", [("hole", "holes"), ("jokers", "jokers_wild"), ("reshufle", "reshuffle"),
                        ("knock_first", "knock_first_turn")],
)
def test_unknown_key_is_named_with_a_suggestion(key: str, suggestion: str) -> None:
    with pytest.raises(golf.RulesError) as e:
        load_rules("six-card", {key: 1})
    msg = str(e.value)
    assert f"unknown setting '{key}'" in msg
    assert f"did you mean '{suggestion}'" in msg
    assert "settings are:" in msg and "holes" in msg


def test_unknown_key_without_a_close_match_still_lists_settings() -> None:
    with pytest.raises(golf.RulesError) as e:
        load_rules("six-card", {"zzzzzz": 1})
    assert "did you mean" not in str(e.value)
    assert all(k in str(e.value) for k in SETTINGS)


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"holes": "9"}, "setting 'holes' must be an integer, got '9'"),
        ({"holes": True}, "setting 'holes' must be an integer"),
        ({"holes": -1}, "setting 'holes' must be between 0 and 1000"),
        ({"knock": "yes"}, "setting 'knock' must be true or false, got 'yes'"),
        ({"knock": 1}, "setting 'knock' must be true or false"),
        ({"setup": "look"}, "setting 'setup' must be one of 'reveal', 'peek', got 'look'"),
        ({"flip_after_discard": "maybe"}, "'must', 'may', 'never'"),
        ({"target_ends": "pass"}, "'exceed', 'reach'"),
        ({"tie_break": "coin"}, "'share', 'playoff'"),
        ({"match_by": "suit"}, "'rank', 'points'"),
        ({"match": ["cols"]}, "unknown pattern 'cols'; patterns are columns, rows"),
        ({"match": 3}, "setting 'match' must be a list"),
        ({"players": [4, 2]}, "min <= max"),
        ({"players": "2-4"}, "setting 'players' must be [min, max]"),
        ({"players": [0, 4]}, "setting 'players' must be between 1 and 64"),
        ({"decks": "two"}, "setting 'decks' must be a number of decks or a table"),
        ({"decks": {"x": 1}}, "keys are player counts"),
        ({"decks": 0}, "setting 'decks' must be between 1 and 16"),
        ({"points": [1, 2]}, "setting 'points' must be a table"),
        ({"points": {"B": 1}}, "unknown rank 'B'"),
        ({"points": {"A": "one"}}, "setting 'points.A' must be an integer"),
        ({"rows": 0}, "setting 'rows' must be between 1 and 8"),
        ({"name": 5}, "setting 'name' must be a string"),
        ({"sources": 5}, "'sources' must be a table"),
    ],
)
def test_wrong_types_and_values_name_the_key_and_what_is_allowed(
    override: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(golf.RulesError) as e:
        load_rules("six-card", override)
    assert fragment in str(e.value)


@pytest.mark.parametrize(
    "variant, override, fragment",
    [
        # The first player count that does not fit is named: 9 x 6 + 1 = 55 > 52.
        ("six-card", {"players": [2, 9], "decks": 1}, "9 players need 55 cards"),
        ("nine-card", {"decks": 1}, "6 players need 55 cards"),
        ("six-card", {"rows": 4, "cols": 4, "decks": 1}, "4 players need 65 cards"),
        ("six-card", {"setup_count": 7}, "'setup_count' is 7 but the grid has only 6 cells"),
        ("six-card", {"setup_cells": "bottom-row", "setup_count": 4},
         "'setup_count' is 4 but the bottom row has only 3 cells"),
        ("six-card", {"end_on_complete": "never"}, "'end_on_complete' = 'never' needs 'knock'"),
        ("six-card", {"holes": 0}, "'holes' and 'target' are both 0"),
        ("german", {"target": 0}, "'holes' and 'target' are both 0"),
        ("six-card", {"match": ["diagonals"]}, "'diagonals' needs a square grid"),
        ("six-card", {"rows": 1, "match": ["blocks"]}, "'blocks' needs at least 2 rows"),
        ("six-card", {"jokers_wild": True}, "'jokers_wild' = true needs 'jokers_per_deck' > 0"),
        ("six-card", {"rows": 4, "cols": 5, "decks": 8}, "at most 16 are supported"),
    ],
)
def test_impossible_combinations_are_rejected(
    variant: str, override: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(golf.RulesError) as e:
        load_rules(variant, override)
    assert fragment in str(e.value)


def test_the_same_combinations_are_fine_when_fixed() -> None:
    assert load_rules("six-card", {"players": [2, 9], "decks": {1: 1, 4: 2}}).players == (2, 9)
    assert load_rules("six-card", {"end_on_complete": "never", "knock": True}).knock
    assert load_rules("six-card", {"holes": 0, "target": 100}).target == 100
    assert load_rules("six-card", {"setup_count": 6}).setup_count == 6
    assert load_rules("nine-card", {"match": ["diagonals", "blocks"]}).match == (
        "diagonals", "blocks")


@pytest.mark.parametrize("name, bad", [("six-card", 1), ("six-card", 9), ("four-card", 2),
                                       ("four-card", 8), ("german", 7), ("nine-card", 0),
                                       ("four-card-wild", 9), ("six-card-knock", 1)])
def test_player_count_outside_the_range_is_refused(name: str, bad: int) -> None:
    lo, hi = load_rules(name).players
    with pytest.raises(golf.RulesError) as e:
        golf.Game(name, players=bad)
    assert f"{name} is for {lo} to {hi} players, not {bad}" in str(e.value)


def test_player_count_must_be_an_int() -> None:
    with pytest.raises(golf.RulesError, match="not '3'"):
        golf.Game("six-card", players="3")  # type: ignore[arg-type]
    with pytest.raises(golf.RulesError, match="not True"):
        golf.Game("six-card", players=True)


def test_decks_by_player_count() -> None:
    r = load_rules("six-card")
    assert [r.decks_for(n) for n in range(2, 9)] == [1, 1, 2, 2, 2, 2, 2]
    wild = load_rules("four-card-wild")
    assert [wild.decks_for(n) for n in range(2, 9)] == [1, 1, 1, 1, 2, 2, 2]
    assert load_rules("six-card", {"decks": 3}).decks_for(2) == 3
    assert load_rules("six-card", {"decks": [[1, 1], [3, 2]]}).decks_for(3) == 2


def test_setup_positions() -> None:
    assert load_rules("german").setup_positions() == (0, 1, 2, 3, 4, 5)
    assert load_rules("german", {"setup_cells": "bottom-row"}).setup_positions() == (3, 4, 5)
    assert load_rules("nine-card", {"setup_cells": "bottom-row"}).setup_positions() == (6, 7, 8)


def test_rules_objects_compare_by_settings_not_sources() -> None:
    a = load_rules("six-card")
    b = rules_from_dict({**a.to_dict(), "sources": {}})
    assert a == b
    assert a != load_rules("six-card", {"holes": 18})
    assert Rules().rows == 2  # the bare defaults build a playable six-card grid


def test_parse_rule_option() -> None:
    assert parse_rule_option("holes=18") == ("holes", 18)
    assert parse_rule_option("knock = true") == ("knock", True)
    assert parse_rule_option('match=["columns","rows"]') == ("match", ["columns", "rows"])
    assert parse_rule_option("setup=peek") == ("setup", "peek")
    assert parse_rule_option("points.2=-2") == ("points.2", -2)
    with pytest.raises(golf.RulesError, match="must look like KEY=VALUE"):
        parse_rule_option("holes")
    with pytest.raises(golf.RulesError, match="has no key"):
        parse_rule_option("=3")


def test_a_bad_override_leaves_no_trace_in_the_preset() -> None:
    before = load_rules("six-card")
    with pytest.raises(golf.RulesError):
        load_rules("six-card", {"holes": "x"})
    assert load_rules("six-card") == before


# --- docs/rules.md stays true to the code and the tests --------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_rules_doc_points_only_at_existing_tests() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    refs = re.findall(r"(tests/test_\w+\.py)::(test_\w+)", doc)
    assert len(refs) > 80
    cache: dict[str, set[str]] = {}
    missing = []
    for file, name in refs:
        names = cache.setdefault(file, _test_names(ROOT / file))
        if name not in names:
            missing.append(f"{file}::{name}")
    assert missing == []


def test_rules_doc_covers_every_preset_and_setting() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"\n## {name}\n" in doc
    settings = doc.split("\n## Settings\n", 1)[1].split("\n## Decisions\n", 1)[0]
    for key in SETTINGS:
        assert f"`{key}`" in settings, key
    assert "\n## Decisions\n" in doc


# --- choice settings are typed --------------------------------------------------------------

def test_every_choice_setting_is_a_literal_type_listing_exactly_its_values() -> None:
    # A typo in a comparison (rules.replace == "face-dwon") then fails mypy --strict,
    # and the values validation allows are the values the type allows.
    hints = typing.get_type_hints(Rules)
    choices = golf.rules._CHOICES
    for key, allowed in choices.items():
        assert typing.get_origin(hints[key]) is typing.Literal, key
        assert typing.get_args(hints[key]) == allowed, key
        with pytest.raises(golf.RulesError) as e:
            load_rules("six-card", {key: "no-such-value"})
        assert ", ".join(repr(a) for a in allowed) in str(e.value)
    (pattern,) = typing.get_args(hints["match"])[:1]
    assert typing.get_args(pattern) == golf.rules.PATTERNS
    # Every setting that is a string but not free text is a choice.
    text = {k for k, h in hints.items() if h is str}
    assert text == {"name", "description"}


# --- built rules are cached -----------------------------------------------------------------

def test_a_preset_with_overrides_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    a = load_rules("six-card", {"holes": 1})
    assert load_rules("six-card", {"holes": 1}) is a
    assert load_rules("six-card", {"holes": 2}) is not a
    assert golf.Game("six-card", players=2, seed=3, rules={"holes": 1}).rules is a
    # Presets are parsed once: new overrides need no file.
    for name in PRESETS:
        load_rules(name)
    reads: list[str] = []
    real = golf.rules._read_toml
    monkeypatch.setattr(golf.rules, "_read_toml", lambda text, where: reads.append(where)
                        or real(text, where))
    load_rules("six-card-knock", {"holes": 7, "points.2": 5})
    load_rules("german", {"target": 50})
    assert reads == []


def test_the_cache_keeps_values_of_different_types_apart() -> None:
    # True == 1 in Python, but only 1 is a valid 'holes'; 1.0 is not an integer.
    assert load_rules("six-card", {"holes": 1}).holes == 1
    for bad in (True, 1.0):
        with pytest.raises(golf.RulesError, match="setting 'holes' must be an integer"):
            load_rules("six-card", {"holes": bad})
    assert load_rules("six-card", {"knock": True}).knock
    with pytest.raises(golf.RulesError, match="must be true or false"):
        load_rules("six-card", {"knock": 1})
    # Override order matters (a later key overwrites an earlier one), so it is kept.
    a = load_rules("six-card", {"points.2": 5, "points": {"2": 7}})
    b = load_rules("six-card", {"points": {"2": 7}, "points.2": 5})
    assert (a.points[2], b.points[2]) == (7, 5)


def test_validation_errors_are_the_same_every_time() -> None:
    for override in ({"holes": "x"}, {"hole": 3}, {"match": ["cols"]}, {"decks": 0}):
        messages = set()
        for _ in range(3):
            with pytest.raises(golf.RulesError) as e:
                load_rules("six-card", override)
            messages.add(str(e.value))
        assert len(messages) == 1, messages
    with pytest.raises(golf.RulesError, match="unknown variant 'sevn-card'"):
        load_rules("sevn-card", {"holes": 1})


def test_cached_settings_are_never_shared_with_callers() -> None:
    raw = golf.rules.raw_settings("nine-card")
    raw["match"].append("rows")
    raw["points"]["K"] = 99
    raw["sources"].clear()
    again = golf.rules.raw_settings("nine-card")
    assert again["match"] == ["columns"] and again["points"]["K"] == 0 and again["sources"]
    assert load_rules("nine-card", {"holes": 3}).match == ("columns",)
    over = {"match": ["columns"], "points": {"K": 1}}
    r = load_rules("nine-card", over)
    over["match"].append("rows")
    assert r.match == ("columns",) and load_rules("nine-card", over).match == ("columns", "rows")


def test_the_rules_cache_is_bounded() -> None:
    for n in range(golf.rules.RULES_CACHE_SIZE + 20):
        load_rules("six-card", {"turn_limit": 1000 + n})
    assert len(golf.rules._RESOLVED) <= golf.rules.RULES_CACHE_SIZE
    # The least recently used went first; a recent one is still the same object.
    last = load_rules("six-card", {"turn_limit": 1000 + golf.rules.RULES_CACHE_SIZE + 19})
    assert load_rules("six-card", {"turn_limit": 1000 + golf.rules.RULES_CACHE_SIZE + 19}) \
        is last


def test_a_rules_file_is_read_again_so_edits_are_seen(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "six-card"\nholes = 4\n', encoding="utf-8")
    assert load_rules(f).holes == 4 and load_rules(str(f), {"target": 10}).holes == 4
    f.write_text('extends = "six-card"\nholes = 5\n', encoding="utf-8")
    assert load_rules(f).holes == 5 and load_rules(str(f), {"target": 10}).holes == 5
    assert golf.Game(str(f), players=2, seed=1).rules.holes == 5


@pytest.mark.parametrize("name", PRESETS)
def test_every_setting_of_a_preset_says_where_it_comes_from(name: str) -> None:
    # 'golf variants show' prints these next to each setting.
    r = load_rules(name)
    missing = [k for k in SETTINGS if k not in ("name", "description", "sources")
               and not r.source(k)]
    assert missing == []
