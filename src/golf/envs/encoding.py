"""Numbers for learners: a fixed action table and a fixed-length observation vector.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) speaks through one :class:`Encoding`
built for a rules object and a player count:

* **actions** are ids ``0 .. 4n+4`` for a grid of ``n`` cells, one per canonical
  notation in the order of :data:`golf.actions.KINDS`: ``reveal 1..n``, ``peek 1..n``,
  ``draw``, ``take``, ``swap 1..n``, ``discard``, ``flip 1..n``, ``pass``, ``knock``.
  Ids a variant never uses are simply never legal; :meth:`Encoding.mask` marks the
  legal ones.
* **observations** are built from a seat's view (:func:`golf.view.view` with card
  codes) and nothing else (the view already says which cards a reshuffled stock
  holds): the layout is :attr:`Encoding.sections` and ``docs/rl.md``. By default
  every number is scaled into [0, 1] (match totals into (-1, 1)) with exact bounds;
  ``scaled=False`` gives the raw counts and totals.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=1)
>>> enc = Encoding(g.rules, 2)
>>> enc.num_actions, enc.size
(29, 298)
>>> [str(enc.action(i)) for i in (0, 12, 13, 14, 20, 28)]
['reveal 1', 'draw', 'take', 'swap 1', 'discard', 'knock']
>>> mask = enc.mask(g.legal_actions())
>>> [str(enc.action(i)) for i in mask.nonzero()[0]][:2]
['reveal 1', 'reveal 2']
>>> obs = enc.encode(g.view(0, codes=True))
>>> obs.shape, enc.observation("phase", obs).tolist()
((298,), [1.0, 0.0, 0.0, 0.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import KINDS, POSITIONAL, Action
from ..cards import JOKER, RANK_MASK, card_str
from ..errors import GolfError
from ..game import Game
from ..knowledge import deck_ranks, unseen_counts
from ..phases import PHASES
from ..rules import Rules, load_rules

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

RANKS = JOKER  # ranks 1..14 (A..K, joker) take one-hot slots 0..13
_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
#: Loose but finite bounds for unbounded numbers (scores, hole numbers).
BIG = 1_000_000.0


@dataclass(frozen=True)
class Section:
    """One named stretch of the observation vector."""

    name: str
    start: int
    length: int
    low: float
    high: float
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.length


class Encoding:
    """The action table and observation layout for ``rules`` and ``players`` seats."""

    def __init__(self, rules: Rules, players: int, *, scaled: bool = True) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        n = self.cells = rules.cells
        acts: list[Action] = []
        for kind in range(len(KINDS)):
            for cell in range(n if kind in POSITIONAL else 1):
                acts.append(Action.of(kind, cell))
        self.actions: tuple[Action, ...] = tuple(acts)
        self.num_actions = len(acts)
        # Engine action int -> id (-1 for positions off this grid).
        self._ids = [-1] * (len(KINDS) * 16)
        for i, a in enumerate(acts):
            self._ids[a] = i
        # By rank, ace first (slot rank - 1), from golf.knowledge's count of the deck.
        self.deck_counts: tuple[int, ...] = deck_ranks(rules, players)[1:RANKS + 1]
        self.deck_size = len(rules.deck(players))
        self.scaled = scaled
        # Raw numbers: counts up to the deck's, turns, match totals; scaled: every
        # number in [0, 1] (totals in (-1, 1)), see _scales and docs/rl.md.
        dmax = 1.0 if scaled else float(max(self.deck_counts))
        tmax = 1.0 if scaled else float(rules.turn_limit)
        smax, big_lo, big_hi = (1.0, -1.0, 1.0) if scaled else (float(self.deck_size), -BIG, BIG)
        p = players
        spec: list[tuple[str, int, float, float, str]] = [
            ("own_grid", n * 15, 0, 1, "per cell: rank one-hot (A..K, joker) or 'unknown' (15th)"),
            ("own_face_up", n, 0, 1, "per cell: 1 if face up"),
            ("other_grids", (p - 1) * n * 15, 0, 1,
             "per other seat in turn order, per cell: rank one-hot if face up, else 'unknown'"),
            ("in_play", p, 0, 1, "per seat (own first, then in turn order): 1 if dealt in"),
            ("peeked", p * n, 0, 1,
             "per seat (relative), per cell: 1 if that seat has looked at the face-down card"),
            ("discard_top", 15, 0, 1, "rank one-hot of the discard top, or 'empty' (15th)"),
            ("discard_counts", RANKS, 0, dmax, "cards of each rank in the discard pile"),
            ("stock_counts", RANKS, 0, dmax,
             "cards of each rank in the stock (and a card being held from it), when known "
             "(after a reshuffle); else 0"),
            ("unseen_counts", RANKS, 0, dmax,
             "cards of each rank this seat cannot see (face down, or in an unknown stock)"),
            ("stock", 2, 0, smax, "stock size; 1 if its cards are known"),
            ("phase", 5, 0, 1, "one-hot: setup, turn, hold, flip, over"),
            ("held", 16, 0, 1,
             "rank one-hot of a held card this seat sees; 'held, unseen' (15th); 'none' (16th)"),
            ("held_from", 2, 0, 1, "one-hot: held card came from the stock, the discard pile"),
            ("to_act", p, 0, 1, "per seat (relative): 1 for the seat to act"),
            ("dealer", p, 0, 1, "per seat (relative): 1 for the dealer"),
            ("knocked_by", p, 0, 1, "per seat (relative): 1 for a seat that knocked"),
            ("final_turns_from", p, 0, 1,
             "per seat (relative): 1 for the seat whose going out or knock ends the hole"),
            ("turns", p, 0, tmax, "per seat (relative): turns this hole"),
            ("totals", p, big_lo, big_hi, "per seat (relative): match total so far"),
            ("match", 4, 0, 1.0 if scaled else BIG,
             "hole number, holes in the match (0: to a target), target (0: none), "
             "1 if a playoff hole"),
        ]
        sections = []
        start = 0
        for name, length, lo, hi, meaning in spec:
            sections.append(Section(name, start, length, float(lo), float(hi), meaning))
            start += length
        self.sections: tuple[Section, ...] = tuple(sections)
        self._at = {s.name: s for s in sections}
        self._starts = {s.name: s.start for s in sections}
        self._hot_starts = tuple(self._starts[k] for k in (
            "in_play", "own_face_up", "discard_top", "held", "held_from", "stock", "phase",
            "to_act", "dealer", "knocked_by", "final_turns_from", "match", "peeked"))
        self._orders = [[(seat + k) % p for k in range(p)] for seat in range(p)]
        # For the k-th seat from the observer, where each of its cells' 15 slots start.
        own, others = self._starts["own_grid"], self._starts["other_grids"]
        self._cell_starts = [
            [(own if k == 0 else others + (k - 1) * n * 15) + i * 15 for i in range(n)]
            for k in range(p)]
        # Where encode() writes its numbers, in the order it lists them: first those
        # scaled linearly, then the unbounded ones (squashed when scaled).
        at = self._at
        self._value_index = np.array([
            *range(at["discard_counts"].start, at["unseen_counts"].stop),
            *range(at["turns"].start, at["turns"].stop),
            at["stock"].start,
            *range(at["totals"].start, at["totals"].stop),
            at["match"].start, at["match"].start + 1, at["match"].start + 2,
        ], np.intp)
        self._linear = 3 * RANKS + p + 1
        factor, self._squash = self._scales()
        self._factor = np.array(factor, np.float32)
        self._linear_index = self._value_index[:self._linear]
        self._squash_index = self._value_index[self._linear:]
        self.size = start
        low = np.zeros(start, np.float32)
        high = np.zeros(start, np.float32)
        for s in sections:
            low[s.start:s.stop] = s.low
            high[s.start:s.stop] = s.high
        self.low, self.high = low, high

    def _scales(self) -> tuple[list[float], list[float]]:
        """For the scaled observation: the factor of each linearly scaled number (a
        count over the deck's count of its rank, turns over the turn limit, the stock
        over the deck) and the constant ``k`` of each squashed one, ``x / (|x| + k)``
        (totals: ``k`` = 5 points a cell; hole number: the holes of the match, or 10;
        holes: 10; target: 100)."""
        rules = self.rules
        per_rank = [1.0 / max(1, c) for c in self.deck_counts]
        factor = [*per_rank * 3, *[1.0 / rules.turn_limit] * self.players,
                  1.0 / self.deck_size]
        squash = [*[5.0 * self.cells] * self.players, float(rules.holes or 10), 10.0, 100.0]
        return factor, squash

    # --- actions ------------------------------------------------------------------
    def action(self, action_id: int) -> Action:
        """The engine action of an id; a bad id is a :class:`golf.GolfError`."""
        if type(action_id) is int and 0 <= action_id < self.num_actions:
            return self.actions[action_id]
        try:
            i = int(action_id)
        except (TypeError, ValueError):
            raise GolfError(f"an action id is an integer, not {action_id!r}") from None
        if not 0 <= i < self.num_actions:
            raise GolfError(f"action id {i} is out of range: ids run from 0 to "
                            f"{self.num_actions - 1} (see docs/rl.md)")
        return self.actions[i]

    def action_id(self, action: Action | str) -> int:
        """The id of an action or its notation."""
        a = action if isinstance(action, Action) else Action.parse(action)
        i = self._ids[a] if a < len(self._ids) else -1
        if i < 0:
            raise GolfError(f"{a} is off this {self.cells}-cell grid")
        return i

    def mask(self, legal: Iterable[Action]) -> Mask:
        """1 for each legal action id, 0 elsewhere (int8, as Gymnasium samples it)."""
        m = np.zeros(self.num_actions, np.int8)
        ids = self._ids
        for a in legal:
            m[ids[a]] = 1
        return m

    def table(self) -> list[tuple[int, str]]:
        """Every id with its notation (the table in docs/rl.md)."""
        return [(i, str(a)) for i, a in enumerate(self.actions)]

    # --- observations -------------------------------------------------------------
    def section(self, name: str) -> Section:
        return self._at[name]

    def observation(self, name: str, obs: Obs) -> Obs:
        """The stretch of ``obs`` belonging to one section."""
        s = self._at[name]
        return obs[s.start:s.stop]

    def encode(self, view: Mapping[str, Any], out: Obs | None = None) -> Obs:
        """The observation vector of a seat's view (``Game.view(seat, codes=True)``),
        written into ``out`` (a float32 array of :attr:`size`) if given."""
        # Hot path (one call per environment step): gather the indices that hold 1 and
        # the numbers in encode order, then fill a zeroed array in two strokes.
        p, seat = self.players, view["seat"]
        (in_play, own_up, top, held_at, from_at, stock_at, phase_at, act_at, dealer_at,
         knock_at, final_at, match_at, peeked_at) = self._hot_starts
        grids, active = view["grids"], view["active"]
        order = self._orders[seat]
        hot = [in_play + k for k in range(p) if order[k] in active]
        ups = view["face_up"][seat]
        if ups is not None:
            hot += [own_up + i for i in range(self.cells) if ups[i]]
        n = self.cells
        peeked = view["peeked_cells"]
        for k in range(p):
            looked = peeked[order[k]]
            if looked:
                hot += [peeked_at + k * n + i - 1 for i in looked]
        for k in range(p):
            grid = grids[order[k]]
            if grid is not None:
                hot += [off + (14 if c is None else (c & RANK_MASK) - 1)
                        for off, c in zip(self._cell_starts[k], grid, strict=True)]
        discard = view["discard"]
        hot.append(top + ((discard[-1] & RANK_MASK) - 1 if discard else 14))
        held, source = view["held"], view["held_from"]
        stock = view["stock_cards"]
        if held is not None:
            hot.append(held_at + (held & RANK_MASK) - 1)
        else:
            hot.append(held_at + (14 if source is not None else 15))
        if source is not None:
            hot.append(from_at + (0 if source == "stock" else 1))
        counts = [0] * 28  # discard and stock counts by rank, then the unseen ones
        for c in discard:
            counts[(c & RANK_MASK) - 1] += 1
        if stock is not None:
            hot.append(stock_at + 1)
            for c in stock:
                counts[13 + (c & RANK_MASK)] += 1
        counts += unseen_counts(view, self.rules)[1:]  # golf.knowledge: the one definition
        hot.append(phase_at + _PHASE_INDEX[view["phase"]])
        who = view["current_player"]
        if who is not None:
            hot.append(act_at + (who - seat) % p)
        hot.append(dealer_at + (view["dealer"] - seat) % p)
        who = view["knocked_by"]
        if who is not None:
            hot.append(knock_at + (who - seat) % p)
        who = view["final_turns_from"]
        if who is not None:
            hot.append(final_at + (who - seat) % p)
        if view["playoff"]:
            hot.append(match_at + 3)
        if out is None:
            o = np.zeros(self.size, np.float32)
        else:
            o = out
            o.fill(0.0)
        o[hot] = 1.0
        turns, totals = view["turns"], view["totals"]
        counts += [turns[s] for s in order]
        counts.append(view["stock_size"])
        counts += [totals[s] for s in order]
        counts += (view["hole"], view["holes"], self.rules.target)
        o[self._value_index] = counts
        if self.scaled:
            o[self._linear_index] *= self._factor
            o[self._squash_index] = [x / (abs(x) + k) for x, k in
                                     zip(counts[self._linear:], self._squash, strict=True)]
        return o

    # --- the global state -----------------------------------------------------------
    @property
    def state_size(self) -> int:
        """Length of :meth:`encode_state`: the observation layout, then every seat's
        face-up flags."""
        return self.size + self.players * self.cells

    def state_bounds(self) -> tuple[Obs, Obs]:
        """(low, high) of :meth:`encode_state`."""
        extra = self.players * self.cells
        return (np.concatenate([self.low, np.zeros(extra, np.float32)]),
                np.concatenate([self.high, np.ones(extra, np.float32)]))

    def encode_state(self, game: Game) -> Obs:
        """The whole state as one vector, for centralised critics (never for a player):
        the observation layout as seat 0 would see it if every card were face up (the
        stock's cards counted in ``stock_counts``), then each seat's face-up flags in
        seat order, cell by cell."""
        pos = game.position()
        view = game.view(0, codes=True)
        view["grids"] = [grid if seat in pos["active"] else None
                         for seat, grid in enumerate(pos["grids"])]
        held = pos["held"]
        view["held"] = held
        view["stock_cards"] = pos["stock"] + ([held] if pos["held_from"] == "stock" else [])
        ups = np.zeros(self.players * self.cells, np.float32)
        for seat, flags in enumerate(pos["face_up"]):
            if flags is not None and seat in pos["active"]:
                ups[seat * self.cells:(seat + 1) * self.cells] = flags
        return np.concatenate([self.encode(view), ups])


REWARDS = ("hole", "match")
RENDER_MODES = ("human", "ansi", "rgb_array")
OBSERVATIONS = ("scaled", "raw")


def env_rules(
    variant: str | Path | Rules,
    players: int,
    rules: Mapping[str, Any] | None,
    reward: str,
    render_mode: str | None,
    observation: str = "scaled",
) -> Rules:
    """Check the options both environments share and load their rules."""
    if reward not in REWARDS:
        raise GolfError(f"reward must be 'hole' or 'match', got {reward!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise GolfError(f"render_mode must be None, 'human', 'ansi' or 'rgb_array', "
                        f"got {render_mode!r}")
    if observation not in OBSERVATIONS:
        raise GolfError(f"observation must be 'scaled' or 'raw', got {observation!r}")
    loaded = load_rules(variant, rules)
    loaded.check_players(players)
    return loaded


def describe(view: Mapping[str, Any], suits: bool = True) -> str:
    """A seat's view as text, for rendering and OpenSpiel's observation strings
    (``*`` marks the dealer; ``??`` a card this seat cannot see; ``suits=False``
    writes ranks alone, as OpenSpiel's strings do: suits never matter to the rules).

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=4)
    >>> g.apply("reveal 1")
    >>> print(describe(g.view(0, codes=True)))
    six-card hole 1/9 setup, seat 0 to act; seen by seat 0
    seat 0 : 4C  ??  ?? / ??  ??  ??  total 0
    seat 1*: ??  ??  ?? / ??  ??  ??  total 0
    discard KH (1 card), stock 39
    """
    seat, cols = view["seat"], view["cols"]
    holes = f"/{view['holes']}" if view["holes"] else ""
    head = f"{view['variant']} hole {view['hole']}{holes}"
    if view["playoff"]:
        head += " (playoff)"
    who = view["current_player"]
    head += (" over" if who is None else f" {view['phase']}, seat {who} to act")
    lines = [f"{head}; seen by seat {seat}"]
    for s, grid in enumerate(view["grids"]):
        mark = "*" if s == view["dealer"] else " "
        if grid is None:
            lines.append(f"seat {s}{mark}: sits out")
            continue
        cells = [("??" if c is None else card_str(c, suits)).ljust(3) for c in grid]
        rows = [" ".join(cells[i:i + cols]).rstrip() for i in range(0, len(cells), cols)]
        extra = ""
        if view["knocked_by"] == s:
            extra = ", knocked"
        elif view["final_turns_from"] == s:
            extra = ", went out"
        lines.append(f"seat {s}{mark}: {' / '.join(rows)}  total {view['totals'][s]}{extra}")
    pile = view["discard"]
    top = card_str(pile[-1], suits) if pile else "empty"
    lines.append(f"discard {top} ({len(pile)} card{'s' * (len(pile) != 1)}), "
                 f"stock {view['stock_size']}")
    if view["held_from"] is not None:
        held = "a card" if view["held"] is None else card_str(view["held"], suits)
        lines.append(f"seat {view['held_by']} holds {held} from the {view['held_from']}")
    if view["is_over"]:
        lines.append(f"match over: winners {view['winners']}")
    return "\n".join(lines)
