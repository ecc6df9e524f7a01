"""The layout sweep (issue 30), table part: one match of one hole per number of players (two,
and eight, the most a table seats: golf.server.core.protocol.MAX_SEATS), each screen state reached
once — the table mid-hole, the hole-end dialog with its countdown, the final standings — and
then looked at in every viewport and in both languages on the same page
(``set_viewport_size`` and the client's own language switch), which is much cheaper than a
table per case. Each state fails on the sweep's faults (layoutkit.layout_faults); the
screenshots go to build/screenshots/sweep-*.png. The other screens are swept in
test_web_sweep_screens.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from layoutkit import VIEWPORTS, contact_sheet, make_table, open_seated, sweep, wait_my_turn
from playwright.sync_api import Browser, expect
from webplay import Server, play_until_hole_end


@pytest.mark.parametrize("bots", [1, 7])
def test_the_table_screens_fit_every_viewport_in_both_languages(
        browser: Browser, server: Server, shots: Path, bots: int) -> None:
    seated = make_table(server, preset="six-card" if bots == 1 else "nine-card", bots=bots,
                        rules={"holes": 1})
    p = open_seated(browser, server, seated, viewport=VIEWPORTS["360x640"], mobile=True)
    page = p.page
    players = bots + 1
    wait_my_turn(page)
    faults = sweep(page, shots, f"table-{players}p", True)
    play_until_hole_end([p])
    expect(page.locator("dialog[open][data-kind=hole-end]")).to_be_visible()
    faults += sweep(page, shots, f"hole-end-{players}p", True)
    page.locator("dialog[open][data-kind=hole-end] button.primary").click()
    expect(page.locator(".result .headline")).to_be_visible()
    faults += sweep(page, shots, f"result-{players}p", True)
    # The contact sheet docs/web.md shows, rebuilt from every sweep picture there is so far.
    assert contact_sheet(shots, shots / "sweep-contact-sheet.png") >= 12
    assert not faults, "\n".join(faults)
    assert not p.errors, p.errors
    p.context.close()
