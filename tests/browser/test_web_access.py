"""For everyone: the German UI, a phone-sized screen, a turn by keyboard alone, the engine's
messages next to the rule fields, and memory mode for presets with private peeks."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect
from webplay import Server, click_a_move, create_table, my_turn, open_player, version

PHONE = {"width": 390, "height": 844}


def after(page, v: int) -> None:  # type: ignore[no-untyped-def]
    """Wait until the board shows a state newer than version v."""
    page.wait_for_function(
        "v => Number(document.querySelector('.board-area').dataset.version) > v", arg=v)


def wait_my_turn(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(
        "() => !!document.querySelector('.turn-pill.mine') && "
        "!document.querySelector('.board-area.busy')")


def test_the_german_ui_follows_the_browser_and_the_switch(
        browser: Browser, server: Server) -> None:
    de = open_player(browser, "Jana", server.url + "/", locale="de-DE")
    page = de.page
    expect(page.locator("#create-title")).to_have_text("Neuen Tisch eröffnen")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#lang")).to_have_value("de")
    page.locator("details.rules summary").click()
    expect(page.locator('label[for="rule-holes"]')).to_have_text("Runden")
    page.select_option("#lang", "en")
    expect(page.locator("#create-title")).to_have_text("Start a new table")
    expect(page.locator('label[for="rule-holes"]')).to_have_text("Holes")
    page.select_option("#lang", "de")
    expect(page.locator("#create-title")).to_have_text("Neuen Tisch eröffnen")

    create_table(de, seats=["easy"], rules={"holes": 1}, turn_timer=90)
    expect(page.locator("#wait-title")).to_have_text("Tisch von Jana")
    expect(page.locator("#start")).to_have_text("Spiel starten")
    page.locator("#start").click()
    expect(page.locator(".turn-pill.mine")).to_have_text("Du bist dran")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^(8\d|90) s \+30 s Reserve$"))
    # The stopwatch is drawn by the page (a masked SVG), not a character a font may lack.
    expect(page.locator("#clock")).to_have_attribute("data-icon", "turn")
    icon = page.locator("#clock").evaluate("""el => {
        const s = getComputedStyle(el, '::before');
        return [s.width, s.maskImage || s.webkitMaskImage]; }""")
    assert icon[0] != "0px" and "svg" in icon[1], icon
    expect(page.locator("#prompt")).to_have_text("Decke 2 deiner Karten auf: Klicke sie an.")
    expect(page.locator(".my-area button.cell").first).to_have_attribute(
        "aria-label", "Platz 1 aufdecken – Platz 1: verdeckt")
    click_a_move(de)
    # The card before its place: "Du hast K♦ auf Platz 1 aufgedeckt." (issue 38).
    expect(page.locator(".log li").first).to_have_text(
        re.compile(r"^Du hast \S+ auf Platz \d aufgedeckt\.$"))
    assert page.title() == "● Du bist dran – Golf"
    assert not de.errors, de.errors
    de.context.close()


def test_a_phone_sized_table_taps_and_big_targets(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/", viewport=PHONE, mobile=True)
    page = ann.page
    create_table(ann, seats=["easy", "medium"], rules={"holes": 1})
    page.locator("#start").tap()
    wait_my_turn(page)
    for _ in range(2):  # setup, by taps
        wait_my_turn(page)
        click_a_move(ann, tap=True)
    wait_my_turn(page)
    click_a_move(ann, tap=True)  # draw: now every card of my grid and the pile are targets
    targets = page.locator(".board-area .target")
    assert targets.count() >= 7
    for box in (t.bounding_box() for t in targets.all()):
        assert box is not None and box["width"] >= 40 and box["height"] >= 40, box
    for box in (b.bounding_box() for b in page.locator(".board-area button:visible").all()):
        assert box is not None and box["height"] >= 32, box
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
    # Every opponent's name is shown whole, not cut to "M…" beside its tags.
    cut = page.evaluate("""[...document.querySelectorAll('.opponents .seat-name')]
        .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)""")
    assert cut == [], f"names cut on a phone: {cut}"
    page.screenshot(path=str(shots / "table-phone.png"), full_page=True)
    click_a_move(ann, tap=True)
    assert not ann.errors, ann.errors
    ann.context.close()


def test_one_full_turn_by_keyboard_alone(browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    page = ann.page
    create_table(ann, seats=["easy"], rules={"holes": 1})
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    wait_my_turn(page)
    # Setup: a shortcut for one card, Tab and Enter for the other.
    v = version(ann)
    page.keyboard.press("1")
    after(page, v)
    wait_my_turn(page)
    v = version(ann)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('target')"):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Turn up position"), label
    page.keyboard.press("Enter")
    after(page, v)
    # A whole turn: H asks the coach, D draws, 3 swaps the drawn card into position 3.
    wait_my_turn(page)
    page.keyboard.press("h")
    expect(page.locator(".hint-box")).to_contain_text("The coach suggests", timeout=30_000)
    # The deal is random: the best move may beat the next by some points, or tie with it.
    expect(page.locator(".hint-box .hint-words")).to_contain_text(
        re.compile(r"points better than|as good as"))
    page.locator(".hint-details summary").click()
    expect(page.locator(".hint-details li").first).to_contain_text("=")
    page.locator(".hint-box").screenshot(path=str(shots / "hint.png"))
    page.keyboard.press("Escape")
    # The key legend offers the shortcuts legal now: six-card has no knock.
    expect(page.locator(".keys-help")).to_have_text("Keys: D draw · T take · H hint")
    v = version(ann)
    page.keyboard.press("d")
    after(page, v)
    expect(page.locator(".held .pile-name")).to_have_text("In hand")
    expect(page.locator(".keys-help")).to_have_text("Keys: X discard · 1–6 your cards · H hint")
    assert my_turn(ann)
    v = version(ann)
    page.keyboard.press("3")
    after(page, v)
    expect(page.locator(".log li", has_text="You put")).to_contain_text("in position 3")
    expect(page.locator("#announcer")).not_to_be_empty()
    expect(page.locator(".my-area .cell").nth(2).locator("svg.face")).to_have_count(1)
    assert not ann.errors, ann.errors
    ann.context.close()


def test_rule_fields_show_the_engines_message(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    page = ann.page
    page.locator("details.rules summary").click()
    page.fill("#rule-holes", "-3")
    page.locator("#rule-holes").dispatch_event("change")
    engine = server.api("POST", "/api/rules/check",
                        {"preset": "six-card", "rules": {"holes": -3}, "players": 3})
    expect(page.locator("#err-holes")).to_have_text(engine["errors"]["holes"])
    expect(page.locator("form.create button[type=submit]")).to_be_disabled()
    page.fill("#rule-holes", "3")
    page.locator("#rule-holes").dispatch_event("change")
    expect(page.locator("#err-holes")).to_be_hidden()
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    # Every setting of the preset has a field with a plain-words explanation.
    settings = server.api("GET", "/api/presets")["presets"]
    six = next(p for p in settings if p["name"] == "six-card")["settings"]
    keys = set(six) - {"name", "description", "sources"}
    shown = set(page.locator(".settings-grid .setting").evaluate_all(
        "els => els.map(e => e.dataset.setting)"))
    assert shown == keys
    for key in keys:
        help_text = page.locator(f'.setting[data-setting="{key}"] p.help').inner_text()
        assert len(help_text) > 15, (key, help_text)
    ann.context.close()


def test_memory_mode_hides_peeked_cards_after_the_first_draw(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    page = ann.page
    create_table(ann, seats=["easy"], preset="german", rules={"holes": 1})
    page.locator("#start").click()
    for _ in range(2):
        wait_my_turn(page)
        expect(page.locator("#prompt")).to_contain_text("Look at")
        click_a_move(ann)
    seen = page.locator(".my-area .cell.seen")
    expect(seen).to_have_count(2)
    expect(seen.locator("svg.face")).to_have_count(2)
    peeked = [c.get_attribute("aria-label") for c in seen.all()]
    wait_my_turn(page)
    click_a_move(ann)  # the first draw
    expect(page.locator(".my-area .cell.seen")).to_have_count(0)
    html = page.content()
    for label in peeked:
        name = label.split(": ")[-1]
        assert name not in html, f"{name} is still in the page after the first draw"
    expect(page.locator(".my-area .cell", has=page.locator("svg.back")).filter(
        has_text="").first).to_be_visible()
    # The display setting keeps them visible.
    page.locator(".display-menu summary").click()
    page.locator("#pref-peeked").check()
    expect(page.locator(".my-area .cell.seen")).to_have_count(2)
    assert my_turn(ann) or version(ann) > 0
    ann.context.close()


def test_menus_close_on_escape_and_on_a_click_outside(browser: Browser, server: Server) -> None:
    """The display and account menus close on Esc (focus back on their button) and on a
    click elsewhere on the page (issue 30)."""
    p = open_player(browser, "Mira", server.url + "/")
    page = p.page
    for menu in ("details.display-menu", "details.account-menu"):
        box = page.locator(menu)
        box.locator("summary").first.click()
        expect(box).to_have_attribute("open", "")
        page.keyboard.press("Escape")
        expect(box).not_to_have_attribute("open", "")
        assert box.evaluate("m => m.querySelector('summary') === document.activeElement")
        box.locator("summary").first.click()
        expect(box).to_have_attribute("open", "")
        # The window's bottom-left corner: the page, not the menu (main's own top-left
        # corner lies under the sticky top bar once the lobby lists enough tables to scroll).
        size = page.viewport_size
        assert size is not None
        assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y)"
                             ".closest('a, button, summary, input, select, details')",
                             [5, size["height"] - 5])
        page.mouse.click(5, size["height"] - 5)
        expect(box).not_to_have_attribute("open", "")
    assert not p.errors, p.errors
    p.context.close()
