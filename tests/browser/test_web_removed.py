"""A person who loses their seat before the start is told why, in their language, from the
close reason alone (4001 ``removed`` by the host, ``left`` when they left in another
browser): the page never reads the server's English message to choose its words."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from webplay import Player, Server, create_table, invite_url, join_by_invite, open_player


def seated(p: Player, leave: str) -> None:
    """The page holds its seat (its socket was welcomed to it): it offers to leave."""
    expect(p.page.locator("button.danger", has_text=leave)).to_be_visible()


def test_removed_by_the_host_is_said_in_both_languages(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 1})
    url = invite_url(ann)
    bob = open_player(browser, "Bob", url, locale="de-DE")
    join_by_invite(bob)
    expect(bob.page.locator("#lang")).to_have_value("de")
    seated(bob, "Tisch verlassen")
    remove = ann.page.locator("button.danger", has_text="Remove")
    expect(remove).to_be_visible()
    remove.click()
    banner = bob.page.locator(".conn-banner")
    expect(banner).to_contain_text("Der Gastgeber hat dich von diesem Tisch entfernt.")
    bob.page.select_option("#lang", "en")
    expect(banner).to_contain_text("The host removed you from this table.")
    assert not bob.errors, bob.errors
    ann.context.close()
    bob.context.close()


def test_leaving_elsewhere_is_not_called_a_removal(browser: Browser, server: Server) -> None:
    ann = open_player(browser, "Ann", server.url + "/")
    create_table(ann, seats=["human"], rules={"holes": 1})
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    seated(bob, "Leave the table")
    # Bob leaves with his seat's token, as his other browser would.
    table = bob.page.url.rsplit("/", 1)[1]
    token = bob.page.evaluate("""(id) => { for (const k of Object.keys(localStorage)) {
        try { const v = JSON.parse(localStorage.getItem(k)); if (v && v[id]) return v[id].token; }
        catch { } } return null; }""", table)
    assert token, "the page keeps its seat's token"
    server.api("POST", f"/api/tables/{table}/leave", token=token)
    banner = bob.page.locator(".conn-banner")
    expect(banner).to_contain_text("You are no longer at this table.")
    expect(banner).not_to_contain_text("host")
    assert not bob.errors, bob.errors
    ann.context.close()
    bob.context.close()
