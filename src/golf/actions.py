"""Actions and their canonical notation.

An action is an ``int`` (``kind * 16 + cell``) with a text form, so the engine moves
plain ints around while people read ``"swap 3"``. Positions are 1-based, row by row.

>>> a = Action.parse("swap 3")
>>> str(a), a.kind, a.position
('swap 3', 'swap', 3)
>>> Action.parse("s3") == a, Action.parse("DRAW") == DRAW
(True, True)
>>> Action.parse("swap")
Traceback (most recent call last):
...
golf.errors.NotationError: 'swap' needs a position: write 'swap N' with N from 1 to 16
"""

from __future__ import annotations

import re
from typing import ClassVar

from .errors import NotationError

KINDS = ("reveal", "peek", "draw", "take", "swap", "discard", "flip", "pass", "knock")
K_REVEAL, K_PEEK, K_DRAW, K_TAKE, K_SWAP, K_DISCARD, K_FLIP, K_PASS, K_KNOCK = range(9)
POSITIONAL = frozenset({K_REVEAL, K_PEEK, K_SWAP, K_FLIP})
MAX_POSITION = 16
#: The bit layout of an action code (not a card code): ``kind << KIND_SHIFT | cell``,
#: the 0-based cell in the low four bits. ``golf.fast.layout`` repeats it for numba.
KIND_SHIFT = 4
CELL_MASK = MAX_POSITION - 1
ALIASES = {"d": "draw", "t": "take", "x": "discard", "k": "knock", "s": "swap", "f": "flip",
           "r": "reveal", "p": "peek"}
#: A word and an optional position in ASCII digits (``\d`` would take "٣", which int()
#: reads as 3: only 0-9 are positions, golf.digits).
_SYNTAX = re.compile(r"^\s*([a-z]+)\s*([0-9]+)?\s*$")


class Action(int):
    """A move in canonical notation: ``reveal N``, ``peek N``, ``draw``, ``take``,
    ``swap N``, ``discard``, ``flip N``, ``pass`` or ``knock``."""

    __slots__ = ()
    _cache: ClassVar[dict[int, Action]] = {}

    @classmethod
    def of(cls, kind: int, cell: int = 0) -> Action:
        """The action of ``kind`` (a ``K_*`` constant) on a 0-based ``cell``."""
        return cls._cache[kind << KIND_SHIFT | cell]

    @property
    def kind_id(self) -> int:
        return self >> KIND_SHIFT

    @property
    def kind(self) -> str:
        return KINDS[self >> KIND_SHIFT]

    @property
    def cell(self) -> int | None:
        """0-based grid cell, or None for an action without a position."""
        return self & CELL_MASK if self >> KIND_SHIFT in POSITIONAL else None

    @property
    def position(self) -> int | None:
        """1-based grid position, as written in the notation."""
        return (self & CELL_MASK) + 1 if self >> KIND_SHIFT in POSITIONAL else None

    def __str__(self) -> str:
        k = self >> KIND_SHIFT
        return f"{KINDS[k]} {(self & CELL_MASK) + 1}" if k in POSITIONAL else KINDS[k]

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse canonical notation or a short alias (``d t x k sN fN rN pN``)."""
        if not isinstance(text, str):
            raise NotationError(f"an action is text like 'draw' or 'swap 3', not {text!r}")
        m = _SYNTAX.match(text.lower())
        word, num = (m.group(1), m.group(2)) if m else (None, None)
        word = ALIASES.get(word, word) if word else None
        if word not in KINDS:
            raise NotationError(
                f"{text!r} is not an action; actions are: reveal N, peek N, draw, take, swap N, "
                "discard, flip N, pass, knock (N is a grid position, 1-based, row by row)"
            )
        kind = KINDS.index(word)
        if kind in POSITIONAL:
            if num is None:
                raise NotationError(
                    f"{word!r} needs a position: write '{word} N' with N from 1 to {MAX_POSITION}"
                )
            n = int(num)
            if not 1 <= n <= MAX_POSITION:
                raise NotationError(f"position {n} in {text!r} is not between 1 and {MAX_POSITION}")
            return cls.of(kind, n - 1)
        if num is not None:
            raise NotationError(f"{word!r} takes no position; write just '{word}'")
        return cls.of(kind)


for _k in range(len(KINDS)):
    for _c in range(MAX_POSITION if _k in POSITIONAL else 1):
        Action._cache[_k << KIND_SHIFT | _c] = int.__new__(Action, _k << KIND_SHIFT | _c)

DRAW = Action.of(K_DRAW)
TAKE = Action.of(K_TAKE)
DISCARD = Action.of(K_DISCARD)
PASS = Action.of(K_PASS)
KNOCK = Action.of(K_KNOCK)


def reveal(position: int) -> Action:
    return Action.of(K_REVEAL, position - 1)


def peek(position: int) -> Action:
    return Action.of(K_PEEK, position - 1)


def swap(position: int) -> Action:
    return Action.of(K_SWAP, position - 1)


def flip(position: int) -> Action:
    return Action.of(K_FLIP, position - 1)
