"""Issue 38's visual faults, measured in a real browser at the smallest phone (360x640) and
the largest laptop (1366x768), in English and German: the rating graph's legend clear of the
plot and inside its box; the provisional "?" on the line of its rating; the report form of a
usable size with its outcome where it belongs; the dashed outlines of the places a drawn card
may go clear of each other and of the piles' words; memory mode's "seen" mark clear of the
last-move dot. Each test keeps a screenshot of the German phone (``visuals-*.png``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from layoutkit import VIEWPORTS, box_of, boxes_of, make_table, open_seated, to_the_draw
from playwright.sync_api import Browser, Page, Route, expect
from webplay import Player, Server, create_table, invite_url, join_by_invite, open_player

from golf.server.ratings.rating_graph import rating_svg

SIZES = {name: VIEWPORTS[name] for name in ("360x640", "1366x768")}
Box = dict[str, float]


def overlap(a: Box, b: Box, slack: float = 0.5) -> bool:
    """The two boxes share more than ``slack`` px each way."""
    return (a["x"] < b["x"] + b["width"] - slack and b["x"] < a["x"] + a["width"] - slack
            and a["y"] < b["y"] + b["height"] - slack and b["y"] < a["y"] + a["height"] - slack)


def inside(a: Box, b: Box, slack: float = 0.5) -> bool:
    """``a`` lies wholly within ``b``."""
    return (a["x"] >= b["x"] - slack and a["y"] >= b["y"] - slack
            and a["x"] + a["width"] <= b["x"] + b["width"] + slack
            and a["y"] + a["height"] <= b["y"] + b["height"] + slack)


def settle(page: Page) -> None:
    """Two frames: a resize or a new language has been laid out (and the table refitted)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(() => r())))")
    page.wait_for_timeout(80)


# --- the profile: the rating graph and the provisional mark ---------------------------------

FAKE = "pvisuals"
# The four longest variant names (a house-rules line among them): the legend's worst case.
HISTORY = {
    "four-card-wild/3-4": [(float(i), 900 + 23 * i) for i in range(12)],
    "nine-card/5+ house": [(float(i), 900 - 11 * i) for i in range(9)],
    "six-card-knock/2": [(float(i), 900 + (i % 3) * 30) for i in range(6)],
    "german/3-4": [(float(i), 880 + 9 * i) for i in range(4)],
}


def profile_json() -> dict[str, Any]:
    variants = [{"variant": v, "games": len(pts) - 1, "wins": 2, "win_rate": 0.4,
                 "average_hole": 4.5, "best_hole": -2, "holes": 20,
                 "rating": {"rating": pts[-1][1], "provisional": True, "matches": len(pts) - 1}}
                for v, pts in HISTORY.items()]
    return {"id": FAKE, "name": "Annemarie", "variants": variants, "rated_matches": 27,
            "abandoned": 0, "completion_rate": 1.0, "recent": [], "head_to_head": [],
            "rating_graph": f"/api/players/{FAKE}/rating.svg"}


def open_profile(browser: Browser, server: Server, size: dict[str, int]) -> Player:
    """A profile with four provisional ratings and their graph (the server's own drawing of
    them), served in place of a real one: a real one needs dozens of rated matches."""
    p = open_player(browser, "Ann", server.url + "/", viewport=size, mobile=size["width"] < 700)

    def graph(route: Route) -> None:
        lang = "de" if "lang=de" in route.request.url else "en"
        route.fulfill(status=200, content_type="image/svg+xml",
                      body=rating_svg("Annemarie", HISTORY, lang))

    p.page.route(re.compile(rf"/api/players/{FAKE}/rating\.svg"), graph)
    p.page.route(re.compile(rf"/api/players/{FAKE}$"), lambda r: r.fulfill(
        status=200, content_type="application/json", body=json.dumps(profile_json())))
    p.page.goto(f"{server.url}/players/{FAKE}")
    expect(p.page.locator("h1#profile-title")).to_contain_text("Annemarie")
    return p


def show_lang(page: Page, lang: str) -> None:
    page.select_option("#lang", lang)
    words = "Vier-Karten-Golf" if lang == "de" else "Four-card Golf"
    expect(page.locator("table.stats tbody tr").first).to_contain_text(words)
    page.wait_for_function("() => { const i = document.querySelector('img.rating-graph');"
                           " return i && i.complete && i.naturalWidth > 0; }")


def test_the_rating_graphs_legend_is_clear_of_the_plot_and_inside_its_box(
        browser: Browser, server: Server, shots: Path) -> None:
    p = open_profile(browser, server, SIZES["360x640"])
    page = p.page
    faults = []
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        for lang in ("de", "en"):
            show_lang(page, lang)
            page.locator("#graph-title").scroll_into_view_if_needed()
            settle(page)
            if name == "360x640" and lang == "de":
                page.screenshot(path=str(shots / "visuals-graph.png"))
            where = f"{name} {lang}"
            figure = box_of(page, ".rating-figure")
            plot = box_of(page, "img.rating-graph")
            keys = boxes_of(page, ".graph-legend li")
            if len(keys) != len(HISTORY):
                faults.append(f"{where}: {len(keys)} legend entries")
            words = page.locator(".graph-legend").inner_text()
            if "Annemarie" in words or "/" in words.replace(" / ", ""):
                faults.append(f"{where}: the legend is not in words: {words!r}")
            width = page.evaluate("document.documentElement.clientWidth")
            for i, key in enumerate(keys):
                if not inside(key, figure):
                    faults.append(f"{where}: legend entry {i} {key} outside the graph {figure}")
                if overlap(key, plot):
                    faults.append(f"{where}: legend entry {i} {key} over the plot {plot}")
                if key["x"] + key["width"] > width + 0.5:
                    faults.append(f"{where}: legend entry {i} {key} past the window ({width})")
                faults += [f"{where}: legend entries {i} and {j} overlap"
                           for j, other in enumerate(keys[:i]) if overlap(key, other)]
            if not inside(plot, figure):
                faults.append(f"{where}: the plot {plot} outside its box {figure}")
            # Its words are read at the page's size, not scaled down with the drawing.
            size_px = page.evaluate("parseFloat(getComputedStyle("
                                    "document.querySelector('.graph-legend li')).fontSize)")
            if size_px < 12:
                faults.append(f"{where}: the legend's words are {size_px} px")
    assert not faults, "\n".join(faults)
    assert not p.errors, p.errors
    p.context.close()


def test_the_provisional_mark_stays_on_the_line_of_its_rating(
        browser: Browser, server: Server, shots: Path) -> None:
    p = open_profile(browser, server, SIZES["360x640"])
    page = p.page
    faults = []
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        for lang in ("de", "en"):
            show_lang(page, lang)
            settle(page)
            if name == "360x640" and lang == "de":
                page.locator("#variants-title").scroll_into_view_if_needed()
                page.screenshot(path=str(shots / "visuals-provisional.png"))
            # The rating's digits (the cell's text) and its "?", each by its drawn line.
            pairs = page.evaluate("""() => [...document.querySelectorAll('abbr.provisional')]
              .map((mark) => {
                const cell = mark.closest('td');
                const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                let n = walk.nextNode();
                while (n && !/\\d/.test(n.data)) n = walk.nextNode();
                const range = document.createRange();
                range.selectNodeContents(n);
                const digits = [...range.getClientRects()].pop();
                const q = mark.getBoundingClientRect();
                return [n.data, digits.top, digits.bottom, q.top, q.bottom];
              })""")
            assert len(pairs) == len(HISTORY), pairs
            for text, top, bottom, qtop, qbottom in pairs:
                if abs((top + bottom) / 2 - (qtop + qbottom) / 2) > 4:
                    faults.append(f"{name} {lang}: '?' at {qtop:.0f} below {text} at {top:.0f}")
    assert not faults, "\n".join(faults)
    assert not p.errors, p.errors
    p.context.close()


# --- the report form ----------------------------------------------------------------------

def test_the_report_form_is_a_usable_size_and_says_its_outcome_in_place(
        browser: Browser, server: Server, shots: Path) -> None:
    ann = open_player(browser, "Ann", server.url + "/", locale="de-DE",
                      viewport=SIZES["360x640"], mobile=True)
    page = ann.page
    create_table(ann, seats=["human"], rules={"holes": 1})
    bob = open_player(browser, "Bob", invite_url(ann))
    join_by_invite(bob)
    page.locator("#start").click()
    expect(page.locator(".board-area")).to_be_visible()
    page.get_by_role("button", name="Bob blockieren oder melden").click()
    dialog = page.locator("#care-dialog")
    expect(dialog).to_be_visible()
    settle(page)
    page.screenshot(path=str(shots / "visuals-report.png"))
    # The reason's box: nearly the phone's width, three lines of text at least.
    reason = box_of(page, "#care-reason")
    assert reason["width"] >= 0.8 * 360, reason
    line = page.evaluate("(() => { const s = getComputedStyle(document.querySelector("
                         "'#care-reason')); return parseFloat(s.lineHeight) ||"
                         " 1.2 * parseFloat(s.fontSize); })()")
    assert reason["height"] >= 3 * line, (reason, line)
    assert inside(reason, box_of(page, "#care-dialog")), "the reason's box sticks out"
    # The length rule in words a person says, not a validation rule.
    help_text = page.locator("#care-reason-help").inner_text()
    assert "1 bis 500" not in help_text and "500" in help_text, help_text
    # Blocking is said under its button, above the report form.
    page.locator("#care-block").click()
    expect(page.locator("#care-block-note")).to_have_text("Bob ist blockiert.")
    assert box_of(page, "#care-block-note")["y"] < box_of(page, "#care-report h3")["y"]
    # A refusal of the server in the page's words (the seat's player gone: no_player).
    page.route(re.compile(r"/seats/1/report$"), lambda r: r.fulfill(
        status=404, content_type="application/json", body=json.dumps({"error": {
            "code": "no_player", "message": "there is no player in seat 1"}})))
    page.fill("#care-reason", "beleidigt im Chat")
    page.locator("#care-send").click()
    refusal = page.locator("#care-report .field-error")
    expect(refusal).to_be_visible()
    expect(refusal).not_to_contain_text("there is no player")
    page.unroute(re.compile(r"/seats/1/report$"))
    # Sent: the form gives way to the thanks, where the form was; nothing else to fill in.
    page.locator("#care-send").click()
    done = page.locator("#care-report #care-note")
    expect(done).to_contain_text("Meldung wurde gesendet")
    expect(page.locator("#care-reason")).to_have_count(0)
    expect(page.locator("#care-send")).to_have_count(0)
    settle(page)
    page.screenshot(path=str(shots / "visuals-report-sent.png"))
    thanks = box_of(page, "#care-report #care-note")
    assert thanks["y"] > box_of(page, "#care-block-note")["y"]
    assert thanks["y"] < box_of(page, "#care-close")["y"]
    assert inside(thanks, box_of(page, "#care-dialog"))
    page.locator("#care-close").click()
    expect(dialog).to_be_hidden()
    for who in (ann, bob):
        assert not [e for e in who.errors if "pageerror" in e], who.errors
        who.context.close()


# --- the table: targets and badges ---------------------------------------------------------

# Each outlined element's box as drawn with its outline (the outline's offset and width around
# the border box, in the box's transformed place: a target is lifted by a few pixels).
OUTLINED = """(s) => [...document.querySelectorAll(s)].filter((el) =>
  getComputedStyle(el).outlineStyle !== 'none' && el.getBoundingClientRect().width > 0)
  .map((el) => {
    const r = el.getBoundingClientRect(); const st = getComputedStyle(el);
    const w = parseFloat(st.outlineWidth) + parseFloat(st.outlineOffset);
    const key = el.closest('[data-key]');
    return {x: r.left - w, y: r.top - w, width: r.width + 2 * w, height: r.height + 2 * w,
            what: key ? key.getAttribute('data-key') : el.className.baseVal || el.className};
  })"""
# Where a target's outline is drawn: the element itself, or the card inside it.
TARGETS = ".board-area .target, .board-area .target .card-svg"
PILE_WORDS = (".board-area .center .pile-name, .board-area .center .pile-count, "
              ".board-area .center .pile-wrap > button.link")


def test_the_targets_outlines_clear_each_other_and_the_piles_words(
        browser: Browser, server: Server, shots: Path) -> None:
    faults = []
    for name, size in SIZES.items():
        seated = make_table(server, preset="nine-card", bots=1, rules={"holes": 1})
        p = open_seated(browser, server, seated, viewport=size, mobile=size["width"] < 700,
                        locale="de-DE")
        page = p.page
        to_the_draw(p)
        page.locator('.board-area [data-key="stock"]').click()
        expect(page.locator(".center .held-card")).to_have_count(1)
        expect(page.locator(".my-area .cell.target")).not_to_have_count(0)
        for lang in ("de", "en"):
            page.select_option("#lang", lang)
            settle(page)
            if name == "360x640" and lang == "de":
                page.screenshot(path=str(shots / "visuals-targets.png"))
            where = f"{name} {lang}"
            outlines = page.evaluate(OUTLINED, TARGETS)
            if len(outlines) < 10:  # nine cells and the discard pile
                faults.append(f"{where}: {len(outlines)} outlined targets")
            labels = boxes_of(page, PILE_WORDS)
            assert len(labels) >= 4, labels
            for i, a in enumerate(outlines):
                faults += [f"{where}: the outlines of {a['what']} and {b['what']} overlap"
                           for b in outlines[:i] if overlap(a, b)]
                faults += [f"{where}: the outline of {a['what']} covers a pile's words {lab}"
                           for lab in labels if overlap(a, lab)]
        assert not p.errors, p.errors
        p.context.close()
    assert not faults, "\n".join(faults)


def test_memory_modes_seen_mark_is_clear_of_the_last_move_dot(
        browser: Browser, server: Server, shots: Path) -> None:
    faults = []
    for name, size in SIZES.items():
        seated = make_table(server, preset="german", bots=1, rules={"holes": 1})
        p = open_seated(browser, server, seated, viewport=size, mobile=size["width"] < 700,
                        locale="de-DE")
        page = p.page
        # The first peek: that card is "seen" and the last move's while its frame is shown
        # (the second peek is still to come: nobody else moves meanwhile).
        expect(page.locator(".turn-pill.mine")).to_be_visible()
        page.locator('[data-key="cell-0-1"]').click()
        last = page.locator(".my-area .cell.last.seen")
        expect(last).to_have_count(1)
        for lang in ("de", "en"):
            page.select_option("#lang", lang)
            settle(page)
            if name == "360x640" and lang == "de":
                page.screenshot(path=str(shots / "visuals-seen.png"))
            seen = box_of(page, ".my-area .cell.last .seen-tag")
            dot = box_of(page, ".my-area .cell.last .last-tag")
            card = box_of(page, ".my-area .cell.last .card-svg")
            prompt = box_of(page, ".my-area .prompt")
            if overlap(seen, dot):
                faults.append(f"{name} {lang}: 'seen' {seen} under the dot {dot}")
            # Both belong to their card (each one's middle within its width) and neither
            # covers it.
            for tag, box in (("seen", seen), ("dot", dot)):
                middle = box["x"] + box["width"] / 2
                if not card["x"] <= middle <= card["x"] + card["width"]:
                    faults.append(f"{name} {lang}: the {tag} mark {box} off its card {card}")
                if overlap(box, card):
                    faults.append(f"{name} {lang}: the {tag} mark {box} over its card {card}")
                if overlap(box, prompt):
                    faults.append(f"{name} {lang}: the {tag} mark {box} over the prompt")
        # The second peek, beside the first: two "seen" marks side by side, each under its
        # own card (a German one was wider than a phone's card and its gap).
        page.locator('[data-key="cell-0-2"]').click()
        expect(page.locator(".my-area .seen-tag")).to_have_count(2)
        for lang in ("de", "en"):
            page.select_option("#lang", lang)
            settle(page)
            first, second = boxes_of(page, ".my-area .seen-tag")
            if overlap(first, second):
                faults.append(f"{name} {lang}: two 'seen' marks overlap: {first} {second}")
        assert not p.errors, p.errors
        p.context.close()
    assert not faults, "\n".join(faults)
