"""The engine bridge without a server: events and views per receiver, over random matches."""

from __future__ import annotations

import json
import random

import pytest

from golf import Game, preset_names
from golf.server import bridge


def receivers(g: Game) -> list[int | None]:
    return [*range(g.players), None]


@pytest.mark.parametrize("preset", preset_names())
def test_events_are_the_engines_per_receiver(preset: str) -> None:
    rng = random.Random(preset)
    g = Game(preset, players=3 if preset != "german" else 2, seed=rng.getrandbits(64))
    twin = g.clone()
    ended_holes = 0
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        seat = g.current_player
        out = bridge.apply_and_describe(g, action, by="player")
        engine = twin.step(action)
        assert out.after == json.loads(json.dumps(twin.public_view()))
        for r in receivers(g):
            ev = json.loads(json.dumps(out.event_for(r)))
            want = json.loads(json.dumps(engine.to_dict(r)))
            assert ev["facts"] == want["facts"] and ev["action"] == want["action"]
            assert ev["seat"] == seat and ev["by"] == "player"
            kind = engine.action.kind
            if kind in ("draw", "peek") and r != seat:
                assert ev["card"] is None
            if kind == "peek" and r == seat:
                pos = engine.action.position
                assert pos is not None
                assert ev["card"] == twin.view(seat)["grids"][seat][pos - 1] is not None
            if kind == "swap":
                swap = next(f for f in want["facts"] if f["type"] == "swap")
                assert (ev["card"], ev["replaced"]) == (swap["card"], swap["discarded"])
            assert ev["match_over"] == engine.ended_match
            if engine.ended_hole:
                over = ev["hole_over"]
                assert over["scores"] == list(twin.hole_results[-1].scores)
                assert [None if e is None else e["score"] for e in over["explained"]] == \
                    over["scores"]
            else:
                assert ev["hole_over"] is None
        ended_holes += engine.ended_hole
    assert ended_holes >= 1


def test_draw_from_stock_is_the_holders_alone() -> None:
    g = Game("six-card", players=2, seed=5)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2"):
        bridge.apply_and_describe(g, a, by="player")
    out = bridge.apply_and_describe(g, "draw", by="player")
    held = g.view(out.seat)["held"]
    assert held is not None
    assert out.event_for(out.seat)["card"] == held
    assert out.event_for(1 - out.seat)["card"] is None
    assert out.event_for(None)["card"] is None
    assert held not in json.dumps(out.event_for(None))
