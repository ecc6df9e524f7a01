"""Play now in real browsers: two browsers are matched to one table, each in its own
seat; a lone player fills the table with a bot after the wait; leaving is instant; the
panel speaks German and fits a phone.

The server runs with ``--bot-wait 2`` so that the bot offer comes quickly.
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from webplay import Player, Server, free_port, open_player, version

from zygote import spawn

BOT_WAIT = 2


@pytest.fixture(scope="module")
def qp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where: Path = tmp_path_factory.mktemp("golf-qp")
    s = Server(free_port(), where)
    s.proc = spawn(["serve", "--host", "127.0.0.1", "--port", str(s.port), "--data-dir",
                    str(where), "--bot-wait", str(BOT_WAIT)], log=where / "server.log", cwd=where)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(s.url + "/api/health", timeout=2):
                break
        except OSError:
            if time.monotonic() > deadline or s.proc.poll() is not None:
                raise RuntimeError((where / "server.log").read_text()[-2000:]) from None
            time.sleep(0.1)
    yield s
    s.stop()


def queue(p: Player, preset: str = "six-card", players: int = 2) -> None:
    page = p.page
    page.fill("#name", p.name)
    page.locator("#name").dispatch_event("input")
    page.select_option("#qp-variant", preset)
    page.select_option("#qp-players", str(players))
    page.locator("#qp-go").click()
    expect(page.locator("#qp-elapsed")).to_be_visible()


def table_id(p: Player) -> str:
    p.page.wait_for_url(re.compile(r"/t/"), timeout=20000)
    return p.page.url.rsplit("/", 1)[1]


def test_play_now_matches_two_browsers_at_one_table(browser: Browser,
                                                    qp_server: Server) -> None:
    ann = open_player(browser, "Ann", qp_server.url + "/")
    bob = open_player(browser, "Bob", qp_server.url + "/")
    queue(ann, "nine-card")
    # Ann waits: the elapsed time counts and the window is shown.
    expect(ann.page.locator("#qp-elapsed")).to_contain_text("0:0")
    expect(ann.page.locator(".qp-waiting")).to_contain_text("±50")
    bob.page.fill("#name", "Bob")
    bob.page.locator("#name").dispatch_event("input")
    bob.page.select_option("#qp-variant", "nine-card")
    bob.page.locator("#qp-go").click()
    t_ann, t_bob = table_id(ann), table_id(bob)
    assert t_ann == t_bob
    # Each browser plays its own seat: the board shows its name as "you".
    for p in (ann, bob):
        expect(p.page.locator(".board-area")).to_be_visible()
        expect(p.page.locator(".my-area")).to_contain_text(p.name)
        assert version(p) >= 0
    for p in (ann, bob):
        assert not [e for e in p.errors if "pageerror" in e], p.errors
        p.context.close()


def test_fill_with_bots_after_the_wait_and_leave_at_once(browser: Browser,
                                                         qp_server: Server) -> None:
    cy = open_player(browser, "Cy", qp_server.url + "/")
    queue(cy, "german")
    fill = cy.page.locator("#qp-bots")
    expect(fill).to_be_disabled()
    expect(fill).to_be_enabled(timeout=(BOT_WAIT + 5) * 1000)
    # The waiting view keeps focus where it is while it counts (no re-render each poll).
    fill.focus()
    cy.page.wait_for_timeout(1500)
    assert cy.page.evaluate("document.activeElement && document.activeElement.id") == "qp-bots"
    fill.click()
    table_id(cy)
    expect(cy.page.locator(".board-area")).to_be_visible()
    expect(cy.page.locator("body")).to_contain_text(re.compile(r"bot", re.I))
    # Leaving the queue is instant and leaves no ticket behind.
    dee = open_player(browser, "Dee", qp_server.url + "/")
    queue(dee, "six-card-knock")
    dee.page.locator("#qp-leave").click()
    expect(dee.page.locator("#qp-go")).to_be_focused()
    expect(dee.page.locator(".qp-status")).to_have_text("You left the queue.")
    for p in (cy, dee):
        assert not [e for e in p.errors if "pageerror" in e], p.errors
        p.context.close()


def test_the_panel_in_german_on_a_phone(browser: Browser, qp_server: Server) -> None:
    eva = open_player(browser, "Eva", qp_server.url + "/", locale="de-DE",
                      viewport={"width": 375, "height": 740}, mobile=True)
    page = eva.page
    expect(page.locator("#qp-title")).to_have_text("Jetzt spielen")
    expect(page.locator("label[for=qp-players]")).to_have_text("Spieler")
    queue(eva, "six-card", 3)
    expect(page.locator("#qp-bots")).to_have_text("Mit Bots auffüllen")
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator("#qp-leave").click()
    expect(page.locator("#qp-go")).to_be_visible()
    eva.context.close()
