"""Build the shipped effects table (:mod:`golf.lab.effects`), for
``golf lab table --deals 100 --seed 1 --out src/golf/lab/effects.json`` (docs/lab.md).
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..backend import Backend, LocalPool, gather
from ..rules import default_players, load_rules, preset_names
from .effects import make_sentences
from .options import Option, house_options, label
from .play import expert_agreement, pick_lab_engine, play_rows
from .stats import figures_json


def _rows_job(job: tuple[str, Option, int, int, int]) -> list[list[int]]:
    """One preset (with one option) played: a job for any backend (module level)."""
    preset, option, players, deals, seed = job
    rules = load_rules(preset, option or None)
    return [[int(x) for x in r] for r in play_rows(rules, players, ["expert"], deals, seed,
                                                      "compiled")]


def build_table(deals: int, seed: int, command: str, presets: list[str] | None = None,
                progress: Callable[[int, int], None] | None = None,
                backend: Backend | None = None,
                checked: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Measure every preset's house-rule values (at the preset's usual player count:
    its smallest, at least 2), the playouts spread over ``backend``; ``checked`` hears
    how many rulesets were checked for the compiled expert's agreement, ``progress`` how
    many were played."""
    out: dict[str, Any] = {
        "generated": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d"),
        "command": command, "deals": deals, "seed": seed,
        "how": "expert self-play in the compiled core, paired deals against the preset; "
               "a clause appears only where its 95% interval excludes no change, and "
               "says that interval's ends; a ruleset under which the compiled expert "
               "plays the Python expert's move in less than 95 % of 600 decisions is "
               "left out (each preset's left_out says why); agreement: [decisions where it "
               "did, decisions compared]",
        "presets": {},
    }
    jobs: list[tuple[str, Option, int, int, int]] = []
    keys: list[str] = []
    # (preset, label) -> [decisions where the compiled expert played the Python expert's
    # move, decisions compared]
    agreed: dict[tuple[str, str], list[int]] = {}
    todo: list[tuple[str, str, Option]] = [
        (preset, key, option) for preset in presets or preset_names()
        for key, option in [("", {}), *((k, o) for k, opts in house_options(preset).items()
                                        for o in opts)]]
    for i, (preset, key, option) in enumerate(todo):
        # Which rulesets the compiled core measures truthfully (its expert plays like the
        # Python one: pick_lab_engine compares them), a few seconds each.
        if checked:
            checked(i, len(todo))
        base = load_rules(preset)
        players = default_players(base)
        rules = load_rules(preset, option)
        engine, why = pick_lab_engine(rules, players, ["expert"])
        agreed[(preset, label(option))] = list(expert_agreement(rules, players))
        if not option:
            if engine == "compiled":
                out["presets"][preset] = {"players": players,
                                          "agreement": agreed[(preset, label(option))],
                                          "settings": {}, "left_out": []}
                jobs.append((preset, {}, players, deals, seed))
                keys.append("")
        elif preset in out["presets"]:
            if engine == "compiled":
                jobs.append((preset, option, players, deals, seed))
                keys.append(key)
            else:
                out["presets"][preset]["left_out"].append(
                    {"option": option, "label": label(option), "why": why,
                     "agreement": agreed[(preset, label(option))]})
    if checked:
        checked(len(todo), len(todo))
    rows = gather(backend or LocalPool(1), _rows_job, jobs, progress)
    base_rows: dict[str, Any] = {}
    for job, key, r in zip(jobs, keys, rows, strict=True):
        preset, option = job[0], job[1]
        if not option:
            base_rows[preset] = r
            continue
        figs = figures_json(r, base_rows[preset], load_rules(preset, option),
                            load_rules(preset))
        en, de = make_sentences(figs, deals)
        # Every figure as measured (each side, the change and the ratio): the sentences
        # are made from these and nothing else (tests/test_lab.py makes them again).
        out["presets"][preset]["settings"].setdefault(key, []).append(
            {"option": option, "label": label(option), "en": en, "de": de,
             "figures": figs, "agreement": agreed[(preset, label(option))]})
    return out


def write_table(data: Mapping[str, Any], path: Path) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
