"""The compiled core counts unseen cards as golf.knowledge does (issue 24, item 2).

Random games of every preset are played in lockstep by golf.Game and golf.fast
(engine chance, so both deal the same cards); at each decision the compiled
expert's count of unseen cards per rank, from every seat's view, must equal
:func:`golf.knowledge.unseen_counts` of that seat's view.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from golf import Game, load_rules
from golf.fast import FastGame
from golf.fast.expert import expert_config, unseen
from golf.knowledge import unseen_counts
from golf.rules import preset_names


@pytest.mark.parametrize("preset", preset_names())
def test_unseen_counts_match_knowledge(preset: str) -> None:
    rules = load_rules(preset)
    lo, hi = rules.players
    rng = random.Random(f"unseen-{preset}")
    checked = 0
    for game_no in range(3):
        players = rng.randint(lo, min(hi, 5))
        g = Game(preset, players=players, seed=1000 + game_no)
        f = FastGame(rules, players, 1000 + game_no)
        cfg = expert_config(rules, players)
        x = int(cfg[-2])
        counts = np.zeros(15, dtype=np.int64)
        draws = np.zeros(15, dtype=np.int64)
        for _ in range(400):
            if g.is_over:
                break
            for seat in range(players):
                want = unseen_counts(g.view(seat, codes=True), rules)
                n = unseen(f.state, cfg, x, seat, counts, draws)
                got = tuple(int(c) for c in counts)
                assert got == tuple(want), (preset, seat, g.phase, g.current_player)
                assert n == sum(want[1:])
                checked += 1
            a = rng.choice(g.legal_actions())
            g.apply(a)
            f.apply(a)
    assert checked > 100
