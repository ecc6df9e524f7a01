"""Blocking and reporting a player from the table, in a real browser: the dialog beside
an opponent's name blocks them and sends a report that keeps their chat line; the
operator's ``golf admin reports`` shows it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

from playwright.sync_api import Browser, expect
from webplay import Server, create_table, invite_url, join_by_invite, open_player


def test_block_and_report_an_opponent_with_their_chat_line(browser: Browser,
                                                           server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 1})
    link = invite_url(ann)
    bob = open_player(browser, "Bob", link)
    join_by_invite(bob)
    ann.page.locator("#start").click()
    expect(bob.page.locator(".board-area")).to_be_visible()
    # Bob's socket is open (no connection banner) before he writes: a line sent while the
    # page still connects is not sent at all.
    expect(bob.page.locator(".conn-banner")).to_be_hidden()
    bob.page.fill("#chat-input", "you play like a potato")
    # A line the page could not send (its socket between two connections: on a loaded
    # machine it can be, banner or not) stays in the box; Enter again sends it then.
    box = bob.page.locator("#chat-input")
    line = bob.page.locator("ol.chat-list li", has_text="potato")
    for attempt in range(2):
        deadline = time.monotonic() + 15
        while box.input_value() and time.monotonic() < deadline:
            box.press("Enter")
            with contextlib.suppress(AssertionError):
                expect(box).to_have_value("", timeout=1000)
        # Under a CPU-bound job a line that left the box (sent) twice never came back to
        # the page, nor an error (not traced; see the closing note of 2026-12-07): once
        # more, after a wait long enough that a late first line is not doubled.
        with contextlib.suppress(AssertionError):
            expect(line).to_be_visible(timeout=10000)
        if attempt == 0 and not line.count():
            box.fill("you play like a potato")
    page = ann.page
    expect(line).to_be_visible(timeout=15000)
    expect(page.locator("ol.chat-list li", has_text="potato")).to_be_visible(timeout=15000)
    opener = page.get_by_role("button", name="Block or report Bob")
    opener.click()
    dialog = page.locator("#care-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#care-block")).to_be_focused()
    page.locator("#care-block").click()
    # Said under the block button, not under the report form (issue 38).
    expect(page.locator("#care-block-note")).to_have_text("Bob is blocked.")
    expect(page.locator("#care-report #care-block-note")).to_have_count(0)
    # An empty reason is refused next to the form, in the page's words (not the server's
    # "Reason is text of 1 to 500 characters"), and nothing is sent.
    page.locator("#care-send").click()
    expect(page.locator("#care-report .field-error")).to_have_text(
        "Write what happened in 1 to 500 characters.")
    page.fill("#care-reason", "insulting chat")
    dialog.get_by_label("you play like a potato").check()
    page.locator("#care-send").click()
    expect(page.locator("#care-report #care-note")).to_contain_text("report was sent")
    page.locator("#care-close").click()
    expect(dialog).to_be_hidden()
    out = subprocess.run([sys.executable, "-m", "golf", "admin", "reports", "--data-dir",
                          str(server.data_dir)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "insulting chat" in out.stdout and "Bob: you play like a potato" in out.stdout
    for p in (ann, bob):
        assert not [e for e in p.errors if "pageerror" in e], p.errors
        p.context.close()
