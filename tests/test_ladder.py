"""The measured ladder (golf.bots.ladder) and the coach's choice of bot from it."""

from __future__ import annotations

import sys

import pytest

from golf import load_rules
from golf.bots import make_bot
from golf.bots.ladder import COACH_BUDGET_MS, DEFAULT, LADDER, strongest

SIX = load_rules("six-card")


def test_the_ladder_is_measured_data_in_strength_order() -> None:
    diffs = [r.score_difference for r in LADDER]
    assert diffs == sorted(diffs, reverse=True)  # weakest first
    for r in LADDER:
        lo, hi = r.interval
        assert lo <= r.score_difference <= hi and r.ms > 0
        make_bot(r.spec, SIX)  # every rung is a bot that exists
    assert {r.spec for r in LADDER} >= {"random", "greedy", "easy", "medium", "expert"}


def test_only_bots_that_explain_can_coach() -> None:
    explaining = {r.spec for r in LADDER if r.explains}
    assert explaining == {"easy", "medium", "expert", "search:ms=10", "search:ms=50",
                          "search:ms=200"}
    assert "fast-expert" not in explaining
    view_bot = make_bot("greedy", SIX)
    assert view_bot.explain({}, []) == []  # the base class: no reasons


def test_the_strongest_bot_that_fits_the_budget() -> None:
    # the coach's 100 ms: search at 50 ms (200 ms does not fit); below 10 ms the expert
    assert strongest(SIX, COACH_BUDGET_MS) == "search:ms=50"
    assert strongest(SIX, 20) == "search:ms=10"
    assert strongest(SIX, 5) == "expert"
    # Without the need to explain, the best point estimate among the bots that fit.
    for budget in (0.5, 5, 20, 100, 1000):
        fits = [r for r in LADDER if r.ms <= budget]
        best = min(fits, key=lambda r: r.score_difference).spec
        assert strongest(SIX, budget, explains=False) == best, budget
    assert strongest(SIX, 0.5, explains=False) == "expert"  # fast-expert costs 0.64 ms
    assert strongest(SIX, 100, explains=False) == "search:ms=50"  # 200 ms does not fit
    assert strongest(SIX, 1000, explains=False) == "search:ms=200"
    # a budget below the expert's cost: a weaker bot that fits
    assert strongest(SIX, 0.1, explains=False) == "greedy"
    assert strongest(SIX, 0.01, explains=False) == "random"
    # nothing that explains fits: the cheapest that explains
    cheapest = min((r for r in LADDER if r.explains), key=lambda r: r.ms).spec
    assert strongest(SIX, 0.001) == cheapest


def test_unknown_rules_or_budget_give_the_expert() -> None:
    assert DEFAULT == "expert"
    assert strongest(load_rules("nine-card"), 0.001) == "expert"
    assert strongest(SIX, None, explains=False) == "expert"
    # a house rule or another match length, or other players: not what was measured
    assert strongest(load_rules("six-card", {"holes": 1}), COACH_BUDGET_MS) == "expert"
    assert strongest(load_rules("six-card", {"knock": True}), 1000) == "expert"
    assert strongest(SIX, COACH_BUDGET_MS, players=4) == "expert"
    assert strongest(SIX, COACH_BUDGET_MS, players=2) == "search:ms=50"


def test_choosing_the_coach_does_not_load_bots_it_passes_over() -> None:
    # A room of rules the ladder did not measure: search's module (and numba) stays
    # unloaded; only a bot the choice stops at is imported to see that it explains.
    sys.modules.pop("golf.bots.search", None)
    assert strongest(load_rules("nine-card"), COACH_BUDGET_MS) == "expert"
    assert strongest(SIX, COACH_BUDGET_MS, players=3) == "expert"
    assert strongest(SIX, 5) == "expert"
    assert "golf.bots.search" not in sys.modules


@pytest.mark.parametrize("budget", [COACH_BUDGET_MS, 0.001])
def test_the_coachs_bot_explains_every_decision(budget: float) -> None:
    from golf import Game

    g = Game(SIX, players=2, seed=5)
    coach = make_bot(strongest(SIX, budget), SIX)
    for _ in range(30):
        seat = g.current_player
        assert seat is not None
        options = coach.explain(g.view(seat, codes=True), g.legal_actions())
        assert options and {o.action for o in options} <= set(g.legal_actions())
        g.apply(options[0].action)
