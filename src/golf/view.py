"""The one place that decides what a player may see.

Every client (terminal, web, bots, RL adapters) reads the game through :func:`view`,
and spectators through its public form (``view(game, None)``, ``Game.public_view()``):
this module is the one place where secrets are stripped.
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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .cards import CARD_TEXT
from .errors import GolfError
from .events import hole_result_dict
from .phases import FROM_DISCARD, FROM_STOCK, OVER, PHASES

if TYPE_CHECKING:
    from .rules import Rules
    from .state import MatchState
    from .types import ViewDict


class Viewable(Protocol):
    """What a view is made from: a game's public state and its legal actions
    (a :class:`golf.Game`)."""

    @property
    def state(self) -> MatchState: ...

    def legal_actions(self) -> Sequence[int]: ...


def view(game: Viewable, player: int | None, codes: bool = False) -> ViewDict:
    """JSON-serialisable dict of exactly what ``player`` may know now; with ``player``
    None, the public view: what every seat knows (for spectators).

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
      looks, never the card. ``"peeked"`` is the viewer's own list (empty in the
      public view).

    >>> from golf import Game
    >>> g = Game("german", players=2, seed=1)
    >>> g.apply("peek 4"); g.apply("peek 2")
    >>> v = g.view(1)
    >>> v["peeked_cells"], v["grids"][0][1], v["stock_cards"]
    ([[2, 4], []], None, None)
    >>> g.view(None)["grids"][0] == [None] * 6 and g.view(None)["seat"] is None
    True
    """
    st = game.state
    n = st.players
    if player is not None and (type(player) is not int or not 0 <= player < n):
        raise GolfError(f"player must be a seat from 0 to {n - 1} (or None for the public "
                        f"view), got {player!r}")
    h = st.hole
    r = st.rules
    cells = r.cells
    # Bots ask for a view before every decision: the per-mask bit tuples and the
    # action names are looked up, not rebuilt, and card codes are copied, not mapped.
    bits = _bits(cells)
    full = (1 << cells) - 1
    active = h.active
    ups, peeks = h.up, h.peeked
    grids: list[list[Any] | None] = []
    face_up: list[list[bool] | None] = []
    for seat in range(n):
        if seat not in active:
            grids.append(None)
            face_up.append(None)
            continue
        up = ups[seat]
        known = up | peeks[seat] if seat == player else up
        grid = h.grids[seat]
        if codes:
            if known == full:
                grids.append(grid[:])
            else:
                grids.append([c if k else None for c, k in zip(grid, bits[known], strict=True)])
        else:
            grids.append([CARD_TEXT[c] if k else None
                          for c, k in zip(grid, bits[known], strict=True)])
        face_up.append(list(bits[up]))
    phase = h.phase
    over = phase == OVER
    held = None
    holder = None
    if h.held >= 0 and not over:
        holder = h.current
        if holder == player or h.held_from == FROM_DISCARD:
            held = h.held if codes else CARD_TEXT[h.held]
    stock_cards: list[Any] | None = None
    if h.reshuffles:
        # Public since the reshuffle; a card held from the stock stays among them, so
        # the list never tells the others which card was drawn.
        pool = sorted([*h.stock, h.held] if holder is not None and h.held_from == FROM_STOCK
                      else h.stock)
        stock_cards = pool if codes else [CARD_TEXT[c] for c in pool]
    peeked_cells: list[list[int] | None] = [
        list(bits.positions(peeks[s] & ~ups[s])) if s in active else None
        for s in range(n)]
    discard = h.discard
    if codes:
        pile: list[Any] = discard[:]
        top = discard[-1] if discard else None
    else:
        pile = [CARD_TEXT[c] for c in discard]
        top = pile[-1] if pile else None
    last = st.hole_results[-1] if st.hole_results else None
    legal = ([_NAMES[a] for a in game.legal_actions()]
             if not over and player is not None and h.current == player else [])
    return {
        "variant": r.name,
        "players": n,
        "seat": player,
        "rows": r.rows,
        "cols": r.cols,
        "hole": st.hole_index + 1,
        "holes": r.holes,
        "playoff": st.playoff,
        "active": list(active),
        "dealer": h.dealer,
        "phase": PHASES[phase],
        "current_player": None if over else h.current,
        "grids": grids,
        "face_up": face_up,
        "peeked": list(bits.positions(peeks[player]))
        if player is not None and player in active else [],
        "peeked_cells": peeked_cells,
        "stock_size": len(h.stock),
        "stock_cards": stock_cards,
        "discard": pile,
        "discard_top": top,
        "held": held,
        "held_by": holder,
        "held_from": None if holder is None else ("stock", "discard")[h.held_from],
        "knocked_by": h.knocker if h.knocker >= 0 else None,
        "final_turns_from": h.ender if h.ender >= 0 else None,
        "turns": list(h.turns),
        "totals": st.totals[:],
        "hole_scores": [list(s) for s in st.hole_scores],
        "playoff_scores": [list(s) for s in st.playoff_scores],
        "last_hole": None if last is None else hole_result_dict(
            last, _card_code if codes else CARD_TEXT.__getitem__),
        "legal_actions": legal,
        "is_over": over,
        "winners": st.winners[:],
    }


# --- memory mode --------------------------------------------------------------------------
# Where the setup is a private peek, a table may ask its players to remember what they saw:
# once a player has drawn in a hole, their peeked cards are shown to them as backs. The
# engine's view keeps them (the seat did see them, and bots remember); these functions are
# the one statement of that table rule, used by the terminal and the server alike.

def forgets_peeks(rules: Rules, show_peeks: bool = False) -> bool:
    """Whether players must remember their peeked cards: they peek in secret
    (``setup = "peek"``) and the table does not keep peeks shown.

    >>> from golf import load_rules
    >>> forgets_peeks(load_rules("german")), forgets_peeks(load_rules("german"), True)
    (True, False)
    >>> forgets_peeks(load_rules("six-card"))
    False
    """
    return rules.setup == "peek" and not show_peeks


def has_drawn(view: Mapping[str, Any]) -> bool:
    """Whether the viewer has drawn (or otherwise ended a turn) in this hole: from then on
    memory mode hides their peeked cards."""
    seat = view["seat"]
    if seat is None or view["phase"] == "setup":
        return False
    if view["turns"][seat] > 0:
        return True
    return bool(view["current_player"] == seat and view["phase"] in ("hold", "flip"))


def remembered(view: Mapping[str, Any], rules: Rules,
               show_peeks: bool = False) -> Mapping[str, Any]:
    """What a player is shown of their ``view`` at a table in memory mode: once they have
    drawn, their face-down cards are unknown (None) to them again. Where they peeked stays
    in ``peeked`` (the whole table saw where they looked); the hole's end shows everything.

    >>> from golf import Game
    >>> g = Game("german", players=2, seed=1)
    >>> for a in ("peek 1", "peek 2", "peek 1", "peek 2"):
    ...     g.apply(a)
    >>> remembered(g.view(0), g.rules)["grids"][0][0] is not None  # before the first draw
    True
    >>> g.apply("draw"); g.apply("discard")
    >>> v = remembered(g.view(0), g.rules)
    >>> v["grids"][0][:2], v["peeked"]
    ([None, None], [1, 2])
    """
    seat = view["seat"]
    if (not forgets_peeks(rules, show_peeks) or view["phase"] == "over"
            or not has_drawn(view) or view["grids"][seat] is None):
        return view
    up = view["face_up"][seat]
    grids = list(view["grids"])
    grids[seat] = [c if up[i] else None for i, c in enumerate(grids[seat])]
    out = dict(view)
    out["grids"] = grids
    return out


def _card_code(c: int) -> int:
    return c


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
