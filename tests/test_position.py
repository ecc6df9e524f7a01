"""Positions (golf.position): a game's whole state as data, and games set up from it.

The engine hook behind OpenSpiel's explicit chance nodes and search bots' sampled
worlds: a position round-trips exactly, play continues identically from it, records
still replay, and a bad position is a clear error that names the key.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import golf
from golf import Game, GolfError
from golf.actions import DRAW
from golf.position import draw_pool, redraw

CASES = [(name, players) for name in golf.preset_names()
         for players in (golf.load_rules(name).players[0], golf.load_rules(name).players[1])]


def play(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))


def views(g: Game) -> list[dict[str, Any]]:
    return [g.view(s) for s in range(g.players)]


@pytest.mark.parametrize("variant, players", CASES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_a_position_round_trips_and_play_continues_identically(
    variant: str, players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    g = Game(variant, players=players, seed=seed)
    play(g, rng, steps)
    pos = g.position()
    assert json.loads(json.dumps(pos)) == pos
    h = Game.from_position(g.rules, pos)
    assert h.position() == pos
    assert views(h) == views(g)
    assert h.legal_actions() == g.legal_actions()
    assert Counter(h.census()) == Counter(g.census())
    # The same actions lead both to the same states, across later holes too.
    for _ in range(300):
        if g.is_over:
            break
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
        assert views(h) == views(g)
    assert h.is_over == g.is_over and h.winners == g.winners and h.totals == g.totals


def test_a_game_set_up_from_a_position_still_replays_from_its_record() -> None:
    rng = random.Random(3)
    g = Game("german", players=3, seed=8)
    play(g, rng, 40)
    h = Game.from_position(g.rules, g.position())
    play(h, rng, 60)
    record = json.loads(json.dumps(h.record()))
    assert record["position"]["stock"]  # the starting position travels with the record
    replay = Game.from_record(record)
    assert views(replay) == views(h)
    # A clone keeps the origin too.
    assert views(Game.from_record(h.clone().record())) == views(h)
    # Ordinary games' records are unchanged: no position in them.
    assert "position" not in g.record()


def test_a_position_places_cards_where_it_says() -> None:
    g = Game("six-card", players=2, seed=1)
    pos = g.position()
    # Swap seat 1's first card with the stock's top: the next draw takes it.
    top = pos["stock"][-1]
    pos["stock"][-1], pos["grids"][1][0] = pos["grids"][1][0], top
    h = Game.from_position(g.rules, pos)
    for a in ("reveal 1", "reveal 2"):
        h.apply(a)
    assert h.view(1)["grids"][1][0] is None  # still face down
    h.apply("reveal 1")
    assert h.view(0, codes=True)["grids"][1][0] == top
    h.apply("reveal 2")
    h.apply(DRAW)
    assert h.view(0, codes=True)["held"] == g.position()["grids"][1][0]


def test_defaults_make_a_fresh_hole() -> None:
    g = Game("six-card", players=3, seed=2)
    pos = g.position()
    short = {k: pos[k] for k in ("players", "grids", "stock", "discard", "phase")}
    h = Game.from_position("six-card", short)
    assert h.current_player == (h.dealer + 1) % 3 == pos["current_player"]
    assert h.totals == [0, 0, 0] and h.hole == 1
    assert views(h) == views(g)


BAD: list[tuple[str, Any, str]] = [
    ("players", 1, "six-card is for 2 to 8 players"),
    ("phase", "dance", "position 'phase': must be one of setup, turn, hold, flip, over"),
    ("grids", [[1, 2], [3]], "position 'grids': seat 0 needs a grid of 6 card codes"),
    ("held", 5, "position 'held': a card is held exactly in the 'hold' phase"),
    ("current_player", 7, "position 'current_player': must be an integer from 0 to 1"),
    ("peeked", [[9], []], "position 'peeked': positions run from 1 to 6, got 9"),
    ("format", "golf-position/0", "position 'format': 'golf-position/0' is not supported"),
    ("knocked_by", 5, "position 'knocked_by': must be null or a seat in play"),
]


@pytest.mark.parametrize("key, value, message", BAD)
def test_a_bad_position_is_a_clear_error(key: str, value: Any, message: str) -> None:
    pos = Game("six-card", players=2, seed=1).position()
    pos[key] = value
    with pytest.raises(GolfError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Game.from_position("six-card", pos)


def test_the_cards_must_be_exactly_the_deck() -> None:
    pos = Game("six-card", players=2, seed=1).position()
    pos["stock"][0] = pos["stock"][1]  # one card twice, another missing
    with pytest.raises(GolfError, match=r"not the game's deck: extra \[.+\], missing \[.+\]"):
        Game.from_position("six-card", pos)
    pos = Game("six-card", players=2, seed=1).position()
    pos["stock"].append(99)
    with pytest.raises(GolfError, match="position holds 99, which is not a card code"):
        Game.from_position("six-card", pos)
    with pytest.raises(GolfError, match="position lacks grids, stock"):
        Game.from_position("six-card", {"players": 2, "discard": [], "phase": "turn"})


def test_redraw_chooses_the_card_drawn_and_keeps_the_deck() -> None:
    g = Game("six-card", players=2, seed=6)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw"):
        g.apply(a)
    before = Counter(g.census())
    pool = draw_pool(g)
    assert len(pool) == g.stock_size + 1
    want = min(pool)
    redraw(g, want)
    assert g.view(0, codes=True)["held"] == want
    assert Counter(g.census()) == before
    # The record starts again at the redraw, so it still replays exactly.
    g.apply("discard")
    assert views(Game.from_record(g.record())) == views(g)


def test_redraw_refuses_what_it_cannot_do() -> None:
    g = Game("six-card", players=2, seed=6)
    with pytest.raises(GolfError, match="no card has just been drawn from the stock"):
        redraw(g, 1)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw"):
        g.apply(a)
    face_up = g.view(0, codes=True)["grids"][0][0]  # one deck: no twin in the stock
    assert face_up not in draw_pool(g)
    with pytest.raises(GolfError, match="is not in the stock"):
        redraw(g, face_up)


def test_redraw_after_a_reshuffle_draws_from_the_reshuffled_pile() -> None:
    g = Game("german", players=6, seed=3)
    rng = random.Random(0)
    while g.stock_size or g.phase != "turn":
        g.apply(rng.choice(g.legal_actions()))
    pile = g.view(0, codes=True)["discard"]
    g.apply(DRAW)
    assert Counter(draw_pool(g)) == Counter(pile[:-1])
