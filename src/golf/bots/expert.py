"""The ``expert`` bot: expected-value play with card counting.

The expert knows the distribution of the cards it has not seen (see
:mod:`golf.bots.counting`) and values every option by the expected total of its own
grid afterwards, computed with the engine's scorer (:mod:`golf.bots.estimate`):

* on its turn it compares taking the discard (placed where it helps most), drawing
  (the expectation, over every card it might draw, of the best thing to do with it),
  knocking and flipping instead of drawing;
* it charges each option for the card it leaves on the discard pile: what that card
  would give the next player beyond an ordinary draw (it does not feed an opponent
  the match they are waiting for);
* it completes its grid or knocks when its final score beats what it expects the
  best opponent to finish with after their last turn; when behind it goes out only
  if carrying on looks worse still; in its own final turn it minimises its expected
  score;
* after discarding it flips a card (learning it) while more than one stays face
  down, and where a flip is compulsory it turns the card it least expects to
  replace later.

Options: ``memory`` (0-1) is the chance of remembering each peeked card and each
card below the top of the discard pile; ``noise`` (points) is the standard
deviation of a random error added to each option's value. ``docs/bots.md`` lists
the levels to pick. The weights the values are built from (``margin``, ``w_def``,
...) come per preset from :mod:`golf.expert_weights` and may be overridden
too, for tuning (``expert:w_def=0.5``; ``docs/tuning.md``).

Decisions depend only on the view (and the bot's seed): the numbers worked out
when a turn starts are kept and reused for the rest of that turn only when the
view gives exactly the same inputs.

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=11)
>>> bots = [make_bot("expert", g.rules, seed=s) for s in (1, 2)]
>>> while g.hole == 1:
...     seat = g.current_player
...     g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
>>> len(g.hole_scores), g.hole_scores[0][0] < 30
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import repeat
from math import fsum
from operator import add, mul
from typing import Any, ClassVar

from ..actions import (
    CELL_MASK,
    DISCARD,
    DRAW,
    K_FLIP,
    K_SWAP,
    KIND_SHIFT,
    KNOCK,
    PASS,
    TAKE,
    Action,
)
from ..cards import ACE, RANK_MASK, card_str
from ..errors import GolfError
from ..expert_weights import DEFAULTS, WEIGHTS, check_weight, weights
from ..hashing import mix
from ..rules import Rules
from .base import Bot, Option, register
from .counting import PEEK, draws, remembers, unseen
from .estimate import RADIX, Evaluation, estimator

INF = float("inf")
#: Added to an ending move that is not worth it, so that it is played only when
#: nothing else is legal.
BAD_END = 1000.0

Choice = tuple[float, Action, float, str]  # utility, action, expected total, reason


class _Seat:
    """What the bot knows of one grid: ranks (0 = unknown) and face-down cells."""

    __slots__ = ("down", "ranks", "replace")

    def __init__(self, ranks: list[int], down: list[int], replace: Sequence[int]) -> None:
        self.ranks = ranks
        self.down = down  # face-down cells
        self.replace = replace  # cells a held card may be swapped into


@register
class ExpertBot(Bot):
    """Expected-value play with card counting; see the module docs."""

    name = "expert"
    defaults: ClassVar[Mapping[str, Any]] = {"memory": 1.0, "noise": 0.0, **DEFAULTS}

    # The weights (golf.expert_weights has what each means and its values per
    # preset); a spec may override any of them, e.g. ``expert:w_def=0.5``.
    margin: float
    end_bonus: float
    knock_bonus: float
    keep_down: int
    w_gain: float
    w_behind: float
    flip_info: float
    w_def: float
    patience: int
    hurry: float
    peek_bias: float

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        memory = float(self.options["memory"])
        noise = float(self.options["noise"])
        if not 0.0 <= memory <= 1.0:
            raise GolfError(f"bot 'expert': memory must be between 0 and 1, got {memory}")
        if noise < 0.0:
            raise GolfError(f"bot 'expert': noise must be 0 or more points, got {noise}")
        self.memory = memory
        self.noise = noise
        # The rules' weights, with the spec's on top; spec names only what differs
        # from the rules' own weights.
        self._base = {"memory": 1.0, "noise": 0.0, **weights(rules)}
        for key in WEIGHTS:
            value = check_weight(key, options[key]) if key in options else self._base[key]
            setattr(self, key, value)
            self.options[key] = value
        self.est = estimator(rules)
        r = rules
        self._end_first = r.end_on_complete == "first"
        self._final_turns = r.final_turns
        self._must_flip = r.flip_after_discard == "must"
        self._no_flip = r.flip_after_discard == "never"
        self._peeks = r.setup_count if r.setup == "peek" else 0
        self._w_def = self.w_def
        self._memo_key: tuple[Any, ...] | None = None
        self._memo: _Context | None = None

    @property
    def spec(self) -> str:
        changed = {k: v for k, v in self.options.items() if self._base.get(k) != v}
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in changed.items())
                            if changed else "")

    # --- the interface -----------------------------------------------------------
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        best: Choice | None = None
        for option in self._options(view, legal):
            if best is None or option[0] < best[0]:
                best = option
        assert best is not None
        return best[1]

    def explain(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[Option]:
        """Every legal action, best first (the first is what :meth:`choose` plays),
        with the value it is chosen by and that value's parts: the expected total of
        our grid after it, what the card it leaves on the discard pile gives the next
        player, and the preferences for going out, knocking and learning a card.

        Values are rounded to tenths and each option's parts, rounded the same way,
        add up to its value; an ending move that is not worth it has no value (it is
        played only when nothing else is legal)."""
        options = self._options(view, legal, reasons=True)
        order = sorted(range(len(options)), key=lambda k: (options[k][0], k))
        if view["phase"] == "setup":
            return [Option(options[k][1], round(options[k][2], 2), options[k][3])
                    for k in order]
        ctx = self._context(view)
        return [self._explained(ctx, options[k]) for k in order]

    def _explained(self, ctx: _Context, choice: Choice) -> Option:
        """One option with its value split into the parts it is made of."""
        u, a, e, why = choice
        if u >= BAD_END / 2:
            return Option(a, round(e, 2), why, None, (("your grid", round(e, 1)),))
        raw = [("your grid", e)]
        gift = self._gift(ctx, a)
        if gift is not None and abs(gift) >= 0.05:
            raw.append(("next player's gain", gift))
        rest = u - sum(p for _, p in raw)
        if abs(rest) >= 0.05:
            raw.append((self._rest_label(ctx, a, rest), rest))
        value = round(u, 1)
        parts = [(what, round(p, 1)) for what, p in raw]
        # Rounded parts must add up to the rounded value: the grid takes the tenth
        # that rounding each part separately may lose or gain.
        slack = round(value - sum(p for _, p in parts), 1)
        parts[0] = (parts[0][0], round(parts[0][1] + slack, 1))
        return Option(a, round(e, 2), why, value, tuple(parts))

    def _gift(self, ctx: _Context, a: Action) -> float | None:
        """What the card ``a`` leaves on the discard pile gives the next player
        (None where it is an average over cards not yet known)."""
        if a >> KIND_SHIFT == K_SWAP:
            return None if a & CELL_MASK == ctx.end_cell else ctx.offsets()[a & CELL_MASK]
        if a == DISCARD and not ctx.final and ctx.end_cell < 0:
            return ctx.weighted_threat()[ctx.held]
        return None

    def _rest_label(self, ctx: _Context, a: Action, rest: float) -> str:
        """What the part of a value beyond the grid and the gift stands for."""
        if a == KNOCK:
            return "knocking ahead"
        if a == DRAW:
            return "pile and flips after it"
        if a == TAKE:
            return "next player's gain"
        positional = a >> KIND_SHIFT in (K_SWAP, K_FLIP)
        ending = ctx.end_cell >= 0 and (
            a == DISCARD or (positional and a & CELL_MASK == ctx.end_cell))
        if ending:
            return "going out ahead" if rest < 0 else "going out behind"
        if a == DISCARD and rest < 0:
            return "what a flip teaches"
        if self.noise:
            return "noise"
        return "tie-break"

    def reset(self) -> None:
        self._memo_key = None
        self._memo = None

    # --- options -------------------------------------------------------------------
    def _options(
        self, view: Mapping[str, Any], legal: Sequence[Action], reasons: bool = False,
    ) -> list[Choice]:
        if not legal:
            raise GolfError("the bot was asked to move but no action is legal")
        phase = view["phase"]
        if phase == "setup":
            return self._setup(view, legal)
        if phase == "flip" and not reasons:
            quick = self._quick_flip(view, legal)
            if quick is not None:
                return self._noisy(view, quick)
        ctx = self._context(view)
        if phase == "turn":
            out = ctx.turn(legal, reasons)
        elif phase == "hold":
            out = ctx.hold(legal, reasons)
        else:
            out = ctx.flip(legal, reasons)
        return self._noisy(view, out)

    def _noisy(self, view: Mapping[str, Any], out: list[Choice]) -> list[Choice]:
        if self.noise > 0.0 and len(out) > 1:
            rng = random.Random(self._seed(view, 2))
            out = [(u + rng.gauss(0.0, self.noise), a, e, w) for u, a, e, w in out]
        return out

    def _quick_flip(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[Choice] | None:
        """The optional flip after a discard, when it cannot end the round: the
        options differ only by the small preferences of :meth:`_Context.flip`, which
        need no expectations (all are relative to the same expected total, taken as 0
        here). None where the full valuation is needed."""
        if self._must_flip or self.memory < 1.0:
            return None
        seat = view["seat"]
        down = view["face_up"][seat].count(False)
        final = view["final_turns_from"] is not None or view["knocked_by"] is not None
        if final or (self._end_first and down == 1):
            return None
        grid = view["grids"][seat]
        est = self.est
        out: list[Choice] = []
        for a in legal:
            if a == PASS:
                out.append((0.0, a, 0.0, ""))
            elif down - 1 < self.keep_down:
                out.append((0.01, a, 0.0, ""))
            else:
                cell = a & CELL_MASK
                known = sum(1 for i in est.comps[est.comp_of[cell]] if grid[i] is not None)
                out.append((-0.01 + 1e-4 * (known + 0.01 * cell), a, 0.0, ""))
        return out

    def _seed(self, view: Mapping[str, Any], tag: int) -> int:
        """A seed for one decision's random draws: a function of the view alone."""
        return mix(self.seed, view["hole"], sum(view["turns"]), tag, len(view["discard"]),
                   view["stock_size"])

    def _setup(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[Choice]:
        # Look at cards in different components (columns): each known card is then
        # a target that a later card can match.
        known = view["grids"][view["seat"]]
        est = self.est
        taken = [0] * len(est.comps)
        for i, c in enumerate(known):
            if c is not None:
                taken[est.comp_of[i]] += 1
        out = []
        for a in legal:
            cell = a & CELL_MASK
            comp = est.comp_of[cell]
            share = taken[comp] / len(est.comps[comp])
            out.append((share + cell * 1e-3, a, 0.0,
                        "a card in a part of the grid with the fewest known cards"))
        return out

    def _context(self, view: Mapping[str, Any]) -> _Context:
        """Read the view; reuse the numbers of the turn's start when nothing they
        depend on has changed (the same grids, and the same discard pile once a
        taken card is counted back onto it)."""
        held = view["held"]
        pile = view["discard"]
        final = view["final_turns_from"] is not None or view["knocked_by"] is not None
        # A card drawn from the stock is valued as the turn's start valued it, as one
        # of the unseen cards, except in our last turn, where there is no next turn
        # to be consistent with and expectations are exact, and after a reshuffle,
        # when the stock's cards are public and not among the unseen ones.
        pooled = (held is not None and view["held_from"] == "stock" and not final
                  and view["stock_cards"] is None)
        if held is not None and not pooled:
            pile = [*pile, held]
        turns = view["turns"][view["seat"]]
        key = (view["hole"], view["seat"], view["players"], final, turns, tuple(pile),
               *[None if g is None else tuple(g) for g in view["grids"]],
               *[None if u is None else tuple(u) for u in view["face_up"]])
        ctx = self._memo
        if ctx is None or key != self._memo_key:
            ctx = self._read(view, pooled, final, len(pile))
            late = turns - self.patience
            if late > 0:
                ctx.margin -= self.hurry * late
            self._memo_key = key
            self._memo = ctx
        top = view["discard_top"]
        ctx.top = 0 if top is None else top & RANK_MASK
        ctx.held = 0 if held is None else held & RANK_MASK
        ctx.held_pooled = pooled
        return ctx

    def _read(self, view: Mapping[str, Any], pooled: bool, final: bool, pile: int) -> _Context:
        seat = view["seat"]
        hole = view["hole"]
        memory, seed = self.memory, self.seed
        counts = unseen(view, self.rules, memory, seed)
        if pooled:
            counts[view["held"] & RANK_MASK] += 1
        me: _Seat | None = None
        opps: list[tuple[int, _Seat]] = []
        players = view["players"]
        for s, grid in enumerate(view["grids"]):
            if grid is None:
                continue
            up = view["face_up"][s]
            ranks = [0 if c is None else c & RANK_MASK for c in grid]
            down = [i for i, u in enumerate(up) if not u]
            if s == seat and memory < 1.0:
                for i in down:
                    if ranks[i] and not remembers(memory, seed, hole, PEEK, i, grid[i]):
                        ranks[i] = 0
            replace = self.rules.replaceable(up)
            if s == seat:
                me = _Seat(ranks, down, replace)
            else:
                # in playing order: the next player first
                opps.append(((s - seat) % players, _Seat(ranks, down, replace)))
        assert me is not None, "the view has no grid for its own seat"
        opps.sort(key=lambda p: p[0])
        # Sampling draws depend on the turn, not on whether a card is already held.
        seed = mix(self.seed, hole, sum(view["turns"]), pile, view["stock_size"] + pooled)
        return _Context(self, me, [o for _, o in opps], counts, seed, final,
                        draws(view, self.rules))


class _Context:
    """One turn's knowledge and the numbers that value its options (computed when
    first needed)."""

    __slots__ = (
        "_discards", "_ends", "_off", "_opp", "_pairs", "_parts", "_threat", "_tw", "bot",
        "draws", "end_cell", "ev", "final", "held", "held_pooled", "margin", "me", "n_draws",
        "opps", "pooled", "top", "total",
    )

    def __init__(
        self, bot: ExpertBot, me: _Seat, opps: list[_Seat], counts: list[int], seed: int,
        final: bool, stock: list[int] | None = None,
    ) -> None:
        self.bot = bot
        self.me = me
        self.opps = opps
        self.final = final  # someone went out or knocked: this is our last turn
        self.ev = Evaluation(bot.est, counts, seed=seed)
        # What a draw gives: one of the unseen cards (which then no longer fills a
        # face-down cell: "pooled"), or, from a public stock, one of its cards.
        if stock is None:
            self.draws, self.pooled = self.ev.counts, True
        else:
            self.draws, self.pooled = stock, False
        self.n_draws = sum(self.draws)
        self.total = self.ev.grid(me.ranks)
        # The cell whose filling would complete our grid and end the round.
        end = not final and bot._end_first and len(me.down) == 1
        self.end_cell = me.down[0] if end else -1
        self._parts: dict[int, tuple[Sequence[float], float]] = {}
        # rules where every component is a pair of cells: all cells' parts at once
        self._pairs = self.ev.pair_parts(me.ranks) if bot.est.all_pairs else None
        self._ends: list[tuple[float, float]] | None = None
        self._opp: list[tuple[float, float, list[float]]] | None = None
        self._threat: list[float] | None = None
        self._tw: list[float] | None = None
        self._off: list[float] | None = None
        self._discards: list[float] | None = None
        self.top = 0
        self.held = 0
        self.held_pooled = False
        self.margin = bot.margin

    # --- our grid ------------------------------------------------------------------
    def part(self, cell: int, pooled: bool) -> tuple[Sequence[float], float]:
        """The expected total after each rank goes to ``cell``, as (vector, base):
        see :meth:`Evaluation.parts`."""
        pp = self._pairs
        if pp is not None:
            p = pp[cell]
            return (p[0] if pooled else p[1]), p[2]
        key = cell * 2 + pooled
        q = self._parts.get(key)
        if q is None:
            q = self._parts[key] = self.ev.parts(self.me.ranks, cell, pooled)
        return q

    def value(self, cell: int, pooled: bool, rank: int) -> float:
        """Expected total after a card of ``rank`` goes to ``cell``."""
        pp = self._pairs
        if pp is not None:
            p = pp[cell]
            return p[2] + (p[0] if pooled else p[1])[rank]
        if pooled:
            vec, base = self.part(cell, pooled)
            return base + vec[rank]
        return self.ev.value(self.me.ranks, cell, rank, False)

    def utility(self, cell: int, pooled: bool, rank: int) -> float:
        """Utility of putting a card of ``rank`` into ``cell``."""
        e = self.value(cell, pooled, rank)
        if cell == self.end_cell:
            return self.end_utility(e, self.me.ranks[cell])
        return e + self.offsets()[cell]

    def offsets(self) -> list[float]:
        """For each cell, what replacing it costs us through the card it puts on the
        discard pile."""
        off = self._off
        if off is None:
            tw = self.weighted_threat()
            off = self._off = [tw[r] for r in self.me.ranks]
        return off

    def cell_vectors(self, pooled: bool) -> list[list[float]]:
        """Utility vectors (by rank) of the placements, cells that share a vector
        merged: the best of them is the one with the lowest base."""
        groups: dict[int, tuple[Sequence[float], float]] = {}
        end = self.end_cell
        off = self.offsets()
        for cell in self.me.replace:
            if cell == end:
                continue
            vec, base = self.part(cell, pooled)
            const = base + off[cell]
            g = groups.get(id(vec))
            if g is None or const < g[1]:
                groups[id(vec)] = (vec, const)
        out = [list(map(add, v, repeat(c, RADIX))) for v, c in groups.values()]
        if end >= 0 and end in self.me.replace:
            vec, base = self.part(end, pooled)
            old = self.me.ranks[end]
            out.append(self.end_utilities([base + v for v in vec], old))
        return out

    def discards(self) -> list[float]:
        """Utility of discarding a card of each rank (and then flipping or not)."""
        d = self._discards
        if d is None:
            d = self._discards = self._discard_utilities()
        return d

    def _discard_utilities(self) -> list[float]:
        bot, me, total = self.bot, self.me, self.total
        tw = self.weighted_threat()
        if bot._no_flip or not me.down or self.final:
            return list(map(add, tw, repeat(total, RADIX)))
        if self.end_cell >= 0:
            # The flip would be of our last face-down card: going out blind.
            ends = [self.end_utility(total, x) for x in range(RADIX)]
            if bot._must_flip:
                return ends
            return list(map(min, ends, map(add, tw, repeat(total, RADIX))))
        if not bot._must_flip and len(me.down) - 1 >= bot.keep_down:
            total -= bot.flip_info
        return list(map(add, tw, repeat(total, RADIX)))

    # --- the opponents ---------------------------------------------------------------
    def opponent(self, k: int) -> tuple[float, float, list[float]]:
        """Opponent ``k`` (0: the next to play) as we see them: expected total, the
        expected gain of a draw, and the expected total after taking each rank."""
        models = self._opp
        if models is None:
            models = self._opp = []
        while len(models) <= k:
            o = self.opps[len(models)]
            sub = self.ev.fork()
            e = sub.grid(o.ranks)
            groups: dict[int, tuple[Sequence[float], float]] = {}
            pp = sub.pair_parts(o.ranks) if self.bot.est.all_pairs else None
            for cell in o.replace:
                if pp is not None:
                    _, vec, base = pp[cell]
                else:
                    vec, base = sub.parts(o.ranks, cell, False)
                g = groups.get(id(vec))
                if g is None or base < g[1]:
                    groups[id(vec)] = (vec, base)
            vecs = [list(map(add, v, repeat(c, RADIX))) for v, c in groups.values()]
            if not vecs:
                take = [e] * RADIX
            elif len(vecs) == 1:
                take = vecs[0]
            else:
                take = list(map(min, *vecs))
            c, n = self.draws, self.n_draws
            draw = fsum(map(mul, c, map(min, take, repeat(e, RADIX)))) / n if n else e
            if self.bot._peeks:
                # their face-down cards include the ones they looked at and kept
                unknown = sum(1 for r in o.ranks if not r)
                bias = self.bot.peek_bias * min(unknown, self.bot._peeks)
                if bias:
                    e, draw = e - bias, draw - bias
                    take = [v - bias for v in take]
            models.append((e, e - draw, take))
        return models[k]

    def threat(self) -> list[float]:
        """For each rank (index 0: a card unknown to us), how much more the next
        player gains by taking it from the discard pile than by drawing."""
        t = self._threat
        if t is None:
            if self.final or not self.opps:
                t = [0.0] * RADIX
            else:
                e, gain, take = self.opponent(0)
                floor = e - gain
                t = [d if d > 0.0 else 0.0 for d in map(floor.__sub__, take)]
                c, n = self.ev.counts, self.ev.n
                t[0] = fsum(map(mul, c, t)) / n if n else 0.0
            self._threat = t
        return t

    def weighted_threat(self) -> list[float]:
        tw = self._tw
        if tw is None:
            w = self.bot._w_def
            tw = self._tw = [w * t for t in self.threat()] if w else [0.0] * RADIX
        return tw

    def opponents_final(self, top: int) -> tuple[float, float]:
        """(total, gain): the lowest total an opponent is expected to finish with if
        we end the round leaving ``top`` (0: unknown) on the pile, and how much of
        it their last turn gains."""
        ends = self._ends
        if ends is None:
            ends = self._ends = self._opponents_final()
        return ends[top]

    def _opponents_final(self) -> list[tuple[float, float]]:
        if not self.opps:
            return [(self.total + 1000.0, 0.0)] * RADIX  # solitaire: nobody to lose to
        turns = self.bot._final_turns
        rest = INF, 0.0
        for k in range(1, len(self.opps)):
            e, gain, _ = self.opponent(k)
            if not turns:
                gain = 0.0
            if e - gain < rest[0]:
                rest = (e - gain, gain)
        e, gain, take = self.opponent(0)
        out = []
        for top in range(RADIX):
            g = 0.0
            if turns:
                g = gain
                if top and e - take[top] > g:
                    g = e - take[top]
            out.append((e - g, g) if e - g < rest[0] else rest)
        return out

    def end_utility(self, final: float, top: int) -> float:
        """Utility of ending the round with an expected ``final`` total of our own."""
        bot = self.bot
        opp, gain = self.opponents_final(top)
        if final <= opp - self.margin:
            return final - bot.end_bonus
        return final + bot.w_gain * gain + bot.w_behind * (final - opp)

    def end_utilities(self, finals: list[float], top: int) -> list[float]:
        """:meth:`end_utility` of each of ``finals``, all leaving ``top``."""
        bot = self.bot
        opp, gain = self.opponents_final(top)
        line = opp - self.margin
        bonus = bot.end_bonus
        extra = bot.w_gain * gain - bot.w_behind * opp
        slope = 1.0 + bot.w_behind
        return [f - bonus if f <= line else f * slope + extra for f in finals]

    # --- the phases ----------------------------------------------------------------
    def turn(self, legal: Sequence[Action], reasons: bool) -> list[Choice]:
        out: list[Choice] = []
        total, top = self.total, self.top
        for a in legal:
            if a == TAKE:
                if top:
                    u, e, why = self.best_use(top, pooled=False, reasons=reasons)
                    out.append((u, a, e, f"take the {_name(top)}: {why}" if reasons else ""))
            elif a == DRAW:
                u, e = self.draw(reasons)
                why = f"draw: expected gain {total - e:.1f}" if reasons else ""
                out.append((u, a, e, why))
            elif a == KNOCK:
                opp, _ = self.opponents_final(top)
                if total <= opp - self.margin:
                    u = total - self.bot.knock_bonus
                    why = f"knock: expect {total:.1f} against the best opponent's {opp:.1f}"
                else:
                    u = total + BAD_END
                    why = f"do not knock yet: expect {total:.1f}, best opponent {opp:.1f}"
                out.append((u, a, total, why if reasons else ""))
            elif a >> KIND_SHIFT == K_FLIP:
                cell = a & CELL_MASK
                if cell == self.end_cell:
                    u = self.end_utility(total, top)
                    why = "flip the last card instead of drawing, going out"
                else:
                    u = total + 0.01  # flipping instead of drawing forgoes the draw
                    why = "flip instead of drawing"
                out.append((u, a, total, why if reasons else ""))
        if not out:  # only a take without a visible discard: cannot happen in the engine
            out.append((total, legal[0], total, ""))
        return out

    def hold(self, legal: Sequence[Action], reasons: bool) -> list[Choice]:
        held, pooled = self.held, self.held_pooled
        out: list[Choice] = []
        for a in legal:
            if a == DISCARD:
                u = self.discards()[held]
                out.append((u, a, self.total, f"discard the {_name(held)}" if reasons else ""))
            elif a >> KIND_SHIFT == K_SWAP:
                cell = a & CELL_MASK
                e = self.value(cell, pooled, held)
                u = self.utility(cell, pooled, held)
                why = self.swap_reason(cell, held, e) if reasons else ""
                out.append((u, a, e, why))
        return out

    def flip(self, legal: Sequence[Action], reasons: bool) -> list[Choice]:
        out: list[Choice] = []
        total = self.total
        bot, me = self.bot, self.me
        for a in legal:
            if a == PASS:
                out.append((total, a, total, "keep the face-down cards" if reasons else ""))
                continue
            cell = a & CELL_MASK
            if cell == self.end_cell:
                u = self.end_utility(total, self.top)
                why = f"flip position {cell + 1}, going out"
            elif self.final:
                u, why = total, f"flip position {cell + 1}"
            elif not bot._must_flip:
                if len(me.down) - 1 < bot.keep_down:
                    u, why = total + 0.01, "flipping would leave too few cards face down"
                else:
                    # learn about a part of the grid we know least
                    u = total - 0.01 + 1e-4 * (self._known_near(cell) + 0.01 * cell)
                    why = f"flip position {cell + 1} to learn it"
            else:
                # keep face down (replaceable) the cards a later swap would improve most
                u = total + 1e-3 * self._keep_value(cell) + 1e-6 * cell
                why = f"flip position {cell + 1}: the card least worth keeping replaceable"
            out.append((u, a, total, why if reasons else ""))
        return out

    def _known_near(self, cell: int) -> int:
        est = self.ev.est
        ranks = self.me.ranks
        return sum(1 for i in est.comps[est.comp_of[cell]] if ranks[i])

    def _keep_value(self, cell: int) -> float:
        """The expected gain of swapping an unseen card into ``cell`` later."""
        c, n, total = self.draws, self.n_draws, self.total
        if not n:
            return 0.0
        vec, base = self.part(cell, self.pooled)
        return fsum(c[x] * max(0.0, total - base - vec[x]) for x in range(1, RADIX) if c[x]) / n

    # --- valuing a card --------------------------------------------------------------
    def best_use(self, rank: int, pooled: bool, reasons: bool) -> tuple[float, float, str]:
        """(utility, expected total, reason) of the best use of a card we must place
        (or, where allowed, discard again)."""
        best_u, best_e, best_cell = INF, INF, -1
        ranks, end = self.me.ranks, self.end_cell
        off = self.offsets()
        value = self.value
        for cell in self.me.replace:
            e = value(cell, pooled, rank)
            u = self.end_utility(e, ranks[cell]) if cell == end else e + off[cell]
            if u < best_u:
                best_u, best_e, best_cell = u, e, cell
        if self.bot.rules.return_taken:
            u = self.discards()[rank]
            if u < best_u:
                return u, self.total, "then discard it again"
        why = self.swap_reason(best_cell, rank, best_e) if reasons and best_cell >= 0 else ""
        return best_u, best_e, why

    def draw(self, reasons: bool) -> tuple[float, float]:
        """(utility, expected total) of drawing and then using the card best."""
        c, n, pooled = self.draws, self.n_draws, self.pooled
        if not n:
            return INF, self.total
        vecs = [self.discards(), *self.cell_vectors(pooled)]
        best = map(min, *vecs) if len(vecs) > 1 else vecs[0]
        u = fsum(map(mul, c, best)) / n
        if not reasons:
            return u, 0.0
        # the expected total behind the utility, for the hint
        discards = vecs[0]
        expected = 0.0
        for x in range(1, RADIX):
            if c[x]:
                best_u, e = discards[x], self.total
                for cell in self.me.replace:
                    v = self.utility(cell, pooled, x)
                    if v < best_u:
                        best_u, e = v, self.value(cell, pooled, x)
                expected += c[x] * e
        return u, expected / n

    def swap_reason(self, cell: int, rank: int, expected: float) -> str:
        ranks = self.me.ranks
        old = ranks[cell]
        what = f"the {_name(old)}" if old else "a face-down card"
        text = f"swap into position {cell + 1} for {what}"
        est = self.ev.est
        comp = est.comps[est.comp_of[cell]]
        trial = list(ranks)
        trial[cell] = rank
        if len(comp) > 1 and all(trial[i] for i in comp):
            grid = [ACE] * est.cells
            for i in comp:
                grid[i] = trial[i]
            labels = [m.label for m in est.scorer.score(grid).matches if cell + 1 in m.cells]
            if labels:
                text += f", matching {' and '.join(labels)}"
        if cell == self.end_cell:
            text += ", going out"
        return text


def _name(rank: int) -> str:
    return card_str(rank, suits=False)
