"""The bot interface and the registry of bots by name.

A bot is built from the public rules, a seed and options, and decides from what its
seat may know: the engine's view (``Game.view(seat, codes=True)``) and the legal
actions. It never receives the game object. A spec names a bot with options:
``"expert:memory=0.6,noise=0.1"``.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action
from ..errors import GolfError
from ..rules import Rules


@dataclass(frozen=True)
class Option:
    """One option of an action as a bot sees it, for hints: the action, the expected
    score of the bot's own grid after it, and a short reason."""

    action: Action
    expected: float
    reason: str


class Bot:
    """Base class. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    #: Options the spec may set, with their defaults (types are taken from the defaults).
    defaults: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        self.rules = rules
        self.seed = seed
        self.options = {**self.defaults, **options}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def explain(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[Option]:
        """Each legal action with its expected own score, best first (empty if unknown)."""
        return []

    def reset(self) -> None:
        """Forget everything remembered about earlier games (called between matches)."""

    @property
    def spec(self) -> str:
        changed = {k: v for k, v in self.options.items() if self.defaults.get(k) != v}
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in changed.items())
                            if changed else "")


_REGISTRY: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available by its ``name``."""
    _REGISTRY[cls.name] = cls
    return cls


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    # Importing the package registers the built-in bots; the OpenSpiel IS-MCTS bot
    # registers itself only where the optional open_spiel package is installed.
    from .. import bots  # noqa: F401

    with contextlib.suppress(ImportError):
        importlib.import_module("golf.bots.openspiel_bot")


def _convert(name: str, key: str, text: str, default: Any) -> Any:
    try:
        if isinstance(default, bool):
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        kind = type(default).__name__
        raise GolfError(f"bot {name!r}: option {key}={text!r} must be a {kind}") from None
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"expert:memory=0.6,noise=0.1"`` into a name and raw options."""
    name, _, rest = spec.strip().partition(":")
    opts: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise GolfError(f"bot spec {spec!r}: options are KEY=VALUE separated by commas")
        opts[key.strip()] = value.strip()
    return name, opts


def make_bot(spec: str, rules: Rules, seed: int = 0) -> Bot:
    """Build a registered bot from a spec such as ``"greedy"`` or ``"expert:memory=0.6"``."""
    _load_builtin()
    name, raw = parse_spec(spec)
    cls = _REGISTRY.get(name)
    if cls is None:
        raise GolfError(f"unknown bot {name!r}; bots are: {', '.join(sorted(_REGISTRY))}")
    options: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in cls.defaults:
            allowed = ", ".join(cls.defaults) or "none"
            raise GolfError(f"bot {name!r} has no option {key!r}; its options: {allowed}")
        options[key] = _convert(name, key, text, cls.defaults[key])
    return cls(rules, seed=seed, **options)


BotFactory = Callable[[Rules, int], Bot]
