"""``golf lab sweep VARIANT``: every option of the variant (:func:`golf.lab.options.
preset_options`) changed one at a time against the variant itself, at each player count,
on the same deals; one table sorted by effect, as Markdown, JSON and one HTML page with
an SVG plot per figure.

The work is cut into jobs (an option, a player count, a kind of play, a block of deals)
that any :class:`golf.backend.Backend` runs: this process, a local pool, or a Ray
cluster. Each finished job is appended to a results file (one JSON line); a rerun with
the same file, variant, seed and sizes plays only the jobs not in it, so an interrupted
sweep continues where it stopped.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..backend import Backend, LocalPool, gather
from ..errors import GolfError
from ..rules import load_rules
from .effects import LENGTHS, capped_share, percent
from .options import Option, label, preset_options
from .play import play_rows, skill_rows
from .run import SKILL, engine_for, skill_players
from .stats import FIGURE, FIGURES, as_json, figures_json, fmt, skill, skill_difference

#: Deals per job: small enough for a progress bar and for spreading over a cluster.
BLOCK = 500
BASE = "base"
Job = tuple[str, dict[str, Any], int, str, str, int, int, int]


def _job(job: Job) -> list[list[int]]:
    """Play one job (module level: it travels to worker processes by name)."""
    variant, option, players, kind, engine, seed, first, n = job
    rules = load_rules(variant, option or None)
    if kind == "rules":
        rows = play_rows(rules, players, ["expert"], n, seed, engine, first)
    else:
        rows = skill_rows(rules, players, skill_players(kind, engine), n, seed, engine, first)
    return [[int(x) for x in r] for r in rows]


def job_key(job: Job) -> str:
    variant, option, players, kind, engine, seed, first, n = job
    return json.dumps([variant, label(option) if option else BASE, players, kind, engine,
                       seed, first, n])


def plan(variant: str, options: Sequence[Option], players: Sequence[int], deals: int,
         skill_deals: int, seed: int, engine: str) -> tuple[list[Job], dict[Any, str]]:
    """Every job of a sweep, and the engine each (option, players) runs on."""
    base = load_rules(variant)
    jobs: list[Job] = []
    engines: dict[Any, str] = {}
    needed: set[tuple[int, str]] = set()
    for p in players:
        for o in options:
            e, why = engine_for(load_rules(variant, o), base, p, engine)
            engines[(label(o), p)] = why if e == "python" else "compiled"
            needed.add((p, e))
            for kind, n in (("rules", deals), *((k, skill_deals) for k in ("greedy", "random"))):
                jobs += _blocks(variant, o, p, kind, e, seed, n)
    for p, e in sorted(needed):
        for kind, n in (("rules", deals), *((k, skill_deals) for k in ("greedy", "random"))):
            jobs += _blocks(variant, {}, p, kind, e, seed, n)
    return jobs, engines


def _blocks(variant: str, option: Option, players: int, kind: str, engine: str, seed: int,
            n: int) -> list[Job]:
    return [(variant, dict(option), players, kind, engine, seed, f, min(BLOCK, n - f))
            for f in range(0, n, BLOCK)] if n >= 2 else []


def run_sweep(variant: str, players: Sequence[int], deals: int, seed: int,
              results: Path, engine: str = "auto", skill_deals: int | None = None,
              backend: Backend | None = None,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play (or pick up from ``results``) every job of the sweep; the sweep's report."""
    load_rules(variant)
    if deals < 2:
        raise GolfError(f"--deals must be at least 2, got {deals}")
    base = load_rules(variant)
    for p in players:
        base.check_players(p)
    n_skill = deals // 4 if skill_deals is None else skill_deals
    options = preset_options(variant)
    jobs, engines = plan(variant, options, players, deals, n_skill, seed, engine)
    done = read_results(results)
    todo = [j for j in jobs if job_key(j) not in done]
    results.parent.mkdir(parents=True, exist_ok=True)
    torn = results.exists() and results.stat().st_size > 0 and \
        not results.read_bytes().endswith(b"\n")
    with results.open("a", encoding="utf-8") as out:
        if torn:  # an interrupted write: start a new line, or the next result is lost
            out.write("\n")
        def keep(i: int, rows: list[list[int]]) -> None:
            key = job_key(todo[i])
            done[key] = rows
            out.write(json.dumps({"key": key, "rows": rows}) + "\n")
            out.flush()
            os.fsync(out.fileno())

        already = len(jobs) - len(todo)

        def tick(n: int, total: int) -> None:
            if progress:
                progress(already + n, len(jobs))

        if todo:
            gather(backend or LocalPool(1), _job, todo, tick, keep)
        elif progress:
            progress(len(jobs), len(jobs))
    return report(variant, options, players, deals, n_skill, seed, jobs, engines, done,
                  resumed=len(jobs) - len(todo))


def read_results(path: Path) -> dict[str, list[list[int]]]:
    """The jobs a results file holds (a torn last line, from an interruption, is left out)."""
    out: dict[str, list[list[int]]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
            out[str(item["key"])] = item["rows"]
        except (ValueError, KeyError, TypeError):
            continue
    return out


def _rows(jobs: Sequence[Job], done: Mapping[str, list[list[int]]], option: Option,
          players: int, kind: str, engine: str) -> list[list[int]]:
    parts = [done[job_key(j)] for j in jobs
             if j[1] == option and j[2] == players and j[3] == kind and j[4] == engine]
    return [r for p in parts for r in p]


def report(variant: str, options: Sequence[Option], players: Sequence[int], deals: int,
           skill_deals: int, seed: int, jobs: Sequence[Job],
           engines: Mapping[Any, str], done: Mapping[str, list[list[int]]],
           resumed: int = 0) -> dict[str, Any]:
    """The sweep's figures from the finished jobs: JSON-ready data."""
    rows_out = []
    base_figs: dict[tuple[int, str], Any] = {}
    for p in players:
        for o in options:
            why = engines[(label(o), p)]
            e = "compiled" if why == "compiled" else "python"
            r = _rows(jobs, done, o, p, "rules", e)
            b = _rows(jobs, done, {}, p, "rules", e)
            figs = figures_json(r, b, load_rules(variant, o or None), load_rules(variant))
            item: dict[str, Any] = {
                "option": label(o), "settings": o, "players": p, "engine": e,
                "engine_reason": "the compiled core plays these rules" if e == "compiled"
                else why,
                "figures": {k: {side: v for side, v in fig.items() if side != "base"}
                            for k, fig in figs.items()},
                "capped": {"ruleset": capped_share(figs), "base": capped_share(figs, "base")},
                "skill": {},
            }
            for key, _b, other, _w in SKILL:
                sr = _rows(jobs, done, o, p, other, e)
                sb = _rows(jobs, done, {}, p, other, e)
                if len(sr) >= 2:
                    item["skill"][key] = {
                        "ruleset": as_json(skill(sr)),
                        "difference": as_json(skill_difference(sr, sb)),
                    }
            rows_out.append(item)
            if (p, e) not in base_figs:
                base_figs[(p, e)] = {k: fig["base"] for k, fig in figs.items()}
    rows_out.sort(key=lambda it: (-_size(it), it["players"], it["option"]))
    return {
        "variant": variant, "players": list(players), "deals": deals,
        "skill_deals": skill_deals, "seed": seed, "jobs": len(jobs), "jobs_resumed": resumed,
        "sorted_by": "the largest change, in standard errors, of match length, mean hole "
                     "score or the first player's edge",
        "base": [{"players": p, "engine": e, "figures": f}
                 for (p, e), f in sorted(base_figs.items())],
        "options": rows_out,
    }


#: The figures a sweep sorts by (how clearly a rule changes the game's length, scores or
#: fairness).
SORT_BY = ("turns_per_match", "mean_score", "first_edge")


def _size(item: Mapping[str, Any]) -> float:
    best = 0.0
    for key in SORT_BY:
        d = item["figures"][key]["difference"]
        if d["estimate"] is None or d["low"] is None or d["high"] is None:
            continue
        half = (d["high"] - d["low"]) / 2
        z = abs(d["estimate"]) / half * 1.96 if half > 0 else (0.0 if d["estimate"] == 0
                                                                 else 1e9)
        best = max(best, z)
    return best


# --- outputs ---------------------------------------------------------------------------

MD_FIGURES = ("turns_per_match", "mean_score", "score_spread", "first_edge", "knocks",
              "final_turns", "pairs", "reshuffles", "ties")


def markdown(r: Mapping[str, Any]) -> str:
    """The sweep as one Markdown table, most telling option first."""
    lines = [f"# Rules lab sweep: {r['variant']}", "",
             f"{r['deals']} paired deals per option and player count "
             f"({r['skill_deals']} for the skill share), seed {r['seed']}, expert "
             "self-play. Each cell: the change against the variant as it is, with its 95% "
             f"interval. Sorted by {r['sorted_by']}.", ""]
    head = ["option", "players", "engine"] + [FIGURE[k].en.split(" (")[0] for k in MD_FIGURES] \
        + ["expert beats greedy"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for it in r["options"]:
        cells = [it["option"].replace("|", "\\|"), str(it["players"]), it["engine"]]
        cells += [_cell(it, k) for k in MD_FIGURES]
        sk = it["skill"].get("expert_vs_greedy")
        cells.append(fmt(sk["difference"], sign=True) if sk else "n/a")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Base figures (the variant as it is):", ""]
    for b in r["base"]:
        figs = ", ".join(f"{FIGURE[k].en.split(' (')[0]} {fmt(b['figures'][k])}"
                         for k in MD_FIGURES)
        lines.append(f"- {b['players']} players ({b['engine']}): {figs}")
    return "\n".join(lines) + "\n"


def _pct(ratio: Mapping[str, float | None]) -> str:
    est, lo, hi = ratio["estimate"], ratio["low"], ratio["high"]
    if est is None:
        return "n/a"
    s = f"{100 * (est - 1):+.1f}%"
    if lo is not None and hi is not None:
        s += f" [{100 * (lo - 1):+.1f}, {100 * (hi - 1):+.1f}]"
    return s


def html_page(r: Mapping[str, Any]) -> str:
    """One self-contained page: the table and an SVG plot per figure (no scripts, no
    files beside it)."""
    md_rows = []
    for it in r["options"]:
        tds = "".join(f"<td>{html.escape(_cell(it, k))}</td>" for k in MD_FIGURES)
        md_rows.append(f"<tr><td>{html.escape(it['option'])}</td><td>{it['players']}</td>"
                       f"<td>{it['engine']}</td>{tds}</tr>")
    head = "".join(f"<th>{html.escape(FIGURE[k].en.split(' (')[0])}</th>" for k in MD_FIGURES)
    plots = "\n".join(svg_plot(r, f.key) for f in FIGURES)
    title = f"Rules lab sweep: {r['variant']}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;color:#222}}
table{{border-collapse:collapse;font-size:13px}}td,th{{border:1px solid #ccc;padding:3px 6px}}
th{{background:#f3f3f3}}figure{{margin:1.5em 0}}figcaption{{font-weight:600}}</style>
</head><body><h1>{html.escape(title)}</h1>
<p>{r['deals']} paired deals per option and player count, seed {r['seed']}, expert
self-play. Each cell: the change against the variant as it is, with its 95% interval.
Sorted by {html.escape(r['sorted_by'])}.</p>
<table><thead><tr><th>option</th><th>players</th><th>engine</th>{head}</tr></thead>
<tbody>{''.join(md_rows)}</tbody></table>
<h2>Plots: the change each option makes (dot) and its 95% interval (bar)</h2>
{plots}
</body></html>
"""


def _cell(it: Mapping[str, Any], k: str) -> str:
    """One option's change of figure ``k``: a length where matches were stopped at the
    cap says so instead (a stopped match has no length)."""
    capped = it.get("capped", {})
    if k in LENGTHS and capped.get("ruleset"):
        return f"may never end ({percent(capped['ruleset'])} % capped)"
    if k in LENGTHS and capped.get("base"):
        return f"n/a (the base: {percent(capped['base'])} % capped)"
    f = it["figures"][k]
    if FIGURE[k].relative and f["ratio"]["estimate"] is not None:
        return _pct(f["ratio"])
    return fmt(f["difference"], sign=True)


def svg_plot(r: Mapping[str, Any], key: str) -> str:
    """A horizontal interval plot of one figure's change for every option (inline SVG)."""
    items = [(f"{it['option']} ({it['players']}p)", it["figures"][key]["difference"])
             for it in r["options"]]
    vals = [v for _, d in items for v in (d["low"], d["high"], d["estimate"])
            if v is not None]
    lo, hi = (min([*vals, 0.0]), max([*vals, 0.0])) if vals else (-1.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    left, width, row = 260, 420, 16
    height = row * len(items) + 40

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" '
             f'height="{height}" role="img" aria-label="{html.escape(FIGURE[key].en)}">',
             f'<line x1="{x(0):.1f}" y1="10" x2="{x(0):.1f}" y2="{height - 25}" '
             'stroke="#999" stroke-dasharray="3,3"/>']
    for i, (name, d) in enumerate(items):
        y = 20 + i * row
        parts.append(f'<text x="{left - 6}" y="{y + 4}" font-size="11" '
                     f'text-anchor="end">{html.escape(name)}</text>')
        if d["low"] is not None and d["high"] is not None:
            parts.append(f'<line x1="{x(d["low"]):.1f}" y1="{y}" x2="{x(d["high"]):.1f}" '
                         f'y2="{y}" stroke="#36c" stroke-width="3"/>')
        if d["estimate"] is not None:
            parts.append(f'<circle cx="{x(d["estimate"]):.1f}" cy="{y}" r="3.5" '
                         'fill="#c33"/>')
    parts.append(f'<text x="{left}" y="{height - 8}" font-size="11">{lo:.3g}</text>')
    parts.append(f'<text x="{left + width}" y="{height - 8}" font-size="11" '
                 f'text-anchor="end">{hi:.3g}</text>')
    parts.append("</svg>")
    caption = html.escape(f"{FIGURE[key].en}: change ({FIGURE[key].unit})")
    return f"<figure><figcaption>{caption}</figcaption>{''.join(parts)}</figure>"


def write_outputs(r: Mapping[str, Any], prefix: Path) -> list[Path]:
    """``PREFIX.json``, ``PREFIX.md`` and ``PREFIX.html``."""
    prefix.parent.mkdir(parents=True, exist_ok=True)
    # PREFIX plus each ending, the whole name kept: "lab/six-card.v2" -> "six-card.v2.json"
    # (Path.with_suffix would take ".v2" for an ending and replace it).
    paths = [prefix.with_name(prefix.name + ext) for ext in (".json", ".md", ".html")]
    paths[0].write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(r), encoding="utf-8")
    paths[2].write_text(html_page(r), encoding="utf-8")
    return paths
