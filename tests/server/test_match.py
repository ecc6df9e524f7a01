"""One driver: a live table plays through golf.table.Table, its bots seeded by
table.bot_seed, and a table restored after a restart goes on exactly as it would have.

The real-server test restarts mid-hole (kill -9) and compares every bot move of the
whole match with an uninterrupted run of the same table (same seed, same people's
moves), played by golf.table's own loop.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from harness import Client, ServerProcess, play_out

from golf import Game
from golf.rules import load_rules
from golf.server.tables.match import LiveMatch
from golf.table import BotSeat, Outside, Table, bot_seat, bot_seed

BOTS = {1: "random", 2: "easy"}


def uninterrupted(record: dict[str, Any], by: list[str], bots: dict[int, str]) -> list[str]:
    """The match of ``record`` played again in one go by golf.table's loop: the bots
    decide for themselves, the people's moves are the recorded ones."""
    g = Game.from_record({**record, "actions": []})
    seats = [bot_seat(bots[s], g.rules, g.seed, s) if s in bots else Outside()
             for s in range(g.players)]
    table = Table(g, seats)
    played: list[str] = []
    for action, who in zip(record["actions"], by, strict=True):
        seat = g.current_player
        assert seat is not None
        if who == "bot":
            assert isinstance(table.seats[seat], BotSeat)
            turn = table.step()
        else:
            turn = table.play(action)
        played.append(str(turn.action))
    return played


def test_bots_are_seeded_by_the_table_driver() -> None:
    rules = load_rules("six-card", {"holes": 1})
    m = LiveMatch.new(rules, 3, 12345, BOTS)
    for s, spec in BOTS.items():
        seat = m.table.seats[s]
        assert isinstance(seat, BotSeat)
        assert seat.bot.seed == bot_seed(12345, s)
        assert seat.bot.spec == bot_seat(spec, rules, 12345, s).bot.spec
    # Another match (a rematch) has other seeds: they follow from its own seed.
    again = LiveMatch.new(rules, 3, 999, BOTS)
    seat = again.table.seats[1]
    assert isinstance(seat, BotSeat) and seat.bot.seed == bot_seed(999, 1) != bot_seed(12345, 1)


@pytest.mark.parametrize("cut", [7, 15, 23])
def test_a_restored_match_goes_on_like_the_uninterrupted_one(cut: int) -> None:
    """Stop after ``cut`` actions, rebuild from the stored actions and compare every
    later bot (and stand-in) decision with the match that was never stopped."""
    rules = load_rules("six-card", {"holes": 2})
    rng = random.Random(cut)

    def person(m: LiveMatch) -> str:
        return str(rng.choice(m.game.legal_actions()))

    def step(m: LiveMatch, log: list[tuple[str, str]], seat_by: dict[int, str]) -> None:
        seat = m.to_act
        assert seat is not None
        who = seat_by.get(seat, "player")
        action = str(m.decide(who)) if who in ("bot", "stand_in") else person(m)
        m.play(action)
        log.append((action, who))

    # Seat 0 is a person whose stand-in bot plays for them from the start.
    seat_by = {0: "stand_in", 1: "bot", 2: "bot"}
    whole = LiveMatch.new(rules, 3, 4242, BOTS)
    log: list[tuple[str, str]] = []
    while not whole.is_over:
        step(whole, log, seat_by)
    rng = random.Random(cut)
    first = LiveMatch.new(rules, 3, 4242, BOTS)
    head: list[tuple[str, str]] = []
    for _ in range(cut):
        step(first, head, seat_by)
    assert head == log[:cut]
    restored = LiveMatch.restore(rules.to_dict(), 3, 4242, BOTS, [a for a, _ in head],
                                 [b for _, b in head])
    assert restored.game.view(0) == first.game.view(0)
    rest = list(head)
    while not restored.is_over:
        step(restored, rest, seat_by)
    assert rest == log


@pytest.mark.slow
def test_kill_9_mid_hole_bots_play_as_without_a_restart(fresh_server: ServerProcess) -> None:
    server = fresh_server

    async def run() -> None:
        server.start()
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                 {"kind": "bot", "bot": "easy"}]
        t = server.create("six-card", seats=seats, rules={"holes": 2},
                          options={"bot_delay": 0})
        tid, token = t["table"]["id"], t["token"]
        a = await Client(server.ws_url, tid, token, reconnect=True).connect()
        await a.wait(lambda c: c.summary is not None)
        server.start_table(tid, token)
        rng = random.Random(5)
        await play_out([a], rng, until=lambda: a.version >= 14 and a.state["your_turn"])
        hole = a.state["view"]["hole"]
        connects = a.connects
        server.kill()
        server.start()
        await a.wait(lambda c: c.resynced(connects), timeout=30, what="reconnecting")
        assert a.state["view"]["hole"] == hole  # restarted mid-hole
        await play_out([a], rng)
        replay = server.get(f"/api/tables/{tid}/matches/1/replay").json()
        record, by = replay["record"], replay["by"]
        assert by.count("bot") > 10
        assert uninterrupted(record, by, {1: "random", 2: "easy"}) == record["actions"]
        await a.close()

    try:
        asyncio.run(run())
    finally:
        server.stop()
