"""Always in view (issue 22): at laptop and phone sizes, with the largest grid and up to six
players, the own grid, the piles, the card in hand and the prompt fit the window without
scrolling; opponents form one compact strip; the "Connection lost" banner stays on screen."""

from __future__ import annotations

import pytest
from layoutkit import (
    VIEWPORTS,
    Seated,
    assert_in_view,
    box_of,
    boxes_of,
    is_phone,
    make_table,
    open_seated,
    to_the_draw,
    wait_my_turn,
)
from playwright.sync_api import Browser, Page, expect
from webplay import Server, click_a_move

CASES = [("six-card", 1), ("six-card", 5), ("nine-card", 1), ("nine-card", 5)]


def check_table_in_view(page: Page, *, holding: bool) -> None:
    """The facts of "always in view" on the page as it is now (scroll 0)."""
    assert_in_view(page, ".my-area .grid", "your grid")
    assert_in_view(page, ".my-area .prompt", "the prompt")
    assert_in_view(page, ".center .pile-wrap:first-child .pile", "the stock")
    assert_in_view(page, '.center [data-key="discard"], .center .pile-wrap:nth-child(2) .pile',
                   "the discard pile")
    if page.locator(".my-area .actions button").count():
        assert_in_view(page, ".my-area .actions", "the buttons")
    if holding:
        assert_in_view(page, ".center .held-card", "the card you hold")
    # Every card of the own grid is a whole card, not clipped by its area.
    cells = boxes_of(page, ".my-area .grid .cell")
    assert len(cells) in (6, 9)
    size = page.viewport_size
    assert size is not None
    for box in cells:
        assert box["y"] + box["height"] <= size["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    # Opponents: one strip, one row, never taller than a third of the window.
    tops = {round(b["y"]) for b in boxes_of(page, ".opponents .seat-panel")}
    assert len(tops) == 1, f"the opponents take {len(tops)} rows"
    strip = box_of(page, ".opponents")
    assert strip["height"] <= size["height"] / 3, strip
    # No page wider than the window (a phone would zoom the whole table out).
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def check_every_viewport(browser: Browser, server: Server, seated: Seated, *,
                         holding: bool) -> None:
    for name, size in VIEWPORTS.items():
        p = open_seated(browser, server, seated, viewport=size, mobile=is_phone(size))
        wait_my_turn(p.page)
        try:
            check_table_in_view(p.page, holding=holding)
        except AssertionError as e:
            raise AssertionError(f"at {name}: {e}") from e
        assert not p.errors, p.errors
        p.context.close()


@pytest.mark.parametrize(("preset", "bots"), CASES)
def test_own_grid_piles_hand_and_prompt_fit_every_viewport(
        browser: Browser, server: Server, preset: str, bots: int) -> None:
    seated = make_table(server, preset=preset, bots=bots)
    # The deal: the setup prompt, every card a target.
    check_every_viewport(browser, server, seated, holding=False)
    # Turn the setup cards up and draw: now the card in hand must be in view as well.
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1280x720"])
    to_the_draw(p)
    assert click_a_move(p) == "draw"
    expect(p.page.locator(".center .held-card")).to_be_visible()
    p.context.close()
    check_every_viewport(browser, server, seated, holding=True)


def test_the_connection_banner_stays_on_screen(browser: Browser, own_server: Server) -> None:
    seated = make_table(own_server, preset="nine-card", bots=5)
    for size in (VIEWPORTS["360x640"], VIEWPORTS["1280x720"]):
        p = open_seated(browser, own_server, seated, viewport=size, mobile=is_phone(size))
        wait_my_turn(p.page)
        p.errors.clear()
        own_server.stop()
        banner = p.page.locator(".conn-banner")
        expect(banner).to_contain_text("Connection lost")
        assert_in_view(p.page, ".conn-banner", "the banner")
        # However far the page is scrolled, the banner is on screen and the table is still
        # where it was (the banner floats over the page instead of pushing it down).
        p.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        box = banner.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
        p.page.evaluate("window.scrollTo(0, 0)")
        assert_in_view(p.page, ".my-area .grid", "your grid")
        own_server.start()
        expect(banner).to_be_hidden(timeout=30000)
        p.context.close()
