"""The lobby words every rule setting and choice as the engine serves it (issue 24): the
names, explanations and choice names on the page are those of ``GET /api/presets``'s
``settings[key].words`` in the page's language, and the waiting room names changed settings
the same way."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import Server, open_player


def shown_words(page: Page) -> dict[str, dict[str, Any]]:
    """Each setting field's label, help text and choice names as the page shows them."""
    return dict(page.locator(".settings-grid .setting").evaluate_all("""els => els.map(e => [
        e.dataset.setting, {
          name: e.querySelector('.setting-label').textContent,
          help: e.querySelector('p.help').textContent,
          options: [...e.querySelectorAll('option')].map(o => o.textContent),
          chips: [...e.querySelectorAll('label.chip')].map(c => c.textContent.trim()),
        }])"""))


def assert_worded_from_schema(page: Page, settings: dict[str, Any], lang: str,
                              preset: dict[str, Any]) -> None:
    shown = shown_words(page)
    assert set(shown) == set(settings), set(shown) ^ set(settings)
    for key, spec in settings.items():
        words, field = spec["words"][lang], shown[key]
        assert field["name"] == words["name"], (key, lang, field["name"])
        assert field["help"].startswith(words["explain"]), (key, lang, field["help"])
        names = [words["choices"][c]["name"] for c in spec.get("choices", [])]
        if spec["type"] == "choice":
            assert field["options"] == names, (key, lang)
        if spec["type"] == "patterns":
            assert field["chips"] == names, (key, lang)
    # A pattern's explanation has the grid's own numbers filled in.
    columns = settings["match"]["words"][lang]["choices"]["columns"]["explain"]
    title = page.locator('.setting[data-setting="match"] label.chip').first.get_attribute("title")
    assert title == columns.replace("{rows}", str(preset["settings"]["rows"])), title


def test_the_lobby_words_every_setting_from_the_served_schema(
        browser: Browser, server: Server) -> None:
    served = server.api("GET", "/api/presets")
    settings = served["settings"]
    six = next(p for p in served["presets"] if p["name"] == "six-card")
    jana = open_player(browser, "Jana", server.url + "/", locale="de-DE")
    page = jana.page
    page.locator("details.rules summary").click()
    expect(page.locator('label[for="rule-holes"]')).to_have_text(
        settings["holes"]["words"]["de"]["name"])
    assert_worded_from_schema(page, settings, "de", six)
    # Six-card's decks from 1 and from 4 players: "ab 1 Spieler", not "ab 1 Spielern".
    expect(page.locator('.setting[data-setting="decks"] .step')).to_have_text(
        [re.compile(r"^ab 1 Spieler:"), re.compile(r"^ab 4 Spielern:")])
    # The points table names its ranks as German cards are named.
    points = settings["points"]["words"]["de"]["name"]
    expect(page.get_by_label(f"{points}: Bube")).to_have_value("10")
    ranks = page.locator('.setting[data-setting="points"] .pt span').all_inner_texts()
    assert ranks == [r if r != "JK" else "★" for r in settings["points"]["ranks"]
                     if r in six["settings"]["points"]], ranks
    page.select_option("#lang", "en")
    page.locator("details.rules summary").click()
    expect(page.locator('label[for="rule-holes"]')).to_have_text(
        settings["holes"]["words"]["en"]["name"])
    assert_worded_from_schema(page, settings, "en", six)
    page.select_option("#lang", "de")

    # The waiting room names the changed settings in the same words.
    page.fill("#name", jana.name)
    page.locator("details.rules summary").click()
    page.select_option("#rule-setup", "peek")
    page.fill("#rule-holes", "1")
    page.locator("#rule-holes").dispatch_event("change")
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    page.locator("form.create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/"))
    rules = page.locator(".rule-list li")
    expect(rules).to_have_count(2)
    expect(rules.filter(has_text=settings["setup"]["words"]["de"]["name"])).to_have_text(
        settings["setup"]["words"]["de"]["name"] + ": "
        + settings["setup"]["words"]["de"]["choices"]["peek"]["name"])
    expect(rules.filter(has_text=settings["holes"]["words"]["de"]["name"])).to_have_text(
        settings["holes"]["words"]["de"]["name"] + ": 1")
    assert not jana.errors, jana.errors
    jana.context.close()
