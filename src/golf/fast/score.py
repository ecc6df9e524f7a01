"""The scorer, compiled: the same lowest-scoring arrangement as :mod:`golf.scoring`.

Lines (columns, rows, diagonals, adjacent pairs) zero every card of a matched line and
may share cards. Sets (any pair, 2x2 blocks) use each card once; the lowest total over
every choice of disjoint matched sets is found by a dynamic programme over the cells the
matched sets touch, in cell order (the engine's search, without its recursion).
Rank 0 is an unknown card: it scores nothing and matches nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._jit import jit
from .layout import (
    C_CELLS,
    C_N_LINES,
    C_N_SETS,
    C_O_LINE_KEYS,
    C_O_LINES,
    C_O_SET_KEYS,
    C_O_SET_POINTS,
    C_O_SETS,
    C_POINTS,
    C_WILD,
    RANK_MASK,
)

Ints = npt.NDArray[np.int64]
_NO_KEY = -1_000_000
_BIG = 1 << 40


@jit
def matches(cfg: Ints, mask: int, ranks: Ints, keys: int) -> bool:
    """Whether the cards of the cells in ``mask`` are equal as the key table at ``keys``
    compares them (by rank or by points); wild cards match anything."""
    key = _NO_KEY
    n = cfg[C_CELLS]
    for i in range(n):
        if mask >> i & 1:
            r = ranks[i]
            if r == 0:
                return False
            if cfg[C_WILD + r]:
                continue
            k = cfg[keys + r]
            if key == _NO_KEY:
                key = k
            elif k != key:
                return False
    return True


@jit
def score_ranks(cfg: Ints, ranks: Ints) -> int:
    """The lowest total of a grid given as ranks (0 for an unknown card)."""
    n = cfg[C_CELLS]
    zero = 0
    o_lines, o_line_keys = cfg[C_O_LINES], cfg[C_O_LINE_KEYS]
    for k in range(cfg[C_N_LINES]):
        m = cfg[o_lines + k]
        if matches(cfg, m, ranks, cfg[o_line_keys + k]):
            zero |= m
    n_sets = cfg[C_N_SETS]
    if n_sets == 0:  # lines only (most presets): no search, no allocation
        total = 0
        for i in range(n):
            if not zero >> i & 1:
                total += cfg[C_POINTS + ranks[i]]
        return int(total)
    own = np.empty(n, dtype=np.int64)
    for i in range(n):
        own[i] = 0 if zero >> i & 1 else cfg[C_POINTS + ranks[i]]
    o_sets, o_pts, o_set_keys = cfg[C_O_SETS], cfg[C_O_SET_POINTS], cfg[C_O_SET_KEYS]
    # The matched sets, and the cells they touch.
    cand = np.empty(n_sets, dtype=np.int64)
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
    index = np.full(n, -1, dtype=np.int64)
    t = 0
    tpts = np.empty(n, dtype=np.int64)
    for i in range(n):
        if touched >> i & 1:
            index[i] = t
            tpts[t] = own[i]
            t += 1
    cmask = np.empty(n_cand, dtype=np.int64)
    cfirst = np.empty(n_cand, dtype=np.int64)
    cpts = np.empty(n_cand, dtype=np.int64)
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
    best = np.empty(1 << (t + 1), dtype=np.int64)
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


@jit
def score_cards(cfg: Ints, cards: Ints, start: int) -> int:
    """The lowest total of the grid of card codes at ``cards[start:start + cells]``."""
    n = cfg[C_CELLS]
    ranks = np.empty(n, dtype=np.int64)
    for i in range(n):
        ranks[i] = cards[start + i] & RANK_MASK
    return score_ranks(cfg, ranks)


@jit
def score_rows(cfg: Ints, ranks: Ints) -> Ints:
    """The lowest total of each row of a 2-D array of rank grids (for tables and tests)."""
    out = np.empty(ranks.shape[0], dtype=np.int64)
    for k in range(ranks.shape[0]):
        out[k] = score_ranks(cfg, ranks[k])
    return out
