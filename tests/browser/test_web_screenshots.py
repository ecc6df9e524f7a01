"""Screenshots of the browser table (issue 22) under build/screenshots/, each with the layout
facts it must show: the hole end, the match result, memory mode after the first draw and
the German table. (Each viewport's table with a card in hand is pictured by test_web_layout,
which checks those facts at every size.) People look at them; the assertions keep them
honest."""

from __future__ import annotations

from pathlib import Path

import pytest
from layoutkit import VIEWPORTS, assert_in_view, is_phone, make_table, open_seated, wait_my_turn
from playwright.sync_api import Browser, Page, expect
from test_web_layout import check_table_in_view
from test_web_motion import to_the_draw
from webplay import Player, Server, click_a_move, play_until_hole_end


def draw_one(p: Player) -> None:
    """Through the setup to a drawn card in hand."""
    to_the_draw(p)
    assert click_a_move(p) == "draw"
    wait_my_turn(p.page)
    expect(p.page.locator(".center .held-card")).to_be_visible()


def settle(page: Page) -> None:
    """Let the last slide end before the picture."""
    page.wait_for_timeout(350)


@pytest.mark.parametrize("size", ["1366x768", "390x844"])
def test_screenshots_of_the_hole_end_and_the_result(browser: Browser, server: Server,
                                                    shots: Path, size: str) -> None:
    seated = make_table(server, preset="six-card", bots=2, rules={"holes": 1})
    view = VIEWPORTS[size]
    p = open_seated(browser, server, seated, viewport=view, mobile=is_phone(view))
    page = p.page
    play_until_hole_end([p])
    dialog = page.locator("dialog[open][data-kind=hole-end]")
    expect(dialog.locator("section.reveal")).to_have_count(3)
    # The dialog fits the window; its button is reached by scrolling inside it.
    assert_in_view(page, "dialog[open]", "the hole-end dialog")
    assert_in_view(page, "dialog[open] h2", "its title")
    page.screenshot(path=str(shots / f"hole-end-{size}.png"))
    dialog.locator("button.primary").click()
    expect(page.locator(".result .headline")).to_be_visible()
    assert_in_view(page, ".result .headline", "the result")
    expect(page.locator(".placings li")).to_have_count(3)
    page.screenshot(path=str(shots / f"match-result-{size}.png"))
    assert not p.errors, p.errors
    p.context.close()


@pytest.mark.parametrize("size", ["1280x720", "390x844"])
def test_screenshot_of_memory_mode_after_the_first_draw(browser: Browser, server: Server,
                                                        shots: Path, size: str) -> None:
    seated = make_table(server, preset="german", bots=2)
    view = VIEWPORTS[size]
    p = open_seated(browser, server, seated, viewport=view, mobile=is_phone(view))
    draw_one(p)
    check_table_in_view(p.page, holding=True)
    settle(p.page)
    p.page.screenshot(path=str(shots / f"memory-after-draw-{size}.png"))
    assert not p.errors, p.errors
    p.context.close()


@pytest.mark.parametrize("size", ["1280x720", "360x640"])
def test_screenshot_of_the_german_table(browser: Browser, server: Server, shots: Path,
                                        size: str) -> None:
    seated = make_table(server, preset="nine-card", bots=3, name="Anna")
    view = VIEWPORTS[size]
    p = open_seated(browser, server, seated, viewport=view, mobile=is_phone(view),
                    locale="de-DE")
    wait_my_turn(p.page)
    expect(p.page.locator(".turn-pill.mine")).to_have_text("Du bist dran")
    check_table_in_view(p.page, holding=False)
    p.page.screenshot(path=str(shots / f"table-german-{size}.png"))
    assert not p.errors, p.errors
    p.context.close()
