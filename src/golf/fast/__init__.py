"""golf.fast: the compiled playout core (numba), played exactly like :class:`golf.Game`.

The Python engine stays the reference and the public API; this package plays the same
rules on int64 arrays, compiled once (and cached on disk), for batch simulation and
search. Differential tests (``tests/test_fast.py``) hold it to the engine: the same legal
actions in every state, the same scores, totals and winners. Rules it does not play are
refused with :class:`UnsupportedRules` naming the setting (see ``docs/fast.md``).

>>> from golf.fast import FastGame, play
>>> g = FastGame("six-card", players=2, seed=3)
>>> g.phase, [str(a) for a in g.legal_actions()][:2]
('setup', ['reveal 1', 'reveal 2'])
>>> totals, holes = play("six-card", players=2, matches=10, seed=1)
>>> totals.shape, int(holes.sum())
((10, 2), 90)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import GolfError
from ..rules import Rules, load_rules
from .game import FastGame, engine_permutation
from .expert import expert_config
from .policies import EXPERT, GREEDY, POLICIES, RANDOM, play_matches, playout
from .ruleset import SUPPORTED, UnsupportedRules, check_supported, config

__all__ = [
    "EXPERT",
    "GREEDY",
    "POLICIES",
    "RANDOM",
    "SUPPORTED",
    "FastGame",
    "UnsupportedRules",
    "check_supported",
    "config",
    "engine_permutation",
    "expert_config",
    "play",
    "play_random",
    "playout",
]


def _policies(policy: str | Sequence[str], players: int) -> npt.NDArray[np.int64]:
    names = [policy] * players if isinstance(policy, str) else list(policy)
    if len(names) != players:
        raise GolfError(f"give one policy per seat ({players}), got {len(names)}")
    bad = [p for p in names if p not in POLICIES]
    if bad:
        raise GolfError(f"unknown policy {bad[0]!r}; compiled policies are: "
                        f"{', '.join(POLICIES)}")
    return np.array([POLICIES[p] for p in names], dtype=np.int64)


def play(
    variant: str | Path | Rules = "six-card",
    players: int = 2,
    matches: int = 1,
    seed: int = 0,
    policy: str | Sequence[str] = "random",
    rules: Mapping[str, Any] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Play whole matches in the compiled core (its own generator, seeded by ``seed``):
    returns the totals (``matches`` x ``players``) and the holes each match took."""
    r = load_rules(variant, rules)
    cfg = config(r, players)
    if not isinstance(matches, int) or matches < 0:
        raise GolfError(f"matches must be a non-negative integer, got {matches!r}")
    seats = _policies(policy, players)
    if EXPERT in seats:  # the expert reads its tables from the end of the config
        cfg = expert_config(r, players)
    totals, holes = play_matches(cfg, matches, seed, seats)
    return totals, holes


def play_random(
    variant: str | Path | Rules, players: int, n_matches: int, seed: int = 0
) -> npt.NDArray[np.int64]:
    """Totals of ``n_matches`` matches of uniformly random play (see :func:`play`)."""
    return play(variant, players, n_matches, seed, "random")[0]
