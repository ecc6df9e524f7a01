"""Issue 22's last gaps in the browser: the engine's combination refusals in German beside
their settings, the waiting room's refusals beside the control that caused them, and the
hint box in view on a phone."""

from __future__ import annotations

import re

from layoutkit import to_the_draw
from playwright.sync_api import Browser, Page, expect
from test_web_finish import in_view_below_header
from webplay import Server, create_table, open_player


def test_a_combination_refusal_is_german_beside_its_settings(
        browser: Browser, server: Server) -> None:
    de = open_player(browser, "Jana", server.url + "/", locale="de-DE")
    page = de.page
    page.select_option("#preset", "nine-card")
    page.locator("details.rules summary").click()
    # Nine-card plays 9 holes to 50 points: each 0 alone is allowed, both together are not.
    for key in ("holes", "target"):
        page.fill(f"#rule-{key}", "0")
        page.locator(f"#rule-{key}").dispatch_event("change")
    german = "Runden und Punkteziel sind beide 0: Die Partie könnte nie enden."
    for slot in ("#err-holes", "#err-target", "#err-rules-all"):
        expect(page.locator(slot)).to_have_text(german)
    assert "could never end" not in page.locator("form.create").inner_text()
    expect(page.locator("form.create button[type=submit]")).to_be_disabled()
    page.fill("#rule-target", "100")
    page.locator("#rule-target").dispatch_event("change")
    expect(page.locator("#err-holes")).to_be_hidden()
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    # Numbers in the page's digits, and a code's words filled from its parameters.
    worded = page.evaluate("""async () => {
      const { engineMessage } = await import('/static/js/enginewords.js');
      return [engineMessage('x', {code: 'too_few_cards', params: {keys: ['decks', 'players'],
                players: 8, need: 1201, cells: 150, decks: 1, have: 54}}),
              engineMessage('x', {code: 'unknown_setting', params: {key: 'hole',
                close: 'holes'}}),
              engineMessage('x', {code: 'no_such_code', params: {}})];
    }""")
    assert worded[0].startswith("8 Spieler brauchen 1.201 Karten (je 150 "), worded
    assert worded[1] == "Eine Einstellung „hole“ gibt es nicht. Meintest du Runden?", worded
    assert worded[2] == "x"
    assert not de.errors, de.errors
    de.context.close()


def test_a_refused_seat_change_shows_beside_its_control(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", viewport={"width": 390, "height": 844})
    page = ann.page
    create_table(ann, seats=["easy"] * 7)  # eight seats: the most a table has
    expect(page.locator(".wait-seats > li")).to_have_count(8)
    page.locator("[data-control=add-easy]").click()
    message = page.locator("#wait-error")
    expect(message).to_have_text(re.compile("at most 8 seats"))
    # Beside the buttons that asked, announced, and the only copy of the message.
    assert message.get_attribute("role") == "alert"
    assert message.get_attribute("aria-live") == "assertive"
    button = page.locator("[data-control=add-easy]")
    expect(button).to_have_attribute("aria-invalid", "true")
    assert "wait-error" in (button.get_attribute("aria-describedby") or "")
    assert page.evaluate("document.querySelector('#wait-error').previousElementSibling"
                         ".classList.contains('add-row')")
    expect(page.locator(".waiting .field-error")).to_have_count(1)
    expect(page.locator("[data-control=add-medium]")).not_to_have_attribute(
        "aria-invalid", "true")
    in_view_below_header(page, "#wait-error")
    in_view_below_header(page, "[data-control=add-easy]")
    # A later request that succeeds clears the mark (removing a bot seat).
    page.locator("[data-control=remove-7]").click()
    expect(page.locator(".wait-seats > li")).to_have_count(7)
    expect(page.locator("#wait-error")).to_have_count(0)
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    # The refused request is the console's only complaint (the browser logs the 422 itself).
    assert [e for e in ann.errors if "status of 422" not in e] == [], ann.errors
    ann.context.close()


def box_in_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box and size, (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (box, size)


def test_the_hint_box_is_in_view_on_a_small_phone(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", viewport={"width": 360, "height": 640},
                      mobile=True)
    page = ann.page
    create_table(ann, seats=["easy"], rules={"holes": 1})
    page.locator("#start").click()
    to_the_draw(ann)
    page.evaluate("window.scrollTo(0, 0)")
    page.locator('[data-key="act-hint"]').click()
    expect(page.locator(".hint-box .hint-words")).to_be_visible(timeout=30_000)
    page.wait_for_timeout(300)  # the reveal runs on the next frame
    box_in_viewport(page, ".hint-box")
    in_view_below_header(page, ".hint-box")
    assert not ann.errors, ann.errors
    ann.context.close()
