"""Issue 38 in the browser, on a 360x640 phone: nobody loses a rated seat by someone else's
tap, and a leaver is shown as having left, last, on every screen and in every figure.

* The host of a two-person rated table asks for a bot in Rita's seat before any move: a
  confirmation says what will happen to whom; Rita is asked, in German, and her no keeps
  her seat; asked again, her yes hands it over, and the result and the rating note count
  her last, marked as having left.
* Rita closes her page for good in a rated German match; the stand-in bot plays her seat
  (and may well win on the cards): the result screen, the standings, the rating note and
  Rita's profile agree that she left and came last, and her hole figures hold no hole of
  the stand-in's. The invite page says the table is rated before one joins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import (
    Player,
    Server,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_player,
)

PHONE = {"width": 360, "height": 640}


def phone(browser: Browser, name: str, url: str, locale: str = "en-US") -> Player:
    return open_player(browser, name, url, locale=locale, viewport=PHONE, mobile=True)


def play_to_the_rating_note(p: Player, moves: int = 3000) -> None:
    """Click this player's moves and close each hole's dialog until the rating note shows
    (the other seat is played by the server)."""
    page = p.page
    note = page.locator(".rating-note")
    for _ in range(moves):
        if note.count():
            return
        if page.locator("dialog[open][data-kind=hole-end]").count():
            page.locator("dialog[open] button.primary").click()
        elif my_turn(p):
            click_a_move(p)
        else:
            page.wait_for_timeout(40)
    raise AssertionError("the match did not end with a rating note")


def box(page: Page, selector: str) -> dict[str, float]:
    """The first element's box in the viewport (getBoundingClientRect)."""
    got: dict[str, float] = page.locator(selector).first.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }")
    return got


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] and b["left"] < a["right"]
            and a["top"] < b["bottom"] and b["top"] < a["bottom"])


def text_lines(page: Page, selector: str) -> int:
    """How many lines the first element's text takes (its line boxes' distinct tops)."""
    count: int = page.locator(selector).first.evaluate(
        "(el) => { const r = document.createRange(); r.selectNodeContents(el);"
        " return new Set([...r.getClientRects()].filter((x) => x.width > 0)"
        ".map((x) => Math.round(x.top))).size; }")
    return count


def no_wider_than_the_phone(page: Page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 1, f"the page is {wide}px wider than a 360 px phone"


def test_the_host_asks_before_a_bot_takes_a_present_players_rated_seat(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = phone(browser, "Ann", server.url + "/")
    ann.page.locator("#rated").check()
    table = create_table(ann, seats=["human"])
    rita = phone(browser, "Rita", invite_url(ann), locale="de-DE")
    # The invite page says the table is rated before one joins (six-card: no memory mode).
    expect(rita.page.locator(".invite-rated")).to_contain_text(
        "Ein gewerteter Tisch: Diese Partie ändert die Wertungen aller am Tisch")
    expect(rita.page.locator(".invite-memory")).to_have_count(0)
    no_wider_than_the_phone(rita.page)
    # The name and "Platz nehmen" are on the first screen of a 360x640 phone (the rated
    # box above them pushed them below it); the button names the box.
    join = rita.page.locator("form.join-form button[type=submit]")
    expect(join).to_have_text("Platz nehmen")
    expect(join).to_have_attribute("aria-describedby", "invite-rated")
    assert rita.page.evaluate("() => scrollY") == 0
    assert box(rita.page, "form.join-form button[type=submit]")["bottom"] <= PHONE["height"]
    assert box(rita.page, "#join-name")["bottom"] <= PHONE["height"]
    rita.page.screenshot(path=str(shots / "trust-invite-rated-de-360.png"), full_page=True)
    join_by_invite(rita)
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.locator("#start").click()
    for pl in (ann, rita):
        expect(pl.page.locator(".felt")).to_be_visible()

    # Before any move the host taps "Let a bot play Rita's seat": first a confirmation
    # that says what will happen to whom, and nothing happens yet.
    ann.page.locator("[data-key=host-tools]").click()
    ann.page.locator("[data-key=bot-seat-1]").click()
    confirm = ann.page.locator("dialog.handover-dialog")
    expect(confirm).to_be_visible()
    expect(confirm.locator("h2")).to_have_text("A bot for Rita's seat?")
    expect(confirm).to_contain_text("Rita is asked first. Nothing changes unless Rita agrees.")
    expect(confirm).to_contain_text("Then a bot plays Rita's seat to the end of this match, "
                                    "and Rita leaves the match.")
    expect(confirm).to_contain_text("This table is rated: Rita is counted last and loses "
                                    "rating points.")
    expect(confirm.locator("[data-key=handover-cancel]")).to_be_focused()
    ann.page.screenshot(path=str(shots / "trust-host-confirm-360.png"))
    assert server.api("GET", f"/api/tables/{table}")["bot_proposal"] is None
    confirm.locator("[data-key=handover-yes]").click()
    expect(confirm).to_have_count(0)

    # Rita is asked, in German, with what a yes and a no do; her seat is still hers.
    expect(ann.page.locator(".bot-waiting")).to_contain_text("waiting for Rita to agree")
    ask = rita.page.locator(".handover-ask")
    expect(ask).to_contain_text("Ann fragt, ob ein Bot deinen Platz bis zum Ende dieser "
                                "Partie spielen darf.")
    expect(ask).to_contain_text("auf dem letzten Platz gewertet")
    expect(ask.locator("[data-key=bot-no]")).to_have_text("Weiterspielen")
    summary = server.api("GET", f"/api/tables/{table}")
    assert summary["bot_proposal"] == {"seat": 1, "accepted": [0], "waiting": [1]}
    assert summary["seats"][1]["stand_in"] is False
    no_wider_than_the_phone(rita.page)
    rita.page.screenshot(path=str(shots / "trust-asked-de-360.png"))

    # Her no keeps her seat, and the host hears it.
    ask.locator("[data-key=bot-no]").click()
    expect(ann.page.locator(".toast")).to_have_text(
        "Rita declined: Rita keeps the seat and plays on.")
    expect(rita.page.locator(".toast")).to_have_text(
        "Du hast abgelehnt: Du behältst deinen Platz.")
    expect(rita.page.locator(".handover-ask")).to_have_count(0)
    summary = server.api("GET", f"/api/tables/{table}")
    assert summary["bot_proposal"] is None and summary["seats"][1]["stand_in"] is False
    ann.page.screenshot(path=str(shots / "trust-declined-360.png"))

    # Both play their setup; then the host asks again and Rita hands her seat over.
    done = 0
    for _ in range(400):
        if done >= 4:
            break
        for pl in (ann, rita):
            if my_turn(pl):
                click_a_move(pl)
                done += 1
        ann.page.wait_for_timeout(40)
    assert done >= 4
    if not ann.page.locator("[data-key=bot-seat-1]").is_visible():
        ann.page.locator("[data-key=host-tools]").click()
    ann.page.locator("[data-key=bot-seat-1]").click()
    ann.page.locator("dialog.handover-dialog [data-key=handover-yes]").click()
    rita.page.locator(".handover-ask [data-key=bot-yes]").click()
    expect(rita.page.locator("#lost-seat")).to_have_text(
        "Ein Bot spielt deinen Platz für den Rest dieser Partie, wie du zugestimmt hast.")
    expect(ann.page.locator(".seat-panel[data-seat='1']")).to_contain_text("left the match")

    # The match ends with Rita last, marked as having left, whatever the cards say.
    play_to_the_rating_note(ann)
    result = server.api("GET", f"/api/tables/{table}/matches/1/replay")["result"]
    assert result["abandoned"] == [1]
    page = ann.page
    expect(page.locator(".result-panel .headline")).to_have_text("You win!")
    rows = page.locator(".result-panel .placings li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("You")
    expect(rows.nth(1)).to_contain_text("Rita")
    expect(rows.nth(1)).to_contain_text("left the match – counted last")
    note = page.locator(".rating-note")
    expect(note.locator("p", has_text="Rita:")).to_contain_text(
        "), left the match – counted last.")
    no_wider_than_the_phone(page)
    page.screenshot(path=str(shots / "trust-result-agreed-360.png"), full_page=True)
    assert not ann.errors, ann.errors
    assert not rita.errors, rita.errors
    ann.context.close()
    rita.context.close()


def test_a_player_who_closed_the_page_is_last_on_every_screen(
        browser: Browser, server: Server, shots: Path) -> None:
    sam = phone(browser, "Sam", server.url + "/", locale="de-DE")
    sam.page.locator("#rated").check()
    table = create_table(sam, seats=["human"], absence="bot", grace=1)
    rita = phone(browser, "Rita", invite_url(sam))
    expect(rita.page.locator(".invite-rated")).to_contain_text(
        "A rated table: this match changes the ratings of everyone seated, and leaving "
        "before its end counts as last place.")
    join_by_invite(rita)
    expect(sam.page.locator("#start")).to_be_enabled()
    sam.page.locator("#start").click()
    expect(rita.page.locator(".felt")).to_be_visible()
    # Rita closes her page for good: after her grace a stand-in plays her seat.
    rita.context.close()
    # Her small seat panel says so in a short pill on one line, centred with room to the
    # panel's edges; the whole sentence is its title and what a screen reader reads.
    pill = sam.page.locator(".seat-panel[data-seat='1'] .tag-stand-in")
    for _ in range(600):  # the stand-in comes when her turn does: Sam plays till then
        if pill.count():
            break
        if my_turn(sam):
            click_a_move(sam)
        else:
            sam.page.wait_for_timeout(50)
    expect(pill).to_be_visible()
    expect(pill).to_have_attribute("title", "ein Bot spielt stellvertretend")
    expect(pill.locator(".sr-only")).to_have_text("ein Bot spielt stellvertretend")
    expect(pill.locator("[aria-hidden=true]")).to_have_text("Bot spielt")
    sam.page.screenshot(path=str(shots / "trust-stand-in-de-360.png"))
    assert text_lines(sam.page, ".seat-panel[data-seat='1'] .tag-stand-in [aria-hidden]") == 1
    # Its line of the panel's head (it may share it with another pill) is centred.
    tag = box(sam.page, ".seat-panel[data-seat='1'] .tag-stand-in")
    panel = box(sam.page, ".seat-panel[data-seat='1']")
    row: dict[str, float] = sam.page.locator(
        ".seat-panel[data-seat='1'] .tag-stand-in").evaluate(
        "(el) => { const top = el.getBoundingClientRect().top;"
        " const same = [...el.parentElement.children].map((c) => c.getBoundingClientRect())"
        ".filter((r) => r.width > 0 && Math.abs(r.top - top) < 3);"
        " return { left: Math.min(...same.map((r) => r.left)),"
        " right: Math.max(...same.map((r) => r.right)) }; }")
    left, right = row["left"] - panel["left"], panel["right"] - row["right"]
    assert tag["left"] - panel["left"] >= 4 and panel["right"] - tag["right"] >= 4, (tag, panel)
    assert abs(left - right) <= 2, f"the pill's line is off centre: {left} px, {right} px"
    play_to_the_rating_note(sam)

    page = sam.page
    # Never "Rita gewinnt!": Sam wins as the match counts it, Rita is last and marked.
    rows = page.locator(".result-panel .placings li")
    expect(rows.nth(1)).to_contain_text("Rita")
    expect(rows.nth(1)).to_contain_text("hat die Partie verlassen – auf dem letzten Platz "
                                        "gewertet")
    expect(rows.nth(0)).to_contain_text("Du")
    expect(page.locator(".result-panel .headline")).to_have_text("Du gewinnst!")
    result = server.api("GET", f"/api/tables/{table}/matches/1/replay")["result"]
    assert result["abandoned"] == [1]
    expect(rows.nth(1).locator(".total")).to_have_text(f"{result['totals'][1]} Punkte")
    note = page.locator(".rating-note")
    expect(note.locator("p", has_text="Rita:")).to_contain_text("hat die Partie verlassen")
    frame: dict[str, Any] = server.api("GET", f"/api/tables/{table}/matches/1/ratings")
    by_seat = {s["seat"]: s for s in frame["seats"]}
    assert by_seat[1]["abandoned"] is True and by_seat[0]["abandoned"] is False
    assert by_seat[1]["delta"] < 0 < by_seat[0]["delta"]
    # The log's last line never names Rita as a winner (it names none when only she won
    # on the cards; the result above says who won as the match counts it).
    expect(page.locator("ol.log li").first).to_contain_text("Die Partie ist vorbei.")
    expect(page.locator("ol.log")).not_to_contain_text("Gewonnen: Rita")
    no_wider_than_the_phone(page)
    # On the phone the note covers neither the standings (nor Rita's mark) nor the buttons
    # under them: it sits in the result panel after them, whatever the scroll.
    expect(page.locator(".result-panel .rating-note")).to_have_count(1)
    for scroll in (0, 200):
        page.evaluate(f"() => scrollTo(0, {scroll})")
        page.wait_for_timeout(50)
        mine = box(page, ".rating-note")
        for i in range(rows.count()):
            assert not overlap(mine, box(page, f".result-panel .placings li >> nth={i}")), i
        assert not overlap(mine, box(page, ".result-panel .form-actions"))
    page.evaluate("() => scrollTo(0, 0)")
    # "Verlauf (n)" under the discard pile on one line.
    assert text_lines(page, "[data-key=history]") == 1
    page.screenshot(path=str(shots / "trust-result-left-de-360.png"), full_page=True)
    note.locator("button", has_text="Schließen").click()
    page.locator(".result-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "trust-standings-left-de-360.png"))

    # The replay's result tells the same story.
    page.goto(f"{server.url}/replay/{table}/1")
    replay_rows = page.locator(".replay-result .placings li")
    expect(replay_rows.nth(1)).to_contain_text("Rita")
    expect(replay_rows.nth(1)).to_contain_text("hat die Partie verlassen")

    # Rita's profile: last, marked as having left; no hole of the stand-in's is hers.
    rita_id = by_seat[1]["player"]
    profile = server.api("GET", f"/api/players/{rita_id}")
    (row,) = profile["variants"]
    assert (row["games"], row["wins"], row["holes"], row["best_hole"]) == (1, 0, 0, None)
    assert profile["recent"][0]["place"] == 2 and profile["recent"][0]["left"] is True
    page.goto(f"{server.url}/players/{rita_id}")
    recent = page.locator(".recent-list li").first
    expect(recent).to_contain_text("Platz 2 von 2")
    expect(recent.locator(".left-mark")).to_have_text("Partie verlassen")
    stats = page.locator("table.stats tbody tr").first
    # Average and best hole: none (the stand-in's holes are not hers).
    expect(stats.locator("td").nth(3)).to_have_text("–")
    expect(stats.locator("td").nth(4)).to_have_text("–")
    no_wider_than_the_phone(page)
    page.screenshot(path=str(shots / "trust-profile-left-de-360.png"), full_page=True)
    assert not sam.errors, sam.errors
    sam.context.close()
