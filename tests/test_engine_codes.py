"""Every refusal golf.rules can give has a stable code with JSON parameters, and the browser
has a German (and English) wording of each code with placeholders it can fill (issue 22)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import golf.rules as rules_module
from golf.errors import RulesError
from golf.rules import load_rules, normalise_overrides, parse_rule_option
from golf.server.core.bridge import check_rules

STRINGS = Path(rules_module.__file__).parent / "web/static/js/strings/engine.js"
# Filled in by js/enginewords.js from the parameters, besides the parameters themselves.
DERIVED = {"name", "allowed", "ranks", "preset", "close", "where"}


def raised_codes() -> list[tuple[int, str | None]]:
    """Each ``RulesError(...)`` built in golf/rules.py: its line and its code (None if none)."""
    tree = ast.parse(Path(rules_module.__file__).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "RulesError"):
            code = next((k.value for k in node.keywords if k.arg == "code"), None)
            found.append((node.lineno, code.value if isinstance(code, ast.Constant) else None))
    return found


def wordings() -> tuple[dict[str, str], dict[str, str]]:
    """The English and the German table of strings/engine.js, parsed from its source."""
    text = STRINGS.read_text(encoding="utf-8")
    call = text[text.index("extendStrings({"):]
    en_part, de_part = call.split("\n}, {\n", 1)
    pair = re.compile(r'^\s*"engine\.([\w.]+)":\s*"((?:[^"\\]|\\.)*)",?\s*$', re.M)
    return dict(pair.findall(en_part)), dict(pair.findall(de_part))


def test_every_rules_error_in_golf_rules_has_a_code() -> None:
    found = raised_codes()
    assert len(found) >= 30  # the walk sees the module's refusals, not nothing
    assert [line for line, code in found if code is None] == []


def test_every_code_is_worded_in_german_and_english() -> None:
    en, de = wordings()
    assert len(de) >= 30 and set(en) == set(de)
    codes = {code for _, code in raised_codes()}
    assert sorted(codes - set(de)) == []
    for key, text in de.items():
        assert text != en[key], f"engine.{key} is not translated"


def load(overrides: dict[str, Any], preset: str = "six-card") -> Callable[[], object]:
    return lambda: load_rules(preset, overrides)


# Each refusal the rule editor can meet, by what causes it, and the code it must carry.
CASES: list[tuple[str, Callable[[], object]]] = [
    ("players_not_pair", load({"players": "x"})),
    ("players_min_over_max", load({"players": [4, 2]})),
    ("decks_not_table", load({"decks": "x"})),
    ("decks_bad_key", load({"decks": {"a": 1}})),
    ("points_not_table", load({"points": 3})),
    ("points_unknown_rank", load({"points": {"Z": 1}})),
    ("match_not_list", load({"match": 3})),
    ("not_a_choice", load({"match": ["zigzag"]})),
    ("sources_not_table", load({"sources": 3})),
    ("unknown_setting", load({"hole": 3})),
    ("too_many_cells", load({"rows": 8, "cols": 8})),
    ("setup_count_over_cells", load({"setup_cells": "bottom-row", "rows": 2, "cols": 3,
                                     "setup_count": 4})),
    ("never_needs_knock", load({"end_on_complete": "never", "knock": False})),
    ("holes_and_target_zero", load({"holes": 0, "target": 0})),
    ("diagonals_need_square", load({"match": ["diagonals"], "rows": 2, "cols": 3})),
    ("blocks_need_2x2", load({"match": ["blocks"], "rows": 1, "cols": 4})),
    ("jokers_wild_needs_jokers", load({"jokers_wild": True, "jokers_per_deck": 0})),
    ("too_few_cards", load({"players": [2, 8], "decks": 1, "rows": 4, "cols": 4})),
    ("unknown_preset", lambda: load_rules("no-such-golf")),
    ("unreadable_file", lambda: load_rules("/nonexistent/rules.toml")),
    ("dotted_setting", lambda: normalise_overrides({"holes.x": 1})),
    ("option_syntax", lambda: parse_rule_option("holes")),
    ("option_no_key", lambda: parse_rule_option("=3")),
]


@pytest.mark.parametrize(("code", "cause"), CASES, ids=[c for c, _ in CASES])
def test_each_refusal_carries_its_code_and_fillable_params(
        code: str, cause: Callable[[], object]) -> None:
    with pytest.raises(RulesError) as caught:
        cause()
    e = caught.value
    assert e.code == code, str(e)
    assert json.loads(json.dumps(e.params)) == e.params  # plain JSON, as the API sends it
    en, de = wordings()
    for table in (en, de):
        wanted = set(re.findall(r"\{(\w+)\}", table[code]))
        assert wanted <= set(e.params) | DERIVED, (code, wanted - set(e.params))


def test_bad_toml_and_extends_have_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("holes = = 3\n", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(str(bad))
    assert caught.value.code == "not_toml"
    odd = tmp_path / "odd.toml"
    odd.write_text("extends = 3\n", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(str(odd))
    assert caught.value.code == "extends_not_name" and caught.value.params["got"] == "3"


def test_check_rules_gives_the_combination_code_and_its_settings() -> None:
    codes: dict[str, dict[str, Any]] = {}
    # Six-card's target is 0 already, so holes=0 alone is refused: the message is the field's.
    r, errors = check_rules("six-card", {"holes": 0, "target": 0}, codes=codes)
    assert r is None
    assert errors == {"holes": "settings 'holes' and 'target' are both 0: the match could "
                               "never end"}
    assert codes["holes"] == {"code": "holes_and_target_zero",
                          "params": {"keys": ["holes", "target"]}}


def test_a_refusal_only_of_the_combination_names_its_settings() -> None:
    # Nine-card plays 9 holes to 50 points: each 0 alone is fine, both together are not.
    codes: dict[str, dict[str, Any]] = {}
    r, errors = check_rules("nine-card", {"holes": 0, "target": 0}, codes=codes)
    assert r is None and list(errors) == ["*"]
    assert codes["*"]["code"] == "holes_and_target_zero"
    assert codes["*"]["params"]["keys"] == ["holes", "target"]
