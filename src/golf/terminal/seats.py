"""Who sits at the table: people (hot-seat) and bots, with names and bot seeds.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import bot_available, make_bot
from ..bots.base import Bot, parse_spec
from ..errors import GolfError
from ..rules import Rules

#: The bot a person plays against by default, and the one that gives hints.
PREFERRED_BOT = "expert"
#: What to use, best first, while a preferred bot is not registered.
_FALLBACKS = ("expert", "greedy", "random")
MAX_NAME = 20


@dataclass(frozen=True)
class Seat:
    """One seat: a person's name, or a bot's name with its spec and seed."""

    name: str
    bot: str | None = None
    seed: int = 0

    @property
    def is_human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        name, bot, seed = data.get("name"), data.get("bot"), data.get("seed", 0)
        if not isinstance(name, str) or not name:
            raise GolfError(f"a seat needs a name, got {name!r}")
        if bot is not None and not isinstance(bot, str):
            raise GolfError(f"seat {name!r}: 'bot' must be a bot spec or null, got {bot!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GolfError(f"seat {name!r}: 'seed' must be an integer, got {seed!r}")
        return cls(name, bot, seed)


def available_bot(preferred: str = PREFERRED_BOT) -> str:
    """``preferred`` if it can be loaded here, otherwise the strongest bot that can."""
    if bot_available(parse_spec(preferred)[0]):
        return preferred
    for name in _FALLBACKS:
        if bot_available(name):
            return name
    raise GolfError("no bot can be loaded; reinstall golf-cards")  # pragma: no cover


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed, fixed by the game's seed and the seat so a replay can rebuild it."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) % 2**32


def split_names(text: str | None) -> list[str]:
    """A comma-separated list from the command line, blanks dropped."""
    if not text:
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


def seat_table(
    humans: Sequence[str], bots: Sequence[str], game_seed: int = 0
) -> list[Seat]:
    """People first (the first person starts the first hole), then the bots.

    Bots get names from their kind, numbered when there are several of a kind.
    """
    for name in humans:
        if len(name) > MAX_NAME:
            raise GolfError(f"name {name!r} is longer than {MAX_NAME} characters")
    kinds = [parse_spec(spec)[0] for spec in bots]
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
    seats = [Seat(name) for name in humans]
    for i, spec in enumerate(bots):
        seat = len(humans) + i
        seats.append(Seat(names[seat], spec, bot_seed(game_seed, seat)))
    return seats


def build_bots(seats: Sequence[Seat], rules: Rules) -> dict[int, Bot]:
    """The bot object of every bot seat (an unknown spec is a clear GolfError)."""
    return {i: make_bot(s.bot, rules, seed=s.seed) for i, s in enumerate(seats) if s.bot}
