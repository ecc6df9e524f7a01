"""The compiled expert: expected-value play with card counting, on the state array.

It follows the ideas of the Python ``expert`` (:mod:`golf.bots.expert`), not its code:

* it counts the cards its seat has not seen (the deck less its own face-up and peeked
  cards, the other seats' face-up cards, the discard pile, the card it holds and, after
  a reshuffle, the public stock) and values a grid by its expected total, every unknown
  cell drawn from those cards;
* on its turn it compares taking the discard (placed where it helps most), drawing (the
  expectation, over the cards a draw may give, of the best use of each), knocking and
  flipping instead of drawing;
* each option is charged for the card it leaves on the discard pile: how much more the
  next player gains by taking that card than by drawing (denial);
* it goes out or knocks when its expected total beats what it expects the best opponent
  to finish with by a margin (lowered a little each turn after ``patience``);
* after a discard it flips (learning a card) while more than one card stays face down,
  in the part of the grid it knows least; where the flip is compulsory it turns the card
  least worth keeping replaceable.

It reads only what its seat may know: the tests shuffle every card the seat cannot see
and check that no decision changes. Every number is an integer (hundredths of a point)
with a fixed order of work, so it decides the same on every machine and Python.

The grid is split into *components* (cells some match pattern links: a column in
six-card); the total is the sum of one term per component, and each component of up to
four cells has a table of its terms by its cells' ranks, built once per rules in Python
(:func:`expert_config`). The tables, the components and the weights ride at the end of
the config array: ``expert_config(rules, players)`` is ``config(rules, players)`` plus
that tail, and every function of the core accepts it in place of the plain config.

>>> from golf import load_rules
>>> from golf.fast import FastGame
>>> cfg = expert_config(load_rules("six-card"), 2)
>>> g = FastGame("six-card", players=2, seed=3)
>>> a = expert_choice(g.state, cfg)
>>> a in [int(x) for x in g.legal_actions()]
True
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from ..actions import K_FLIP
from ..errors import GolfError
from ..expert_weights import weights as preset_weights
from ..phases import FLIP, FROM_DISCARD, HOLD, SETUP, TURN
from ..rules import Rules
from ..scoring import linked_groups
from ._jit import jit
from .layout import (
    C_CELLS,
    C_DECK,
    C_END,
    C_FINAL_TURNS,
    C_FLIP_AFTER,
    C_FULL,
    C_O_DECK,
    C_O_DISCARD,
    C_O_GRIDS,
    C_O_PEEKED,
    C_O_STOCK,
    C_O_TURNS,
    C_O_UP,
    C_PLAYERS,
    C_POINTS,
    C_REPLACE_DOWN,
    C_RESHUFFLE,
    C_RETURN_TAKEN,
    C_SETUP_COUNT,
    C_SETUP_PEEK,
    C_WORK,
    CELL_MASK,
    END_FIRST,
    FLIP_MUST,
    FLIP_NEVER,
    KIND_SHIFT,
    RANK_MASK,
    S_ACTIVE,
    S_CUR,
    S_DISCARD_LEN,
    S_ENDER,
    S_HELD,
    S_HELD_FROM,
    S_PHASE,
    S_RESHUFFLES,
    S_STOCK_LEN,
)
from .machine import (
    DISCARD_CODE,
    DRAW_CODE,
    KNOCK_CODE,
    MAX_LEGAL,
    PASS_CODE,
    TAKE_CODE,
    known_ranks,
    popcount,
)
from .machine import legal_actions as _legal_actions
from .ruleset import config
from .score import lowest_total, score_rows

Ints = npt.NDArray[np.int64]

#: The last entry of an expert config; the one before it is where its tail starts.
MAGIC = 0x6578_7065_7274  # "expert"
RADIX = 15  # ranks 0 (unknown) to 14 (joker)
#: Components with at most this many cells get a table (15**4 entries).
TABLE_CELLS = 4
#: Fixed draws of the unknown cells where a component has more than two of them.
SAMPLES = 16
BIG = 1 << 40
#: Entries of a decision's memo (vectors of 16 values).
MEMO = 48
#: Added to an ending move that is not worth it (hundredths): played only if forced.
BAD_END = 100_000
#: A flip's utility per hundredth of a point (see _flip): more than 16 * 16 + 15, the
#: most its preference for the least-known cell (16 cells at most) adds.
FLIP_UNIT = 400

# --- the tail of an expert config (offsets from its start) --------------------------
X_NCOMP = 0
X_COMP_OF = 1  # 16: the component of each cell
X_STRIDE = 17  # 16: 15 ** (the cell's place in its component)
X_MASK = 33  # 16: each component's cells (mask)
X_SIZE = 49  # 16: how many cells
X_TABLE = 65  # 16: offset of its table in the config (-1: none, scored directly)
X_CELLS = 81  # 16 x 16: its cells in order
X_DECK = 337  # 15: the deck's cards by rank
X_WEIGHTS = 352  # 16 weights (see WEIGHTS)
X_LEN = 368

#: The weights in config order. Their values come from the Python expert's table
#: (:func:`golf.expert_weights.weights`, chosen per rules by the same nearest
#: preset) through :func:`compiled_weights`, the one place their units change.
WEIGHTS: tuple[str, ...] = (
    "margin", "end_bonus", "knock_bonus", "keep_down", "w_gain", "w_behind",
    "flip_info", "w_def", "patience", "hurry", "peek_bias",
)
#: The compiled core adds ints only: point weights in hundredths, ``w_`` weights in
#: percent (both x100); the whole-number weights (turns, cards) as they are.
_SCALE: dict[str, int] = {name: 100 for name in WEIGHTS} | {"keep_down": 1, "patience": 1}


def compiled_weights(weights: Mapping[str, float | int]) -> dict[str, int]:
    """The Python expert's weights in the compiled core's units.

    >>> from golf import load_rules
    >>> from golf.expert_weights import weights
    >>> compiled_weights(weights(load_rules("german")))["w_def"]
    30
    """
    return {name: round(weights[name] * _SCALE[name]) for name in WEIGHTS}


def rules_weights(rules: Rules) -> dict[str, int]:
    """The compiled weights for ``rules``: the Python expert's choice, converted."""
    return compiled_weights(preset_weights(rules))


W_MARGIN, W_END_BONUS, W_KNOCK_BONUS, W_KEEP_DOWN, W_GAIN, W_BEHIND = 0, 1, 2, 3, 4, 5
W_FLIP_INFO, W_DEF, W_PATIENCE, W_HURRY, W_PEEK_BIAS = 6, 7, 8, 9, 10


# --- building the tail (Python, once per rules) ---------------------------------------


def _table(cfg: Ints, cells: int, comp: list[int]) -> Ints:
    """Every assignment of ranks 0-14 to the component's cells (the rest unknown),
    scored: index ``sum(rank_k * 15**k)``."""
    m = len(comp)
    size = RADIX**m
    idx = np.arange(size, dtype=np.int64)
    grids = np.zeros((size, cells), dtype=np.int64)
    for k, c in enumerate(comp):
        grids[:, c] = (idx // RADIX**k) % RADIX
    return score_rows(cfg, grids) - (cells - m) * int(cfg[C_POINTS])


def _additive(cfg: Ints, cells: int, comps: list[list[int]]) -> bool:
    """Whether the total is the sum of the components' terms (checked on random grids)."""
    rng = np.random.default_rng(12345)
    grids = rng.integers(1, RADIX, size=(60, cells)).astype(np.int64)
    whole = score_rows(cfg, grids)
    parts = np.zeros(60, dtype=np.int64)
    p0 = int(cfg[C_POINTS])
    for comp in comps:
        sub = np.zeros_like(grids)
        sub[:, comp] = grids[:, comp]
        parts += score_rows(cfg, sub) - (cells - len(comp)) * p0
    return bool(np.array_equal(whole, parts))


def expert_config(
    rules: Rules, players: int, weights: Mapping[str, int] | None = None,
) -> Ints:
    """``config(rules, players)`` with the expert's tail: its components, their tables,
    the deck by rank and the weights (:func:`rules_weights`, any of them replaced by
    ``weights``, given in the compiled units). Cached on the rules object for the
    default weights."""
    if weights:
        unknown = sorted(set(weights) - set(WEIGHTS))
        if unknown:
            raise GolfError(f"unknown expert weight {unknown[0]!r}; the weights are: "
                            f"{', '.join(WEIGHTS)}")
        return _build(rules, players, {**rules_weights(rules), **weights})
    table: dict[int, Ints] = rules.cached("_fast_expert_configs", lambda r: {})
    hit = table.get(players)
    if hit is None:
        hit = table[players] = _build(rules, players, rules_weights(rules))
    return hit


def _build(rules: Rules, players: int, weights: Mapping[str, int]) -> Ints:
    base = config(rules, players)
    cells = rules.cells
    comps = [list(g) for g in linked_groups(rules)]
    if len(comps) > 1 and not _additive(base, cells, comps):  # pragma: no cover
        comps = [list(range(cells))]  # never with the engine's patterns: be safe
    tail = np.zeros(X_LEN, dtype=np.int64)
    tables: list[Ints] = []
    shared: list[tuple[int, Ints]] = []
    at = len(base) + X_LEN
    tail[X_NCOMP] = len(comps)
    for k, comp in enumerate(comps):
        tail[X_MASK + k] = sum(1 << c for c in comp)
        tail[X_SIZE + k] = len(comp)
        for j, c in enumerate(comp):
            tail[X_COMP_OF + c] = k
            tail[X_STRIDE + c] = RADIX**j
            tail[X_CELLS + 16 * k + j] = c
        if len(comp) <= TABLE_CELLS:
            t = _table(base, cells, comp)
            for off, old in shared:
                if len(old) == len(t) and np.array_equal(old, t):
                    tail[X_TABLE + k] = off  # equal components share one table (and memo)
                    break
            else:
                tail[X_TABLE + k] = at
                shared.append((at, t))
                tables.append(t)
                at += len(t)
        else:
            tail[X_TABLE + k] = -1
    o_deck, n_deck = int(base[C_O_DECK]), int(base[C_DECK])
    for code in base[o_deck:o_deck + n_deck]:
        tail[X_DECK + (int(code) & RANK_MASK)] += 1
    for i, name in enumerate(WEIGHTS):
        tail[X_WEIGHTS + i] = int(weights[name])
    end = np.array([len(base), MAGIC], dtype=np.int64)
    return np.concatenate([base, tail, *tables, end])


# --- expectations (compiled) ------------------------------------------------------------
@jit
def _tail(cfg: Ints) -> int:
    if len(cfg) < 2 or cfg[len(cfg) - 1] != MAGIC:
        raise ValueError("the expert policy needs golf.fast.expert.expert_config(rules, "
                         "players), not the plain config")
    return int(cfg[len(cfg) - 2])


@jit
def _term(cfg: Ints, x: int, k: int, ranks: Ints, grid: Ints) -> int:
    """The term of component ``k`` with its cells' ranks as in ``ranks`` (0 unknown)."""
    m = cfg[x + X_SIZE + k]
    t = cfg[x + X_TABLE + k]
    if t >= 0:
        idx = 0
        s = 1
        for j in range(m):
            idx += ranks[cfg[x + X_CELLS + 16 * k + j]] * s
            s *= RADIX
        return int(cfg[t + idx])
    cells = cfg[C_CELLS]
    for i in range(cells):
        grid[i] = 0
    for j in range(m):
        c = cfg[x + X_CELLS + 16 * k + j]
        grid[c] = ranks[c]
    # grid[16:] is the scorer's work space for sets (expert_action sizes it): scored
    # here once per draw, the search must not allocate
    return int(lowest_total(cfg, grid, grid[16:]) - (cells - m) * cfg[C_POINTS])


@jit
def _sampled(cfg: Ints, x: int, k: int, ranks: Ints, counts: Ints, n: int,
             grid: Ints, pool: Ints) -> int:
    """Expected term (hundredths) over a fixed set of draws of the unknown cells
    (without replacement; the draws depend on the unseen counts alone)."""
    m = cfg[x + X_SIZE + k]
    p = 0
    for r in range(1, RADIX):
        for _ in range(counts[r]):
            pool[p] = r
            p += 1
    work = pool[p:]
    unknown = 0
    for j in range(m):
        c = cfg[x + X_CELLS + 16 * k + j]
        if ranks[c] == 0:
            work[unknown] = c
            unknown += 1
    picked = work[unknown:]
    lcg = 12345 + 7919 * n + 104729 * k
    acc = 0
    for _ in range(SAMPLES):
        for u in range(unknown):
            while True:
                lcg = (lcg * 1103515245 + 12345) & 0x7FFFFFFF
                q = (lcg >> 7) % p
                dup = False
                for v in range(u):
                    if picked[v] == q:
                        dup = True
                if not dup:
                    break
            picked[u] = q
            ranks[work[u]] = pool[q]
        acc += _term(cfg, x, k, ranks, grid)
    for u in range(unknown):
        ranks[work[u]] = 0
    return int(100 * acc // SAMPLES)


@jit
def comp_expect(cfg: Ints, x: int, k: int, ranks: Ints, counts: Ints, n: int,
                grid: Ints, pool: Ints) -> int:
    """Expected term (hundredths) of component ``k``: its unknown cells drawn from the
    ``n`` unseen cards ``counts``: exact for up to two unknown cells, over fixed draws
    for more; a component without a table (more than four cells: house rules only) is
    scored directly: exactly for one unknown cell, with more at the unseen cards'
    mean."""
    m = cfg[x + X_SIZE + k]
    u1 = -1
    u2 = -1
    unknown = 0
    for j in range(m):
        c = cfg[x + X_CELLS + 16 * k + j]
        if ranks[c] == 0:
            unknown += 1
            if u1 < 0:
                u1 = c
            elif u2 < 0:
                u2 = c
    if u1 < 0 or n == 0:
        return 100 * _term(cfg, x, k, ranks, grid)
    t = cfg[x + X_TABLE + k]
    if t < 0:
        # No table (a 3x3 grid matched by rows and columns is one component of nine
        # cells): scored directly. With one unknown cell exactly, as golf.bots.estimate
        # does; with more, the unknown cells at the unseen cards' mean (the Python
        # expert samples them, but its 24 draws rarely complete a line or block, and
        # 16 draws of our own agreed with its moves less often than the mean does).
        if unknown == 1:
            acc = 0
            for y in range(1, RADIX):
                if counts[y]:
                    ranks[u1] = y
                    acc += counts[y] * _term(cfg, x, k, ranks, grid)
            ranks[u1] = 0
            return int(100 * acc // n)
        acc = 0
        for y in range(1, RADIX):
            acc += counts[y] * cfg[C_POINTS + y]
        return int(100 * _term(cfg, x, k, ranks, grid) + unknown * (100 * acc // n))
    if unknown > 2 or (u2 >= 0 and n < 2):
        if n < unknown:
            return 100 * _term(cfg, x, k, ranks, grid)
        return _sampled(cfg, x, k, ranks, counts, n, grid, pool)
    base = t + _index0(cfg, x, k, ranks)
    s1 = cfg[x + X_STRIDE + u1]
    acc = 0
    if u2 < 0:
        for y in range(1, RADIX):
            if counts[y]:
                acc += counts[y] * cfg[base + y * s1]
        return int(100 * acc // n)
    s2 = cfg[x + X_STRIDE + u2]
    for a in range(1, RADIX):
        ca = counts[a]
        if not ca:
            continue
        row = 0
        for b in range(1, RADIX):
            cb = counts[b] - (1 if a == b else 0)
            if cb > 0:
                row += cb * cfg[base + a * s1 + b * s2]
        acc += ca * row
    return int(100 * acc // (n * (n - 1)))


@jit
def _index0(cfg: Ints, x: int, k: int, ranks: Ints) -> int:
    """Table index of the component's known cells (unknown ones at 0)."""
    idx = 0
    s = 1
    for j in range(cfg[x + X_SIZE + k]):
        idx += ranks[cfg[x + X_CELLS + 16 * k + j]] * s
        s *= RADIX
    return int(idx)


@jit
def _memo_find(memo: Ints, key: int) -> int:
    """The slot of ``key`` in a decision's memo (-1: not there)."""
    for i in range(memo[0]):
        if memo[1 + i] == key:
            return i
    return -1


@jit
def _memo_add(memo: Ints, key: int) -> int:
    """A new slot for ``key`` (-1 when the memo is full)."""
    i = memo[0]
    if i >= MEMO:
        return -1
    memo[1 + i] = key
    memo[0] = i + 1
    return int(i)


@jit
def _direct(cfg: Ints, x: int, k: int, ranks: Ints, cell: int, counts: Ints, n: int,
            rest: int, out: Ints, lo: int, hi: int, memo: Ints, slot: int) -> bool:
    """:func:`placements` straight from the table when at most one other cell of the
    component is unknown (the common case); False where it does not apply."""
    t = cfg[x + X_TABLE + k]
    idx = 0
    s = 1
    su = 0
    for j in range(cfg[x + X_SIZE + k]):
        c = cfg[x + X_CELLS + 16 * k + j]
        if c != cell:
            r = ranks[c]
            if r == 0:
                if su:
                    return False
                su = s
            idx += r * s
        s *= RADIX
    if su and n == 0:
        return False
    sc = cfg[x + X_STRIDE + cell]
    at = MEMO + 1 + 16 * slot
    for r in range(lo, hi):
        if cfg[x + X_DECK + r] == 0:
            e = BIG
        elif su == 0:
            e = 100 * cfg[t + idx + r * sc]
        else:
            b = t + idx + r * sc
            acc = 0
            for y in range(1, RADIX):
                if counts[y]:
                    acc += counts[y] * cfg[b + y * su]
            e = 100 * acc // n
        if slot >= 0:
            memo[at + r] = e
        out[r] = BIG if e >= BIG else rest + e
    return True


@jit
def grid_expect(cfg: Ints, x: int, ranks: Ints, counts: Ints, n: int, cur: Ints,
                grid: Ints, pool: Ints, memo: Ints) -> int:
    """Expected total (hundredths) of a grid of ranks (0 unknown); each component's
    term into ``cur``. ``memo`` keeps what one decision's unseen cards give, by table
    and known ranks, so that equal components are worked out once."""
    total = 0
    vals = MEMO + 1
    for k in range(cfg[x + X_NCOMP]):
        t = cfg[x + X_TABLE + k]
        if t >= 0:
            key = t << 34 | _index0(cfg, x, k, ranks) << 17
            i = _memo_find(memo, key)
            if i >= 0:
                e = memo[vals + 16 * i]
            else:
                e = comp_expect(cfg, x, k, ranks, counts, n, grid, pool)
                i = _memo_add(memo, key)
                if i >= 0:
                    memo[vals + 16 * i] = e
        else:
            e = comp_expect(cfg, x, k, ranks, counts, n, grid, pool)
        cur[k] = e
        total += e
    return int(total)


@jit
def placements(cfg: Ints, x: int, ranks: Ints, cell: int, counts: Ints, n: int,
               total: int, cur: Ints, out: Ints, lo: int, hi: int, grid: Ints,
               pool: Ints, memo: Ints) -> None:
    """``out[r]``: the expected total after a card of rank ``r`` (``lo <= r < hi``, ranks
    the deck holds) goes to ``cell``."""
    k = cfg[x + X_COMP_OF + cell]
    rest = total - cur[k]
    old = ranks[cell]
    t = cfg[x + X_TABLE + k]
    slot = -1
    if t >= 0 and hi - lo > 1:
        ranks[cell] = 0
        key = t << 34 | _index0(cfg, x, k, ranks) << 17 | cfg[x + X_STRIDE + cell] << 1 | 1
        ranks[cell] = old
        i = _memo_find(memo, key)
        at = MEMO + 1 + 16 * i
        if i >= 0:
            for r in range(lo, hi):
                v = memo[at + r]
                out[r] = BIG if v >= BIG else rest + v
            return
        slot = _memo_add(memo, key)
    at = MEMO + 1 + 16 * slot
    if t >= 0 and _direct(cfg, x, k, ranks, cell, counts, n, rest, out, lo, hi, memo, slot):
        return
    for r in range(lo, hi):
        if cfg[x + X_DECK + r] == 0:
            out[r] = BIG
            if slot >= 0:
                memo[at + r] = BIG
            continue
        ranks[cell] = r
        e = comp_expect(cfg, x, k, ranks, counts, n, grid, pool)
        if slot >= 0:
            memo[at + r] = e
        out[r] = rest + e
    ranks[cell] = old


# --- what the seat knows -----------------------------------------------------------------
@jit
def unseen(st: Ints, cfg: Ints, x: int, seat: int, counts: Ints, draws: Ints) -> int:
    """The cards ``seat`` has not seen, by rank, into ``counts`` (returns how many), and
    what a draw from the stock gives into ``draws``."""
    for r in range(RADIX):
        counts[r] = cfg[x + X_DECK + r]
        draws[r] = 0
    cells, n = cfg[C_CELLS], cfg[C_PLAYERS]
    o_grids, o_up, o_peeked = cfg[C_O_GRIDS], cfg[C_O_UP], cfg[C_O_PEEKED]
    active = st[S_ACTIVE]
    for s in range(n):
        if not active >> s & 1:
            continue
        seen = st[o_up + s]
        if s == seat:
            seen |= st[o_peeked + s]
        for i in range(cells):
            if seen >> i & 1:
                counts[st[o_grids + s * cells + i] & RANK_MASK] -= 1
    o_discard, dl = cfg[C_O_DISCARD], st[S_DISCARD_LEN]
    for j in range(dl):
        counts[st[o_discard + j] & RANK_MASK] -= 1
    # A card taken from the discard pile was face up, and one drawn after a reshuffle
    # came from a public stock: every seat knows it (as golf.knowledge counts it).
    if st[S_HELD] >= 0 and (st[S_CUR] == seat or st[S_HELD_FROM] == FROM_DISCARD
                            or st[S_RESHUFFLES] > 0):
        counts[st[S_HELD] & RANK_MASK] -= 1
    sl = st[S_STOCK_LEN]
    if st[S_RESHUFFLES] > 0:  # the stock's cards are public (not their order)
        o_stock = cfg[C_O_STOCK]
        for j in range(sl):
            r = st[o_stock + j] & RANK_MASK
            counts[r] -= 1
            draws[r] += 1
    if sl == 0 and cfg[C_RESHUFFLE]:  # a draw reshuffles the pile below its top
        for j in range(dl - 1):
            draws[st[o_discard + j] & RANK_MASK] += 1
    elif sl > 0 and st[S_RESHUFFLES] == 0:
        for r in range(RADIX):
            draws[r] = counts[r]
    total = 0
    for r in range(1, RADIX):
        total += counts[r]
    return int(total)


@jit
def _known(st: Ints, cfg: Ints, seat: int, own: bool, ranks: Ints) -> int:
    """The ranks ``seat``'s grid shows (its own peeked cells too when ``own``); returns
    the mask of its face-down cells."""
    up = st[cfg[C_O_UP] + seat]
    known_ranks(st, cfg, seat, up | st[cfg[C_O_PEEKED] + seat] if own else up, ranks)
    return int(cfg[C_FULL] ^ up)


# --- the opponents ------------------------------------------------------------------------
@jit
def _opponent(st: Ints, cfg: Ints, x: int, seat: int, counts: Ints, n: int, draws: Ints,
              nd: int, take: Ints, work: Ints, grid: Ints, pool: Ints,
              memo: Ints) -> tuple[int, int]:
    """Opponent ``seat`` as we see it: (expected total, expected gain of its draw); the
    expected total after it takes each rank into ``take``."""
    cells = cfg[C_CELLS]
    ranks = work[:16]
    cur = work[16:32]
    vec = work[32:48]
    down = _known(st, cfg, seat, False, ranks)
    e = grid_expect(cfg, x, ranks, counts, n, cur, grid, pool, memo)
    for r in range(RADIX):
        take[r] = e
    replace_down = cfg[C_REPLACE_DOWN] != 0
    for c in range(cells):
        if replace_down and not down >> c & 1:
            continue
        placements(cfg, x, ranks, c, counts, n, e, cur, vec, 1, RADIX, grid, pool, memo)
        for r in range(1, RADIX):
            if vec[r] < take[r]:
                take[r] = vec[r]
    draw = e
    if nd:
        acc = 0
        for r in range(1, RADIX):
            if draws[r]:
                acc += draws[r] * min(take[r], e)
        draw = acc // nd
    peeks = cfg[C_SETUP_COUNT] if cfg[C_SETUP_PEEK] else 0
    if peeks:
        bias = cfg[x + X_WEIGHTS + W_PEEK_BIAS] * min(popcount(down), peeks)
        e -= bias
        draw -= bias
        for r in range(RADIX):
            take[r] -= bias
    return int(e), int(e - draw)


# --- the decision --------------------------------------------------------------------------
@jit
def expert_action(st: Ints, cfg: Ints, legal: Ints, n_legal: int) -> int:
    """The compiled expert's choice among the ``n_legal`` legal actions in ``legal``."""
    x = _tail(cfg)
    phase = st[S_PHASE]
    seat = st[S_CUR]
    cells = cfg[C_CELLS]
    w = x + X_WEIGHTS
    buf = np.empty(1024 + cfg[C_DECK] + 64, dtype=np.int64)
    memo = np.empty(MEMO * 17 + 1, dtype=np.int64)
    memo[0] = 0
    ranks = buf[0:16]
    grid = np.empty(16 + cfg[C_WORK], dtype=np.int64)  # a grid, then the scorer's work
    cur = buf[32:48]
    counts = buf[48:63]
    draws = buf[63:78]
    down = _known(st, cfg, seat, True, ranks)
    if phase == SETUP:
        return _setup(cfg, x, ranks, legal, n_legal)
    n = unseen(st, cfg, x, seat, counts, draws)
    nd = 0
    for r in range(1, RADIX):
        nd += draws[r]
    pool = buf[1024:]
    total = grid_expect(cfg, x, ranks, counts, n, cur, grid, pool, memo)
    final = st[S_ENDER] >= 0
    n_down = popcount(down)
    end_cell = -1
    if not final and cfg[C_END] == END_FIRST and n_down == 1:
        for i in range(cells):
            if down >> i & 1:
                end_cell = i
    top = 0
    if st[S_DISCARD_LEN] > 0:
        top = st[cfg[C_O_DISCARD] + st[S_DISCARD_LEN] - 1] & RANK_MASK
    vec = buf[240:255]
    ends = buf[208:223]  # end utility of finishing with the total, by the top left
    if phase == FLIP and end_cell < 0:  # no ending in view: the opponents do not matter
        return _flip(cfg, x, st, ranks, down, end_cell, final, total, top, counts, n,
                     draws, nd, cur, vec, legal, n_legal, ends, grid, pool, memo)
    # --- the opponents: what our discard gives the next one, how they may finish
    players = cfg[C_PLAYERS]
    take0 = buf[80:95]
    takek = buf[96:111]
    work = buf[112:160]
    threat = buf[160:175]
    opp_fin = buf[176:191]
    opp_gain = buf[192:207]
    n_opps = 0
    e0 = 0
    gain0 = 0
    rest = BIG
    rest_gain = 0
    turns_rule = cfg[C_FINAL_TURNS] != 0
    s = seat
    for _ in range(players - 1):
        s = (s + 1) % players
        if not st[S_ACTIVE] >> s & 1:
            continue
        if n_opps == 0:
            e0, gain0 = _opponent(st, cfg, x, s, counts, n, draws, nd, take0, work, grid,
                                  pool, memo)
        else:
            e, g = _opponent(st, cfg, x, s, counts, n, draws, nd, takek, work, grid, pool, memo)
            if not turns_rule:
                g = 0
            if e - g < rest:
                rest, rest_gain = e - g, g
        n_opps += 1
    for r in range(RADIX):
        threat[r] = 0
        if n_opps == 0:
            opp_fin[r] = total + 100_000  # solitaire: nobody to lose to
            opp_gain[r] = 0
            continue
        g = 0
        if turns_rule:
            g = gain0
            if r and e0 - take0[r] > g:
                g = e0 - take0[r]
        if e0 - g < rest:
            opp_fin[r], opp_gain[r] = e0 - g, g
        else:
            opp_fin[r], opp_gain[r] = rest, rest_gain
    w_def = cfg[w + W_DEF]
    if not final and n_opps and w_def:
        floor = e0 - gain0
        acc = 0
        for r in range(1, RADIX):
            d = floor - take0[r]
            threat[r] = w_def * d // 100 if d > 0 else 0
            acc += counts[r] * threat[r]
        threat[0] = acc // n if n else 0
    margin = cfg[w + W_MARGIN]
    late = st[cfg[C_O_TURNS] + seat] - cfg[w + W_PATIENCE]
    if late > 0:
        margin -= cfg[w + W_HURRY] * late
    # --- our options
    for r in range(RADIX):
        ends[r] = _end_utility(cfg, w, total, opp_fin[r], opp_gain[r], margin)
    discards = buf[224:239]
    must = cfg[C_FLIP_AFTER] == FLIP_MUST
    no_flip = cfg[C_FLIP_AFTER] == FLIP_NEVER
    for r in range(RADIX):
        if no_flip or n_down == 0 or final:
            discards[r] = total + threat[r]
        elif end_cell >= 0:
            if must:
                discards[r] = ends[r]
            else:
                discards[r] = min(ends[r], total + threat[r])
        else:
            t = total
            if not must and n_down - 1 >= cfg[w + W_KEEP_DOWN]:
                t -= cfg[w + W_FLIP_INFO]
            discards[r] = t + threat[r]
    replace_down = cfg[C_REPLACE_DOWN] != 0
    if phase == FLIP:
        return _flip(cfg, x, st, ranks, down, end_cell, final, total, top, counts, n,
                     draws, nd, cur, vec, legal, n_legal, ends, grid, pool, memo)
    if phase == HOLD:
        held = st[S_HELD] & RANK_MASK
        best_a, best_u = -1, BIG * 4
        for k in range(n_legal):
            a = legal[k]
            if a == DISCARD_CODE:
                u = discards[held]
            else:
                c = a & CELL_MASK
                placements(cfg, x, ranks, c, counts, n, total, cur, vec, held, held + 1,
                           grid, pool, memo)
                u = _use(cfg, w, vec[held], c, ranks[c], end_cell, threat, opp_fin,
                         opp_gain, margin)
            if u < best_u:
                best_a, best_u = a, u
        return int(best_a)
    if phase != TURN:  # pragma: no cover - no other phase asks a seat to act
        return int(legal[0])
    # best use of each rank: the lowest utility over the cells and the discard
    best = buf[256:271]
    for r in range(RADIX):
        best[r] = BIG
    for c in range(cells):
        if replace_down and not down >> c & 1:
            continue
        placements(cfg, x, ranks, c, counts, n, total, cur, vec, 1, RADIX, grid, pool, memo)
        for r in range(1, RADIX):
            if vec[r] >= BIG:
                continue
            u = _use(cfg, w, vec[r], c, ranks[c], end_cell, threat, opp_fin, opp_gain,
                     margin)
            if u < best[r]:
                best[r] = u
    best_a, best_u = -1, BIG * 4
    for k in range(n_legal):
        a = legal[k]
        u = BIG * 2
        if a == TAKE_CODE:
            if top:
                u = best[top]
                if cfg[C_RETURN_TAKEN] and discards[top] < u:
                    u = discards[top]
        elif a == DRAW_CODE:
            if nd:
                acc = 0
                for r in range(1, RADIX):
                    if draws[r]:
                        acc += draws[r] * min(best[r], discards[r])
                u = acc // nd
        elif a == KNOCK_CODE:
            if total <= opp_fin[top] - margin:
                u = total - cfg[w + W_KNOCK_BONUS]
            else:
                u = total + BAD_END
        elif a >> KIND_SHIFT == K_FLIP:
            u = ends[top] if (a & CELL_MASK) == end_cell else total + 1
        if u < best_u:
            best_a, best_u = a, u
    return int(best_a)


@jit
def _end_utility(cfg: Ints, w: int, final: int, opp: int, gain: int, margin: int) -> int:
    """Utility of ending the hole with an expected ``final`` total of our own."""
    if final <= opp - margin:
        return int(final - cfg[w + W_END_BONUS])
    return int(final + cfg[w + W_GAIN] * gain // 100 + cfg[w + W_BEHIND] * (final - opp) // 100)


@jit
def _use(cfg: Ints, w: int, e: int, cell: int, old: int, end_cell: int, threat: Ints,
         opp_fin: Ints, opp_gain: Ints, margin: int) -> int:
    """Utility of a placement whose expected total is ``e``: going out where it fills
    the last face-down cell, else ``e`` plus what the replaced card gives the next one."""
    if cell == end_cell:
        return _end_utility(cfg, w, e, opp_fin[old], opp_gain[old], margin)
    return int(e + threat[old])


@jit
def _known_near(cfg: Ints, x: int, ranks: Ints, cell: int) -> int:
    k = cfg[x + X_COMP_OF + cell]
    known = 0
    for j in range(cfg[x + X_SIZE + k]):
        if ranks[cfg[x + X_CELLS + 16 * k + j]]:
            known += 1
    return known


@jit
def _setup(cfg: Ints, x: int, ranks: Ints, legal: Ints, n_legal: int) -> int:
    """Look at cards in the components with the fewest known cards (each known card is
    a target a later card can match)."""
    best_a, best_key = -1, BIG
    for k in range(n_legal):
        a = legal[k]
        c = a & CELL_MASK
        comp = cfg[x + X_COMP_OF + c]
        key = _known_near(cfg, x, ranks, c) * 1_000_000 // cfg[x + X_SIZE + comp] + c * 1000
        if key < best_key:
            best_a, best_key = a, key
    return int(best_a)


@jit
def _flip(cfg: Ints, x: int, st: Ints, ranks: Ints, down: int, end_cell: int,
          final: bool, total: int, top: int, counts: Ints, n: int, draws: Ints, nd: int,
          cur: Ints, vec: Ints, legal: Ints, n_legal: int, ends: Ints, grid: Ints,
          pool: Ints, memo: Ints) -> int:
    """After a discard: flip (to learn a card) or pass.

    Utilities are in FLIP_UNIT-ths of a hundredth of a point. A flip to learn is worth
    a hundredth less than passing, plus 16 per known card near the cell plus the cell
    (the Python expert's ``total - 0.01 + 1e-4 * (known + 0.01 * cell)``: the cell
    known least, then the first). That preference must stay below the hundredth for
    every count of known cells: with a hundredth of 100 units, a grid one component
    wide (the nine cells of a 3x3 grid matched by rows and columns) with six cards
    known ranked passing first, and the compiled expert stopped flipping."""
    w = x + X_WEIGHTS
    must = cfg[C_FLIP_AFTER] == FLIP_MUST
    n_down = popcount(down)
    best_a, best_u = -1, BIG * 4
    for k in range(n_legal):
        a = legal[k]
        if a == PASS_CODE:
            u = FLIP_UNIT * total
        else:
            c = a & CELL_MASK
            if c == end_cell:
                u = FLIP_UNIT * ends[top]
            elif final:
                u = FLIP_UNIT * total
            elif not must:
                if n_down - 1 < cfg[w + W_KEEP_DOWN]:
                    u = FLIP_UNIT * total + FLIP_UNIT // 100
                else:
                    u = FLIP_UNIT * (total - 1) + 16 * _known_near(cfg, x, ranks, c) + c
            else:
                # keep face down the cards a later swap would improve most
                keep = 0
                if nd:
                    placements(cfg, x, ranks, c, counts, n, total, cur, vec, 1, RADIX, grid,
                               pool, memo)
                    acc = 0
                    for r in range(1, RADIX):
                        if draws[r] and vec[r] < total:
                            acc += draws[r] * (total - vec[r])
                    keep = acc // nd
                u = FLIP_UNIT * total + FLIP_UNIT // 100 * (16 * keep + c)
        if u < best_u:
            best_a, best_u = a, u
    return int(best_a)


@jit
def expert_choice(st: Ints, cfg: Ints) -> int:
    """The expert's action in ``st`` (allocates its buffers: for tools and tests)."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    n = _legal_actions(st, cfg, legal)
    return expert_action(st, cfg, legal, n)

