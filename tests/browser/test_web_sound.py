"""Sound and "your turn" (issue 22): Web Audio cues only when the sound switch is on (on by
default with a mouse, off on phones, remembered per browser); "Your turn" in the tab's title
and a dot on its icon; a desktop notification while the tab is hidden, with permission asked
only once the player turns notifications on."""

from __future__ import annotations

import re
from typing import Any

from layoutkit import VIEWPORTS, make_table, open_seated, wait_my_turn
from playwright.sync_api import Browser, Page, expect
from test_web_motion import to_the_draw
from webplay import Player, Server, click_a_move

# Test side: every note the page schedules on a real AudioContext.
RECORD_NOTES = """
window.__notes = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (when) {
  window.__notes.push({ freq: this.frequency.value, when, ctx: this.context.constructor.name });
  return start.call(this, when);
};
"""
# Test side: the page's notification requests and notifications, and a tab that can be hidden.
RECORD_NOTIFICATIONS = """
window.__asked = 0;
window.__shown = [];
window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', { get() { return window.__hidden; } });
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    super(title, options);
    window.__shown.push({ title, body: options.body });
  }
};
"""


def notes(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__notes"))


def end_my_turn(p: Player) -> None:
    """Draw and swap: the turn passes to the next seat."""
    assert click_a_move(p) == "draw"
    wait_my_turn(p.page)
    click_a_move(p)


def open_menu(page: Page) -> None:
    if not page.locator("details.display-menu[open]").count():
        page.locator("details.display-menu summary").click()


def test_sounds_play_when_on_and_the_switch_is_remembered(
        browser: Browser, server: Server) -> None:
    seated = make_table(server, preset="six-card", bots=1)
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1280x720"], init=RECORD_NOTES)
    page = p.page
    open_menu(page)
    expect(page.locator("#pref-sound")).to_be_checked()  # a mouse: on by default
    to_the_draw(p)
    assert notes(page), "the setup and the bot's turns made no sound"
    page.evaluate("window.__notes = []")
    assert click_a_move(p) == "draw"
    # The draw cue: one short note on a real AudioContext.
    page.wait_for_function("window.__notes.length > 0")
    assert notes(page)[0]["ctx"] == "AudioContext"
    assert [n["freq"] for n in notes(page)] == [440]

    # Off, and remembered: after a reload the switch is still off and nothing sounds.
    open_menu(page)
    page.locator("#pref-sound").uncheck()
    page.reload()
    open_menu(page)
    expect(page.locator("#pref-sound")).not_to_be_checked()
    wait_my_turn(page)
    click_a_move(p)  # the swap; then the bot plays and the turn comes back
    wait_my_turn(page)
    page.wait_for_timeout(300)
    assert notes(page) == []
    assert page.evaluate("localStorage.getItem('golf.pref.sound')") == "false"
    assert not p.errors, p.errors
    p.context.close()


def test_phones_start_without_sound(browser: Browser, server: Server) -> None:
    seated = make_table(server, preset="six-card", bots=1)
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["390x844"], mobile=True,
                    init=RECORD_NOTES)
    page = p.page
    to_the_draw(p)
    click_a_move(p, tap=True)
    wait_my_turn(page)
    page.wait_for_timeout(300)
    assert notes(page) == []
    open_menu(page)
    expect(page.locator("#pref-sound")).not_to_be_checked()
    page.locator("#pref-sound").check()
    page.locator("details.display-menu summary").click()  # close the menu
    click_a_move(p, tap=True)  # a swap: now it sounds
    page.wait_for_function("window.__notes.length > 0")
    assert not p.errors, p.errors
    p.context.close()


def test_your_turn_in_the_title_the_icon_and_a_notification(
        browser: Browser, server: Server) -> None:
    seated = make_table(server, preset="six-card", bots=1, options={"bot_delay": 1.5})
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["1366x768"],
                    init=RECORD_NOTIFICATIONS)
    page = p.page
    to_the_draw(p)
    expect(page).to_have_title(re.compile("Your turn"))
    icon = page.locator('link[rel="icon"]')
    expect(icon).to_have_attribute("href", re.compile(r"^data:image/svg\+xml,.*circle"))
    assert page.evaluate("window.__asked") == 0  # never asked on load

    # The player's move: the bot's turn, the plain icon and title.
    end_my_turn(p)
    expect(page.locator(".turn-pill.mine")).to_have_count(0)
    expect(icon).to_have_attribute("href", "/static/favicon.svg")
    expect(page).not_to_have_title(re.compile("Your turn"))
    wait_my_turn(page)
    assert page.evaluate("window.__asked") == 0
    assert page.evaluate("window.__shown") == []  # notifications are off by default

    # Turning notifications on asks the browser, once.
    open_menu(page)
    page.locator("#pref-notify").click()
    page.wait_for_function("window.__asked === 1")
    p.context.close()

    # With permission given and the switch on: a hidden tab is told when its turn comes;
    # a visible one is not.
    q = open_seated(browser, server, seated, viewport=VIEWPORTS["1366x768"],
                    init=RECORD_NOTIFICATIONS + "localStorage.setItem('golf.pref.notify', 'true');")
    q.context.grant_permissions(["notifications"], origin=server.url)
    page = q.page
    page.reload()
    open_menu(page)
    expect(page.locator("#pref-notify")).to_be_checked()
    page.locator("details.display-menu summary").click()
    wait_my_turn(page)
    end_my_turn(q)
    page.evaluate("window.__hidden = true")
    page.wait_for_function("window.__shown.length > 0", timeout=30000)
    shown = page.evaluate("window.__shown")
    assert shown[0]["title"] == "Your turn at Golf"
    assert "Ann's table" in shown[0]["body"]
    page.evaluate("window.__hidden = false; window.__shown = []")
    wait_my_turn(page)
    end_my_turn(q)
    wait_my_turn(page)
    assert page.evaluate("window.__shown") == []
    assert not q.errors, q.errors
    q.context.close()
