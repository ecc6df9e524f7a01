"""A digest of every move of seeded bot matches: run by several Python versions, it must
come out the same (imports only golf, so any interpreter with ``src`` on its path runs it).

    PYTHONPATH=src python3.13 tests/bot_fingerprint.py 2
"""

from __future__ import annotations

import hashlib
import sys

from golf import Game
from golf.bots import make_bot

VARIANTS = ("six-card", "four-card-wild", "german", "nine-card")


def fingerprint(seeds: int) -> str:
    """Seeded expert-vs-greedy and expert-vs-expert matches of every variant, digested."""
    h = hashlib.sha256()
    for variant in VARIANTS:
        for seed in range(seeds):
            g = Game(variant, players=2, seed=seed)
            specs = ("expert", "expert" if seed % 2 else "greedy")
            bots = [make_bot(spec, g.rules, seed=seed * 2 + s) for s, spec in enumerate(specs)]
            while not g.is_over:
                s = g.current_player
                assert s is not None
                g.apply(bots[s].choose(g.view(s, codes=True), g.legal_actions()))
            h.update(" ".join(map(str, g.history)).encode())
            h.update(repr(g.totals).encode())
    return h.hexdigest()[:16]


if __name__ == "__main__":
    print(fingerprint(int(sys.argv[1]) if len(sys.argv) > 1 else 2))
