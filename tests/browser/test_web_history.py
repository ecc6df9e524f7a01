"""The browser narrates every fact the engine reports (English and German), and a reload
brings back the chat and the move log.

The narration test feeds the page's own narrate.js, in Chromium, real engine events of
every fact type (found by playing random matches), rendered for the actor and for a
spectator exactly as the server sends them.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import (
    Server,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_player,
    version,
)

from golf import Game
from golf.events import FACT_NAMES

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("german", {"holes": 1}, 2), ("four-card", {"holes": 1, "tie_break": "playoff"}, 3),
    ("six-card", {"holes": 2}, 2)]


def one_event_per_fact() -> dict[str, dict[str, Any]]:
    """For each fact type, one real event: its dict for the actor and for spectators, the
    actor's view and the public view after it, and the table's seat names."""
    found: dict[str, dict[str, Any]] = {}
    for seed in range(600):
        for preset, rules, players in GAMES:
            g = Game(preset, players=players, seed=seed, rules=rules)
            rng = random.Random(seed)
            while not g.is_over:
                event = g.step(rng.choice(g.legal_actions()))
                for kind in event.kinds():
                    if kind not in found:
                        found[kind] = {
                            "mine": {**event.to_dict(event.seat), "by": "player"},
                            "public": {**event.to_dict(None), "by": "player"},
                            "seat": event.seat, "view": dict(g.view(event.seat)),
                            "public_view": dict(g.public_view()), "players": players}
        if len(found) == len(FACT_NAMES):
            return json.loads(json.dumps(found))
    raise AssertionError(f"no events with {set(FACT_NAMES) - set(found)}")


NARRATE = """async ([lang, cases]) => {
  const i18n = await import('/static/js/i18n.js');
  const { narrate } = await import('/static/js/narrate.js');
  const { cardText } = await import('/static/js/cards.js');
  i18n.setLang(lang);
  const out = {};
  for (const [kind, c] of Object.entries(cases)) {
    const table = { seats: Array.from({ length: c.players }, (_, s) => (
      { seat: s, kind: 'human', name: 'P' + s })) };
    out[kind] = {
      mine: narrate(c.mine, table, c.seat, c.view),
      public: narrate(c.public, table, null, c.public_view),
    };
    const peek = c.mine.facts.find((f) => f.type === 'peek');
    if (peek) out[kind].peeked = cardText(c.view.grids[c.seat][peek.position - 1]);
  }
  return out;
}"""

#: A word each fact's sentence must hold, in each language (the narration names it).
WORDS = {
    "en": {"reshuffle": "shuffled", "knock": "knock", "final_turns": "Last turns",
           "playoff": "playoff", "hole_end": "over", "match_end": "won",
           "hole_start": "begins", "peek": "looked"},
    "de": {"reshuffle": "gemischt", "knock": "geklopft", "final_turns": "Letzte Züge",
           "playoff": "Stichrunde", "hole_end": "vorbei", "match_end": "Gewonnen",
           "hole_start": "beginnt", "peek": "angeschaut"},
}


def narrated(page: Page, lang: str, cases: dict[str, Any]) -> dict[str, Any]:
    return dict(page.evaluate(NARRATE, [lang, cases]))


def test_every_fact_is_narrated_in_english_and_german(browser: Browser,
                                                      server: Server) -> None:
    cases = one_event_per_fact()
    p = open_player(browser, "Ann", server.url + "/")
    texts: dict[str, dict[str, str]] = {}
    for lang in ("en", "de"):
        said = narrated(p.page, lang, cases)
        texts[lang] = {}
        for kind, case in cases.items():
            for who in ("mine", "public"):
                out = said[kind][who]
                facts = case[who]["facts"]
                # One sentence per fact, none of them a bare i18n key.
                assert len(out["lines"]) == len(facts), (lang, kind, who, out)
                assert all(line and not re.search(r"\bev\.\w", line) for line in out["lines"]), \
                    (lang, kind, out)
                assert "undefined" not in out["text"] and "{" not in out["text"], out
            line = next(text for text, f in zip(said[kind]["public"]["lines"],
                                                 case["public"]["facts"], strict=True)
                        if f["type"] == kind)
            texts[lang][kind] = line
            if kind in WORDS[lang]:
                assert WORDS[lang][kind].lower() in line.lower(), (lang, kind, line)
        # The reshuffle says how big the new stock is.
        size = next(f["stock_size"] for f in cases["reshuffle"]["public"]["facts"]
                    if f["type"] == "reshuffle")
        assert str(size) in texts[lang]["reshuffle"]
        # A peek: where, for everyone; the card only for the peeker (from its own view).
        peek_case = said["peek"]
        assert peek_case["peeked"] in peek_case["mine"]["text"]
        assert peek_case["peeked"] not in peek_case["public"]["text"]
    assert all(texts["en"][k] != texts["de"][k] for k in texts["en"])
    assert not p.errors, p.errors
    p.context.close()


def test_a_reload_brings_back_the_chat_and_the_move_log(browser: Browser,
                                                        server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["easy"], rules={"holes": 1})
    ann.page.locator("#start").click()
    expect(ann.page.locator(".turn-pill.mine")).to_be_visible()
    for _ in range(2):
        click_a_move(ann)
    expect(ann.page.locator(".turn-pill.mine")).to_be_visible()
    ann.page.fill("#chat-input", "good luck")
    ann.page.locator("#chat-input").press("Enter")
    expect(ann.page.locator("ol.chat-list li", has_text="good luck")).to_be_visible()
    moves = version(ann)
    log_before = ann.page.locator("ol.log li").all_inner_texts()
    assert len(log_before) == moves

    ann.page.reload()
    expect(ann.page.locator(".my-area")).to_be_visible()
    expect(ann.page.locator("ol.chat-list li", has_text="good luck")).to_be_visible()
    expect(ann.page.locator("ol.log li")).to_have_count(moves)
    assert ann.page.locator("ol.log li").all_inner_texts() == log_before
    assert not ann.errors, ann.errors
    ann.context.close()


def test_a_player_back_after_a_stand_in_sees_while_you_were_away(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["human"], rules={"holes": 1}, absence="bot", grace=1)
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    ann.page.locator("#start").click()
    page = ann.page
    while not page.locator(".turn-pill", has_text="Bob's turn").count():
        if my_turn(ann):
            click_a_move(ann)
        elif my_turn(bob):
            click_a_move(bob)
        else:
            page.wait_for_timeout(50)
    bob.page.close()  # his browser tab goes; his seat token stays in the browser
    expect(page.locator("ol.log li", has_text="a bot played for them").first).to_be_visible(
        timeout=20000)
    back = bob.context.new_page()
    back.goto(f"{server.url}/t/{table}")
    away = back.locator("dialog[open][data-kind=away]")
    expect(away).to_be_visible()
    expect(away.locator("h2")).to_have_text("While you were away")
    expect(away.locator("li", has_text="a bot played for you").first).to_be_visible()
    away.locator("button.primary").click()
    expect(away).to_be_hidden()
    assert not ann.errors, ann.errors
    for p in (ann, bob):
        p.context.close()
