"""The fixed full-screen board at a real pseudo-terminal, read back through a terminal
emulator (pyte): what a person actually sees, row by row, after every keystroke."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte

from golf import Game

ROWS, COLS = 30, 100
ENV = {**os.environ, "TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
ENV.pop("NO_COLOR", None)
# The program must see its pseudo-terminal's size: pytest-xdist's workers set COLUMNS=80 and
# LINES=24, which would win over the size the test gives the terminal.
ENV.pop("COLUMNS", None)
ENV.pop("LINES", None)
WAITING = re.compile(r"(\S+> |ready\. |next hole\. |\[y/N\] )$")
TOKEN = re.compile(r"(\d+):(.{3})")


class Terminal:
    """A program at a pseudo-terminal and the screen it draws."""

    def __init__(self, *args: str) -> None:
        self.child = pexpect.spawn(sys.executable, ["-m", "golf", *args], encoding="utf-8",
                                   dimensions=(ROWS, COLS), env=ENV, timeout=30)
        self.child.delaybeforesend = None
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.settle()

    def rows(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.rows())

    def settle(self, timeout: float = 30.0) -> str:
        """Read until the program waits for input (a prompt on the cursor's row and
        nothing more coming) or ends; the screen's last row."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(1 << 16, timeout=0.15)
            except pexpect.TIMEOUT:
                row = self.screen.display[self.screen.cursor.y][:self.screen.cursor.x]
                if WAITING.search(row):
                    return row
                continue
            except pexpect.EOF:
                return ""
            self.raw += data
            self.stream.feed(data)
        raise AssertionError("the program did not wait for input:\n" + self.text())

    def type(self, line: str) -> str:
        self.child.sendline(line)
        return self.settle()


def legal(rows: list[str]) -> dict[str, list[str]]:
    line = next(r for r in rows if r.startswith("legal now: "))
    out = {}
    for part in line[len("legal now: "):].split(" | "):
        kind, *positions = part.split()
        out[kind] = positions
    return out


def choose(rows: list[str]) -> str:
    g = legal(rows)
    for kind in ("reveal", "peek"):
        if kind in g:
            return f"{kind} {g[kind][0]}"
    for kind in ("draw", "discard"):
        if kind in g:
            return kind
    if "flip" in g:
        return f"flip {g['flip'][0]}"
    if "swap" in g:
        return f"swap {g['swap'][0]}"
    return "pass"


def my_grid(rows: list[str], cols: int) -> list[str]:
    """The first grid on the board (the person's, seat 0): each card's text."""
    cells = []
    for row in rows[2:2 + 3]:
        found = TOKEN.findall(row)[:cols]
        if len(found) == cols:
            cells += [c.strip() for _, c in found]
    return cells


def test_a_full_hole_on_the_fixed_board(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    t = Terminal("play", "--seed", "5", "--bots", "random", "--delay", "0",
                 "--rule", "holes=1", "--save", str(save))
    frames = 0
    while "End of hole" not in t.raw:
        rows = t.rows()
        # The board stays put: the title on the first row, the grids under it, the
        # legal moves just above the input line on the last row.
        assert rows[0].startswith("—— Hole 1 of 1 · six-card"), t.text()
        assert rows[1].startswith(("▶ You", "  You"))
        assert re.match(r"  1:.{3}  2:.{3}  3:.{3}\s+1:", rows[2])
        assert rows[-1].startswith("You>")
        assert rows[-2].startswith("legal now: ")
        assert any(r.startswith("Stock: ") for r in rows[4:8])
        # What the person sees of their grid is their view: face-down cards are backs.
        game = Game.from_record(json.loads(save.read_text())["record"])
        view = game.view(0)
        shown = my_grid(rows, 3)
        assert shown == [c.replace("10", "10") if up else "░░░"
                         for c, up in zip(
                             [_glyphs(c) for c in view["grids"][0]], view["face_up"][0],
                             strict=True)]
        frames += 1
        t.type(choose(rows))
    assert frames > 5
    # The match is over: the alternate screen is gone and the result stays on the
    # terminal's own screen.
    t.settle()
    text = t.text()
    assert "End of hole 1" in text and ("the match" in text or "share the win" in text)
    assert "Play again" in text
    t.type("n")
    t.child.expect(pexpect.EOF)
    assert "\x1b[?1049h" in t.raw and t.raw.rfind("\x1b[?1049l") > t.raw.rfind("\x1b[?1049h")


def _glyphs(card: str | None) -> str:
    if card is None:
        return "░░░"
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return card[:-1] + suits[card[-1]] if card != "JK" else "JK"


def test_the_last_move_is_highlighted_and_the_recent_moves_listed() -> None:
    t = Terminal("play", "--seed", "5", "--bots", "random", "--delay", "0")
    t.type("reveal 2")
    rows = t.rows()
    assert "You turn up position 2" in t.text()
    # position 2 of the person's grid is drawn in reverse video, no other cell
    line = t.screen.buffer[2]
    reverse = [x for x in range(COLS) if line[x].reverse and line[x].data.strip()]
    start = rows[2].index("2:") + 2
    assert reverse and all(start <= x < start + 3 for x in reverse)
    t.type("quit")
    t.type("y")
    t.child.expect(pexpect.EOF)


def test_memory_mode_leaves_no_peeked_card_on_the_screen() -> None:
    t = Terminal("play", "--variant", "german", "--bots", "random", "--seed", "6",
                 "--delay", "0")
    seen = {}
    for pos in (1, 2):
        t.type(str(pos))
        m = re.search(rf"You look at position {pos}: (\S+)", t.text())
        assert m, t.text()
        seen[pos] = m.group(1)
    assert my_grid(t.rows(), 3)[:2] == [seen[1], seen[2]]
    t.type("d")
    text = t.text()
    assert my_grid(t.rows(), 3) == ["░░░"] * 6
    assert "You look at position" not in text, text
    assert "You draw" in text
    t.type("quit")
    t.type("y")
    t.child.expect(pexpect.EOF)


def test_hot_seat_pass_screen_shows_nothing_private() -> None:
    t = Terminal("play", "--humans", "Ann,Bob", "--seed", "4", "--delay", "0")
    assert t.rows()[0] == "Pass the terminal to Ann."
    t.type("")
    t.type("1")
    t.type("2")
    rows = t.rows()
    assert rows[0] == "Pass the terminal to Bob."
    assert not any(TOKEN.search(r) for r in rows), "no card on the pass screen"
    t.type("")
    assert my_grid(t.rows(), 3)[:2] != ["░░░", "░░░"]  # Ann's turned-up cards are public
    assert t.rows()[-1].startswith("Bob>")
    t.type("quit")
    t.type("y")
    t.child.expect(pexpect.EOF)


def test_line_editing_and_history() -> None:
    """Up brings back the last line; the arrows and Ctrl-A edit it."""
    t = Terminal("play", "--seed", "5", "--bots", "random", "--delay", "0")
    t.type("scores")
    assert "(no hole finished yet)" in t.text()
    t.child.send("\x1b[A")  # up: "scores" again
    time.sleep(0.2)
    t.child.send("\x01")  # Ctrl-A: to the start of the line
    t.child.send("x")
    t.type("")  # "xscores"
    assert "'xscores' is not an action or a command (did you mean 'scores'?)" in \
        t.text().replace("\n", " ").replace("   ", " ")
    t.type("quit")
    t.type("y")
    t.child.expect(pexpect.EOF)
