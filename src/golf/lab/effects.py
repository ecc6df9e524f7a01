"""The shipped effects table: for each preset and each house-rule value the browser's
table creation offers (:func:`golf.lab.options.house_options`), one plain sentence in
English and German of what it does, measured by the lab (expert self-play, paired deals).

The table is package data (``golf/lab/effects.json``) made by ``golf lab table`` (its date,
command, deals and seed are in the file); :func:`sentence` and :func:`effects_for` read it.

>>> sentence("six-card", "knock", True, "en")[:12]
'Matches take'
>>> sentence("six-card", "holes", 1234) is None
True
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from importlib import resources
from typing import Any

FILE = "effects.json"
LANGS = ("en", "de")


@functools.cache
def table() -> dict[str, Any]:
    """The shipped table as data (read once)."""
    text = (resources.files("golf.lab") / FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _matches(option: Mapping[str, Any], setting: str, value: Any) -> bool:
    if setting not in option:
        return False
    v = option[setting]
    if isinstance(v, list | tuple) and isinstance(value, list | tuple):
        return list(v) == list(value)
    return bool(v == value and type(v) is type(value))


def sentence(preset: str, setting: str, value: Any, lang: str = "en") -> str | None:
    """What setting ``setting`` = ``value`` does to ``preset``, in one sentence (``lang``
    ``en`` or ``de``); None when the table has no measurement of that value. Points are
    per rank: ``sentence("six-card", "points.2", 2)``."""
    entries = table()["presets"].get(preset, {}).get("settings", {})
    key = "points" if setting.startswith("points.") else setting
    for e in entries.get(key, []):
        if _matches(e["option"], setting, value):
            return str(e[lang if lang in LANGS else "en"])
    return None


def effects_for(preset: str) -> dict[str, Any]:
    """Everything the table says about ``preset``, for a settings form: ``{"generated",
    "command", "deals", "players", "settings": {setting: [{"option": {...}, "label",
    "en", "de"}]}}``; the settings are empty for an unknown preset."""
    t = table()
    p = t["presets"].get(preset, {})
    return {
        "generated": t["generated"], "command": t["command"], "deals": t["deals"],
        "players": p.get("players"),
        "settings": {k: [{"option": e["option"], "label": e["label"], "en": e["en"],
                          "de": e["de"]} for e in v]
                     for k, v in p.get("settings", {}).items()},
    }


# --- making the sentences --------------------------------------------------------------

def _clear(d: Mapping[str, Any]) -> bool:
    """The interval of a change lies wholly on one side of zero."""
    lo, hi = d.get("low"), d.get("high")
    return lo is not None and hi is not None and (lo > 0 or hi < 0)


#: A match that has not ended after this many regular holes is stopped and counted as
#: capped: with a points target alone and scores near or below zero (house rules can
#: make them so) a match may never end. (Here, not in golf.lab.play, because this module
#: must load without numpy: the server reads the shipped table on the light install.)
MAX_HOLES = 200

#: The figures of a match's length: unknown where matches were stopped at the cap.
LENGTHS = ("holes_per_match", "turns_per_match")


def capped_share(figs: Mapping[str, Mapping[str, Any]], side: str = "ruleset") -> float:
    """The share of matches stopped at the cap under ``side`` (``ruleset`` or ``base``)
    of a lab's figures (0 where none was, or where it was not measured)."""
    est = figs.get("capped", {}).get(side, {}).get("estimate")
    return float(est) if isinstance(est, int | float) and est > 0 else 0.0


def percent(share: float) -> str:
    """A share in whole per cent (``<1`` for a share above zero that rounds to 0)."""
    pct = round(100 * share)
    return "<1" if pct == 0 and share > 0 else str(pct)


def never_ends(share: float, lang: str = "en") -> str:
    """What a share of matches stopped at the cap means, instead of a length:
    ``matches may never end: 13 % stopped at the 200-hole cap``."""
    if lang == "de":
        return (f"Partien enden womöglich nie: {percent(share)} % wurden nach "
                f"{MAX_HOLES} Runden abgebrochen")
    return f"matches may never end: {percent(share)} % stopped at the {MAX_HOLES}-hole cap"


def _length_clauses(figs: Mapping[str, Mapping[str, Any]]) -> tuple[str, str] | None:
    """The clause about the match's length where matches were stopped at the cap
    (None where none was): a stopped match has no length to compare."""
    mine, theirs = capped_share(figs, "ruleset"), capped_share(figs, "base")
    if mine > 0:
        return never_ends(mine), never_ends(mine, "de")
    if theirs > 0:
        return (f"matches end (without this rule {percent(theirs)} % stopped at the "
                f"{MAX_HOLES}-hole cap)",
                f"Partien enden (ohne diese Regel wurden {percent(theirs)} % nach "
                f"{MAX_HOLES} Runden abgebrochen)")
    return None


RATES = {  # figure -> (English, German) name of what happens
    "knocks": ("knocks", "Klopfen"),
    "final_turns": ("final turns", "letzte Züge"),
    "pairs": ("pairs and other sets that count", "zählende Paare und Sets"),
    "wild_cards": ("wild cards at the end", "Joker am Ende"),
    "reshuffles": ("reshuffles", "Neumischen"),
    "ties": ("shared wins", "geteilte Siege"),
    "playoffs": ("playoffs", "Stechen"),
    "capped": (f"matches unfinished after {MAX_HOLES} holes",
               f"nach {MAX_HOLES} Runden unbeendete Partien"),
}


def make_sentences(figs: Mapping[str, Mapping[str, Any]], deals: int) -> tuple[str, str]:
    """The English and German sentence for one option's figures (as in the table)."""
    en: list[str] = []
    de: list[str] = []
    length = figs["turns_per_match"]
    r = length["ratio"]
    capped = _length_clauses(figs)
    if capped is not None:  # not "longer": a match stopped at the cap has no length
        en.append(capped[0])
        de.append(capped[1])
    elif _clear(length["difference"]) and r["estimate"] is not None \
            and abs(r["estimate"] - 1) >= 0.02:
        pct = round(abs(r["estimate"] - 1) * 100)
        longer = r["estimate"] > 1
        en.append(f"matches take about {pct} % {'longer' if longer else 'less time'}")
        de.append(f"Partien sind etwa {pct} % {'länger' if longer else 'kürzer'}")
    sc = figs["mean_score"]
    d = sc["difference"]["estimate"]
    if _clear(sc["difference"]) and d is not None and abs(d) >= 0.1:
        en.append(f"hole scores {'rise' if d > 0 else 'fall'} by {abs(d):.1f} points")
        de.append(f"die Punkte pro Runde {'steigen' if d > 0 else 'sinken'} um "
                  f"{abs(d):.1f}".replace(".", ","))
    fe = figs["first_edge"]
    if _clear(fe["difference"]):
        b, n = fe["base"]["estimate"], fe["ruleset"]["estimate"]
        grows = abs(n) > abs(b)
        en.append(f"the first player's edge {'grows' if grows else 'shrinks'} from "
                  f"{b:.1f} to {n:.1f} points")
        de.append((f"der Vorteil des ersten Spielers {'wächst' if grows else 'sinkt'} von "
                   f"{b:.1f} auf {n:.1f} Punkte").replace(".", ","))
    best, best_key = 0.0, ""
    for key in RATES:
        if key == "capped" and capped is not None:
            continue  # said already, in place of the length
        diff = figs[key]["difference"]
        if _clear(diff) and abs(diff["estimate"]) > best:
            best, best_key = abs(diff["estimate"]), key
    if best_key and best >= 0.02:
        f = figs[best_key]
        b, n = f["base"]["estimate"], f["ruleset"]["estimate"]
        name_en, name_de = RATES[best_key]
        en.append(f"{name_en}: {_amount(best_key, b)} → {_amount(best_key, n)}")
        de.append(f"{name_de}: {_amount(best_key, b, 'de')} → {_amount(best_key, n, 'de')}")
    if not en:
        return (f"No measurable effect in {deals} deals of expert play",
                f"Keine messbare Wirkung in {deals} Partien von Experten-Bots")
    # A sentence of its own beside the rule: capitalised in both languages.
    e, g = "; ".join(en), "; ".join(de)
    return e[0].upper() + e[1:], g[0].upper() + g[1:]


def _amount(key: str, v: float, lang: str = "en") -> str:
    per = {"knocks": ("a hole", "pro Runde"), "reshuffles": ("a hole", "pro Runde"),
           "wild_cards": ("a grid", "pro Auslage")}
    s = f"{v:.2f} {per[key][lang == 'de']}" if key in per else f"{100 * v:.0f} %"
    return s.replace(".", ",") if lang == "de" else s


def is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)
