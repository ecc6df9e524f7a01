"""Exceptions raised for user mistakes. Each message says what was wrong and what is allowed."""

from __future__ import annotations


class GolfError(ValueError):
    """Base class of every error this package raises for bad input."""


class NotationError(GolfError):
    """Text that is not valid notation for a card, a grid or an action."""


class RulesError(GolfError):
    """A rules file, preset name or override that is unknown, mistyped or impossible."""


class IllegalAction(GolfError):
    """A well-formed action that the rules do not allow now. The game state is unchanged."""


class UsageError(GolfError):
    """A command-line mistake; ``golf`` prints it as 'golf: error: ...' and exits with
    status 2."""
