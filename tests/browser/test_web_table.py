"""Two people (two browser contexts) and a bot play a full hole by clicks; a spectator
watches; no page ever holds a card its viewer may not see."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from webplay import (
    Player,
    Server,
    assert_no_secrets,
    card_forms,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_player,
    play_until_hole_end,
    truth,
)

from golf import Game
from golf.cards import card_str


def test_two_people_and_a_bot_play_a_hole_to_the_scorecard(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/", record=True)
    expect(ann.page.locator("#preset")).to_have_value("six-card")
    ann.page.fill("#name", "Ann")
    ann.page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    table = create_table(ann, seats=["human", "easy"], rules={"holes": 1})

    # The waiting room: seats, the invite link, start only once every seat is taken.
    expect(ann.page.locator(".wait-seat")).to_have_count(3)
    expect(ann.page.locator("#start")).to_be_disabled()
    link = invite_url(ann)
    assert re.search(r"/join/[A-Za-z0-9_-]{20,}$", link)

    bob = open_player(browser, "Bob", link, record=True)
    expect(bob.page.locator("h1")).to_contain_text("Ann")
    join_by_invite(bob)
    expect(ann.page.locator(".wait-seat", has_text="Bob")).to_contain_text("online")
    expect(ann.page.locator("#start")).to_be_enabled()
    ann.page.screenshot(path=str(shots / "waiting-room.png"), full_page=True)

    # Table chat is plain text: markup arrives as the characters typed.
    ann.page.fill("#chat-input", "<b>hello</b> Bob")
    ann.page.locator(".chat-form button[type=submit]").click()
    said = bob.page.locator(".chat-list li", has_text="hello")
    expect(said).to_have_text("Ann: <b>hello</b> Bob")
    expect(bob.page.locator(".chat-list b")).to_have_count(0)

    watcher = open_player(browser, "Cy", f"{server.url}/watch/{table}", record=True)
    ann.page.locator("#start").click()
    for p in (ann, bob, watcher):
        expect(p.page.locator(".felt")).to_be_visible()
    expect(watcher.page.locator(".spectator-note")).to_be_visible()
    expect(watcher.page.locator(".my-area")).to_have_count(0)

    # A few moves by clicks, then a screenshot mid-hole, then on to the hole's end.
    people = [ann, bob]
    moves = 0
    while moves < 5:
        for p in people:
            if my_turn(p):
                click_a_move(p)
                moves += 1
        ann.page.wait_for_timeout(30)
    ann.page.screenshot(path=str(shots / "table-mid-hole.png"), full_page=True)
    moves += play_until_hole_end(people)

    # Hole end: every grid face up with its score and what cancelled.
    for p in people:
        dialog = p.page.locator("dialog[open][data-kind=hole-end]")
        expect(dialog.locator("section.reveal")).to_have_count(3)
        expect(dialog.locator("section.reveal .card-svg.back")).to_have_count(0)
        expect(dialog.locator("section.reveal .card-svg.face")).to_have_count(18)
        expect(dialog.locator("ul.explain li").first).to_be_visible()
        # The match result is not given away behind the last hole's dialog.
        expect(p.page.locator(".result-panel")).to_have_count(0)
    ann.page.screenshot(path=str(shots / "hole-end.png"), full_page=False)

    record = server.api("GET", f"/api/tables/{table}/matches/1/replay")["record"]
    games = truth(record)
    scores = games[-1].hole_scores[0] if games[-1].hole_scores else None
    for p in people:
        p.page.locator("dialog[open] button.primary").click()
        # The scorecard has the hole's row: the engine's scores, in seat order.
        row = p.page.locator(".scorecard tbody tr").first
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        assert scores is not None and cells == [str(s) for s in scores]
        expect(p.page.locator(".result")).to_be_visible()
        expect(p.page.locator(".placings li")).to_have_count(3)
    expect(ann.page.locator("[data-key=rematch]")).to_be_visible()
    expect(bob.page.locator("[data-key=rematch]")).to_have_count(0)
    totals = [int(x) for x in ann.page.locator(".scorecard tfoot td").all_inner_texts()]

    # Secrecy: each page's DOM after every move, against the true grids at that version.
    seats = {ann.name: 0, bob.name: 1}
    for p in people:
        snaps = p.snapshots()
        checked = assert_no_secrets(snaps, games, seats[p.name], p.name)
        assert checked >= len(record["actions"]) * 0.9, (p.name, checked, len(record["actions"]))
    snaps = watcher.snapshots()
    assert assert_no_secrets(snaps, games, None, "the spectator") >= len(record["actions"]) * 0.9
    # Someone went out: the others' last turns were announced by a banner.
    assert any("final-banner" in s["html"] and "one more turn" in s["html"]
               for s in ann.snapshots() if s["match"] == 1)

    # The replay of the finished match, at its stable address.
    replay = open_player(browser, "Dee", f"{server.url}/replay/{table}/1")
    rp = replay.page
    expect(rp.locator(".turn-pill")).to_have_text("The deal")
    expect(rp.locator(".placings li")).to_have_count(3)
    shown = sorted(int(x.split()[0]) for x in rp.locator(".placings .total").all_text_contents())
    assert shown == sorted(totals)
    n = len(record["actions"])
    rp.locator("#replay-next").click()
    expect(rp.locator(".turn-pill")).to_have_text(f"Move 1 of {n}")
    expect(rp.locator(".last-move")).to_contain_text("turned up")
    rp.keyboard.press("End")
    expect(rp.locator(".turn-pill")).to_have_text(f"Move {n} of {n}")
    expect(rp.locator(".hole-end .reveal")).to_have_count(3)
    rp.keyboard.press("ArrowLeft")
    expect(rp.locator(".turn-pill")).to_have_text(f"Move {n - 1} of {n}")
    assert not replay.errors, replay.errors
    replay.context.close()

    # A rematch: an invitation Bob accepts; the same seats, a new match from its first hole.
    ann.page.locator("[data-key=rematch]").click()
    bob.page.locator("[data-key=rematch-accept]").click()
    for p in people:
        expect(p.page.locator(".board-area")).to_have_attribute("data-match", "2")
        expect(p.page.locator(".result")).to_have_count(0)
        expect(p.page.locator(".hole-pill")).to_have_text("Hole 1 of 1")
    for p in (ann, bob, watcher):
        assert not p.errors, p.errors
        p.context.close()


# "Dana" in Hebrew letters: a name written right to left (escapes: this file shows none).
RTL_NAME = "\u05d3\u05e0\u05d4"

# Where, left to right on the screen, the name's first letter and the last digit 5 (the one
# after the name) are drawn inside an element: measured by the browser's own layout.
WHERE_JS = """(el) => {
  const at = (ch) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n);
    for (const n of nodes.reverse()) {
      const i = n.data.lastIndexOf(ch);
      if (i < 0) continue;
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      return r.getBoundingClientRect().left;
    }
    return null;
  };
  return { name: at('\\u05d3'), digit: at('5') };
}"""

def test_typing_in_the_chat_box_survives_a_frame_that_redraws_the_table(
        browser: Browser, server: Server) -> None:
    """Every frame redraws the table; the chat box once left the page and came straight
    back each time, which took the focus from it: what was typed next went nowhere (a
    test's typed line was lost this way when the second table frame came mid-fill)."""
    ann = open_player(browser, "Ann", server.url + "/")
    bob = None
    try:
        create_table(ann, seats=["human"])
        box = ann.page.locator("#chat-input")
        box.click()
        ann.page.keyboard.type("hello ")
        bob = open_player(browser, "Bob", invite_url(ann))
        join_by_invite(bob)
        # Bob's arrival is a table frame: the seat list on Ann's page is drawn again.
        expect(ann.page.locator(".wait-seats li", has_text="Bob")).to_be_visible()
        assert ann.page.evaluate("document.activeElement && document.activeElement.id") \
            == "chat-input"
        ann.page.keyboard.type("Bob")
        expect(box).to_have_value("hello Bob")
        assert not ann.errors, ann.errors
    finally:
        ann.context.close()
        if bob is not None:
            bob.context.close()


def host_with_bob_online(browser: Browser,
                         server: Server) -> tuple[Player, Callable[[], None]]:
    """Ann's waiting room with Bob seated and online, Start enabled; and Bob's leaving,
    which returns once Ann's page has been sent the table frame that says so."""
    ann = open_player(browser, "Ann", server.url + "/")
    sockets: list[Any] = []
    ann.page.on("websocket", lambda ws: sockets.append(ws))
    create_table(ann, seats=["human"])
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    expect(ann.page.locator(".wait-seats li", has_text="Bob")).to_contain_text("online")
    expect(ann.page.locator("#start")).to_be_enabled()
    assert sockets

    def leave() -> None:
        with sockets[-1].expect_event("framereceived",
                                      predicate=lambda f: '"type":"table"' in str(f)):
            bob.context.close()

    return ann, leave


def test_a_frame_during_a_click_does_not_lose_the_click(browser: Browser,
                                                        server: Server) -> None:
    """The host pressed "Start" as a frame came (the player who had just joined coming
    online): the frame rebuilt the waiting room, the pressed button left the page and the
    click was lost (the match never started; a run waited on it until it was killed)."""
    ann, leave = host_with_bob_online(browser, server)
    box = ann.page.locator("#start").bounding_box()
    assert box is not None
    ann.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.page.mouse.down()
    leave()  # Ann's page gets a table frame (Bob offline) while she presses
    ann.page.wait_for_timeout(300)  # the page has taken the frame
    ann.page.mouse.up()
    expect(ann.page.locator(".felt")).to_be_visible()
    # The frame was drawn after the click: Bob is shown away.
    expect(ann.page.locator(".seat-panel[data-seat='1']")).to_be_visible()
    assert not ann.errors, ann.errors
    ann.context.close()


def test_a_frame_keeps_the_keyboards_place_in_the_waiting_room(browser: Browser,
                                                                server: Server) -> None:
    """Each frame builds the waiting room anew: a focused Start lost its focus, and the
    keyboard's Enter went nowhere (the keyboard-only test's match never started)."""
    ann, leave = host_with_bob_online(browser, server)
    ann.page.locator("#start").focus()
    leave()
    expect(ann.page.locator(".wait-seats li", has_text="Bob")).to_contain_text("offline")
    assert ann.page.evaluate("document.activeElement && document.activeElement.id") == "start"
    ann.page.keyboard.press("Enter")
    expect(ann.page.locator(".felt")).to_be_visible()
    assert not ann.errors, ann.errors
    ann.context.close()


# The final screen's sentence about who passed the target, for a seat with that name, put
# on the page in a paragraph of its own (#probe).
SENTENCE_JS = """async (name) => {
  const finish = await import('/static/js/finish.js');
  const narrate = await import('/static/js/narrate.js');
  const i18n = await import('/static/js/i18n.js');
  const names = await import('/static/js/names.js');
  const table = { seats: [{ seat: 0, kind: 'human', name: 'Ann' },
                          { seat: 1, kind: 'human', name }] };
  const text = finish.targetEndText({ is_over: true, holes: 9, totals: [12, 53],
    winners: [0], hole_scores: [[1, 2], [3, 4], [8, 47]] },
    { target: 50, target_ends: 'exceed' }, 0, (s) => narrate.seatName(table, s, 0));
  const p = document.createElement('p');
  p.id = 'probe';
  p.textContent = text;
  document.body.append(p);
  return { text, ltr: i18n.isolate('Ann (53)'), joined: names.joinNames(['Ann', 'Bob']) };
}"""


def test_a_right_to_left_name_cannot_reorder_the_text_around_it(
        browser: Browser, server: Server) -> None:
    """A name in Hebrew letters followed by a number ("Dana: 5 cards left", "Dana (53)")
    once carried the number to its left (the Unicode bidirectional algorithm joins digits
    to the right-to-left run before them); names and chat lines are laid out on their own
    (<bdi>, FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE), left-to-right names unchanged."""
    p = open_player(browser, RTL_NAME, server.url + "/")
    expect(p.page.locator("#preset")).to_be_visible()
    said = p.page.evaluate(SENTENCE_JS, RTL_NAME)
    assert said["text"].endswith(f"Over the target: \u2068{RTL_NAME}\u2069 (53)."), said
    where = p.page.locator("#probe").evaluate(WHERE_JS)
    assert where["name"] < where["digit"], where
    assert said["ltr"] == "Ann (53)" and said["joined"] == "Ann and Bob", said
    p.page.evaluate("document.getElementById('probe').remove()")
    create_table(p, seats=["human", "easy"])
    p.page.fill("#chat-input", "5 cards left")
    p.page.locator(".chat-form button[type=submit]").click()
    line = p.page.locator(".chat-list li", has_text="cards left")
    expect(line).to_have_text(f"{RTL_NAME}: 5 cards left")
    where = line.evaluate(WHERE_JS)
    assert where["name"] < where["digit"], where
    assert not p.errors, p.errors


def test_the_secrecy_check_finds_a_hidden_card_in_any_of_its_forms() -> None:
    """The DOM check itself: a face-down card named in any way the page writes cards fails."""
    g = Game("six-card", players=2, seed=7)
    games = [g.clone()]
    hidden = card_str(g.position()["grids"][1][0])
    for form in card_forms(hidden):
        snap = {"version": 0, "match": 1, "html": f"<div aria-label='{form}'></div>"}
        with pytest.raises(AssertionError, match=hidden):
            assert_no_secrets([snap], games, 0, "Ann")
    own = card_str(g.position()["grids"][0][0])
    clean = {"version": 0, "match": 1, "html": "<div>nothing to see</div>"}
    assert assert_no_secrets([clean], games, 0, "Ann") == 1
    # Its own never-seen cards are secret from a seat too.
    with pytest.raises(AssertionError, match=own):
        assert_no_secrets([{**clean, "html": card_forms(own)[0]}], games, 0, "Ann")
