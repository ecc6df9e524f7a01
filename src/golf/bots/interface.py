"""What every bot is: the :class:`Bot` base class and the :class:`Option` a bot's
hint explains. A module of its own so that a bot class (an external bot, say) can
subclass :class:`Bot` without importing the registry (:mod:`golf.bots.base`) that
builds bots by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action
from ..rules import Rules

__all__ = ["Bot", "Option"]


@dataclass(frozen=True)
class Option:
    """One option of an action as a bot sees it, for hints: the action, the expected
    score of the bot's own grid after it, and a short reason.

    ``value`` is the number the bot decides by (lower is better; None where it
    decides by something that is not points, such as where to look first) and
    ``parts`` what it adds up from, as (what, points) pairs whose sum is ``value``."""

    action: Action
    expected: float
    reason: str
    value: float | None = None
    parts: tuple[tuple[str, float], ...] = ()


class Bot:
    """Base class. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    #: Options the spec may set, with their defaults (types are taken from the defaults).
    defaults: ClassVar[Mapping[str, Any]] = {}
    #: What the ``value`` of :meth:`explain`'s options means (a hint's footnote).
    value_meaning: ClassVar[str] = ("the expected score of your grid at the end of the "
                                    "hole and what the move gives the others")

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
