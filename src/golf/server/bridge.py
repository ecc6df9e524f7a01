"""The engine bridge: the one place where the server touches :class:`golf.Game`.

Everything a client receives about a match is built here, from the engine's views:

* :func:`seat_view` — a seat's view (``Game.view(seat)``), as is;
* :func:`public_view` — what a spectator may see;
* :func:`apply_and_describe` — play an action and describe it per receiver.

Two of them stand in for engine pieces that are being written in parallel and are
marked to be replaced in one place each: ``Game.public_view()`` and the turn events of
``golf.events``. Until then both derive only from views, so they cannot show more
than the views do.

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
from ..bots.base import Bot
from ..errors import GolfError
from ..game import Game
from ..rules import Rules, load_rules

#: Bot difficulties a table may name instead of a registry spec.
DIFFICULTIES: dict[str, str] = {
    "easy": "expert:memory=0.4,noise=4",
    "medium": "expert:memory=0.8,noise=1.5",
    "hard": "expert",
}
#: The bot that plays for an absent person under the absence policy ``bot``.
STAND_IN = "medium"
#: The bot whose explanations are the coach's hints (as in ``golf play``).
COACH = "expert"


@functools.lru_cache(maxsize=256)
def bot_spec(name: str) -> str:
    """The registry spec for a difficulty or spec, checked by building the bot once."""
    spec = DIFFICULTIES.get(name, name)
    make_bot(spec, load_rules("six-card"))  # raises GolfError naming what is allowed
    return spec


def new_bot(name: str, rules: Rules, seed: int) -> Bot:
    return make_bot(DIFFICULTIES.get(name, name), rules, seed=seed)


def bot_label(name: str) -> str:
    """A display name for a bot seat: ``Medium bot``, ``greedy bot``."""
    return f"{name.capitalize()} bot" if name in DIFFICULTIES else f"{name.split(':')[0]} bot"


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Exactly what ``seat`` may know: the engine's view."""
    return game.view(seat)


def bot_view(game: Game, seat: int) -> dict[str, Any]:
    """The view a bot decides from (card codes instead of notation)."""
    return game.view(seat, codes=True)


def public_view(game: Game) -> dict[str, Any]:
    """What a spectator may see: every face-up card and nothing face down.

    TODO(core): replace the body with ``game.public_view()`` once ``Game.public_view``
    lands. Until then it is derived from seat 0's view by dropping everything only
    seat 0 knows (its peeked cards, a card it drew from the stock, its legal actions).
    """
    v = game.view(0)
    v["seat"] = None
    v["grids"] = [
        None if grid is None else [c if up else None for c, up in zip(grid, ups, strict=True)]
        for grid, ups in zip(v["grids"], v["face_up"], strict=True)
    ]
    v["peeked"] = []
    if v["held_from"] != "discard":
        v["held"] = None
    v["legal_actions"] = []
    return v


def parse_action(text: str) -> Action:
    """The engine's parse of action notation (its NotationError passes through)."""
    return Action.parse(text)


@dataclass(frozen=True)
class Outcome:
    """One applied action, renderable for each receiver (a seat or None: spectators)."""

    seat: int
    action: str
    by: str
    hole: int
    public: dict[str, Any]
    #: The card only the actor may see (a card drawn from the stock, a peeked card).
    private_card: str | None
    #: The public view after the action.
    after: dict[str, Any]

    def event_for(self, receiver: int | None) -> dict[str, Any]:
        if self.private_card is not None and receiver == self.seat:
            return {**self.public, "card": self.private_card}
        return self.public


def apply_and_describe(game: Game, action: str | Action, by: str,
                       before: dict[str, Any] | None = None) -> Outcome:
    """Play ``action`` for the current seat and describe it for every receiver.

    Raises the engine's GolfError (state unchanged) if it is not legal now.
    ``before`` may pass ``public_view(game)`` when the caller has it already; the
    public view after the action is ``Outcome.after``.

    TODO(core): switch to the event ``Game.apply`` returns (``golf.events``) and its
    per-seat renderer. Until then the event is derived from public views before and
    after, plus the actor's own view for the two cards only the actor sees.
    """
    if before is None:
        before = public_view(game)
    seat = game.current_player
    if seat is None:
        raise GolfError("the match is over; no action is legal")
    a = action if isinstance(action, Action) else parse_action(action)
    game.apply(a)
    after = public_view(game)
    last_before = before["last_hole"]["number"] if before["last_hole"] else 0
    hole_end = after["last_hole"] if after["last_hole"] and \
        after["last_hole"]["number"] != last_before else None
    grids = hole_end["grids"] if hole_end else after["grids"]
    top = hole_end["discard_top"] if hole_end else after["discard_top"]
    kind, pos = a.kind, a.position
    card: str | None = None
    replaced: str | None = None
    private: str | None = None
    if kind == "take":
        card = before["discard_top"]
    elif kind in ("swap", "flip", "reveal") and pos is not None:
        card = grids[seat][pos - 1]
        if kind == "swap":
            replaced = top
    elif kind == "discard":
        card = top
    elif kind == "draw":
        private = seat_view(game, seat)["held"]
    elif kind == "peek" and pos is not None:
        private = seat_view(game, seat)["grids"][seat][pos - 1]
    hole_over = None
    if hole_end:
        explained = [None if g is None else game.score_hole(s, hole_end["number"]).to_dict()
                     for s, g in enumerate(hole_end["grids"])]
        hole_over = {**hole_end, "explained": explained}
    public = {"seat": seat, "action": str(a), "by": by, "hole": before["hole"], "card": card,
              "replaced": replaced, "hole_over": hole_over, "match_over": after["is_over"]}
    return Outcome(seat, str(a), by, before["hole"], public, private, after)


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
    return game.record()
