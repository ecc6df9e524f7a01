"""What the server says reaches a German page in German (issue 38): refusals of the lobby
(a rated table with house rules), of an invite (a code that leads nowhere, a name taken),
a table's refusal frame, why a rated match was not rated, why a match ended early. And the
lobby's words around them: the rules lab's sentences, a table of two holes described."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, WebSocketRoute, expect
from webplay import Server, create_table, invite_url, open_player

# Words only the server's English sentences have: none of them may reach the German page.
ENGLISH = re.compile(r"\b(?:cannot|table|house rules|invite|name|seat|the|is)\b")


def test_refusals_reach_a_german_page_in_german(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", locale="de-DE")
    page = ann.page
    expect(page.locator("#preset")).to_have_value("six-card")
    page.fill("#name", "Ann")
    page.locator("#rated").check()
    # not_rateable, with its cause: house rules make a table casual.
    page.locator("details.rules summary").click()
    # The rules lab's sentences: the choice of an empty list has a name ("nothing cancels"),
    # a "%" stays with its number, and no figure comes without its interval.
    cancels = page.locator('[data-lab="match"] li b')
    expect(cancels.first).to_be_visible()
    assert "nichts:" in cancels.all_text_contents()
    assert all(label.strip(": ") for label in cancels.all_text_contents())
    sentences = page.locator(".lab-sentence").all_text_contents()
    assert len(sentences) > 20
    assert not [x for x in sentences if re.search(r"\s%", x.replace("\u00a0%", ""))]
    assert any(" bis " in x for x in sentences)
    page.fill("#rule-holes", "3")
    page.locator("#rule-holes").dispatch_event("change")
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    refusal = page.locator("#err-rated")
    # The rules check runs after each change and clears the form's messages: submit
    # again if its answer came after the refusal.
    for _ in range(5):
        page.locator("form.create button[type=submit]").click()
        page.wait_for_timeout(500)
        if refusal.text_content():
            break
    expect(refusal).to_have_text(re.compile(r"^Dieser Tisch kann nicht gewertet werden: "
                                            r"Hausregeln machen einen Tisch ungewertet"))
    assert not ENGLISH.search(refusal.text_content() or "")
    page.locator("details.rules button.ghost").click()
    page.locator("#rated").uncheck()
    create_table(ann, seats=["human"], rules={"holes": 2})
    link = invite_url(ann)
    # A table of two holes is not described as the game's nine, here or on the invite.
    expect(page.locator(".waiting > p.help")).to_have_text(
        "Sechs-Karten-Golf mit den Änderungen dieses Tisches: siehe Regeln.")

    # bad_invite: a code that leads to no table, said under the invite page's heading.
    bob = open_player(browser, "Bob", server.url + "/join/NOSUCHCODE", locale="de-DE")
    expect(bob.page.locator("h1")).to_have_text("Dieser Einladungslink gilt nicht (mehr).")
    said = bob.page.locator("main p.muted").first
    expect(said).to_have_text("Zu diesem Einladungscode gibt es keinen Tisch.")

    # name_taken: a second Ann at the table, refused on the invite's form.
    bob.page.goto(link)
    expect(bob.page.locator("main p.help").first).to_have_text(
        "Sechs-Karten-Golf mit den Hausregeln dieses Tisches.")
    bob.page.fill("#join-name", "ann")
    bob.page.locator("form.join-form button[type=submit]").click()
    error = bob.page.locator("form.join-form .field-error")
    expect(error).to_have_text("Diesen Namen hat schon jemand an diesem Tisch: "
                               "Wähle einen anderen.")
    assert not ENGLISH.search(error.text_content() or "")
    # The three refusals above are the only failed requests (the browser logs each).
    for p in (ann, bob):
        assert all("status of 4" in e for e in p.errors), p.errors
        p.context.close()


# The table's own modules, in German: a refusal frame of the socket, the rating note of a match
# that was not rated, the log's line of a match the absence policy ended.
TABLE_JS = """async () => {
  const i18n = await import('/static/js/i18n.js');
  const words = await import('/static/js/serverwords.js');
  const narrate = await import('/static/js/narrate.js');
  const note = await import('/static/js/ratingnote.js');
  i18n.setLang('de');
  const table = { seats: [{ seat: 0, kind: 'human', name: 'Ann' },
                          { seat: 1, kind: 'human', name: 'Bob' }] };
  note.showRatingChange({ type: 'rating', table: 't', match: 1, rated: false,
    reason: 'a player sat in two seats, so the match is casual',
    cause: { reason: 'two_seats' } }, 0);
  return {
    frame: words.serverWords({ type: 'error', code: 'illegal_action',
      message: 'swap 1: you must first draw from the stock or take the discard' }),
    spectator: words.serverWords({ type: 'error', code: 'spectator',
      message: 'spectators may not act' }),
    unknown: words.serverWords({ type: 'error', code: 'from_a_newer_server', message: 'new' }),
    ended: narrate.narrate({ seat: 1, action: null, by: 'absence', facts: [],
      ended: 'seat 1 (Bob) did not come back' }, table, 0).text,
  };
}"""


def test_the_tables_server_sentences_are_german_on_a_german_page(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", locale="de-DE")
    said = ann.page.evaluate(TABLE_JS)
    assert said["frame"] == "Dieser Zug ist gerade nicht erlaubt."
    assert said["spectator"] == "Beim Zuschauen geht das nicht: Nimm einen Platz, um mitzuspielen."
    assert said["unknown"] is None  # a newer server's code: the page shows its sentence
    assert said["ended"] == "Die Partie wurde vorzeitig beendet: Bob ist nicht zurückgekommen."
    expect(ann.page.locator(".rating-note p").first).to_have_text(
        "Diese Partie wurde nicht gewertet: Dieselbe Person saß auf zwei Plätzen.")
    assert ann.errors == []
    ann.context.close()


def test_the_tables_socket_refusal_and_bye_are_shown_in_german(
        browser: Browser, server: Server) -> None:
    """Frames a server sends to the table page's own socket (passed through as they are;
    two added as a server would send them): the toast says them in German."""
    made = server.api("POST", "/api/tables", {"name": "Ann", "preset": "six-card",
                                              "seats": [{"kind": "human"}, {"kind": "human"}]})
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # every frame passes both ways unchanged
        sockets.append(ws)

    watcher = open_player(browser, "Cy", "about:blank", locale="de-DE")
    page = watcher.page
    page.route_web_socket(re.compile(r"/ws"), through)
    page.goto(f"{server.url}/watch/{made['table']['id']}")
    expect(page.locator(".waiting, .felt").first).to_be_visible()
    assert sockets
    toast = page.locator(".toast")

    def send(frame: dict[str, Any]) -> None:
        sockets[-1].send(json.dumps(frame))

    send({"type": "error", "code": "spectator", "message": "spectators may not act, chat, "
          "mute or ask for hints"})
    expect(toast).to_have_text("Beim Zuschauen geht das nicht: Nimm einen Platz, um "
                               "mitzuspielen.")
    send({"type": "error", "code": "rate_limited", "message": "too many messages; wait "
          "200 ms", "retry_after": 200})
    expect(toast).to_have_text("Zu viel auf einmal: Warte kurz und versuche es noch einmal.")
    send({"type": "bye", "reason": "flooding", "message": "too many messages; the "
          "connection is closed"})
    expect(toast).to_have_text("Zu viele Nachrichten: Die Verbindung wurde getrennt. "
                               "Lade die Seite neu.")
    assert [e for e in watcher.errors if "status of 4" not in e] == []
    watcher.context.close()


def test_a_rated_tables_next_match_said_casual_in_the_waiting_room_in_german(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/", locale="de-DE")
    page = ann.page
    expect(page.locator("#preset")).to_have_value("six-card")
    page.locator("#rated").check()
    create_table(ann, seats=["medium"])
    notice = page.locator(".wait-casual")
    expect(page.locator('[data-control="add-medium"]')).to_be_visible()
    assert notice.count() == 0
    # A third seat: six-card's bots have measured ratings at two players only.
    page.locator('[data-control="add-medium"]').click()
    expect(notice).to_have_text("Die nächste Partie wird nicht gewertet: Mittlerer Bot hat "
                                "keine gemessene Wertung für Sechs-Karten-Golf · 3-4 Spieler.")
    assert ann.errors == []
    ann.context.close()
