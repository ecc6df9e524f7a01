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

def _clear(d: Mapping[str, Any], none: float = 0.0) -> bool:
    """The interval of a change lies wholly on one side of ``none``, the value that
    means no change (0 for a difference, 1 for a ratio), and has an estimate."""
    lo, hi, est = d.get("low"), d.get("high"), d.get("estimate")
    return (lo is not None and hi is not None and est is not None
            and (lo > none or hi < none))


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


#: Between a number and its unit "%": a no-break space, so that "%" never starts a line.
NBSP = "\u00a0"
#: The minus of a negative figure: a minus sign, which no line break follows (a hyphen may).
MINUS = "\u2212"


def _num(v: float, digits: int, lang: str, sign: bool = False) -> str:
    """``v`` with ``digits`` decimals in ``lang``'s way (``1,6`` in German), a minus sign
    for a negative number (``+`` too for a positive one when ``sign``)."""
    s = f"{abs(v):.{digits}f}"
    s = s.replace(".", ",") if lang == "de" else s
    if round(v, digits) < 0:
        return MINUS + s
    return ("+" + s) if sign and round(v, digits) > 0 else s


def _span(low: str, high: str, lang: str) -> str:
    """Two ends of an interval as words (``1.6 to 2.6``), one figure when they are equal."""
    return low if low == high else f"{low} {'bis' if lang == 'de' else 'to'} {high}"


def _size(lo: float, hi: float, digits: int, lang: str, unit: str = "") -> str:
    """How large a change is, for an interval wholly on one side of zero: ``about 1.6 to
    2.6``, ``up to 0.3`` where its nearer end rounds to nothing."""
    a, b = sorted((abs(lo), abs(hi)))
    near, far = _num(a, digits, lang), _num(b, digits, lang)
    if float(near.replace(",", ".")) == 0:
        return f"{'bis zu' if lang == 'de' else 'up to'} {far}{unit}"
    return f"{'etwa' if lang == 'de' else 'about'} {_span(near, far, lang)}{unit}"


def make_sentences(figs: Mapping[str, Mapping[str, Any]], deals: int) -> tuple[str, str]:
    """The English and German sentence for one option's figures (as in the table). Each
    clause says how sure it is: the ends of the change's 95 % interval ("hole scores fall
    by about 1.6 to 2.6 points", "knocks: 0.00 a hole → 0.46 to 0.53 a hole"), and a
    figure whose interval holds "no change" is not said at all."""
    en: list[str] = []
    de: list[str] = []
    length = figs["turns_per_match"]
    r = length["ratio"]
    capped = _length_clauses(figs)
    if capped is not None:  # not "longer": a match stopped at the cap has no length
        en.append(capped[0])
        de.append(capped[1])
    elif _clear(length["difference"]) and _clear(r, 1.0) and abs(r["estimate"] - 1) >= 0.02:
        lo, hi = (100 * (r["low"] - 1), 100 * (r["high"] - 1))
        longer = r["estimate"] > 1
        en.append(f"matches take {_size(lo, hi, 0, 'en', ' %')} "
                  f"{'longer' if longer else 'less time'}")
        de.append(f"Partien sind {_size(lo, hi, 0, 'de', ' %')} "
                  f"{'länger' if longer else 'kürzer'}")
    sc = figs["mean_score"]["difference"]
    if _clear(sc) and abs(sc["estimate"]) >= 0.1:
        rise = sc["estimate"] > 0
        en.append(f"hole scores {'rise' if rise else 'fall'} by "
                  f"{_size(sc['low'], sc['high'], 1, 'en')} points")
        de.append(f"die Punkte pro Runde {'steigen' if rise else 'sinken'} um "
                  f"{_size(sc['low'], sc['high'], 1, 'de')}")
    fe = figs["first_edge"]
    if _clear(fe["difference"]):
        b, n = fe["base"]["estimate"], fe["ruleset"]["estimate"]
        lo, hi = b + fe["difference"]["low"], b + fe["difference"]["high"]
        grows = abs(n) > abs(b)
        low, high = _num(lo, 1, "en"), _num(hi, 1, "en")
        to = high if low == high else f"between {low} and {high}"
        en.append(f"the first player's edge {'grows' if grows else 'shrinks'} from "
                  f"{_num(b, 1, 'en')} to {to} points")
        de.append(f"der Vorteil des ersten Spielers {'wächst' if grows else 'sinkt'} von "
                  f"{_num(b, 1, 'de')} auf "
                  f"{_span(_num(lo, 1, 'de'), _num(hi, 1, 'de'), 'de')} Punkte")
    best, best_key = 0.0, ""
    for key in RATES:
        if key == "capped" and capped is not None:
            continue  # said already, in place of the length
        diff = figs[key]["difference"]
        if _clear(diff) and abs(diff["estimate"]) > best:
            best, best_key = abs(diff["estimate"]), key
    if best_key and best >= 0.02:
        f = figs[best_key]
        b, d = f["base"]["estimate"], f["difference"]
        # The new rate as the base's and the change's interval give it (never below 0, a
        # share never above all).
        top = math.inf if best_key in PER else 1.0
        lo, hi = (min(top, max(0.0, b + d["low"])), min(top, max(0.0, b + d["high"])))
        name_en, name_de = RATES[best_key]
        en.append(f"{name_en}: {_amount(best_key, b)} → "
                  f"{_amount_span(best_key, lo, hi, 'en')}")
        de.append(f"{name_de}: {_amount(best_key, b, 'de')} → "
                  f"{_amount_span(best_key, lo, hi, 'de')}")
    if not en:
        return (f"No measurable effect in {deals} deals of expert play",
                f"Keine messbare Wirkung in {deals} Partien von Experten-Bots")
    # A sentence of its own beside the rule: capitalised in both languages; a "%" never
    # on a line of its own.
    e, g = ("; ".join(x).replace(" %", NBSP + "%") for x in (en, de))
    return e[0].upper() + e[1:], g[0].upper() + g[1:]


PER = {"knocks": ("a hole", "pro Runde"), "reshuffles": ("a hole", "pro Runde"),
       "wild_cards": ("a grid", "pro Auslage")}


def _figure(key: str, v: float, lang: str) -> str:
    """A rate or share's number alone: ``0.50`` (``0,50``), ``70 %``."""
    if key in PER:
        return _num(v, 2, lang)
    return f"{_num(100 * v, 0, lang)} %"


def _amount(key: str, v: float, lang: str = "en") -> str:
    """A rate with its unit (``0.50 a hole``) or a share (``70 %``)."""
    return f"{_figure(key, v, lang)} {PER[key][lang == 'de']}" if key in PER \
        else _figure(key, v, lang)


def _amount_span(key: str, lo: float, hi: float, lang: str) -> str:
    """An interval of a rate or share: ``0.46 to 0.53 a hole``, ``0 to 4 %``."""
    a, b = _figure(key, lo, lang), _figure(key, hi, lang)
    if key in PER:
        return f"{_span(a, b, lang)} {PER[key][lang == 'de']}"
    return _span(a.removesuffix(" %"), b.removesuffix(" %"), lang) + " %" if a != b else a


def is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)
