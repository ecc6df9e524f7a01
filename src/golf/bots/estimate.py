"""Expected scores of partly known grids, computed with the engine's scorer.

Bots know some cells of a grid and, for the others, only the distribution of the
cards they have not seen. This module never scores a grid itself: it asks
:func:`golf.scoring.scorer` for the total of whole grids and splits the grid into
*components*, the groups of cells that some match pattern links (the engine's
:func:`golf.scoring.patterns`). Cells of different components never interact, so
the total is a constant plus one term per component:
``total(grid) = base + sum(delta[c](cells of c))``, where ``delta[c]`` is the change
of the total when the cells of ``c`` replace those of a fixed filler grid (all
aces). The split is checked against the scorer when an estimator is built.

Each component of up to four cells gets a table of its terms indexed by
``sum(rank * 15**k)`` over its cells, so that the terms for every rank of one cell
are a slice of the table: hot loops run in C (``map``, ``sum``, slices), not in
Python. Larger components (a 3x3 grid matched by rows and columns is one component
of nine cells) are scored lazily and remembered.

Ranks are 1-14 (14 is a joker); 0 marks an unknown cell. ``counts[r]`` is how many
unseen cards of rank ``r`` remain (index 0 unused). Unknown cells are drawn from
those cards without replacement: exactly when one or two cells of a component are
unknown, by a fixed set of samples when more are.

>>> from golf import load_rules
>>> est = estimator(load_rules("six-card"))
>>> est.comps
((0, 3), (1, 4), (2, 5))
>>> est.total((1, 2, 3, 1, 5, 13))
6
>>> counts = [0] + [4] * 13 + [0]           # a full deck unseen
>>> est.expect((1, 2, 3, 1, 5, 0), counts)  # the last card unknown: 3 + 5.46 - 6 * 4/52
11.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import repeat
from math import fsum
from operator import add, mul

from ..cards import ACE
from ..rules import Rules
from ..scoring import Scorer, linked_groups, scorer

RADIX = 15  # ranks 0 (unknown) to 14 (joker)
#: Components with at most this many cells get a full table when first used.
TABLE_CELLS = 4
#: Samples of the unknown cells where a component has more than two of them.
SAMPLES = 24
INF = float("inf")
#: A two-cell table split as a[x] + b[y] + sparse residue (x, y, value).
Split = tuple[list[int], list[int], tuple[tuple[int, int, int], ...]]
#: A cell of a two-cell component: (component, other cell, rows of terms for each
#: rank of the other cell (each indexed by this cell's rank), row-sums key).
Pair = tuple[int, int, list[list[int]], int]


class Estimator:
    """Expected totals of one rules object's grids under uncertainty.

    Build it with :func:`estimator`, which keeps one per rules object.
    """

    __slots__ = (
        "_lazy", "_splits", "_tables", "all_pairs", "base", "canon", "cell_stride", "cells",
        "comp_of", "comps", "pair", "pos_in_comp", "ranks", "rows0", "rows1", "rules", "scorer",
        "strides", "symmetric", "table_id", "table_key",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.scorer: Scorer = scorer(rules)
        n = self.cells = rules.cells
        self.ranks = tuple(range(1, 15) if rules.jokers_per_deck else range(1, 14))
        self.base = self.scorer.total((ACE,) * n)
        self._setup(linked_groups(rules))
        if len(self.comps) > 1 and not self._additive():
            # Never happens with the engine's patterns, but a wrong split would make
            # every estimate wrong: fall back to scoring whole grids.
            self._setup((tuple(range(n)),))
        self._pairs()

    def _pairs(self) -> None:
        """Build the (small) tables of two-cell components now, and for each of their
        cells what the hot paths need: the component, the other cell, the rows by the
        other cell's rank, and the integer keys of its row sums (shared by components
        with one table; one key for both cells of a symmetric table)."""
        self.canon: list[tuple[int, Split | None, list[list[int]], list[int]]] = []
        keys: dict[tuple[int, int], int] = {}
        pair: list[Pair | None] = [None] * self.cells
        for comp, cells in enumerate(self.comps):
            if len(cells) != 2 or self.table_id[comp] < 0:
                continue
            self.table(comp)
            for pos in (0, 1):
                key = (self.table_key[comp], 0 if self.symmetric[comp] else pos)
                if key not in keys:
                    keys[key] = len(self.canon)
                    rows = self.rows1[comp] if pos == 0 else self.rows0[comp]
                    self.canon.append((comp, self.split(comp, pos), rows,
                                       self.diagonal(comp)))
                beside = (self.rows0 if pos == 0 else self.rows1)[comp]
                pair[cells[pos]] = (comp, cells[1 - pos], beside, keys[key])
        self.pair = tuple(pair)
        self.all_pairs = all(p is not None for p in pair)

    def _setup(self, comps: tuple[tuple[int, ...], ...]) -> None:
        n = self.cells
        self.comps = comps
        self.comp_of = tuple(next(k for k, c in enumerate(comps) if i in c) for i in range(n))
        self.pos_in_comp = tuple(comps[self.comp_of[i]].index(i) for i in range(n))
        self.strides = tuple(tuple(RADIX ** k for k in range(len(c))) for c in comps)
        self.cell_stride = tuple(RADIX ** self.pos_in_comp[i] for i in range(n))
        self._lazy: list[dict[int, int]] = [{} for _ in comps]
        self._tables: list[list[int] | None] = [None] * len(comps)
        self.table_id = tuple(k if len(c) <= TABLE_CELLS else -1 for k, c in enumerate(comps))
        # Two-cell components: the terms for every rank x of one cell next to rank r,
        # by r (rows0: x in the first cell, rows1: x in the second).
        self.rows0: dict[int, list[list[int]]] = {}
        self.rows1: dict[int, list[list[int]]] = {}
        # Components sharing one table share its key; a symmetric two-cell table
        # scores (a, b) like (b, a).
        self.table_key = list(range(len(comps)))
        self.symmetric = [False] * len(comps)
        self._splits: dict[tuple[int, int], Split | None] = {}

    # --- tables ------------------------------------------------------------------
    def table(self, comp: int) -> list[int]:
        """The full table of terms of a small component (built on first use)."""
        t = self._tables[comp]
        if t is None:
            t = self._tables[comp] = self._full_table(self.comps[comp])
            for k in range(comp):
                if self._tables[k] is t:
                    self.table_key[comp] = self.table_key[k]
                    break
            if len(self.comps[comp]) == 2:
                self.rows0[comp] = [t[r * RADIX:(r + 1) * RADIX] for r in range(RADIX)]
                self.rows1[comp] = [t[r::RADIX] for r in range(RADIX)]
                self.symmetric[comp] = self.rows0[comp] == self.rows1[comp]
        return t

    def diagonal(self, comp: int) -> list[int]:
        """Two-cell table: the term of each rank next to an equal rank."""
        key = (self.table_key[comp], -1)
        d = self._splits.get(key)
        if d is None:
            t = self.table(comp)
            d = self._splits[key] = ([t[x * (1 + RADIX)] for x in range(RADIX)], [], ())
        return d[0]

    def split(self, comp: int, pos: int) -> Split | None:
        """A two-cell table as ``a[x] + b[y] + residue`` (x in ``pos``, y beside it)
        when the residue is sparse, as it is for matching rules (only equal or
        special ranks interact). Row sums then cost a few operations, not a
        15-by-15 product. None if the residue is not sparse."""
        key = (self.table_key[comp], pos)
        if key in self._splits:
            return self._splits[key]
        rows = self.rows1[comp] if pos == 0 else self.rows0[comp]  # rows[x][y]
        ranks = self.ranks
        x0 = ranks[0]
        b = [0] * RADIX
        for y in ranks:
            b[y] = rows[x0][y]
        a = [0] * RADIX
        for x in ranks:
            diffs = [rows[x][y] - b[y] for y in ranks]
            a[x] = max(set(diffs), key=lambda d: (diffs.count(d), -abs(d)))
        residue = [(x, y, rows[x][y] - a[x] - b[y]) for x in ranks for y in ranks
                   if rows[x][y] != a[x] + b[y]]
        result: Split | None = (a, b, tuple(residue))
        if len(residue) > 4 * len(ranks):
            result = None
        self._splits[key] = result
        return result

    def _full_table(self, comp: tuple[int, ...]) -> list[int]:
        # Equal components (every column of a grid, say) share one table.
        for k, other in enumerate(self.comps):
            t = self._tables[k]
            if t is not None and len(other) == len(comp) and self._same_shape(comp, other):
                return t
        size = RADIX ** len(comp)
        t = [0] * size
        grid = [ACE] * self.cells
        total = self.scorer.total

        def fill(k: int, index: int, stride: int) -> None:
            if k == len(comp):
                t[index] = total(tuple(grid)) - self.base
                return
            for r in self.ranks:
                grid[comp[k]] = r
                fill(k + 1, index + r * stride, stride * RADIX)
            grid[comp[k]] = ACE

        fill(0, 0, 1)
        return t

    def _same_shape(self, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        """Whether two components score alike, checked on every assignment of a
        few ranks (cheap: components that score differently differ quickly)."""
        grid_a = [ACE] * self.cells
        grid_b = [ACE] * self.cells
        rng = random.Random(len(a))
        for _ in range(64):
            values = [rng.choice(self.ranks) for _ in a]
            for i, j, v in zip(a, b, values, strict=True):
                grid_a[i] = v
                grid_b[j] = v
            if self.scorer.total(tuple(grid_a)) != self.scorer.total(tuple(grid_b)):
                return False
        # Random checks can miss a rare difference: confirm on the whole table.
        return _exhaustive_same(self, a, b)

    def _additive(self) -> bool:
        rng = random.Random(12345)
        for _ in range(40):
            grid = tuple(rng.choice(self.ranks) for _ in range(self.cells))
            split = self.base + sum(
                self.delta(k, tuple(grid[i] for i in c)) for k, c in enumerate(self.comps)
            )
            if split != self.scorer.total(grid):
                return False
        return True

    def delta(self, comp: int, ranks: Sequence[int]) -> int:
        """The term of component ``comp`` whose cells hold ``ranks`` (all known)."""
        index = 0
        for r, s in zip(ranks, self.strides[comp], strict=True):
            index += r * s
        return self.term(comp, index)

    def term(self, comp: int, index: int) -> int:
        """The term of ``comp`` at a table index (``sum(rank * 15**k)``)."""
        if self.table_id[comp] >= 0:
            return self.table(comp)[index]
        lazy = self._lazy[comp]
        hit = lazy.get(index)
        if hit is None:
            grid = [ACE] * self.cells
            for i in self.comps[comp]:
                grid[i] = index % RADIX
                index //= RADIX
            hit = self.scorer.total(tuple(grid)) - self.base
            lazy[sum(grid[i] * s for i, s in zip(self.comps[comp], self.strides[comp],
                                                   strict=True))] = hit
        return hit

    # --- expectations ------------------------------------------------------------
    def total(self, ranks: Sequence[int]) -> int:
        """The total of a fully known grid (the engine's score)."""
        return self.scorer.total(tuple(ranks))

    def expect(
        self, ranks: Sequence[int], counts: Sequence[int], rng: random.Random | None = None,
    ) -> float:
        """Expected total of a grid given as ranks (0 = unknown)."""
        ev = Evaluation(self, counts, rng)
        return ev.grid(ranks)


def _exhaustive_same(est: Estimator, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    if len(a) > 3:
        return False  # too many assignments to confirm: keep separate tables
    grid_a = [ACE] * est.cells
    grid_b = [ACE] * est.cells

    def rec(k: int) -> bool:
        if k == len(a):
            return est.scorer.total(tuple(grid_a)) == est.scorer.total(tuple(grid_b))
        for r in est.ranks:
            grid_a[a[k]] = r
            grid_b[b[k]] = r
            if not rec(k + 1):
                return False
        grid_a[a[k]] = ACE
        grid_b[b[k]] = ACE
        return True

    return rec(0)


class Evaluation:
    """One decision's numbers: the unseen counts, one grid's expected total and its
    terms, and the expected total after a card goes to a cell.

    >>> from golf import load_rules
    >>> ev = Evaluation(estimator(load_rules("six-card")), [0] + [4] * 13 + [0])
    >>> round(ev.grid([10, 0, 0, 0, 0, 0]), 2)
    34.48
    >>> after = ev.placements([10, 0, 0, 0, 0, 0], 3, pooled=False)
    >>> round(after[10], 2), round(after[13], 2)  # a 10 under the 10 pairs it
    (20.56, 30.56)
    """

    __slots__ = (
        "_samples", "c1", "counts", "cur", "est", "n", "rng", "seed", "sums", "total", "units",
    )

    def __init__(
        self, est: Estimator, counts: Sequence[int], rng: random.Random | None = None,
        seed: int = 0,
    ) -> None:
        self.seed = seed
        self.est = est
        self.counts = list(counts)
        self.c1 = self.counts[1:]
        self.n = sum(self.counts)
        self.rng = rng
        self.sums: dict[int, list[int]] = {}
        self.units: dict[int, list[float]] = {}
        self.cur: list[float] = []
        self.total = 0.0
        self._samples: list[list[int]] | None = None

    def samples(self) -> list[list[int]]:
        """A fixed set of draws, without replacement, of as many unseen cards as a
        component has cells: the same draws serve every option of a decision."""
        s = self._samples
        if s is None:
            pool = [r for r in range(1, RADIX) for _ in range(self.counts[r])]
            k = max(len(c) for c in self.est.comps)
            s = []
            if pool:
                rng = self.rng or random.Random(self.seed)
                deck: list[int] = []
                for _ in range(SAMPLES):
                    if len(deck) < k:
                        # a fresh shuffle whenever the last one is used up
                        deck = pool[:]
                        rng.shuffle(deck)
                        while len(deck) < k:  # fewer unseen cards than cells
                            deck += deck
                    s.append(deck[-k:])
                    del deck[-k:]
            self._samples = s
        return s

    def fork(self) -> Evaluation:
        """An evaluation of another grid under the same unseen cards (sharing the
        work that depends on the cards alone)."""
        ev = Evaluation(self.est, self.counts, self.rng, self.seed)
        ev.sums = self.sums
        ev.units = self.units
        ev._samples = self._samples
        return ev

    def row_sums(self, key: int) -> list[int]:
        """Two-cell component (by row-sums key, see :attr:`Estimator.pair`):
        ``out[x] = sum(counts[y] * term(x here, y beside))``."""
        s = self.sums.get(key)
        if s is None:
            c = self.counts
            _, split, rows, _ = self.est.canon[key]
            if split is None:
                s = [sum(map(mul, rows[x], c)) for x in range(RADIX)]
            else:
                a, b, residue = split
                n = self.n
                bc = sum(map(mul, b, c))
                s = [v * n + bc for v in a]
                for x, y, r in residue:
                    s[x] += c[y] * r
            self.sums[key] = s
        return s

    def comp_value(self, comp: int, ranks: Sequence[int]) -> float:
        """Expected term of ``comp`` given the whole grid's ``ranks`` (0 = unknown)."""
        est = self.est
        cells = est.comps[comp]
        n = self.n
        pair = est.pair[cells[0]]
        if pair is not None:
            a, b = ranks[cells[0]], ranks[cells[1]]
            if a and b:
                return pair[2][b][a]
            if n == 0:
                return 0.0
            if a:
                return self.row_sums(pair[3])[a] / n
            if b:
                second = est.pair[cells[1]]
                assert second is not None
                return self.row_sums(second[3])[b] / n
            if n < 2:
                return 0.0
            c = self.counts
            acc: int = sum(map(mul, c, self.row_sums(pair[3])))
            acc -= sum(map(mul, c, est.canon[pair[3]][3]))
            return acc / (n * (n - 1))
        index = 0
        unknown: list[int] = []
        for i, s in zip(cells, est.strides[comp], strict=True):
            r = ranks[i]
            if r:
                index += r * s
            else:
                unknown.append(s)
        if not unknown:
            return est.term(comp, index)
        if n == 0:
            return 0.0
        if len(unknown) == 1:
            s = unknown[0]
            if est.table_id[comp] >= 0:
                t = est.table(comp)
                dot: int = sum(map(mul, t[index + s:index + RADIX * s:s], self.c1))
                return dot / n
            c = self.counts
            return sum(c[y] * est.term(comp, index + y * s) for y in range(1, RADIX)
                       if c[y]) / n
        samples = self.samples()
        acc = 0
        for draw in samples:
            j = index
            for k, s in enumerate(unknown):
                j += draw[k] * s
            acc += est.term(comp, j)
        return acc / len(samples)

    def grid(self, ranks: Sequence[int]) -> float:
        """Expected total of a grid; also keeps each component's term in ``cur``."""
        est = self.est
        self.cur = [self.comp_value(k, ranks) for k in range(len(est.comps))]
        self.total = est.base + fsum(self.cur)
        return self.total

    def unit(self, key: int, pooled: bool) -> list[float]:
        """Two-cell component whose other cell is unknown (by row-sums key): the
        expected term for each rank x here (with ``pooled``, x came out of the unseen
        cards)."""
        k = 2 * key + pooled
        u = self.units.get(k)
        if u is None:
            s = self.row_sums(key)
            n = self.n
            if n == 0:
                u = [0.0] * RADIX
            elif pooled and n > 1:
                n1 = n - 1
                u = [(v - d) / n1 if c else v / n
                     for v, d, c in zip(s, self.est.canon[key][3], self.counts, strict=True)]
            else:
                u = [v / n for v in s]
            self.units[k] = u
        return u

    def value(self, ranks: Sequence[int], cell: int, rank: int, pooled: bool) -> float:
        """Expected total after a card of ``rank`` goes to ``cell`` (one entry of
        :meth:`placements`, cheaper for two-cell components)."""
        vector, base = self.parts(ranks, cell, pooled)
        return base + vector[rank]

    def pair_parts(
        self, ranks: Sequence[int],
    ) -> list[tuple[Sequence[float], Sequence[float], float]]:
        """When every component has two cells: for each cell, what :meth:`parts`
        gives with and without ``pooled``, as ``(pooled vector, vector, base)``, in one
        pass. Call :meth:`grid` on the same ranks first."""
        est = self.est
        total, cur = self.total, self.cur
        units: dict[int, tuple[list[float], list[float]]] = {}
        out: list[tuple[Sequence[float], Sequence[float], float]] = []
        for pair in est.pair:
            assert pair is not None
            comp, other_cell, beside, key = pair
            other = ranks[other_cell]
            if other:
                row = beside[other]
                out.append((row, row, total - cur[comp]))
            else:
                u = units.get(key)
                if u is None:
                    u = units[key] = (self.unit(key, True), self.unit(key, False))
                out.append((u[0], u[1], total - cur[comp]))
        return out

    def parts(
        self, ranks: Sequence[int], cell: int, pooled: bool,
    ) -> tuple[Sequence[float], float]:
        """:meth:`placements` as ``(vector, base)`` with the base not yet added: for
        two-cell components the vector is a shared table row, so callers can group
        cells by vector and add each group's best base once."""
        pair = self.est.pair[cell]
        if pair is not None:
            comp, other_cell, beside, key = pair
            other = ranks[other_cell]
            base = self.total - self.cur[comp]
            if other:
                return beside[other], base
            return self.unit(key, pooled), base
        return self.placements(ranks, cell, pooled), 0.0

    def placements(
        self, ranks: Sequence[int], cell: int, pooled: bool, shift: float = 0.0,
    ) -> list[float]:
        """Expected total of the grid after each rank x (index 1-14; index 0 unused)
        goes to ``cell``, plus ``shift``. Call :meth:`grid` on the same ranks first.

        ``pooled``: x comes out of the unseen cards (a draw), so the other unknown
        cells are drawn from what is left."""
        est = self.est
        comp = est.comp_of[cell]
        base = self.total - self.cur[comp] + shift
        cells = est.comps[comp]
        pair = est.pair[cell]
        if pair is not None:
            vec, part_base = self.parts(ranks, cell, pooled)
            return list(map(add, vec, repeat(part_base + shift, RADIX)))
        n = self.n
        mine = est.cell_stride[cell]
        index = 0
        unknown: list[int] = []
        for i, st in zip(cells, est.strides[comp], strict=True):
            if i == cell:
                continue
            r = ranks[i]
            if r:
                index += r * st
            else:
                unknown.append(st)
        if est.table_id[comp] < 0:
            return self._placements_lazy(comp, base, index, mine, unknown)
        t = est.table(comp)
        end = RADIX * mine
        if not unknown:
            return [0.0, *map(add, t[index + mine:index + end:mine], repeat(base, RADIX))]
        if n == 0:
            return [base] * RADIX
        if len(unknown) == 1:
            s = unknown[0]
            acc = [0] * (RADIX - 1)
            c1 = self.c1
            for y in range(1, RADIX):
                cy = c1[y - 1]
                if cy:
                    j = index + y * s
                    acc = list(map(add, acc, map(mul, t[j + mine:j + end:mine], repeat(cy))))
            if pooled and n > 1:
                d = mine + s
                diag = t[index + d:index + RADIX * d:d]
                return [0.0] + [base + ((a - g) / (n - 1) if cx else a / n)
                                for a, g, cx in zip(acc, diag, c1, strict=True)]
            return [0.0] + [base + a / n for a in acc]
        samples = self.samples()
        acc = [0] * (RADIX - 1)
        for draw in samples:
            j = index
            for k, s in enumerate(unknown):
                j += draw[k] * s
            acc = list(map(add, acc, t[j + mine:j + end:mine]))
        m = len(samples)
        return [0.0] + [base + a / m for a in acc]

    def _placements_lazy(
        self, comp: int, base: float, index: int, mine: int, unknown: list[int],
    ) -> list[float]:
        # The small correction for a drawn card (``pooled``) is left out here.
        est = self.est
        c, n = self.counts, self.n
        out = [0.0] * RADIX
        fills: list[tuple[float, int]]
        if not unknown:
            fills = [(1.0, 0)]
        elif n == 0:
            return [base] * RADIX
        elif len(unknown) == 1:
            fills = [(c[y] / n, y * unknown[0]) for y in range(1, RADIX) if c[y]]
        else:
            samples = self.samples()
            w = 1.0 / len(samples)
            fills = []
            for draw in samples:
                j = 0
                for k, s in enumerate(unknown):
                    j += draw[k] * s
                fills.append((w, j))
        for x in est.ranks:
            j = index + x * mine
            out[x] = base + fsum(w * est.term(comp, j + f) for w, f in fills)
        return out




def estimator(rules: Rules) -> Estimator:
    """The estimator of ``rules`` (built once and kept on the rules object)."""
    return rules.cached("_estimator", Estimator)
