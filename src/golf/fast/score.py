"""The scorer, compiled: the same lowest-scoring arrangement as :mod:`golf.scoring`.

Lines (columns, rows, diagonals, adjacent pairs) zero every card of a matched line and
may share cards. Sets (any pair, 2x2 blocks) use each card once; the lowest total over
every choice of disjoint matched sets is found by a dynamic programme over the cells the
matched sets touch, in cell order (the engine's search, without its recursion).
Rank 0 is an unknown card: it scores nothing and matches nothing.

:func:`lowest_total` and :func:`score_cards` are ``core`` functions (no reference
counting, no allocation): the search over sets works in space it is given (the state's
work region, ``C_O_WORK``). :func:`score_ranks` and :func:`score_rows` are the
allocating entry points for policies, tables and tests.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._jit import core, ix, jit
from .layout import (
    C_CELLS,
    C_N_LINES,
    C_N_SETS,
    C_O_LINE_KEYS,
    C_O_LINES,
    C_O_SET_KEYS,
    C_O_SET_POINTS,
    C_O_SETS,
    C_O_WORK,
    C_POINTS,
    C_WILD,
    C_WORK,
    RANK_MASK,
)

Ints = npt.NDArray[np.int64]
_NO_KEY = -1_000_000
_BIG = 1 << 40


@core
def matches(cfg: Ints, mask: int, ranks: Ints, keys: int) -> bool:
    """Whether the cards of the cells in ``mask`` are equal as the key table at ``keys``
    compares them (by rank or by points); wild cards match anything. ``ranks`` may hold
    card codes: only their rank bits are read."""
    key = _NO_KEY
    n = cfg[C_CELLS]
    for i in range(n):
        if mask >> i & 1:
            r = ranks[i] & RANK_MASK
            if r == 0:
                return False
            if cfg[ix(C_WILD + r)]:
                continue
            k = cfg[ix(keys + r)]
            if key == _NO_KEY:
                key = k
            elif k != key:
                return False
    return True


@core
def lowest_total(cfg: Ints, ranks: Ints, work: Ints) -> int:
    """The lowest total of a grid given as ranks (0 for an unknown card) or card codes
    (only the rank bits are read); ``work``: ``cfg[C_WORK]`` ints of space."""
    n = cfg[C_CELLS]
    zero = 0
    o_lines, o_line_keys = cfg[C_O_LINES], cfg[C_O_LINE_KEYS]
    for k in range(cfg[C_N_LINES]):
        m = cfg[ix(o_lines + k)]
        if matches(cfg, m, ranks, cfg[ix(o_line_keys + k)]):
            zero |= m
    n_sets = cfg[C_N_SETS]
    if n_sets == 0:  # lines only (most presets): no search
        total = 0
        for i in range(n):
            if not zero >> i & 1:
                total += cfg[ix(C_POINTS + (ranks[i] & RANK_MASK))]
        return int(total)
    # The work space, in rows (the sizes ruleset._work_size reserves).
    own = work[0:n]
    cand = work[n:n + n_sets]
    index = work[n + n_sets:2 * n + n_sets]
    tpts = work[2 * n + n_sets:3 * n + n_sets]
    cmask = work[3 * n + n_sets:3 * n + 2 * n_sets]
    cfirst = work[3 * n + 2 * n_sets:3 * n + 3 * n_sets]
    cpts = work[3 * n + 3 * n_sets:3 * n + 4 * n_sets]
    best = work[3 * n + 4 * n_sets:]
    for i in range(n):
        own[i] = 0 if zero >> i & 1 else cfg[C_POINTS + (ranks[i] & RANK_MASK)]
    o_sets, o_pts, o_set_keys = cfg[C_O_SETS], cfg[C_O_SET_POINTS], cfg[C_O_SET_KEYS]
    # The matched sets, and the cells they touch.
    n_cand = 0
    touched = 0
    for k in range(n_sets):
        m = cfg[o_sets + k]
        if matches(cfg, m, ranks, cfg[o_set_keys + k]):
            cand[n_cand] = k
            n_cand += 1
            touched |= m
    total = 0
    for i in range(n):
        if not touched >> i & 1:
            total += own[i]
    if n_cand == 0:
        return total
    # Renumber the touched cells 0..t-1 (keeping their order) and solve over those only.
    t = 0
    for i in range(n):
        index[i] = -1
        if touched >> i & 1:
            index[i] = t
            tpts[t] = own[i]
            t += 1
    for c in range(n_cand):
        k = cand[c]
        m = cfg[o_sets + k]
        cm = 0
        first = -1
        for i in range(n):
            if m >> i & 1:
                cm |= 1 << index[i]
                if first < 0:
                    first = index[i]
        cmask[c], cfirst[c], cpts[c] = cm, first, cfg[o_pts + k]
    # best[(1 << (t - i)) + u]: lowest score of cells i.. given the cells among them already
    # used by chosen sets (u, bit 0 = cell i). Layer t is the empty rest: index 1, value 0.
    best[1] = 0
    for i in range(t - 1, -1, -1):
        width = 1 << (t - i)
        nxt = 1 << (t - i - 1)
        for u in range(width):
            if u & 1:
                best[width + u] = best[nxt + (u >> 1)]
                continue
            b = tpts[i] + best[nxt + (u >> 1)]
            for c in range(n_cand):
                if cfirst[c] != i:
                    continue
                sm = cmask[c] >> i
                if sm & u:
                    continue
                v = cpts[c] + best[nxt + ((u | sm) >> 1)]
                if v < b:
                    b = v
            best[width + u] = b
    return int(total + best[(1 << t)])


@core
def score_cards(cfg: Ints, st: Ints, start: int) -> int:
    """The lowest total of the grid of card codes at ``st[start:start + cells]`` of a
    state (whose work region it uses)."""
    o_work = cfg[C_O_WORK]
    return lowest_total(cfg, st[start:start + cfg[C_CELLS]], st[o_work:o_work + cfg[C_WORK]])


@jit
def score_ranks(cfg: Ints, ranks: Ints) -> int:
    """The lowest total of a grid of ranks (0 for an unknown card), with work space of
    its own (allocated only for rules with sets)."""
    if cfg[C_WORK]:
        return lowest_total(cfg, ranks, np.empty(cfg[C_WORK], dtype=np.int64))
    return lowest_total(cfg, ranks, ranks[:0])


@jit
def score_rows(cfg: Ints, ranks: Ints) -> Ints:
    """The lowest total of each row of a 2-D array of rank grids (for tables and tests)."""
    out = np.empty(ranks.shape[0], dtype=np.int64)
    work = np.empty(cfg[C_WORK], dtype=np.int64)
    for k in range(ranks.shape[0]):
        out[k] = lowest_total(cfg, ranks[k], work)
    return out
