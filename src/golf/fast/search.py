"""Determinized search, compiled: what the ``search`` bot runs at each decision.

One *simulation* is one sampled world and one root action: the world is a copy of a
template state with the seat's unknown cards dealt at random into their slots (each
group of slots takes a shuffle of its own cards, see :mod:`golf.bots.search`); the
action is played, then every seat plays the compiled greedy policy to the end of the
hole. Every root action is tried in the same worlds with the same chance afterwards
(common random numbers), so the difference between two actions' means is measured
with far less noise than their means.

The value of a simulation is the seat's margin over its best opponent after the hole,
in points (lower totals are better), plus :data:`WIN_BONUS` when the hole ends the match
and the seat is among the winners.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..phases import OVER
from ._jit import jit
from .layout import (
    C_O_TOTALS,
    C_PLAYERS,
    CHANCE_RNG,
    DEAL,
    S_CHANCE,
    S_HOLES_ENDED,
    S_PHASE,
    S_WINNERS,
)
from .machine import MAX_LEGAL, below, legal_actions, next_u64, resume_deal, step
from .policies import greedy_action

Ints = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]
#: Points a simulation adds when its hole ends the match with the seat among the winners.
WIN_BONUS = 30


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
def play_to_hole_end(st: Ints, cfg: Ints, rng: Rng, ended: int, legal: Ints,
                     scratch: Ints) -> None:
    """Greedy play by every seat until a hole beyond ``ended`` holes has finished."""
    while st[S_PHASE] != OVER and st[S_HOLES_ENDED] == ended:
        if st[S_PHASE] == DEAL:
            resume_deal(st, cfg, rng)
            continue
        n = legal_actions(st, cfg, legal)
        step(st, cfg, greedy_action(st, cfg, legal, n, scratch), rng)


@jit
def simulate(template: Ints, cfg: Ints, slots: Ints, cards: Ints, ends: Ints,
             actions: Ints, seat: int, worlds: int, rng: Rng, sums: Ints,
             counts: Ints) -> None:
    """Run ``worlds`` worlds, each with every root action; add each action's values to
    ``sums`` and its simulations to ``counts``."""
    base = np.empty_like(template)
    st = np.empty_like(template)
    work = np.empty(max(cards.shape[0], 1), dtype=np.int64)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    after = np.empty(1, dtype=np.uint64)
    ended = template[S_HOLES_ENDED]
    for _ in range(worlds):
        deal_world(base, template, slots, cards, ends, rng, work)
        base[S_CHANCE] = CHANCE_RNG
        chance = next_u64(rng)
        for k in range(actions.shape[0]):
            st[:] = base
            after[0] = chance
            step(st, cfg, actions[k], after)
            play_to_hole_end(st, cfg, after, ended, legal, scratch)
            sums[k] += hole_value(st, cfg, seat)
            counts[k] += 1
