"""Numbers that people type: the ASCII digits 0 to 9, nothing else.

``str.isdigit()`` is true for ``"²"``, ``"①"`` and the Arabic-Indic ``"٣"``; ``int()``
refuses the first two (a bare ValueError where a clear refusal was meant) and silently
reads the third as 3. Typed input (moves, hole and seat numbers, report numbers, bot
options, header values) is read here instead, so that only ``0``-``9`` make a number.
Engine-level: the server imports it, never the other way round.

>>> is_digits("12"), is_digits("²"), is_digits("٣"), is_digits(""), is_digits("-1")
(True, False, False, False, False)
>>> whole("42"), whole("①"), whole(" 7")
(42, None, None)
"""

from __future__ import annotations

__all__ = ["is_digits", "whole"]


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits ``0123456789`` and nothing else."""
    return text.isascii() and text.isdigit()


def whole(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits, or None for any other text."""
    return int(text) if is_digits(text) else None
