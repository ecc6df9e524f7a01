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
from collections.abc import Mapping
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


#: What ratings.json keeps of a leaderboard row.
_MEASURED = ("rank", "mu", "sigma", "ordinal", "matches", "win_rate")


def measured_variant(board: Mapping[str, Any]) -> dict[str, Any]:
    """One preset's entry of ``ratings.json`` from its ``golf tournament`` leaderboard
    (:func:`golf.tournament.leaderboard`): the player count and each bot's rank,
    ``mu``, ``sigma``, ``ordinal``, matches and win rate. A board whose rules were not
    the preset's unchanged is refused: anchors are for the preset as shipped.

    >>> measured_variant({"variant": "six-card", "players": 2, "rated_rules": False,
    ...                   "house_rules": {"holes": 1}, "leaderboard": []})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    golf.errors.GolfError: the six-card board was played with house rules {"holes": 1}: ...
    """
    if board.get("rated_rules") is not True:
        raise GolfError(f"the {board.get('variant')} board was played with house rules "
                        f"{json.dumps(board.get('house_rules'))}: bot ratings measure a "
                        "preset unchanged")
    return {"players": board["players"], "matches": board["matches"],
            "bots": {row["entrant"]: {k: row[k] for k in _MEASURED} for row in
                     board["leaderboard"]}}


def bot_ratings(variant: str) -> dict[str, dict[str, float]]:
    """Each bot's rating in ``variant`` (a preset name): ``mu``, ``sigma``, ``ordinal``,
    its rank, matches and match win rate in the measuring round robin."""
    variants = rating_data()["variants"]
    if variant not in variants:
        raise GolfError(f"no measured bot ratings for {variant!r}; measured: "
                        f"{', '.join(variants)}")
    bots: dict[str, dict[str, float]] = variants[variant]["bots"]
    return bots
