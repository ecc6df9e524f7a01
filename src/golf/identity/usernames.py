"""Usernames: which are allowed, and the key that makes them unique regardless of case.

A username is 3 to 24 characters: ASCII letters and digits, with single ``.``, ``_``
or ``-`` between them. ASCII only, so that no two names look alike through letters
of other scripts (Cyrillic ``а`` against Latin ``a``). Names the site uses itself
(``admin``, ``guest``, the bot levels, ``deleted``...) are reserved. Uniqueness is by
:func:`username_key`, the name in lower case: ``Ann`` and ``ann`` are one name, shown
as their owner wrote it.

>>> check_username("  Ann_Smith ")
'Ann_Smith'
>>> username_key("Ann_Smith") == username_key("ann_smith")
True
"""

from __future__ import annotations

import re
import unicodedata

from .errors import UsernameRejected

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "RESERVED", "check_username", "lookup_key",
           "username_key"]

MIN_LENGTH = 3
MAX_LENGTH = 24
_SEPARATORS = "._-"
_SHAPE = re.compile(r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*")
_RESERVED = """
admin administrator root system sysop moderator mod staff support help golf
golf-cards guest anonymous deleted deleted-player nobody null none undefined me you
bot bots easy medium hard expert greedy random search fast-expert
api login logout signin sign-in signup sign-up register account accounts profile
profiles settings play lobby table tables leaderboard leaderboards replay replays
"""
#: Names people may not take: the site's own words and the bots' names.
RESERVED: frozenset[str] = frozenset(_RESERVED.split())


def check_username(text: str) -> str:
    """The username to store (as typed, surrounding spaces removed), or a
    UsernameRejected saying which rule it breaks."""
    name = unicodedata.normalize("NFKC", text).strip()
    if len(name) < MIN_LENGTH:
        raise UsernameRejected("too_short", f"a username has at least {MIN_LENGTH} "
                               f"characters (this one has {len(name)})")
    if len(name) > MAX_LENGTH:
        raise UsernameRejected("too_long", f"a username has at most {MAX_LENGTH} "
                               f"characters (this one has {len(name)})")
    odd = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c in _SEPARATORS))})
    if odd:
        shown = " ".join(repr(c) for c in odd)
        raise UsernameRejected("bad_characters", "a username uses the letters A to Z, "
                               f"digits and . _ - only (not {shown})")
    if not _SHAPE.fullmatch(name):
        raise UsernameRejected("bad_shape", "a username starts and ends with a letter or "
                               "digit, with at most one . _ or - in a row")
    if username_key(name) in RESERVED:
        raise UsernameRejected("reserved", f"the username {name!r} is reserved; "
                               "choose another")
    return name


def username_key(name: str) -> str:
    """The key that is unique across accounts: a checked name in lower case."""
    return name.lower()


def lookup_key(text: str) -> str:
    """The key to look a typed username up by (at sign-in), for any text: a name that
    breaks the rules simply finds no account."""
    return unicodedata.normalize("NFKC", text).strip().lower()
