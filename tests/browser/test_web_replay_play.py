"""Replay and sharing (issue 22): a finished match's replay plays by itself at a chosen
speed, may show every card (the public view stays the default), and each hole's end has
its own address (/replay/{id}/{n}#hole-2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from layoutkit import VIEWPORTS, Seated, assert_in_view, boxes_of, make_table, open_seated
from playwright.sync_api import Browser, Page, expect
from webplay import Player, Server, card_forms, open_player, play_until_hole_end, truth

from golf.cards import card_str


@pytest.fixture(scope="module")
def finished(browser: Browser, server: Server) -> Seated:
    """A two-hole match of one person and a bot, played to its end by clicks."""
    seated = make_table(server, preset="six-card", bots=1, rules={"holes": 2})
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1280x720"])
    for _ in range(2):
        play_until_hole_end([p])
        p.page.locator("dialog[open] button.primary").click()
    expect(p.page.locator(".result")).to_be_visible()
    p.context.close()
    return seated


def step_shown(page: Page) -> int:
    text = page.locator(".turn-pill").inner_text()
    m = re.match(r"Move (\d+) of", text)
    return int(m[1]) if m else 0


def open_replay(browser: Browser, server: Server, seated: Seated, tail: str = "") -> Player:
    return open_player(browser, "Dee", f"{server.url}/replay/{seated.table}/1{tail}",
                       viewport=VIEWPORTS["1280x720"])


def test_each_hole_end_has_its_own_address(
        browser: Browser, server: Server, finished: Seated) -> None:
    meta = server.api("GET", f"/api/tables/{finished.table}/matches/1/replay")
    n = meta["length"]
    second = meta["holes"][1]["version"]  # hole 2's deal: the frame that ended hole 1
    p = open_replay(browser, server, finished, "#hole-1")
    page = p.page
    expect(page.locator(".turn-pill")).to_have_text(f"Move {second} of {n}")
    expect(page.locator("#hole-1 .hole-end h2")).to_contain_text("1")
    link = page.locator("#hole-1 a.hole-link")
    expect(link).to_have_attribute("href", f"/replay/{finished.table}/1#hole-1")
    # Another hole by its address, in the same page.
    page.evaluate("location.hash = '#hole-2'")
    expect(page.locator(".turn-pill")).to_have_text(f"Move {n} of {n}")
    expect(page.locator("#hole-2 .hole-end")).to_be_visible()
    # Stepping keeps the address honest: away from a hole's end, no hole in the address.
    page.locator("#replay-prev").click()
    expect(page.locator(".turn-pill")).to_have_text(f"Move {n - 1} of {n}")
    assert page.evaluate("location.hash") == ""
    page.locator("#replay-next").click()
    expect(page.locator(".turn-pill")).to_have_text(f"Move {n} of {n}")
    assert page.evaluate("location.hash") == "#hole-2"
    # A hole that does not exist: the replay opens at the deal.
    q = open_replay(browser, server, finished, "#hole-7")
    expect(q.page.locator(".turn-pill")).to_have_text("The deal")
    for who in (p, q):
        assert not who.errors, who.errors
        who.context.close()


def test_the_replay_plays_by_itself_at_the_chosen_speed(
        browser: Browser, server: Server, finished: Seated) -> None:
    p = open_replay(browser, server, finished)
    page = p.page
    expect(page.locator(".turn-pill")).to_have_text("The deal")
    page.select_option("#replay-speed", "8")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(
        "() => /Move ([3-9]|\\d\\d+) of/.test(document.querySelector('.turn-pill').textContent)")
    # Pause, pressed for as long as three steps take at 8x: every step draws the screen
    # anew, and a step between the press and the release once lost the click.
    # Where the button is, read in one go: a locator's element may be replaced by a step
    # between finding it and measuring it.
    x, y = page.evaluate("() => { const r = document.querySelector('#replay-play')"
                         ".getBoundingClientRect(); return [r.x + r.width / 2, "
                         "r.y + r.height / 2]; }")
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(400)
    page.mouse.up()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    paused = step_shown(page)
    page.wait_for_timeout(600)  # four steps' time at 8×: nothing moves while paused
    assert step_shown(page) == paused
    # The speed is remembered by this browser.
    page.reload()
    expect(page.locator("#replay-speed")).to_have_value("8")
    # At the slowest speed one step takes longer than a second.
    page.select_option("#replay-speed", "0.5")
    page.locator("#replay-play").click()
    page.wait_for_timeout(1500)
    assert step_shown(page) <= 1
    assert not p.errors, p.errors
    p.context.close()


def test_every_card_once_the_match_is_over(
        browser: Browser, server: Server, finished: Seated) -> None:
    record = server.api("GET", f"/api/tables/{finished.table}/matches/1/replay")["record"]
    deal = truth(record)[0].position()
    p = open_replay(browser, server, finished)
    page = p.page
    expect(page.locator(".turn-pill")).to_have_text("The deal")
    grids = page.locator(".opponents .grid")
    # The public view by default: every dealt card face down, none named.
    expect(grids.locator(".card-svg.back")).to_have_count(12)
    html = page.content()
    for grid in deal["grids"]:
        for code in grid:
            assert card_forms(card_str(code))[0] not in html
    page.locator("#replay-every").check()
    expect(grids.locator(".card-svg.back")).to_have_count(0)
    for seat, grid in enumerate(deal["grids"]):
        cells = page.locator(".opponents .seat-panel").nth(seat).locator(".grid > .cell")
        for i, code in enumerate(grid):
            name = card_forms(card_str(code))[0]
            expect(cells.nth(i)).to_have_attribute(
                "aria-label", re.compile(f"face down: {re.escape(name)}", re.IGNORECASE))
    # Stepping on shows every card too; unticked, the public view again.
    page.locator("#replay-next").click()
    expect(page.locator(".turn-pill")).to_contain_text("Move 1 of")
    expect(grids.locator(".card-svg.back")).to_have_count(0)
    page.locator("#replay-every").uncheck()
    expect(grids.locator(".card-svg.back")).not_to_have_count(0)
    assert not p.errors, p.errors
    p.context.close()


def test_the_replay_on_a_phone_shows_cards_and_steps_on_one_screen(
        browser: Browser, server: Server, finished: Seated, shots: Path) -> None:
    """Issue 38: at 360x640 the controls filled the first screen and the cards were below the
    fold; the step buttons and every grid's cards are on the first screen."""
    p = open_player(browser, "Dee", f"{server.url}/replay/{finished.table}/1#hole-1",
                    viewport=VIEWPORTS["360x640"], mobile=True)
    page = p.page
    expect(page.locator("#replay-next")).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "replay-phone-360x640.png"))
    assert_in_view(page, "#replay-prev", "the step back")
    assert_in_view(page, "#replay-next", "the step on")
    size = page.viewport_size
    assert size is not None
    cards = boxes_of(page, ".replay .felt .grid .cell")
    assert cards, "no cards"
    for box in cards:
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (
            f"a card ends below the first screen ({size['height']}): {box}")
    assert not p.errors, p.errors
    p.context.close()
