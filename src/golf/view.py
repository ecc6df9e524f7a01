"""The one place that decides what a player may see.

Every client (terminal, web, bots, RL adapters) reads the game through :func:`view`.
Face-down cards appear only to their owner, and only if that owner peeked at them;
the stock's order never appears; a card held after drawing from the stock is shown
to its holder alone.

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

if TYPE_CHECKING:
    from .game import Game


def view(game: Game, player: int, codes: bool = False) -> dict[str, Any]:
    """JSON-serialisable dict of exactly what ``player`` may know now.

    Cards are notation strings (``"10H"``), or card codes (ints) when ``codes`` is
    true, which bots use to skip parsing. Unknown cards are ``None``.
    """
    g = game
    if not isinstance(player, int) or not 0 <= player < g.players:
        from .errors import GolfError

        raise GolfError(f"player must be a seat from 0 to {g.players - 1}, got {player!r}")
    fmt: Any = (lambda c: c) if codes else card_str
    r = g.rules
    cells = r.cells
    grids: list[list[Any] | None] = []
    face_up: list[list[bool] | None] = []
    for seat in range(g.players):
        if seat not in g.active:
            grids.append(None)
            face_up.append(None)
            continue
        up = g._up[seat]
        known = up | (g._peeked[seat] if seat == player else 0)
        grid = g._grids[seat]
        grids.append([fmt(grid[i]) if known >> i & 1 else None for i in range(cells)])
        face_up.append([bool(up >> i & 1) for i in range(cells)])
    held = None
    holder = None
    if g._held >= 0 and g._phase != 4:
        holder = g._current
        if holder == player or g._held_from == 1:
            held = fmt(g._held)
    over = g.is_over
    last = g.hole_results[-1] if g.hole_results else None
    legal = [str(a) for a in g._legal_tuple()] if not over and g._current == player else []
    return {
        "variant": r.name,
        "players": g.players,
        "seat": player,
        "rows": r.rows,
        "cols": r.cols,
        "hole": g.hole,
        "holes": r.holes,
        "playoff": g.is_playoff,
        "active": list(g.active),
        "dealer": g.dealer,
        "phase": g.phase,
        "current_player": g.current_player,
        "grids": grids,
        "face_up": face_up,
        "peeked": [i + 1 for i in range(cells) if g._peeked[player] >> i & 1]
        if player in g.active else [],
        "stock_size": len(g._stock),
        "discard": [fmt(c) for c in g._discard],
        "discard_top": fmt(g._discard[-1]) if g._discard else None,
        "held": held,
        "held_by": holder,
        "held_from": None if holder is None else ("stock", "discard")[g._held_from],
        "knocked_by": g._knocker if g._knocker >= 0 else None,
        "final_turns_from": g._ender if g._ender >= 0 else None,
        "turns": list(g._turns),
        "totals": g.totals,
        "hole_scores": g.hole_scores,
        "playoff_scores": [list(s) for s in g.playoff_scores],
        "last_hole": None if last is None else {
            "number": last.number,
            "playoff": last.playoff,
            "grids": [[fmt(c) for c in grid] if grid else None for grid in last.grids],
            "scores": list(last.scores),
            "knocked_by": last.knocked_by,
            "went_out": last.went_out,
            "discard_top": None if last.discard_top is None else fmt(last.discard_top),
        },
        "legal_actions": legal,
        "is_over": over,
        "winners": g.winners,
    }
