"""How cards look on a terminal: colour and Unicode suits where supported, plain ASCII
otherwise.

A :class:`Style` only turns card notation (``"10H"``, ``"JK"``, ``None`` for a card
that is not known) into text; it knows nothing about the game.

>>> plain = Style(color=False, unicode=False)
>>> plain.card("10H"), plain.card("KS"), plain.card("JK"), plain.back()
('10H', ' KS', ' JK', '###')
>>> fancy = Style(color=False, unicode=True)
>>> fancy.card("10H"), fancy.card("QD"), fancy.back()
('10♥', ' Q♦', '░░░')
>>> Style(color=True, unicode=True).card("AH") == "\\x1b[1;31m A♥\\x1b[0m"
True
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TextIO

#: Width of a card on screen: a two-character rank and a suit.
CARD_WIDTH = 3
_SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RESET = "\x1b[0m"
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_CODES = {
    "red": "1;31",
    "black": "1",
    "joker": "1;35",
    "back": "34",
    "dim": "2",
    "bold": "1",
    "good": "32",
    "warn": "33",
    "error": "1;31",
    "turn": "1;36",
    "cancel": "32",
    "last": "1;7",
}
#: Every non-ASCII glyph a Unicode style prints: the terminal must be able to encode them.
_GLYPHS = "♠♥♦♣░·—"


@dataclass(frozen=True)
class Style:
    """Colour and glyph choices of one terminal."""

    color: bool = False
    unicode: bool = False

    def paint(self, text: str, tone: str) -> str:
        """``text`` in a named tone (``"red"``, ``"dim"``, ``"error"`` ...), if colour is on."""
        if not self.color or not text:
            return text
        return f"\x1b[{_CODES[tone]}m{text}{_RESET}"

    def card(self, notation: str | None) -> str:
        """A face-up card, right-aligned in :data:`CARD_WIDTH` columns; None is a card back."""
        if notation is None:
            return self.back()
        return self._card(notation, CARD_WIDTH)

    def card_name(self, notation: str) -> str:
        """A card inside a sentence, without padding (``"7♥"``)."""
        return self._card(notation, 0)

    def _card(self, notation: str, width: int) -> str:
        if notation == "JK":
            return self.paint("JK".rjust(width), "joker")
        rank, suit = notation[:-1], notation[-1]
        glyph = _SUIT_GLYPHS.get(suit, suit) if self.unicode else suit
        tone = "red" if suit in "HD" else "black"
        return self.paint(f"{rank}{glyph}".rjust(width), tone)

    def strip(self, text: str) -> str:
        """``text`` without colour codes."""
        return _ESCAPE.sub("", text)

    def back(self) -> str:
        """A face-down card."""
        return self.paint("░░░" if self.unicode else "###", "back")

    @property
    def dot(self) -> str:
        """A separator between items on one line."""
        return " · " if self.unicode else " | "

    @property
    def dash(self) -> str:
        return "—" if self.unicode else "-"


def detect(stream: TextIO, ascii_only: bool = False) -> Style:
    """The richest style ``stream`` supports.

    Colour needs a terminal that is not ``TERM=dumb`` and no ``NO_COLOR`` in the
    environment; Unicode suits need an output encoding that can write them.
    ``ascii_only`` (the ``--ascii`` option) turns both off.
    """
    if ascii_only:
        return Style(False, False)
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        _GLYPHS.encode(encoding)
        unicode = True
    except (UnicodeEncodeError, LookupError):
        unicode = False
    color = (
        isatty(stream)
        and os.environ.get("TERM", "") not in ("", "dumb")
        and "NO_COLOR" not in os.environ
    )
    return Style(color, unicode)


def isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def visible_len(text: str) -> int:
    """Columns ``text`` takes on screen: its length without colour codes.

    >>> visible_len(Style(color=True).paint("abc", "red"))
    3
    """
    n = 0
    i = 0
    while i < len(text):
        if text[i] == "\x1b":
            end = text.find("m", i)
            i = end + 1 if end >= 0 else len(text)
            continue
        n += 1
        i += 1
    return n


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` visible columns."""
    return text + " " * max(0, width - visible_len(text))
