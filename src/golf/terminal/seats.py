"""Who sits at the table: people (hot-seat) and bots, with names and bot seeds
(:class:`golf.table.SeatSpec`, seeded by :func:`golf.table.bot_seed`).

>>> seats = seat_table(humans=["Ann"], bots=["random", "random"])
>>> [s.name for s in seats], [s.bot for s in seats]
(['Ann', 'Random 1', 'Random 2'], [None, 'random', 'random'])
>>> seat_table(humans=["Ann", "ann"], bots=[])
Traceback (most recent call last):
...
golf.errors.GolfError: two players are called 'ann'; give each person a different name
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..bots import bot_available
from ..bots.base import LEVELS, parse_spec
from ..errors import GolfError
from ..table import SeatSpec, bot_seed

#: The bot a person plays against by default, and the one that gives hints.
PREFERRED_BOT = "expert"
#: What to use, best first, while a preferred bot is not registered.
_FALLBACKS = ("expert", "greedy", "random")
MAX_NAME = 20


def available_bot(preferred: str = PREFERRED_BOT) -> str:
    """``preferred`` if it can be loaded here, otherwise the strongest bot that can."""
    if bot_available(parse_spec(preferred)[0]):
        return preferred
    for name in _FALLBACKS:
        if bot_available(name):
            return name
    raise GolfError("no bot can be loaded; reinstall golf-cards")  # pragma: no cover


def _kind(spec: str) -> str:
    """What a bot is called at the table: its difficulty if named by one, else its kind."""
    word = spec.strip().partition(":")[0].lower()
    return word if word in LEVELS else parse_spec(spec)[0]


def split_names(text: str | None) -> list[str]:
    """A comma-separated list from the command line, blanks dropped."""
    if not text:
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


def seat_table(
    humans: Sequence[str], bots: Sequence[str], game_seed: int = 0
) -> list[SeatSpec]:
    """People first (the first person starts the first hole), then the bots.

    Bots get names from their kind, numbered when there are several of a kind.
    """
    for name in humans:
        if len(name) > MAX_NAME:
            raise GolfError(f"name {name!r} is longer than {MAX_NAME} characters")
    kinds = [_kind(spec) for spec in bots]
    count = Counter(kinds)
    seen: Counter[str] = Counter()
    names = list(humans)
    for kind in kinds:
        seen[kind] += 1
        names.append(kind.capitalize() + (f" {seen[kind]}" if count[kind] > 1 else ""))
    lowered = Counter(n.lower() for n in names)
    for name in names:
        if lowered[name.lower()] > 1:
            raise GolfError(
                f"two players are called {name.lower()!r}; give each person a different name"
            )
    seats = [SeatSpec(name) for name in humans]
    for i, spec in enumerate(bots):
        seat = len(humans) + i
        seats.append(SeatSpec(names[seat], spec, bot_seed(game_seed, seat)))
    return seats
