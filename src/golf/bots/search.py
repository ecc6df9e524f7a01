"""The ``search`` bot: determinized Monte Carlo search in the compiled core.

At each decision it samples worlds consistent with its seat's view (every card it
cannot see dealt at random among the places it cannot see: the stock, face-down cells,
a card another player drew), plays each legal action in each world, and lets every
seat play the compiled greedy policy to the end of the hole. It picks the action with
the best mean margin over its best opponent (see :mod:`golf.fast.search`). Every
action is tried in the same worlds, so close actions are compared on equal luck.

It never sees the game, only the view: the worlds come from :func:`view_worlds`,
which reads the view and the rules alone through :mod:`golf.knowledge`.

Options: ``ms`` (time per decision, default 50) or ``sims`` (a fixed number of
playouts per decision, spread evenly over the legal actions; it overrides ``ms`` and
makes decisions reproducible: they then depend only on the view, the seed and the
options). Needs the ``fast`` extra (numba).

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=4)
>>> bot = make_bot("search:sims=60", g.rules, seed=1)
>>> for _ in range(4):
...     g.apply(g.legal_actions()[0])
>>> a = bot.choose(g.view(g.current_player, codes=True), g.legal_actions())
>>> a in g.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ..actions import Action
from ..errors import GolfError
from ..fast import FastGame
from ..fast.layout import C_CELLS, C_O_GRIDS, C_O_STOCK, S_HELD
from ..fast.machine import seed_rng
from ..fast.search import simulate
from ..knowledge import Sampler, World
from ..knowledge import Slot as KnownSlot
from ..rules import Rules
from .base import Bot, register

#: A place a seat cannot see: ("stock", i), ("held", seat) or ("grid", seat, cell).
Slot = tuple[Any, ...]
#: Worlds per compiled call in time-budget mode: small, so the budget is overshot little.
_BATCH = 4


def view_worlds(view: Mapping[str, Any], rules: Rules
                ) -> tuple[dict[str, Any], list[tuple[list[Slot], list[int]]]]:
    """A position holding every fact of ``view`` (its unknown places filled with some
    cards consistent with it), and the groups of unknown places with the cards that
    fill them: every world consistent with the view is a shuffle of each group's cards
    over its places, all equally likely under uniform shuffles.

    Both come from :mod:`golf.knowledge`, the one definition of what a seat knows: before
    the stock is reshuffled every unknown place takes any card the seat has not seen;
    after a reshuffle the stock (and a card another player drew from it) take the public
    stock's cards and the face-down cells the rest.
    """
    sampler = Sampler(view, rules, 0)
    k = sampler.knowledge
    order = [i for g in k.groups for i in g.slots]
    if order != list(range(len(k.slots))):  # pragma: no cover - knowledge's documented order
        raise GolfError("golf.knowledge groups are not in slot order")
    # one consistent filling: each group's cards in sorted order
    filling = World(tuple(c for g in k.groups for c in g.cards), 0)
    groups = [([_place(k.slots[i]) for i in g.slots], list(g.cards)) for g in k.groups]
    return sampler.position(filling), groups


def _place(slot: KnownSlot) -> Slot:
    if slot.place == "stock":
        return ("stock", slot.at)
    if slot.place == "held":
        return ("held", slot.seat)
    return ("grid", slot.seat, slot.at)


@register
class SearchBot(Bot):
    """Determinized search with greedy playouts; see the module docs."""

    name = "search"
    defaults: ClassVar[Mapping[str, Any]] = {"ms": 50.0, "sims": 0}

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        if self.options["sims"] < 0 or self.options["ms"] <= 0:
            raise GolfError("bot 'search': sims must be >= 0 (0: use the time budget ms) "
                            "and ms > 0")
        self.last_sims = 0  # playouts of the last decision (for benchmarks)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.last_sims = 0
            return legal[0]
        start = time.perf_counter()
        position, groups = view_worlds(view, self.rules)
        f = FastGame.from_position(self.rules, position, chance="fast")
        template = f.state.copy()
        slots, cards, ends = self._compiled_groups(f, groups)
        actions = np.array([int(a) for a in legal], dtype=np.int64)
        sums = np.zeros(len(legal), dtype=np.int64)
        counts = np.zeros(len(legal), dtype=np.int64)
        rng = seed_rng(self._decision_seed(view))
        seat = int(view["seat"])
        args = (template, f.cfg, slots, cards, ends, actions, seat)
        sims = int(self.options["sims"])
        if sims:
            simulate(*args, max(1, -(-sims // len(legal))), rng, sums, counts)
        else:
            stop = start + float(self.options["ms"]) / 1000
            while True:
                simulate(*args, _BATCH, rng, sums, counts)
                if time.perf_counter() >= stop:
                    break
        self.last_sims = int(counts.sum())
        # Integer comparison of the means (sums / counts, counts equal): no float sums.
        return legal[int(np.argmax(sums))]

    @staticmethod
    def _compiled_groups(f: FastGame, groups: Sequence[tuple[Sequence[Slot], Sequence[int]]]
                         ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any],
                                    np.ndarray[Any, Any]]:
        """The groups as state indices, cards and group ends, for the compiled core."""
        cfg = f.cfg
        cells, o_grids, o_stock = int(cfg[C_CELLS]), int(cfg[C_O_GRIDS]), int(cfg[C_O_STOCK])
        index: list[int] = []
        cards: list[int] = []
        ends: list[int] = []
        for places, group_cards in groups:
            for p in places:
                if p[0] == "stock":
                    index.append(o_stock + p[1])
                elif p[0] == "held":
                    index.append(S_HELD)
                else:
                    index.append(o_grids + p[1] * cells + p[2])
            cards += group_cards
            ends.append(len(index))
        return (np.array(index, dtype=np.int64), np.array(cards, dtype=np.int64),
                np.array(ends, dtype=np.int64))

    def _decision_seed(self, view: Mapping[str, Any]) -> int:
        """A seed from the bot's seed and the view alone, so a decision does not depend
        on earlier decisions or on anything the view does not show."""
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        digest = hashlib.blake2b(f"{self.seed}|{text}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little") >> 1
