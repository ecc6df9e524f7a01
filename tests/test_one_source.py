"""One source for each fact (issue 24): the two experts share one weight table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import golf
from golf import load_rules
from golf.expert_weights import WEIGHTS as PY_WEIGHTS
from golf.expert_weights import nearest_preset, weights
from golf.fast.expert import WEIGHTS, X_WEIGHTS, expert_config
from golf.rules import preset_names


def _tail_weights(cfg: object) -> dict[str, int]:
    import numpy as np

    a = np.asarray(cfg)
    start = int(a[-2])
    return {name: int(a[start + X_WEIGHTS + i]) for i, name in enumerate(WEIGHTS)}


def test_same_weight_names() -> None:
    assert set(WEIGHTS) == set(PY_WEIGHTS)


@pytest.mark.parametrize("preset", preset_names())
def test_compiled_weights_are_the_python_experts(preset: str) -> None:
    rules = load_rules(preset)
    py = weights(rules)
    got = _tail_weights(expert_config(rules, rules.players[0]))
    for name in WEIGHTS:
        scale = 1 if PY_WEIGHTS[name] is int else 100
        assert got[name] == round(py[name] * scale), name


def test_custom_rules_choose_by_nearest_preset() -> None:
    # german play with six-card's flips: the nearest preset decides, in both experts.
    rules = load_rules("six-card", {"flip_after_discard": "never"})
    py = weights(rules)
    got = _tail_weights(expert_config(rules, 2))
    assert got["w_def"] == round(py["w_def"] * 100)
    assert nearest_preset(rules) == "six-card"
    assert got["w_def"] == 100


# The bit layouts of card codes and action codes are defined in golf.cards, golf.actions
# and (for numba) golf.fast.layout; anything else names them.
_BARE = re.compile(r"&\s*(?:15|0xF)\b|>>\s*4\b|<<\s*4\b")
_LAYOUT = {"cards.py", "actions.py", "fast/layout.py"}


def _bare_literals() -> dict[str, int]:
    src = Path(golf.__file__).parent
    found: dict[str, int] = {}
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel in _LAYOUT:
            continue
        n = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            if _BARE.search(line.split("#", 1)[0]):
                n += 1
        if n:
            found[rel] = n
    return found


def test_no_bare_bit_literals_on_codes() -> None:
    found = _bare_literals()
    assert not found, f"bare bit literals (name them in golf.cards, golf.actions): {found}"


def test_the_scan_sees_a_literal() -> None:
    assert _BARE.search("r = card & 15")
    assert _BARE.search("k = a >> 4")
    assert not _BARE.search("r = card & RANK_MASK")


# --- a game's deck: Rules.deck, built by golf.cards.build_deck and nowhere else ---------

def _src_lines(pattern: re.Pattern[str]) -> list[str]:
    """``file:line`` of every code line (comments left out) under src/golf matching."""
    src = Path(golf.__file__).parent
    hits = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line.split("#", 1)[0]):
                hits.append(f"{rel}:{k}")
    return hits


def test_one_deck_builder() -> None:
    # build_deck is defined in cards.py and called by Rules.deck's cache alone.
    uses = [h for h in _src_lines(re.compile(r"\bbuild_deck\(")) if not h.startswith("cards.py")]
    assert len(uses) == 1 and uses[0].startswith("rules.py"), uses
    spelled = [h for h in _src_lines(re.compile(r"decks_for\(.*jokers_per_deck"))
               if not h.startswith("rules.py")]
    assert not spelled, f"a deck spelled out from decks_for and jokers_per_deck: {spelled}"


@pytest.mark.parametrize("preset", preset_names())
def test_every_deck_reader_agrees_with_rules_deck(preset: str) -> None:
    from collections import Counter

    from golf import Game
    from golf.bots.counting import deck_counts
    from golf.cards import RANK_MASK
    from golf.envs.encoding import Encoding
    from golf.knowledge import deck_codes, deck_ranks

    rules = load_rules(preset)
    for players in range(rules.players[0], rules.players[1] + 1):
        deck = rules.deck(players)
        assert len(deck) == rules.deck_size(players)
        g = Game(rules, players=players, seed=players)
        assert sorted(g.census()) == sorted(deck)
        codes = Counter(deck)
        assert deck_codes(rules, players) == tuple(codes[c] for c in range(len(deck_codes(
            rules, players))))
        ranks = Counter(c & RANK_MASK for c in deck)
        assert deck_ranks(rules, players) == tuple(ranks[r] for r in range(15))
        assert deck_counts(rules, players) == tuple(ranks[r] for r in range(15))
        enc = Encoding(rules, players)
        assert enc.deck_size == len(deck)
        assert enc.deck_counts == tuple(ranks[r] for r in range(1, len(enc.deck_counts) + 1))


# --- when a hole ended: Game.ended_hole (and the event's copy of it) -------------------

#: The idioms that worked it out again: a hole number compared before and after an
#: action, finished holes counted before and after, views compared.
_HOLE_END_IDIOMS = re.compile(
    r"\w\.hole\s*!=\s*hole\b|(?<![.\w])hole\s*!=\s*\w+\.hole\b"
    r"|len\([^)]*hole_results\)\s*(?:[<>]=?|[!=]=)|(?:[<>]=?|[!=]=)\s*len\([^)]*hole_results\)"
    r"|def hole_ended\b")


def test_hole_end_asked_one_way() -> None:
    found = _src_lines(_HOLE_END_IDIOMS)
    assert not found, f"a hole's end worked out again (use Game.ended_hole): {found}"


def test_the_hole_end_scan_sees_the_idioms() -> None:
    for line in ("if g.hole != hole or g.is_over:", "if not g.is_over and g.hole != hole:",
                 "if len(g.hole_results) > holes:", "if hole != g.hole:",
                 "holes == len(game.hole_results)", "def hole_ended(before, after):"):
        assert _HOLE_END_IDIOMS.search(line), line
    for line in ("if g.ended_hole:", "self.steps[k - 1].hole != step.hole",
                 "holes += len(g.hole_results)"):
        assert not _HOLE_END_IDIOMS.search(line), line


@pytest.mark.parametrize("preset", preset_names())
def test_ended_hole_is_the_event_and_the_results(preset: str) -> None:
    import random

    from golf import Game

    rules = load_rules(preset, {"holes": 3})
    for players in sorted({rules.players[0], min(rules.players[1], 4)}):
        for seed in range(4):
            g = Game(rules, players=players, seed=seed)
            rng = random.Random(seed)
            assert not g.ended_hole
            while not g.is_over:
                before = len(g.hole_results)
                event = g.step(rng.choice(g.legal_actions()))
                assert g.ended_hole == event.ended_hole == (len(g.hole_results) == before + 1)
                if g.ended_hole:
                    assert event.result is g.hole_results[-1]
                assert g.clone().ended_hole == g.ended_hole
            assert g.ended_hole  # the match's last action ended its last hole
            replayed = Game.from_record(g.record())
            assert replayed.ended_hole


# --- a record's replay loop: Game.replay, used by Game.from_record and table.restore ----

def test_one_record_replay_loop() -> None:
    loops = _src_lines(re.compile(r"f\"game record action .* cannot be played"))
    assert len(loops) == 1 and loops[0].startswith("game.py"), loops


def test_from_record_and_restore_fail_alike() -> None:
    from golf import Game, GolfError
    from golf.table import Saved, SeatSpec, restore

    g = Game("six-card", players=2, seed=4)
    for a in ("reveal 1", "reveal 2", "reveal 3", "reveal 4", "draw"):
        g.apply(a)
    bad = {**g.record(), "actions": [*g.record()["actions"], "take"]}
    with pytest.raises(GolfError) as direct:
        Game.from_record(bad)
    seats = [SeatSpec("Ann", None), SeatSpec("greedy", "greedy")]
    with pytest.raises(GolfError) as restored:
        restore(Saved(bad, seats, {}))
    assert str(direct.value) == str(restored.value)
    assert "game record action 6 ('take') cannot be played" in str(direct.value)
    game, _ = restore(Saved(g.record(), seats, {}))
    assert game.state == Game.from_record(g.record()).state


# --- the Gymnasium and PettingZoo envs: rewards, results and render in golf.envs.episode -

def test_envs_share_episode_code() -> None:
    envs = Path(golf.__file__).parent / "envs"
    for name in ("gymnasium_env.py", "pettingzoo_env.py"):
        text = envs.joinpath(name).read_text(encoding="utf-8")
        for copy in ("hole_results", ".scores", "table_image(", "describe(", "json.dumps",
                     "logger.warn"):
            assert copy not in text, f"{name} repeats golf.envs.episode ({copy})"


def test_mean_interval_is_the_clustered_one_with_clusters_of_one() -> None:
    from golf.simulate import mean_ci, ratio_ci

    values = [3.0, 7.5, 1.0, 4.25, 9.0]
    assert mean_ci(values) == ratio_ci(values, [1] * len(values))
    m, lo, hi = mean_ci(values)
    assert m == sum(values) / 5 and lo < m < hi
