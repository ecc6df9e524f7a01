"""A replay of a memory-mode match shows each seat's view as that seat saw it at that
version (issue 29): once a seat has drawn in a hole, the face-down cards it peeked at are
hidden from it (golf.view.remembered), in the replay as during play."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from harness import ServerProcess, play_out
from test_sessions import close_all, seated

from golf import Game
from golf.server.core.bridge import Replay
from golf.view import has_drawn


def memory_record(seed: int) -> dict[str, Any]:
    """A finished German match (secret peeks: memory mode) of random legal moves."""
    g = Game("german", players=2, seed=seed, rules={"holes": 2})
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return {**g.record(), "by": []}


def test_a_seat_step_hides_the_peeked_cards_it_no_longer_remembers() -> None:
    rec = memory_record(3)
    steps, kept = Replay(rec), Replay(rec, keep_peeks=True)
    assert steps.memory and not kept.memory
    hidden = 0
    for version in range(steps.length + 1):
        for seat in (0, 1):
            seen = steps.step(version, seat)["view"]
            full = kept.step(version, seat)["view"]
            mine, up = seen["grids"][seat], seen["face_up"][seat]
            if seen["phase"] != "over" and mine is not None and has_drawn(seen):
                # After its first draw a seat sees only its face-up cards...
                assert all((c is not None) == u for c, u in zip(mine, up, strict=True))
                hidden += sum(c is None and f is not None
                              for c, f in zip(mine, full["grids"][seat], strict=True))
            else:
                assert seen == full  # ...before it (and at the end) all it knows
            # Nothing but its own face-down cards differs; the event is unchanged.
            assert {k: v for k, v in seen.items() if k != "grids"} == \
                {k: v for k, v in full.items() if k != "grids"}
        # The public and every-card steps do not depend on memory mode.
        assert steps.step(version, None) == kept.step(version, None)
        assert steps.step(version, None, every_card=True) == \
            kept.step(version, None, every_card=True)
    assert hidden > 0  # the rule really hid peeked cards somewhere


def test_the_replay_shows_each_seat_what_its_frames_showed(server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, clients = await seated(server, preset="german", rules={"holes": 1},
                                       seats=[{"kind": "human"}, {"kind": "human"}])
        await play_out(clients, random.Random(11))
        info = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        assert info["memory"] is True
        assert info["result"]["memory"] is True
        compared = hidden = 0
        for seat, c in enumerate(clients):
            for f in c.frames:
                if f["type"] != "state" or f["match"] != 1:
                    continue
                step = server.get(f"/api/tables/{tid}/matches/1/replay/{f['version']}"
                                  f"?seat={seat}").json()
                assert step["view"] == f["view"], (seat, f["version"])
                compared += 1
                mine = f["view"]["grids"][seat] or []
                hidden += sum(mine[p - 1] is None for p in f["view"]["peeked"])
        assert compared > 10 and hidden > 0
        await close_all(clients)

    asyncio.run(run())
