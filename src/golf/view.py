"""The one place that decides what a player may see.

Every client (terminal, web, bots, RL adapters) reads the game through :func:`view`.
Face-down cards appear only to their owner, and only if that owner peeked at them;
the stock's order never appears; a card held after drawing from the stock is shown
to its holder alone. What the whole table knows is shown to every seat alike: where
each player peeked (never the cards), and, once the discard pile has been shuffled
into the stock, which cards the stock holds.

>>> from golf import Game
>>> g = Game("german", players=2, seed=1)
>>> g.apply("peek 4")
>>> v = g.view(0)
>>> v["grids"][0][3] is not None, v["grids"][0][0], g.view(1)["grids"][0][3]
(True, None, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import card_str
from .phases import PHASES

if TYPE_CHECKING:
    from .game import Game


def view(game: Game, player: int, codes: bool = False) -> dict[str, Any]:
    """JSON-serialisable dict of exactly what ``player`` may know now.

    Cards are notation strings (``"10H"``), or card codes (ints) when ``codes`` is
    true, which bots use to skip parsing. Unknown cards are ``None``.

    Two fields carry what every seat knows without seeing it on the table now:

    * ``"stock_cards"``: None until the stock has been reshuffled this hole; then the
      sorted cards of the stock, plus a card drawn from it that is being held now.
      Everyone saw the pile that became the stock, and each card drawn from it is
      shown by the end of the turn, so its cards (not their order) stay public;
      the drawn card is listed among them because only its holder knows which one
      it is (the holder also sees it in ``"held"``). The list is the same for every seat.
    * ``"peeked_cells"``: per seat (None for a seat not dealt in), the sorted 1-based
      positions it peeked at that are still face down: everyone sees where a player
      looks, never the card. ``"peeked"`` is the viewer's own list.

    >>> from golf import Game
    >>> g = Game("german", players=2, seed=1)
    >>> g.apply("peek 4"); g.apply("peek 2")
    >>> v = g.view(1)
    >>> v["peeked_cells"], v["grids"][0][1], v["stock_cards"]
    ([[2, 4], []], None, None)
    """
    g = game
    if not isinstance(player, int) or not 0 <= player < g.players:
        from .errors import GolfError

        raise GolfError(f"player must be a seat from 0 to {g.players - 1}, got {player!r}")
    r = g.rules
    cells = r.cells
    # Bots ask for a view before every decision: the per-mask bit tuples and the
    # action names are looked up, not rebuilt, and card codes are copied, not mapped.
    bits = _bits(cells)
    full = (1 << cells) - 1
    active = g.active
    grids: list[list[Any] | None] = []
    face_up: list[list[bool] | None] = []
    for seat in range(g.players):
        if seat not in active:
            grids.append(None)
            face_up.append(None)
            continue
        up = g._up[seat]
        known = up | g._peeked[seat] if seat == player else up
        grid = g._grids[seat]
        if codes:
            if known == full:
                grids.append(grid[:])
            else:
                grids.append([c if k else None for c, k in zip(grid, bits[known], strict=True)])
        else:
            grids.append([card_str(c) if k else None
                          for c, k in zip(grid, bits[known], strict=True)])
        face_up.append(list(bits[up]))
    held = None
    holder = None
    if g._held >= 0 and g._phase != 4:
        holder = g._current
        if holder == player or g._held_from == 1:
            held = g._held if codes else card_str(g._held)
    stock_cards: list[Any] | None = None
    if g._reshuffles:
        # Public since the reshuffle; a card held from the stock stays among them, so
        # the list never tells the others which card was drawn.
        pool = sorted([*g._stock, g._held] if holder is not None and g._held_from == 0
                      else g._stock)
        stock_cards = pool if codes else [card_str(c) for c in pool]
    peeked_cells: list[list[int] | None] = [
        list(bits.positions(g._peeked[s] & ~g._up[s])) if s in active else None
        for s in range(g.players)]
    discard = g._discard
    if codes:
        pile: list[Any] = discard[:]
        top = discard[-1] if discard else None
    else:
        pile = [card_str(c) for c in discard]
        top = pile[-1] if pile else None
    phase = g._phase
    over = phase == 4  # OVER
    last = g.hole_results[-1] if g.hole_results else None
    legal = [_NAMES[a] for a in g._legal_tuple()] if not over and g._current == player else []
    return {
        "variant": r.name,
        "players": g.players,
        "seat": player,
        "rows": r.rows,
        "cols": r.cols,
        "hole": g._hole_index + 1,
        "holes": r.holes,
        "playoff": g._playoff,
        "active": list(active),
        "dealer": g._dealer,
        "phase": PHASES[phase],
        "current_player": None if over else g._current,
        "grids": grids,
        "face_up": face_up,
        "peeked": list(bits.positions(g._peeked[player])) if player in active else [],
        "peeked_cells": peeked_cells,
        "stock_size": len(g._stock),
        "stock_cards": stock_cards,
        "discard": pile,
        "discard_top": top,
        "held": held,
        "held_by": holder,
        "held_from": None if holder is None else ("stock", "discard")[g._held_from],
        "knocked_by": g._knocker if g._knocker >= 0 else None,
        "final_turns_from": g._ender if g._ender >= 0 else None,
        "turns": list(g._turns),
        "totals": g.totals_[:],
        "hole_scores": [list(h) for h in g.regular_scores],
        "playoff_scores": [list(s) for s in g.playoff_scores],
        "last_hole": None if last is None else {
            "number": last.number,
            "playoff": last.playoff,
            "grids": [([*grid] if codes else [card_str(c) for c in grid]) if grid else None
                      for grid in last.grids],
            "scores": list(last.scores),
            "knocked_by": last.knocked_by,
            "went_out": last.went_out,
            "discard_top": None if last.discard_top is None
            else (last.discard_top if codes else card_str(last.discard_top)),
        },
        "legal_actions": legal,
        "is_over": over,
        "winners": g._winners[:],
    }


class _Masks:
    """Per grid size, a mask's bits as booleans (cell 0 first) and its 1-based set
    positions: tabulated up to 12 cells, worked out on demand for larger grids."""

    __slots__ = ("cells", "positions_table", "table")

    def __init__(self, cells: int) -> None:
        self.cells = cells
        small = cells <= 12
        masks = range(1 << cells) if small else range(0)
        self.table = [self._bits(m) for m in masks]
        self.positions_table = [self._positions(m) for m in masks]

    def _bits(self, mask: int) -> tuple[bool, ...]:
        return tuple(bool(mask >> i & 1) for i in range(self.cells))

    def _positions(self, mask: int) -> tuple[int, ...]:
        return tuple(i + 1 for i in range(self.cells) if mask >> i & 1)

    def __getitem__(self, mask: int) -> tuple[bool, ...]:
        return self.table[mask] if self.table else self._bits(mask)

    def positions(self, mask: int) -> tuple[int, ...]:
        return self.positions_table[mask] if self.table else self._positions(mask)


_MASKS: dict[int, _Masks] = {}


def _bits(cells: int) -> _Masks:
    m = _MASKS.get(cells)
    if m is None:
        m = _MASKS[cells] = _Masks(cells)
    return m


class _Names(dict[int, str]):
    """Action notation by action code, filled on first use of each action."""

    def __missing__(self, action: int) -> str:
        name = self[action] = str(action)
        return name


_NAMES = _Names()
