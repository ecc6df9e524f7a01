"""Sentences about moves: what a player did, told as one onlooker may hear it.

The engine's turn event (:mod:`golf.events`, from ``Game.step``) says what an action
did and which of its cards each seat may see (a card drawn from the stock is named to
its holder alone; a swap that ends a hole still names the card it discards; a
reshuffle is a fact of its own); this module only puts it in words, with the players'
names and the terminal's card style.

>>> from golf import Game
>>> from golf.terminal.style import Style
>>> g = Game("six-card", players=2, seed=3)
>>> tell(g.step("reveal 2"), 1, ["Ann", "Bob"], Style())
['Ann turns up position 2: 8H']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..events import Event
from .style import Style


def verb(name: str, third: str, second: str) -> str:
    """``name`` and a verb agreeing with it.

    >>> verb("Ann", "draws", "draw"), verb("You", "draws", "draw")
    ('Ann draws', 'You draw')
    """
    # "You" is the default name of a lone player: "You draw", not "You draws".
    return f"{name} {second if name == 'You' else third}"


def tell(
    event: Event, eyes: int | None, names: Sequence[str], style: Style,
    peeked: str | None = None,
) -> list[str]:
    """The sentences of one turn event as seat ``eyes`` (None: a spectator) may hear
    them: the engine's event decides what happened and which cards that seat may see;
    this only words it. ``peeked``: the card a peek showed, for the peeker's own
    sentence (an event never holds it).

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=7)
    >>> tell(g.step("reveal 1"), None, ["Ann", "Bob"], Style())
    ['Ann turns up position 1: JC']
    """
    out: list[str] = []
    for f in event.to_dict(eyes)["facts"]:
        line = _fact_sentence(f, names, style, eyes, peeked)
        if line:
            out.append(line)
    return out


def _fact_sentence(
    f: Mapping[str, Any], names: Sequence[str], style: Style, eyes: int | None,
    peeked: str | None,
) -> str | None:
    kind = f["type"]
    who = names[f["seat"]] if "seat" in f else ""

    def card(c: str | None) -> str:
        return style.card_name(c) if c else ""

    if kind in ("reveal", "flip"):
        return f"{verb(who, 'turns up', 'turn up')} position {f['position']}: {card(f['card'])}"
    if kind == "peek":
        text = f"{verb(who, 'looks at', 'look at')} position {f['position']}"
        if f["seat"] == eyes and peeked:
            return f"{text}: {card(peeked)}"
        return text + ("" if f["seat"] == eyes else " (hidden from the others)")
    if kind == "draw":
        if f["from"] == "discard":
            return f"{verb(who, 'takes', 'take')} {card(f['card'])} from the discard pile"
        text = verb(who, "draws", "draw")
        return f"{text} {card(f['card'])} from the stock" if f["card"] else \
            f"{text} from the stock"
    if kind == "swap":
        return (f"{verb(who, 'swaps', 'swap')} {card(f['card'])} into position "
                f"{f['position']}, discarding {card(f['discarded'])}")
    if kind == "discard":
        return f"{verb(who, 'discards', 'discard')} {card(f['card'])}"
    if kind == "pass":
        return f"{verb(who, 'leaves', 'leave')} the face-down cards as they are"
    if kind == "knock":
        return verb(who, "knocks", "knock")
    if kind == "reshuffle":
        return (f"The stock ran out: the discard pile but its top card is shuffled into a "
                f"new stock of {f['stock_size']} cards.")
    if kind == "final_turns" and f["seats"]:
        others = [names[x] for x in f["seats"]]
        each = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
        return f"{each} {'has' if len(others) == 1 else 'have'} one last turn"
    return None  # hole ends and starts are told by the reveal and the banners
