"""The layout sweep (issue 30), every screen but the table's (those are test_web_sweep.py's):
the lobby, table creation with the options and house rules open, quick play while it looks
for players, the invite page, the waiting room with two people and with the most seats a table
has, a table of two people (their mute and "⋯" buttons) and its hole break, the replays of a
finished two-player six-card match and a finished nine-card match of eight, the own profile of
a signed-in player with history (also in German at 375 px), the rating pop-up, the account
menu with its list of signed-in browsers, and the leaderboard.

Each state is reached once and then looked at in 360×640, 390×844, 1280×720 and 1366×768, in
English and German, on the same page (layoutkit.sweep); touch sizes are checked on the phone
sizes. Beside the sweep's faults, a few screens have checks of their own: no player's name is
shortened and no two grids overlap or leave the window (the replay of eight), the figures of
the profile's tables stand under their headers, the rating pop-up's link and button stand
apart, the own cards keep their places when a card is in hand, the match result says why a
match ended early, and the clock's hourglass is drawn by the page."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from layoutkit import (
    VIEWPORTS,
    contact_sheet,
    make_table,
    open_seated,
    sweep,
    to_the_draw,
)
from playwright.sync_api import Browser, Page, expect
from webplay import (
    Player,
    Server,
    claim,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_details,
    open_menu,
    open_player,
    play_until_hole_end,
)

PHONE = VIEWPORTS["360x640"]
MOST = 8  # the most seats a table has (golf.server.core.protocol.MAX_SEATS; six-card and nine-card)

# A table made by this browser's own lobby call (so that its matches are this player's), its
# seat remembered as the lobby would, started unless told otherwise.
MAKE_JS = """async ([body, start]) => {
  const api = await import('/static/js/api.js');
  const out = await api.post('/api/tables', body);
  api.rememberSeat(out.table.id, out.token, out.seat);
  if (start) await api.post(`/api/tables/${out.table.id}/start`, {}, out.token);
  return out.table.id;
}"""


def own_table(page: Page, *, preset: str, bots: int, rules: dict[str, Any],
              start: bool = True) -> str:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"} for _ in range(bots)]
    body = {"name": "Dee", "preset": preset, "seats": seats, "rules": rules,
            "options": {"bot_delay": 0}}
    return str(page.evaluate(MAKE_JS, [body, start]))


def play_to_the_result(p: Player) -> None:
    """Click moves and close each hole's dialog until the match result shows."""
    page = p.page
    result = page.locator(".result .headline")
    for _ in range(3000):
        if result.count():
            return
        if page.locator("dialog[open][data-kind=hole-end]").count():
            page.locator("dialog[open] button.primary").click()
        elif my_turn(p):
            click_a_move(p)
        else:
            page.wait_for_timeout(30)
    raise AssertionError("the match did not end")


# --- checks of particular screens -------------------------------------------------------------

NAMES_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.seat-name, .acct-name, .wait-name strong')) {
    const r = el.getBoundingClientRect();
    if (r.width > 1 && el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
      out.push(`name "${el.textContent}" shortened (${el.clientWidth} of ${el.scrollWidth} px)`);
  }
  return out;
}"""

GRIDS_JS = """() => {
  // Each grid as its cards stand (a grid squeezed into a narrow panel overflows its box).
  const out = [];
  const W = document.documentElement.clientWidth;
  const grids = [...document.querySelectorAll('.felt .seat-panel')].map((panel) => {
    const cards = [...panel.querySelectorAll('.grid > .cell')]
      .map((c) => c.getBoundingClientRect());
    return { name: panel.querySelector('.seat-name')?.textContent,
      left: Math.min(...cards.map((r) => r.left)), right: Math.max(...cards.map((r) => r.right)),
      top: Math.min(...cards.map((r) => r.top)), bottom: Math.max(...cards.map((r) => r.bottom)) };
  });
  grids.forEach((g, i) => {
    if (g.left < -0.5 || g.right > W + 0.5) out.push(`${g.name}'s grid runs off the screen`);
    for (const o of grids.slice(i + 1)) {
      if (g.left < o.right - 0.5 && o.left < g.right - 0.5 && g.top < o.bottom - 0.5
          && o.top < g.bottom - 0.5) out.push(`${g.name}'s grid overlaps ${o.name}'s`);
    }
  });
  return out;
}"""

# Each figure of a table of figures stands under its header: the centre of the figure's text
# lies within the header's text (text boxes, not cells: a left-aligned header over a
# right-aligned figure in a wide column shares the cell's box, not the reader's line of sight).
UNDER_JS = """() => {
  const out = [];
  const textBox = (el) => { const range = document.createRange(); range.selectNodeContents(el);
    const r = range.getBoundingClientRect(); return r.width ? r : null; };
  for (const table of document.querySelectorAll('table.stats')) {
    // A reflowed table (a narrow screen) labels each figure itself: no header row to stand under.
    if (!table.checkVisibility() || !table.tHead
        || getComputedStyle(table.tHead).display !== 'table-header-group') continue;
    const heads = [...table.querySelectorAll('thead th')];
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => {
        if (cell.tagName !== 'TD' || !heads[i]) return;
        const head = textBox(heads[i]);
        const figure = textBox(cell);
        if (!head || !figure) return;
        const mid = (figure.left + figure.right) / 2;
        if (mid < head.left - 0.5 || mid > head.right + 0.5)
          out.push(`"${cell.textContent}" is not under "${heads[i].textContent}"`);
      });
    }
  }
  return out;
}"""


# A table of figures shows all of itself: nothing of it hidden in a box that scrolls sideways
# (the German profile's tables were cut at the right edge of a phone).
WHOLE_TABLES_JS = """() => [...document.querySelectorAll('.table-scroll')]
  .filter((box) => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1)
  .map((box) => `a table ${box.scrollWidth} px wide in a box of ${box.clientWidth} px`)"""

# A command to type is one piece of text on one line.
COMMAND_JS = """() => {
  const out = [];
  for (const para of document.querySelectorAll('.bot-others')) {
    // The command's characters, wherever its text nodes are, as one range.
    const nodes = [];
    const walker = document.createTreeWalker(para, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push([n, text.length]);
      text += n.data;
    }
    const m = text.match(/golf play --bots [\\w-]+/);
    if (!m) continue;
    const at = (i) => { const [n, start] = nodes.filter(([, s]) => s <= i).pop();
      return [n, i - start]; };
    const range = document.createRange();
    range.setStart(...at(m.index));
    range.setEnd(...at(m.index + m[0].length));
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.bottom)));
    if (tops.size > 1) out.push(`the command "${m[0]}" is broken across lines`);
  }
  return out;
}"""

# The buttons beside another person's name ("⋯": block or report, and mute) are 44x44 px
# on a touch screen at every size (the sweep checks the phone sizes only).
SEAT_BUTTONS_JS = """() => [...document.querySelectorAll('.seat-head button')]
  .filter((b) => b.checkVisibility()).map((b) => [b.textContent, b.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([text, r]) => `"${text}" is ${Math.round(r.width)}x${Math.round(r.height)} px`)"""


def names_whole(page: Page) -> list[str]:
    return list(page.evaluate(NAMES_JS))


def replay_checks(page: Page) -> list[str]:
    return names_whole(page) + list(page.evaluate(GRIDS_JS))


def figures_under_headers(page: Page) -> list[str]:
    return list(page.evaluate(UNDER_JS)) + list(page.evaluate(WHOLE_TABLES_JS))


def people_checks(page: Page) -> list[str]:
    return names_whole(page) + list(page.evaluate(SEAT_BUTTONS_JS))


def command_whole(page: Page) -> list[str]:
    return list(page.evaluate(COMMAND_JS))


def apart(page: Page, a: str, b: str) -> float:
    """The gap in px between two elements' boxes (negative: they overlap)."""
    ra, rb = page.locator(a).bounding_box(), page.locator(b).bounding_box()
    assert ra and rb, (a, b)
    dx = max(rb["x"] - (ra["x"] + ra["width"]), ra["x"] - (rb["x"] + rb["width"]))
    dy = max(rb["y"] - (ra["y"] + ra["height"]), ra["y"] - (rb["y"] + rb["height"]))
    return float(max(dx, dy))


def open_form(page: Page) -> None:
    """The lobby's table options and house rules open."""
    open_details(page, "form.create details.options")
    open_details(page, "form.create details.rules")


# --- the screens --------------------------------------------------------------------------------

def test_the_lobby_quick_play_invite_waiting_room_and_a_table_of_people(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/", viewport=PHONE, mobile=True)
    page = ann.page
    expect(page.locator("#preset")).to_be_visible()
    page.fill("#name", "Ann")
    page.locator("#name").dispatch_event("input")
    expect(page.locator("#create-title")).to_be_visible()
    faults = sweep(page, shots, "lobby", True)
    open_form(page)
    faults += sweep(page, shots, "create", True, again=open_form, show="details.rules")
    # Quick play while it looks for players (nobody else queues at this server).
    page.select_option("#qp-variant", "six-card")
    page.locator("#qp-go").click()
    expect(page.locator("#qp-elapsed")).to_be_visible()
    faults += sweep(page, shots, "quickplay", True, show=".qp")
    # Its status line follows a switch of language (it stayed English).
    page.select_option("#lang", "de")
    expect(page.locator(".qp-status")).to_have_text("Suche Mitspieler …")
    page.select_option("#lang", "en")
    expect(page.locator(".qp-status")).to_have_text("Looking for players…")
    # ... for screen readers: the waiting view says it on the screen once, not twice.
    expect(page.locator(".qp-waiting .qp-looking")).to_have_text("Looking for players…")
    expect(page.locator(".qp-status")).to_have_class(re.compile(r"\bsr-only\b"))
    page.locator("#qp-leave").click()
    expect(page.locator("#qp-go")).to_be_visible()

    # A table for two people: the host's waiting room, the invite, then the table.
    create_table(ann, seats=["human"], rules={"holes": 2})
    link = invite_url(ann)
    bob = open_player(browser, "Bob", link, viewport=PHONE, mobile=True)
    expect(bob.page.locator("#join-name")).to_be_visible()
    faults += sweep(bob.page, shots, "invite", True)
    join_by_invite(bob)
    expect(page.locator(".wait-seat", has_text="Bob")).to_be_visible()
    expect(page.locator("#start")).to_be_enabled()
    faults += sweep(page, shots, "waiting-2p", True)
    page.locator("#start").click()
    expect(page.locator(".felt")).to_be_visible()
    expect(page.locator(".care-open")).to_be_visible()  # "⋯": block or report Bob
    faults += sweep(page, shots, "table-people", True, check=people_checks)
    # The hole break: the clock's hourglass is the page's drawing, not a character that a
    # font may lack (it showed as a box).
    play_until_hole_end([ann, bob])
    page.locator("dialog[open][data-kind=hole-end] button.primary").click()
    clock = page.locator("#clock")
    expect(clock).to_contain_text("waiting for Bob")
    expect(clock).to_have_attribute("data-icon", "wait")
    icon = clock.evaluate("""el => { const s = getComputedStyle(el, '::before');
        return [s.width, s.maskImage || s.webkitMaskImage, s.content]; }""")
    assert icon[0] != "0px" and "svg" in icon[1] and icon[2] == '""', icon
    assert "⏳" not in (clock.text_content() or "") and "⏱" not in page.content()
    faults += sweep(page, shots, "break-people", True, check=people_checks)
    assert not faults, "\n".join(faults)
    for p in (ann, bob):
        assert not p.errors, p.errors
        p.context.close()


def test_replays_profile_account_menu_leaderboard_and_rating_note(
        browser: Browser, server: Server, shots: Path) -> None:
    dee = open_player(browser, "Dee", server.url + "/", viewport=PHONE, mobile=True)
    page = dee.page
    expect(page.locator("#preset")).to_be_visible()
    page.fill("#name", "Dee")
    page.locator("#name").dispatch_event("input")
    faults: list[str] = []

    # Two players, six cards: a points target of 1 that a total reaches ends it after hole 1
    # or 2 of 3 (unless both totals stay under 1); the result says why.
    two = own_table(page, preset="six-card", bots=1,
                    rules={"holes": 3, "target": 1, "target_ends": "reach"})
    page.goto(f"{server.url}/t/{two}")
    play_to_the_result(dee)
    meta = server.api("GET", f"/api/tables/{two}/matches/1/replay")
    played = len(meta["holes"])
    reason = page.locator(".result-panel .end-reason")
    if played < 3:
        expect(reason).to_have_text(re.compile(rf"^The match ended after hole {played} of 3: "
                                               r"a total reached the points target of 1\."))
    else:
        expect(reason).to_have_count(0)

    # The most players, nine cards: the waiting room full, then one hole.
    most = own_table(page, preset="nine-card", bots=MOST - 1, rules={"holes": 1}, start=False)
    page.goto(f"{server.url}/t/{most}")
    expect(page.locator(".wait-seat")).to_have_count(MOST)
    faults += sweep(page, shots, f"waiting-{MOST}p", True)
    page.locator("#start").click()
    play_to_the_result(dee)

    # The replays, at the end of their last hole (every card face up).
    for table, players in ((two, 2), (most, MOST)):
        meta = server.api("GET", f"/api/tables/{table}/matches/1/replay")
        page.goto(f"{server.url}/replay/{table}/1#hole-{len(meta['holes'])}")
        expect(page.locator(".replay .hole-end")).to_be_visible()
        faults += sweep(page, shots, f"replay-{players}p", True, check=replay_checks)
    # The bots by their names in the page's language, as at the table.
    page.select_option("#lang", "de")
    expect(page.locator(".replay .seat-name", has_text="Leichter Bot 7")).to_have_count(1)
    page.select_option("#lang", "en")

    # Signed in: the profile with its history, the rating pop-up, the account menu.
    claim(dee, "dee" + secrets.token_hex(3))
    me = page.evaluate("async () => (await (await fetch('/api/me')).json()).player.id")
    page.goto(f"{server.url}/players/{me}")
    expect(page.locator("table.stats")).to_have_count(2)
    expect(page.locator(".recent-list li")).to_have_count(2)
    # No rated match yet: the graph's place says so in the page's words, not in an empty frame.
    expect(page.locator("img.rating-graph")).to_have_count(0)
    expect(page.locator("section[aria-labelledby=graph-title] p.muted")).to_have_text(
        "No rated matches yet.")
    sizes = {**VIEWPORTS, "375x740": {"width": 375, "height": 740}}
    faults += sweep(page, shots, "profile", True, check=figures_under_headers, sizes=sizes,
                    shoot=("360x640", "375x740", "1366x768"), show="#h2h-title")

    def rating_note(p: Page) -> None:
        p.evaluate("""async () => {
          const note = await import('/static/js/ratingnote.js');
          note.hideRatingChange();
          // The reader's line last: its profile link is the note's last line, right above
          // the close button.
          note.showRatingChange({ rated: true, variant: 'nine-card/5+', seats: [
            { seat: 0, player: 'p0', before: 1230, after: 1211, delta: -19 },
            { seat: 1, player: 'p1', before: 1012, after: 1047, delta: 35, provisional: true,
              passed: ['easy', 'medium'] }] },
            1, { 0: 'Medium bot', 1: 'Dee' });
        }""")
        expect(p.locator(".rating-note button")).to_be_visible()

    def note_apart(p: Page) -> list[str]:
        gap = apart(p, ".rating-note a", ".rating-note button")
        return [] if gap >= 8 else [f"the rating note's link and button {gap:.0f} px apart"]

    rating_note(page)
    faults += sweep(page, shots, "rating-note", True, again=rating_note, check=note_apart)
    # The bots passed, named as the lobby names them (it said "Easy and Medium").
    expect(page.locator(".rating-note .passed")).to_have_text(
        "You are now stronger than Easy bot and Medium bot!")
    page.locator(".rating-note button").click()

    def menu(p: Page) -> None:
        open_menu(p)
        expect(p.locator(".acct-sessions li")).to_have_count(1)
        expect(p.locator(".acct-sessions li").first).to_contain_text(
            re.compile("Chrome (on|auf) Linux"))

    menu(page)
    faults += sweep(page, shots, "account", True, again=menu, show=".acct-sessions")
    page.keyboard.press("Escape")
    page.goto(f"{server.url}/leaderboards")
    expect(page.locator(".bot-anchors li").first).to_be_visible()
    faults += sweep(page, shots, "leaderboard", True, check=command_whole)
    assert contact_sheet(shots, shots / "sweep-contact-sheet.png") >= 12
    assert not faults, "\n".join(faults)
    assert not dee.errors, dee.errors
    dee.context.close()


@pytest.mark.parametrize(("preset", "bots"), [("six-card", 1), ("nine-card", MOST - 1)])
def test_the_own_cards_keep_their_places_when_a_card_is_in_hand(
        browser: Browser, server: Server, preset: str, bots: int) -> None:
    seated = make_table(server, preset=preset, bots=bots, rules={"holes": 1})
    p = open_seated(browser, server, seated, viewport=PHONE, mobile=True)
    page = p.page
    to_the_draw(p)
    cells = ".my-area .grid > .cell .card-svg"

    def places() -> dict[str, list[float]]:
        out = {}
        for name, size in VIEWPORTS.items():
            page.set_viewport_size(size)
            # Read once the layout has settled: the same places two frames apart (a fixed
            # wait read a half-fitted table on a loaded machine).
            out[name] = page.evaluate(
                """async (s) => {
                  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
                  const read = () => [...document.querySelectorAll(s)].map((e) => {
                    const r = e.getBoundingClientRect(); return r.left + r.width / 2; });
                  let last = read();
                  for (let i = 0; i < 100; i++) {
                    await frame(); await frame();
                    const now = read();
                    if (JSON.stringify(now) === JSON.stringify(last)) return now;
                    last = now;
                  }
                  return last;
                }""", cells)
        return out

    before = places()
    page.locator('.board-area [data-key="stock"]').click()
    expect(page.locator(".center .held-card")).to_have_count(1)
    after = places()
    moved = {name: [round(b - a, 1) for a, b in zip(before[name], after[name], strict=True)]
             for name in VIEWPORTS if any(abs(b - a) > 1 for a, b in
                                          zip(before[name], after[name], strict=True))}
    assert not moved, f"the own cards moved sideways when a card came into the hand: {moved}"
    assert not p.errors, p.errors
    p.context.close()
