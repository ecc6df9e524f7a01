"""The words a player reads (issues 29 and 30): every sentence that can name the reader has
its own wording in English and German, German cards and articles, the default table names
in the page's language, capitalised messages, and the marks of a rated table (lobby, waiting
room, table) with the Hint and "keep the cards I looked at visible" left out there."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import (
    Server,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_player,
)

from golf.rules import preset_names, preset_title
from golf.server.ratings.rating_graph import rating_svg

# One call into the page's own modules per language: the sentences a template that takes a
# player's name gives when that player is the reader (seat 0), and the helpers' words.
WORDS_JS = """async (code) => {
  const i18n = await import('/static/js/i18n.js');
  const names = await import('/static/js/names.js');
  const narrate = await import('/static/js/narrate.js');
  const finish = await import('/static/js/finish.js');
  const holeend = await import('/static/js/holeend.js');
  const account = await import('/static/js/account.js');
  i18n.setLang(code);
  const table = { seats: [{ seat: 0, kind: 'human', name: 'Ann' },
                          { seat: 1, kind: 'human', name: 'Bob' },
                          { seat: 2, kind: 'human', name: 'Cy' }] };
  const name = (s) => narrate.seatName(table, s, 0);
  const bots = { seats: [{ seat: 0, kind: 'human', name: 'Ann' },
    { seat: 1, kind: 'bot', bot: 'easy', name: 'Easy bot', bot_number: 1 },
    { seat: 2, kind: 'bot', bot: 'easy', name: 'Easy bot 2', bot_number: 2 },
    { seat: 3, kind: 'bot', bot: 'hard', name: 'Hard bot', bot_number: 1 },
    { seat: 4, kind: 'bot', bot: 'hard', name: 'Hard bot 3', bot_number: 3 }] };
  const told = (facts, seat = 1) => narrate.narrate({ action: 'draw', seat, facts }, table, 0).text;
  const view = { is_over: true, holes: 9, totals: [12, 53, 30], winners: [0],
                 hole_scores: [[1, 2, 3], [4, 5, 6], [7, 46, 21]] };
  return {
    bots: [1, 2, 3, 4].map((s) => narrate.seatName(bots, s, 0)),
    deal: told([{ type: 'hole_start', hole: 2, dealer: 0 }]),
    dealOther: told([{ type: 'hole_start', hole: 2, dealer: 1 }]),
    finalTurns: told([{ type: 'final_turns', seat: 1, seats: [0, 2] }]),
    finalTurnsMe: told([{ type: 'final_turns', seat: 1, seats: [0] }]),
    playoff: told([{ type: 'playoff', hole: 10, seats: [0, 1] }]),
    won: told([{ type: 'match_end', winners: [0, 2] }]),
    breakWaiting: finish.breakClockText({ waiting: [0, 1] }, 9, name, 0),
    breakWaitingMe: finish.breakClockText({ waiting: [0] }, 9, name, 0),
    share: holeend.resultEl({ ...view, totals: [12, 12, 30], winners: [0, 1] }, table, 0)
      .querySelector('.headline').textContent,
    early: finish.targetEndText(view, { target: 50, target_ends: 'exceed' }, 0, name),
    notEarly: finish.targetEndText({ ...view, totals: [12, 40, 30] },
      { target: 50, target_ends: 'exceed' }, 0, name),
    articles: ['JC', 'QH', 'AS', '7D', 'KS', 'JK'].map((c) => names.cardArticle(c)),
    ownTitle: names.tableTitle("Ann's table"),
    quickTitle: names.tableTitle('Quick play: six-card'),
    typedTitle: names.tableTitle('Friday night'),
    sentence: i18n.sentence('a password needs at least 10 characters'),
    browser: account.browserName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 '
      + '(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'),
    edge: account.browserName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 '
      + '(KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0'),
    iphone: account.browserName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) '
      + 'AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
  };
}"""

# What no page may ever say of its reader.
NEVER = re.compile(r"You's|You deals|You plays?\b|waiting for You|\bDu gibt\b|"
                   r"es fehlt noch: Du|Du spielen|Gewonnen: Du|and You\b|"
                   r"und Du\b")


def words(page: Page, code: str) -> dict[str, Any]:
    return dict(page.evaluate(WORDS_JS, code))


def test_sentences_that_name_the_reader_and_german_words(browser: Browser,
                                                         server: Server) -> None:
    p = open_player(browser, "Ann", server.url + "/")
    page = p.page
    expect(page.locator("#preset")).to_be_visible()
    en = words(page, "en")
    de = words(page, "de")
    for said in (en, de):
        for key, text in said.items():
            if isinstance(text, str):
                assert not NEVER.search(text), f"{key}: {text!r}"
    assert en["bots"] == ["Easy bot", "Easy bot 2", "Hard bot", "Hard bot 3"]
    assert de["bots"] == ["Leichter Bot", "Leichter Bot 2", "Schwerer Bot", "Schwerer Bot 3"]
    assert en["deal"] == "Hole 2 begins; you deal."
    assert de["deal"] == "Runde 2 beginnt; du gibst."
    assert en["dealOther"] == "Hole 2 begins; Bob deals."
    assert en["finalTurns"] == "Last turns: one more turn for you and Cy."
    assert de["finalTurns"] == "Letzte Züge: noch ein Zug für dich und Cy."
    assert en["finalTurnsMe"] == "Last turns: one more turn for you."
    assert en["playoff"] == "A tie: you and Bob play a playoff hole (10)."
    assert de["playoff"] == "Gleichstand: Du spielst mit Bob eine Stichrunde (10)."
    assert en["won"] == "The match is over: you and Cy won."
    assert de["won"] == "Die Partie ist vorbei. Du und Cy habt gewonnen."
    assert en["breakWaiting"] == "Next hole in 9 s – waiting for you and Bob"
    assert de["breakWaiting"] == "Nächste Runde in 9 s – wir warten auf dich und Bob"
    assert de["breakWaitingMe"] == "Nächste Runde in 9 s – wir warten auf dich"
    assert en["share"] == "You and Bob share the win!"
    assert de["share"] == "Du teilst dir den Sieg mit Bob!"
    # The final screen says why the match ended before its ninth hole.
    assert en["early"] == ("The match ended after hole 3 of 9: a total went over the points "
                           "target of 50. Over the target: Bob (53).")
    assert de["early"].startswith("Die Partie endete nach Runde 3 von 9")
    assert en["notEarly"] is None
    # German articles follow the card: der Bube, die Dame, das Ass, die 7, der König, Joker.
    assert de["articles"] == ["den", "die", "das", "die", "den", "den"]
    assert en["articles"] == ["the"] * 6
    # Default table names in the page's language; a typed name stays.
    assert de["ownTitle"] == "Tisch von Ann" and en["ownTitle"] == "Ann's table"
    # A quick-play table's name (from before: "Quick play: six-card").
    assert en["quickTitle"] == "Quick play · Six-card Golf"
    assert de["quickTitle"] == "Schnellspiel · Sechs-Karten-Golf"
    # The name the server gives now names the game as people do, shown in the page's language
    # for every preset (the server's English names are the page's).
    titles = {name: f"Quick play · {preset_title(name)}" for name in preset_names()}
    shown = page.evaluate("""async (titles) => {
      const i18n = await import('/static/js/i18n.js');
      const names = await import('/static/js/names.js');
      const out = {};
      for (const code of ['en', 'de']) {
        i18n.setLang(code);
        out[code] = Object.fromEntries(Object.entries(titles).map(([k, v]) =>
          [k, [names.tableTitle(v), names.presetName(k)]]));
      }
      return out;
    }""", titles)
    for name in preset_names():
        assert preset_title(name) != name, name
        assert shown["en"][name][0] == titles[name], shown["en"][name]
        german, game = shown["de"][name]
        assert german == f"Schnellspiel · {game}" and game != preset_title(name), german
    assert de["typedTitle"] == "Friday night"
    assert en["sentence"] == "A password needs at least 10 characters"
    assert en["browser"] == "Chrome on Linux" and de["browser"] == "Chrome auf Linux"
    assert en["edge"] == "Edge on Windows" and en["iphone"] == "Safari on iOS"

    # The rating graph's legend and description name the variant and band in words.
    svg = rating_svg("Ann", {"six-card/2": [(0.0, 900), (1.0, 1049)]}, "en")
    graph = page.evaluate("""async (svg) => {
      const profile = await import('/static/js/profile.js');
      const i18n = await import('/static/js/i18n.js');
      const out = {};
      for (const code of ['en', 'de']) {
        i18n.setLang(code);
        const doc = new DOMParser().parseFromString(
          profile.wordedGraph(svg, { 'six-card/2': 1 }), 'image/svg+xml');
        out[code] = [...doc.querySelectorAll('text, desc')].map((e) => e.textContent).join('|');
      }
      return out;
    }""", svg)
    assert "Six-card Golf · 2 players: 1,049 (1 rated match)" in graph["en"], graph
    assert "Six-card Golf · 2 players: 1 rated match, from 900 to 1,049." in graph["en"]
    assert "Sechs-Karten-Golf · 2 Spieler: 1.049 (1 gewertete Partie)" in graph["de"], graph
    assert "six-card/2" not in graph["en"] + graph["de"]

    # The house rules' point labels carry the German card letters (B, D, K), not J Q K.
    page.select_option("#lang", "de")
    page.select_option("#preset", "six-card")
    page.locator("details.rules summary").click()
    labels = page.locator("#rule-points label.pt > span").all_text_contents()
    assert {"B", "D", "K"} <= set(labels) and not {"J", "Q"} & set(labels), labels

    # The leaderboard lists the bots a table can seat and says where to meet the others.
    page.goto(server.url + "/leaderboards")
    expect(page.locator(".bot-anchors li").first).to_be_visible()
    names = page.locator(".bot-anchors li > span").all_text_contents()
    assert names and set(names) <= {"Leichter Bot", "Mittlerer Bot", "Schwerer Bot"}, names
    expect(page.locator(".bot-others")).to_contain_text("golf play --bots")

    # Your own profile is one click away in the account menu.
    page.locator("#acct-summary").click()
    page.locator("#acct-profile").click()
    page.wait_for_url(re.compile(r"/players/"))
    expect(page.locator("h1#profile-title")).to_contain_text("Profil: ")
    assert not p.errors, p.errors
    p.context.close()


def test_a_rated_table_is_marked_and_offers_no_hint(browser: Browser, server: Server,
                                                    shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/", locale="de-DE")
    page = ann.page
    page.fill("#name", "Ann")
    page.select_option("#preset", "german")
    while page.locator(".seat-list select").count() > 1:
        page.locator(".seat-list button.icon").last.click()
    page.locator(".seat-list select").nth(0).select_option("medium")
    page.locator("#rated").check()
    page.locator("details.options summary").click()
    page.fill("#opt-bot_delay", "0")
    page.locator("#opt-bot_delay").dispatch_event("change")
    page.locator("form.create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/"))
    table = page.url.rsplit("/", 1)[1]
    # No typed name: the server's default, worded in each page's language.
    assert server.api("GET", f"/api/tables/{table}")["title"] == "Ann's table"
    expect(page.locator("h1#wait-title")).to_have_text("Tisch von Ann")
    expect(page.locator(".waiting [data-mark=rated]")).to_contain_text("Gewertet")
    expect(page.locator(".waiting [data-mark=memory]")).to_contain_text("Gedächtnis")
    page.locator("#start").click()
    expect(page.locator(".felt")).to_be_visible()
    expect(page.locator(".table-head [data-mark=rated]")).to_be_visible()
    expect(page.locator(".table-head h1")).to_have_text("Tisch von Ann")
    for _ in range(200):
        if my_turn(ann):
            break
        page.wait_for_timeout(50)
    assert my_turn(ann)
    # No Hint at a rated table: no button, no key in the help line.
    expect(page.locator("[data-key=act-hint]")).to_have_count(0)
    assert "Tipp" not in (page.locator(".keys-help").text_content() or "")
    # "Keep the cards I looked at visible" is a casual table's comfort.
    page.locator("details.display-menu summary").click()
    expect(page.locator("#pref-peeked-row")).to_be_hidden()
    expect(page.locator("#pref-peeked-rated")).to_be_visible()
    page.screenshot(path=str(shots / "rated-table-de.png"))
    page.locator("details.display-menu summary").click()

    # The lobby, in English now: the unfinished table by its English name, marked rated.
    # The lobby tells the table that Ann is still here, on another page.
    with page.expect_request(re.compile(rf"/api/tables/{table}/here$")):
        page.goto(server.url + "/")
    for _ in range(50):
        if server.api("GET", f"/api/tables/{table}")["seats"][0].get("elsewhere"):
            break
        page.wait_for_timeout(100)
    assert server.api("GET", f"/api/tables/{table}")["seats"][0]["elsewhere"] is True
    page.select_option("#lang", "en")
    mine = page.locator("li.table-item", has_text="Ann's table")
    expect(mine.locator("[data-mark=rated]")).to_have_text(re.compile("Rated"))
    # The display menu offers the setting again away from the rated table.
    page.locator("details.display-menu summary").click()
    expect(page.locator("#pref-peeked-row")).to_be_visible()
    assert not ann.errors, ann.errors
    ann.context.close()


def test_the_host_nudges_adds_a_timer_and_seats_a_bot_with_consent(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["human", "human"])
    link = invite_url(ann)
    bob = open_player(browser, "Bob", link)
    join_by_invite(bob)
    cy = open_player(browser, "Cy", link, locale="de-DE")
    join_by_invite(cy)
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.locator("#start").click()
    people = [ann, bob, cy]
    for pl in people:
        expect(pl.page.locator(".felt")).to_be_visible()
    # Play until it is Bob's turn: Ann may nudge him, and everyone reads it.
    for _ in range(300):
        if bob.page.locator(".turn-pill.mine").count() and not my_turn(ann):
            break
        for pl in (ann, cy):
            if my_turn(pl):
                click_a_move(pl)
        ann.page.wait_for_timeout(50)
    nudge = ann.page.locator("[data-key=nudge]")
    ann.page.locator("[data-key=host-tools]").click()
    expect(nudge).to_have_text("Nudge Bob")
    nudge.click()
    expect(bob.page.locator(".toast")).to_have_text("Ann reminds you: it is your turn.")
    expect(cy.page.locator(".toast")).to_have_text("Ann hat Bob an den Zug erinnert.")
    expect(ann.page.locator(".toast")).to_have_text("You reminded Bob that it is their turn.")
    # A turn timer the table did not have, the same for everyone from now on.
    ann.page.select_option("#host-timer", "60")
    ann.page.locator("[data-key=add-timer]").click()
    expect(ann.page.locator(".host-tools")).to_contain_text("Turn timer: 60 s per turn.")
    current = server.api("GET", f"/api/tables/{table}")
    assert current["options"]["turn_timer"] == 60
    # A bot in Bob's seat: confirmed first; Bob (here) and Cy are asked and agree; Bob's
    # page says so, with no player's button.
    ann.page.locator("[data-key=bot-seat-1]").click()
    ann.page.locator("dialog.handover-dialog [data-key=handover-yes]").click()
    expect(ann.page.locator(".bot-waiting")).to_contain_text("waiting for Bob and Cy to agree")
    ask = cy.page.locator(".bot-ask")
    expect(ask).to_contain_text("Ann schlägt vor, dass ein Bot den Platz von Bob")
    expect(bob.page.locator(".handover-ask")).to_contain_text(
        "Ann asks whether a bot may play your seat")
    ann.page.screenshot(path=str(shots / "host-tools.png"))
    cy.page.screenshot(path=str(shots / "host-bot-ask-de.png"))
    ask.locator("[data-key=bot-yes]").click()
    expect(ann.page.locator(".bot-waiting")).to_contain_text("waiting for Bob to agree")
    bob.page.locator(".handover-ask [data-key=bot-yes]").click()
    expect(bob.page.locator("#lost-seat")).to_have_text(
        "A bot plays your seat for the rest of this match, as you agreed.")
    expect(bob.page.locator(".my-area")).to_have_count(0)
    expect(bob.page.locator(".board-area button")).to_have_count(0)
    expect(bob.page.locator(".chat-form input")).to_have_count(0)
    expect(ann.page.locator(".seat-panel[data-seat='1']")).to_contain_text("left the match")
    bob.page.screenshot(path=str(shots / "lost-seat.png"))

    # A switch of language tells the log again, and its accessible names, in German.
    expect(ann.page.locator("ol.log li").first).to_contain_text("turned up")
    ann.page.select_option("#lang", "de")
    expect(ann.page.locator("ol.log li").first).to_contain_text("aufgedeckt")
    expect(ann.page.locator("ol.log")).to_have_attribute("aria-label", "Was passiert ist")
    expect(ann.page.locator("ol.chat-list")).to_have_attribute("aria-label", "Chat")
    ann.page.select_option("#lang", "en")

    # Block and report on Bob's profile; the account menu lists the block and undoes it.
    bob_id = bob.page.evaluate("async () => (await (await fetch('/api/me')).json()).player.id")
    page = ann.page
    page.goto(f"{server.url}/players/{bob_id}")
    block = page.locator("#profile-block")
    expect(block).to_have_text("Block Bob")
    block.click()
    expect(block).to_have_text("Unblock Bob")
    expect(page.locator(".profile-care")).to_contain_text("Bob is blocked.")
    page.locator(".care-report summary").click()
    page.fill("#profile-reason", "Rude in the chat.")
    page.locator("#profile-report button[type=submit]").click()
    expect(page.locator(".profile-care")).to_contain_text("the report was sent")
    page.locator("#acct-summary").click()
    page.locator("details.acct-blocked summary").click()
    expect(page.locator(f"#acct-blocks li a[href='/players/{bob_id}']")).to_have_count(1)
    page.locator(f"#acct-unblock-{bob_id}").click()
    expect(page.locator("details.acct-blocked")).to_contain_text("You have blocked nobody.")
    page.reload()
    expect(page.locator("#profile-block")).to_have_text("Block Bob")
    # No block or report on one's own profile.
    page.goto(f"{server.url}/players/{bob_id}".replace(bob_id, ann.page.evaluate(
        "async () => (await (await fetch('/api/me')).json()).player.id")))
    expect(page.locator("h1#profile-title")).to_be_visible()
    expect(page.locator("#profile-block")).to_have_count(0)
    for pl in people:
        assert not [e for e in pl.errors if "status of 4" not in e], pl.errors
        pl.context.close()


# Issue 38: the page's words, in both languages, where the server's English or a wrong
# number or term reached the page.
ISSUE_38_JS = """async (code) => {
  const i18n = await import('/static/js/i18n.js');
  await import('/static/js/strings/narrate.js');
  await import('/static/js/strings/profiles.js');
  await import('/static/js/strings/lobby.js');
  await import('/static/js/strings/table.js');
  const api = await import('/static/js/api.js');
  i18n.setLang(code);
  const tn = i18n.tn || ((key, n, params) => i18n.t(key, params));  // before issue 38: none
  let refused = null;
  try {
    await api.post('/api/tables', { name: 'Ann', preset: 'six-card', rated: true,
      rules: { holes: 2 }, seats: [{ kind: 'human' }, { kind: 'human' }] });
  } catch (e) { refused = e.message; }
  return {
    refused,
    flip: i18n.t('ev.flip', { name: 'Bob', card: '6♣', n: 3 }),
    youNot: tn('board.youNot', 1, { needed: '1', rating: '1000' }),
    youNotMany: tn('board.youNot', 2, { needed: '2', rating: '1000' }),
    how: i18n.t('lobby.how.5'),
    bots: i18n.t('board.botsOther', { names: 'Search', example: 'search' }),
    mute: [i18n.t('chat.muteShort'), i18n.t('chat.unmuteShort')],
  };
}"""


def test_server_refusals_counts_and_terms_in_the_pages_words(browser: Browser,
                                                             server: Server) -> None:
    p = open_player(browser, "Ann", server.url + "/", locale="de-DE")
    page = p.page
    expect(page.locator("#name")).to_be_visible()
    en = page.evaluate(ISSUE_38_JS, "en")
    de = page.evaluate(ISSUE_38_JS, "de")
    # The refusal worded by the page from its code and cause, not the server's sentence.
    assert en["refused"] == ("This table cannot be rated: house rules make a table casual. "
                             "Rated tables play a game's rules unchanged."), en
    assert de["refused"].startswith("Dieser Tisch kann nicht gewertet werden: Hausregeln"), de
    # One of a thing is one, not "1 rated matches".
    assert "1 more rated match (" in en["youNot"] and "2 more rated matches" in en["youNotMany"]
    assert "noch 1 gewertete Partie (" in de["youNot"]
    # The card after "turned up", not "auf Platz 3 6♣".
    assert de["flip"] == "Bob hat 6♣ auf Platz 3 aufgedeckt.", de["flip"]
    # The form is not "below" the how-to, and players are not sent to docs/protocol.md.
    assert "below" not in en["how"] and "unten" not in de["how"]
    assert "protocol.md" not in en["bots"] and "protocol.md" not in de["bots"]
    # The mute button says what it does to the chat, not the adjective "stumm".
    assert de["mute"] == ["Chat aus", "Chat an"], de["mute"]
    p.page.reload()
    page.select_option("#lang", "de")
    # One term for the table's options in German.
    expect(page.locator("body")).to_contain_text("Tischoptionen")
    assert "Tisch-Einstellungen" not in page.content()
    p.errors[:] = [e for e in p.errors if "status of 422" not in e]
    assert not p.errors, p.errors
    p.context.close()


def test_the_waiting_room_does_not_describe_rules_the_table_changed(
        browser: Browser, server: Server) -> None:
    """A table of two holes is not described as "nine holes" (the preset's description)."""
    made = server.api("POST", "/api/tables", {"name": "Ann", "preset": "six-card",
                                              "rules": {"holes": 2},
                                              "seats": [{"kind": "human"}, {"kind": "human"}]})
    context = browser.new_context(locale="en-US")
    seats = {made["table"]["id"]: {"token": made["token"], "seat": 0, "at": 1}}
    context.add_init_script(
        f"localStorage.setItem('golf.seats', {json.dumps(json.dumps(seats))});")
    page = context.new_page()
    page.goto(f"{server.url}/t/{made['table']['id']}")
    room = page.locator("section.waiting")
    expect(room).to_be_visible()
    expect(room.locator("> p.help").first).to_contain_text("with this table's changes")
    assert "nine holes" not in room.inner_text()
    context.close()
