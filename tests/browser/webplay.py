"""Helpers for the browser tests: open pages, create and join tables through the UI, play by
clicks, and record what each page's DOM held after every move (for the secrecy check)."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from golf import Game
from golf.cards import card_str
from ports import free_port  # noqa: F401  (re-exported for the suites)
from zygote import Forked, spawn


@dataclass
class Server:
    """A running `golf serve` subprocess on a loopback port."""

    port: int
    data_dir: Path
    proc: subprocess.Popen[bytes] | Forked | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = spawn(["serve", "--host", "127.0.0.1", "--port", str(self.port),
                           "--data-dir", str(self.data_dir)],
                          log=self.data_dir / "server.log", cwd=self.data_dir)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("golf serve exited: "
                                   + (self.data_dir / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("golf serve did not answer /api/health within 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read() or b"null")


# Records the whole DOM each time the board shows a new state version (test-side only).
RECORDER = """
(() => {
  window.__golfSnapshots = [];
  const take = (board) => window.__golfSnapshots.push({
    version: Number(board.dataset.version), match: Number(board.dataset.match),
    html: document.documentElement.outerHTML });
  const watch = () => {
    const board = document.querySelector('.board-area');
    if (!board) { setTimeout(watch, 20); return; }
    new MutationObserver(() => {
      if (board.dataset.version !== undefined && board.dataset.version !== board.__seen) {
        board.__seen = board.dataset.version;
        take(board);
      }
    }).observe(board, { attributes: true, attributeFilter: ['data-version'] });
  };
  document.addEventListener('DOMContentLoaded', watch);
})();
"""


@dataclass
class Player:
    """One browser context at the table."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    seat: int | None = None

    def snapshots(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.__golfSnapshots || []"))


def open_player(browser: Browser, name: str, url: str, *, locale: str = "en-US",
                viewport: dict[str, int] | None = None, mobile: bool = False,
                record: bool = False) -> Player:
    context = browser.new_context(
        locale=locale, viewport=viewport or {"width": 1280, "height": 900},
        is_mobile=mobile, has_touch=mobile, reduced_motion="reduce")
    if record:
        context.add_init_script(RECORDER)
    page = context.new_page()
    page.set_default_timeout(20000)
    player = Player(name, context, page)
    page.on("pageerror", lambda e: player.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: player.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.goto(url)
    return player


def open_details(page: Page, selector: str) -> None:
    """Open a <details> (the lobby keeps its sections open across a redraw)."""
    box = page.locator(selector)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    expect(box).to_have_attribute("open", "")


def create_table(p: Player, *, seats: list[str], preset: str = "six-card",
                 rules: dict[str, int] | None = None, turn_timer: int | None = None,
                 absence: str | None = None, grace: int | None = None) -> str:
    """Fill the lobby form (seats after the host: human/easy/medium/hard) and create."""
    page = p.page
    page.fill("#name", p.name)
    page.select_option("#preset", preset)
    while page.locator(".seat-list select").count() > len(seats):
        page.locator(".seat-list button.icon").last.click()
    while page.locator(".seat-list select").count() < len(seats):
        page.locator("form.create button", has_text=re.compile("Add a seat|Platz hinzu")).click()
    for i, kind in enumerate(seats):
        page.locator(".seat-list select").nth(i).select_option(kind)
    open_details(page, "details.options")
    page.fill("#opt-bot_delay", "0")
    page.locator("#opt-bot_delay").dispatch_event("change")
    if absence is not None:
        page.select_option("#opt-absence", absence)
    if grace is not None:
        page.fill("#opt-grace", str(grace))
        page.locator("#opt-grace").dispatch_event("change")
    if turn_timer is not None:
        page.fill("#opt-turn_timer", str(turn_timer))
        page.locator("#opt-turn_timer").dispatch_event("change")
    if rules:
        open_details(page, "details.rules")
        for key, value in rules.items():
            page.fill(f"#rule-{key}", str(value))
            page.locator(f"#rule-{key}").dispatch_event("change")
    expect(page.locator("form.create button[type=submit]")).to_be_enabled()
    page.locator("form.create button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/"))
    return page.url.rsplit("/", 1)[1]


def invite_url(p: Player) -> str:
    link = p.page.locator("#invite-link")
    expect(link).to_have_value(re.compile(r"/join/"))
    return link.input_value()


def join_by_invite(p: Player) -> None:
    p.page.fill("#join-name", p.name)
    p.page.locator("form.join-form button[type=submit]").click()
    p.page.wait_for_url(re.compile(r"/t/"))


def version(p: Player) -> int:
    v = p.page.locator(".board-area").get_attribute("data-version")
    return -1 if v is None else int(v)


def my_turn(p: Player) -> bool:
    page = p.page
    return bool(page.evaluate(
        "() => !!document.querySelector('.turn-pill.mine') && "
        "!document.querySelector('dialog[open]') && "
        "!document.querySelector('.board-area.busy')"))


def click_a_move(p: Player, tap: bool = False) -> str:
    """One move by clicking a target: draw; then swap into a face-down card; setup: turn one up."""
    page = p.page
    before = version(p)
    stock = page.locator('.board-area [data-key="stock"]')
    cells = page.locator(".my-area button.cell.target")
    face_down = cells.filter(has=page.locator("svg.back"))
    if stock.count():
        target, what = stock, "draw"
    elif face_down.count():
        target, what = face_down.first, "cell"
    elif cells.count():
        target, what = cells.first, "cell"
    else:
        target, what = page.locator(".my-area .actions button.action").first, "button"
    if tap:
        target.tap()
    else:
        target.click()
    page.wait_for_function(
        "v => Number(document.querySelector('.board-area').dataset.version) > v", arg=before)
    return what


def play_until_hole_end(players: list[Player], max_moves: int = 400,
                        stuck_after: float = 120.0) -> int:
    """Click moves for whoever is on turn until a hole-end dialog opens on every page;
    fails if nobody could move for ``stuck_after`` seconds (a match that never started
    once kept this loop waiting until the run was killed)."""
    moves = 0
    last_move = time.monotonic()
    while moves < max_moves:
        if all(pl.page.locator("dialog[open][data-kind=hole-end]").count() for pl in players):
            return moves
        acted = False
        for pl in players:
            if my_turn(pl):
                click_a_move(pl)
                moves += 1
                acted = True
                last_move = time.monotonic()
        if not acted:
            if time.monotonic() - last_move > stuck_after:
                seen = "; ".join(f"{pl.name}: {pl.page.locator('.board-area').inner_text()[:200]!r}"
                                 for pl in players)
                raise AssertionError(f"nobody could move for {stuck_after:.0f} s after "
                                     f"{moves} moves: {seen}")
            players[0].page.wait_for_timeout(50)
    raise AssertionError(f"the hole did not end within {max_moves} moves")


# --- the account menu ---------------------------------------------------------------------

PASSWORD = "apple river 1234"


def open_menu(page: Page) -> None:
    summary = page.locator("#acct-summary")
    expect(summary).to_be_visible()
    if page.locator("#account-menu[open]").count() == 0:
        summary.click()
    expect(page.locator("#acct-panel")).to_be_visible()


def claim(p: Player, username: str) -> list[str]:
    """Save the guest profile as ``username``; the codes shown, after "I have saved them"."""
    page = p.page
    open_menu(page)
    page.fill("#acct-claim-username", username)
    page.fill("#acct-claim-password", PASSWORD)
    page.locator("#acct-claim button[type=submit]").click()
    codes = page.locator("#acct-codes .code-list code")
    expect(codes).to_have_count(10)
    expect(page.locator("#acct-codes-copy")).to_be_focused()
    texts = [c.inner_text() for c in codes.all()]
    page.locator("#acct-codes-done").click()
    expect(page.locator("#acct-codes")).to_have_count(0)
    expect(page.locator(".acct-who")).to_contain_text(username)
    return texts


# --- what a page may not hold ----------------------------------------------------------------

RANKS_EN = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
RANKS_DE = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}
SUITS_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUITS_DE = {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"}
LETTERS_DE = {"J": "B", "Q": "D"}
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_forms(card: str) -> list[str]:
    """Every way the page writes a card: its English and German names and its symbol form."""
    if card == "JK":
        return ["joker", "Joker"]
    rank, suit = card[:-1], card[-1]
    forms = [f"{RANKS_EN.get(rank, rank)} of {SUITS_EN[suit]}",
             f"{SUITS_DE[suit]} {RANKS_DE.get(rank, rank)}",
             f"{rank}{SYMBOLS[suit]}"]
    if rank in LETTERS_DE:  # German cards print the jack as B, the queen as D
        forms.append(f"{LETTERS_DE[rank]}{SYMBOLS[suit]}")
    return forms


def truth(record: dict[str, Any]) -> list[Game]:
    """The match at every version, rebuilt from its record after the match (test side)."""
    g = Game.from_record({**record, "actions": []})
    games = [g.clone()]
    for a in record["actions"]:
        g.apply(a)
        games.append(g.clone())
    return games


def secrets_for(g: Game, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not know at this point of the match."""
    pos = g.position()
    out: set[str] = set()
    for s, grid in enumerate(pos["grids"]):
        if grid is None:
            continue
        peeked = set(pos["peeked"][s]) if s == seat else set()
        for i, code in enumerate(grid):
            if not pos["face_up"][s][i] and (i + 1) not in peeked:
                out.add(card_str(code))
    held = pos.get("held")
    if held is not None and pos.get("held_from") in ("stock", 0) and pos["current_player"] != seat:
        out.add(card_str(held))
    return out


def assert_no_secrets(snapshots: list[dict[str, Any]], games: list[Game], seat: int | None,
                      who: str, match: int = 1) -> int:
    """Every recorded DOM of one page against the true match at its version."""
    checked = 0
    for snap in snapshots:
        if snap["match"] != match:
            continue
        v = snap["version"]
        if v >= len(games) or games[v].is_over:
            continue
        html = snap["html"]
        for card in secrets_for(games[v], seat):
            for form in card_forms(card):
                assert form not in html, (
                    f"{who}'s page at version {v} holds {card} ({form!r}), which it may not see")
        checked += 1
    return checked
