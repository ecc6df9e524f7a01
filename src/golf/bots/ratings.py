"""The built-in bots' measured OpenSkill ratings per variant (``ratings.json``, written
by ``scripts/bot_ratings.py`` from ``golf tournament`` round robins; docs/bots.md
shows them). They are the fixed points that player ratings anchor to: a player who
meets these bots is rated on the same scale.

>>> r = bot_ratings("six-card")
>>> r["hard"]["mu"] > r["random"]["mu"]
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from ..errors import GolfError


@cache
def rating_data() -> dict[str, Any]:
    """The whole file: the model, how it was measured, and every variant's ratings."""
    data: dict[str, Any] = json.loads(
        files(__package__).joinpath("ratings.json").read_text(encoding="utf-8"))
    return data


def bot_ratings(variant: str) -> dict[str, dict[str, float]]:
    """Each bot's rating in ``variant`` (a preset name): ``mu``, ``sigma``, ``ordinal``,
    its rank, matches and match win rate in the measuring round robin."""
    variants = rating_data()["variants"]
    if variant not in variants:
        raise GolfError(f"no measured bot ratings for {variant!r}; measured: "
                        f"{', '.join(variants)}")
    bots: dict[str, dict[str, float]] = variants[variant]["bots"]
    return bots
