"""The browser table, finished (issue 22's behaviour items): memory mode that holds for the
whole hole, badges that cover no rank or suit, small things."""

from __future__ import annotations

import json
import re
import time
import urllib.error
from typing import Any

import pytest
from layoutkit import to_the_draw
from playwright.sync_api import Browser, Page, expect
from webplay import (
    RANKS_EN,
    SUITS_EN,
    Server,
    card_forms,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    open_player,
    play_until_hole_end,
    version,
)


def wait_my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => !!document.querySelector('.turn-pill.mine') && "
        "!document.querySelector('.board-area.busy') && !document.querySelector('dialog[open]')")


def click_and_wait(page: Page, selector: str) -> None:
    """Click a target and wait for the state it leads to."""
    before = int(page.locator(".board-area").get_attribute("data-version") or "-1")
    page.locator(selector).click()
    page.wait_for_function(
        "v => Number(document.querySelector('.board-area').dataset.version) > v", arg=before)


def code_of(name: str) -> str:
    """The notation of a card from its English name ("6 of hearts" -> "6H", "joker")."""
    if name == "joker":
        return "JK"
    rank, suit = re.fullmatch(r"(\w+) of (\w+)", name).groups()  # type: ignore[union-attr]
    ranks = {v: k for k, v in RANKS_EN.items()}
    suits = {v: k for k, v in SUITS_EN.items()}
    return ranks.get(rank, rank) + suits[suit]


def hole_over(page: Page) -> bool:
    return bool(page.locator("dialog[open][data-kind=hole-end]").count())


def assert_forgotten(page: Page, peeked: dict[int, str]) -> None:
    """The peeked cards still face down are in no label, no log line, nowhere in the DOM."""
    html = page.content()
    for pos, code in peeked.items():
        cell = page.locator(".my-area .grid > .cell").nth(pos - 1)
        if cell.locator("svg.back").count() == 0:
            continue  # turned up since: everyone sees it now
        label = cell.get_attribute("aria-label") or ""
        assert "you looked at it" in label and ":" not in label.split("you looked at it")[1], label
        # The back shows it too, not only the label (issue 38).
        expect(cell.locator(".seen-tag")).to_be_visible()
        if code != "JK":  # two jokers: the other may be face up anywhere
            for form in card_forms(code):
                assert form not in html, f"{form} is still on the page after the first draw"
    log = page.locator(".log li").all_inner_texts()
    for pos in peeked:
        assert f"You looked at position {pos}." in log, log


@pytest.mark.parametrize("preset", ["four-card-wild", "german"])
def test_memory_mode_forgets_peeked_cards_for_the_whole_hole(
        browser: Browser, server: Server, preset: str) -> None:
    ann = open_player(browser, "Ann", server.url + "/", record=True)
    page = ann.page
    create_table(ann, seats=["easy"], preset=preset, rules={"holes": 1})
    page.locator("#start").click()
    for pos in (1, 2):
        wait_my_turn(page)
        click_and_wait(page, f'[data-key="cell-0-{pos}"]')
    wait_my_turn(page)
    peeked = {}
    for pos in (1, 2):
        label = page.locator(".my-area .grid > .cell").nth(pos - 1).get_attribute("aria-label")
        assert label and "you looked at it: " in label, label
        peeked[pos] = code_of(label.split("you looked at it: ")[1])
    # The log never named them, not even before the first draw.
    for line in page.locator(".log li").all_inner_texts():
        assert ":" not in line or "looked" not in line, line
    first_draw = version(ann) + 1
    for _turn in range(2):
        if hole_over(page):
            break
        wait_my_turn(page)
        click_and_wait(page, '[data-key="stock"]')
        assert_forgotten(page, peeked)
        click_and_wait(page, '[data-key="discard"]')
        assert_forgotten(page, peeked)
        if page.locator(".my-area button.cell.target").count():
            # Four-card-wild: turn one face-down card up after a discard (not a peeked one).
            expect(page.locator("#prompt")).to_contain_text(re.compile("[Tt]urn"))
            free = [p for p in (3, 4) if page.locator(f'[data-key="cell-0-{p}"]').count()]
            click_and_wait(page, f'[data-key="cell-0-{free[0]}"]')
            assert_forgotten(page, peeked)
    # Every DOM the page showed from the first draw until the hole's end.
    checked = 0
    for snap in ann.snapshots():
        if snap["version"] < first_draw or 'data-kind="hole-end"' in snap["html"]:
            continue
        for code in peeked.values():
            # None of them was turned up in these turns: none may be on the page.
            for form in card_forms(code) if code != "JK" else []:
                assert form not in snap["html"], f"{form} on the page at {snap['version']}"
        checked += 1
    assert checked >= 2
    if not hole_over(page):
        # The display setting brings them back (the page asks the server for its view).
        down = [p for p in peeked
                if page.locator(".my-area .grid > .cell").nth(p - 1).locator("svg.back").count()]
        assert down, "both peeked cards are still face down"
        page.locator(".display-menu summary").click()
        page.locator("#pref-peeked").check()
        expect(page.locator(".my-area .cell.seen")).to_have_count(len(down))
        page.locator("#pref-peeked").uncheck()
        expect(page.locator(".my-area .cell.seen")).to_have_count(0)
    assert not ann.errors, ann.errors
    ann.context.close()


def closes_hole_end(page: Page) -> None:
    page.locator("dialog[open][data-kind=hole-end] button.primary").click()
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_the_next_hole_waits_and_the_rematch_is_an_invitation(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["human", "easy"], rules={"holes": 2})
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.locator("#start").click()
    people = [ann, bob]
    play_until_hole_end(people)

    # Ann has read the hole's end, Bob not yet: nobody moves, bots included.
    closes_hole_end(ann.page)
    expect(ann.page.locator("#clock")).to_contain_text("Next hole in")
    expect(ann.page.locator("#clock")).to_contain_text("waiting for Bob")
    expect(ann.page.locator("#prompt")).to_contain_text("everyone has read")
    held = version(ann)
    ann.page.wait_for_timeout(2500)
    assert version(ann) == held and version(bob) == held
    expect(ann.page.locator(".turn-pill.mine")).to_have_count(0)
    closes_hole_end(bob.page)
    expect(ann.page.locator("#clock")).not_to_contain_text("Next hole in")
    # The next hole goes on: someone is on turn (Bob, in hole 2) or the bot moved.
    deadline = time.monotonic() + 10
    while version(ann) == held and not any(
            p.page.locator(".turn-pill.mine").count() for p in people):
        assert time.monotonic() < deadline, "the next hole did not start"
        ann.page.wait_for_timeout(50)

    # The last hole: Ann reads it and invites everyone while Bob's dialog is still open.
    play_until_hole_end(people)
    closes_hole_end(ann.page)
    expect(ann.page.locator(".result-panel .placings li")).to_have_count(3)
    expect(ann.page.locator(".celebration")).to_have_count(1)
    ann.page.locator("[data-key=rematch]").click()
    expect(ann.page.locator(".rematch-note")).to_contain_text("Waiting for Bob")
    expect(bob.page.locator("dialog[open][data-kind=hole-end]")).to_be_visible()
    bob.page.wait_for_timeout(500)
    expect(bob.page.locator(".board-area")).to_have_attribute("data-match", "1")
    # Bob still gets the final standings, then accepts the invitation.
    closes_hole_end(bob.page)
    expect(bob.page.locator(".result-panel .placings li")).to_have_count(3)
    expect(bob.page.locator(".rematch-invite")).to_contain_text("Ann invites everyone")
    bob.page.locator("[data-key=rematch-accept]").click()
    for p in people:
        expect(p.page.locator(".board-area")).to_have_attribute("data-match", "2")
        expect(p.page.locator("dialog[open]")).to_have_count(0)
        expect(p.page.locator(".result-panel")).to_have_count(0)
        expect(p.page.locator(".hole-pill")).to_have_text("Hole 1 of 2")
        log = " ".join(p.page.locator(".log li").all_inner_texts())
        assert "is over" not in log, log
    assert server.api("GET", f"/api/tables/{table}")["match"] == 2
    for p in people:
        assert not p.errors, p.errors
        p.context.close()


def test_everyone_sees_the_break_and_no_turn_runs_behind_the_dialog(
        browser: Browser, server: Server) -> None:
    """Issue 38: the break's countdown stands in the hole-end dialog for whoever still reads
    it, the same as the header's for whoever closed it; when the countdown runs out, the
    dialog still open closes itself: the next hole and its turn timer never run behind it."""
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 2}, turn_timer=60)
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.locator("#start").click()
    play_until_hole_end([ann, bob])

    # Both still read: each sees the countdown in the dialog, waiting for both.
    for p in (ann, bob):
        in_dialog = p.page.locator("dialog[open][data-kind=hole-end] #break-clock")
        expect(in_dialog).to_be_visible()
        expect(in_dialog).to_contain_text("Next hole in")
        expect(in_dialog).to_contain_text("waiting for you and")
    closes_hole_end(ann.page)
    expect(ann.page.locator("#clock")).to_contain_text("waiting for Bob")
    # Bob, still reading, sees the same countdown, now waiting for him alone.
    in_dialog = bob.page.locator("dialog[open][data-kind=hole-end] #break-clock")
    expect(in_dialog).to_contain_text("Next hole in")
    expect(in_dialog).to_contain_text("waiting for you")
    expect(in_dialog).not_to_contain_text("Ann")
    # The countdown runs out (15 s): Bob's dialog closes as the next hole starts, and
    # whatever clock runs then, it runs on a page with no dialog over it.
    expect(bob.page.locator("dialog[open]")).to_have_count(0, timeout=25_000)
    for p in (ann, bob):
        expect(p.page.locator("#clock")).not_to_contain_text("Next hole in")
        expect(p.page.locator(".hole-pill")).to_contain_text("Hole 2")
        expect(p.page.locator("dialog[open]")).to_have_count(0)
        assert not p.errors, p.errors
        p.context.close()


def test_a_rematch_can_be_declined(browser: Browser, server: Server) -> None:
    """Issue 38: an invited person says "No, thanks"; the host reads who declined and may
    invite again."""
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 1})
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.locator("#start").click()
    play_until_hole_end([ann, bob])
    for p in (ann, bob):
        closes_hole_end(p.page)
    ann.page.locator("[data-key=rematch]").click()
    expect(bob.page.locator(".rematch-invite")).to_contain_text("Ann invites everyone")
    bob.page.locator("[data-key=rematch-decline]").click()
    expect(ann.page.locator(".rematch-declined")).to_have_text("Bob declined to play again.")
    expect(bob.page.locator(".rematch-declined")).to_have_text("You declined to play again.")
    expect(bob.page.locator("[data-key=rematch-accept]")).to_have_count(0)
    # The host may invite again; the note of the last answer goes.
    ann.page.locator("[data-key=rematch]").click()
    expect(bob.page.locator(".rematch-invite")).to_be_visible()
    expect(ann.page.locator(".rematch-declined")).to_have_count(0)
    for p in (ann, bob):
        assert not p.errors, p.errors
        p.context.close()


# Every badge's box against every rank, suit and pip of every card in the same layer (the
# page, or one dialog: a dialog's badge over a card of the page beneath it is the dialog
# covering the page, not a badge covering a card).
OVERLAPS = """
() => {
  const badges = [...document.querySelectorAll(
    '.last-tag, .group-tag, .points-tag, .seen-tag, .key-tag')].filter((b) => b.offsetParent);
  const texts = [...document.querySelectorAll('svg.card-svg text')];
  const hit = [];
  for (const b of badges) {
    const r = b.getBoundingClientRect();
    for (const x of texts) {
      if (b.closest('dialog') !== x.closest('dialog')) continue;
      const q = x.getBoundingClientRect();
      if (q.width === 0 || q.height === 0) continue;
      const apart = r.right - 0.5 <= q.left || q.right - 0.5 <= r.left
        || r.bottom - 0.5 <= q.top || q.bottom - 0.5 <= r.top;
      if (!apart) {
        hit.push(`${b.className} "${b.textContent}" over "${x.textContent}"`);
      }
    }
  }
  return { badges: badges.length, hit };
}
"""


@pytest.mark.parametrize("preset", ["six-card", "four-card-wild"])
def test_badges_never_cover_a_rank_or_suit(browser: Browser, server: Server,
                                           preset: str) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    page = ann.page
    create_table(ann, seats=["easy", "easy"], preset=preset, rules={"holes": 1})
    page.locator("#start").click()
    seen_last = 0
    while not hole_over(page):
        if page.locator(".turn-pill.mine").count() and not page.locator(
                ".board-area.busy").count():
            out = page.evaluate(OVERLAPS)
            assert not out["hit"], out["hit"]
            seen_last += page.locator(".last-tag").count()
            click_a_move(ann)
        else:
            page.wait_for_timeout(40)
    out = page.evaluate(OVERLAPS)
    assert out["badges"] >= 9 and not out["hit"], out
    assert seen_last > 0
    # Groups are marked by a shape, never a letter that reads as a rank.
    for mark in page.locator("dialog .group-tag").all_inner_texts():
        assert not re.search(r"[A-Z]", mark), mark
    assert not ann.errors, ann.errors
    ann.context.close()


def hint_frames(page: Page) -> list[dict[str, Any]]:
    """Every ``hint`` frame the page receives (read off its WebSocket)."""
    got: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "hint" and msg.get("options"):
                got.append(msg)
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return got


@pytest.mark.parametrize(("locale", "words", "comma"), [
    ("en-US", "points better than", "."), ("de-DE", "Punkte besser als", ",")])
def test_the_coach_says_by_how_much_the_best_move_wins(
        browser: Browser, server: Server, locale: str, words: str, comma: str) -> None:
    ann = open_player(browser, "Ann", "about:blank", locale=locale)
    frames = hint_frames(ann.page)
    ann.page.goto(server.url + "/")
    page = ann.page
    create_table(ann, seats=["easy", "easy"], rules={"holes": 1})
    page.locator("#start").click()
    # Setup turns by clicks, then a real turn: draw or take.
    to_the_draw(ann)
    page.locator('[data-key="act-hint"]').click()
    words_el = page.locator(".hint-box .hint-words")
    expect(words_el).to_contain_text(words, timeout=30_000)
    assert frames, "no hint frame arrived"
    options = frames[-1]["options"]
    best, nxt = options[0], next(o for o in options[1:] if o["value"] is not None)
    margin = f"{abs(nxt['value'] - best['value']):.1f}".replace(".", comma)
    text = words_el.inner_text()
    assert margin in text, (text, options)
    # The same numbers as the terminal coach: each value is the sum of its parts.
    page.locator(".hint-details summary").click()
    first = page.locator(".hint-details li").first.inner_text()
    assert f"{abs(best['value']):.1f}".replace(".", comma) in first, (first, best)
    if locale == "de-DE":
        assert "your grid" not in first and "value" not in text
    assert not ann.errors, ann.errors
    ann.context.close()


def test_small_things_of_the_table(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["human", "easy"], rules={"holes": 2})
    # The waiting room lists the table options, bot speed included.
    options = ann.page.locator(".table-options")
    expect(options.locator('[data-option="bot_delay"]')).to_contain_text("Bot speed")
    expect(options.locator('[data-option="bot_delay"]')).to_contain_text("0 s")
    expect(options.locator('[data-option="absence"]')).to_contain_text("A bot plays for them")
    # The invite page names the house rules.
    link = invite_url(ann)
    bob = open_player(browser, "Bob", link, mobile=True, viewport={"width": 390, "height": 844})
    expect(bob.page.locator(".house-rules")).to_contain_text("2")
    expect(bob.page.locator("h2", has_text="House rules")).to_be_visible()
    join_by_invite(bob)
    # Any person seated may share the invite, not only the host.
    expect(bob.page.locator("#invite-link")).to_have_value(link)
    watcher = open_player(browser, "Cy", f"{server.url}/watch/{table}")
    ann.page.locator("#start").click()
    # Prompts: "click" with a mouse, "tap" on a touch screen.
    wait_my_turn(ann.page)
    expect(ann.page.locator("#prompt")).to_contain_text("click them")
    click_and_wait(ann.page, ".my-area button.cell.target >> nth=0")
    # The discard pile's one card: words, not a link that does nothing.
    expect(ann.page.locator('[data-key="history"]')).to_have_count(0)
    expect(ann.page.locator(".pile-wrap .pile-count", has_text="card in the pile")).to_be_visible()
    deadline = time.monotonic() + 20
    while not bob.page.locator(".turn-pill.mine").count():
        assert time.monotonic() < deadline, "Bob's setup turn did not come"
        if ann.page.locator(".turn-pill.mine").count() and not ann.page.locator(
                ".board-area.busy").count():
            click_and_wait(ann.page, ".my-area button.cell.target >> nth=0")
        ann.page.wait_for_timeout(50)
    expect(bob.page.locator("#prompt")).to_contain_text("tap them")
    # Spectators see no disabled chat box, but a sentence.
    expect(watcher.page.locator("#chat-input")).to_have_count(0)
    expect(watcher.page.locator(".chat-note")).to_contain_text("only the players write")
    for p in (ann, bob, watcher):
        assert not p.errors, p.errors
        p.context.close()


def test_the_german_table_speaks_german(browser: Browser, server: Server) -> None:
    de = open_player(browser, "Jana", server.url + "/", locale="de-DE")
    page = de.page
    # Jack and queen are Bube and Dame: B and D on the cards and in the text.
    faces = page.evaluate("""async () => {
      const { cardText, cardFace } = await import('/static/js/cards.js');
      return [cardText('JS'), cardText('QH'), cardText('KD'),
              cardFace('QC').querySelector('.corner-rank').textContent];
    }""")
    assert faces == ["B\u2660", "D\u2665", "K\u2666", "D"]
    page.locator(".display-menu summary").click()
    expect(page.locator(".display-menu")).to_contain_text("Vierfarbiges Blatt")
    page.locator(".display-menu summary").click()
    # The engine's validation message, worded in German from its code and parameters.
    page.locator("details.rules summary").click()
    page.fill("#rule-rows", "9")
    page.locator("#rule-rows").dispatch_event("change")
    expect(page.locator("#err-rows")).to_contain_text("muss zwischen 1 und 8 liegen, nicht 9")
    assert "must be" not in page.locator("#err-rows").inner_text()
    page.fill("#rule-rows", "2")
    page.locator("#rule-rows").dispatch_event("change")
    expect(page.locator("#err-rows")).to_be_hidden()
    page.locator("details.rules summary").click()
    create_table(de, seats=["hard"], rules={"holes": 1})
    page.locator("#start").click()
    to_the_draw(de)
    # Shortcut letters from German words: Z ziehen, N nehmen, T Tipp.
    expect(page.locator(".keys-help")).to_have_text("Tasten: Z ziehen · N nehmen · T Tipp")
    before = version(de)
    page.keyboard.press("z")
    page.wait_for_function(
        "v => Number(document.querySelector('.board-area').dataset.version) > v", arg=before)
    expect(page.locator(".keys-help")).to_contain_text("A ablegen")
    # The scorecard's headers are whole words, not "Schwere…".
    cut = page.evaluate("""() => [...document.querySelectorAll('.scorecard thead th')]
      .filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent)""")
    assert cut == [], cut
    expect(page.locator(".scorecard thead")).to_contain_text("Schwerer Bot")
    assert not de.errors, de.errors
    de.context.close()


def in_view_below_header(page: Page, selector: str) -> None:
    """The element is on screen and not under the sticky header."""
    box = page.locator(selector).bounding_box()
    header = page.locator(".topbar").bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box and header, (box, header)
    assert box["y"] >= header["y"] + header["height"] - 1, (selector, box, header)
    assert box["y"] + box["height"] <= height + 1, (selector, box, height)


def test_form_messages_show_next_to_their_field_in_view(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", viewport={"width": 1280, "height": 720})
    page = ann.page
    page.locator("details.options summary").click()
    page.fill("#opt-bot_delay", "10")
    page.locator("#opt-bot_delay").dispatch_event("change")
    page.fill("#name", "")
    page.locator("form.create button[type=submit]").click()
    # First the name: its message beside the field, scrolled clear of the header.
    expect(page.locator("#err-name")).to_have_text("Enter your name first.")
    in_view_below_header(page, "#name")
    page.fill("#name", "Ann")
    page.locator("form.create button[type=submit]").click()
    # Then the server's own message for the option, next to it and in view.
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.api("POST", "/api/tables", {"name": "Ann", "preset": "six-card",
                                           "seats": [{"kind": "human"},
                                                     {"kind": "bot", "bot": "easy"}],
                                           "options": {"bot_delay": 10}})
    message = json.loads(refused.value.read())["error"]["message"]
    expect(page.locator("#err-bot_delay")).to_have_text(message)
    in_view_below_header(page, "#opt-bot_delay")
    in_view_below_header(page, "#err-bot_delay")
    assert page.url.rstrip("/") == server.url
    ann.context.close()
