"""The engine bridge: the one place where the server touches :class:`golf.Game`.

The bridge is this module and its one client, :mod:`golf.server.tables.match`: the live
match, which drives a :class:`golf.table.Table` (the project's one match driver, with
its bots) and asks this module for every view it hands out. Only these two modules of
``golf.server`` import ``golf.game``, ``golf.view`` or ``golf.table``
(tests/server/test_boundaries.py); the room and everything above it ask the live match.

Everything a client receives about a match is built here, from the engine's views:

* :func:`seat_view` — a seat's view (``Game.view(seat)``), as is; :func:`shown_view` —
  as the seat is shown it at a memory-mode table (:func:`memory_mode`);
* :func:`public_view` — what a spectator may see;
* :func:`hole_scoring` — the scorer's explanation of a hole that just ended;
* :func:`match_result` — a finished match's totals, winners and holes, as stored.

The public view is the engine's ``Game.public_view()``; the events are the engine's
turn events (``Game.step``, ``golf.events``), rendered per receiver by ``Event.to_dict``.

>>> from golf import Game
>>> g = Game("german", players=2, seed=1)
>>> public_view(g)["grids"][0]
[None, None, None, None, None, None]
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ...actions import Action
from ...bots import make_bot
from ...bots.base import LEVELS, Bot
from ...bots.ladder import COACH_BUDGET_MS, strongest
from ...cards import card_str
from ...errors import GolfError
from ...events import Event
from ...game import Game
from ...rules import Rules, load_rules, preset_rules
from ...view import forgets_peeks, remembered


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


def shown_view(game: Game, seat: int, keep_peeks: bool) -> dict[str, Any]:
    """The view ``seat`` is shown: memory mode is the engine's rule
    (:func:`golf.view.remembered`), so after its first draw a seat's peeked cards never
    leave the server again unless it keeps them shown (``keep_peeks``)."""
    return dict(remembered(game.view(seat), game.rules, keep_peeks))


def memory_mode(rules: Rules, show_peeked: bool) -> bool:
    """Whether a table of ``rules`` plays memory mode (:func:`golf.view.forgets_peeks`):
    its rules hide a seat's peeked cards after its first draw and the table does not keep
    them shown (``show_peeked``)."""
    return forgets_peeks(rules, show_peeked)


def match_result(game: Game, ended: str | None, memory: bool,
                 abandoned: Collection[int] = (),
                 stood_in: Sequence[Sequence[int]] = ()) -> dict[str, Any]:
    """A match's result as stored: totals, winners, each hole's scores, why it ended
    early (None: it was played to its end), whether it was played in memory mode (so
    that its replay shows each seat what that seat was shown, :class:`Replay`), the
    seats whose person abandoned it (counted last wherever places are shown; the cards'
    ``winners`` stay the engine's) and, per seat, the holes in which a stand-in bot made
    a move for its person (a profile's hole figures leave them out)."""
    return {"totals": game.totals, "winners": game.winners, "ended": ended,
            "hole_scores": game.hole_scores, "memory": memory,
            "abandoned": sorted(abandoned),
            "stood_in": [sorted(h) for h in stood_in] or [[] for _ in game.totals]}


def bot_view(game: Game, seat: int) -> dict[str, Any]:
    """The view a bot decides from (card codes instead of notation)."""
    return dict(game.view(seat, codes=True))


def coach_view(game: Game, seat: int, keep_peeks: bool) -> dict[str, Any]:
    """The view the coach advises ``seat`` from: the bot's view (card codes) as the seat
    is shown it, so at a memory-mode table (golf.view.remembered) the coach never uses a
    peeked card the seat no longer sees; ``keep_peeks``: the seat keeps them shown."""
    return dict(remembered(game.view(seat, codes=True), game.rules, keep_peeks))


def public_view(game: Game) -> dict[str, Any]:
    """What a spectator may see: the engine's public view (``Game.public_view()``)."""
    return dict(game.public_view())


def open_view(game: Game) -> dict[str, Any]:
    """Every card of the position, in the public view's shape (face-down cards and a card
    held from the stock included). Only for a finished match's replay: the caller shows it
    once the match is over, never while it runs."""
    view = public_view(game)
    pos = game.position()
    view["grids"] = [None if grid is None else [card_str(c) for c in grid]
                     for grid in pos["grids"]]
    if pos["held"] is not None:
        view["held"] = card_str(pos["held"])
    return view


def parse_action(text: str) -> Action:
    """The engine's parse of action notation (its NotationError passes through)."""
    return Action.parse(text)


def hole_scoring(game: Game, event: Event) -> list[dict[str, Any] | None] | None:
    """The engine scorer's explanation per seat of the hole ``event`` just ended in
    ``game`` (None when it ended none; a seat not dealt in is None)."""
    if not event.ended_hole:
        return None
    result = event.result
    assert result is not None  # the hole's result comes with the event that ended it
    # The hole just ended is the match's last result: score_hole's default.
    return [None if not grid else game.score_hole(s).to_dict()
            for s, grid in enumerate(result.grids)]


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


def check_rules(preset: Any, overrides: Any, players: int | None = None,
                codes: dict[str, dict[str, Any]] | None = None) -> tuple[
        Rules | None, dict[str, str]]:
    """The engine's verdict on a preset plus overrides: the rules, or errors per field.

    When the overrides are refused, each is tried alone so that each message sits next
    to its field; a refusal of the combination only has the field ``*``. Then the
    player count is checked (field ``players``). ``codes``, when given, receives the
    engine's error code and parameters per field where the error has one (for clients
    that word the message in their own language).

    >>> codes = {}
    >>> r, errors = check_rules("six-card", {"rows": 9}, codes=codes)
    >>> r is None, list(errors), codes["rows"]["code"], codes["rows"]["params"]["hi"]
    (True, ['rows'], 'out_of_range', 8)
    """
    def coded(key: str, e: GolfError) -> str:
        if codes is not None and e.code is not None:
            codes[key] = {"code": e.code, "params": e.params}
        return str(e)

    if not isinstance(preset, str):
        return None, {"preset": "the preset is a name from GET /api/presets"}
    if not isinstance(overrides, Mapping):
        return None, {"rules": "rule overrides are an object of setting: value"}
    try:
        base = preset_rules(preset)  # a name only: never a file (see preset_rules)
    except GolfError as e:
        return None, {"preset": str(e)}
    try:
        rules = preset_rules(preset, dict(overrides)) if overrides else base
    except GolfError as whole:
        # Attach the message to the field at fault when one override alone fails.
        errors: dict[str, str] = {}
        for key, value in overrides.items():
            try:
                preset_rules(preset, {key: value})
            except GolfError as e:
                errors[str(key)] = coded(str(key), e)
        return None, errors or {"*": coded("*", whole)}
    if players is not None:
        try:
            rules.check_players(players)
        except GolfError as e:
            return None, {"players": coded("players", e)}
    return rules, {}


class Replay:
    """A finished match, step by step: the view of a seat (or the public view) after
    each action and the event that led there, shaped like the live ``state`` frame.

    ``keep_peeks``: whether the table kept peeked cards shown. Otherwise a match in
    memory mode (golf.view.remembered) is replayed as it was played: a seat's view at a
    version hides the face-down cards it peeked at once it had drawn in that hole, as the
    table hid them from that seat then."""

    def __init__(self, rec: Mapping[str, Any], keep_peeks: bool = False) -> None:
        self.keep_peeks = keep_peeks
        g = Game.from_record({**rec, "actions": []})
        self.games = [g.clone()]
        self.events: list[Event | None] = [None]
        self.scoring: list[list[dict[str, Any] | None] | None] = [None]
        self.by: list[str] = ["", *rec.get("by", [])]
        self.hole_starts = [{"hole": 1, "version": 0}]
        for a in rec["actions"]:
            event = g.step(a)
            self.events.append(event)
            self.scoring.append(hole_scoring(g, event))
            self.games.append(g.clone())
            if event.ended_hole and not g.is_over:  # the next hole was dealt
                self.hole_starts.append({"hole": g.hole, "version": len(self.games) - 1})

    @property
    def length(self) -> int:
        return len(self.games) - 1

    @property
    def memory(self) -> bool:
        """Whether seats' steps follow memory mode (the rules peek in secret and the
        table did not keep peeks shown: golf.view.forgets_peeks)."""
        return forgets_peeks(self.games[0].rules, self.keep_peeks)

    def step(self, version: int, seat: int | None, *, every_card: bool = False
             ) -> dict[str, Any]:
        """The step at ``version`` as ``seat`` saw it (None: the public view); with
        ``every_card``, the public view's events over every card of the position (the
        match is over: a Replay is only made from a finished match's record)."""
        g = self.games[version]
        if every_card:
            view = open_view(g)
        elif seat is None:
            view = public_view(g)
        else:
            view = dict(remembered(g.view(seat), g.rules, self.keep_peeks))
        event = self.events[version]
        by = self.by[version] if version < len(self.by) else "player"
        return {"version": version, "view": view,
                "event": None if event is None else {**event.to_dict(seat), "by": by},
                "scoring": self.scoring[version]}


def record(game: Game) -> dict[str, Any]:
    """The engine record: only for finished matches (replays)."""
    assert game.is_over, "a record is never sent while its match runs"
    return dict(game.record())
