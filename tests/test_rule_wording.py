"""The words of every rule setting and choice live in one place, ``golf.rules`` (issue 24):
each has a name and an explanation in every language, the schema serves them, and the web
client's string table holds none of them."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from golf.rules import (
    CHOICES,
    LANGS,
    PATTERNS,
    SETTINGS,
    Words,
    choice_words,
    load_rules,
    setting_schema,
    setting_words,
)

SCHEMA = setting_schema()
PLAYING = [k for k in SETTINGS if k not in ("name", "description", "sources")]
CHOICE_VALUES = [(k, v) for k, values in CHOICES.items() for v in values] + \
    [("match", p) for p in PATTERNS]
STATIC = Path(__file__).resolve().parents[1] / "src" / "golf" / "web" / "static" / "js"
#: The page's own words: i18n.js (the mechanism) and each feature's strings beside it.
PAGE_FILES = [STATIC / "i18n.js", *sorted((STATIC / "strings").glob("*.js"))]
PAGE_WORDS = "\n".join(p.read_text(encoding="utf-8") for p in PAGE_FILES)
#: The numbers an explanation may name, filled in from the rules in play.
FIELDS = {"rows", "cols", "block_points"}


def fields_of(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def assert_worded(words: Words, what: str) -> None:
    assert words.name.strip(), f"{what} has no name"
    assert len(words.explain.strip()) > 10, f"{what} has no explanation: {words.explain!r}"


@pytest.mark.parametrize("key", PLAYING)
def test_every_setting_has_a_name_and_an_explanation_in_every_language(key: str) -> None:
    for lang in LANGS:
        assert_worded(setting_words(key, lang), f"setting {key!r} in {lang}")
    english, german = setting_words(key, "en"), setting_words(key, "de")
    assert english.explain != german.explain, f"{key!r}: the German is the English"


@pytest.mark.parametrize(("key", "value"), CHOICE_VALUES)
def test_every_choice_has_a_name_and_an_explanation_in_every_language(
        key: str, value: str) -> None:
    for lang in LANGS:
        words = choice_words(key, value, lang)
        assert_worded(words, f"choice {key}={value!r} in {lang}")
        assert fields_of(words.explain) <= FIELDS, (key, value, lang, words.explain)
    english, german = choice_words(key, value, "en"), choice_words(key, value, "de")
    assert english.explain != german.explain, f"{key}={value!r}: the German is the English"
    # Both languages name the same numbers, so neither leaves one out.
    assert fields_of(english.explain) == fields_of(german.explain), (key, value)


@pytest.mark.parametrize("key", PLAYING)
def test_choices_of_one_setting_have_different_names(key: str) -> None:
    values = [v for k, v in CHOICE_VALUES if k == key]
    for lang in LANGS:
        names = [choice_words(key, v, lang).name for v in values]
        assert len(set(names)) == len(names), (key, lang, names)


def test_the_schema_serves_the_words_in_every_language() -> None:
    for key in PLAYING:
        words = SCHEMA[key]["words"]
        assert set(words) == set(LANGS)
        for lang in LANGS:
            assert words[lang]["name"] == setting_words(key, lang).name
            assert words[lang]["explain"] == setting_words(key, lang).explain
            choices = SCHEMA[key].get("choices")
            if choices is None:
                assert "choices" not in words[lang], key
                continue
            assert list(words[lang]["choices"]) == choices, (key, lang)
            for value in choices:
                served = words[lang]["choices"][value]
                assert served == {"name": choice_words(key, value, lang).name,
                                  "explain": choice_words(key, value, lang).explain}


def test_an_explanation_is_filled_from_the_rules() -> None:
    nine = load_rules("nine-card", {"match": ["blocks"], "block_points": -40})
    assert choice_words("match", "blocks", rules=nine).explain == \
        "four equal cards in a 2x2 block score -40 together"
    assert choice_words("match", "rows", "de", rules=nine).explain == \
        "eine Reihe aus 3 gleichen Karten zählt 0"


def test_unknown_settings_and_choices_have_no_words() -> None:
    with pytest.raises(KeyError):
        setting_words("hole")
    with pytest.raises(KeyError):
        choice_words("setup", "peak")


# --- the web client keeps no copy -------------------------------------------------------------

@pytest.mark.parametrize("key", PLAYING)
def test_the_web_string_table_has_no_wording_of_a_setting(key: str) -> None:
    """The page's strings (i18n.js and js/strings/) are its own only: no entry keyed by a
    setting (``holes: [...]``, ``"holes": ...``, ``"setup.peek"``) and none of the engine's
    words."""
    assert len(PAGE_FILES) >= 15 and PAGE_WORDS.count('": "') >= 1200  # read, not nothing
    entry = re.compile(rf"""(^\s*|[{{,]\s*)["']?{re.escape(key)}["']?\s*:""", re.M)
    assert not entry.search(PAGE_WORDS), f"the page's strings word setting {key!r}"
    for lang in LANGS:
        assert setting_words(key, lang).explain not in PAGE_WORDS, (key, lang)


@pytest.mark.parametrize(("key", "value"), CHOICE_VALUES)
def test_the_web_string_table_has_no_wording_of_a_choice(key: str, value: str) -> None:
    assert f'"{key}.{value}"' not in PAGE_WORDS, f"the page's strings word {key}={value!r}"
    for lang in LANGS:
        # The words between the {fields}, where long enough not to be any sentence's.
        pieces = re.split(r"\{\w+\}", choice_words(key, value, lang).explain)
        for piece in (p for p in pieces if len(p) >= 20):
            assert piece not in PAGE_WORDS, (key, value, lang, piece)


def test_the_web_reads_rule_words_only_from_the_schema() -> None:
    for name in ("lobby.js", "rulesform.js", "waiting.js"):
        code = (STATIC / name).read_text(encoding="utf-8")
        assert "rulewords.js" in code, name
        assert not re.search(r"\b(settingText|choiceText)\b", code), name
    assert not re.search(r"\bconst (SETTINGS|CHOICES)\b", PAGE_WORDS)
