"""The shared RL encoding: the action table, the legal-action mask, the observation
vector (with the stock's cards the view makes public), in every preset and player count."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import golf
from golf import Game, GolfError
from golf.actions import KINDS, Action
from golf.envs.encoding import Encoding, describe

CASES = [(name, players) for name in golf.preset_names()
         for players in range(golf.load_rules(name).players[0],
                              golf.load_rules(name).players[1] + 1)]
FAST = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def test_action_ids_map_one_to_one_to_the_notation() -> None:
    for name in golf.preset_names():
        enc = Encoding(golf.load_rules(name), golf.load_rules(name).players[1])
        n = enc.cells
        table = enc.table()
        assert [i for i, _ in table] == list(range(4 * n + 5)) == list(range(enc.num_actions))
        texts = [t for _, t in table]
        assert len(set(texts)) == len(texts)
        for i, text in table:
            a = Action.parse(text)
            assert enc.action(i) == a and enc.action_id(a) == i and enc.action_id(text) == i
        # In the order of the notation's kinds, positions ascending.
        kinds = [KINDS.index(t.split()[0]) for t in texts]
        assert kinds == sorted(kinds)
        assert texts[:3] == ["reveal 1", "reveal 2", "reveal 3"]
        assert texts[2 * n:2 * n + 2] == ["draw", "take"]
        assert texts[-3:] == [f"flip {n}", "pass", "knock"]


def test_bad_action_ids_are_clear_errors() -> None:
    enc = Encoding(golf.load_rules("six-card"), 2)
    with pytest.raises(GolfError, match="action id 29 is out of range: ids run from 0 to 28"):
        enc.action(29)
    with pytest.raises(GolfError, match="an action id is an integer"):
        enc.action("draw")  # type: ignore[arg-type]
    with pytest.raises(GolfError, match="swap 7 is off this 6-cell grid"):
        enc.action_id("swap 7")
    assert enc.action(np.int64(12)) == Action.parse("draw")  # numpy ints are welcome


def reference(enc: Encoding, view: dict[str, Any]) -> np.ndarray:
    """The documented layout, written plainly section by section (docs/rl.md)."""
    p, n, me = enc.players, enc.cells, view["seat"]
    stock = view["stock_cards"]
    out: dict[str, list[float]] = {}

    def one_hot(size: int, index: int) -> list[float]:
        v = [0.0] * size
        v[index] = 1.0
        return v

    def cells(grid: list[int | None] | None) -> list[float]:
        if grid is None:
            return [0.0] * (n * 15)
        return [x for c in grid for x in one_hot(15, 14 if c is None else (c & 15) - 1)]

    rel = [(me + k) % p for k in range(p)]
    out["own_grid"] = cells(view["grids"][me])
    ups = view["face_up"][me]
    out["own_face_up"] = [float(u) for u in ups] if ups else [0.0] * n
    out["other_grids"] = [x for s in rel[1:] for x in cells(view["grids"][s])]
    out["in_play"] = [float(s in view["active"]) for s in rel]
    out["peeked"] = [float(i + 1 in (view["peeked_cells"][s] or [])) for s in rel
                     for i in range(n)]
    pile = view["discard"]
    out["discard_top"] = one_hot(15, (pile[-1] & 15) - 1 if pile else 14)

    def counts(cards: list[int]) -> list[float]:
        c = Counter(x & 15 for x in cards)
        return [float(c[r]) for r in range(1, 15)]

    out["discard_counts"] = counts(pile)
    out["stock_counts"] = counts(stock or [])
    shown = [c for g in view["grids"] if g for c in g if c is not None] + pile + (stock or [])
    if view["held"] is not None and (stock is None or view["held_from"] != "stock"):
        shown.append(view["held"])  # a card held from a known stock is among its cards
    deck = Counter(c & 15 for c in golf.cards.build_deck(
        enc.rules.decks_for(p), enc.rules.jokers_per_deck))
    seen = Counter(c & 15 for c in shown)
    out["unseen_counts"] = [float(deck[r] - seen[r]) for r in range(1, 15)]
    out["stock"] = [float(view["stock_size"]), float(stock is not None)]
    out["phase"] = one_hot(5, ["setup", "turn", "hold", "flip", "over"].index(view["phase"]))
    if view["held"] is not None:
        out["held"] = one_hot(16, (view["held"] & 15) - 1)
    else:
        out["held"] = one_hot(16, 14 if view["held_from"] else 15)
    out["held_from"] = ([0.0, 0.0] if view["held_from"] is None
                        else one_hot(2, ["stock", "discard"].index(view["held_from"])))

    def seat_hot(who: int | None) -> list[float]:
        return [float(who is not None and s == who) for s in rel]

    out["to_act"] = seat_hot(view["current_player"])
    out["dealer"] = seat_hot(view["dealer"])
    out["knocked_by"] = seat_hot(view["knocked_by"])
    out["final_turns_from"] = seat_hot(view["final_turns_from"])
    out["turns"] = [float(view["turns"][s]) for s in rel]
    out["totals"] = [float(view["totals"][s]) for s in rel]
    out["match"] = [float(view["hole"]), float(view["holes"]), float(enc.rules.target),
                    float(view["playoff"])]
    assert [s.name for s in enc.sections] == list(out)
    if enc.scaled:
        scale(enc, out)
    return np.array([x for s in enc.sections for x in out[s.name]], np.float32)


def scale(enc: Encoding, out: dict[str, list[float]]) -> None:
    """The scaled observation as docs/rl.md states it, from the raw numbers."""
    deck = enc.deck_counts
    for name in ("discard_counts", "stock_counts", "unseen_counts"):
        out[name] = [x / max(1, deck[r]) for r, x in enumerate(out[name])]
    out["stock"][0] /= enc.deck_size
    out["turns"] = [x / enc.rules.turn_limit for x in out["turns"]]

    def squash(x: float, k: float) -> float:
        return x / (abs(x) + k)

    out["totals"] = [squash(x, 5 * enc.cells) for x in out["totals"]]
    hole, holes, target, playoff = out["match"]
    out["match"] = [squash(hole, enc.rules.holes or 10), squash(holes, 10),
                    squash(target, 100), playoff]


def hidden_truth(g: Game, seat: int) -> Counter[int]:
    """Test-only, from the full position: the ranks of every card ``seat`` cannot see
    (after a reshuffle the stock's cards, and a card drawn from it, are public)."""
    pos, v = g.position(), g.view(seat, codes=True)
    cards = [pos["grids"][s][i] for s in g.active
             for i, c in enumerate(v["grids"][s]) if c is None]
    if pos["reshuffles"] == 0:
        cards += pos["stock"]
        if pos["held"] is not None and v["held"] is None:
            cards.append(pos["held"])
    return Counter(c & 15 for c in cards)


@pytest.mark.parametrize("variant, players", CASES)
@FAST
@given(seed=SEEDS)
def test_observations_and_masks_through_random_play(variant: str, players: int,
                                                     seed: int) -> None:
    rng = random.Random(seed)
    g = Game(variant, players=players, seed=seed)
    enc = Encoding(g.rules, players, scaled=False)
    scaled = Encoding(g.rules, players)
    steps = 0
    while not g.is_over and steps < 600:
        legal = g.legal_actions()
        mask = enc.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
        assert sorted(enc.action(i) for i in np.flatnonzero(mask)) == sorted(legal)
        if steps % 7 == 0 or g.stock_size < 3:
            for seat in range(players):
                v = g.view(seat, codes=True)
                known = v["stock_cards"]
                obs = enc.encode(v)
                assert obs.dtype == np.float32 and obs.shape == (enc.size,)
                assert np.all(obs >= enc.low) and np.all(obs <= enc.high)
                np.testing.assert_array_equal(obs, reference(enc, v))
                small = scaled.encode(v)
                assert np.all(small >= scaled.low) and np.all(small <= scaled.high)
                assert scaled.low.min() >= -1 and scaled.high.max() <= 1
                np.testing.assert_allclose(small, reference(scaled, v), rtol=1e-6, atol=1e-7)
                unseen = enc.observation("unseen_counts", obs)
                truth = hidden_truth(g, seat)
                assert unseen.tolist() == [float(truth[r]) for r in range(1, 15)]
                if known is not None:  # the view is right about the stock
                    pos = g.position()
                    real = pos["stock"] + ([pos["held"]] if pos["held"] is not None
                                           and pos["held_from"] == "stock" else [])
                    assert Counter(known) == Counter(real)
        g.apply(rng.choice(legal))
        steps += 1


def test_the_observation_hides_what_the_seat_cannot_see() -> None:
    """Trading the places of cards a seat cannot see leaves its observation alone."""
    rng = random.Random(5)
    for variant, players in [("six-card", 3), ("four-card-wild", 2), ("german", 4)]:
        g = Game(variant, players=players, seed=11)
        enc = Encoding(g.rules, players)
        for _ in range(25):
            g.apply(rng.choice(g.legal_actions()))
        for seat in range(players):
            v = g.view(seat, codes=True)
            pos = g.position()
            slots = [(s, i) for s in g.active for i, c in enumerate(v["grids"][s]) if c is None]
            cards = [pos["grids"][s][i] for s, i in slots] + pos["stock"]
            rng.shuffle(cards)
            for (s, i), c in zip(slots, cards, strict=False):
                pos["grids"][s][i] = c
            pos["stock"] = cards[len(slots):]
            other = Game.from_position(g.rules, pos)
            assert other.position() != g.position()
            np.testing.assert_array_equal(enc.encode(other.view(seat, codes=True)),
                                          enc.encode(v))


def test_the_layout_is_fixed_per_rules_and_players() -> None:
    for name in golf.preset_names():
        r = golf.load_rules(name)
        for players in range(r.players[0], r.players[1] + 1):
            enc = Encoding(r, players)
            n = r.cells
            assert enc.size == n * 15 + n + (players - 1) * n * 15 + n * players \
                + 7 * players + 86
            assert enc.sections[0].start == 0 and enc.sections[-1].stop == enc.size
            for a, b in zip(enc.sections, enc.sections[1:], strict=False):
                assert a.stop == b.start
            assert enc.low.shape == enc.high.shape == (enc.size,)
            assert np.all(enc.low < enc.high)
    with pytest.raises(GolfError, match="is for 3 to 7 players"):
        Encoding(golf.load_rules("four-card"), 2)


def test_the_stock_counts_follow_a_reshuffle() -> None:
    """Before a reshuffle the stock counts are 0 and its cards count as unseen; after
    one every seat, the drawer included, sees the same counts: the stock's cards and
    the card drawn from it."""
    g = Game("german", players=6, seed=3)
    enc, rng = Encoding(g.rules, 6, scaled=False), random.Random(0)
    while g.stock_size or g.phase != "turn":
        g.apply(rng.choice(g.legal_actions()))
    obs = enc.encode(g.view(0, codes=True))
    assert enc.observation("stock", obs).tolist() == [0.0, 0.0]
    assert not enc.observation("stock_counts", obs).any()
    pile = g.view(0, codes=True)["discard"]
    g.apply("draw")
    holder = g.current_player
    assert holder is not None
    expected = Counter(c & 15 for c in pile[:-1])
    want = [float(expected[r]) for r in range(1, 15)]
    for seat in range(6):
        obs = enc.encode(g.view(seat, codes=True))
        assert enc.observation("stock_counts", obs).tolist() == want
        assert enc.observation("stock", obs).tolist() == [float(len(pile) - 2), 1.0]
        hidden = hidden_truth(g, seat)
        assert enc.observation("unseen_counts", obs).tolist() == [
            float(hidden[r]) for r in range(1, 15)]
    # The next hole starts with an unseen stock again.
    hole = g.hole
    while g.hole == hole and not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    if not g.is_over:
        obs = enc.encode(g.view(0, codes=True))
        assert enc.observation("stock", obs)[1] == 0.0


def test_describe_shows_the_view_as_text() -> None:
    g = Game("german", players=2, seed=2)
    g.apply("peek 1")
    text = describe(g.view(0, codes=True))
    assert text.splitlines()[0] == "german hole 1 setup, seat 0 to act; seen by seat 0"
    own = text.splitlines()[1]
    assert own.startswith("seat 0 : ") and own.count("??") == 5
    assert describe(g.view(1, codes=True)).splitlines()[1].count("??") == 6
