"""The fixed full-screen board: the table stays put at the top of the terminal, the
recent moves scroll beneath it, what may be played and the input line sit at the
bottom.

A :class:`Screen` is a :class:`~golf.terminal.console.Console` that keeps three
regions instead of writing line after line: the board (:meth:`Screen.board`), the
log of recent sentences (:meth:`Screen.say`) and the status lines above the prompt
(:meth:`Screen.status`). Every prompt redraws the whole screen on the terminal's
alternate screen, so nothing scrolls away to be read later: clearing the screen
(between hot-seat players, or when memory mode hides peeked cards) leaves nothing
behind, not even in the scrollback. It is plain ANSI from the standard library
(line editing and history come from :mod:`readline`), chosen over Rich and Textual
after measuring them (``docs/play.md``).

>>> import io
>>> out = io.StringIO()
>>> s = Screen(io.StringIO("draw\\n"), out, size=(40, 12))
>>> s.board("== the table ==")
>>> s.say("Ann draws from the stock")
>>> s.status("legal now: draw | take")
>>> s.ask("You> ")
'draw'
>>> frame = s.last_frame
>>> frame[0], frame[2], frame[-2], frame[-1]
('== the table ==', 'Ann draws from the stock', 'legal now: draw | take', 'You> ')
"""

from __future__ import annotations

import shutil
from collections import deque
from typing import TextIO

from .console import Console, wrap
from .style import Style, visible_len

_ENTER = "\x1b[?1049h"  # the alternate screen: the player's scrollback stays untouched
_LEAVE = "\x1b[?1049l"
_HOME_CLEAR = "\x1b[H\x1b[2J"
#: Lines of the log kept (what fits on screen is shown).
_LOG = 300


class Screen(Console):
    """A console drawing a fixed board, a scrolling log and a status line."""

    fixed = True

    def __init__(
        self, stdin: TextIO, stdout: TextIO, style: Style | None = None,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(stdin, stdout, style, width=size[0] if size else None)
        self._size = size
        self._board: list[str] = []
        self._status: list[str] = []
        self._log: deque[str] = deque(maxlen=_LOG)
        self._entered = False
        self._closed = False
        #: Lines said since the last frame: printed on the normal screen at close.
        self._unshown: list[str] = []
        #: The rows of the last frame drawn, without colour codes' effect on layout.
        self.last_frame: list[str] = []

    # --- the regions -----------------------------------------------------------------
    def board(self, text: str) -> None:
        """Put ``text`` (the table) at the top of the screen, replacing what was there."""
        self._board = text.split("\n")

    def status(self, text: str) -> None:
        """What may be done now, shown just above the input line."""
        self._status = [line for raw in text.split("\n")
                        for line in wrap(raw, self.width).split("\n")]

    def say(self, text: str = "") -> None:
        if self._closed:  # the match's screen is gone: plain lines from now on
            self.stdout.write(text + "\n")
            self.stdout.flush()
            return
        for line in text.split("\n"):
            self._log.append(line)
            self._unshown.append(line)

    def clear(self) -> None:
        """Forget the board, the log and the status: the next frame shows none of it."""
        self._board = []
        self._status = []
        self._log.clear()
        self._unshown = []
        self.redraw()

    # --- drawing -----------------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        if self._size is not None:
            return self._size
        cols, rows = shutil.get_terminal_size((80, 24))
        return cols, rows

    def frame(self, prompt: str | None) -> list[str]:
        """The rows of the screen: board, separator, the log's last lines that fit,
        status, prompt."""
        cols, rows = self.size()
        self.width = cols
        bottom = [*self._status, *([prompt] if prompt is not None else [])]
        top = list(self._board)
        room = rows - len(bottom) - len(top) - 1
        if room < 1:  # a small terminal: the board's lower lines give way first
            top = top[:max(0, rows - len(bottom) - 2)]
            room = rows - len(bottom) - len(top) - 1
        log: list[str] = []
        for line in reversed(self._log):
            wrapped = wrap(line, cols).split("\n") if "\x1b" not in line else [line]
            if len(log) + len(wrapped) > room:
                break
            log[:0] = wrapped
        rule = self.style.paint(self.style.dash * min(cols - 1, 40), "dim") if top else ""
        middle = [rule, *log] if top else log
        filler = [""] * max(0, rows - len(top) - len(middle) - len(bottom))
        return [*top, *middle, *filler, *bottom]

    def redraw(self, prompt: str | None = None) -> None:
        """Draw the whole screen; the cursor ends after the prompt (on the last row)."""
        if not self._entered:
            self.stdout.write(_ENTER)
            self._entered = True
        rows = self.frame(prompt)
        self.last_frame = rows
        self._unshown = []
        cols = self.size()[0]
        body = [_cut(line, cols) for line in rows]
        text = "\r\n".join([*body[:-1], ""]) if prompt is not None else "\r\n".join(body)
        self.stdout.write(_HOME_CLEAR + text)
        self.stdout.flush()

    # --- input -------------------------------------------------------------------------
    def ask(self, prompt: str) -> str | None:
        """Redraw, then read a line at the bottom (with line editing and history on
        a terminal). The line typed joins the log, so the recent moves read like the
        conversation."""
        self.redraw(prompt)
        line = self.read_line(prompt)
        if line is not None:
            self._log.append(prompt + line)
        return line

    def pause(self, prompt: str) -> bool:
        if not self.input_is_terminal:
            return True
        return self.ask(self.style.paint(prompt, "dim")) is not None

    def sleep(self, seconds: float) -> None:
        """Show the moves so far, then wait (bots' pace)."""
        self.redraw()
        super().sleep(seconds)

    def close(self) -> None:
        """Leave the alternate screen: the terminal is as it was before the match."""
        if self._entered:
            self.stdout.write(_LEAVE)
            self._entered = False
        # What no frame showed yet (the last hole, the result, a goodbye) stays on
        # the terminal once the match's screen is gone.
        if self._unshown:
            self.stdout.write("\n".join(self._unshown) + "\n")
            self._unshown = []
        self._closed = True
        self.stdout.flush()


def _cut(line: str, cols: int) -> str:
    """``line`` without its characters past the last column (colour codes kept, a
    reset added when anything was cut), so that no row wraps onto the next."""
    if visible_len(line) < cols:
        return line
    out: list[str] = []
    seen = 0
    i = 0
    while i < len(line) and seen < cols - 1:
        if line[i] == "\x1b":
            end = line.find("m", i)
            end = len(line) - 1 if end < 0 else end
            out.append(line[i:end + 1])
            i = end + 1
            continue
        out.append(line[i])
        seen += 1
        i += 1
    return "".join(out) + "\x1b[0m"
