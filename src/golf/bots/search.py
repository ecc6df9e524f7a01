"""The ``search`` bot: determinized Monte Carlo search in the compiled core.

At each decision it samples worlds consistent with its seat's view (every card it
cannot see dealt at random among the places it cannot see: the stock, face-down cells,
a card another player drew), plays each legal action in each world, and lets every
seat play the compiled greedy policy to the end of the hole. It picks the action with
the best mean margin over its best opponent (see :mod:`golf.fast.search`). Every
action is tried in the same worlds, so close actions are compared on equal luck.

It never sees the game, only the view: the worlds come from :func:`view_worlds`,
which reads the view and the rules alone.

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
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ..actions import Action
from ..cards import build_deck
from ..errors import GolfError
from ..fast import FastGame
from ..fast.layout import C_CELLS, C_O_GRIDS, C_O_STOCK, S_HELD
from ..fast.machine import seed_rng
from ..fast.search import simulate
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

    SWITCH TO golf.knowledge: this is the search bot's one sampler of the view (built
    before golf.knowledge's ``Sampler`` was merged). Once it is on main, replace this
    body with ``Sampler(view, rules)``: its ``knowledge.groups`` / ``slots`` are these
    groups and ``position(world)`` this position.

    Before the stock is reshuffled, every unknown place takes any card the seat has not
    seen; after a reshuffle the view lists the stock's cards (everyone saw them on the
    discard pile), so the stock (and a card another player drew from it) take those and
    the face-down cells the rest.
    """
    players = view["players"]
    grids: list[list[int | None] | None] = [None if g is None else list(g)
                                            for g in view["grids"]]
    seen: Counter[int] = Counter(view["discard"])
    for g in grids:
        seen.update(c for c in (g or ()) if c is not None)
    if view["held"] is not None:
        seen[view["held"]] += 1
    unseen = Counter(build_deck(rules.decks_for(players), rules.jokers_per_deck))
    unseen.subtract(seen)
    if any(v < 0 for v in unseen.values()):
        raise GolfError("the view shows more copies of a card than the deck holds")
    stock_slots: list[Slot] = [("stock", i) for i in range(view["stock_size"])]
    if view["held"] is None and view["held_by"] is not None:
        stock_slots.append(("held", view["held_by"]))
    grid_slots: list[Slot] = [("grid", s, i) for s, g in enumerate(grids) if g is not None
                              for i, c in enumerate(g) if c is None]
    cards = sorted(unseen.elements())
    if view["stock_cards"] is None:
        groups = [(stock_slots + grid_slots, cards)]
    else:
        in_stock = sorted(view["stock_cards"])
        rest = Counter(cards)
        rest.subtract(in_stock)
        groups = [(stock_slots, in_stock), (grid_slots, sorted(rest.elements()))]
    for places, group_cards in groups:
        if len(places) != len(group_cards):
            raise GolfError(f"the view has {len(places)} unknown places for "
                            f"{len(group_cards)} unseen cards")
    position = _position(view, rules, grids)
    held = None
    for places, group_cards in groups:  # one consistent filling: the sorted cards in order
        for place, card in zip(places, group_cards, strict=True):
            if place[0] == "stock":
                position["stock"][place[1]] = card
            elif place[0] == "held":
                held = card
            else:
                position["grids"][place[1]][place[2]] = card
    if held is not None:
        position["held"] = held
    return position, groups


def _position(view: Mapping[str, Any], rules: Rules,
              grids: list[list[int | None] | None]) -> dict[str, Any]:
    """The view's facts as a position (unknown cards still None, the stock all None)."""
    seat, current, phase = view["seat"], view["current_player"], view["phase"]
    chosen: list[int] = []
    if phase == "setup" and current is not None:
        # what the seat in setup has chosen so far: the cells it turned up, or peeked at
        if rules.setup == "reveal":
            chosen = [i + 1 for i, up in enumerate(view["face_up"][current]) if up]
        else:
            chosen = list(view["peeked"] if current == seat
                          else view["peeked_cells"][current])
    last = view["last_hole"]
    return {
        "players": view["players"], "hole": view["hole"], "playoff": view["playoff"],
        "active": list(view["active"]), "dealer": view["dealer"], "phase": phase,
        "current_player": current if current is not None else view["active"][0],
        "grids": grids,
        "face_up": [None if u is None else list(u) for u in view["face_up"]],
        "peeked": [list(view["peeked"]) if s == seat else list(view["peeked_cells"][s] or [])
                   for s in range(view["players"])],
        "setup_chosen": chosen, "discard": list(view["discard"]),
        "stock": [None] * view["stock_size"], "held": view["held"],
        "held_from": view["held_from"], "turns": list(view["turns"]),
        "knocked_by": view["knocked_by"], "final_turns_from": view["final_turns_from"],
        "reshuffles": 0 if view["stock_cards"] is None else 1,
        "totals": list(view["totals"]),
        "hole_scores": [list(h) for h in view["hole_scores"]],
        "playoff_scores": [list(h) for h in view["playoff_scores"]],
        "hole_results": [] if last is None else [last],
        "winners": list(view["winners"]), "seed": 0,
    }


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
