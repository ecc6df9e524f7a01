"""``golf lab VARIANT``: one ruleset against its base on the same deals, every figure
with its 95% interval (:mod:`golf.lab.stats`), and the skill share.

>>> from golf import load_rules
>>> changed_settings(load_rules("six-card", {"knock": True, "points.2": 2}),
...                  load_rules("six-card"))
{'points.2': 2, 'knock': True}

(``tests/test_lab.py`` runs :func:`lab` itself, through the command line.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import GolfError
from ..rules import Rules
from .effects import LENGTHS, capped_share, make_sentences, never_ends, percent
from .options import rule_text
from .play import PLAYERS, Rows, pick_lab_engine, play_rows, skill_rows
from .stats import (
    FIGURES,
    as_json,
    figures_json,
    fmt,
    skill,
    skill_difference,
)

#: The skill comparisons: (key, better player, other player, words). In the compiled
#: core "greedy" is the compiled fast-greedy policy (the greedy bot has no compiled twin).
SKILL = (
    ("expert_vs_greedy", "expert", "greedy", "expert beats greedy by (points per hole)"),
    ("expert_vs_random", "expert", "random", "expert beats random by (points per hole)"),
)
#: The search bot as the lab plays it: a fixed number of playouts, so it is reproducible.
SEARCH_SPEC = "search:sims=100"
#: Deals played in one call, per engine: small enough for a progress bar that moves.
BLOCK = {"compiled": 200, "python": 5}

#: ``tick(done, total)``: how far the run is, in deals.
Tick = Callable[[int, int], None]


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


def left_out(rules: Rules, base: Rules, figures: Mapping[str, Any]) -> list[str]:
    """The figures neither ruleset can change (no knocks without knocking, no playoffs
    without a playoff rule, a fixed number of holes...): a report leaves them out. One
    that differs all the same (18 holes against 9) stays."""
    out = []
    for f in FIGURES:
        if f.can_vary(rules) or f.can_vary(base):
            continue
        fig = figures[f.key]
        if fig["ruleset"]["estimate"] == fig["base"]["estimate"]:
            out.append(f.key)
    return out


class _Counter:
    """Deals played so far of a whole run, for ``tick``."""

    def __init__(self, total: int, tick: Tick | None) -> None:
        self.done, self.total, self.tick = 0, total, tick
        if tick:
            tick(0, total)

    def add(self, n: int) -> None:
        self.done += n
        if self.tick:
            self.tick(min(self.done, self.total), self.total)


def _in_blocks(play: Callable[[int, int], Rows], deals: int, engine: str,
               counter: _Counter) -> Rows:
    """``play(first_deal, n)`` over every deal, a block at a time (the same rows as in
    one call: each deal is dealt from its own seed), counting each block."""
    step = BLOCK.get(engine, 1)
    parts = []
    for first in range(0, deals, step):
        n = min(step, deals - first)
        parts.append(play(first, n))
        counter.add(n)
    if parts and hasattr(parts[0], "shape"):
        import numpy as np

        return np.vstack(parts)
    return [row for part in parts for row in part]


def lab(rules: Rules, base: Rules, players: int, deals: int, seed: int,
        engine: str = "auto", skill_deals: int | None = None, search_deals: int = 0,
        progress: Callable[[str], None] | None = None,
        tick: Tick | None = None) -> dict[str, Any]:
    """The report of ``golf lab``: JSON-ready data. ``progress`` hears what is being
    played, ``tick(done, total)`` how many deals of the whole run are done."""
    rules.check_players(players)
    base.check_players(players)
    if deals < 2:
        raise GolfError(f"--deals must be at least 2 (intervals need two deals), got {deals}")
    say = progress or (lambda _msg: None)
    if engine != "python":
        say("checking that the compiled expert plays the Python expert's moves under "
            "these rules")
    picked = engine_for(rules, base, players, engine)
    n_skill = max(2, deals // 4) if skill_deals is None else skill_deals
    n_search = search_deals if search_deals > 0 and _search_plays(rules, base, players) \
        else 0
    counter = _Counter(2 * deals + (2 * len(SKILL) * n_skill if n_skill >= 2 else 0)
                       + 2 * n_search, tick)
    say(f"playing {deals} deals of each ruleset ({picked[0]} engine)")
    rows = _in_blocks(lambda first, n: play_rows(rules, players, ["expert"], n, seed,
                                                 picked[0], first), deals, picked[0], counter)
    brows = _in_blocks(lambda first, n: play_rows(base, players, ["expert"], n, seed,
                                                  picked[0], first), deals, picked[0], counter)
    figures = figures_json(rows, brows, rules, base)
    en, de = make_sentences(figures, deals)
    report: dict[str, Any] = {
        "variant": rules.name, "base": base.name, "changed": changed_settings(rules, base),
        "players": players, "deals": deals, "seed": seed,
        "engine": picked[0], "engine_reason": picked[1],
        "sentence": {"en": en, "de": de},
        "figures": figures,
        "left_out": left_out(rules, base, figures),
        "skill": skill_report(rules, base, players, n_skill, seed, picked[0], say, counter),
        "search": search_report(rules, base, players, search_deals, seed, say, counter),
    }
    return report


def skill_report(rules: Rules, base: Rules, players: int, deals: int, seed: int,
                 engine: str, say: Callable[[str], None],
                 counter: _Counter | None = None) -> dict[str, Any]:
    """Expert against greedy and against random, every rotation of ``deals`` deals."""
    out: dict[str, Any] = {"deals": deals}
    if deals < 2:
        out["note"] = "not measured (--skill-deals below 2)"
        return out
    count = counter or _Counter(2 * len(SKILL) * deals, None)
    for key, _better, other, words in SKILL:
        pair = skill_players(other, engine)
        say(f"skill: {pair[0]} against {pair[1]}, {deals} deals x {players} rotations")
        a, b = (_in_blocks(_skill_play(r, players, pair, seed, engine), deals, engine,
                           count) for r in (rules, base))
        out[key] = {
            "players": list(pair), "words": words,
            "ruleset": as_json(skill(a)), "base": as_json(skill(b)),
            "difference": as_json(skill_difference(a, b)),
        }
    return out


def _skill_play(rules: Rules, players: int, pair: tuple[str, str], seed: int, engine: str
                ) -> Callable[[int, int], Rows]:
    def play(first: int, n: int) -> Rows:
        return skill_rows(rules, players, pair, n, seed, engine, first)
    return play


def _search_plays(rules: Rules, base: Rules, players: int) -> str | None:
    """None if the search bot can play both rulesets, else why not."""
    why = pick_lab_engine(rules, players, ["expert"], "auto")
    why_b = pick_lab_engine(base, players, ["expert"], "auto")
    if why[0] != "compiled" or why_b[0] != "compiled":
        return f"not measured: the search bot needs the compiled core ({why[1]})"
    return None


def search_report(rules: Rules, base: Rules, players: int, deals: int, seed: int,
                  say: Callable[[str], None],
                  counter: _Counter | None = None) -> dict[str, Any]:
    """The search bot against the (compiled) expert, at Python tables: costly, so few
    deals (``--search-deals``, default 0: not measured)."""
    out: dict[str, Any] = {"deals": deals, "spec": SEARCH_SPEC}
    if deals < 1:
        out["note"] = ("not measured: the search bot thinks for tens of milliseconds a "
                       "move; ask with --search-deals N (a few deals take minutes)")
        return out
    cannot = _search_plays(rules, base, players)
    if cannot:
        out["note"] = cannot
        return out
    PLAYERS["search"] = (SEARCH_SPEC, None)
    count = counter or _Counter(2 * deals, None)
    say(f"search against expert: {deals} deals x {players} rotations at Python tables")
    a, b = (_in_blocks(_skill_play(r, players, ("fast-expert", "search"), seed, "python"),
                       deals, "python", count) for r in (rules, base))
    # better = search: its mean below fast-expert's is a positive figure
    flip = [[*row[2:], *row[:2]] for row in a]
    bflip = [[*row[2:], *row[:2]] for row in b]
    out.update({"ruleset": as_json(skill(flip)), "base": as_json(skill(bflip)),
                "words": "search beats expert by (points per hole)",
                "note": f"only {deals} deals: the search bot is costly, so its interval "
                        "is wide"})
    return out


def _cells(r: Mapping[str, Any], key: str) -> tuple[str, str, str]:
    """A figure's ruleset, base and change as the table shows them: a length where
    matches were stopped at the cap is not a length."""
    fig = r["figures"][key]
    figs = r["figures"]
    out = []
    for side in ("ruleset", "base"):
        share = capped_share(figs, side) if key in LENGTHS else 0.0
        out.append(f"may never end ({percent(share)} % capped)" if share
                   else fmt(fig[side]))
    return out[0], out[1], fmt(fig["difference"], sign=True)


def format_report(r: Mapping[str, Any]) -> str:
    """The text ``golf lab`` prints: the header, the plain sentence (as the shipped
    effects table would say it), then every figure the rules can change."""
    changed = ", ".join(rule_text(k, v) for k, v in r["changed"].items()) or "nothing"
    lines = [
        f"golf lab: {r['variant']} against {r['base']} (changed: {changed}), "
        f"{r['players']} players, {r['deals']} paired deals, seed {r['seed']}",
        f"engine: {r['engine']} ({r['engine_reason']}); expert self-play; "
        "95% intervals in brackets, effects paired by deal",
    ]
    if "sentence" in r:
        lines += ["", f"In short: {r['sentence']['en']}."]
    lines.append("")
    gone = set(r.get("left_out", ()))
    # Every column as wide as its widest entry (plus a gap), so no figure runs into the next:
    # sums over many holes ("2448.02 [2336.26, 2559.78]") are wider than per-hole figures.
    rows = [(f.en.split(" (")[0], *_cells(r, f.key)) for f in FIGURES if f.key not in gone]
    head = ("figure", "ruleset", "base", "change")
    widths = [max(len(row[i]) for row in [head, *rows]) + 2 for i in range(3)]
    for row in [head, *rows]:
        cells = zip(row[:3], widths, strict=True)
        lines.append("".join(f"{cell:<{w}}" for cell, w in cells) + row[3])
    for side, words in (("ruleset", "under the ruleset"), ("base", "under the base")):
        share = capped_share(r["figures"], side)
        if share:
            lines.append(f"{words}: {never_ends(share)}")
    if gone:
        lines.append("left out (neither ruleset can change them): "
                     + ", ".join(f.en.split(" (")[0] for f in FIGURES if f.key in gone))
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

