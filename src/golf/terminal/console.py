"""The terminal itself: writing, asking, pausing, clearing the screen and waiting.

A :class:`Console` wraps an input and an output stream. Pauses ("press Enter") and
the pass-the-terminal screens wait only when a person can answer, that is when the
input is a terminal; piped input carries moves and commands alone.

>>> import io
>>> out = io.StringIO()
>>> c = Console(io.StringIO("draw\\n"), out)
>>> c.ask("Ann> "), c.ask("Ann> ")
('draw', None)
>>> out.getvalue()
'Ann> draw\\nAnn> \\n'
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
import time
from typing import TextIO

from .style import Style, detect, isatty

_CLEAR = "\x1b[H\x1b[2J\x1b[3J"


class Console:
    """Input and output of one terminal session."""

    def __init__(
        self, stdin: TextIO, stdout: TextIO, style: Style | None = None,
        width: int | None = None,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.style = style or detect(stdout)
        self.input_is_terminal = isatty(stdin)
        self.output_is_terminal = isatty(stdout)
        self.width = width or shutil.get_terminal_size((80, 24)).columns

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def error(self, text: str) -> None:
        """A mistake explained: wrapped at word boundaries to the width, in red."""
        self.say(self.style.paint(wrap(text, self.width), "error"))

    #: Whether the board stays put (:class:`~golf.terminal.screen.Screen`) or scrolls.
    fixed = False

    def board(self, text: str) -> None:
        """Show the table (a line console simply prints it)."""
        self.say(text)

    def status(self, text: str) -> None:
        """Show what may be done now (printed here; kept above the prompt on a fixed
        screen)."""
        self.say(text)

    def close(self) -> None:
        """Give the terminal back as it was (nothing to undo for a line console)."""

    def ask(self, prompt: str) -> str | None:
        """One line of input (without its newline), or None at the end of input.

        Piped input is echoed after the prompt, so a transcript reads like a session.
        """
        return self.read_line(prompt)

    def read_line(self, prompt: str) -> str | None:
        """Write ``prompt`` and read a line. From a person at a terminal the line can
        be edited (arrows, Ctrl-A/E ...) and earlier lines come back with Up."""
        if self.input_is_terminal and _line_editing(self.stdin):
            try:
                return input(_readline_prompt(prompt))
            except EOFError:
                self.stdout.write("\n")
                self.stdout.flush()
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            self.stdout.flush()
            return None
        line = line.rstrip("\r\n")
        if not self.input_is_terminal:
            self.stdout.write(line + "\n")
            self.stdout.flush()
        return line

    def pause(self, prompt: str) -> bool:
        """Wait for Enter where a person can press it; False at the end of input."""
        if not self.input_is_terminal:
            return True
        return self.ask(self.style.paint(prompt, "dim")) is not None

    def clear(self) -> None:
        """Clear the screen and its scrollback, hiding what the last player saw."""
        if not self.output_is_terminal:
            return
        if os.environ.get("TERM", "") in ("", "dumb"):
            self.stdout.write("\n" * 60)
        else:
            self.stdout.write(_CLEAR)
        self.stdout.flush()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


def _line_editing(stdin: TextIO) -> bool:
    """Whether input() with readline can read for this console: only the process's
    own terminal (readline edits sys.stdin, not another stream)."""
    if stdin is not sys.stdin or not sys.stdout.isatty():
        return False
    try:
        import readline  # noqa: F401  (importing it turns on editing and history)
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return False
    return True


def _readline_prompt(prompt: str) -> str:
    """``prompt`` with its colour codes marked as taking no room, so that readline
    puts the cursor where the typing is."""
    return re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", prompt)


def wrap(text: str, width: int) -> str:
    """``text`` wrapped at word boundaries to ``width`` columns, continuation lines
    indented two spaces; existing line breaks are kept.

    >>> print(wrap("nothing can be done at position 9 now; legal now: reveal 1 2 3", 30))
    nothing can be done at
      position 9 now; legal now:
      reveal 1 2 3
    """
    return "\n".join(
        textwrap.fill(line, max(20, width - 1), subsequent_indent="  ",
                      break_on_hyphens=False, break_long_words=False)
        for line in text.splitlines()
    )
