"""Game-AI toolkit adapters: PettingZoo, Gymnasium (extra ``golf-cards[rl]``) and the
shared encoding. Importing it registers the Gymnasium ids
(:mod:`golf.envs.registration`). The OpenSpiel game is :mod:`golf.envs.openspiel` (extra
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
from .registration import GYM_ID, gym_id, register_all

__all__ = ["GYM_ID", "Encoding", "GolfAECEnv", "GolfEnv", "Section", "describe", "gym_id",
           "register_all"]

_LAZY = {"GolfAECEnv": "pettingzoo_env", "GolfEnv": "gymnasium_env"}


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
    """Make ``gymnasium.make("golf/SixCard-v0", ...)`` work once golf.envs is imported."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return
    register_all()


_register_gymnasium()
