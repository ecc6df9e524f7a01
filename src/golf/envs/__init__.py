"""Game-AI toolkit adapters: PettingZoo, Gymnasium (extra ``golf-cards[rl]``) and the
shared encoding. Importing it registers the Gymnasium ids
(:mod:`golf.envs.registration`). The OpenSpiel game is :mod:`golf.envs.openspiel` (extra
``golf-cards[openspiel]``). See ``docs/rl.md``.

Everything here loads on first use, so the text agents (:mod:`golf.envs.text`,
:mod:`golf.envs.agents`) need no extra at all, and ``golf.envs.Encoding`` needs only numpy:

>>> from golf.envs import Encoding
>>> from golf import load_rules
>>> Encoding(load_rules("nine-card"), 4).num_actions
41
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .registration import GYM_ID, gym_id, register_all

if TYPE_CHECKING:
    from .encoding import Encoding, Section, describe
    from .gymnasium_env import GolfEnv
    from .pettingzoo_env import GolfAECEnv

__all__ = ["GYM_ID", "Encoding", "GolfAECEnv", "GolfEnv", "Section", "describe", "gym_id",
           "register_all"]

_LAZY = {"GolfAECEnv": "pettingzoo_env", "GolfEnv": "gymnasium_env",
         "Encoding": "encoding", "Section": "encoding", "describe": "encoding"}
_EXTRA = {"pettingzoo_env": "golf-cards[rl] (gymnasium, pettingzoo)",
          "gymnasium_env": "golf-cards[rl] (gymnasium, pettingzoo)",
          "encoding": "numpy (golf-cards[rl] or [sim])"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'golf.envs' has no attribute {name!r}")
    try:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ImportError as e:
        raise ImportError(
            f"golf.envs.{name} needs the optional packages of {_EXTRA[module]}: {e}") from e


def _register_gymnasium() -> None:
    """Make ``gymnasium.make("golf/SixCard-v0", ...)`` work once golf.envs is imported."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return
    register_all()


_register_gymnasium()
