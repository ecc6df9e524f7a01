"""Determinized search, compiled: what the ``search`` bot runs at each decision.

One *simulation* is one sampled world and one root action: the world is a copy of a
template state with the seat's unknown cards dealt at random into their slots (each
group of slots takes a shuffle of its own cards, see :mod:`golf.bots.search`); the
action is played, then every seat plays a compiled playout policy to the end of the
hole. Every root action in a call is tried in the same worlds with the same chance
afterwards (common random numbers), so the difference between two actions' means is
measured with far less noise than their means.

Playout policies (``policy`` argument of :func:`simulate`):

* :data:`P_GREEDY` (``fast-greedy``): the compiled greedy policy of
  :mod:`golf.fast.policies` (not the ``greedy`` bot: another estimate of unknown cards);
* :data:`P_EXPERT`: the compiled expert of :mod:`golf.fast.expert` (card counting,
  expected values; about three times greedy's cost). The config given to
  :func:`simulate` must then be :func:`golf.fast.expert.expert_config`'s;
* :data:`P_CAREFUL`: greedy, except that it does not complete its
  grid (ending the hole, where completing ends it for everyone) unless its exact score
  then beats each opponent's estimate (face-up cards, face-down ones at the deck's
  mean) by :data:`OUT_LEAD` hundredths; otherwise it plays the best other swap, or
  discards. Greedy goes out whenever a swap lowers its estimate, which in a playout
  throws holes away and makes the search misjudge every hole end.

The value of a simulation is the seat's margin over its best opponent after the hole,
in hundredths of a point (lower totals are better), plus :data:`WIN_BONUS` points when
the hole ends the match and the seat is among the winners. A playout may also stop after
a number of turns (``turns``) and value the position by estimates instead
(:func:`estimate_value`): less noise and faster, at the price of the estimate's bias.
All sums are integers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..actions import K_SWAP
from ..phases import HOLD, OVER, TURN
from ._jit import jit
from .expert import expert_action
from .layout import (
    C_CELLS,
    C_END,
    C_FULL,
    C_HOLES,
    C_O_GRIDS,
    C_O_PEEKED,
    C_O_TOTALS,
    C_O_UP,
    C_PLAYERS,
    C_TARGET,
    CELL_MASK,
    CHANCE_RNG,
    DEAL,
    END_FIRST,
    KIND_SHIFT,
    S_ACTIVE,
    S_CHANCE,
    S_CUR,
    S_ENDER,
    S_HELD,
    S_HOLES_ENDED,
    S_N_REGULAR,
    S_PHASE,
    S_PLAYOFF,
    S_WINNERS,
)
from .machine import DISCARD_CODE, MAX_LEGAL, below, legal_actions, next_u64, resume_deal, step
from .policies import greedy_action, grid_estimate, mean_points

Ints = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]
#: Points a simulation adds when its hole ends the match with the seat among the winners.
WIN_BONUS = 30
#: Playout policies of :func:`simulate`.
P_GREEDY, P_CAREFUL, P_EXPERT = 0, 1, 2
PLAYOUTS = {"fast-greedy": P_GREEDY, "careful": P_CAREFUL, "expert": P_EXPERT}
#: How far (hundredths of a point) the careful policy's exact score must beat each
#: opponent's estimate before it completes its grid.
OUT_LEAD = 100
#: ``1000 (2 Phi(z) - 1)`` for ``z = 0, 0.1, ..., 4.0`` (Phi the standard normal
#: distribution), written out so that no platform's ``erf`` enters a value.
_LEAD_TO_WIN = np.array([
    0, 80, 159, 236, 311, 383, 451, 516, 576, 632, 683, 729, 770, 806, 838, 866, 890, 911,
    928, 943, 954, 964, 972, 979, 984, 988, 991, 993, 995, 996, 997, 998, 999, 999, 999,
    1000, 1000, 1000, 1000, 1000, 1000], dtype=np.int64)


@jit
def deal_world(st: Ints, template: Ints, slots: Ints, cards: Ints, ends: Ints, rng: Rng,
               work: Ints) -> None:
    """``st`` becomes ``template`` with each group's cards shuffled into its slots
    (group ``g`` is ``slots[ends[g-1]:ends[g]]`` and the same range of ``cards``)."""
    st[:] = template
    start = 0
    for g in range(ends.shape[0]):
        end = ends[g]
        for i in range(start, end):
            work[i] = cards[i]
        for i in range(end - 1, start, -1):  # Fisher-Yates
            j = start + below(rng, i - start + 1)
            work[i], work[j] = work[j], work[i]
        for i in range(start, end):
            st[slots[i]] = work[i]
        start = end


@jit
def hole_value(st: Ints, cfg: Ints, seat: int) -> int:
    """The seat's margin over its best opponent (totals), plus the win bonus at the end."""
    o_tot = cfg[C_O_TOTALS]
    best = 1 << 40
    for s in range(cfg[C_PLAYERS]):
        if s != seat and st[o_tot + s] < best:
            best = st[o_tot + s]
    mine = st[o_tot + seat]
    if cfg[C_PLAYERS] == 1:
        best = 0
    v = best - mine
    if st[S_PHASE] == OVER and st[S_WINNERS] >> seat & 1:
        v += WIN_BONUS
    return int(v)


@jit
def _isqrt(n: int) -> int:
    """The integer square root of ``n`` >= 0 (Newton's method on integers)."""
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


@jit
def match_value(st: Ints, cfg: Ints, seat: int, sigma: int) -> int:
    """:func:`hole_value` in hundredths with the match in view: the margin, plus half
    the :data:`WIN_BONUS` times ``2 P(win) - 1`` under a normal model of the holes left
    (each hole moving the margin by ``sigma`` hundredths of a point, standard
    deviation). At the match's end that is the win bonus itself (up to a constant); a
    target match or a playoff, whose length is not known, gets the margin alone."""
    v = 100 * hole_value(st, cfg, seat)
    if st[S_PHASE] == OVER or cfg[C_TARGET] or st[S_PLAYOFF]:
        return int(v)
    left = cfg[C_HOLES] - st[S_N_REGULAR]
    if left <= 0 or sigma <= 0:
        return int(v)
    spread = sigma * _isqrt(left * 10_000) // 100  # sigma sqrt(left), hundredths
    z10 = abs(v) * 10 // max(spread, 1)
    t = _LEAD_TO_WIN[min(z10, 40)]
    half = WIN_BONUS * 50
    return int(v + (half * t // 1000 if v >= 0 else -(half * t // 1000)))


@jit
def _worth_going_out(st: Ints, cfg: Ints, seat: int, cell: int, ranks: Ints) -> bool:
    """Whether the held card swapped into ``cell`` (the seat's last face-down cell) leaves
    an exact score that beats every opponent's estimate by :data:`OUT_LEAD`."""
    mean = mean_points(cfg)
    full = cfg[C_FULL]
    grid = cfg[C_O_GRIDS] + seat * cfg[C_CELLS]
    old = st[grid + cell]
    st[grid + cell] = st[S_HELD]
    mine = grid_estimate(st, cfg, seat, full, ranks, mean)
    st[grid + cell] = old
    for s in range(cfg[C_PLAYERS]):
        if s != seat and st[S_ACTIVE] >> s & 1:
            theirs = grid_estimate(st, cfg, s, st[cfg[C_O_UP] + s], ranks, mean)
            if mine + OUT_LEAD > theirs:
                return False
    return True


@jit
def _stay_in(st: Ints, cfg: Ints, seat: int, cell: int, legal: Ints, n: int,
             ranks: Ints) -> int:
    """The best action that does not complete the grid: a swap into a face-up cell
    (other than ``cell``) that lowers the seat's estimate most, or the discard when
    allowed and no swap lowers it; ``cell`` itself when nothing else is legal."""
    mean = mean_points(cfg)
    grid = cfg[C_O_GRIDS] + seat * cfg[C_CELLS]
    seen = st[cfg[C_O_UP] + seat] | st[cfg[C_O_PEEKED] + seat]
    now = grid_estimate(st, cfg, seat, seen, ranks, mean)
    best_a, best_v = -1, 1 << 40
    can_discard = False
    for k in range(n):
        a = legal[k]
        if a == DISCARD_CODE:
            can_discard = True
            continue
        if a >> KIND_SHIFT != K_SWAP or (a & CELL_MASK) == cell:
            continue
        i = a & CELL_MASK
        old = st[grid + i]
        st[grid + i] = st[S_HELD]
        v = grid_estimate(st, cfg, seat, seen | 1 << i, ranks, mean)
        st[grid + i] = old
        if v < best_v:
            best_a, best_v = a, v
    if can_discard and (best_a < 0 or best_v >= now):
        return DISCARD_CODE
    if best_a < 0:
        return K_SWAP << KIND_SHIFT | cell
    return int(best_a)


@jit
def playout_action(st: Ints, cfg: Ints, policy: int, legal: Ints, n: int,
                   scratch: Ints) -> int:
    """The playout policy's choice among the ``n`` legal actions (see the module docs)."""
    if policy == P_EXPERT:
        return int(expert_action(st, cfg, legal, n))
    a = greedy_action(st, cfg, legal, n, scratch)
    if (policy == P_CAREFUL and st[S_PHASE] == HOLD and a >> KIND_SHIFT == K_SWAP
            and cfg[C_END] == END_FIRST and st[S_ENDER] < 0):
        seat = st[S_CUR]
        cell = a & CELL_MASK
        if cfg[C_FULL] ^ st[cfg[C_O_UP] + seat] == 1 << cell:
            ranks = scratch[:MAX_LEGAL]
            if not _worth_going_out(st, cfg, seat, cell, ranks):
                return _stay_in(st, cfg, seat, cell, legal, n, ranks)
    return a


@jit
def play_to_hole_end(st: Ints, cfg: Ints, rng: Rng, ended: int, policy: int, turns: int,
                     legal: Ints, scratch: Ints) -> bool:
    """Every seat plays ``policy`` until a hole beyond ``ended`` holes has finished, or
    (``turns`` > 0) until that many turns have begun; returns whether the hole ended."""
    begun = 0
    while st[S_PHASE] != OVER and st[S_HOLES_ENDED] == ended:
        if st[S_PHASE] == DEAL:
            resume_deal(st, cfg, rng)
            continue
        if st[S_PHASE] == TURN:
            if turns and begun == turns:
                return False
            begun += 1
        n = legal_actions(st, cfg, legal)
        step(st, cfg, playout_action(st, cfg, policy, legal, n, scratch), rng)
    return True


@jit
def estimate_value(st: Ints, cfg: Ints, seat: int, ranks: Ints) -> int:
    """Mid-hole value in hundredths: the best opponent's estimated total minus the
    seat's, each grid estimated from its own seat's knowledge (face-up and peeked cards
    as they are, the others at the deck's mean) and added to the match total."""
    mean = mean_points(cfg)
    o_tot, o_up, o_peeked = cfg[C_O_TOTALS], cfg[C_O_UP], cfg[C_O_PEEKED]
    mine = 0
    best = 1 << 50
    for s in range(cfg[C_PLAYERS]):
        est = 100 * st[o_tot + s]
        if st[S_ACTIVE] >> s & 1:
            est += grid_estimate(st, cfg, s, st[o_up + s] | st[o_peeked + s], ranks, mean)
        if s == seat:
            mine = est
        elif est < best:
            best = est
    if cfg[C_PLAYERS] == 1:
        best = 0
    return int(best - mine)


@jit
def simulate(template: Ints, cfg: Ints, slots: Ints, cards: Ints, ends: Ints,
             actions: Ints, seat: int, worlds: int, rng: Rng, sums: Ints,
             counts: Ints, policy: int = P_CAREFUL, turns: int = 0) -> None:
    """Run ``worlds`` worlds, each with every root action; add each action's values
    (hundredths of a point) to ``sums`` and its simulations to ``counts``. ``turns`` > 0
    stops each playout once that many turns have begun and values the position with
    :func:`estimate_value` instead of playing to the end of the hole."""
    squares = np.zeros(actions.shape[0], dtype=np.int64)
    own = np.zeros(actions.shape[0], dtype=np.int64)
    simulate_paired(template, cfg, slots, cards, ends, actions, seat, worlds, rng, sums,
                    counts, squares, own, policy, turns, 0)


@jit
def own_hole(st: Ints, template: Ints, cfg: Ints, seat: int, finished: bool,
             ranks: Ints) -> int:
    """The seat's score for the hole in hundredths: exact once the hole has ended (its
    total's growth since ``template``), else its grid's estimate from its knowledge."""
    o_tot = cfg[C_O_TOTALS]
    if finished:
        return int(100 * (st[o_tot + seat] - template[o_tot + seat]))
    return int(grid_estimate(st, cfg, seat, st[cfg[C_O_UP] + seat] |
                              st[cfg[C_O_PEEKED] + seat], ranks, mean_points(cfg)))


@jit
def simulate_paired(template: Ints, cfg: Ints, slots: Ints, cards: Ints, ends: Ints,
                    actions: Ints, seat: int, worlds: int, rng: Rng, sums: Ints,
                    counts: Ints, squares: Ints, own: Ints, policy: int, turns: int,
                    sigma: int) -> None:
    """:func:`simulate`, also adding to ``squares[k]`` the square of each world's value
    of action ``k`` less that of action 0 (in the same world): with the sums, the
    spread of each action's advantage over action 0; and to ``own[k]`` the seat's own
    score for the hole (:func:`own_hole`), what a hint shows beside the value.
    ``sigma`` > 0 values a finished hole by :func:`match_value` instead of the margin."""
    base = np.empty_like(template)
    st = np.empty_like(template)
    work = np.empty(max(cards.shape[0], 1), dtype=np.int64)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    after = np.empty(1, dtype=np.uint64)
    ended = template[S_HOLES_ENDED]
    first = 0
    for _ in range(worlds):
        deal_world(base, template, slots, cards, ends, rng, work)
        base[S_CHANCE] = CHANCE_RNG
        chance = next_u64(rng)
        for k in range(actions.shape[0]):
            st[:] = base
            after[0] = chance
            step(st, cfg, actions[k], after)
            finished = play_to_hole_end(st, cfg, after, ended, policy, turns, legal, scratch)
            if finished and sigma:
                v = match_value(st, cfg, seat, sigma)
            elif finished:
                v = 100 * hole_value(st, cfg, seat)
            else:
                v = estimate_value(st, cfg, seat, scratch[:MAX_LEGAL])
            if k == 0:
                first = v
            sums[k] += v
            squares[k] += (v - first) * (v - first)
            own[k] += own_hole(st, template, cfg, seat, finished, scratch[:MAX_LEGAL])
            counts[k] += 1


@jit
def policy_choice(st: Ints, cfg: Ints, policy: int) -> int:
    """The playout policy's own action in ``st`` (it reads only what the seat to act
    knows, so any world consistent with the seat's view gives the same answer)."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    n = legal_actions(st, cfg, legal)
    return playout_action(st, cfg, policy, legal, n, scratch)
