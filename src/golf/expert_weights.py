"""The expert bots' weights per preset, as data (:data:`TABLE`): read by the Python
expert (:mod:`golf.bots.expert`) and, converted once, by the compiled one
(:mod:`golf.fast.expert`), so it sits below both.

Every weight has a default; a preset's table overrides some of them, each change
measured by self-play on duplicate deals (``bench/tune_expert.py``, results in
``docs/tuning.md``). Rules are matched to a preset by their settings, not by their
name alone: a shipped preset's rules get its table, and custom rules (a file, or a
preset with overrides) get the table of the *nearest* preset, the one whose play
settings differ from them in the fewest places (ties go to the preset listed first
by :func:`golf.rules.preset_names`). The player range, name, description and
sources do not count: they do not change how a hole is played.

>>> from golf import load_rules
>>> weights(load_rules("german"))["w_def"], weights(load_rules("six-card"))["w_def"]
(0.3, 1.0)
>>> nearest_preset(load_rules("six-card", {"holes": 18}))
'six-card'
>>> sorted(WEIGHTS) == sorted(DEFAULTS)
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any

from .errors import GolfError
from .rules import Rules, load_rules, preset_names

#: The weights and their types: ``int`` weights count turns or cards.
WEIGHTS: Mapping[str, type] = MappingProxyType({
    "margin": float, "end_bonus": float, "knock_bonus": float, "keep_down": int,
    "w_gain": float, "w_behind": float, "flip_info": float, "w_def": float,
    "patience": int, "hurry": float, "peek_bias": float,
})
#: ``"defaults"`` holds every weight; a table named after a preset overrides some of
#: them for that preset. A value changes only by a measured gain: duplicate deals
#: against the previous values, a 95% interval that excludes zero, confirmed on
#: fresh deals (``docs/tuning.md`` lists the runs, kept and rejected).
TABLE: Mapping[str, Mapping[str, float | int]] = MappingProxyType({
    "defaults": {
        # Going out counts as winning when we beat the best opponent by this many points.
        "margin": 5.0,
        # Preference (points) for going out when winning over carrying on.
        "end_bonus": 0.5,
        # Preference (points) for a winning knock over drawing.
        "knock_bonus": 3.0,
        # Flip after discarding (where optional) while at least this many cards would
        # stay face down.
        "keep_down": 1,
        # Going out when not winning: weight of the opponents' last-turn gain and of
        # the points we trail by.
        "w_gain": 3.0,
        "w_behind": 0.5,
        # Value (points) of what a flip after discarding teaches.
        "flip_info": 3.0,
        # Weight of what the card we leave on the discard pile gives the next player.
        "w_def": 1.0,
        # After this many turns in a hole, lower the bar for going out by ``hurry``
        # points a turn, so that two cautious players cannot stall a hole.
        "patience": 12,
        "hurry": 0.5,
        # Where players peek, opponents keep the good cards face down: count each of
        # their face-down cards (up to the number peeked) this many points lower.
        "peek_bias": 1.5,
    },
    # german never flips after discarding: holes last about three times longer and
    # one card on the pile matters less. Measured: 1.0 is clearly worse, 0.15 and
    # 0.45 no better (docs/tuning.md).
    "german": {"w_def": 0.3},
})
#: Settings that name or describe rules, or say who may play, rather than how.
_NOT_PLAY = frozenset({"name", "description", "sources", "players"})


def _checked(where: str, table: Mapping[str, Any]) -> dict[str, float | int]:
    out: dict[str, float | int] = {}
    for key, v in table.items():
        kind = WEIGHTS.get(key)
        if kind is None:
            raise GolfError(f"{where}: unknown expert weight {key!r}; weights: "
                            f"{', '.join(WEIGHTS)}")
        out[key] = check_weight(key, v)
    return out


def check_weight(key: str, value: Any) -> float | int:
    """``value`` as the type of weight ``key``, or a clear error: float weights must
    be finite numbers, int weights whole numbers of 0 or more.

    >>> check_weight("w_def", 0.5), check_weight("patience", 10)
    (0.5, 10)
    >>> check_weight("patience", -1)
    Traceback (most recent call last):
    ...
    golf.errors.GolfError: bot 'expert': patience must be a whole number of 0 or more, got -1
    """
    if WEIGHTS[key] is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise GolfError(f"bot 'expert': {key} must be a whole number of 0 or more, "
                            f"got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise GolfError(f"bot 'expert': {key} must be a finite number, got {value!r}")
    return float(value)


@functools.cache
def _tables() -> tuple[dict[str, float | int], dict[str, dict[str, float | int]]]:
    defaults = _checked("expert weights [defaults]", TABLE["defaults"])
    missing = set(WEIGHTS) - set(defaults)
    if missing:
        raise GolfError(f"expert weights [defaults] lack {', '.join(sorted(missing))}")
    presets = set(preset_names())
    per: dict[str, dict[str, float | int]] = {}
    for name, table in TABLE.items():
        if name == "defaults":
            continue
        if name not in presets:
            raise GolfError(f"expert weights: [{name}] is not a preset; presets: "
                            f"{', '.join(sorted(presets))}")
        per[name] = _checked(f"expert weights [{name}]", table)
    return defaults, per


#: Every weight's default (presets without a table use these).
DEFAULTS: Mapping[str, float | int] = MappingProxyType(_tables()[0])


def _play_settings(rules: Rules) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in fields(rules) if f.name not in _NOT_PLAY}


@functools.cache
def _preset_settings() -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple((name, _play_settings(load_rules(name))) for name in preset_names())


def nearest_preset(rules: Rules) -> str:
    """The preset whose play settings differ from ``rules``' in the fewest places."""
    mine = _play_settings(rules)
    best, best_d = "", -1
    for name, theirs in _preset_settings():
        d = sum(1 for k, v in theirs.items() if mine[k] != v)
        if best_d < 0 or d < best_d:
            best, best_d = name, d
    return best


def preset_weights(preset: str) -> dict[str, float | int]:
    """The weights of a preset by name (the defaults with its table on top)."""
    defaults, per = _tables()
    return {**defaults, **per.get(preset, {})}


def weights(rules: Rules) -> Mapping[str, float | int]:
    """The expert's weights for ``rules``: those of :func:`nearest_preset`."""
    return rules.cached("_expert_weights",
                        lambda r: MappingProxyType(preset_weights(nearest_preset(r))))
