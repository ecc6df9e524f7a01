"""``golf lab VARIANT``: one ruleset against its base on the same deals, every figure
with its 95% interval (:mod:`golf.lab.stats`), and the skill share.

>>> from golf import load_rules
>>> changed_settings(load_rules("six-card", {"knock": True, "points.2": 2}),
...                  load_rules("six-card"))
{'points.2': 2, 'knock': True}

(``tests/test_lab.py`` runs :func:`lab` itself, through the command line.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import GolfError
from ..rules import Rules
from .play import PLAYERS, pick_lab_engine, play_rows, skill_rows
from .stats import FIGURES, as_json, effects, estimate, fmt, skill

#: The skill comparisons: (key, better player, other player, words). In the compiled
#: core "greedy" is the compiled fast-greedy policy (the greedy bot has no compiled twin).
SKILL = (
    ("expert_vs_greedy", "expert", "greedy", "expert beats greedy by (points per hole)"),
    ("expert_vs_random", "expert", "random", "expert beats random by (points per hole)"),
)
#: The search bot as the lab plays it: a fixed number of playouts, so it is reproducible.
SEARCH_SPEC = "search:sims=100"


def changed_settings(rules: Rules, base: Rules) -> dict[str, Any]:
    """The settings in which ``rules`` differs from ``base`` (points by rank)."""
    a, b = rules.to_dict(), base.to_dict()
    out: dict[str, Any] = {}
    for k, v in a.items():
        if k in ("name", "description", "sources"):
            continue
        if k == "points" and isinstance(v, Mapping):
            for rank, p in v.items():
                if b["points"].get(rank) != p:
                    out[f"points.{rank}"] = p
        elif b.get(k) != v:
            out[k] = v
    return out


def engine_for(rules: Rules, base: Rules, players: int, engine: str = "auto"
               ) -> tuple[str, str]:
    """One engine for a ruleset and its base (paired deals need the same shuffle)."""
    e1 = pick_lab_engine(rules, players, ["expert"], engine)
    e2 = pick_lab_engine(base, players, ["expert"], engine)
    if e1[0] == e2[0]:
        return e1
    why = e1[1] if e1[0] == "python" else f"the base: {e2[1]}"
    return "python", why


def skill_players(other: str, engine: str) -> tuple[str, str]:
    """The lab players of an expert-against-``other`` comparison in ``engine``."""
    if other == "greedy" and engine == "compiled":
        return "expert", "fast-greedy"
    return "expert", other


def lab(rules: Rules, base: Rules, players: int, deals: int, seed: int,
        engine: str = "auto", skill_deals: int | None = None, search_deals: int = 0,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The report of ``golf lab``: JSON-ready data."""
    rules.check_players(players)
    base.check_players(players)
    if deals < 2:
        raise GolfError(f"--deals must be at least 2 (intervals need two deals), got {deals}")
    picked = engine_for(rules, base, players, engine)
    say = progress or (lambda _msg: None)
    say(f"playing {deals} deals of each ruleset ({picked[0]} engine)")
    rows = play_rows(rules, players, ["expert"], deals, seed, picked[0])
    brows = play_rows(base, players, ["expert"], deals, seed, picked[0])
    est, best, eff = estimate(rows), estimate(brows), effects(rows, brows)
    figures = {f.key: {"ruleset": as_json(est[f.key]), "base": as_json(best[f.key]),
                       "difference": as_json(eff[f.key]["difference"]),
                       "ratio": as_json(eff[f.key]["ratio"])} for f in FIGURES}
    n_skill = max(2, deals // 4) if skill_deals is None else skill_deals
    report: dict[str, Any] = {
        "variant": rules.name, "base": base.name, "changed": changed_settings(rules, base),
        "players": players, "deals": deals, "seed": seed,
        "engine": picked[0], "engine_reason": picked[1],
        "figures": figures,
        "skill": skill_report(rules, base, players, n_skill, seed, picked[0], say),
        "search": search_report(rules, base, players, search_deals, seed, say),
    }
    return report


def skill_report(rules: Rules, base: Rules, players: int, deals: int, seed: int,
                 engine: str, say: Callable[[str], None]) -> dict[str, Any]:
    """Expert against greedy and against random, every rotation of ``deals`` deals."""
    out: dict[str, Any] = {"deals": deals}
    if deals < 2:
        out["note"] = "not measured (--skill-deals below 2)"
        return out
    for key, _better, other, words in SKILL:
        pair = skill_players(other, engine)
        say(f"skill: {pair[0]} against {pair[1]}, {deals} deals x {players} rotations")
        a = skill_rows(rules, players, pair, deals, seed, engine)
        b = skill_rows(base, players, pair, deals, seed, engine)
        both = np.hstack([a, b])
        out[key] = {
            "players": list(pair), "words": words,
            "ruleset": as_json(skill(a)), "base": as_json(skill(b)),
            "difference": as_json(_paired_skill(both)),
        }
    return out


def _paired_skill(both: npt.NDArray[np.int64]) -> tuple[float, float, float]:
    from .stats import jackknife

    def f(t: Any) -> float:
        if not (t[1] and t[3] and t[5] and t[7]):
            return math.nan
        return float((t[2] / t[3] - t[0] / t[1]) - (t[6] / t[7] - t[4] / t[5]))

    return jackknife(f, both)


def search_report(rules: Rules, base: Rules, players: int, deals: int, seed: int,
                  say: Callable[[str], None]) -> dict[str, Any]:
    """The search bot against the (compiled) expert, at Python tables: costly, so few
    deals (``--search-deals``, default 0: not measured)."""
    out: dict[str, Any] = {"deals": deals, "spec": SEARCH_SPEC}
    if deals < 1:
        out["note"] = ("not measured: the search bot thinks for tens of milliseconds a "
                       "move; ask with --search-deals N (a few deals take minutes)")
        return out
    why = pick_lab_engine(rules, players, ["expert"], "auto")
    why_b = pick_lab_engine(base, players, ["expert"], "auto")
    if why[0] != "compiled" or why_b[0] != "compiled":
        out["note"] = f"not measured: the search bot needs the compiled core ({why[1]})"
        return out
    PLAYERS["search"] = (SEARCH_SPEC, None)
    say(f"search against expert: {deals} deals x {players} rotations at Python tables")
    a = skill_rows(rules, players, ("fast-expert", "search"), deals, seed, "python")
    b = skill_rows(base, players, ("fast-expert", "search"), deals, seed, "python")
    # better = search: its mean below fast-expert's is a positive figure
    flip = np.hstack([a[:, 2:], a[:, :2]])
    bflip = np.hstack([b[:, 2:], b[:, :2]])
    out.update({"ruleset": as_json(skill(flip)), "base": as_json(skill(bflip)),
                "words": "search beats expert by (points per hole)",
                "note": f"only {deals} deals: the search bot is costly, so its interval "
                        "is wide"})
    return out


def format_report(r: Mapping[str, Any]) -> str:
    """The text ``golf lab`` prints."""
    changed = ", ".join(f"{k}={v}" for k, v in r["changed"].items()) or "nothing"
    lines = [
        f"golf lab: {r['variant']} against {r['base']} (changed: {changed}), "
        f"{r['players']} players, {r['deals']} paired deals, seed {r['seed']}",
        f"engine: {r['engine']} ({r['engine_reason']}); expert self-play; "
        "95% intervals in brackets, effects paired by deal",
        "",
    ]
    # Every column as wide as its widest entry (plus a gap), so no figure runs into the next:
    # sums over many holes ("2448.02 [2336.26, 2559.78]") are wider than per-hole figures.
    rows = [(f.en.split(" (")[0], fmt(r["figures"][f.key]["ruleset"]),
             fmt(r["figures"][f.key]["base"]),
             fmt(r["figures"][f.key]["difference"], sign=True)) for f in FIGURES]
    head = ("figure", "ruleset", "base", "change")
    widths = [max(len(row[i]) for row in [head, *rows]) + 2 for i in range(3)]
    for row in [head, *rows]:
        cells = zip(row[:3], widths, strict=True)
        lines.append("".join(f"{cell:<{w}}" for cell, w in cells) + row[3])
    sk = r["skill"]
    lines += ["", f"skill share ({sk['deals']} deals, every seat rotation):"]
    if "note" in sk:
        lines.append(f"  {sk['note']}")
    for key, *_ in SKILL:
        if key in sk:
            s = sk[key]
            lines.append(f"  {s['players'][0]} beats {s['players'][1]} by "
                         f"{fmt(s['ruleset'])} points per hole (base {fmt(s['base'])}; "
                         f"change {fmt(s['difference'], sign=True)})")
    se = r["search"]
    if "ruleset" in se:
        lines.append(f"  search ({se['spec']}) beats expert by {fmt(se['ruleset'])} points "
                     f"per hole (base {fmt(se['base'])}); {se['note']}")
    else:
        lines.append(f"  search against expert: {se['note']}")
    return "\n".join(lines)
