"""Helpers for the layout, motion, sound and replay browser tests: a table made through the
REST lobby (faster than the form; the form has its own tests), a page that holds the seat's
token, and the geometry checks ("this element lies inside the viewport")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import Player, Server, click_a_move

VIEWPORTS: dict[str, dict[str, int]] = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
}


def is_phone(size: dict[str, int]) -> bool:
    return size["width"] < 700


@dataclass
class Seated:
    """A table made through the API and the host's seat token."""

    table: str
    token: str
    seat: int


def make_table(server: Server, *, preset: str, bots: int, rules: dict[str, Any] | None = None,
               options: dict[str, Any] | None = None, name: str = "Ann",
               start: bool = True) -> Seated:
    """A table of one person (seat 0) and ``bots`` bots; started unless told otherwise."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"} for _ in range(bots)]
    body: dict[str, Any] = {"name": name, "preset": preset, "seats": seats,
                            "options": {"bot_delay": 0, **(options or {})}}
    if rules:
        body["rules"] = rules
    made = server.api("POST", "/api/tables", body)
    seated = Seated(made["table"]["id"], made["token"], made["seat"])
    if start:
        server.api("POST", f"/api/tables/{seated.table}/start", {}, seated.token)
    return seated


def open_seated(browser: Browser, server: Server, seated: Seated, *,
                viewport: dict[str, int], locale: str = "en-US", mobile: bool = False,
                reduced_motion: str = "reduce", init: str | None = None,
                path: str | None = None) -> Player:
    """A browser context that holds the seat token (as the lobby would have stored it)."""
    context = browser.new_context(locale=locale, viewport=viewport, is_mobile=mobile,
                                  has_touch=mobile, reduced_motion=reduced_motion)
    seats = {seated.table: {"token": seated.token, "seat": seated.seat, "at": 1}}
    context.add_init_script(
        f"localStorage.setItem('golf.seats', {json.dumps(json.dumps(seats))});")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.set_default_timeout(20000)
    player = Player("Ann", context, page, seat=seated.seat)
    page.on("pageerror", lambda e: player.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: player.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.goto(server.url + (path or f"/t/{seated.table}"))
    return player


def wait_my_turn(page: Page) -> None:
    expect(page.locator(".turn-pill.mine")).to_be_visible()
    expect(page.locator(".board-area.busy")).to_have_count(0)


def to_the_draw(p: Player) -> None:
    """Setup moves until drawing from the stock is legal."""
    while True:
        wait_my_turn(p.page)
        if p.page.locator('.board-area [data-key="stock"]').count():
            return
        click_a_move(p)


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The element's box in viewport coordinates (at the current scroll, which must be 0)."""
    box = page.evaluate(
        "s => { const el = document.querySelector(s); if (!el) return null;"
        " const r = el.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; }", selector)
    assert box is not None, f"no element {selector}"
    return dict(box)


def boxes_of(page: Page, selector: str) -> list[dict[str, float]]:
    """Every matching element's box, measured in one script run: a table that re-renders
    between two measurements (a bot moved) cannot leave a detached element half-measured."""
    boxes = page.evaluate(
        "s => [...document.querySelectorAll(s)].map(el => { const r = el.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; })", selector)
    return [dict(b) for b in boxes]


def assert_in_view(page: Page, selector: str, what: str) -> dict[str, float]:
    """``selector`` is wholly visible without scrolling (the page at scroll 0)."""
    size = page.viewport_size
    assert size is not None
    scroll = page.evaluate("[window.scrollX, window.scrollY]")
    assert scroll == [0, 0], f"the page scrolled to {scroll}"
    box = box_of(page, selector)
    assert box["width"] > 0 and box["height"] > 0, f"{what} ({selector}) has no size: {box}"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{what} starts off screen: {box}"
    assert box["x"] + box["width"] <= size["width"] + 0.5, (
        f"{what} ends right of the viewport ({size['width']}): {box}")
    assert box["y"] + box["height"] <= size["height"] + 0.5, (
        f"{what} ends below the viewport ({size['height']}): {box}")
    return box
