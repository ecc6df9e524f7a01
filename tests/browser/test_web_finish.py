"""The browser table, finished (issue 22's behaviour items): memory mode that holds for the
whole hole, badges that cover no rank or suit, small things."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from webplay import RANKS_EN, SUITS_EN, Server, card_forms, create_table, open_player, version


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
