"""Knowledge of the cards: one definition from a seat's view, and an exact sampler of
the worlds consistent with it (checked against exact enumeration on small endgames)."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golf import Game, Rules, load_rules, preset_names
from golf.bots import counting, make_bot
from golf.cards import build_deck, parse_card
from golf.envs.encoding import Encoding
from golf.knowledge import (
    Knowledge,
    Sampler,
    World,
    draw_counts,
    stock_counts,
    unseen_counts,
)

PINS = Path(__file__).parent / "data" / "expert_moves.json"


# --- the expert's play, pinned before it counted cards through knowledge.py ------------

def _pinned() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(PINS.read_text())
    return data


@pytest.mark.parametrize("match", _pinned(), ids=lambda m: f"{m['variant']}-{m['players']}"
                         f"-{m['seed']}")
def test_expert_moves_are_the_pinned_ones_where_the_stock_is_not_public(
        match: dict[str, Any]) -> None:
    """Matches of experts (full memory, and memory 0.5 with noise) recorded on the code
    before the switch. Replaying them, every decision must be the same, except where
    the stock's cards are public: after a reshuffle (the view lists them), or with an
    empty stock, whose draw reshuffles the pile below the top. There the old counting
    took the public cards for unseen ones, and the expert may now choose otherwise."""
    # The pins were recorded when no variant allowed a knock on a first turn.
    old_reading = {"knock_first_turn": False} if load_rules(match["variant"]).knock else {}
    g = Game(match["variant"], players=match["players"], seed=match["seed"],
             rules={**old_reading, **(match["rules"] or {})})
    bots = [make_bot(spec, g.rules, seed=match["seed"] * 10 + s)
            for s, spec in enumerate(match["bots"])]
    same = changed = 0
    for pinned in match["actions"]:
        seat = g.current_player
        assert seat is not None
        v = g.view(seat, codes=True)
        chosen = str(bots[seat].choose(v, g.legal_actions()))
        if v["stock_cards"] is None and draw_counts(v, g.rules) is None:
            assert chosen == pinned, f"decision {same + changed} of seat {seat} changed"
            same += 1
        else:
            changed += chosen != pinned
        g.apply(pinned)
    assert g.is_over and same > 0


# --- small endgames: the sampler against an exact enumeration --------------------------

Place = tuple[Any, ...]  # ("stock", i), ("held",) or ("grid", seat, cell)


def _places(pos: dict[str, Any]) -> list[Place]:
    """Every place a card could be hidden in: the stock, a held card, every face-down
    cell of every seat (the viewer's peeked ones too; the enumeration must find out
    by itself that those are known)."""
    out: list[Place] = [("stock", i) for i in range(len(pos["stock"]))]
    if pos["held"] is not None:
        out.append(("held",))
    for s, up in enumerate(pos["face_up"]):
        if up is not None:
            out += [("grid", s, i) for i, u in enumerate(up) if not u]
    return out


def _card_at(pos: dict[str, Any], place: Place) -> int:
    if place[0] == "stock":
        return int(pos["stock"][place[1]])
    if place[0] == "held":
        return int(pos["held"])
    return int(pos["grids"][place[1]][place[2]])


def _put(pos: dict[str, Any], places: list[Place], cards: tuple[int, ...]) -> dict[str, Any]:
    new = {**pos, "stock": list(pos["stock"]), "grids": [None if g is None else list(g)
                                                          for g in pos["grids"]]}
    for place, c in zip(places, cards, strict=True):
        if place[0] == "stock":
            new["stock"][place[1]] = c
        elif place[0] == "held":
            new["held"] = c
        else:
            new["grids"][place[1]][place[2]] = c
    return new


def _enumerate(rules: Rules, pos: dict[str, Any], seat: int) -> list[tuple[int, ...]]:
    """Every distinct world (cards by :func:`_places`) whose game the seat cannot tell
    from the real one: the engine's own view decides, card for card."""
    places = _places(pos)
    real = Game.from_position(rules, pos).view(seat, codes=True)
    values = tuple(_card_at(pos, p) for p in places)
    return [cards for cards in sorted(set(itertools.permutations(values)))
            if Game.from_position(rules, _put(pos, places, cards)).view(seat, codes=True)
            == real]


def _deal(rules: Rules, players: int, hidden: list[int], face_up: list[list[bool]],
          stock: int, held: bool) -> dict[str, Any]:
    """A position of the whole deck: ``hidden`` fills the stock (``stock`` cards), a
    held card and the face-down cells in that order; every other card is face up on a
    grid or in the discard pile."""
    deck = build_deck(rules.decks_for(players), rules.jokers_per_deck)
    for c in hidden:
        deck.remove(c)
    cards = iter(hidden)
    pos: dict[str, Any] = {"players": players, "face_up": face_up}
    pos["stock"] = [next(cards) for _ in range(stock)]
    pos["held"] = next(cards) if held else None
    grids = []
    for up in face_up:
        grids.append([deck.pop() if u else next(cards) for u in up])
    pos["grids"] = grids
    pos["discard"] = deck
    assert next(cards, None) is None
    return pos


H5, S9, JK, JK2, KS, C2, D7 = (parse_card("5H"), parse_card("9S"), parse_card("JK"),
                               parse_card("JK") | 1 << 4, parse_card("KS"), parse_card("2C"),
                               parse_card("7D"))
DOWN2 = [False, False, True, True]


def _endgames() -> list[tuple[str, Rules, dict[str, Any], int]]:
    cases = []
    # Before any reshuffle, two decks (equal cards), a joker, a card the other seat
    # drew from the stock, the viewer's peeked card and the other seat's peeked cell.
    r = load_rules("four-card-wild", {"decks": 2})
    pos = _deal(r, 2, [H5, S9, KS, H5, JK, S9, C2], [DOWN2, DOWN2], stock=2, held=True)
    pos.update(phase="hold", current_player=1, held_from="stock", peeked=[[1], [2]])
    cases.append(("hidden-stock, held by the other seat", r, pos, 0))
    # After a reshuffle: the stock's cards are public; both jokers are unseen or stocked.
    r = load_rules("four-card-wild")
    pos = _deal(r, 2, [JK, H5, KS, JK2, C2, S9, D7], [DOWN2, DOWN2], stock=3, held=False)
    pos.update(phase="turn", current_player=0, reshuffles=1, peeked=[[2], []])
    cases.append(("public stock", r, pos, 0))
    # After a reshuffle, a seat holds a card from the (public) stock; three seats, one
    # face-down card each for the first two. Seen by another seat, then by the holder.
    r = load_rules("four-card")
    ups = [[False, True, True, True], [True, False, True, True], DOWN2]
    pos = _deal(r, 3, [H5, KS, D7, C2, S9, JK if r.jokers_per_deck else H5 ^ 1 << 4,
                       KS ^ 1 << 4], ups, stock=2, held=True)
    pos.update(phase="hold", current_player=2, held_from="stock", reshuffles=1,
               turns=[3, 3, 2])
    cases.append(("public stock, held by another seat", r, pos, 1))
    cases.append(("public stock, held by the viewer", r, pos, 2))
    return cases


ENDGAMES = _endgames()


def _sampled(s: Sampler, world: World, places: list[Place]) -> tuple[int, ...]:
    pos = s.position(world)
    return tuple(_card_at(pos, p) for p in places)


def _chi2_z(observed: Counter[Any], expected: dict[Any, float]) -> float:
    """Wilson-Hilferty z-score of Pearson's statistic (about normal under the null); a
    category the enumeration rules out counts as infinitely unlikely."""
    if set(observed) - set(expected):
        return math.inf
    stat = sum((observed[k] - e) ** 2 / e for k, e in expected.items())
    df = len(expected) - 1
    if df == 0:
        return 0.0
    return ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


#: Reject at z > 5 (one-sided p about 3e-7): seeded, so a right sampler passes always,
#: and the negative control below shows a slightly wrong one fails.
Z_MAX = 5.0
SAMPLES = 30_000


def _check(draw: Any, exact: list[tuple[int, ...]], n: int) -> float:
    """The largest z over each place's card distribution and the joint distribution."""
    worlds = Counter(draw() for _ in range(n)) if callable(draw) else Counter(draw)
    n = sum(worlds.values())
    zs = [_chi2_z(worlds, {w: n / len(exact) for w in exact})]
    for i in range(len(exact[0])):
        marginal = Counter(w[i] for w in exact)
        got: Counter[int] = Counter()
        for w, k in worlds.items():
            got[w[i]] += k
        zs.append(_chi2_z(got, {c: n * m / len(exact) for c, m in marginal.items()}))
    return max(zs)


@pytest.mark.parametrize(("name", "rules", "pos", "seat"), ENDGAMES,
                         ids=[c[0] for c in ENDGAMES])
def test_sampler_matches_exact_enumeration(name: str, rules: Rules, pos: dict[str, Any],
                                           seat: int) -> None:
    g = Game.from_position(rules, pos)
    view = g.view(seat, codes=True)
    exact = _enumerate(rules, pos, seat)
    places = _places(pos)
    s = Sampler(view, rules, rng=11)
    k = s.knowledge
    assert k.worlds_count() == len(exact) > 1
    assert len(k.slots) < len(places) or seat != 0  # the viewer's peeked card is known
    batch = [_sampled(s, w, places) for w in s.worlds(SAMPLES)]
    assert _check(batch, exact, SAMPLES) < Z_MAX
    one = Sampler(view, rules, rng=12)
    assert _check(lambda: _sampled(one, one.world(), places), exact, SAMPLES // 3) < Z_MAX
    # the counts by rank agree with the enumeration
    unseen = Counter(c & 15 for w in exact[:1] for p, c in zip(places, w, strict=True)
                     if p[0] == "grid" and view["grids"][p[1]][p[2]] is None)
    if not k.stock_known:
        unseen += Counter(c & 15 for p, c in zip(places, exact[0], strict=True)
                          if p[0] != "grid" and (p[0] != "held" or view["held"] is None))
    assert {r: n for r, n in enumerate(k.unseen) if n} == dict(unseen)


def test_a_slightly_wrong_sampler_fails_the_same_check() -> None:
    """The classic naive shuffle (swap each card with any card) is close to uniform but
    not uniform; the check above must see it, or it would prove nothing."""
    _, rules, pos, seat = ENDGAMES[1]
    exact = _enumerate(rules, pos, seat)
    places = _places(pos)
    s = Sampler(Game.from_position(rules, pos).view(seat, codes=True), rules, rng=11)
    rng = random.Random(5)

    def naive() -> tuple[int, ...]:
        out: list[int] = []
        for g in s.knowledge.groups:
            cards = list(g.cards)
            for i in range(len(cards)):
                j = rng.randrange(len(cards))
                cards[i], cards[j] = cards[j], cards[i]
            out += cards
        return _sampled(s, World(tuple(out), 0), places)

    assert _check(naive, exact, SAMPLES) > Z_MAX


def test_a_sampler_that_ignores_the_public_stock_fails_the_same_check() -> None:
    """Mixing the public stock's cards with the face-down cards makes worlds the seat
    can tell apart from the real one: the enumeration rules them out."""
    _, rules, pos, seat = ENDGAMES[1]
    exact = _enumerate(rules, pos, seat)
    places = _places(pos)
    s = Sampler(Game.from_position(rules, pos).view(seat, codes=True), rules, rng=11)
    assert s.knowledge.stock_known
    every = [c for g in s.knowledge.groups for c in g.cards]
    rng = random.Random(6)

    def mixed() -> tuple[int, ...]:
        cards = every[:]
        rng.shuffle(cards)
        return _sampled(s, World(tuple(cards), 0), places)

    assert _check(mixed, exact, 2000) == math.inf


# --- every sampled world is one the seat cannot tell from the real one -----------------

CASES = [(name, players) for name in preset_names()
         for players in range(load_rules(name).players[0], load_rules(name).players[1] + 1)]


def stalled_game(variant: str, players: int, seed: int, steps: int) -> Game:
    """A game after ``steps`` actions of play that mostly draws and throws away, so that
    stocks run out and get reshuffled, with peeks and reveals along the way."""
    g = Game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        names = {str(a): a for a in legal}
        pick = next((names[n] for n in ("draw", "discard", "pass") if n in names), None)
        g.apply(pick if pick is not None and rng.random() < 0.85 else rng.choice(legal))
    return g


@pytest.mark.parametrize(("variant", "players"), CASES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300), data=st.data())
def test_every_sampled_world_gives_the_seat_the_same_view(
        variant: str, players: int, seed: int, steps: int, data: st.DataObject) -> None:
    g = stalled_game(variant, players, seed, steps)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    view = g.view(seat, codes=True)
    s = Sampler(view, g.rules, rng=seed)
    k = s.knowledge
    assert k.stock_known == (view["stock_cards"] is not None)
    assert sum(map(sum, (k.unseen, k.stock or ()))) == len(k.slots)
    for world in [s.world(), *s.worlds(2)]:
        h = s.game(world)
        assert h.view(seat, codes=True) == view
        assert h.view(seat) == g.view(seat)
        assert h.legal_actions() == g.legal_actions()
        # the same world through a checked position (which refuses any card too many
        # or missing): the same state, and a record that replays it
        checked = Game.from_position(g.rules, s.position(world))
        assert checked.state == h.state == s.game(world, replayable=False).state
        if not h.is_over:
            h.apply(random.Random(seed).choice(h.legal_actions()))  # and it plays on
        assert Game.from_record(h.record()).state == h.state


@pytest.mark.parametrize(("variant", "players"), [("german", 6), ("six-card", 2),
                                                  ("four-card-wild", 7), ("nine-card", 3)])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400), data=st.data())
def test_bots_and_learners_count_the_same_unseen_cards(
        variant: str, players: int, seed: int, steps: int, data: st.DataObject) -> None:
    """One definition: the expert's counting (full memory), the RL encoding's unseen
    section and the sampler's knowledge agree, before and after reshuffles. (Before
    this module, right after a reshuffle in 6-player german the expert counted the
    public stock as unseen, 30 cards to the encoding's 15.)"""
    g = stalled_game(variant, players, seed, steps)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    v = g.view(seat, codes=True)
    k = Knowledge.from_view(v, g.rules)
    assert unseen_counts(v, g.rules) == k.unseen
    assert counting.unseen(v, g.rules) == list(k.unseen)
    assert stock_counts(v, g.rules) == k.stock
    known_draw = draw_counts(v, g.rules)
    assert k.draws == (known_draw or k.unseen)
    assert counting.draws(v, g.rules) == (None if known_draw is None else list(known_draw))
    if v["stock_size"] == 0 and not (v["held"] is None and v["held_by"] is not None):
        assert known_draw == rank_counts(v["discard"][:-1])
    elif k.stock_known:
        assert known_draw == k.stock
    else:
        assert known_draw is None
    enc = Encoding(g.rules, players, scaled=False)  # raw counts, to compare
    assert enc.observation("unseen_counts", enc.encode(v)).tolist() == list(k.unseen[1:])
    # every card is somewhere: seen by the seat, public in the stock, or unseen
    seen = sum(1 for grid in v["grids"] if grid for c in grid if c is not None)
    seen += len(v["discard"]) + (v["held"] is not None)
    assert seen + sum(k.unplaced) == g.rules.deck_size(players)


def rank_counts(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * 15
    for c in cards:
        counts[c & 15] += 1
    return tuple(counts)


def test_right_after_a_reshuffle_the_public_stock_is_not_unseen() -> None:
    g = stalled_game("german", 6, 1, 0)
    while g.view(0)["stock_cards"] is None:
        g.apply(next(a for a in g.legal_actions() if str(a) in ("draw", "discard"))
                if any(str(a) in ("draw", "discard") for a in g.legal_actions())
                else g.legal_actions()[0])
    seat = g.current_player
    assert seat is not None
    v = g.view(seat, codes=True)
    k = Knowledge.from_view(v, g.rules)
    down = sum(1 for grid in v["grids"] if grid for c in grid if c is None)
    assert sum(k.unseen) == down  # only the face-down cells hold unseen cards
    assert k.stock is not None and sum(k.stock) == v["stock_size"] + (v["held_by"] is not None
                                                                       and v["held"] is None)
    assert k.draws == k.stock and k.groups[0].cards == tuple(
        sorted(c for c in v["stock_cards"] if c != v["held"]))
