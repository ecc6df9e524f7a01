"""One source for each fact (issue 24): the two experts share one weight table."""

from __future__ import annotations

import pytest

from golf import load_rules
from golf.bots.expert_weights import WEIGHTS as PY_WEIGHTS
from golf.bots.expert_weights import nearest_preset, weights
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
