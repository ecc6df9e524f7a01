"""Coming back: a reload returns to the same seat and state; a server restart shows the
reconnect banner and the page carries on by itself; the replay page of a finished match."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from webplay import (
    Server,
    click_a_move,
    create_table,
    invite_url,
    join_by_invite,
    my_turn,
    open_player,
    version,
)


def my_cells(page) -> list[str]:  # type: ignore[no-untyped-def]
    """Each of my cells as the page names it (without the "last move" mark)."""
    return [(c.get_attribute("aria-label") or "").replace(", last move", "")
            for c in page.locator(".my-area .cell").all()]


def test_a_reload_returns_to_the_same_seat_and_state(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["easy"], rules={"holes": 1})
    ann.page.locator("#start").click()
    expect(ann.page.locator(".my-area")).to_be_visible()
    expect(ann.page.locator(".turn-pill.mine")).to_be_visible()
    click_a_move(ann)  # turn one card up
    cells = my_cells(ann.page)
    assert sum("face down" not in c for c in cells) == 1
    before = version(ann)

    ann.page.reload()
    expect(ann.page.locator(".my-area")).to_be_visible()
    assert ann.page.url.endswith(f"/t/{table}")
    expect(ann.page.locator(".board-area")).to_have_attribute("data-version", str(before))
    assert my_cells(ann.page) == cells
    expect(ann.page.locator(".my-area .seat-head .tag").first).to_have_text("host")
    # Still Ann's seat: it is her turn again (one more card to turn up) and she can act.
    expect(ann.page.locator(".turn-pill.mine")).to_be_visible()
    assert my_turn(ann)
    click_a_move(ann)
    assert version(ann) > before
    assert not ann.errors, ann.errors
    ann.context.close()


def test_the_lobby_lists_your_unfinished_tables(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    table = create_table(ann, seats=["medium"], rules={"holes": 1})
    ann.page.goto(server.url + "/")
    mine = ann.page.locator("#mine-title + div a.button")
    expect(mine.first).to_be_visible()
    hrefs = [a.get_attribute("href") for a in mine.all()]
    assert f"/t/{table}" in hrefs
    ann.page.locator(f'#mine-title + div a[href="/t/{table}"]').click()
    expect(ann.page.locator(".wait-seat")).to_have_count(2)
    # Host tools: add a hard bot, then remove it again.
    ann.page.locator(".add-row button", has_text="Hard bot").click()
    expect(ann.page.locator(".wait-seat")).to_have_count(3)
    expect(ann.page.locator(".wait-seat").nth(2)).to_contain_text("Hard bot")
    ann.page.locator(".wait-seat").nth(2).locator("button", has_text="Remove").click()
    expect(ann.page.locator(".wait-seat")).to_have_count(2)
    ann.context.close()


def test_a_public_table_is_listed_and_joined_and_the_invite_copies(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    ann.page.fill("#name", "Ann")
    ann.page.locator("#public").check()
    ann.page.fill("#title", "Sunday golf")
    table = create_table(ann, seats=["human"], rules={"holes": 1})
    link = invite_url(ann)
    ann.page.locator("#copy-invite").click()
    expect(ann.page.locator("#copy-invite")).to_have_text("Copied!")
    assert ann.page.evaluate("navigator.clipboard.readText()") == link

    cy = open_player(browser, "Cy", server.url + "/")
    cy.page.fill("#name", "Cy")
    item = cy.page.locator(".table-item", has_text="Sunday golf")
    expect(item).to_contain_text("1 of 2 seats free")
    item.locator("button", has_text="Join").click()
    cy.page.wait_for_url(f"**/t/{table}")
    expect(ann.page.locator(".wait-seat", has_text="Cy")).to_contain_text("online")
    expect(cy.page.locator(".notice")).to_contain_text("Waiting for Ann to start the game.")
    for p in (ann, cy):
        assert not p.errors, p.errors
        p.context.close()


def test_a_player_who_stays_away_ends_the_match_under_the_end_policy(
        browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 1}, absence="end", grace=5)
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    ann.page.locator("#start").click()
    page = ann.page
    # Ann plays until it is Bob's turn; then Bob's browser goes away.
    while not page.locator(".turn-pill", has_text="Bob's turn").count():
        if my_turn(ann):
            click_a_move(ann)
        elif my_turn(bob):
            click_a_move(bob)
        else:
            page.wait_for_timeout(50)
    bob.context.close()
    bob_panel = page.locator(".seat-panel", has_text="Bob")
    expect(bob_panel.locator(".tag", has_text="away")).to_be_visible()
    expect(page.locator("#clock")).to_contain_text("Bob is away", timeout=10000)
    expect(page.locator(".result-panel")).to_contain_text("ended early", timeout=20000)
    expect(page.locator("[data-key=rematch]")).to_be_visible()
    assert not ann.errors, ann.errors
    ann.context.close()


def test_a_server_restart_shows_the_banner_and_the_page_reconnects(
        browser: Browser, own_server: Server) -> None:
    ann = open_player(browser, "Ann", own_server.url + "/")
    create_table(ann, seats=["easy"], rules={"holes": 1})
    ann.page.locator("#start").click()
    expect(ann.page.locator(".turn-pill.mine")).to_be_visible()
    click_a_move(ann)
    before = version(ann)
    cells = my_cells(ann.page)

    own_server.stop()
    banner = ann.page.locator(".conn-banner")
    expect(banner).to_be_visible(timeout=15000)
    expect(banner).to_contain_text("Reconnecting")
    own_server.start()
    expect(banner).to_be_hidden(timeout=30000)
    expect(ann.page.locator(".board-area")).to_have_attribute("data-version", str(before))
    assert my_cells(ann.page) == cells
    click_a_move(ann)
    # Ann's move was accepted after the restart; the bot may already have answered it.
    assert version(ann) > before
    ann.context.close()
