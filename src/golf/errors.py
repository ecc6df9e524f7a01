"""Exceptions raised for user mistakes. Each message says what was wrong and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GolfError(ValueError):
    """Base class of every error this package raises for bad input.

    Some carry a ``code`` and its ``params`` (plain JSON values), so that a client can say
    the same thing in its own language; the message stays the English wording.

    >>> e = RulesError("setting 'holes' must be between 1 and 100, got 0",
    ...                code="out_of_range", params={"key": "holes", "lo": 1, "hi": 100, "got": 0})
    >>> e.code, e.params["hi"], str(e)[:15]
    ('out_of_range', 100, "setting 'holes'")
    """

    def __init__(self, *args: Any, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


class NotationError(GolfError):
    """Text that is not valid notation for a card, a grid or an action."""


class RulesError(GolfError):
    """A rules file, preset name or override that is unknown, mistyped or impossible."""


class IllegalAction(GolfError):
    """A well-formed action that the rules do not allow now. The game state is unchanged."""


class UsageError(GolfError):
    """A command-line mistake; ``golf`` prints it as 'golf: error: ...' and exits with
    status 2."""
