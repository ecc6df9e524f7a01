"""Test helpers shared by several test files (tests only: they touch private fields)."""

from __future__ import annotations

import random

from golf import Game


def scramble_hidden(g: Game, seat: int, rng: random.Random, own_peeks: bool = False) -> Game:
    """A clone in which every card ``seat`` cannot know is shuffled among the hidden places.

    Test-only: it rewrites private fields. The stock, every face-down card ``seat`` has
    not peeked at, and a card another player drew from the stock all trade places (once
    the stock has been reshuffled, within the stock and within the grids); a view that
    leaked any of them (or the stock's order) would change. With ``own_peeks`` the
    cards ``seat`` peeked at move too (for bots that may forget them).
    """
    c = g.clone()
    cells = c.rules.cells
    stock: list[tuple[list[int], int]] = [(c._stock, i) for i in range(len(c._stock))]
    grids: list[tuple[list[int], int]] = []
    for s in c.active:
        known = c._up[s] | (c._peeked[s] if s == seat and not own_peeks else 0)
        grids += [(c._grids[s], i) for i in range(cells) if not known >> i & 1]
    held_hidden = c._held >= 0 and c._current != seat and c._held_from == 0
    # After a reshuffle every player saw the pile that became the stock, so the view
    # shows the stock's cards (with a card drawn from it) but not their order or which
    # one was drawn: those cards then trade places among themselves only, and the
    # face-down cards among themselves. Before one, all hidden cards trade places.
    groups = [stock, grids] if c._reshuffles else [stock + grids]
    for slots in groups:
        values = [lst[i] for lst, i in slots]
        hold = held_hidden and slots is groups[0]
        if hold:
            values.append(c._held)
        rng.shuffle(values)
        if hold:
            c._held = values.pop()
        for (lst, i), v in zip(slots, values, strict=True):
            lst[i] = v
    return c

