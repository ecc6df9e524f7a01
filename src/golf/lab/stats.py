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

**Rates** get intervals made for them. A share of holes, grids or matches (knocks, final
turns, pairs, ties, playoffs, matches stopped at the cap) gets a Wilson score interval
(:func:`wilson`, :func:`share_interval`), which stays inside 0-1 and is not a certain
``[0, 0]`` when nothing happened; a count per hole or grid (reshuffles, wild cards)
never goes below 0 and, with no events, gets the exact Poisson bound
(:func:`count_interval`). Their paired changes are combined from the two sides'
intervals (:func:`paired_rate_difference`). A figure the rules allow only one value
of (knocks without knocking) is that value, with no interval.

The module needs no numpy: rows are a numpy array (the compiled core's) or a list of
lists (the engine's tables on a light install); only the sums of the groups differ.

>>> rows = [[1, 2], [1, 4], [1, 3], [1, 5]]
>>> est, lo, hi = jackknife(lambda t: t[1] / t[0], rows)
>>> est, round(lo, 3), round(hi, 3)
(3.5, 2.235, 4.765)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Rules
from .effects import LENGTHS, MAX_HOLES
from .play import COL

Z95 = 1.959963984540054
#: At most this many jackknife groups (more cost time and change the interval little).
GROUPS = 200

#: One ruleset's per-deal counts: a numpy array (one row per deal) or a list of lists.
Rows = Any
#: Column totals (of every deal, or of every deal but one group's).
Totals = Sequence[float]
Triple = tuple[float, float, float]


@dataclass(frozen=True)
class Groups:
    """The rows cut into ``g`` groups of deals, in deal order (as ``numpy.array_split``
    cuts them): the column totals and each group's sums, worked out once for every
    figure of a jackknife."""

    deals: int
    total: list[float]
    sums: list[list[float]]

    def without(self, i: int) -> list[float]:
        return [a - b for a, b in zip(self.total, self.sums[i], strict=True)]


def split(rows: Rows, groups: int = GROUPS) -> Groups:
    """:class:`Groups` of ``rows`` (one row per deal)."""
    n = len(rows)
    g = max(1, min(groups, n))
    size, extra = divmod(n, g)
    spans, at = [], 0
    for i in range(g):
        step = size + (1 if i < extra else 0)
        spans.append((at, at + step))
        at += step
    if hasattr(rows, "shape"):  # a numpy array (the compiled core's rows): sum with numpy
        sums = [rows[a:b].sum(axis=0, dtype="float64").tolist() for a, b in spans]
    else:
        width = len(rows[0]) if n else 0
        sums = [[float(sum(col)) for col in zip(*rows[a:b], strict=True)] if b > a
                else [0.0] * width for a, b in spans]
    total = [float(sum(col)) for col in zip(*sums, strict=True)]
    return Groups(n, total, sums)


def leave_out(stat: Callable[[Totals], float], gr: Groups) -> tuple[float, list[float]]:
    """``stat`` of all the deals, and of all the deals but each group in turn (NaN
    where it cannot be worked out)."""
    return _safe(stat, gr.total), [_safe(stat, gr.without(i)) for i in range(len(gr.sums))]


def _interval(est: float, loo: list[float]) -> Triple:
    g = len(loo)
    if g < 2 or math.isnan(est) or any(math.isnan(v) for v in loo):
        return est, math.nan, math.nan
    se = _se(loo)
    return est, est - Z95 * se, est + Z95 * se


def _se(loo: list[float]) -> float:
    g = len(loo)
    mean = sum(loo) / g
    return math.sqrt((g - 1) / g * sum((v - mean) ** 2 for v in loo))


def jackknife(stat: Callable[[Totals], float], rows: Rows,
              groups: int = GROUPS) -> Triple:
    """``stat`` of the column totals of ``rows`` (one row per deal), with its 95%
    jackknife interval over groups of deals. NaN bounds with fewer than two deals."""
    if len(rows) == 0:
        return math.nan, math.nan, math.nan
    return _interval(*leave_out(stat, split(rows, groups)))


def _safe(stat: Callable[[Totals], float], t: Totals) -> float:
    try:
        v = float(stat(t))
    except (ZeroDivisionError, ValueError, OverflowError):
        return math.nan
    return v if math.isfinite(v) else math.nan


# --- rates: Wilson score intervals -----------------------------------------------------

def wilson(successes: float, trials: float, z: float = Z95) -> Triple:
    """The share ``successes / trials`` with its Wilson score interval (95 %): unlike
    the estimate plus or minus 1.96 standard errors it stays inside 0-1, and with no
    successes it is ``[0, 3.84 / (trials + 3.84)]``, not a certain zero.

    >>> [round(v, 4) for v in wilson(0, 300)]
    [0.0, 0.0, 0.0126]
    >>> [round(v, 4) for v in wilson(3, 300)]
    [0.01, 0.0034, 0.029]
    """
    if not trials > 0:
        return math.nan, math.nan, math.nan
    return _wilson(successes / trials, trials, z)


def _wilson(p: float, n: float, z: float = Z95) -> Triple:
    z2 = z * z
    center = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    lo = 0.0 if p <= 0 else max(0.0, center - half)
    hi = 1.0 if p >= 1 else min(1.0, center + half)
    return p, lo, hi


def share_interval(p: float, loo: list[float], trials: float, deals: int) -> Triple:
    """A share ``p`` of ``trials`` (holes, grids or matches) seen over ``deals`` deals,
    with a Wilson score interval for clustered data.

    The trials of one deal are not independent (the holes of a match share its players
    and its totals), so the interval uses the effective number of trials (Korn and
    Graubard, 1998): ``p (1 - p)`` over the jackknife variance of ``p`` (the same groups
    of deals as every other figure), kept between the number of deals (each deal one
    trial: the most a positive correlation within a deal can cost) and the number of
    trials (treating them as independent: no narrower than that). Where the jackknife
    cannot say (no events, or every trial an event) it is the number of deals: the
    cautious end. A share of matches has one trial a deal: the plain Wilson interval.
    """
    if math.isnan(p) or not trials > 0 or deals < 1:
        return p, math.nan, math.nan
    n_eff = float(deals)
    if 0 < p < 1 and len(loo) >= 2 and not any(math.isnan(v) for v in loo):
        var = _se(loo) ** 2
        if var > 0:
            n_eff = p * (1 - p) / var
    n_eff = min(max(n_eff, float(min(deals, trials))), float(trials))
    return _wilson(p, n_eff)


#: The exact two-sided 95 % upper bound of a Poisson mean after no events: -ln(0.025).
POISSON_NONE = 3.6888794541139363


def count_interval(rate: float, loo: list[float], events: float, trials: float) -> Triple:
    """A count per trial (reshuffles per hole, wild cards per grid): the jackknife
    interval, cut at 0 (a count is never negative); with no events at all, ``[0,
    3.69 / trials]``, the exact Poisson bound (what "none in 900 holes" still allows),
    not a certain zero."""
    if math.isnan(rate) or not trials > 0:
        return rate, math.nan, math.nan
    if events <= 0:
        return 0.0, 0.0, POISSON_NONE / trials
    est, lo, hi = _interval(rate, loo)
    return est, max(lo, 0.0) if not math.isnan(lo) else lo, hi


def paired_rate_difference(a: Triple, b: Triple, loo_a: list[float],
                           loo_b: list[float]) -> Triple:
    """The change ``a - b`` of a rate measured on the same deals, from the two sides'
    intervals ``a`` and ``b`` (Wilson's for a share): the MOVER interval (Newcombe's
    method 10 for paired proportions; Zou and Donner, 2008)::

        low  = d - sqrt((pa - la)^2 - 2 r (pa - la)(ub - pb) + (ub - pb)^2)
        high = d + sqrt((ua - pa)^2 - 2 r (ua - pa)(pb - lb) + (pb - lb)^2)

    The pairing is kept: ``r`` is the correlation of the two shares' leave-one-group-out
    estimates, the same paired jackknife the other figures use (so luck that both
    rulesets share narrows the interval as it does for every other change). Where that
    correlation cannot be worked out (a share that never varies: no events, or every
    trial an event) ``r`` is 0, which can only widen the interval. Built from two
    intervals inside 0-1, a share's change stays inside -1..1 (and is cut there), and
    "no events in either" gives an interval around 0 as wide as the rarer event could
    hide, not a certain zero. A side the rules fix (no knocks without knocking) comes
    as a point, and the change's interval is then the other side's, shifted.
    """
    (pa, la, ua), (pb, lb, ub) = a, b
    if any(math.isnan(v) for v in (pa, la, ua, pb, lb, ub)):
        return pa - pb, math.nan, math.nan
    r = _correlation(loo_a, loo_b)
    d = pa - pb
    low = d - math.sqrt(max((pa - la) ** 2 - 2 * r * (pa - la) * (ub - pb)
                            + (ub - pb) ** 2, 0.0))
    high = d + math.sqrt(max((ua - pa) ** 2 - 2 * r * (ua - pa) * (pb - lb)
                             + (pb - lb) ** 2, 0.0))
    return d, min(low, d), max(high, d)


def _correlation(x: list[float], y: list[float]) -> float:
    if len(x) < 2 or len(x) != len(y) or any(math.isnan(v) for v in (*x, *y)):
        return 0.0
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx <= 0 or syy <= 0:
        return 0.0
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


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
    #: A share: ``(events column, trials column)``, each trial at most one event (a
    #: knock a hole, a tie a match): its interval is a Wilson score interval.
    share: tuple[str, str] | None = None
    #: A count per trial, ``(events column, trials column)`` (reshuffles per hole).
    count: tuple[str, str] | None = None
    #: Whether a ruleset can make this figure anything but its one possible value (no
    #: knocks without knocking): a report leaves out what neither ruleset can change.
    applies: Callable[[Rules], bool] | None = None

    def can_vary(self, rules: Rules) -> bool:
        return self.applies is None or bool(self.applies(rules))


def _share(key: str, events: str, trials: str, unit: str, en: str, de: str,
           applies: Callable[[Rules], bool] | None = None) -> Figure:
    return Figure(key, _ratio(events, trials), unit, en, de, share=(events, trials),
                  applies=applies)


def _never_ends(r: Rules) -> bool:
    """A match may be stopped at the cap: a points target alone (or more holes than it)."""
    return not r.holes or r.holes > MAX_HOLES


FIGURES: tuple[Figure, ...] = (
    Figure("turns_per_hole", _ratio("turns", "holes"), "turns",
           "turns per hole (all players)", "Züge pro Runde (alle Spieler)", relative=True),
    Figure("holes_per_match", _ratio("holes", "matches"), "holes",
           "holes per match", "Runden pro Partie", relative=True,
           applies=lambda r: bool(r.target) or not r.holes),
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
    # at most one knock a hole (the engine allows none once a hole is ending): a share
    _share("knocks", "knocks", "holes", "per hole", "knocks per hole", "Klopfen pro Runde",
           applies=lambda r: r.knock),
    _share("final_turns", "final_turn_holes", "holes", "share of holes",
           "holes with final turns", "Runden mit letzten Zügen",
           applies=lambda r: r.final_turns),
    _share("pairs", "set_grids", "player_holes", "share of grids",
           "grids where a pair or other matched set counted",
           "Auslagen, in denen ein Paar oder anderes Set zählte",
           applies=lambda r: bool(r.match)),
    Figure("wild_cards", _ratio("wild_cards", "player_holes"), "per grid",
           "wild cards in a final grid", "Joker (wild) in einer Auslage am Ende",
           count=("wild_cards", "player_holes"),
           applies=lambda r: r.jokers_wild and r.jokers_per_deck > 0),
    Figure("reshuffles", _ratio("reshuffles", "holes"), "per hole",
           "reshuffles of the discard pile per hole", "Neumischen des Ablagestapels pro Runde",
           count=("reshuffles", "holes"), applies=lambda r: r.reshuffle),
    _share("ties", "tied", "matches", "share of matches",
           "matches ending in a shared win", "Partien mit geteiltem Sieg"),
    _share("playoffs", "playoff_matches", "matches", "share of matches",
           "matches needing a playoff hole", "Partien mit Stechen",
           applies=lambda r: r.tie_break == "playoff"),
    _share("capped", "capped", "matches", "share of matches",
           f"matches stopped unfinished after {MAX_HOLES} holes",
           f"nach {MAX_HOLES} Runden unbeendet abgebrochene Partien", applies=_never_ends),
)
FIGURE = {f.key: f for f in FIGURES}


def _one(f: Figure, gr: Groups, rules: Rules | None = None) -> tuple[Triple, list[float]]:
    est, loo = leave_out(f.stat, gr)
    if rules is not None and not f.can_vary(rules) and not math.isnan(est):
        return (est, est, est), loo  # the only value the rules allow: nothing to estimate
    if f.share is not None:
        return share_interval(est, loo, gr.total[COL[f.share[1]]], gr.deals), loo
    if f.count is not None:
        return count_interval(est, loo, gr.total[COL[f.count[0]]],
                              gr.total[COL[f.count[1]]]), loo
    return _interval(est, loo), loo


def estimate(rows: Rows, rules: Rules | None = None) -> dict[str, Triple]:
    """Every figure of one ruleset's rows: ``key -> (estimate, low, high)``. With the
    ``rules`` they were played under, a figure those rules fix has no interval."""
    if len(rows) == 0:
        return {f.key: (math.nan, math.nan, math.nan) for f in FIGURES}
    gr = split(rows)
    return {f.key: _one(f, gr, rules)[0] for f in FIGURES}


def pair_rows(rows: Rows, base: Rows) -> Rows:
    """Each deal's row of ``rows`` followed by its row of ``base`` (numpy's ``hstack``)."""
    if hasattr(rows, "shape") and hasattr(base, "shape"):
        import numpy as np

        return np.hstack([rows, base])
    return [[*a, *b] for a, b in zip(rows, base, strict=True)]


def effects(rows: Rows, base: Rows, rules: Rules | None = None,
            base_rules: Rules | None = None) -> dict[str, dict[str, Triple]]:
    """Paired effects of a ruleset (``rows``) against its ``base`` on the same deals:
    per figure the ``difference`` (ruleset minus base) and, where the base is not zero,
    the ``ratio`` (ruleset over base), each ``(estimate, low, high)``. A rate's
    difference is :func:`paired_rate_difference` of its two sides' intervals (with the
    ``rules`` and ``base_rules`` played, a side they fix is a point)."""
    if len(rows) != len(base):
        raise ValueError("paired effects need the same deals for the ruleset and its base")
    nan = (math.nan, math.nan, math.nan)
    if len(rows) == 0:
        return {f.key: {"difference": nan, "ratio": nan} for f in FIGURES}
    k = len(rows[0])
    both = split(pair_rows(rows, base))
    mine = Groups(both.deals, both.total[:k], [s[:k] for s in both.sums])
    theirs = Groups(both.deals, both.total[k:], [s[k:] for s in both.sums])
    out: dict[str, dict[str, Triple]] = {}
    for f in FIGURES:
        def diff(t: Totals, s: Callable[[Totals], float] = f.stat) -> float:
            return s(t[:k]) - s(t[k:])

        def ratio(t: Totals, s: Callable[[Totals], float] = f.stat) -> float:
            b = s(t[k:])
            return s(t[:k]) / b if b else math.nan

        if f.share is None and f.count is None:
            d = _interval(*leave_out(diff, both))
        else:
            a, loo_a = _one(f, mine, rules)
            b, loo_b = _one(f, theirs, base_rules)
            d = paired_rate_difference(a, b, loo_a, loo_b)
            if f.share is not None:  # two shares differ by -1 .. 1
                d = (d[0], max(-1.0, d[1]), min(1.0, d[2]))
        out[f.key] = {"difference": d, "ratio": _interval(*leave_out(ratio, both))}
    return out


def skill(rows: Rows) -> Triple:
    """From :func:`golf.lab.play.skill_rows`: how many points per hole the first player
    of the pair scores below the second (positive: the first is better)."""
    return jackknife(lambda t: t[2] / t[3] - t[0] / t[1] if t[1] and t[3] else math.nan,
                     rows)


def skill_difference(rows: Rows, base: Rows) -> Triple:
    """The change of :func:`skill` from ``base`` to ``rows``, paired by deal."""
    def f(t: Totals) -> float:
        if not (t[1] and t[3] and t[5] and t[7]):
            return math.nan
        return float((t[2] / t[3] - t[0] / t[1]) - (t[6] / t[7] - t[4] / t[5]))

    return jackknife(f, pair_rows(rows, base))


def as_json(triple: Triple) -> dict[str, float | None]:
    """``(estimate, low, high)`` as JSON data (NaN becomes null)."""
    def clean(v: float) -> float | None:
        return None if math.isnan(v) else round(v, 6)

    est, lo, hi = triple
    return {"estimate": clean(est), "low": clean(lo), "high": clean(hi)}


def figures_json(rows: Rows, base: Rows, rules: Rules | None = None,
                 base_rules: Rules | None = None) -> dict[str, dict[str, Any]]:
    """Every figure of a ruleset and its base as JSON data: per figure ``ruleset``,
    ``base``, ``difference`` and ``ratio``. Where matches were stopped at the cap
    (:data:`golf.lab.effects.MAX_HOLES` holes) a match's length is unknown, so the
    lengths of that side and their changes are null, with a ``note``; the share stopped
    is the ``capped`` figure. ``rules`` and ``base_rules``: as for :func:`effects`."""
    est, best = estimate(rows, rules), estimate(base, base_rules)
    eff = effects(rows, base, rules, base_rules)
    out: dict[str, dict[str, Any]] = {
        f.key: {"ruleset": as_json(est[f.key]), "base": as_json(best[f.key]),
                "difference": as_json(eff[f.key]["difference"]),
                "ratio": as_json(eff[f.key]["ratio"])} for f in FIGURES}
    null = as_json((math.nan, math.nan, math.nan))
    for side in ("ruleset", "base"):
        if (out["capped"][side]["estimate"] or 0) > 0:
            for key in LENGTHS:
                out[key][side] = dict(null)
                out[key]["difference"] = dict(null)
                out[key]["ratio"] = dict(null)
                out[key]["note"] = (f"some matches were stopped at the {MAX_HOLES}-hole "
                                    "cap: a match's length is unknown")
    return out


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
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi) or lo == hi == est:
        return one(est)  # no interval, or a value the rules fix (no knocks without knocking)
    # An interval that is not a point is not shown as one: "0.000 [0.000, 0.004]", not
    # "0.00 [0.00, 0.00]" (no event in 900 holes still allows a few in 1,000).
    while hi > lo and round(hi, digits) == round(lo, digits) and digits < 6:
        digits += 1
    return f"{one(est)} [{one(lo)}, {one(hi)}]"
