"""Every rules setting a player can choose shows in the rules summary (issue 24)."""

from __future__ import annotations

from typing import Any

import pytest

from golf.errors import RulesError
from golf.rules import PATTERNS, load_rules, preset_names, setting_schema
from golf.terminal.summary import _matching, rules_summary

_CHOICE_KINDS = ("choice", "bool")


def _values(spec: dict[str, Any]) -> list[Any]:
    return [True, False] if spec["type"] == "bool" else list(spec["choices"])


def _summary(preset: str, overrides: dict[str, Any]) -> str | None:
    try:
        r = load_rules(preset, overrides)
    except RulesError:
        return None  # not a valid combination for this preset
    return rules_summary(r, r.players[0])


@pytest.mark.parametrize("pattern", PATTERNS)
def test_each_match_pattern_has_its_own_sentence(pattern: str) -> None:
    sentences = {p: _matching(load_rules("nine-card", {"match": [p]})) for p in PATTERNS}
    assert len(sentences[pattern]) == 1
    others = [s for p, s in sentences.items() if p != pattern]
    assert sentences[pattern] not in others
    text = rules_summary(load_rules("nine-card", {"match": [pattern]}), 2)
    assert "Matches: " + sentences[pattern][0] in text


def test_row_pairs_is_summarised() -> None:
    text = rules_summary(load_rules("six-card", {"match": ["row-pairs"]}), 2)
    assert "side by side in a row" in text


@pytest.mark.parametrize("key", [k for k, s in setting_schema().items()
                                 if s["type"] in _CHOICE_KINDS])
def test_every_choice_value_has_its_own_summary(key: str) -> None:
    """Each allowed value reads differently from every other value of the setting, in at
    least one preset where the setting matters (elsewhere it may rightly say nothing)."""
    values = _values(setting_schema()[key])
    missing = []
    for value in values:
        for preset in preset_names():
            mine = _summary(preset, {key: value})
            if mine is None:
                continue
            others = [_summary(preset, {key: v}) for v in values if v != value]
            valid = [o for o in others if o is not None]
            if valid and all(o != mine for o in valid):
                break
        else:
            missing.append(value)
    assert not missing, f"the summary never tells '{key}' = {missing} apart"
