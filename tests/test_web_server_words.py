"""Everything the server says that reaches a page is in the page's language (issue 38): each
error code it can send (REST refusals and WebSocket ``error`` frames, golf.server.core.protocol's
registry, which tests/server/test_contract.py holds to the source and the docs' tables), each
cause of a casual table or an unrated match, each reason of a ``bye`` the table does not word
itself, and why a match ended early have words in English and German in js/strings/errors.js,
which js/serverwords.js looks up."""

from __future__ import annotations

import re
from pathlib import Path

from golf.server.core.protocol import ACCOUNT_CODES, CODES
from helpers import WEB_JS, web_strings

ROOT = Path(__file__).resolve().parents[1]
EN, DE = web_strings()["errors.js"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def worded(key: str) -> bool:
    return bool(EN.get(key, "").strip() and DE.get(key, "").strip())


def source(*paths: str) -> str:
    return "\n".join((ROOT / "src/golf" / p).read_text(encoding="utf-8") for p in paths)


def test_every_error_code_the_server_can_send_has_english_and_german_words() -> None:
    codes = set(CODES) | set(ACCOUNT_CODES)
    assert len(codes) >= 70 and {"not_rateable", "illegal_action", "no_ticket"} <= codes
    missing = sorted(c for c in codes if not worded(f"error.{c}"))
    assert not missing, f"codes the page would show in the server's English: {missing}"


def test_every_cause_of_a_casual_table_or_an_unrated_match_has_words() -> None:
    # The causes as the server writes them: golf.ratings.casual_cause and the rating frame's.
    text = source("ratings.py", "server/ratings/rating_service.py")
    causes = set(re.findall(r'\{"reason": "(\w+)"', text))
    assert {"house_rules", "players", "unmeasured_bot", "no_profile", "two_seats",
            "error"} <= causes, causes
    missing = sorted(c for c in causes if not worded(f"casual.{c}"))
    assert not missing, f"causes without words: {missing}"
    # A refusal of a rated table words the causes casual_cause gives, each in a sentence.
    refused = set(re.findall(r'return \{"reason": "(\w+)"', source("ratings.py")))
    assert refused == {"house_rules", "players", "unmeasured_bot"}, refused
    assert all(worded(f"error.not_rateable.{c}") for c in refused)


def test_every_bye_reason_is_worded_by_the_table_or_here() -> None:
    text = source("server/tables/sockets.py", "server/tables/hub.py",
                  "server/tables/seating.py", "server/tables/patience.py")
    reasons = set(re.findall(r'close_(?:soon|clients|all)\(\d+, "(\w+)"', text))
    assert {"flooding", "too_slow", "reconnect", "removed"} <= reasons, reasons
    table = (WEB_JS / "table.js").read_text(encoding="utf-8")
    banner = re.search(r"if \(!\[([^\]]+)\]\.includes\(msg\.reason\)\)", table)
    assert banner, "table.js no longer lists the reasons its banner words"
    by_banner = set(re.findall(r'"(\w+)"', banner.group(1)))
    missing = sorted(r for r in reasons - by_banner if not worded(f"bye.{r}"))
    assert not missing, f"bye reasons shown in the server's English: {missing}"


def test_each_string_fills_the_same_placeholders_in_both_languages() -> None:
    assert worded("ended.absent") and "{name}" in EN["ended.absent"]
    for key, en in EN.items():
        assert set(PLACEHOLDER.findall(en)) == set(PLACEHOLDER.findall(DE[key])), key


def test_german_names_no_player_by_a_gendered_pronoun() -> None:
    # "für ihn/sie", "er/sie": a player, a host or a bot is not assumed to be either.
    gendered = re.compile(r"\b(?:ihn|ihm|ihr|ihre[nms]?|er|sie)\s*/\s*(?:ihn|ihm|ihr|sie|er)\b"
                          r"|\bder Gastgeber\b|\bdie Gastgeberin\b", re.I)
    found = {k: v for k, v in DE.items() if gendered.search(v)}
    assert not found, found
