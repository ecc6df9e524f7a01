"""Full matches over the network: every preset, two people and a bot, checked for leaks."""

from __future__ import annotations

import asyncio
import random
import zlib

import pytest
from harness import Client, ServerProcess, play_out
from leaks import Truth, check

from golf import preset_names


async def full_match(server: ServerProcess, preset: str, seed: int) -> None:
    t, tokens = server.table_with_people(preset, people=2)
    tid = t["table"]["id"]
    players = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
    watcher = await Client(server.ws_url, tid, None).connect()
    await players[0].wait(lambda c: c.summary is not None, what="the table")
    server.start_table(tid, tokens[0])
    for c in players:
        await c.wait(lambda c: c.state is not None, what="the first state")
    await play_out(players, random.Random(seed))
    await watcher.wait(lambda c: c.over, what="the spectator's final state")
    for c in [*players, watcher]:
        await c.close()
    replay = server.get(f"/api/tables/{tid}/matches/1/replay")
    assert replay.status_code == 200, replay.text
    data = replay.json()
    truth = Truth(data["record"])
    final = truth.at(len(data["record"]["actions"]))
    assert final.is_over and data["result"]["totals"] == final.totals
    # Each receiver saw every version in order, ending at the final one.
    for seat, c in enumerate(players):
        versions = [f["version"] for f in c.frames if f["type"] == "state"]
        assert versions == sorted(versions) and versions[-1] == len(truth.games) - 1
        assert check(seat, c.frames, c.raw, truth) > 0
    assert check(None, watcher.frames, watcher.raw, truth) > 0
    # The bot seat's moves are marked as the bot's.
    bys = {e["by"] for e in players[0].events()}
    assert bys == {"player", "bot"}


@pytest.mark.slow
@pytest.mark.parametrize("preset", preset_names())
def test_full_match_of_every_preset_leaks_nothing(server: ServerProcess, preset: str) -> None:
    asyncio.run(full_match(server, preset, seed=zlib.crc32(preset.encode())))
