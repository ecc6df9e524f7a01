"""The simulator's compiled engine (golf.fast.batch): which bots it may play, that
those play like their Python selves, and that its records give the same reports."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from golf import Game, GolfError, load_rules
from golf.bots import make_bot
from golf.cli import main
from golf.fast import FastGame, play
from golf.fast.batch import COMPILED_BOTS, compiled_policy, policy_config, run_compiled
from golf.fast.machine import MAX_LEGAL, seed_rng
from golf.fast.policies import POLICIES, choose
from golf.simulate import (
    duplicate_summary,
    match_seed,
    pick_engine,
    run_matches,
    simulate,
    summarise,
)

SIX = load_rules("six-card")


def compiled_choices(variant: str, spec: str, policy: str, matches: int
                     ) -> tuple[int, int]:
    """(agreeing, disagreeing) decisions of the Python bot ``spec`` and the compiled
    ``policy`` over the states of Python self-play, the policy reading each state as a
    FastGame set up from the engine's position."""
    rules = load_rules(variant)
    legal_buf = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    rng = seed_rng(1)
    cfg = policy_config(rules, 2, [policy])
    same = other = 0
    for seed in range(matches):
        g = Game(rules, players=2, seed=seed)
        bots = [make_bot(spec, rules, seed=s) for s in range(2)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            legal = g.legal_actions()
            a = bots[seat].choose(g.view(seat, codes=True), legal)
            f = FastGame.from_position(rules, g.position(), chance="fast")
            c = choose(f.state, cfg, POLICIES[policy], rng, legal_buf, scratch)
            if int(a) == int(c):
                same += 1
            else:
                other += 1
            g.apply(a)
    return same, other


def test_compiled_greedy_is_another_policy_so_greedy_is_not_mapped() -> None:
    # "greedy" names one policy (the bot): the compiled one decides otherwise, so it is
    # fast-greedy, and neither play() nor simulate takes it for the bot.
    same, other = compiled_choices("six-card", "greedy", "fast-greedy", 6)
    assert same > 10 * other > 0
    assert compiled_policy("greedy") is None and "greedy" not in POLICIES
    with pytest.raises(GolfError, match="unknown policy 'greedy'"):
        play("six-card", 2, 1, policy="greedy")
    with pytest.raises(GolfError, match="'greedy' has no compiled policy: the compiled "
                       "fast-greedy policy"):
        pick_engine(SIX, 2, ["random", "greedy"], "compiled")


def test_every_mapped_deterministic_bot_decides_like_its_policy() -> None:
    for spec, policy in COMPILED_BOTS.items():
        if spec == "random":
            continue  # random agrees in distribution (the next test)
        for variant in ("six-card", "german"):
            same, other = compiled_choices(variant, spec, policy, 3)
            assert other == 0 and same > 0, (spec, variant)


def _mean_sd(values: list[float]) -> tuple[float, float]:
    m = sum(values) / len(values)
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def test_compiled_random_plays_like_the_random_bot_in_distribution() -> None:
    py = run_matches(SIX, 2, ["random"], 150, seed=5, engine="python")
    fast = run_matches(SIX, 2, ["random"], 3000, seed=5, engine="compiled")
    for figure in (lambda r: sum(map(sum, r.hole_scores)) / len(r.hole_scores),
                   lambda r: sum(map(sum, r.turns)) / len(r.turns)):
        pm, ps = _mean_sd([figure(r) for r in py])
        fm, fs = _mean_sd([figure(r) for r in fast])
        se = math.sqrt(ps**2 / len(py) + fs**2 / len(fast))
        assert abs(pm - fm) < 4.5 * se, (pm, fm, se)  # about 1 in 150,000 by chance


def test_auto_picks_compiled_only_when_every_seat_has_a_policy() -> None:
    assert pick_engine(SIX, 2, ["random"]) == ("compiled", "every bot has a compiled policy")
    assert pick_engine(SIX, 3, ["fast-expert", "random"])[0] == "compiled"
    with pytest.raises(GolfError, match="'expert' has no compiled policy: the compiled "
                       "expert policy is the fast-expert bot"):
        pick_engine(SIX, 2, ["expert"], "compiled")
    engine, why = pick_engine(SIX, 3, ["random", "expert"])
    assert engine == "python" and "'expert' has no compiled policy" in why
    assert pick_engine(SIX, 2, ["random"], "python") == ("python", "asked for")
    with pytest.raises(GolfError, match="'easy' has no compiled policy"):
        pick_engine(SIX, 2, ["easy"], "compiled")
    with pytest.raises(GolfError, match="unknown engine 'numba'"):
        pick_engine(SIX, 2, ["random"], "numba")


def test_compiled_records_have_the_python_shape_seeds_and_order() -> None:
    rules = load_rules("six-card", {"holes": 4})
    py = run_matches(rules, 3, ["random"], 4, seed=2, engine="python")
    fast = run_matches(rules, 3, ["random"], 4, seed=2, engine="compiled")
    assert [(r.index, r.seed, r.bots) for r in fast] == [(r.index, r.seed, r.bots) for r in py]
    for r in fast:
        assert len(r.hole_scores) == len(r.turns) == len(r.first) == rules.holes
        # totals are the sums of the regular holes (no playoffs with these rules)
        assert list(r.totals) == [sum(h[s] for h in r.hole_scores) for s in range(3)]
        best = min(r.totals)
        assert r.winners == tuple(s for s in range(3) if r.totals[s] == best)
        # the first mover rotates with the dealer, as in the engine
        assert list(r.first) == [(h % 3) for h in range(rules.holes)]
    a = summarise(py, rules, 3, ["random"], 2)
    b = summarise(fast, rules, 3, ["random"], 2)

    def shape(d: Any) -> Any:
        if isinstance(d, dict):
            return {k: shape(v) for k, v in d.items()}
        if isinstance(d, list):
            return [shape(v) for v in d]
        return type(d).__name__

    assert shape(a) == shape(b)


def test_compiled_runs_repeat_and_follow_playoffs_and_targets() -> None:
    rules = load_rules("six-card", {"holes": 0, "target": 60, "tie_break": "playoff"})
    one = run_compiled(rules, 2, ("random", "random"), 30, seed=4)
    assert one == run_compiled(rules, 2, ("random", "random"), 30, seed=4)
    for r in one:
        assert max(r.totals) > 60
        assert list(r.totals) == [sum(h[s] for h in r.hole_scores) for s in range(2)]
        assert len(r.winners) == 1 or min(r.totals) == r.totals[r.winners[0]]


def test_fast_expert_matches_compiled_and_at_tables_agree_in_distribution() -> None:
    py = run_matches(SIX, 2, ["fast-expert", "random"], 40, seed=6, engine="python")
    fast = run_matches(SIX, 2, ["fast-expert", "random"], 1000, seed=6, engine="compiled")
    for seat in range(2):
        pm, ps = _mean_sd([sum(h[seat] for h in r.hole_scores) / 9 for r in py])
        fm, fs = _mean_sd([sum(h[seat] for h in r.hole_scores) / 9 for r in fast])
        se = math.sqrt(ps**2 / len(py) + fs**2 / len(fast))
        assert abs(pm - fm) < 4.5 * se, (seat, pm, fm, se)
    assert sum(r.totals[0] < r.totals[1] for r in fast) > 900  # the expert crushes random


def test_duplicate_deals_compiled() -> None:
    res = run_matches(SIX, 2, ["random"], 5, seed=3, duplicate=True, engine="compiled")
    assert [r.index for r in res] == list(range(10))
    assert [r.seed for r in res] == [match_seed(3, d) for d in range(5) for _ in range(2)]
    dup = duplicate_summary(res, 2)
    assert dup["deals"] == 5 and dup["by_bot"][0]["bot"] == "random"


def test_progress_is_reported_between_chunks() -> None:
    seen: list[tuple[int, int]] = []
    run_matches(SIX, 2, ["random"], 3, seed=1, engine="compiled",
                progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3)


def test_simulate_reports_the_engine() -> None:
    s = simulate(SIX, 2, ["random"], 3, seed=1, engine="auto")
    assert (s["engine"], s["engine_reason"]) == ("compiled", "every bot has a compiled policy")
    s = simulate(SIX, 2, ["random", "greedy"], 2, seed=1, engine="auto")
    assert s["engine"] == "python" and "greedy" in s["engine_reason"]


def test_command_line_names_the_path(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", "random", "--games", "20", "--seed", "1", "-q"])
    out = capsys.readouterr().out
    assert code == 0
    assert "compiled engine (every bot has a compiled policy)" in out.splitlines()[0]
    assert "in one process (compiled core)" in out and "holes/s" in out
    code = main(["simulate", "--bots", "random", "--games", "2", "--seed", "1", "-q",
                 "--engine", "python", "--json", "--workers", "1"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["engine"] == "python"
    code = main(["simulate", "--bots", "random,expert", "--games", "2", "-q",
                 "--engine", "compiled"])
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot use the compiled engine: bot 'expert' has no compiled policy" in err
    assert "Traceback" not in err


def test_each_hole_is_dealt_from_the_seed_alone_whatever_was_played() -> None:
    # One turn a hole: the seat that does not move scores the grid it was dealt, so equal
    # scores under different bots show equal deals, hole after hole.
    rules = load_rules("six-card", {"turn_limit": 1, "holes": 6})
    a = run_compiled(rules, 2, ("random", "random"), 20, seed=8)
    b = run_compiled(rules, 2, ("fast-expert", "random"), 20, seed=8)
    c = run_compiled(rules, 2, ("random", "random"), 20, seed=9)
    idle = [[h[1 - f] for h, f in zip(r.hole_scores, r.first, strict=True)] for r in a]
    assert idle == [[h[1 - f] for h, f in zip(r.hole_scores, r.first, strict=True)]
                    for r in b]
    assert idle != [[h[1 - f] for h, f in zip(r.hole_scores, r.first, strict=True)]
                    for r in c]
    assert [r.hole_scores for r in a] != [r.hole_scores for r in b]  # the play differed
