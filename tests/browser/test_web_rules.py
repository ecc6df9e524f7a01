"""The lobby words every rule setting and choice as the engine serves it (issue 24): the
names, explanations and choice names on the page are those of ``GET /api/presets``'s
``settings[key].words`` in the page's language, and the waiting room names changed settings
the same way."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import Server, open_details, open_player


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
    # The points table names its ranks as German cards are named, and labels them with the
    # letters German cards carry (B, D, K: issue 30).
    points = settings["points"]["words"]["de"]["name"]
    expect(page.get_by_label(f"{points}: Bube")).to_have_value("10")
    ranks = page.locator('.setting[data-setting="points"] .pt span').all_inner_texts()
    letters = {"JK": "★", "J": "B", "Q": "D"}
    assert ranks == [letters.get(r, r) for r in settings["points"]["ranks"]
                     if r in six["settings"]["points"]], ranks
    page.select_option("#lang", "en")
    # The switch of language redraws the form and keeps the house rules open.
    expect(page.locator("details.rules")).to_have_attribute("open", "")
    expect(page.locator('label[for="rule-holes"]')).to_have_text(
        settings["holes"]["words"]["en"]["name"])
    assert_worded_from_schema(page, settings, "en", six)
    page.select_option("#lang", "de")

    # The waiting room names the changed settings in the same words.
    page.fill("#name", jana.name)
    open_details(page, "details.rules")
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


def test_each_house_rule_says_what_it_does_as_the_lab_measured(
        browser: Browser, server: Server) -> None:
    """Beside each house rule, the sentence the rules lab measured for this preset (issue
    31), from GET /api/presets' ``lab`` (the shipped golf.lab table), in the page's language,
    and another preset's sentences once that preset is chosen."""
    from golf.lab import effects_for

    served = server.api("GET", "/api/presets")
    for p in served["presets"]:
        assert p["lab"] == effects_for(p["name"]), p["name"]
    ann = open_player(browser, "Ann", server.url + "/", locale="en-GB")
    page = ann.page
    page.locator("details.rules summary").click()

    def shown(key: str) -> list[str]:
        box = page.locator(f'.setting[data-setting="{key}"] .lab-effects li .lab-sentence')
        return box.all_text_contents()

    def measured(preset: str, key: str, lang: str) -> list[str]:
        return [e[lang] for e in effects_for(preset)["settings"].get(key, []) if e[lang]]

    knock = measured("six-card", "knock", "en")
    assert knock and "knocks" in knock[0], knock
    assert shown("knock") == knock
    assert shown("match") == measured("six-card", "match", "en")
    source = page.locator("details.rules .lab-source")
    expect(source).to_contain_text(effects_for("six-card")["generated"])
    page.select_option("#lang", "de")
    open_details(page, "details.rules")
    assert shown("knock") == measured("six-card", "knock", "de")
    assert shown("knock")[0].startswith("Partien")
    page.select_option("#preset", "german")
    german = next(k for k, v in effects_for("german")["settings"].items() if v)
    expect(page.locator(f'.setting[data-setting="{german}"] .lab-effects')).to_have_count(1)
    assert shown(german) == measured("german", german, "de")
    assert not ann.errors, ann.errors
    ann.context.close()
