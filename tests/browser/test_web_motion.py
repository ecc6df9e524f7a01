"""Cards that move (issue 22): a drawn card travels from the stock to the hand, a swapped
card from the grid to the discard pile (FLIP transforms of the Web Animations API, under
300 ms); nothing moves when the reader asks for reduced motion."""

from __future__ import annotations

import re
from typing import Any

from layoutkit import VIEWPORTS, box_of, make_table, open_seated, to_the_draw, wait_my_turn
from playwright.sync_api import Browser, Page, expect
from webplay import Server, click_a_move

# Test side: every animation the page starts, with where its element is and its first frame.
RECORD_ANIMATIONS = """
window.__moves = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const place = this.closest('.held-card') ? 'held'
    : this.closest('.center > .pile-wrap:nth-child(2)') ? 'discard'
      : this.closest('.grid') ? 'cell' : 'other';
  const seat = this.closest('[data-seat]');
  const cell = this.closest('.grid > *');
  window.__moves.push({ place, seat: seat ? Number(seat.dataset.seat) : null,
    position: cell ? [...cell.parentNode.children].indexOf(cell) + 1 : null,
    from: frames[0].transform, duration: options.duration });
  return animate.call(this, frames, options);
};
"""
TRANSLATE = re.compile(r"translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)")


def moves(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__moves"))


def settled(page: Page) -> None:
    """Every animation over and two frames drawn since: the cards are where they land (a
    fixed wait is not enough on a loaded machine, where a frame can come late)."""
    page.wait_for_function(
        # The page's own moves (Element.animate), not its endless CSS pulses.
        "document.getAnimations().filter(a => !(a instanceof CSSAnimation) && "
        "!(a instanceof CSSTransition)).every(a => a.playState !== 'running')",
        timeout=10_000)
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_drawn_card_travels_from_the_stock_and_a_swapped_one_to_the_pile(
        browser: Browser, server: Server) -> None:
    seated = make_table(server, preset="six-card", bots=1, options={"bot_delay": 1.5})
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1280x720"],
                    reduced_motion="no-preference", init=RECORD_ANIMATIONS)
    page = p.page
    to_the_draw(p)
    stock = centre(box_of(page, ".center > .pile-wrap:nth-child(1) .pile .card-svg"))
    page.evaluate("window.__moves = []")
    assert click_a_move(p) == "draw"
    expect(page.locator(".center .held-card")).to_be_visible()
    settled(page)  # the slide is over: the card is where it lands
    held = centre(box_of(page, ".center .held-card .card-svg"))
    drawn = [m for m in moves(page) if m["place"] == "held" and m["seat"] is None]
    assert len(drawn) == 1, moves(page)
    m = TRANSLATE.fullmatch(drawn[0]["from"])
    assert m, drawn[0]
    # It starts on the stock: the offset is the way from the hand back to the stock.
    assert abs(float(m[1]) - (stock[0] - held[0])) < 3, (m[0], stock, held)
    assert abs(float(m[2]) - (stock[1] - held[1])) < 3, (m[0], stock, held)
    assert 0 < drawn[0]["duration"] < 300

    # Swap into a face-down card: the old card goes from that cell to the discard pile, the
    # held card from the hand into the cell.
    cell = page.locator(".my-area button.cell.target").filter(has=page.locator("svg.back")).first
    position = int(cell.get_attribute("data-key").rsplit("-", 1)[1])  # type: ignore[union-attr]
    where = centre(cell.locator(".card-svg").bounding_box())  # type: ignore[arg-type]
    page.evaluate("window.__moves = []")
    cell.click()
    expect(page.locator(".center .held-card")).to_have_count(0)
    settled(page)
    pile = centre(box_of(page, ".center > .pile-wrap:nth-child(2) .pile .card-svg"))
    to_pile = [m for m in moves(page) if m["place"] == "discard"]
    assert len(to_pile) == 1, moves(page)
    m = TRANSLATE.fullmatch(to_pile[0]["from"])
    assert m and abs(float(m[1]) - (where[0] - pile[0])) < 3 and \
        abs(float(m[2]) - (where[1] - pile[1])) < 3, (to_pile, where, pile)
    into = [m for m in moves(page) if m["place"] == "cell" and m["seat"] == p.seat]
    assert [m["position"] for m in into] == [position], moves(page)
    assert all(0 < m["duration"] < 300 for m in moves(page))
    # A redraw without a new move (a language switch) moves nothing again: read on this
    # seat's turn, when nobody else moves (the bot's move, 1.5 s on, came in here on a
    # loaded machine).
    wait_my_turn(page)
    settled(page)
    page.evaluate("window.__moves = []")
    page.select_option("#lang", "de")
    expect(page.locator(".turn-pill")).to_contain_text(re.compile("dran|Easy|Leicht"))
    assert moves(page) == []
    assert not p.errors, p.errors
    p.context.close()


def test_nothing_moves_under_reduced_motion(browser: Browser, server: Server) -> None:
    seated = make_table(server, preset="six-card", bots=1)
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1280x720"],
                    reduced_motion="reduce", init=RECORD_ANIMATIONS)
    to_the_draw(p)
    assert click_a_move(p) == "draw"
    wait_my_turn(p.page)
    click_a_move(p)  # a swap
    wait_my_turn(p.page)  # and the bot's turn in between
    assert moves(p.page) == []
    assert not p.errors, p.errors
    p.context.close()
