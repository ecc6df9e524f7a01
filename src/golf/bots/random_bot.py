"""The ``random`` bot: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action
from ..rules import Rules
from .base import Bot, register


@register
class RandomBot(Bot):
    name = "random"

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        self._rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self._rng.randrange(len(legal))]

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
