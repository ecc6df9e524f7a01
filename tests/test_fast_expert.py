"""The compiled expert (golf.fast.expert) and the fast-expert bot.

It must choose a legal action in every state of every rule set the core plays, decide
from what its seat may know only (shuffling every card the seat cannot see changes no
decision), decide the same for the same state, play far better than greedy and random,
and, behind the bot interface, play golf.Game matches from views alone.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from golf import Game, RulesError, load_rules, preset_names
from golf.actions import K_FLIP, KIND_SHIFT
from golf.bots import make_bot
from golf.errors import GolfError
from golf.fast import EXPERT, POLICIES, FastGame, config, expert_config, play
from golf.fast.expert import (
    RADIX,
    X_CELLS,
    X_NCOMP,
    X_SIZE,
    X_TABLE,
    expert_action,
    expert_choice,
    unseen,
)
from golf.fast.layout import (
    C_CELLS,
    C_O_DISCARD,
    C_O_GRIDS,
    C_O_PEEKED,
    C_O_STOCK,
    C_O_UP,
    C_PLAYERS,
    C_POINTS,
    S_ACTIVE,
    S_CUR,
    S_DISCARD_LEN,
    S_PHASE,
    S_RESHUFFLES,
    S_STOCK_LEN,
)
from golf.fast.machine import MAX_LEGAL, legal_actions, seed_rng
from golf.fast.policies import choose
from golf.fast.score import score_rows
from golf.lab.play import AGREEMENT_DECISIONS, AGREEMENT_FLOOR, expert_agreement, pick_lab_engine

PRESET_SEATS = [(name, n) for name in preset_names()
                for n in range(load_rules(name).players[0], load_rules(name).players[1] + 1)]


def hidden_groups(st_: np.ndarray, cfg: np.ndarray) -> list[list[int]]:
    """The state indices whose cards the seat to act cannot see, in groups whose cards
    may be shuffled among each other (golf.knowledge's groups): before a reshuffle one
    group (the stock and every face-down cell the seat has not looked at); after one
    the stock (public as a multiset) and the cells apart."""
    seat = int(st_[S_CUR])
    cells, players = int(cfg[C_CELLS]), int(cfg[C_PLAYERS])
    grid_slots = []
    for s in range(players):
        if not int(st_[S_ACTIVE]) >> s & 1:
            continue
        seen = int(st_[cfg[C_O_UP] + s])
        if s == seat:
            seen |= int(st_[cfg[C_O_PEEKED] + s])
        base = int(cfg[C_O_GRIDS]) + s * cells
        grid_slots += [base + i for i in range(cells) if not seen >> i & 1]
    stock = [int(cfg[C_O_STOCK]) + j for j in range(int(st_[S_STOCK_LEN]))]
    if int(st_[S_RESHUFFLES]):
        return [stock, grid_slots]
    return [stock + grid_slots]


def shuffled(st_: np.ndarray, cfg: np.ndarray, rng: random.Random) -> np.ndarray:
    out = st_.copy()
    for group in hidden_groups(st_, cfg):
        cards = [int(st_[i]) for i in group]
        rng.shuffle(cards)
        for i, c in zip(group, cards, strict=True):
            out[i] = c
    return out


def walk(variant: Any, players: int, seed: int, overrides: Any = None,
         steps: int = 400) -> list[tuple[np.ndarray, np.ndarray]]:
    """States of a match played by the expert with some random moves mixed in (so that
    odd positions come up too); each with the legal actions there."""
    r = load_rules(variant, overrides)
    cfg = expert_config(r, players)
    f = FastGame(r, players=players, seed=seed, chance="fast")
    pick = random.Random(seed)
    rng = seed_rng(seed)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    out = []
    for _ in range(steps):
        if f.is_over:
            break
        n = legal_actions(f.state, cfg, legal)
        out.append((f.state.copy(), legal[:n].copy()))
        if pick.random() < 0.25:
            a = int(legal[pick.randrange(n)])
        else:
            a = int(choose(f.state, cfg, EXPERT, rng, legal, scratch))
        f.apply(a)
    return out


def check_states(variant: Any, players: int, seed: int, overrides: Any = None,
                 steps: int = 400) -> int:
    """Every state of a walk: the choice is legal and survives shuffles of the hidden
    cards; returns how many states had hidden cards to shuffle."""
    r = load_rules(variant, overrides)
    cfg = expert_config(r, players)
    rng = random.Random(seed)
    shuffled_states = 0
    for st_, legal in walk(variant, players, seed, overrides, steps):
        a = expert_choice(st_, cfg)
        assert a in legal.tolist()
        groups = hidden_groups(st_, cfg)
        if any(len(g) > 1 for g in groups):
            shuffled_states += 1
            for _ in range(2):
                assert expert_choice(shuffled(st_, cfg, rng), cfg) == a
    return shuffled_states


@pytest.mark.parametrize(("variant", "players"), PRESET_SEATS)
def test_every_preset_legal_and_blind_to_hidden_cards(variant: str, players: int) -> None:
    assert check_states(variant, players, seed=players * 31 + 7) > 10


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESET_SEATS), st.integers(0, 2**31))
def test_hidden_cards_never_change_a_decision(case: tuple[str, int], seed: int) -> None:
    variant, players = case
    check_states(variant, players, seed, steps=120)


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    """Settings the core plays, drawn on top of a preset (a smaller cousin of the
    strategy in tests/test_fast.py)."""
    variant = draw(st.sampled_from(preset_names()))
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    match = draw(st.lists(st.sampled_from(
        ["columns", "rows", "row-pairs", "diagonals", "adjacent", "pairs", "blocks"]),
        unique=True, max_size=3))
    jokers = draw(st.integers(0, 2))
    players = draw(st.integers(1, 4))
    over: dict[str, Any] = {
        "rows": rows, "cols": cols, "jokers_per_deck": jokers,
        "jokers_wild": jokers > 0 and draw(st.booleans()),
        "match": [p for p in match if (p != "diagonals" or rows == cols)
                  and (p != "blocks" or min(rows, cols) >= 2)],
        "match_by": draw(st.sampled_from(["rank", "points"])),
        "setup": draw(st.sampled_from(["reveal", "peek"])),
        "flip_after_discard": draw(st.sampled_from(["must", "may", "never"])),
        "replace": draw(st.sampled_from(["any", "face-down"])),
        "return_taken": draw(st.booleans()),
        "flip_instead_of_draw": draw(st.booleans()),
        "knock": draw(st.booleans()), "final_turns": draw(st.booleans()),
        "end_on_complete": draw(st.sampled_from(["first", "all", "never"])),
        "reshuffle": draw(st.booleans()), "holes": draw(st.integers(1, 2)),
        "turn_limit": draw(st.integers(1, 60)),
        "points.K": draw(st.integers(-3, 3)), "points.JK": draw(st.integers(-5, 5)),
        "players": [players, players],
    }
    over["setup_count"] = draw(st.integers(0, min(2, rows * cols)))
    if over["end_on_complete"] == "never":
        over["knock"] = True
    over["decks"] = max(1, -(-(players * rows * cols + 1) // (52 + jokers)))
    return variant, over, players


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**31))
def test_house_rules_legal_and_blind_to_hidden_cards(
        case: tuple[str, dict[str, Any], int], seed: int) -> None:
    variant, over, players = case
    try:
        load_rules(variant, over)
    except RulesError:
        assume(False)
    check_states(variant, players, seed, over, steps=150)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**31))
# a component too large for a table that is not the whole grid (a 3x3 grid's diagonals)
@example(case=("four-card", {"rows": 3, "cols": 3, "match": ["diagonals"], "knock": False,
                             "final_turns": False, "end_on_complete": "first"}, 3), seed=0)
def test_components_add_up_to_the_engines_total(
        case: tuple[str, dict[str, Any], int], seed: int) -> None:
    """The expert values a grid as one term per component, from its tables: on full
    grids the terms add up to the core's (the engine's) score."""
    variant, over, players = case
    try:
        r = load_rules(variant, over)
    except RulesError:
        assume(False)
    cfg = expert_config(r, players)
    x = int(cfg[-2])
    cells = r.cells
    ranks = np.random.default_rng(seed).integers(1, RADIX if r.jokers_per_deck else 14,
                                                 size=(30, cells)).astype(np.int64)
    base = config(r, players)
    want = score_rows(base, ranks)
    for grid, total in zip(ranks, want, strict=True):
        got = 0
        for k in range(int(cfg[x + X_NCOMP])):
            comp = [int(cfg[x + X_CELLS + 16 * k + j]) for j in range(int(cfg[x + X_SIZE + k]))]
            t = int(cfg[x + X_TABLE + k])
            if t < 0:  # no table (too many cells): the component is scored directly,
                # its own cells with the others unknown, less the unknowns' points
                alone = np.zeros((1, cells), dtype=np.int64)
                alone[0, comp] = grid[comp]
                got += int(score_rows(base, alone)[0]) - (cells - len(comp)) * int(
                    base[C_POINTS])
                continue
            got += int(cfg[t + sum(int(grid[c]) * RADIX**j for j, c in enumerate(comp))])
        assert got == int(total)


def test_a_draw_is_valued_from_the_cards_it_can_give() -> None:
    """Before a reshuffle a draw is one of the unseen cards; after one, one of the
    public stock's; from an empty stock, one of the pile below its top (the draw
    reshuffles it)."""
    r = load_rules("german")
    cfg = expert_config(r, 2)
    x = int(cfg[-2])
    f = FastGame(r, players=2, seed=4, chance="fast")
    pick = random.Random(4)
    counts = np.empty(RADIX, dtype=np.int64)
    draws = np.empty(RADIX, dtype=np.int64)
    seen = set()
    while not f.is_over and len(seen) < 3:
        st_ = f.state
        if int(st_[S_PHASE]) == 1:  # a turn
            seat = int(st_[S_CUR])
            n = unseen(st_, cfg, x, seat, counts, draws)
            stock = [int(st_[int(cfg[C_O_STOCK]) + j]) & 15 for j in range(int(st_[S_STOCK_LEN]))]
            pile = [int(st_[int(cfg[C_O_DISCARD]) + j]) & 15
                    for j in range(int(st_[S_DISCARD_LEN]) - 1)]
            if not stock:
                want, case = [pile.count(k) for k in range(RADIX)], "empty"
            elif int(st_[S_RESHUFFLES]):
                want, case = [stock.count(k) for k in range(RADIX)], "public"
            else:
                want, case = counts.tolist(), "unseen"
                assert n == sum(want) > len(stock)
            assert draws.tolist() == want, case
            seen.add(case)
        # stall (draw and discard) so that the stock runs out and is reshuffled
        legal = [str(a) for a in f.legal_actions()]
        f.apply(next((a for a in ("draw", "discard") if a in legal), pick.choice(legal)))
    assert seen == {"unseen", "public", "empty"}


# --- the bot behind the Bot interface ------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), [("six-card", 2), ("four-card-wild", 3),
                                                  ("german", 2), ("nine-card", 2),
                                                  ("six-card-knock", 4)])
def test_the_bot_decides_from_the_view_as_the_policy_does_from_the_state(
        variant: str, players: int) -> None:
    """The bot fills the places it cannot see with some consistent cards; its choice is
    the policy's on the true state (any consistent filling gives the same)."""
    g = Game(variant, players=players, seed=5)
    cfg = expert_config(g.rules, players)
    bot = make_bot("fast-expert", g.rules)
    pick = random.Random(5)
    checked = 0
    while not g.is_over and checked < 150:
        legal = g.legal_actions()
        seat = g.current_player
        a = bot.choose(g.view(seat, codes=True), legal)
        assert a in legal
        if len(legal) > 1:
            true = FastGame.from_position(g.rules, g.position(), chance="fast")
            codes = np.array([int(b) for b in legal], dtype=np.int64)
            assert int(expert_action(true.state, cfg, codes, len(legal))) == int(a)
            checked += 1
        g.apply(a if pick.random() < 0.8 else pick.choice(legal))
    assert checked > 30


def test_the_bot_plays_a_match_against_the_python_expert_to_the_end() -> None:
    g = Game("six-card", players=2, seed=21)
    bots = [make_bot("fast-expert", g.rules), make_bot("expert", g.rules, seed=2)]
    while not g.is_over:
        seat = g.current_player
        g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
    assert len(g.hole_scores) >= g.rules.holes and g.winners


# The floor of agreement per rule set is the lab's (golf.lab.play.AGREEMENT_FLOOR, 95 %):
# the lab measures it before it lets the compiled expert stand in for the Python one, and
# plays a ruleset below it on the engine. Nine-card with rows, diagonals or blocks (one
# component of nine cells, valued without a table) agreed on 90-93.5 % before the compiled
# expert valued such grids and their optional flips as the Python one does (now 96-98.6 %;
# over 8 matches plain 97.4 %, those five 96.8-97.8 %); the lab's figures for those rules
# then described the compiled expert's blind spot (holes of a hundred turns), not the rule.
# Below the floor still, and so played on the engine by the lab: nine-card with pairs,
# adjacent or row-pairs (90-94 %: the Python expert samples a big component's unknown
# cells, and its sampled match chances are not ours), German with pair patterns, six-card
# with pairs, four-card-wild with one card peeked (docs/lab.md, "The compiled expert").


@pytest.mark.parametrize(("variant", "overrides"), [
    ("six-card", {}),
    ("nine-card", {}),
    *[("nine-card", {"match": ["columns", *extra]})
      for extra in (["rows"], ["diagonals"], ["rows", "diagonals"], ["blocks"],
                    ["rows", "blocks"])],
    ("six-card", {"match": ["columns", "row-pairs"]}),
    ("four-card-wild", {"match": ["pairs", "blocks"]}),
], ids=lambda v: v if isinstance(v, str) else "+".join(v.get("match", ["preset"])))
def test_the_bot_plays_the_python_experts_moves_under_each_rule(
        variant: str, overrides: dict[str, Any]) -> None:
    """Not a port, the same ideas: on the Python expert's own matches the compiled one
    picks the same action in nearly every decision (a re-tuned Python expert would need
    its weights passed to expert_config)."""
    # Half the lab's 600 decisions (the Python expert's nine-card play is the cost); the
    # shipped effects table holds the lab's own figure for every value it measures
    # (tests/test_lab.py).
    same, total = expert_agreement(load_rules(variant, overrides), 2, AGREEMENT_DECISIONS // 2)
    assert total >= AGREEMENT_DECISIONS // 2
    assert same >= AGREEMENT_FLOOR * total, f"{same}/{total} = {same / total:.1%}"


@pytest.mark.parametrize(("variant", "overrides"), [
    ("six-card", {"match": ["columns", "pairs"]}),   # nine-card's pair patterns cost 3x more
    ("four-card-wild", {"setup_count": 1}),
], ids=["six-card-pairs", "four-card-wild-peek-one"])
def test_the_lab_plays_a_ruleset_below_the_floor_on_the_engine_and_says_why(
        variant: str, overrides: dict[str, Any]) -> None:
    """Where the compiled expert strays from the Python expert's play, the lab's figures
    would describe the compiled bot, not the rule: auto picks the engine and says why,
    with the figure; asking for the compiled core still gets it, unchecked, and says so."""
    rules = load_rules(variant, overrides)
    players = 2 if variant != "four-card" else 3
    same, total = expert_agreement(rules, players)
    assert same < AGREEMENT_FLOOR * total
    engine, why = pick_lab_engine(rules, players, ["expert"])
    assert engine == "python"
    assert f"only {100 * same / total:.1f} % of {total} decisions" in why and "95 %" in why
    engine, why = pick_lab_engine(rules, players, ["expert"], "compiled")
    assert engine == "compiled" and why.startswith("asked for (its expert was not checked")
    # Players without the Python expert are not held to it: random has an exact twin.
    assert pick_lab_engine(rules, players, ["random"])[0] == "compiled"


def test_an_optional_flip_is_the_python_experts_in_a_grid_one_component_wide() -> None:
    """Rows and columns link all nine cells of a 3x3 grid: the flip that learns a card
    prefers the cell with the fewest known cards near it, and up to eight are known;
    that preference must stay smaller than the flip's own hundredth of a point. When
    six known cards outweighed it the compiled expert passed where the Python one
    flipped, and holes ran on for a hundred turns."""
    g = Game(load_rules("nine-card", {"match": ["columns", "rows"]}), players=2, seed=7)
    experts = [make_bot("expert", g.rules, seed=s) for s in range(2)]
    fast = make_bot("fast-expert", g.rules)
    flips = 0
    while not g.is_over:
        seat, legal = g.current_player, g.legal_actions()
        view = g.view(seat, codes=True)
        a = experts[seat].choose(view, legal)
        if view["phase"] == "flip" and len(legal) > 1:
            assert fast.choose(view, legal) == a
            known = sum(c is not None for c in view["grids"][seat])
            flips += a >> KIND_SHIFT == K_FLIP and known >= 6
        g.apply(a)
    assert flips >= 3


# --- strength, reproducibility, the API ----------------------------------------------
def test_expert_beats_greedy_and_random_in_the_compiled_core() -> None:
    for rival, gap in (("fast-greedy", 15), ("random", 150)):
        a, _ = play("six-card", 2, matches=150, seed=3, policy=["expert", rival])
        b, _ = play("six-card", 2, matches=150, seed=3, policy=[rival, "expert"])
        mine = np.concatenate([a[:, 0], b[:, 1]])
        theirs = np.concatenate([a[:, 1], b[:, 0]])
        assert mine.mean() < theirs.mean() - gap, rival
        assert (mine < theirs).mean() > 0.7, rival


@pytest.mark.parametrize("extra", ["rows", "diagonals", "blocks"])
def test_expert_beats_greedy_where_lines_link_the_whole_grid(extra: str) -> None:
    """Nine-card with rows, diagonals or blocks (one component of nine cells): the
    compiled expert beats fast-greedy as in plain nine-card (4.2 points a hole, 64 % of
    matches; measured 4.0-4.3 and 64-65 % here), where it once lost (-0.6 to -1.3)."""
    over = {"match": ["columns", extra]}
    a, ha = play("nine-card", 2, matches=200, seed=3, policy=["expert", "fast-greedy"],
                 rules=over)
    b, hb = play("nine-card", 2, matches=200, seed=3, policy=["fast-greedy", "expert"],
                 rules=over)
    mine = np.concatenate([a[:, 0], b[:, 1]])
    theirs = np.concatenate([a[:, 1], b[:, 0]])
    assert ((theirs - mine) / np.concatenate([ha, hb])).mean() > 2.5
    assert (mine < theirs).mean() > 0.55


@pytest.mark.parametrize(("variant", "players"), PRESET_SEATS)
def test_expert_self_play_finishes_every_preset(variant: str, players: int) -> None:
    totals, holes = play(variant, players, matches=3, seed=1, policy="expert")
    assert totals.shape == (3, players) and holes.min() >= 1


def test_a_seed_gives_the_same_matches() -> None:
    one = play("six-card", 2, matches=40, seed=9, policy="expert")
    two = play("six-card", 2, matches=40, seed=9, policy="expert")
    assert one[0].tolist() == two[0].tolist() and one[1].tolist() == two[1].tolist()
    other = play("six-card", 2, matches=40, seed=10, policy="expert")
    assert other[0].tolist() != one[0].tolist()


def test_the_plain_config_and_unknown_weights_are_refused_clearly() -> None:
    r = load_rules("six-card")
    f = FastGame(r, players=2, seed=1)
    with pytest.raises(ValueError, match="expert_config"):
        expert_choice(f.state, f.cfg)
    with pytest.raises(GolfError, match="unknown expert weight 'margn'"):
        expert_config(r, 2, {"margn": 3})
    assert POLICIES["expert"] == EXPERT
    assert len(expert_config(r, 2, {"margin": 300})) == len(expert_config(r, 2))
