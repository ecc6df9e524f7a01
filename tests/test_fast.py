"""Differential tests: the compiled core (golf.fast) plays exactly like golf.Game.

Every state visited must offer the same legal actions in the same order and hold the
same position (every card, phase, turn counter and score); whole matches must end in the
same hole scores, totals and winners; the fast core's record must replay through
golf.Game. With the core's own generator (chance="fast", what batch play and search
use) the engine follows from the fast core's positions, re-synchronised after each
shuffle, and must agree on everything else.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from golf import Game, RulesError, load_rules, preset_names
from golf.fast import POLICIES, FastGame, UnsupportedRules, check_supported, config, play
from golf.fast.machine import MAX_LEGAL, seed_rng
from golf.fast.policies import choose
from golf.fast.score import score_rows
from golf.scoring import scorer

PRESET_SEATS = [(name, n) for name in preset_names()
                for n in range(load_rules(name).players[0], load_rules(name).players[1] + 1)]


def lockstep(variant: Any, players: int, seed: int, overrides: Any = None,
             every: int = 1) -> FastGame:
    """Play one random match in both engines at once, comparing every state."""
    g = Game(variant, players=players, seed=seed, rules=overrides)
    f = FastGame(variant, players=players, seed=seed, rules=overrides)
    pick = random.Random(seed * 7919 + players)
    steps = 0
    while True:
        legal = g.legal_actions()
        assert f.legal_actions() == legal, (steps, g.position())
        assert (f.phase, f.current_player, f.hole) == (g.phase, g.current_player, g.hole)
        if steps % every == 0 or g.is_over:
            assert f.position() == g.position(), steps
        if g.is_over:
            break
        a = pick.choice(legal)
        g.apply(a)
        f.apply(a)
        steps += 1
    assert f.hole_scores == g.hole_scores
    assert f.totals == g.totals and f.winners == g.winners
    assert f.hole_results == g.hole_results
    replay = Game.from_record(f.record())
    assert replay.position() == g.position()
    return f


@pytest.mark.parametrize(("variant", "players"), PRESET_SEATS)
def test_every_preset_and_player_count_plays_like_the_engine(variant: str, players: int) -> None:
    for seed in range(3):
        lockstep(variant, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("variant", preset_names())
def test_hundreds_of_random_matches_per_preset(variant: str) -> None:
    lo, hi = load_rules(variant).players
    for k in range(200):
        lockstep(variant, lo + k % (hi - lo + 1), 1000 + k, every=5)


def _rare_paths(f: FastGame) -> dict[str, int]:
    return {
        "playoff holes": sum(h.playoff for h in f.hole_results),
        "holes nobody ended": sum(h.went_out is None and h.knocked_by is None
                                  for h in f.hole_results),
    }


FLAT = {f"points.{r}": 0 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playoffs_up_to_the_limit_and_turn_limits_play_like_the_engine(players: int) -> None:
    """Rare paths, made common: near-flat points tie most holes (playoffs among some or
    all seats, up to the 20-hole limit), and short turn limits end holes unfinished."""
    seen = {"playoff holes": 0, "holes nobody ended": 0}
    for seed in range(6):
        over = {**FLAT, "holes": 1, "tie_break": "playoff", "turn_limit": 4 + 6 * seed}
        f = lockstep("six-card", players, seed, over, every=2)
        for k, v in _rare_paths(f).items():
            seen[k] += v
    assert seen["playoff holes"] >= 20 and seen["holes nobody ended"] >= 3


def test_random_play_reshuffles_in_lockstep() -> None:
    """Reshuffles (the engine's permutation of the discard pile) happen and agree."""
    reshuffled = 0
    for seed in range(3):
        g = Game("six-card", players=2, seed=seed, rules={"holes": 3})
        f = FastGame("six-card", players=2, seed=seed, rules={"holes": 3})
        pick = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            # Mostly draw and throw away, so the stock runs out again and again.
            stalling = [a for a in legal if str(a) in ("draw", "discard", "pass")]
            a = pick.choice(stalling if stalling and pick.random() < 0.95 else legal)
            g.apply(a)
            f.apply(a)
            position = f.position()
            assert position == g.position()
            reshuffled = max(reshuffled, position["reshuffles"])
    assert reshuffled >= 3


# --- house rules ---------------------------------------------------------------------
MATCHES = ["columns", "rows", "row-pairs", "diagonals", "adjacent", "pairs", "blocks"]


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    variant = draw(st.sampled_from(preset_names()))
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    match = draw(st.lists(st.sampled_from(MATCHES), unique=True, max_size=4))
    jokers = draw(st.integers(0, 2))
    over: dict[str, Any] = {
        "rows": rows, "cols": cols, "decks": draw(st.integers(1, 3)),
        "match": match, "match_by": draw(st.sampled_from(["rank", "points"])),
        "block_match_by": draw(st.sampled_from(["rank", "points"])),
        "jokers_per_deck": jokers, "jokers_wild": jokers > 0 and draw(st.booleans()),
        "block_points": draw(st.integers(-30, 5)),
        "setup": draw(st.sampled_from(["reveal", "peek"])),
        "setup_cells": draw(st.sampled_from(["any", "bottom-row"])),
        "return_taken": draw(st.booleans()),
        "flip_after_discard": draw(st.sampled_from(["must", "may", "never"])),
        "replace": draw(st.sampled_from(["any", "face-down"])),
        "flip_instead_of_draw": draw(st.booleans()),
        "knock": draw(st.booleans()), "knock_first_turn": draw(st.booleans()),
        "end_on_complete": draw(st.sampled_from(["first", "all", "never"])),
        "final_turns": draw(st.booleans()), "reshuffle": draw(st.booleans()),
        "holes": draw(st.integers(0, 3)), "target": draw(st.sampled_from([0, 15, 40])),
        "target_ends": draw(st.sampled_from(["exceed", "reach"])),
        "tie_break": draw(st.sampled_from(["share", "playoff"])),
        "turn_limit": draw(st.integers(1, 80)),
        "points.K": draw(st.integers(-3, 3)), "points.JK": draw(st.integers(-5, 5)),
        "points.10": draw(st.sampled_from([10, 0])),
    }
    over["setup_count"] = draw(st.integers(0, cols if over["setup_cells"] == "bottom-row"
                                           else rows * cols))
    players = draw(st.integers(1, 5))
    over["players"] = [players, players]
    # Keep most draws playable (the rules refuse the rest, and those are skipped):
    # patterns the grid cannot have, no way to end a hole or a match, too few cards.
    over["match"] = [p for p in match if (p != "diagonals" or rows == cols)
                     and (p != "blocks" or min(rows, cols) >= 2)]
    if over["end_on_complete"] == "never":
        over["knock"] = True
    if over["holes"] == 0 and over["target"] == 0:
        over["holes"] = 1
    need = -(-(players * rows * cols + 1) // (52 + jokers))
    over["decks"] = max(over["decks"], need)
    return variant, over, players


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**31))
def test_house_rule_combinations_play_like_the_engine(
        case: tuple[str, dict[str, Any], int], seed: int) -> None:
    variant, over, players = case
    try:
        load_rules(variant, over)
    except RulesError:
        assume(False)
    lockstep(variant, players, seed, over, every=3)


# --- scoring -------------------------------------------------------------------------
SCORING_CASES = [
    ("four-card-wild", {}),
    ("four-card", {"match": ["pairs", "blocks", "adjacent"], "jokers_per_deck": 2,
                   "jokers_wild": True, "block_points": -9}),
    ("four-card", {"match": ["diagonals", "rows", "pairs"], "match_by": "points"}),
    ("nine-card", {"match": ["blocks", "pairs"], "jokers_per_deck": 2, "jokers_wild": True}),
    ("nine-card", {"match": ["columns", "rows", "diagonals", "adjacent", "blocks"],
                   "match_by": "points", "jokers_per_deck": 2}),
    ("six-card", {"match": ["pairs", "blocks", "columns"], "block_points": 3}),
    ("nine-card", {"match": ["blocks", "columns", "row-pairs"], "block_match_by": "rank"}),
    ("nine-card", {"match": ["blocks", "pairs"], "match_by": "points",
                   "block_match_by": "rank", "jokers_per_deck": 2, "jokers_wild": True}),
    ("german", {"match": ["columns", "row-pairs", "blocks"], "match_by": "points",
                "block_points": -7}),
    ("six-card", {"rows": 4, "cols": 4, "decks": 2, "players": [2, 4],
                  "match": ["pairs", "blocks", "rows"],
                  "jokers_per_deck": 1, "jokers_wild": True}),
]


def _engine_totals(rules: Any, grids: np.ndarray) -> list[int]:
    s = scorer(rules)
    return [s.total(tuple(int(x) for x in row)) for row in grids]


@pytest.mark.parametrize(("variant", "over"), [
    SCORING_CASES[0], pytest.param(*SCORING_CASES[1], marks=pytest.mark.slow),
    pytest.param(*SCORING_CASES[2], marks=pytest.mark.slow)])
def test_every_two_by_two_grid_scores_like_the_engine(variant: str, over: dict[str, Any]) -> None:
    r = load_rules(variant, over)
    ranks = 15 if r.jokers_per_deck else 14
    grids = np.array(list(itertools.product(range(1, ranks), repeat=4)), dtype=np.int64)
    got = score_rows(config(r, r.players[0]), grids)
    assert got.tolist() == _engine_totals(r, grids)


@pytest.mark.parametrize(("variant", "over"), SCORING_CASES)
def test_random_grids_with_many_equal_cards_score_like_the_engine(
        variant: str, over: dict[str, Any]) -> None:
    r = load_rules(variant, over)
    gen = np.random.default_rng(len(over))
    top = 15 if r.jokers_per_deck else 14
    # Few distinct ranks make many overlapping matches: the hard cases for the search (so
    # hard for the engine's scorer on 16 cells, about a second a grid, that few are tried).
    k = 1000 if r.cells <= 9 else 6
    grids = np.concatenate([gen.integers(1, top, size=(k, r.cells)),
                            gen.choice([1, 13, top - 1], size=(k, r.cells))]).astype(np.int64)
    got = score_rows(config(r, r.players[0]), grids)
    assert got.tolist() == _engine_totals(r, grids)


# --- the core's own chance and its compiled policies ---------------------------------
def _follow(variant: str, players: int, seed: int, policy: str, matches: int) -> list[list[int]]:
    """Replay what golf.fast.play does, step by step, with the engine following along."""
    r = load_rules(variant)
    rng = seed_rng(seed)
    pol = POLICIES[policy]
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    out = []
    for _ in range(matches):
        f = FastGame(r, players=players, seed=seed, chance="fast", rng=rng)
        g = Game.from_position(r, f.position())
        while not f.is_over:
            assert f.legal_actions() == g.legal_actions()
            a = int(choose(f.state, f.cfg, pol, rng, buf, scratch))
            before = f.position()
            f.apply(a)
            g.apply(a)
            after = f.position()
            if after["hole"] != before["hole"] or after["reshuffles"] > before["reshuffles"]:
                # The engine shuffled with its own generator: the same cards, in another
                # order. Check what does not depend on the order, then follow the core.
                mine = g.position()
                for key in ("totals", "hole_scores", "playoff_scores", "winners", "phase"):
                    assert mine[key] == after[key], key
                if after["hole"] == before["hole"]:
                    assert sorted(mine["stock"] + [mine["held"]]) == sorted(
                        after["stock"] + [after["held"]])
                g = Game.from_position(r, after)
            else:
                assert g.position() == after
        assert g.totals == f.totals and g.winners == f.winners
        out.append(f.totals)
    return out


@pytest.mark.parametrize(("variant", "players", "policy"),
                         [("six-card", 2, "random"), ("six-card", 4, "fast-greedy"),
                          ("four-card-wild", 3, "fast-greedy"), ("german", 2, "random"),
                          ("nine-card", 1, "fast-greedy"), ("six-card-knock", 3, "fast-greedy"),
                          ("four-card", 3, "random")])
def test_batch_play_with_the_cores_own_chance_is_the_engines_play(
        variant: str, players: int, policy: str) -> None:
    followed = _follow(variant, players, 11, policy, 3)
    totals, holes = play(variant, players, matches=3, seed=11, policy=policy)
    assert totals.tolist() == followed
    assert holes.min() >= 1


def test_greedy_beats_random_in_the_compiled_core() -> None:
    totals, _ = play("six-card", 2, matches=200, seed=2, policy=["fast-greedy", "random"])
    assert totals[:, 0].mean() < totals[:, 1].mean() - 20


# --- refusals and the API ------------------------------------------------------------
def test_unknown_settings_and_values_are_refused_by_name() -> None:
    r = load_rules("six-card")
    with pytest.raises(UnsupportedRules, match="flip_after_discard = 'sometimes'"):
        check_supported(dataclasses.replace(r, flip_after_discard="sometimes"))
    with pytest.raises(UnsupportedRules, match="match pattern 'crosses'"):
        check_supported(dataclasses.replace(r, match=("columns", "crosses")))

    @dataclasses.dataclass(frozen=True)
    class Newer(type(r)):  # type: ignore[misc]
        corner_bonus: int = -5

    newer = Newer(**{f.name: getattr(r, f.name) for f in dataclasses.fields(r)})
    with pytest.raises(UnsupportedRules, match="setting 'corner_bonus'"):
        FastGame(newer, players=2, seed=1)


def test_bad_input_gets_a_clear_error_and_changes_nothing() -> None:
    f = FastGame("six-card", players=2, seed=1)
    before = f.state.copy()
    with pytest.raises(Exception, match="legal now: reveal 1"):
        f.apply("draw")
    with pytest.raises(Exception, match="not an action"):
        f.apply("jump")
    assert (f.state == before).all() and f.history == []
    with pytest.raises(Exception, match="chance must be one of"):
        FastGame("six-card", players=2, seed=1, chance="dice")
    with pytest.raises(RulesError, match="2 to 8 players"):
        FastGame("six-card", players=9, seed=1)
    with pytest.raises(Exception, match="unknown policy"):
        play("six-card", 2, matches=1, policy="oracle")


def test_clone_is_independent_and_fast_chance_has_no_record() -> None:
    f = FastGame("six-card", players=2, seed=4, chance="fast")
    c = f.clone()
    c.apply(c.legal_actions()[0])
    assert f.history == [] and f.position() != c.position()
    with pytest.raises(Exception, match="chance='engine'"):
        f.record()
    g = Game.from_position(f.rules, c.position())
    assert g.legal_actions() == c.legal_actions()


@pytest.mark.parametrize(("variant", "players"), [("six-card", 3), ("german", 2),
                                                  ("four-card-wild", 4), ("nine-card", 2)])
def test_from_position_plays_on_like_the_engine(variant: str, players: int) -> None:
    """Positions reached mid-match (any phase, after holes and reshuffles) set up the same
    game in both engines, which then play on identically."""
    pick = random.Random(players)
    for seed in range(4):
        g = Game(variant, players=players, seed=seed)
        for _ in range(pick.randrange(1, 300)):
            if g.is_over:
                break
            g.apply(pick.choice(g.legal_actions()))
        p = g.position()
        f = FastGame.from_position(variant, p)
        e = Game.from_position(variant, p)
        assert f.position() == p
        while not e.is_over:
            assert f.legal_actions() == e.legal_actions()
            a = pick.choice(e.legal_actions())
            e.apply(a)
            f.apply(a)
            assert f.position() == e.position()
        fast_world = FastGame.from_position(variant, p, chance="fast")
        assert fast_world.legal_actions() == Game.from_position(variant, p).legal_actions()


def test_the_compiled_cache_is_kept_per_version_of_the_sources(tmp_path: Path) -> None:
    """numba checks a cached function against its own file only: a cached caller kept a
    changed callee's old machine code (the expert's flip fix). The cache lives in a
    directory named by every source of golf.fast, so a change anywhere starts a new one."""
    import numba

    from golf.fast import _jit

    here = Path(_jit.__file__).resolve().parent
    assert Path(numba.config.CACHE_DIR).name == _jit.source_key(here)
    for source in here.glob("*.py"):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    assert _jit.source_key(tmp_path) == _jit.source_key(here)
    (tmp_path / "expert.py").write_text((tmp_path / "expert.py").read_text() + "\n# changed\n")
    assert _jit.source_key(tmp_path) != _jit.source_key(here)
