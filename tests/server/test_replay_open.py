"""A finished match's replay may show every card (issue 22, "Replay and sharing"): the
``seat=all`` step is the public view with every card of the engine's position filled in,
and like every replay route it is refused while the match runs."""

from __future__ import annotations

import asyncio
import random

from harness import ServerProcess, play_out
from test_sessions import close_all, seated

from golf import Game
from golf.cards import card_str
from golf.server.core.bridge import Replay


def finished_record(seed: int) -> dict[str, object]:
    g = Game("six-card", players=3, seed=seed, rules={"holes": 2})
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return {**g.record(), "by": []}


def test_every_card_step_is_the_public_view_over_the_whole_position() -> None:
    rec = finished_record(5)
    steps = Replay(rec)
    truth = Game.from_record({**rec, "actions": []})
    for version in range(steps.length + 1):
        if version:
            truth.apply(rec["actions"][version - 1])  # type: ignore[index]
        public = steps.step(version, None)
        shown = steps.step(version, None, every_card=True)
        pos = truth.position()
        # Every card of every grid, as the engine holds it; the held card too.
        assert shown["view"]["grids"] == [
            None if grid is None else [card_str(c) for c in grid] for grid in pos["grids"]]
        if pos["held"] is not None:
            assert shown["view"]["held"] == card_str(pos["held"])
        # Nothing else differs from the public step: same face-up flags, piles, event.
        for key in public["view"]:
            if key not in ("grids", "held"):
                assert shown["view"][key] == public["view"][key], key
        assert shown["event"] == public["event"]
        assert shown["scoring"] == public["scoring"]
    # Some step really shows more than the public view (face-down cards at the deal).
    assert steps.step(0, None, every_card=True)["view"]["grids"] != \
        steps.step(0, None)["view"]["grids"]


def test_every_card_is_refused_while_the_match_runs_and_given_after(
        server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(server, rules={"holes": 1})
        running = server.get(f"/api/tables/{tid}/matches/1/replay/0?seat=all")
        assert running.status_code == 409
        assert running.json()["error"]["code"] == "match_running"
        assert "grids" not in running.text
        await play_out([a, b], random.Random(3))
        done = server.get(f"/api/tables/{tid}/matches/1/replay/0?seat=all")
        assert done.status_code == 200
        grids = done.json()["view"]["grids"]
        assert all(card is not None for grid in grids if grid for card in grid)
        bad = server.get(f"/api/tables/{tid}/matches/1/replay/0?seat=everyone")
        assert bad.status_code == 400
        assert "'all'" in bad.json()["error"]["message"]
        await close_all([a, b])

    asyncio.run(run())
