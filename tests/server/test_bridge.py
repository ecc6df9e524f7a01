"""The engine bridge without a server: replay frames and hole scoring per receiver,
over random matches of every preset."""

from __future__ import annotations

import json
import random

import pytest

from golf import Game, preset_names
from golf.server.core import bridge
from golf.view import remembered


def receivers(g: Game) -> list[int | None]:
    return [*range(g.players), None]


@pytest.mark.parametrize("preset", preset_names())
def test_replay_frames_are_the_engines_per_receiver(preset: str) -> None:
    rng = random.Random(preset)
    g = Game(preset, players=3 if preset != "german" else 2, seed=rng.getrandbits(64))
    actions: list[str] = []
    while not g.is_over:
        actions.append(str(rng.choice(g.legal_actions())))
        g.apply(actions[-1])
    by = ["player" if i % 2 else "bot" for i in range(len(actions))]
    replay = bridge.Replay({"rules": g.rules.to_dict(), "players": g.players,
                            "seed": g.seed, "actions": actions, "by": by})
    twin = Game.from_record({**g.record(), "actions": []})
    ended_holes = 0
    for v, action in enumerate(actions, start=1):
        engine = twin.step(action)
        for r in receivers(twin):
            step = json.loads(json.dumps(replay.step(v, r)))
            want = json.loads(json.dumps(engine.to_dict(r)))
            # Exactly the engine's event for the receiver, and who played it: no more.
            assert step["event"] == {**want, "by": by[v - 1]}
            # A seat's view as the table showed it: in memory mode (the German preset's
            # secret peeks) without the peeked cards it no longer remembers.
            view = twin.public_view() if r is None else remembered(twin.view(r), twin.rules)
            assert step["view"] == json.loads(json.dumps(view))
        scoring = replay.step(v, None)["scoring"]
        if engine.ended_hole:
            ended_holes += 1
            assert [None if e is None else e["score"] for e in scoring] == \
                list(twin.hole_results[-1].scores)
        else:
            assert scoring is None
    assert ended_holes >= 1
    assert replay.step(0, None)["event"] is None


def test_a_draw_from_the_stock_is_the_holders_alone() -> None:
    g = Game("six-card", players=2, seed=5)
    actions = ["reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw"]
    replay = bridge.Replay({"rules": g.rules.to_dict(), "players": 2, "seed": 5,
                            "actions": actions})
    for a in actions:
        g.apply(a)
    seat = replay.step(5, None)["event"]["seat"]
    held = g.view(seat)["held"]
    assert held is not None
    assert replay.step(5, seat)["event"]["facts"][0]["card"] == held
    assert replay.step(5, 1 - seat)["event"]["facts"][0]["card"] is None
    assert held not in json.dumps(replay.step(5, None)["event"])


@pytest.mark.parametrize("preset", ["six-card", "german"])
def test_replay_links_each_hole_at_the_version_its_deal_is_shown(preset: str) -> None:
    """The replay's hole starts are the versions at which a new hole's deal is on the
    table: the first version of each hole number, and no other."""
    g = Game(preset, players=2, seed=11, rules={"holes": 3, "target": 0}
             if preset == "german" else {"holes": 3})
    pick = random.Random(5)
    while not g.is_over:
        g.apply(pick.choice(g.legal_actions()))
    replay = bridge.Replay(g.record())
    first_version: dict[int, int] = {}
    for version, state in enumerate(replay.games):
        first_version.setdefault(state.hole, version)
    assert replay.hole_starts == [{"hole": h, "version": v}
                                  for h, v in sorted(first_version.items())]
    assert len(replay.hole_starts) >= 3
