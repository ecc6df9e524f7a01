"""Bots: legal in every preset, blind to what they cannot see, deterministic, and
(for the expert) exact about expected scores where they can be checked by brute force."""

from __future__ import annotations

import importlib
import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import golf
from golf import Game, GolfError, load_rules
from golf.bots import ExpertBot, base, make_bot
from golf.bots.base import Bot, bot_available, bot_class, bot_names, parse_spec
from golf.bots.counting import deck_counts, draws, unseen
from golf.bots.estimate import Evaluation, estimator
from golf.scoring import scorer
from golf.view import view
from helpers import scramble_hidden

CASES = [
    (name, players)
    for name in golf.preset_names()
    for players in range(load_rules(name).players[0], load_rules(name).players[1] + 1)
]
SPECS = ["expert", "greedy", "random", "expert:memory=0.5,noise=2"]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MORE = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bots_for(g: Game, seed: int, specs: list[str] = SPECS) -> list[Bot]:
    return [make_bot(specs[(s + seed) % len(specs)], g.rules, seed=seed + s)
            for s in range(g.players)]


def play(g: Game, bots: list[Bot], holes: int = 1) -> int:
    """Let the bots play ``holes`` holes (or to the end); every choice must be legal."""
    stop = g.hole + holes
    decisions = 0
    while not g.is_over and g.hole < stop:
        seat = g.current_player
        assert seat is not None
        legal = g.legal_actions()
        action = bots[seat].choose(g.view(seat, codes=True), legal)
        assert action in legal, f"{bots[seat].spec} chose {action} from {legal}"
        g.apply(action)
        decisions += 1
    return decisions


# --- never illegal ---------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), CASES)
@FEW
@given(seed=SEEDS)
def test_bots_play_only_legal_actions(variant: str, players: int, seed: int) -> None:
    g = Game(variant, players=players, seed=seed)
    assert play(g, bots_for(g, seed)) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), CASES)
@MORE
@given(seed=SEEDS)
def test_bots_play_whole_matches_legally(variant: str, players: int, seed: int) -> None:
    rules = {"holes": 3} if load_rules(variant).holes else {"target": 40}
    g = Game(variant, players=players, seed=seed, rules=rules)
    play(g, bots_for(g, seed), holes=1000)
    assert g.is_over


OPTIONAL_RULES: list[dict[str, Any]] = [
    {"match": ["columns", "rows", "diagonals"]},
    {"match": ["columns", "blocks"], "jokers_per_deck": 2},
    {"match": ["adjacent"]},
    {"flip_instead_of_draw": True},
    {"final_turns": True, "target": 100},
]


@pytest.mark.parametrize("overrides", OPTIONAL_RULES)
@FEW
@given(seed=SEEDS)
def test_bots_handle_nine_card_options(overrides: dict[str, Any], seed: int) -> None:
    g = Game("nine-card", players=2, seed=seed, rules=overrides)
    play(g, bots_for(g, seed, ["expert", "greedy"]))


# --- no cheating -----------------------------------------------------------------------

def random_state(variant: str, players: int, seed: int) -> Game:
    g = Game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    bots = bots_for(g, seed, ["greedy", "random"])
    for _ in range(rng.randrange(4, 40)):
        if g.is_over:
            break
        seat = g.current_player
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
    return g


@pytest.mark.parametrize("variant", golf.preset_names())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_decisions_ignore_cards_the_bot_cannot_see(variant: str, seed: int) -> None:
    players = max(2, load_rules(variant).players[0])
    g = random_state(variant, players, seed)
    if g.is_over:
        return
    seat = g.current_player
    assert seat is not None
    rng = random.Random(seed)
    for trial in range(3):
        other = scramble_hidden(g, seat, rng)
        if trial == 0:
            # the scramble really moved hidden cards (else the test would prove nothing)
            a, b = other.state.hole, g.state.hole
            assert a.stock != b.stock or a.grids != b.grids or len(b.stock) < 2
        assert other.view(seat, codes=True) == g.view(seat, codes=True)
        for spec in ("expert", "greedy", "random", "expert:memory=0.3,noise=1.5"):
            a = make_bot(spec, g.rules, seed=seed)
            b = make_bot(spec, g.rules, seed=seed)
            legal = g.legal_actions()
            assert other.legal_actions() == legal
            assert a.choose(g.view(seat, codes=True), legal) == \
                b.choose(other.view(seat, codes=True), legal), spec
            assert a.explain(g.view(seat, codes=True), legal) == \
                b.explain(other.view(seat, codes=True), legal), spec


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_a_bot_without_memory_ignores_its_own_peeked_cards(seed: int) -> None:
    g = random_state("german", 2, seed)
    if g.is_over:
        return
    seat = g.current_player
    assert seat is not None
    other = scramble_hidden(g, seat, random.Random(seed), own_peeks=True)
    legal = g.legal_actions()
    forgetful = make_bot("expert:memory=0", g.rules, seed=1)
    assert forgetful.choose(g.view(seat, codes=True), legal) == \
        make_bot("expert:memory=0", g.rules, seed=1).choose(other.view(seat, codes=True), legal)


# --- deterministic, and a function of the view --------------------------------------------

@pytest.mark.parametrize("variant", ["six-card", "four-card-wild", "nine-card", "german",
                                     "six-card-knock"])
@pytest.mark.parametrize("spec", ["expert", "expert:memory=0.5,noise=1"])
def test_decisions_do_not_depend_on_earlier_calls(variant: str, spec: str) -> None:
    """A bot that has seen the whole hole decides as a fresh bot given only the view:
    what it keeps between the calls of a turn is only a cache."""
    g = Game(variant, players=2, seed=17)
    bots = [make_bot(spec, g.rules, seed=s) for s in (5, 6)]
    while g.hole == 1 and not g.is_over:
        seat = g.current_player
        assert seat is not None
        v = g.view(seat, codes=True)
        legal = g.legal_actions()
        a = bots[seat].choose(v, legal)
        assert a == make_bot(spec, g.rules, seed=5 + seat).choose(v, legal)
        g.apply(a)


def test_same_seed_same_game_and_seeds_matter_with_noise() -> None:
    def run(seed: int, spec: str) -> list[str]:
        g = Game("six-card", players=2, seed=3)
        bots = [make_bot(spec, g.rules, seed=seed), make_bot(spec, g.rules, seed=seed + 1)]
        play(g, bots, holes=2)
        return [str(a) for a in g.history]

    assert run(1, "expert") == run(1, "expert")
    assert run(1, "expert:noise=3") == run(1, "expert:noise=3")
    noisy = {tuple(run(s, "expert:noise=3")) for s in range(4)}
    assert len(noisy) > 1


# --- options and the registry --------------------------------------------------------------

def test_registry_names_and_specs() -> None:
    assert {"random", "greedy", "expert"} <= set(bot_names())
    rules = load_rules("six-card")
    bot = make_bot("expert:memory=0.6,noise=1.5", rules, seed=3)
    assert isinstance(bot, ExpertBot)
    assert (bot.memory, bot.noise) == (0.6, 1.5)
    assert bot.spec == "expert:memory=0.6,noise=1.5"
    assert make_bot("expert", rules).spec == "expert"
    assert parse_spec("expert:memory=1") == ("expert", {"memory": "1"})


@pytest.mark.parametrize(("spec", "message"), [
    ("expert:memory=2", "memory must be between 0 and 1"),
    ("expert:noise=-1", "noise must be 0 or more"),
    ("expert:memory=lots", "must be a number"),
    ("expert:memory=٠.٥", "must be a number"),  # Arabic-Indic 0.5: float() reads it
    ("expert:patience=٣", "must be a whole number"),  # int() reads it as 3
    ("expert:patience=²", "must be a whole number"),
    ("expert:speed=3", "has no option 'speed'"),
    ("greedy:memory=1", "has no option 'memory'"),
    ("grandmaster", "unknown bot 'grandmaster'"),
    ("expret", r"unknown bot 'expret' \(did you mean 'expert'\?\); bots are: expert, "
               r"fast-expert, greedy"),
    ("randon:x=1", "did you mean 'random'"),
])
def test_bad_specs_raise_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(GolfError, match=message):
        make_bot(spec, load_rules("six-card"))


def test_the_registry_is_a_table_loaded_on_first_use() -> None:
    assert set(base.BUILTIN) <= set(bot_names())
    for name, target in base.BUILTIN.items():
        module, _, cls = target.partition(":")
        if name not in base.EXTRAS:
            assert bot_class(name).__name__ == cls and bot_class(name).__module__ == module
            assert bot_available(name)


def test_a_missing_extra_is_named_and_its_import_is_tried_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(base.BUILTIN, "needs-extra", "golf_no_such_module_x:Bot")
    monkeypatch.setitem(base.EXTRAS, "needs-extra", "fancy")
    monkeypatch.delitem(base._FAILED, "needs-extra", raising=False)
    tries: list[str] = []
    real = importlib.import_module

    def counting(name: str, package: str | None = None) -> Any:
        tries.append(name)
        return real(name, package)

    monkeypatch.setattr(base.importlib, "import_module", counting)
    rules = load_rules("six-card")
    for _ in range(3):
        with pytest.raises(GolfError, match=r"bot 'needs-extra' needs the optional package "
                           r"golf_no_such_module_x.*install the extra golf-cards\[fancy\]"):
            make_bot("needs-extra", rules)
    assert tries == ["golf_no_such_module_x"]
    assert not bot_available("needs-extra")
    assert "needs-extra" in bot_names()
    base._FAILED.pop("needs-extra")


# --- explanations --------------------------------------------------------------------------

@pytest.mark.parametrize("variant", golf.preset_names())
def test_explain_covers_every_legal_action_best_first(variant: str) -> None:
    # No first-turn knock, so that the expert holds a card before the hole ends.
    g = Game(variant, players=max(2, load_rules(variant).players[0]), seed=8,
             rules={"knock_first_turn": False} if load_rules(variant).knock else None)
    bot = make_bot("expert", g.rules, seed=2)
    others = bots_for(g, 8, ["greedy"])
    seen = set()
    while g.hole == 1 and not g.is_over:
        seat = g.current_player
        assert seat is not None
        v, legal = g.view(seat, codes=True), g.legal_actions()
        if seat == 0:
            options = bot.explain(v, legal)
            assert sorted(o.action for o in options) == sorted(legal)
            assert options[0].action == bot.choose(v, legal)
            assert all(isinstance(o.expected, float) and o.reason for o in options)
            seen.add(v["phase"])
            g.apply(options[0].action)
        else:
            g.apply(others[seat].choose(v, legal))
    assert {"turn", "hold"} <= seen


def brute_expected(rules: golf.Rules, ranks: list[int], counts: list[int]) -> float:
    """Expected total of a grid (0 = unknown) by enumerating every way the unknown
    cells could be dealt from the unseen cards, scored by the engine."""
    pool = [r for r in range(1, 15) for _ in range(counts[r])]
    unknown = [i for i, r in enumerate(ranks) if not r]
    total = 0
    n = 0
    for draw in itertools.permutations(range(len(pool)), len(unknown)):
        grid = list(ranks)
        for cell, k in zip(unknown, draw, strict=True):
            grid[cell] = pool[k]
        total += scorer(rules).total(tuple(grid))
        n += 1
    return total / n


def final_turn_hold(seed: int) -> tuple[Game, int]:
    """A six-card game where seat 1 holds a card in its final turn, two cards down."""
    for s in itertools.count(seed):
        g = Game("six-card", players=2, seed=s)
        bots = [make_bot("greedy", g.rules), make_bot("greedy", g.rules)]
        while g.hole == 1 and not g.is_over:
            v = g.view(1, codes=True)
            if (g.current_player == 1 and v["phase"] == "hold" and v["final_turns_from"] == 0
                    and 1 <= v["face_up"][1].count(False) <= 2):
                return g, s
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", [1, 40, 90])
def test_final_turn_expectations_match_brute_force(seed: int) -> None:
    """In its last turn the expert's expected totals are exact (checked against every
    deal of its face-down cards, scored by the engine) and it plays the lowest."""
    g, _ = final_turn_hold(seed)
    v = g.view(1, codes=True)
    legal = g.legal_actions()
    bot = make_bot("expert", g.rules, seed=1)
    options = bot.explain(v, legal)
    pool = unseen(v, g.rules)  # the held card is visible, so not among these
    ranks = [0 if c is None else c & 15 for c in v["grids"][1]]
    held = v["held"] & 15
    for o in options:
        after = list(ranks)
        if o.action.kind == "swap":
            after[o.action.cell] = held
        assert o.expected == pytest.approx(brute_expected(g.rules, after, pool), abs=0.006)
    assert [o.expected for o in options] == sorted(o.expected for o in options)
    assert bot.choose(v, legal) == options[0].action


# --- strength, roughly --------------------------------------------------------------------------

def match_totals(specs: list[str], seed: int) -> list[int]:
    g = Game("six-card", players=len(specs), seed=seed)
    play(g, [make_bot(s, g.rules, seed=seed + i) for i, s in enumerate(specs)], holes=100)
    return g.totals


def test_bots_beat_random_play() -> None:
    for seed in range(3):
        greedy, rnd = match_totals(["greedy", "random"], seed)
        assert greedy < rnd - 50
        expert, rnd = match_totals(["expert", "random"], seed)
        assert expert < rnd - 50


@pytest.mark.slow
def test_expert_beats_greedy_more_often_than_not() -> None:
    wins = 0
    for seed in range(30):
        order = ["expert", "greedy"] if seed % 2 else ["greedy", "expert"]
        totals = match_totals(order, seed)
        wins += totals[order.index("expert")] < totals[order.index("greedy")]
    assert wins >= 18


# --- card counting and the estimator ----------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), [("six-card", 2), ("german", 3),
                                                  ("four-card-wild", 6), ("nine-card", 4)])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_unseen_counts_are_the_hidden_cards(variant: str, players: int, seed: int) -> None:
    g = random_state(variant, players, seed)
    seat = g.current_player if g.current_player is not None else 0
    cells = g.rules.cells
    h = g.state.hole
    hidden = []
    for s in g.active:
        known = h.up[s] | (h.peeked[s] if s == seat else 0)
        hidden += [h.grids[s][i] for i in range(cells) if not known >> i & 1]
    stock = list(h.stock)
    if h.held >= 0 and h.current != seat and h.held_from == 0:
        stock.append(h.held)
    # After a reshuffle the stock's cards are public (the view lists them): a draw is
    # one of them, and none of them can be in a face-down cell.
    public = bool(h.reshuffles)
    want = Counter(c & 15 for c in (hidden if public else hidden + stock))
    counts = unseen(view(g, seat, True), g.rules)
    assert {r: counts[r] for r in range(15) if counts[r]} == dict(want)
    stocked = draws(view(g, seat, True), g.rules)
    if not stock:  # the next draw reshuffles the pile below its top into the stock
        assert stocked is not None
        assert {r: stocked[r] for r in range(15) if stocked[r]} == dict(Counter(
            c & 15 for c in h.discard[:-1]))
    elif public:
        assert stocked is not None
        assert {r: stocked[r] for r in range(15) if stocked[r]} == dict(Counter(
            c & 15 for c in stock))
    else:
        assert stocked is None
    # memory 0: everything below the top of the pile and every peeked card forgotten
    forgetful = unseen(view(g, seat, True), g.rules, memory=0.0)
    assert all(f >= c for f, c in zip(forgetful, counts, strict=True))
    peeked_down = bin(h.peeked[seat] & ~h.up[seat]).count("1")
    assert sum(forgetful) - sum(counts) == max(0, len(h.discard) - 1) + peeked_down


OTHER_RULES: list[tuple[str, dict[str, Any]]] = [
    (name, {}) for name in golf.preset_names()
] + [
    ("nine-card", {"match": ["columns", "rows", "diagonals"]}),
    ("nine-card", {"match": ["columns", "blocks"], "jokers_per_deck": 2}),
    ("nine-card", {"match": ["adjacent"]}),
    ("six-card", {"match": ["columns", "rows"], "match_by": "points"}),
]


@pytest.mark.parametrize(("variant", "overrides"), OTHER_RULES)
def test_estimator_splits_scores_exactly(variant: str, overrides: dict[str, Any]) -> None:
    rules = load_rules(variant, overrides or None)
    est = estimator(rules)
    rng = random.Random(4)
    for _ in range(300):
        grid = tuple(rng.choice(est.ranks) for _ in range(rules.cells))
        split = est.base + sum(est.delta(k, [grid[i] for i in c])
                               for k, c in enumerate(est.comps))
        assert split == golf.score(list(grid), rules).total


@pytest.mark.parametrize(("variant", "overrides"), OTHER_RULES)
def test_expectations_with_one_or_two_unknown_cards_are_exact(
    variant: str, overrides: dict[str, Any],
) -> None:
    rules = load_rules(variant, overrides or None)
    est = estimator(rules)
    rng = random.Random(9)
    counts = list(deck_counts(rules, 2))
    for r in range(1, 15):  # a smaller pool keeps the brute force quick
        counts[r] = min(counts[r], rng.randrange(0, 3))
    for _ in range(6):
        ranks = [rng.choice(est.ranks) for _ in range(rules.cells)]
        unknown = rng.sample(range(rules.cells), 1)
        if all(len(c) <= 2 for c in est.comps):
            unknown = rng.sample(range(rules.cells), 2)
        for i in unknown:
            ranks[i] = 0
        ev = Evaluation(est, counts)
        assert ev.grid(ranks) == pytest.approx(brute_expected(rules, ranks, counts))
        for cell in range(rules.cells):
            if ranks[cell]:
                after = ev.placements(ranks, cell, pooled=False)
                for x in est.ranks:
                    trial = list(ranks)
                    trial[cell] = x
                    assert after[x] == pytest.approx(brute_expected(rules, trial, counts)), \
                        (cell, x)
