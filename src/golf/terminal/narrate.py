"""Sentences about moves: what a player did, told from what the onlooker may see.

A move is described from two views of the same onlooker, before and after it, so a
card appears in the sentence only if that onlooker could see it (a card drawn from
the stock is named to its holder alone).

>>> from golf import Game
>>> from golf.terminal.style import Style
>>> g = Game("six-card", players=2, seed=3)
>>> before = g.view(1)
>>> g.apply("reveal 2")
>>> describe(g.history[-1], 0, before, g.view(1), ["Ann", "Bob"], Style())
'Ann turns up position 2: 8H'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action
from .style import Style


def hole_ended(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a hole finished between two views."""
    done = len(before["hole_scores"]) + len(before["playoff_scores"])
    return len(after["hole_scores"]) + len(after["playoff_scores"]) > done


def verb(name: str, third: str, second: str) -> str:
    """``name`` and a verb agreeing with it.

    >>> verb("Ann", "draws", "draw"), verb("You", "draws", "draw")
    ('Ann draws', 'You draw')
    """
    # "You" is the default name of a lone player: "You draw", not "You draws".
    return f"{name} {second if name == 'You' else third}"


def describe(
    action: Action, actor: int, before: Mapping[str, Any], after: Mapping[str, Any],
    names: Sequence[str], style: Style,
) -> str:
    """One sentence telling ``action`` by seat ``actor``."""
    who = names[actor]
    kind, cell, pos = action.kind, action.cell, action.position
    ended = hole_ended(before, after)

    def card(notation: str | None) -> str:
        return style.card_name(notation) if notation else ""

    def now_at(c: int) -> str | None:
        # Once the hole is over the next deal is on the table; the finished grids
        # are in the view's last hole.
        grids = after["last_hole"]["grids"] if ended else after["grids"]
        grid = grids[actor]
        return grid[c] if grid is not None else None

    if kind == "reveal" or kind == "flip":
        assert cell is not None
        return f"{verb(who, 'turns up', 'turn up')} position {pos}: {card(now_at(cell))}"
    if kind == "peek":
        assert cell is not None
        seen = now_at(cell)
        text = f"{verb(who, 'looks at', 'look at')} position {pos}"
        return text + (f": {card(seen)}" if seen else " (hidden from the others)")
    if kind == "draw":
        held = after["held"]
        text = verb(who, "draws", "draw")
        return f"{text} {card(held)} from the stock" if held else f"{text} from the stock"
    if kind == "take":
        return f"{verb(who, 'takes', 'take')} {card(before['discard_top'])} from the discard pile"
    if kind == "swap":
        assert cell is not None
        new = before["held"] or now_at(cell)
        old = before["grids"][actor][cell]
        if old is None:
            # The card swapped out lies face up on the discard pile, also when the
            # swap ended the hole (then the finished hole keeps the pile's top).
            old = after["last_hole"]["discard_top"] if ended else after["discard_top"]
        text = f"{verb(who, 'swaps', 'swap')} {card(new)} into position {pos}"
        if old:
            return f"{text}, discarding {card(old)}"
        return f"{text}, discarding a face-down card"
    if kind == "discard":
        gone = before["held"] or (after["last_hole"]["discard_top"] if ended
                                  else after["discard_top"])
        return f"{verb(who, 'discards', 'discard')} {card(gone) or 'the drawn card'}"
    if kind == "pass":
        return f"{verb(who, 'leaves', 'leave')} the face-down cards as they are"
    if kind == "knock":
        return f"{verb(who, 'knocks', 'knock')}"
    return f"{who}: {action}"  # pragma: no cover - every kind is handled above


def reshuffled(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """The sentence for a reshuffle between two views of one hole (the stock ran out
    and the discard pile, all but its top card, became the new stock), or None.

    >>> reshuffled({"stock_size": 0, "hole": 1, "hole_scores": [], "playoff_scores": []},
    ...            {"stock_size": 13, "hole": 1, "hole_scores": [], "playoff_scores": []})
    'The stock ran out: the discard pile but its top card is shuffled into a new stock of 14 cards.'
    """
    if hole_ended(before, after) or after["stock_size"] <= before["stock_size"]:
        return None
    # A reshuffle comes with the draw that needed it, which took one card already.
    size = after["stock_size"] + 1
    return (f"The stock ran out: the discard pile but its top card is shuffled into a "
            f"new stock of {size} cards.")
