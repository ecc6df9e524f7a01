"""Compiled policies and playouts: what a search runs thousands of times a second.

A policy is a number per seat: :data:`RANDOM` picks uniformly among the legal actions;
:data:`GREEDY` (named ``fast-greedy``: it is not the ``greedy`` bot, which estimates
unknown cards otherwise and decides differently in some decisions) plays one-step rules
of thumb from what its seat knows (its face-up and peeked cards, the discard pile's top;
unknown cards valued at the deck's mean, in hundredths so that every decision is
integer arithmetic, the same on every machine);
:data:`EXPERT` is the compiled expert (:mod:`golf.fast.expert`), which reads its tables
from the end of :func:`golf.fast.expert.expert_config`'s config.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..actions import K_FLIP, K_SWAP
from ..phases import FLIP, HOLD, OVER, SETUP, TURN
from ._jit import core, jit
from .expert import expert_action
from .layout import (
    C_CELLS,
    C_DECK,
    C_FLIP_AFTER,
    C_O_DECK,
    C_O_DISCARD,
    C_O_PEEKED,
    C_O_TOTALS,
    C_O_UP,
    C_O_WORK,
    C_PLAYERS,
    C_POINTS,
    C_REPLACE_DOWN,
    C_WORK,
    CELL_MASK,
    CHANCE_RNG,
    DEAL,
    FLIP_MAY,
    KIND_SHIFT,
    RANK_MASK,
    S_CHANCE,
    S_CUR,
    S_DISCARD_LEN,
    S_HELD,
    S_HOLES_ENDED,
    S_PHASE,
)
from .machine import (
    DISCARD_CODE,
    DRAW_CODE,
    GOLDEN,
    KNOCK_CODE,
    MAX_LEGAL,
    PASS_CODE,
    TAKE_CODE,
    below,
    bounded,
    known_ranks,
    legal_actions,
    mix64,
    new_state,
    reset_state,
    resume_deal,
    seed_rng,
    start_match,
    step,
)
from .score import lowest_total

Ints = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]
RANDOM, GREEDY, EXPERT = 0, 1, 2
#: The compiled policies by name. ``expert`` needs the config of
#: :func:`golf.fast.expert.expert_config` (the plain config plus its tables).
POLICIES = {"random": RANDOM, "fast-greedy": GREEDY, "expert": EXPERT}
TAKE_GAIN = 200  # hundredths of a point: take the discard when it saves two points


@core
def mean_points(cfg: Ints) -> int:
    """The deck's mean card value, in hundredths (rounded down)."""
    o_deck, n = cfg[C_O_DECK], cfg[C_DECK]
    t = 0
    for i in range(n):
        t += cfg[C_POINTS + (cfg[o_deck + i] & RANK_MASK)]
    return int((100 * t) // n)


@core
def estimate(st: Ints, cfg: Ints, ranks: Ints, mean: int) -> int:
    """The grid's known total plus the deck's mean for each unknown card (hundredths);
    the scorer works in the state's work region."""
    unknown = 0
    for i in range(cfg[C_CELLS]):
        if ranks[i] == 0:
            unknown += 1
    o_work = cfg[C_O_WORK]
    return 100 * lowest_total(cfg, ranks, st[o_work:o_work + cfg[C_WORK]]) + mean * unknown


@core
def grid_estimate(st: Ints, cfg: Ints, seat: int, seen: int, ranks: Ints, mean: int) -> int:
    """A grid's estimate in hundredths: the cards in ``seen`` (a cell mask) as they are,
    the others at ``mean`` (``ranks``: work space for the grid)."""
    known_ranks(st, cfg, seat, seen, ranks)
    return estimate(st, cfg, ranks, mean)


@core
def _best_swap(
    st: Ints, cfg: Ints, ranks: Ints, rank: int, legal: Ints, n: int, mean: int
) -> tuple[int, int]:
    """(action, estimate) of the best legal swap of a card of ``rank`` into the grid."""
    best_a, best_v = -1, 1 << 40
    for k in range(n):
        a = legal[k]
        if a >> KIND_SHIFT != K_SWAP:
            continue
        i = a & CELL_MASK
        old = ranks[i]
        ranks[i] = rank
        v = estimate(st, cfg, ranks, mean)
        ranks[i] = old
        if v < best_v:
            best_a, best_v = a, v
    return best_a, best_v


@core
def greedy_action(st: Ints, cfg: Ints, legal: Ints, n: int, scratch: Ints) -> int:
    """The greedy policy's choice among the ``n`` legal actions (``scratch``: room for
    a grid and a list of actions, ``2 * MAX_LEGAL`` ints, so that a decision allocates
    nothing)."""
    phase = st[S_PHASE]
    if phase == SETUP:
        return int(legal[0])
    seat = st[S_CUR]
    cells = cfg[C_CELLS]
    ranks = scratch[:MAX_LEGAL]
    seen = st[cfg[C_O_UP] + seat] | st[cfg[C_O_PEEKED] + seat]
    unknown = known_ranks(st, cfg, seat, seen, ranks)
    mean = mean_points(cfg)
    now = estimate(st, cfg, ranks, mean)
    if phase == TURN:
        for k in range(n):
            if legal[k] == KNOCK_CODE and now <= 100 * cells:
                return KNOCK_CODE
        top = st[cfg[C_O_DISCARD] + st[S_DISCARD_LEN] - 1] & RANK_MASK
        # Where a taken card may go: every cell, or (replace = face-down) the face-down ones.
        up = st[cfg[C_O_UP] + seat]
        swaps = scratch[MAX_LEGAL:]
        m = 0
        for i in range(cells):
            if not cfg[C_REPLACE_DOWN] or not up >> i & 1:
                swaps[m] = K_SWAP << KIND_SHIFT | i
                m += 1
        if m:
            _, v = _best_swap(st, cfg, ranks, top, swaps, m, mean)
            if now - v >= TAKE_GAIN:
                return TAKE_CODE
        return DRAW_CODE
    if phase == HOLD:
        held = st[S_HELD] & RANK_MASK
        a, v = _best_swap(st, cfg, ranks, held, legal, n, mean)
        can_discard = legal[n - 1] == DISCARD_CODE
        if can_discard and (a < 0 or v >= now):
            return DISCARD_CODE
        return a
    if phase == FLIP:
        if cfg[C_FLIP_AFTER] == FLIP_MAY and unknown < 2:
            return PASS_CODE
        for k in range(n):
            if legal[k] >> KIND_SHIFT == K_FLIP:
                return int(legal[k])
    return int(legal[0])


@jit
def choose(st: Ints, cfg: Ints, policy: int, rng: Rng, legal: Ints, scratch: Ints) -> int:
    """A compiled policy's action; ``legal`` (``MAX_LEGAL`` ints) and ``scratch``
    (``2 * MAX_LEGAL``) are work space."""
    n = legal_actions(st, cfg, legal)
    if policy == GREEDY:
        return greedy_action(st, cfg, legal, n, scratch)
    if policy == EXPERT:
        return expert_action(st, cfg, legal, n)
    return int(legal[below(rng, n)])


@core
def _simple_playout(st: Ints, cfg: Ints, policies: Ints, rng: Rng, stop: int, legal: Ints,
                    scratch: Ints) -> int:
    """The playout loop for the random and greedy policies (``stop``: the hole count to
    stop at, 0: the match's end). A ``core`` function: the state machine's steps are
    inlined into this loop (see golf.fast._jit.inlined) and need no reference counting."""
    greedy = 0  # the seats the greedy policy plays (a mask, tested without a load)
    for s in range(policies.shape[0]):
        if policies[s] == GREEDY:
            greedy |= 1 << s
    # The random policy's next draw (u) is worked out one action ahead, before step's
    # branches, which a random action makes unpredictable, so that it is ready when they
    # are resolved. x is the generator's state after the last draw; a step that deals or
    # reshuffles draws from rng itself, and u is then worked out again from the new
    # state: the draws and their order are those of machine.below.
    x = rng[0]
    u = mix64(x + GOLDEN)
    moves = 0
    while st[S_PHASE] != OVER:
        if stop and st[S_HOLES_ENDED] >= stop:
            break
        n = legal_actions(st, cfg, legal)
        if greedy >> st[S_CUR] & 1:
            a = greedy_action(st, cfg, legal, n, scratch)
        else:
            x += GOLDEN
            rng[0] = x
            a = int(legal[bounded(u, n)])
            u = mix64(x + GOLDEN)
        step(st, cfg, a, rng)
        if rng[0] != x:
            x = rng[0]
            u = mix64(x + GOLDEN)
        moves += 1
    return moves


@jit
def run_playout(st: Ints, cfg: Ints, policies: Ints, rng: Rng, holes: int, legal: Ints,
                scratch: Ints) -> int:
    """:func:`playout` in given work space (``legal``: ``MAX_LEGAL`` ints, ``scratch``:
    ``2 * MAX_LEGAL``)."""
    st[S_CHANCE] = CHANCE_RNG
    if st[S_PHASE] == DEAL:
        resume_deal(st, cfg, rng)
    stop = st[S_HOLES_ENDED] + holes if holes else 0
    if not np.any(policies == EXPERT):
        return _simple_playout(st, cfg, policies, rng, stop, legal, scratch)
    moves = 0
    while st[S_PHASE] != OVER:
        if stop and st[S_HOLES_ENDED] >= stop:
            break
        n = legal_actions(st, cfg, legal)
        p = policies[st[S_CUR]]
        if p == GREEDY:
            a = greedy_action(st, cfg, legal, n, scratch)
        elif p == EXPERT:
            a = expert_action(st, cfg, legal, n)
        else:
            a = int(legal[below(rng, n)])
        step(st, cfg, a, rng)
        moves += 1
    return moves


@jit
def playout(st: Ints, cfg: Ints, policies: Ints, rng: Rng, holes: int) -> int:
    """Play on from ``st`` (in place) with one policy per seat until the match is over,
    or until ``holes`` more holes have finished (0: to the end). Chance switches to the
    state's own generator. Returns the number of actions played."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    return run_playout(st, cfg, policies, rng, holes, legal, scratch)


@jit
def play_matches(cfg: Ints, n_matches: int, seed: int, policies: Ints) -> tuple[Ints, Ints]:
    """Play ``n_matches`` whole matches; returns (totals per match and seat, holes per match)."""
    n = cfg[C_PLAYERS]
    totals = np.zeros((n_matches, n), dtype=np.int64)
    holes = np.zeros(n_matches, dtype=np.int64)
    rng = seed_rng(seed)
    o_tot = cfg[C_O_TOTALS]
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    st = new_state(cfg, CHANCE_RNG)
    for m in range(n_matches):
        reset_state(st, CHANCE_RNG)
        start_match(st, cfg, rng)
        run_playout(st, cfg, policies, rng, 0, legal, scratch)
        for s in range(n):
            totals[m, s] = st[o_tot + s]
        holes[m] = st[S_HOLES_ENDED]
    return totals, holes
