"""The page's words beside their screens (issue 36): each feature's strings in a module under
js/strings/, in English and German, each written once; i18n.js only the mechanism; and every
module loads the strings it says (through its own static imports), so that no screen shows a
key because another screen happened to load its words first. No module over 500 lines."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import WEB_JS, import_cycles, web_strings

STRINGS = web_strings()
MODULES = sorted(p for p in WEB_JS.rglob("*.js"))
CODE = sorted(p for p in MODULES if p.parent == WEB_JS)
IMPORT = re.compile(r'^(?:import|export)\b[^;]*?["\'](\.{1,2}/[\w./-]+\.js)["\'];', re.M | re.S)
#: A string literal that may be a key: words and dots, with a dot ("table.stock").
LITERAL = re.compile(r'["\'`]([\w-]+(?:\.[\w -]+)+)["\'`]')
#: The fixed start of a key built in a template literal (`act.${kind}`, `lobby.seat.${c}`).
PREFIX = re.compile(r'`([\w-]+(?:\.[\w-]+)*\.)\$\{')
#: Comments, which may name a key without saying it: /* ... */ and whole // lines.
COMMENT = re.compile(r"/\*.*?\*/|^[ \t]*//[^\n]*", re.M | re.S)


def name(path: Path) -> str:
    return path.relative_to(WEB_JS).as_posix()


def imports(path: Path) -> set[str]:
    """The modules path imports statically (a dynamic import() loads later, if at all)."""
    text = path.read_text(encoding="utf-8")
    return {name((path.parent / m).resolve()) for m in IMPORT.findall(text)}


GRAPH = {name(p): imports(p) for p in MODULES}
DEFINED = {key: module for module, (en, _de) in STRINGS.items() for key in en}


def reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(GRAPH.get(m, ()))
    return seen


def test_every_strings_module_words_each_key_in_english_and_german() -> None:
    assert len(STRINGS) >= 15
    assert len(DEFINED) >= 600  # the parse found the page's words, not a few
    for module, (en, de) in STRINGS.items():
        assert en, module
        assert list(en) == list(de), f"strings/{module}: English and German keys differ"
        for key in en:
            assert en[key].strip() and de[key].strip(), (module, key)


def test_each_key_is_written_once() -> None:
    seen: dict[str, str] = {}
    for module, (en, _de) in STRINGS.items():
        for key in en:
            assert key not in seen, f"{key} in strings/{seen[key]} and strings/{module}"
            seen[key] = module


def test_i18n_js_holds_the_mechanism_and_no_words() -> None:
    text = (WEB_JS / "i18n.js").read_text(encoding="utf-8")
    assert not re.search(r'^\s*"[\w.-]+":\s*"', text, re.M), "i18n.js holds a string"
    assert "extendStrings(" in text and "export function t(" in text
    assert all("i18n.js" in GRAPH[f"strings/{m}"] for m in STRINGS)


def test_every_module_loads_the_words_it_says() -> None:
    checked = 0
    for path in CODE:
        text = COMMENT.sub("", path.read_text(encoding="utf-8"))
        loaded = {m.removeprefix("strings/") for m in reachable(name(path))
                  if m.startswith("strings/")}
        for key in set(LITERAL.findall(text)) & set(DEFINED):
            checked += 1
            assert DEFINED[key] in loaded, \
                f"{path.name} says {key} but does not import strings/{DEFINED[key]}"
        for prefix in set(PREFIX.findall(text)):
            keys = [k for k in DEFINED if k.startswith(prefix)]
            if keys:
                checked += 1
                assert any(DEFINED[k] in loaded for k in keys), \
                    f"{path.name} builds {prefix}… but loads none of those strings"
    assert checked >= 400  # the check read the modules' keys, not nothing


def test_no_module_is_over_500_lines() -> None:
    assert len(CODE) >= 30
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 500, f"{name(path)}: {lines} lines"


def test_the_modules_import_no_cycle() -> None:
    assert "table.js" in GRAPH and "i18n.js" in GRAPH["app.js"]
    assert import_cycles(GRAPH) == []


# --- small words (issue 38) -------------------------------------------------------------------

#: The screens whose counts must agree with their number ("1 rated match", "1 schaut zu").
COUNTING = ("leaderboard.js", "lobby.js", "quickplay.js", "waiting.js", "finish.js",
            "holeend.js", "tablerender.js", "board.js")


def test_a_count_with_a_singular_string_is_said_through_tn() -> None:
    singular = {k.removesuffix(".one") for k in DEFINED if k.endswith(".one")}
    assert {"board.youNot", "board.rule", "lobby.watching", "holeEnd.points",
            "table.pileSize"} <= singular
    checked = 0
    for module in COUNTING:
        text = COMMENT.sub("", (WEB_JS / module).read_text(encoding="utf-8"))
        for key in singular:
            checked += text.count(f'tn("{key}"')
            assert f't("{key}"' not in text, f"{module} says {key} without tn(): '1 … s'"
    assert checked >= 6


def test_the_page_sends_nobody_to_the_docs_and_how_to_play_points_nowhere() -> None:
    for module, (en, de) in STRINGS.items():
        for key in en:
            for text in (en[key], de[key]):
                assert not re.search(r"docs/|\.md\b", text), (module, key, text)
    en, de = STRINGS["lobby.js"]
    how = [v for table in (en, de) for k, v in table.items() if k.startswith("lobby.how")]
    assert len(how) >= 10
    # The form is above the words on a phone and beside them on a desk: no direction.
    assert not [s for s in how if re.search(r"\b(below|above|unten|oben)\b", s, re.I)]



def test_the_german_words_name_nobody_by_a_gender() -> None:
    """No "er oder sie" for a player (the nudge said "dass er oder sie dran ist"), and a
    profile is a profile, not "Spieler {name}"."""
    checked = 0
    for module, (_en, de) in STRINGS.items():
        for key, text in de.items():
            checked += 1
            assert not re.search(r"\ber oder sie\b|\ber/sie\b|\bsie oder er\b", text), \
                (module, key, text)
            assert "Spieler {name}" not in text and "Spielerin {name}" not in text, \
                (module, key, text)
    assert checked >= 600
    _en, de = STRINGS["profiles.js"]
    assert de["profile.title"] == "Profil: {name}"
