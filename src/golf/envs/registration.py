"""Gymnasium ids: ``golf/Golf-v0`` (every option yours) and two per preset, a whole
match and a single hole: ``golf/SixCard-v0``, ``golf/SixCard-1Hole-v0``,
``golf/German-v0``... (the preset's name in CamelCase). Importing :mod:`golf.envs`
registers them; ``gymnasium.make("golf.envs:golf/SixCard-v0")`` imports it for you
(handy where a library calls ``gymnasium.make`` itself, as SB3's ``make_vec_env``).

Per-preset ids seat the preset's smallest table of at least two (three for
four-card) against ``random``. The one-hole ids play ``holes=1``, ``target=0`` and
share a tied hole rather than play it off, so an episode is exactly one hole. Every
per-preset id has ``max_episode_steps`` as a safety net against a learner that loops
on illegal actions (which change nothing): more learner steps than any legal play of
the episode can take (:func:`step_budget`). Other ``rules=`` given to ``make`` replace
the id's own (pass ``holes=1`` again with a one-hole id).

>>> gym_id("six-card-knock", one_hole=True)
'golf/SixCardKnock-1Hole-v0'
>>> import gymnasium, golf.envs
>>> gymnasium.spec("golf/SixCard-1Hole-v0").max_episode_steps
1502
"""

from __future__ import annotations

from typing import Any

from ..game import MAX_PLAYOFFS
from ..rules import Rules, load_rules, preset_names

GYM_ID = "golf/Golf-v0"
ENTRY_POINT = "golf.envs.gymnasium_env:GolfEnv"
ONE_HOLE: dict[str, Any] = {"holes": 1, "target": 0, "tie_break": "share"}


def gym_id(variant: str, one_hole: bool = False) -> str:
    """The registered id of a preset (``six-card`` -> ``golf/SixCard-v0``)."""
    camel = "".join(part.capitalize() for part in variant.split("-"))
    return f"golf/{camel}{'-1Hole' if one_hole else ''}-v0"


def step_budget(rules: Rules) -> int:
    """Learner steps a match of ``rules`` cannot exceed in legal play: per hole the
    setup choices and three decisions a turn for the turn limit, for every hole of
    the match and every playoff (a match to a target: one hole per point of it)."""
    per_hole = rules.setup_count + 3 * rules.turn_limit
    holes = rules.holes if rules.holes == 1 else (rules.holes or rules.target) + MAX_PLAYOFFS
    return per_hole * holes


def register_all() -> list[str]:
    """Register every id (again harmlessly); the ids, ``golf/Golf-v0`` first."""
    import gymnasium

    ids = [GYM_ID]
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point=ENTRY_POINT)
    for name in preset_names():
        base = load_rules(name)
        players = max(2, base.players[0])
        for one_hole in (False, True):
            env_id = gym_id(name, one_hole)
            ids.append(env_id)
            if env_id in gymnasium.registry:
                continue
            kwargs: dict[str, Any] = {"variant": name, "players": players}
            if one_hole:
                kwargs["rules"] = dict(ONE_HOLE)
            rules = load_rules(name, kwargs.get("rules"))
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs,
                               max_episode_steps=step_budget(rules))
    return ids
