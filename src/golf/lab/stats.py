"""The lab's figures and their 95% intervals.

Every figure is a smooth function of totals of per-deal counts (a ratio such as turns
per hole, or a spread such as the standard deviation of hole scores), so one method
gives every interval: the **delete-a-group jackknife over deals**. The deals are split
into ``g`` groups (up to :data:`GROUPS`, in deal order); the figure is worked out again
``g`` times, each time without one group; the spread of those ``g`` figures gives the
standard error, and the interval is the figure plus or minus 1.96 standard errors.

Deals, not holes, are the independent units (the holes of a match share its totals and
its players' habits), so the intervals hold for clustered data. An *effect* (a ruleset
minus its base) is computed from both rulesets' counts of the same deals, and a group is
left out of both at once: that is the paired interval, and the luck of the cards that
both share cancels out of it.

>>> import numpy as np
>>> rows = np.array([[1, 2], [1, 4], [1, 3], [1, 5]])
>>> est, lo, hi = jackknife(lambda t: t[1] / t[0], rows)
>>> est, round(lo, 3), round(hi, 3)
(3.5, 2.235, 4.765)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .effects import MAX_HOLES
from .play import COL

Z95 = 1.959963984540054
#: At most this many jackknife groups (more cost time and change the interval little).
GROUPS = 200

Totals = npt.NDArray[np.float64]


def jackknife(stat: Callable[[Totals], float], rows: npt.NDArray[Any],
              groups: int = GROUPS) -> tuple[float, float, float]:
    """``stat`` of the column totals of ``rows`` (one row per deal), with its 95%
    jackknife interval over groups of deals. NaN bounds with fewer than two deals."""
    data = np.asarray(rows, dtype=np.float64)
    total = data.sum(axis=0)
    est = _safe(stat, total)
    n = data.shape[0]
    g = min(groups, n)
    if g < 2 or math.isnan(est):
        return est, math.nan, math.nan
    parts = np.array_split(np.arange(n), g)
    sums = np.stack([data[p].sum(axis=0) for p in parts])
    loo = [_safe(stat, total - sums[i]) for i in range(g)]
    if any(math.isnan(v) for v in loo):
        return est, math.nan, math.nan
    arr = np.array(loo)
    se = math.sqrt((g - 1) / g * float(((arr - arr.mean()) ** 2).sum()))
    return est, est - Z95 * se, est + Z95 * se


def _safe(stat: Callable[[Totals], float], t: Totals) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        try:
            v = float(stat(t))
        except ZeroDivisionError:
            return math.nan
    return v if math.isfinite(v) else math.nan


def _ratio(num: str, den: str, scale: float = 1.0) -> Callable[[Totals], float]:
    i, j = COL[num], COL[den]
    return lambda t: scale * t[i] / t[j] if t[j] else math.nan


def _sd(t: Totals) -> float:
    n = t[COL["player_holes"]]
    if n < 2:
        return math.nan
    mean = t[COL["score"]] / n
    var = (t[COL["score_sq"]] - n * mean * mean) / (n - 1)
    return math.sqrt(max(var, 0.0))


def _edge(col: str) -> Callable[[Totals], float]:
    # first_diff sums (mover - others' mean) x (players - 1); the edge is the others'
    # mean minus the mover's score, per hole: positive when moving first helps.
    i = COL[col]
    return lambda t: -t[i] / t[COL["holes"]] / _others(t) if t[COL["holes"]] else math.nan


def _others(t: Totals) -> float:
    # players - 1, from the totals: player_holes / holes (no playoffs in either)
    return float(t[COL["player_holes"]] / t[COL["holes"]]) - 1.0


@dataclass(frozen=True)
class Figure:
    """One figure of the lab: its key, how to compute it, its unit and its words."""

    key: str
    stat: Callable[[Totals], float]
    unit: str
    en: str
    de: str
    #: Whether a change is best said in per cent (lengths) or in points/rates.
    relative: bool = False


FIGURES: tuple[Figure, ...] = (
    Figure("turns_per_hole", _ratio("turns", "holes"), "turns",
           "turns per hole (all players)", "Züge pro Runde (alle Spieler)", relative=True),
    Figure("holes_per_match", _ratio("holes", "matches"), "holes",
           "holes per match", "Runden pro Partie", relative=True),
    Figure("turns_per_match", _ratio("turns", "matches"), "turns",
           "turns per match (its length)", "Züge pro Partie (ihre Länge)", relative=True),
    Figure("mean_score", _ratio("score", "player_holes"), "points",
           "mean hole score", "mittlere Punktzahl pro Runde"),
    Figure("score_spread", _sd, "points",
           "spread of hole scores (standard deviation)",
           "Streuung der Punkte pro Runde (Standardabweichung)"),
    Figure("first_edge", _edge("first_diff"), "points",
           "first player's edge (points per hole better than the others' mean)",
           "Vorteil des ersten Spielers (Punkte pro Runde besser als der Schnitt der anderen)"),
    Figure("last_edge", _edge("last_diff"), "points",
           "last player's edge (points per hole better than the others' mean)",
           "Vorteil des letzten Spielers (Punkte pro Runde besser als der Schnitt der anderen)"),
    Figure("knocks", _ratio("knocks", "holes"), "per hole",
           "knocks per hole", "Klopfen pro Runde"),
    Figure("final_turns", _ratio("final_turn_holes", "holes"), "share of holes",
           "holes with final turns", "Runden mit letzten Zügen"),
    Figure("pairs", _ratio("set_grids", "player_holes"), "share of grids",
           "grids where a pair or other matched set counted",
           "Auslagen, in denen ein Paar oder anderes Set zählte"),
    Figure("wild_cards", _ratio("wild_cards", "player_holes"), "per grid",
           "wild cards in a final grid", "Joker (wild) in einer Auslage am Ende"),
    Figure("reshuffles", _ratio("reshuffles", "holes"), "per hole",
           "reshuffles of the discard pile per hole", "Neumischen des Ablagestapels pro Runde"),
    Figure("ties", _ratio("tied", "matches"), "share of matches",
           "matches ending in a shared win", "Partien mit geteiltem Sieg"),
    Figure("playoffs", _ratio("playoff_matches", "matches"), "share of matches",
           "matches needing a playoff hole", "Partien mit Stechen"),
    Figure("capped", _ratio("capped", "matches"), "share of matches",
           f"matches stopped unfinished after {MAX_HOLES} holes",
           f"nach {MAX_HOLES} Runden unbeendet abgebrochene Partien"),
)
FIGURE = {f.key: f for f in FIGURES}


def estimate(rows: npt.NDArray[np.int64]) -> dict[str, tuple[float, float, float]]:
    """Every figure of one ruleset's rows: ``key -> (estimate, low, high)``."""
    return {f.key: jackknife(f.stat, rows) for f in FIGURES}


def effects(rows: npt.NDArray[np.int64], base: npt.NDArray[np.int64]
            ) -> dict[str, dict[str, tuple[float, float, float]]]:
    """Paired effects of a ruleset (``rows``) against its ``base`` on the same deals:
    per figure the ``difference`` (ruleset minus base) and, where the base is not zero,
    the ``ratio`` (ruleset over base), each ``(estimate, low, high)``."""
    if rows.shape[0] != base.shape[0]:
        raise ValueError("paired effects need the same deals for the ruleset and its base")
    both = np.hstack([rows, base])
    k = rows.shape[1]
    out: dict[str, dict[str, tuple[float, float, float]]] = {}
    for f in FIGURES:
        def diff(t: Totals, s: Callable[[Totals], float] = f.stat) -> float:
            return s(t[:k]) - s(t[k:])

        def ratio(t: Totals, s: Callable[[Totals], float] = f.stat) -> float:
            b = s(t[k:])
            return s(t[:k]) / b if b else math.nan

        out[f.key] = {"difference": jackknife(diff, both), "ratio": jackknife(ratio, both)}
    return out


def skill(rows: npt.NDArray[np.int64]) -> tuple[float, float, float]:
    """From :func:`golf.lab.play.skill_rows`: how many points per hole the first player
    of the pair scores below the second (positive: the first is better)."""
    return jackknife(lambda t: t[2] / t[3] - t[0] / t[1] if t[1] and t[3] else math.nan,
                     rows)


def as_json(triple: tuple[float, float, float]) -> dict[str, float | None]:
    """``(estimate, low, high)`` as JSON data (NaN becomes null)."""
    def clean(v: float) -> float | None:
        return None if math.isnan(v) else round(v, 6)

    est, lo, hi = triple
    return {"estimate": clean(est), "low": clean(lo), "high": clean(hi)}


def fmt(triple: tuple[float, float, float] | Mapping[str, float | None], digits: int = 2,
        sign: bool = False) -> str:
    """``1.23 [1.01, 1.45]``; ``n/a`` for a figure with nothing to measure."""
    if isinstance(triple, Mapping):
        est, lo, hi = (triple.get(k) for k in ("estimate", "low", "high"))
    else:
        est, lo, hi = triple
    def one(v: float | None) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "n/a"
        # Adding 0.0 turns a -0.0 (or a tiny negative rounded to zero) into 0.00, not -0.00.
        v = round(v, digits) + 0.0
        return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"
    if est is None or (isinstance(est, float) and math.isnan(est)):
        return "n/a"
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return one(est)
    return f"{one(est)} [{one(lo)}, {one(hi)}]"
