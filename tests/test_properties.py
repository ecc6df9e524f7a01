"""Invariants of random legal play, in every preset and every player count it allows.

Each example plays a whole match with random legal actions and checks after every
action that every card is in exactly one place and that a player always has a legal
action; at random moments it checks that views hide what they must, that a clone is
independent, and at the end that the record replays to identical views.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import golf
from golf import Game
from golf.cards import card_str
from helpers import scramble_hidden

CASES = [
    (name, players)
    for name in golf.preset_names()
    for players in range(golf.load_rules(name).players[0], golf.load_rules(name).players[1] + 1)
]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=10, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow])


def check_views(g: Game, rng: random.Random) -> None:
    for seat in range(g.players):
        v = g.view(seat)
        assert json.loads(json.dumps(v)) == v
        # What is shown is right, and only what may be known is shown.
        for other in g.active:
            up, peeked = g.face_up(other), g.state.hole.peeked[other] if other == seat else 0
            for i, card in enumerate(v["grids"][other]):
                if up[i] or peeked >> i & 1:
                    assert card == card_str(g.state.hole.grids[other][i])
                else:
                    assert card is None
        for other in range(g.players):
            if other not in g.active:
                assert v["grids"][other] is None
        assert scramble_hidden(g, seat, rng).view(seat) == v


def play_and_check(g: Game, rng: random.Random, check_every: int) -> None:
    deck = sorted(g.census())  # the multiset of cards, as a sorted list (cheap to compare)
    step = 0
    replayed_midway = False
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, f"no legal action in phase {g.phase}"
        assert g.current_player in g.active
        g.apply(rng.choice(legal))
        step += 1
        assert sorted(g.census()) == deck
        if step % check_every == 0 or rng.random() < 0.01:
            check_views(g, rng)
            # A clone goes its own way without touching the original, and the original
            # given the same actions reaches the same state.
            before = [g.view(s) for s in range(g.players)], g.record()
            c = g.clone()
            moves: list[golf.Action] = []
            while len(moves) < 6 and not c.is_over:
                moves.append(rng.choice(c.legal_actions()))
                c.apply(moves[-1])
            assert ([g.view(s) for s in range(g.players)], g.record()) == before
            for a in moves:
                g.apply(a)
            assert [g.view(s) for s in range(g.players)] == [c.view(s) for s in range(c.players)]
            if not replayed_midway:
                replayed_midway = True
                r = Game.from_record(g.record())
                assert [r.view(s) for s in range(g.players)] == [
                    g.view(s) for s in range(g.players)]
    assert g.current_player is None and g.legal_actions() == [] and g.winners
    low = min(g.totals)
    if not g.playoff_scores:
        assert g.winners == [s for s in range(g.players) if g.totals[s] == low]
    assert all(g.totals[w] == low for w in g.winners)
    check_views(g, rng)
    replay = Game.from_record(json.loads(json.dumps(g.record())))
    for seat in range(g.players):
        assert replay.view(seat) == g.view(seat)


@pytest.mark.parametrize("variant, players", CASES)
@FAST
@given(seed=SEEDS, policy=SEEDS)
def test_random_play_invariants(variant: str, players: int, seed: int, policy: int) -> None:
    g = Game(variant, players=players, seed=seed)
    play_and_check(g, random.Random(policy), check_every=40)


# --- the same invariants under random house rules ------------------------------------------

OVERRIDES = st.fixed_dictionaries({}, optional={
    "knock": st.booleans(),
    "knock_first_turn": st.booleans(),
    "end_on_complete": st.sampled_from(["first", "all", "never"]),
    "final_turns": st.booleans(),
    "flip_after_discard": st.sampled_from(["must", "may", "never"]),
    "replace": st.sampled_from(["any", "face-down"]),
    "flip_instead_of_draw": st.booleans(),
    "reshuffle": st.booleans(),
    "return_taken": st.booleans(),
    "setup": st.sampled_from(["reveal", "peek"]),
    "setup_count": st.integers(min_value=0, max_value=3),
    "setup_cells": st.sampled_from(["any", "bottom-row"]),
    "tie_break": st.sampled_from(["share", "playoff"]),
    "match_by": st.sampled_from(["rank", "points"]),
    "holes": st.integers(min_value=1, max_value=3),
    "turn_limit": st.integers(min_value=5, max_value=300),
})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(golf.preset_names()), overrides=OVERRIDES, seed=SEEDS,
       policy=SEEDS, data=st.data())
def test_random_play_invariants_under_house_rules(
    variant: str, overrides: dict[str, Any], seed: int, policy: int, data: st.DataObject
) -> None:
    base = golf.load_rules(variant)
    if overrides.get("end_on_complete", base.end_on_complete) == "never":
        overrides["knock"] = True  # otherwise no hole could end (a rules error)
    if overrides.get("setup_cells") == "bottom-row":
        overrides["setup_count"] = min(overrides.get("setup_count", 2), 2)
    overrides.setdefault("holes", 2)
    rules = golf.load_rules(variant, overrides)
    lo, hi = rules.players
    players = data.draw(st.integers(min_value=lo, max_value=min(hi, 5)), label="players")
    g = Game(rules, players=players, seed=seed)
    play_and_check(g, random.Random(policy), check_every=25)
