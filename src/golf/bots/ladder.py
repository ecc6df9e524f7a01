"""The measured bot ladder, and the strongest bot that fits a time budget.

:data:`LADDER` holds what ``bench/ladder.py`` measured (docs/bots.md has the table and
the command): each bot's mean hole score minus the expert's on duplicate deals (lower
is stronger) and its mean time per decision, on six-card Golf with 2 players, on a
loaded 2-core machine. :func:`strongest` picks from it.

The coach (``hint`` in ``golf play``, the hint button on the web) needs a bot that
explains its options (:meth:`golf.bots.base.Bot.explain`), so it asks for
``explains=True``: the expert family (``easy``, ``medium``, ``hard`` = ``expert``) and
``search`` (its options' values are what its playouts measured) explain;
``fast-expert`` chooses without reasons.

>>> from golf import load_rules
>>> six = load_rules("six-card")
>>> strongest(six, COACH_BUDGET_MS) if bot_available("search") else "search:ms=50"
'search:ms=50'
>>> strongest(six, 5)
'expert'
>>> strongest(load_rules("six-card", {"holes": 1}), COACH_BUDGET_MS)
'expert'
>>> strongest(six, COACH_BUDGET_MS, players=4)
'expert'
>>> strongest(six, 0.05, explains=False)
'greedy'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules, load_rules
from .base import Bot, bot_available, bot_class, parse_spec

#: Where the ladder was measured (rules preset, players).
MEASURED_ON = ("six-card", 2)
#: What the coach may spend on a hint, in milliseconds, unless told otherwise.
COACH_BUDGET_MS = 100.0
#: The answer where the ladder knows nothing (other rules, no budget).
DEFAULT = "expert"


@dataclass(frozen=True)
class Rung:
    """One measured bot: its spec, mean hole score minus the expert's (95% interval,
    lower is stronger) and what a hint costs with it: mean CPU milliseconds of
    ``explain`` for a bot that explains, of ``choose`` for one that does not
    (decisions with a choice, one bot kept over many decisions, as the coach keeps it)."""

    spec: str
    score_difference: float
    interval: tuple[float, float]
    ms: float

    @property
    def explains(self) -> bool:
        """Whether the bot gives its options with values (what a hint shows)."""
        cls = bot_class(parse_spec(self.spec)[0])
        return cls.explain is not Bot.explain


#: Strength: ``bench/ladder.py --workers 1`` under ``nice -n 10``; cost: ``bench/ladder.py
#: --costs 6`` (CPU), for ``search`` the ladder run's wall time per decision (its budget is
#: wall time, overshot by the set-up). See docs/bots.md. Weakest first, by point estimate.
LADDER: tuple[Rung, ...] = (
    Rung("random", 26.40, (26.11, 26.69), 0.004),
    Rung("easy", 7.30, (7.01, 7.58), 0.236),
    Rung("greedy", 3.05, (2.82, 3.28), 0.034),
    Rung("medium", 2.18, (1.96, 2.39), 0.233),
    Rung("expert", 0.0, (0.0, 0.0), 0.156),
    Rung("fast-expert", -0.01, (-0.06, 0.05), 0.640),
    Rung("search:ms=10", -0.22, (-0.57, 0.13), 9.98),
    Rung("search:ms=50", -0.38, (-0.72, -0.03), 50.79),
    Rung("search:ms=200", -0.98, (-1.90, -0.06), 199.96),
)


def strongest(rules: Rules | None = None, budget_ms: float | None = COACH_BUDGET_MS,
              explains: bool = True, players: int | None = None) -> str:
    """The spec of the strongest measured bot whose decisions take at most
    ``budget_ms`` on average (and, with ``explains``, that explains its options).

    When none fits the budget, the cheapest that qualifies. Rules other than the
    ladder's (:data:`MEASURED_ON`'s preset exactly: a house rule or another match length
    is not what was measured), another number of ``players`` or no budget give
    :data:`DEFAULT`, the expert, the bot that is measured on every preset
    (docs/tuning.md). A bot whose extra is not installed is skipped.
    """
    if budget_ms is None or (rules is not None and rules != load_rules(MEASURED_ON[0])) \
            or (players is not None and players != MEASURED_ON[1]):
        return DEFAULT

    def qualifies(r: Rung) -> bool:  # (imports a bot's module only when it is asked)
        # Available first: ``explains`` loads the bot's class, which for a bot whose
        # extra is missing (search without numpy and numba on a `web` install) fails.
        return bot_available(parse_spec(r.spec)[0]) and (not explains or r.explains)

    for r in sorted(LADDER, key=lambda r: r.score_difference):  # strongest first
        if r.ms <= budget_ms and qualifies(r):
            return r.spec
    for r in sorted(LADDER, key=lambda r: r.ms):  # nothing fits: the cheapest
        if qualifies(r):
            return r.spec
    return DEFAULT
