"""The ``openspiel-ismcts`` bot: registered with the bot registry, plays legal moves from
its view alone, builds worlds consistent with that view, and remembers the stock."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import golf
from golf import Game
from golf.bots import bot_names, make_bot
from golf.envs.openspiel import engine_game
from golf.envs.openspiel_bot import OpenSpielISMCTSBot, hole_game, worlds
from golf.knowledge import Knowledge
from golf.simulate import play_match


def test_the_bot_is_in_the_registry_with_a_default_budget() -> None:
    assert "openspiel-ismcts" in bot_names()
    bot = make_bot("openspiel-ismcts", golf.load_rules("six-card"), seed=1)
    assert isinstance(bot, OpenSpielISMCTSBot)
    assert bot.options["simulations"] == 100 and bot.options["rollout"] == "random"
    with pytest.raises(golf.GolfError, match="bot 'openspiel-ismcts' has no option 'depth'"):
        make_bot("openspiel-ismcts:depth=3", golf.load_rules("six-card"))


@pytest.mark.parametrize("variant, players", [
    ("six-card", 2), ("four-card", 3), ("four-card-wild", 2), ("nine-card", 2), ("german", 3),
    ("six-card-knock", 2),
])
def test_the_bot_plays_a_hole_from_its_view(variant: str, players: int) -> None:
    g = Game(variant, players=players, seed=3, rules={"holes": 1, "target": 0})
    bots = [make_bot("openspiel-ismcts:simulations=8", g.rules, seed=1)] + [
        make_bot("random", g.rules, seed=s) for s in range(1, players)]
    while not g.is_over:
        seat = g.current_player
        assert seat is not None
        legal = g.legal_actions()
        action = bots[seat].choose(g.view(seat, codes=True), legal)
        assert action in legal
        g.apply(action)
    assert len(g.hole_scores) == 1


def test_the_bot_plays_through_the_simulator() -> None:
    rules = golf.load_rules("six-card", {"holes": 1})
    result = play_match(rules, 2, ["openspiel-ismcts:simulations=5", "random"], seed=2)
    assert len(result.hole_scores) == 1


def test_worlds_agree_with_the_view() -> None:
    rng = random.Random(4)
    for variant, players in [("german", 3), ("four-card-wild", 4), ("nine-card", 2)]:
        g = Game(variant, players=players, seed=5, rules={"holes": 1, "target": 0})
        for _ in range(30):
            g.apply(rng.choice(g.legal_actions()))
        seat = g.current_player
        assert seat is not None
        view = g.view(seat, codes=True)
        game = hole_game(g.rules, players)
        seen = []
        world = worlds(game, view, rng)
        for _ in range(6):
            w = engine_game(world())
            mine = w.view(seat, codes=True)
            for key in ("grids", "face_up", "peeked", "peeked_cells", "discard", "held",
                        "phase", "current_player", "stock_size", "stock_cards", "turns",
                        "knocked_by"):
                assert mine[key] == view[key], key
            assert sorted(w.legal_actions()) == sorted(g.legal_actions())
            assert Counter(w.census()) == Counter(g.census())
            seen.append(w.position()["grids"])
        assert any(s != seen[0] for s in seen)  # hidden cards are dealt afresh


def test_worlds_keep_the_reshuffled_stock() -> None:
    """After a reshuffle the view lists the stock's cards: every world keeps exactly
    those in its stock (the drawer's card in its hand) and deals only the rest."""
    g = Game("german", players=6, seed=3)
    rng = random.Random(0)
    while g.stock_size or g.phase != "turn":
        g.apply(rng.choice(g.legal_actions()))
    assert not Knowledge.from_view(g.view(0, codes=True), g.rules).stock_known  # not yet
    pile = g.view(0, codes=True)["discard"]
    g.apply("draw")
    seat = g.current_player
    assert seat is not None
    view = g.view(seat, codes=True)
    k = Knowledge.from_view(view, g.rules)
    assert k.stock_known
    known = k.groups[0].cards  # the stock's slots come first
    assert Counter(known) == Counter(g.position()["stock"])
    assert Counter(known) + Counter([view["held"]]) == Counter(pile[:-1])
    game = hole_game(g.rules, 6)
    world = worlds(game, view, rng)
    for _ in range(4):
        w = engine_game(world())
        assert Counter(w.position()["stock"]) == Counter(known)
        mine = w.view(seat, codes=True)
        for key in ("grids", "held", "stock_cards", "peeked_cells", "stock_size"):
            assert mine[key] == view[key], key
        assert Counter(w.census()) == Counter(g.census())


def test_the_bot_plays_a_playoff_with_a_seat_sitting_out() -> None:
    g = Game("german", players=3, seed=2)
    pos = g.position()
    pos["stock"] += pos["grids"][1]
    pos["grids"][1] = pos["face_up"][1] = None
    pos.update(active=[0, 2], playoff=True, current_player=0, dealer=2)
    h = Game.from_position(g.rules, pos)
    bot = make_bot("openspiel-ismcts:simulations=6", g.rules, seed=1)
    other = make_bot("random", g.rules, seed=2)
    while not h.is_over:
        seat = h.current_player
        player = bot if seat == 0 else other
        h.apply(player.choose(h.view(seat, codes=True), h.legal_actions()))
    assert h.playoff_scores[0][1] is None and h.winners
