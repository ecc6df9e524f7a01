"""Knowledge of the cards: one definition from a seat's view, and an exact sampler of
the worlds consistent with it (checked against exact enumeration on small endgames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from golf import Game
from golf.bots import make_bot

PINS = Path(__file__).parent / "data" / "expert_moves.json"


# --- the expert's play, pinned before it counted cards through knowledge.py ------------

def _pinned() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(PINS.read_text())
    return data


@pytest.mark.parametrize("match", _pinned(), ids=lambda m: f"{m['variant']}-{m['players']}"
                         f"-{m['seed']}")
def test_expert_moves_are_the_pinned_ones_where_the_stock_is_not_public(
        match: dict[str, Any]) -> None:
    """Matches of experts (full memory, and memory 0.5 with noise) recorded on the code
    before the switch. Replaying them, every decision must be the same, except where
    the stock has been reshuffled (the view lists its cards): there the old counting
    treated the stock's public cards as unseen, and the expert may now choose otherwise."""
    g = Game(match["variant"], players=match["players"], seed=match["seed"],
             rules=match["rules"])
    bots = [make_bot(spec, g.rules, seed=match["seed"] * 10 + s)
            for s, spec in enumerate(match["bots"])]
    same = changed = 0
    for pinned in match["actions"]:
        seat = g.current_player
        assert seat is not None
        v = g.view(seat, codes=True)
        chosen = str(bots[seat].choose(v, g.legal_actions()))
        if v["stock_cards"] is None:
            assert chosen == pinned, f"decision {same + changed} of seat {seat} changed"
            same += 1
        else:
            changed += chosen != pinned
        g.apply(pinned)
    assert g.is_over and same > 0
