"""Every rules setting a player can choose shows in the rules summary (issue 24): each
preset's summary says each of its patterns and what "equal" means in the rules' own
words, and every allowed value of a choice setting reads differently in the summary of
every preset where that setting matters."""

from __future__ import annotations

from typing import Any

import pytest

from golf.commands.variants import relevant
from golf.errors import RulesError
from golf.rules import PATTERNS, choice_words, load_rules, preset_names, setting_schema
from golf.terminal.summary import rules_summary

_CHOICE_KINDS = ("choice", "bool")
CHOICE_KEYS = [k for k, s in setting_schema().items() if s["type"] in _CHOICE_KINDS]
#: Each preset as shipped, and with blocks scoring too (no preset has them, so that their
#: settings matter somewhere).
CONTEXTS: tuple[dict[str, Any], ...] = ({}, {"match": ["columns", "blocks"]})


def _values(spec: dict[str, Any]) -> list[Any]:
    return [True, False] if spec["type"] == "bool" else list(spec["choices"])


def body(preset: str, overrides: dict[str, Any]) -> str | None:
    """The summary without its header, which names every changed setting (and would tell
    any two values apart by itself); None when the combination is not valid."""
    try:
        r = load_rules(preset, overrides)
    except RulesError:
        return None
    return "\n".join(rules_summary(r, r.players[0]).splitlines()[2:])


def matches_line(preset: str, overrides: dict[str, Any]) -> str:
    text = body(preset, overrides)
    assert text is not None
    return next((line for line in text.splitlines() if line.startswith("Matches: ")), "")


@pytest.mark.parametrize("pattern", PATTERNS)
def test_each_match_pattern_is_said_in_its_own_words(pattern: str) -> None:
    r = load_rules("nine-card", {"match": [pattern], "block_points": -30})
    sentence = choice_words("match", pattern, rules=r).explain
    assert matches_line("nine-card", {"match": [pattern], "block_points": -30}) \
        .startswith("Matches: " + sentence)
    others = {choice_words("match", p, rules=r).explain for p in PATTERNS if p != pattern}
    assert sentence not in others
    assert "{" not in sentence  # every number filled in
    if pattern == "blocks":
        assert "-30" in sentence


def test_row_pairs_is_summarised() -> None:
    text = rules_summary(load_rules("six-card", {"match": ["row-pairs"]}), 2)
    assert "side by side in a row" in text


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_says_its_patterns_what_equal_means_and_its_tie_break(preset: str) -> None:
    r = load_rules(preset)
    line = matches_line(preset, {})
    for pattern in r.match:
        assert choice_words("match", pattern, rules=r).explain in line, (preset, pattern)
    lines_or_pairs = any(p != "blocks" for p in r.match)
    assert (choice_words("match_by", r.match_by).explain in line) == lines_or_pairs
    assert (choice_words("block_match_by", r.block_match_by).explain in line) == \
        ("blocks" in r.match)
    text = body(preset, {})
    assert text is not None and choice_words("tie_break", r.tie_break).explain in text


@pytest.mark.parametrize("key", ["match_by", "block_match_by"])
def test_equal_by_rank_or_points_is_said_where_it_counts(key: str) -> None:
    """Blocks have their own setting: block_match_by, not match_by, changes their line."""
    for value in ("rank", "points"):
        line = matches_line("nine-card", {"match": ["columns", "blocks"], key: value})
        assert choice_words(key, value).explain in line, (key, value)


@pytest.mark.parametrize("key", CHOICE_KEYS)
def test_every_choice_value_has_its_own_summary(key: str) -> None:
    """Each allowed value reads differently from every other value of the setting in every
    preset where the setting matters (``golf variants show`` lists it there), and in at
    least one preset."""
    values = _values(setting_schema()[key])
    told_apart: set[Any] = set()
    for preset, context in ((p, c) for p in preset_names() for c in CONTEXTS):
        matters = key in relevant(load_rules(preset, context))
        bodies = {v: body(preset, {**context, key: v}) for v in values}
        valid = {v: b for v, b in bodies.items() if b is not None}
        for value, mine in valid.items():
            same = [v for v, b in valid.items() if v != value and b == mine]
            if not same and len(valid) > 1:
                told_apart.add(value)
            assert not (matters and same), \
                f"{preset} {context}: the summary does not tell {key} = {value!r} from {same}"
    assert told_apart == set(values), f"the summary never tells '{key}' = " \
        f"{sorted(map(str, set(values) - told_apart))} apart"
