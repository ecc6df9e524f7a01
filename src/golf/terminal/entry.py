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

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import ALIASES as ACTION_ALIASES
from ..actions import KINDS, Action
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


def read(text: str, legal: Sequence[Action]) -> Action | Command:
    """The action or command ``text`` names. An unknown word or a bare position with
    nothing to do raises :class:`EntryError` saying what is allowed; whether a
    well-formed action is legal is left to the engine."""
    word = text.strip().lower()
    if not word:
        raise EntryError(f"nothing typed; legal now: {legal_text(legal)} (or 'help')")
    if word in COMMANDS:
        return Command(COMMANDS[word])
    if word in _PASS:
        word = "pass"
    if word.isdigit():
        return _position(int(word), legal)
    try:
        return Action.parse(word)
    except NotationError as e:
        head = word.split()[0].rstrip("0123456789")
        if head in KINDS or head in ACTION_ALIASES:
            raise EntryError(f"{e}; legal now: {legal_text(legal)}") from None
        raise EntryError(
            f"{text.strip()!r} is not an action or a command; legal now: {legal_text(legal)}; "
            "commands: help, hint, rules, scores, board, quit"
        ) from None


def _position(n: int, legal: Sequence[Action]) -> Action:
    fits = [a for a in legal if a.position == n]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        if any(a.position is not None for a in legal):
            raise EntryError(f"nothing can be done at position {n} now; legal now: "
                             f"{legal_text(legal)}")
        raise EntryError(f"a position alone is not a move now; legal now: {legal_text(legal)}")
    raise EntryError(f"position {n} fits several moves ({', '.join(map(str, fits))}); "
                     "type the one you mean")
