"""Ratings in the browser: a guest plays a rated match against a bot and sees the rating
change, then their profile and the leaderboard (English and German, phone-sized)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect
from webplay import Server, click_a_move, create_table, my_turn, open_player

from golf.ratings import Anchors, RatedMatch, Seat, Variant, placings, rate_match


def test_a_guest_plays_a_rated_match_against_a_bot_and_sees_the_rating_change(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    page = ann.page
    expect(page.locator("#preset")).to_have_value("six-card")
    page.fill("#name", "Ann")
    page.locator("#rated").check()
    # House rules make a table casual: a rated table is refused with the reason, shown
    # next to the choice.
    page.locator("details.rules summary").click()
    page.fill("#rule-holes", "3")
    page.locator("#rule-holes").dispatch_event("change")
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    # The rules check runs after each change and clears the form's messages: submit
    # again if its answer came after the refusal.
    refusal = page.locator("#err-rated")
    for _ in range(5):
        page.locator("form.create button[type=submit]").click()
        page.wait_for_timeout(500)
        if "house rules" in (refusal.text_content() or ""):
            break
    expect(refusal).to_contain_text("house rules")
    expect(page).to_have_url(server.url + "/")
    page.locator("details.rules button.ghost").click()
    table = create_table(ann, seats=["medium"])
    summary = server.api("GET", f"/api/tables/{table}")
    assert summary["rated"] is True and summary["casual_reason"] is None
    page.locator("#start").click()
    expect(page.locator(".felt")).to_be_visible()

    # Play the whole match by clicks, closing each hole's dialog, until the note comes.
    note = page.locator(".rating-note")
    for _ in range(2000):
        if note.count():
            break
        if page.locator("dialog[open][data-kind=hole-end]").count():
            page.locator("dialog[open] button.primary").click()
        elif my_turn(ann):
            click_a_move(ann)
        else:
            page.wait_for_timeout(40)
    expect(note).to_be_visible()
    expect(note).to_contain_text("Your rating in Six-card Golf · 2 players: 900 →")
    # On a laptop the note floats in a corner, as before (a phone's is in the result panel).
    assert note.evaluate("(el) => getComputedStyle(el).position") == "fixed"
    page.screenshot(path=str(shots / "rating-note.png"), full_page=False)

    # The change shown is the model's update for the stored result.
    result = server.api("GET", f"/api/tables/{table}/matches/1/replay")["result"]
    places = placings(result["winners"], result["totals"])
    v = Variant("six-card", "2")
    want = rate_match({}, RatedMatch(v, (Seat("me", places[0]),
                                         Seat("medium", places[1], bot=True))),
                      Anchors.measured())["me"]
    after = f"{want.after.display:,}"
    delta = f"{want.delta:+,d}" if want.delta else "0"
    expect(note.locator("p.mine")).to_contain_text(f"→ {after} ({delta})")

    # The profile: the variant's figures, the provisional rating, the graph, the replay.
    note.get_by_role("link").click()
    page.wait_for_url(re.compile(r"/players/"))
    expect(page.locator("h1#profile-title")).to_have_text("Profile: Ann")
    row = page.locator("table.stats tbody tr").first
    expect(row.locator("th")).to_contain_text("Six-card")
    expect(row).to_contain_text(after)
    expect(row.locator("abbr.provisional")).to_have_count(1)
    graph = page.locator("img.rating-graph")
    expect(graph).to_be_visible()
    page.wait_for_function("() => document.querySelector('img.rating-graph').naturalWidth > 0")
    expect(page.locator(".recent-list a", has_text="Replay")).to_have_attribute(
        "href", f"/replay/{table}/1")
    expect(page.locator("table.stats", has_text="Medium bot")).to_have_count(1)
    page.screenshot(path=str(shots / "profile.png"), full_page=True)

    # The leaderboard: not on it before 10 rated matches, and told how many are missing.
    page.locator("a.topbar-link").click()
    page.wait_for_url(re.compile(r"/leaderboards"))
    expect(page.locator(".board-me")).to_contain_text("9 more rated matches")
    expect(page.locator(".bot-anchors li", has_text="Medium bot")).to_have_count(1)

    # German, on a phone: the same pages in German, nothing wider than the screen.
    phone = open_player(browser, "Ann", page.url, locale="de-DE",
                        viewport={"width": 375, "height": 740}, mobile=True)
    phone.page.select_option("#lang", "de")
    expect(phone.page.locator("h1#board-title")).to_have_text("Bestenlisten")
    profile_url = f"{server.url}/players/{ann_id(server, table)}"
    phone.page.goto(profile_url)
    expect(phone.page.locator("h1#profile-title")).to_have_text("Profil: Ann")
    expect(phone.page.locator("table.stats tbody tr").first).to_contain_text(
        f"{want.after.display:,}".replace(",", "."))
    wide = phone.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 1, f"the profile is {wide}px wider than a phone"
    phone.page.screenshot(path=str(shots / "profile-phone-de.png"), full_page=True)
    # The refused rated tables above are the only failed requests (the browser logs each).
    unexpected = [e for e in ann.errors if "status of 422" not in e]
    assert not unexpected, unexpected
    assert not phone.errors, phone.errors
    phone.context.close()
    ann.context.close()


def ann_id(server: Server, table: str) -> str:
    """The player seated at seat 0 (from the rating frame's REST twin)."""
    frame = server.api("GET", f"/api/tables/{table}/matches/1/ratings")
    return str(frame["seats"][0]["player"])
