"""The engine bridge: the one place where the server touches :class:`golf.Game`.

Everything a client receives about a match is built here, from the engine's views:

* :func:`seat_view` — a seat's view (``Game.view(seat)``), as is;
* :func:`public_view` — what a spectator may see;
* :func:`apply_and_describe` — play an action and describe it per receiver.

The public view is the engine's ``Game.public_view()``; the events are the engine's
turn events (``Game.step``, ``golf.events``), rendered per receiver by ``Event.to_dict``.

>>> from golf import Game
>>> g = Game("german", players=2, seed=1)
>>> out = apply_and_describe(g, "peek 4", by="player")
>>> out.event_for(0)["card"] is not None, out.event_for(1)["card"], out.event_for(None)["card"]
(True, None, None)
>>> public_view(g)["grids"][0]
[None, None, None, None, None, None]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..bots import make_bot
from ..bots.base import LEVELS, Bot
from ..bots.ladder import COACH_BUDGET_MS, strongest
from ..errors import GolfError
from ..events import Event
from ..game import Game
from ..rules import Rules, load_rules

#: The bot that plays for an absent person under the absence policy ``bot``.
STAND_IN = "medium"


def coach_for(rules: Rules, players: int) -> str:
    """The bot whose explanations are a room's hints (as in ``golf play``): the strongest
    measured bot for its rules and players that explains within the coach's budget and
    is installed (golf.bots.ladder)."""
    return strongest(rules, COACH_BUDGET_MS, players=players)


@functools.lru_cache(maxsize=256)
def bot_spec(name: str) -> str:
    """The registry spec for a difficulty or spec, checked by building the bot once."""
    spec = LEVELS.get(name, name)
    make_bot(spec, load_rules("six-card"))  # raises GolfError naming what is allowed
    return spec


def new_bot(name: str, rules: Rules, seed: int) -> Bot:
    return make_bot(name, rules, seed=seed)  # a difficulty is a spec (bots.base.LEVELS)


def bot_label(name: str) -> str:
    """A display name for a bot seat: ``Medium bot``, ``greedy bot``."""
    return f"{name.capitalize()} bot" if name in LEVELS else f"{name.split(':')[0]} bot"


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Exactly what ``seat`` may know: the engine's view."""
    return dict(game.view(seat))


def bot_view(game: Game, seat: int) -> dict[str, Any]:
    """The view a bot decides from (card codes instead of notation)."""
    return dict(game.view(seat, codes=True))


def public_view(game: Game) -> dict[str, Any]:
    """What a spectator may see: the engine's public view (``Game.public_view()``)."""
    return dict(game.public_view())


def parse_action(text: str) -> Action:
    """The engine's parse of action notation (its NotationError passes through)."""
    return Action.parse(text)


#: For each action kind, the engine fact that carries its card (see :meth:`Outcome.event_for`).
_ACTION_FACT = {"draw": "draw", "take": "draw", "swap": "swap", "discard": "discard",
                "flip": "flip", "reveal": "reveal"}


@dataclass(frozen=True)
class Outcome:
    """One applied action: the engine's event, renderable for each receiver (a seat, or
    None: spectators), with who played it and what the server adds to it."""

    event: Event
    by: str
    #: The hole the action was played in.
    hole: int
    #: The card the actor looked at with ``peek N`` (its own view shows it; nobody else's).
    peeked: str | None
    #: The engine scorer's explanation per seat when the action ended a hole (None: no
    #: hole ended; a seat not dealt in is None).
    explained: list[dict[str, Any] | None] | None
    #: The public view after the action.
    after: dict[str, Any]

    @property
    def seat(self) -> int:
        return self.event.seat

    @property
    def action(self) -> str:
        return str(self.event.action)

    def event_for(self, receiver: int | None) -> dict[str, Any]:
        """The ``event`` message body for ``receiver``: the engine's event dict for it
        (``facts``), plus the summary fields of docs/protocol.md derived from those facts.
        """
        d = self.event.to_dict(receiver)
        facts: list[dict[str, Any]] = [dict(f) for f in d["facts"]]
        kind = self.event.action.kind
        card: str | None = None
        replaced: str | None = None
        own = _ACTION_FACT.get(kind)
        fact = next((f for f in facts if f["type"] == own and f.get("seat") == self.seat), None)
        if fact is not None:
            card = fact["card"]
            if kind == "swap":
                replaced = fact["discarded"]
        elif kind == "peek" and receiver == self.seat:
            card = self.peeked
        hole_over = None
        end = next((f for f in facts if f["type"] == "hole_end"), None)
        if end is not None and "result" in end:
            hole_over = {**end["result"], "explained": self.explained}
        return {"seat": self.seat, "action": d["action"], "by": self.by, "hole": self.hole,
                "card": card, "replaced": replaced, "hole_over": hole_over,
                "match_over": self.event.ended_match, "facts": facts}


def apply_and_describe(game: Game, action: str | Action, by: str) -> Outcome:
    """Play ``action`` for the current seat with ``Game.step`` and keep its event.

    Raises the engine's GolfError (state unchanged) if it is not legal now. The public
    view after the action is ``Outcome.after``.
    """
    seat = game.current_player
    if seat is None:
        raise GolfError("the match is over; no action is legal")
    a = action if isinstance(action, Action) else parse_action(action)
    hole = game.hole
    event = game.step(a)
    peeked = None
    if a.kind == "peek" and a.position is not None:
        peeked = game.view(seat)["grids"][seat][a.position - 1]
    explained = None
    if event.ended_hole:
        result = event.result
        assert result is not None
        # The hole just ended is the match's last result: score_hole's default.
        explained = [None if not grid else game.score_hole(s).to_dict()
                     for s, grid in enumerate(result.grids)]
    return Outcome(event, by, hole, peeked, explained, public_view(game))


def default_move(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    """The safe move played for a seat whose time ran out (see docs/protocol.md).

    >>> default_move({"phase": "turn"}, ["draw", "take", "knock"])
    'draw'
    >>> default_move({"phase": "hold", "seat": 0, "face_up": [[True, False]]}, ["swap 1", "swap 2"])
    'swap 2'
    """
    if not legal:
        raise GolfError("no legal move to default to")
    phase = view["phase"]
    if phase == "turn" and "draw" in legal:
        return "draw"
    if phase == "hold":
        if "discard" in legal:
            return "discard"
        up = view["face_up"][view["seat"]]
        for a in legal:
            if a.startswith("swap ") and not up[int(a.split()[1]) - 1]:
                return a
    if phase == "flip" and "pass" in legal:
        return "pass"
    return next((a for a in legal if a != "knock"), legal[0])


def check_rules(preset: Any, overrides: Any, players: int | None = None) -> tuple[
        Rules | None, dict[str, str]]:
    """The engine's verdict on a preset plus overrides: the rules, or errors per field.

    When the overrides are refused, each is tried alone so that each message sits next
    to its field; a refusal of the combination only has the field ``*``. Then the
    player count is checked (field ``players``).

    >>> r, errors = check_rules("six-card", {"hole": 3})
    >>> r is None, list(errors)
    (True, ['hole'])
    """
    if not isinstance(preset, str):
        return None, {"preset": "the preset is a name from GET /api/presets"}
    if not isinstance(overrides, Mapping):
        return None, {"rules": "rule overrides are an object of setting: value"}
    try:
        base = load_rules(preset)
    except GolfError as e:
        return None, {"preset": str(e)}
    try:
        rules = load_rules(preset, dict(overrides)) if overrides else base
    except GolfError as whole:
        # Attach the message to the field at fault when one override alone fails.
        errors: dict[str, str] = {}
        for key, value in overrides.items():
            try:
                load_rules(preset, {key: value})
            except GolfError as e:
                errors[str(key)] = str(e)
        return None, errors or {"*": str(whole)}
    if players is not None:
        try:
            rules.check_players(players)
        except GolfError as e:
            return None, {"players": str(e)}
    return rules, {}


def new_game(rules: Rules, players: int, seed: int) -> Game:
    return Game(rules, players=players, seed=seed)


def restore_game(rules: Mapping[str, Any], players: int, seed: int,
                 history: Sequence[str]) -> Game:
    """A running match rebuilt from its stored record."""
    return Game.from_record({"rules": dict(rules), "players": players, "seed": seed,
                             "actions": list(history)})


class Replay:
    """A finished match, step by step: the view of a seat (or the public view) after
    each action and the event that led there."""

    def __init__(self, rec: Mapping[str, Any]) -> None:
        g = Game.from_record({**rec, "actions": []})
        self.games = [g.clone()]
        self.outcomes: list[Outcome | None] = [None]
        self.hole_starts = [{"hole": 1, "version": 0}]
        for a in rec["actions"]:
            hole = g.hole
            self.outcomes.append(apply_and_describe(g, a, by="player"))
            self.games.append(g.clone())
            if g.hole != hole and not g.is_over:
                self.hole_starts.append({"hole": g.hole, "version": len(self.games) - 1})

    @property
    def length(self) -> int:
        return len(self.games) - 1

    def step(self, version: int, seat: int | None) -> dict[str, Any]:
        g = self.games[version]
        view = public_view(g) if seat is None else seat_view(g, seat)
        out = self.outcomes[version]
        return {"version": version, "view": view,
                "event": None if out is None else out.event_for(seat)}


def record(game: Game) -> dict[str, Any]:
    """The engine record: only for finished matches (replays)."""
    assert game.is_over, "a record is never sent while its match runs"
    return dict(game.record())
