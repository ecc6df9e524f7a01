"""Helpers for the layout, motion, sound and replay browser tests: a table made through the
REST lobby (faster than the form; the form has its own tests), a page that holds the seat's
token, and the geometry checks ("this element lies inside the viewport")."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from webplay import Player, Server, click_a_move

VIEWPORTS: dict[str, dict[str, int]] = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
}


def is_phone(size: dict[str, int]) -> bool:
    return size["width"] < 700


@dataclass
class Seated:
    """A table made through the API and the host's seat token."""

    table: str
    token: str
    seat: int


def make_table(server: Server, *, preset: str, bots: int, rules: dict[str, Any] | None = None,
               options: dict[str, Any] | None = None, name: str = "Ann",
               start: bool = True) -> Seated:
    """A table of one person (seat 0) and ``bots`` bots; started unless told otherwise."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"} for _ in range(bots)]
    body: dict[str, Any] = {"name": name, "preset": preset, "seats": seats,
                            "options": {"bot_delay": 0, **(options or {})}}
    if rules:
        body["rules"] = rules
    made = server.api("POST", "/api/tables", body)
    seated = Seated(made["table"]["id"], made["token"], made["seat"])
    if start:
        server.api("POST", f"/api/tables/{seated.table}/start", {}, seated.token)
    return seated


def open_seated(browser: Browser, server: Server, seated: Seated, *,
                viewport: dict[str, int], locale: str = "en-US", mobile: bool = False,
                reduced_motion: str = "reduce", init: str | None = None,
                path: str | None = None) -> Player:
    """A browser context that holds the seat token (as the lobby would have stored it)."""
    context = browser.new_context(locale=locale, viewport=viewport, is_mobile=mobile,
                                  has_touch=mobile, reduced_motion=reduced_motion)
    seats = {seated.table: {"token": seated.token, "seat": seated.seat, "at": 1}}
    context.add_init_script(
        f"localStorage.setItem('golf.seats', {json.dumps(json.dumps(seats))});")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.set_default_timeout(20000)
    player = Player("Ann", context, page, seat=seated.seat)
    page.on("pageerror", lambda e: player.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: player.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.goto(server.url + (path or f"/t/{seated.table}"))
    return player


def wait_my_turn(page: Page) -> None:
    # As long as the page's own default: a bot's move (some tests give it a delay) comes
    # after expect's 5 s on a loaded machine.
    expect(page.locator(".turn-pill.mine")).to_be_visible(timeout=20_000)
    expect(page.locator(".board-area.busy")).to_have_count(0, timeout=20_000)


def to_the_draw(p: Player) -> None:
    """Setup moves until drawing from the stock is legal."""
    while True:
        wait_my_turn(p.page)
        if p.page.locator('.board-area [data-key="stock"]').count():
            return
        click_a_move(p)


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The element's box in viewport coordinates (at the current scroll, which must be 0)."""
    box = page.evaluate(
        "s => { const el = document.querySelector(s); if (!el) return null;"
        " const r = el.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; }", selector)
    assert box is not None, f"no element {selector}"
    return dict(box)


def boxes_of(page: Page, selector: str) -> list[dict[str, float]]:
    """Every matching element's box, measured in one script run: a table that re-renders
    between two measurements (a bot moved) cannot leave a detached element half-measured."""
    boxes = page.evaluate(
        "s => [...document.querySelectorAll(s)].map(el => { const r = el.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; })", selector)
    return [dict(b) for b in boxes]


def assert_in_view(page: Page, selector: str, what: str) -> dict[str, float]:
    """``selector`` is wholly visible without scrolling (the page at scroll 0)."""
    size = page.viewport_size
    assert size is not None
    scroll = page.evaluate("[window.scrollX, window.scrollY]")
    assert scroll == [0, 0], f"the page scrolled to {scroll}"
    box = box_of(page, selector)
    assert box["width"] > 0 and box["height"] > 0, f"{what} ({selector}) has no size: {box}"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{what} starts off screen: {box}"
    assert box["x"] + box["width"] <= size["width"] + 0.5, (
        f"{what} ends right of the viewport ({size['width']}): {box}")
    assert box["y"] + box["height"] <= size["height"] + 0.5, (
        f"{what} ends below the viewport ({size['height']}): {box}")
    return box


# The sweep's checks (issue 30), measured in one script run per screen: the page is never wider
# than the window; no word is broken across lines (a line may end after a word's hyphen); on a
# touch screen no visible control is smaller than 44x44 CSS px; no face-up rank of a card in
# play is drawn under 12 px (a grid's cards too, which only their cells name to a screen
# reader); no text is clipped by a box that hides its overflow. While a modal dialog is open,
# only the dialog is looked at (the page beneath is inert and dimmed). Each fault names the
# element so a failure says where to look.
FAULTS_JS = r"""
(touch) => {
  const faults = [];
  const W = document.documentElement.clientWidth;
  const sw = document.documentElement.scrollWidth;
  if (sw > W + 0.5) faults.push(`page ${sw} px wide in a ${W} px window`);
  // A modal dialog is what the reader reads: the page beneath it is inert and dimmed.
  const modal = document.querySelector("dialog:modal");
  // Seen: drawn, on the page (a skip link waits above it) and not a screen reader's text.
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    // checkVisibility: not inside a closed menu (its content is kept but not drawn).
    return r.width > 1 && r.height > 1 && el.checkVisibility()
      && s.visibility !== "hidden" && r.bottom > 0 && r.right > 0 && !el.closest(".sr-only")
      && (!modal || modal.contains(el)); };
  const where = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.type ? `[${el.type}]` : "") + (el.className && typeof el.className === "string"
    ? "." + el.className.trim().split(/\s+/).join(".") : "")
    + ` "${(el.textContent || "").trim().slice(0, 30)}"`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !visible(el) || el.closest("[aria-hidden=true], script, style, svg")) continue;
    // A word may end a line after its hyphen or dash ("face-" / "down"), not inside a part.
    const re = /[^\s\-\u2010\u2013\u2014\/]{2,}/g; let m;
    while ((m = re.exec(n.data))) {
      range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom)));
      if (tops.size > 1) { faults.push(`word "${m[0]}" broken in ${where(el)}`); break; }
    }
  }
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el)) continue;
    const s = getComputedStyle(el);
    // An ellipsis (text-overflow or a line clamp) shows that text was shortened: no fault.
    const clips = ["hidden", "clip"].includes(s.overflowX) && s.textOverflow !== "ellipsis"
      && s.webkitLineClamp === "none";
    const ownText = [...el.childNodes].some((c) => c.nodeType === 3 && c.data.trim());
    if (clips && ownText && el.scrollWidth > el.clientWidth + 1)
      faults.push(`text clipped in ${where(el)}`);
  }
  if (touch) {
    for (const el of document.querySelectorAll(
        "button, a[href], select, summary, [role=button], input:not([type=hidden])")) {
      if (!visible(el) || el.closest("[inert], .chat-list, p, li > span")) continue;
      // A check box is hit through its label: the label is the target.
      const r = (el.closest("label") || el).getBoundingClientRect();
      if (r.width < 43.5 || r.height < 43.5)
        faults.push(`control ${Math.round(r.width)}x${Math.round(r.height)} ${where(el)}`);
    }
  }
  // A rank's drawn size: its font size in the card's 60x84 drawing, scaled to the card's height.
  // Every card in play counts, also those hidden from screen readers because their cell names
  // them (a grid's cards); only the decorative ones (the logo, the lobby's fan) carry no
  // <title>. A face may hold a small card's big index beside the full drawing: the rank
  // drawn (with a box) is the one measured.
  for (const card of document.querySelectorAll("svg.card-svg.face")) {
    const r = card.getBoundingClientRect();
    if (!card.querySelector(":scope > title") || !r.height || !visible(card)) continue;
    const ranks = [...card.querySelectorAll(".corner-rank")]
      .filter((x) => x.getBoundingClientRect().height > 0);
    if (!ranks.length) continue;
    const size = Math.min(...ranks.map((x) => Number(x.getAttribute("font-size"))));
    const px = size * r.height / 84;
    if (px < 12) {
      const where = card.closest("[aria-label]");
      faults.push(`rank ${px.toFixed(1)} px on a ${Math.round(r.width)} px card`
        + (where ? ` (${where.getAttribute("aria-label").slice(0, 40)})` : "")); break;
    }
  }
  return faults;
}
"""


def layout_faults(page: Page, *, touch: bool) -> list[str]:
    """Every fault of the sweep on the page as it is now."""
    return list(page.evaluate(FAULTS_JS, touch))


#: The sizes whose screenshots the sweep keeps (the smallest phone and the largest laptop).
SHOT_SIZES = ("360x640", "1366x768")


def sweep(page: Page, shots: Path, screen: str, touch: bool, *,
          again: Callable[[Page], None] | None = None,
          check: Callable[[Page], list[str]] | None = None,
          sizes: dict[str, dict[str, int]] | None = None,
          shoot: tuple[str, ...] = SHOT_SIZES, show: str | None = None) -> list[str]:
    """Every viewport and language for the screen as it is: the faults found, by case.

    The screen is reached once; the sweep resizes the page and switches its language with
    the client's own switch (cheaper than a page per case). ``again`` restores what a switch
    of language closes (a menu re-rendered with the header); ``check`` adds faults of this
    screen's own; ``show`` is scrolled into view before each screenshot. Screenshots are
    ``sweep-{screen}-{size}-{lang}.png`` for the sizes in ``shoot``. The page is left in
    English at the last size."""
    faults: list[str] = []
    for lang in ("en", "de"):
        page.select_option("#lang", lang)
        if again:
            again(page)
        for name, size in (sizes or VIEWPORTS).items():
            page.set_viewport_size({"width": size["width"], "height": size["height"]})
            # The page fits itself to a new size in its next animation frames: two frames
            # and a moment (a fixed 60 ms alone once measured the result screen still laid
            # out for the size before, 396 px wide at 390, on a loaded machine).
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                          "requestAnimationFrame(done)))")
            page.wait_for_timeout(60)
            found = layout_faults(page, touch=touch and is_phone(size))
            if check:
                found += check(page)
            faults += [f"{screen} {name} {lang}: {f}" for f in found]
            if name in shoot:
                if show:
                    page.locator(show).first.evaluate(
                        "el => { el.scrollIntoView({block: 'start'}); window.scrollBy(0,"
                        " -document.getElementById('topbar').offsetHeight - 8); }")
                    page.wait_for_timeout(30)
                page.screenshot(path=str(shots / f"sweep-{screen}-{name}-{lang}.png"))
                if show:
                    page.evaluate("window.scrollTo(0, 0)")
    page.select_option("#lang", "en")
    if again:
        again(page)
    return faults


def contact_sheet(folder: Path, out: Path, pattern: str = "sweep-*.png",
                  columns: int = 8, width: int = 240) -> int:
    """One picture of every screenshot in ``folder`` matching ``pattern``, in name order,
    each thumbnail captioned with its file name (docs/web.md shows the sweep's); returns
    how many. Needs Pillow (the full install has it through matplotlib)."""
    from PIL import Image, ImageDraw

    files = sorted(f for f in folder.glob(pattern) if "contact-sheet" not in f.name)
    if not files:
        return 0
    cell_h, caption = 300, 14
    rows = (len(files) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * (width + 8), rows * (cell_h + caption + 8)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, f in enumerate(files):
        with Image.open(f) as im:
            thumb = im.convert("RGB")
            thumb.thumbnail((width, cell_h))
        x, y = (i % columns) * (width + 8), (i // columns) * (cell_h + caption + 8)
        draw.text((x, y), f.stem.removeprefix("sweep-"), fill="black")
        sheet.paste(thumb, (x, y + caption))
    sheet.save(out)
    return len(files)
