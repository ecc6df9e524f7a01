"""Game-AI toolkit adapters: PettingZoo, Gymnasium (extra ``golf-cards[rl]``) and the
shared encoding. The OpenSpiel game is :mod:`golf.envs.openspiel` (extra
``golf-cards[openspiel]``). See ``docs/rl.md``.

The environment classes load on first use, so ``golf.envs.Encoding`` needs only numpy:

>>> from golf.envs import Encoding
>>> from golf import load_rules
>>> Encoding(load_rules("nine-card"), 4).num_actions
41
"""

from __future__ import annotations

import importlib
from typing import Any

from .encoding import Encoding, Section, describe

__all__ = ["Encoding", "GolfAECEnv", "GolfEnv", "Section", "describe"]

_LAZY = {"GolfAECEnv": "pettingzoo_env", "GolfEnv": "gymnasium_env"}
GYM_ID = "golf/Golf-v0"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'golf.envs' has no attribute {name!r}")
    try:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ImportError as e:
        raise ImportError(
            f"golf.envs.{name} needs the optional packages of golf-cards[rl] "
            f"(gymnasium, pettingzoo): {e}") from e


def _register_gymnasium() -> None:
    """Make ``gymnasium.make("golf/Golf-v0", ...)`` work once golf.envs is imported."""
    try:
        import gymnasium
    except ImportError:
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="golf.envs.gymnasium_env:GolfEnv")


_register_gymnasium()
