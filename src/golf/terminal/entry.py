"""What a player types: an action (canonical notation or an alias) or a command.

Aliases: ``d`` draw, ``t`` take, ``x`` discard, ``k`` knock, ``n`` pass, ``sN`` swap N,
``fN`` flip N, ``rN`` reveal N, ``pN`` peek N, and a bare position ``N`` for the one
kind of positional action legal now. Commands: ``help`` (``?``), ``hint``, ``rules``,
``scores``, ``board``, ``quit`` (``q``).

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=1)
>>> str(read("3", g.legal_actions())), read("HINT", g.legal_actions())
('reveal 3', Command(name='hint'))
>>> read("swap", g.legal_actions())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
golf.terminal.entry.EntryError: 'swap' needs a position: ...; legal now: reveal 1 2 3 4 5 6
>>> print(legal_text(g.legal_actions()))
reveal 1 2 3 4 5 6
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import ALIASES as ACTION_ALIASES
from ..actions import KINDS, POSITIONAL, Action
from ..digits import is_digits
from ..errors import GolfError, NotationError

#: Commands and the words that call them.
COMMANDS = {
    "help": "help", "?": "help", "h": "help",
    "hint": "hint",
    "rules": "rules",
    "scores": "scores", "score": "scores",
    "board": "board", "b": "board",
    "quit": "quit", "q": "quit", "exit": "quit",
}
#: Words for ``pass`` beyond the canonical one (``p`` is already ``peek``).
_PASS = ("n", "no", "none")
SHORT = {"draw": "d", "take": "t", "discard": "x", "knock": "k", "pass": "n",
           "swap": "sN", "flip": "fN", "reveal": "rN", "peek": "pN"}


class EntryError(GolfError):
    """A line that is neither an action nor a command."""


@dataclass(frozen=True)
class Command:
    """A request that is not a move: help, hint, rules, scores, board or quit."""

    name: str


def legal_text(legal: Sequence[Action], sep: str = " | ") -> str:
    """The legal actions grouped by kind: ``draw | take | swap 1 2 3``."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        groups.setdefault(a.kind, [])
        if a.position is not None:
            groups[a.kind].append(str(a.position))
    parts = [" ".join([kind, *positions]) for kind, positions in groups.items()]
    return sep.join(parts)


def read(text: str, legal: Sequence[Action], cells: int | None = None) -> Action | Command:
    """The action or command ``text`` names. An unknown word or a bare position with
    nothing to do raises :class:`EntryError` saying what is allowed (with a guess at
    what was meant); whether a well-formed action is legal is left to the engine.
    ``cells`` is the size of the grid, for the range of positions in messages.

    >>> from golf import Game
    >>> legal = Game("six-card", players=2, seed=1).legal_actions()
    >>> read("reveal", legal, cells=6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    golf.terminal.entry.EntryError: 'reveal' needs a position: reveal N with N from 1 to 6; ...
    >>> read("hnit", legal)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    golf.terminal.entry.EntryError: 'hnit' is not an action or a command (did you mean 'hint'?); ...
    """
    word = " ".join(text.strip().lower().split())
    if not word:
        raise EntryError(f"nothing typed; {legal_now(legal)} (or 'help')")
    if word in COMMANDS:
        return Command(COMMANDS[word])
    if word in _PASS:
        word = "pass"
    if is_digits(word):
        return _position(int(word), legal)
    head, _, rest = word.partition(" ")
    if head.rstrip("0123456789") in KINDS or head.rstrip("0123456789") in ACTION_ALIASES:
        return _action(word, legal, cells)
    guess = did_you_mean(head, [*COMMANDS, *KINDS])
    if guess in KINDS:
        guess = f"{guess} {rest}".strip()
    hint = f" (did you mean {guess!r}?)" if guess else ""
    raise EntryError(
        f"{text.strip()!r} is not an action or a command{hint}; {legal_now(legal)}; "
        "commands: help, hint, rules, scores, board, quit"
    )


def legal_now(legal: Sequence[Action]) -> str:
    """The one phrasing of what may be played: ``legal now: draw | take``."""
    return "legal now: " + legal_text(legal)


def did_you_mean(word: str, choices: Sequence[str]) -> str | None:
    """The closest of ``choices`` to a mistyped ``word``, if one is close.

    >>> did_you_mean("drwa", ["draw", "discard"]), did_you_mean("zzz", ["draw"])
    ('draw', None)
    """
    close = difflib.get_close_matches(word, [c for c in choices if len(c) > 1], n=1,
                                      cutoff=0.6)
    return close[0] if close else None


def _action(word: str, legal: Sequence[Action], cells: int | None) -> Action:
    try:
        return Action.parse(word)
    except NotationError as e:
        m = re.fullmatch(r"([a-z]+?) ?([0-9]*)", word)
        kind = ACTION_ALIASES.get(m.group(1), m.group(1)) if m else None
        kind = kind if kind in KINDS else None
        # Whether the kind takes a position, asked of the notation's table: parsing
        # "draw 1" to find out raised a NotationError of its own ("d5" was a traceback).
        if cells is not None and kind is not None and KINDS.index(kind) in POSITIONAL:
            if not m or not m.group(2):
                raise EntryError(f"{kind!r} needs a position: {kind} N with N from 1 to "
                                 f"{cells}; {legal_now(legal)}") from None
            raise EntryError(f"position {m.group(2)} is off the grid, which has positions "
                             f"1 to {cells}; {legal_now(legal)}") from None
        raise EntryError(f"{e}; {legal_now(legal)}") from None


def _position(n: int, legal: Sequence[Action]) -> Action:
    fits = [a for a in legal if a.position == n]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        if any(a.position is not None for a in legal):
            raise EntryError(f"nothing can be done at position {n} now; {legal_now(legal)}")
        raise EntryError(f"a position alone is not a move now; {legal_now(legal)}")
    raise EntryError(f"position {n} fits several moves ({', '.join(map(str, fits))}); "
                     "type the one you mean")
