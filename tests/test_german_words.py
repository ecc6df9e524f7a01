"""German uses one word for a player's grid of cards, "Auslage" (issue 30): in the page's
strings, in the engine's messages worded by the page, and in the rule words the server sends
(golf.rules), so that a German player never reads "Raster" in one place and "Auslage" in
another."""

from __future__ import annotations

import json
from pathlib import Path

from golf.rules import setting_schema

STATIC = Path(__file__).resolve().parents[1] / "src" / "golf" / "web" / "static" / "js"
#: The page's words: each feature's strings beside it (i18n.js holds only the mechanism).
PAGE = sorted((STATIC / "strings").glob("*.js"))


def test_the_page_says_auslage_never_raster() -> None:
    assert len(PAGE) >= 15  # the strings modules were found
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGE)
    assert "Raster" not in text
    assert text.count("Auslage") >= 5  # the rules' summary, prompts, the engine's messages


def test_the_servers_rule_words_say_auslage_never_raster() -> None:
    words = json.dumps({k: v.get("words", {}).get("de") for k, v in setting_schema().items()},
                       ensure_ascii=False)
    assert "Raster" not in words
    assert "Auslage" in words
