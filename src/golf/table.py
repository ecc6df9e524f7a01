"""A table: one match with a seat per player, driven by one loop.

A :class:`Table` owns the :class:`~golf.Game`. :meth:`Table.step` asks the seat whose
turn it is to decide from its own view and the legal actions, applies the answer and
tells every observer (and every seat that listens) what was played. Whoever the seats
are - a bot from the registry (:class:`BotSeat`), a person answering through a
callback (:class:`PersonSeat`), a player outside the loop such as a learning agent or
a remote client (:class:`Outside`, whose moves come through :meth:`Table.play`) -
the terminal, the simulator, the Gymnasium opponents and the OpenSpiel rollouts all
drive matches through this one loop.

A seat needs one method, ``decide(view, legal)``, that returns an action (or its
notation); it may also have ``on_event(turn)``, called after every action of the
match. The view is ``Game.view(seat, codes=True)``: what that seat may know.

Bots get their seeds from the match's seed and their seat (:func:`bot_seed`), so a
match is fixed by its rules, seed and the people's moves. The save format (a game
record plus who sits where, :func:`save_json` / :func:`read_save` / :func:`restore`)
lives here too.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=3, rules={"holes": 1})
>>> table = Table(g, bot_seats(["greedy", "random"], g.rules, g.seed))
>>> turn = table.step()
>>> turn.seat, str(turn.action), turn.phase
(0, 'reveal 1', 'setup')
>>> table.run()
>>> g.is_over, len(table.turns) == len(g.history)
(True, True)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

from .actions import Action
from .bots.base import Bot, make_bot
from .errors import GolfError, IllegalAction
from .game import RECORD_FORMAT, Game
from .hashing import mix
from .rules import Rules

__all__ = [
    "SAVE_FORMAT", "BotSeat", "Observer", "Outside", "PersonSeat", "Saved", "Seat",
    "SeatSpec", "Table", "Turn", "bot_seat", "bot_seats", "bot_seed", "build_bots",
    "read_save", "restore", "save_json", "write_save",
]

_SEED_MASK = (1 << 63) - 1


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the match with ``match_seed``: the one
    derivation every driver uses, so a replay, a resumed game and a simulation
    rebuild the same bots.

    >>> bot_seed(12, 1) == bot_seed(12, 1) != bot_seed(12, 0)
    True
    """
    return mix(match_seed, seat + 1) & _SEED_MASK


class Turn(NamedTuple):
    """One action played at the table: who played it, what, in which phase, and what
    the engine reported (``event``: the :class:`golf.events.Event` of ``Game.step``
    for a table made with ``events=True``, else None).
    (A named tuple: one is made per action, on the simulator's hot path.)"""

    seat: int
    action: Action
    phase: str
    event: object = None


@runtime_checkable
class Seat(Protocol):
    """Whoever plays a seat: decides from that seat's view and the legal actions."""

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | str:
        """The action to play now (an :class:`~golf.Action` or its notation)."""
        ...


class Observer(Protocol):
    """Anyone told about every action at the table (a screen, a log, a server)."""

    def on_event(self, turn: Turn) -> None:
        """Called after each action, in order."""
        ...


class BotSeat:
    """A seat played by a bot: it sees only its view and the legal actions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return self.bot.choose(view, legal)

    def __repr__(self) -> str:
        return f"BotSeat({self.bot.spec!r}, seed={self.bot.seed})"


class PersonSeat:
    """A seat played by a person through ``ask(view, legal)``, which returns the
    action (or its notation). A wrong answer makes :meth:`Table.step` raise a clear
    :class:`~golf.GolfError` and changes nothing; ask again with another step."""

    def __init__(
        self, ask: Callable[[Mapping[str, Any], Sequence[Action]], Action | str],
    ) -> None:
        self.ask = ask

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | str:
        return self.ask(view, legal)


class Outside:
    """A seat played from outside the table's loop (a learning agent, a remote
    client): the table never asks it; its actions come through :meth:`Table.play`,
    and :meth:`Table.run` stops when it is this seat's turn."""

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        raise GolfError(f"seat {view['seat']} is played from outside the table: pass its "
                        "action to Table.play")


def bot_seat(spec: str, rules: Rules, match_seed: int, seat: int) -> BotSeat:
    """The registry bot ``spec`` for ``seat``, seeded by :func:`bot_seed`. A local
    driver's seat: an external bot's ``cmd:`` spec is allowed (it starts a program;
    :func:`golf.bots.make_bot` refuses one by default)."""
    return BotSeat(make_bot(spec, rules, seed=bot_seed(match_seed, seat), programs=True))


def bot_seats(specs: Sequence[str], rules: Rules, match_seed: int) -> list[BotSeat]:
    """One registry bot per seat, seat ``s`` playing ``specs[s]``."""
    return [bot_seat(spec, rules, match_seed, s) for s, spec in enumerate(specs)]


class Table:
    """One match: the game, a :class:`Seat` per player and the observers."""

    def __init__(
        self, game: Game, seats: Sequence[Seat], observers: Sequence[Observer] = (),
        events: bool = False,
    ) -> None:
        if len(seats) != game.players:
            raise GolfError(f"{len(seats)} seats for a game of {game.players} players")
        self.game = game
        self.seats = list(seats)
        #: Every action played through this table, in order.
        self.turns: list[Turn] = []
        self._listeners: list[Callable[[Turn], None]] = []
        for s in self.seats:  # a seat that listens hears every action, like an observer
            listener = getattr(s, "on_event", None)
            if callable(listener):
                self._listeners.append(listener)
        for observer in observers:
            self.watch(observer)
        # With ``events`` each Turn carries the engine's turn event (Game.step); without,
        # the table plays by Game.apply, which builds none (the simulator's hot path).
        self._apply: Callable[[Action | str], object] = game.step if events else game.apply

    def watch(self, observer: Observer) -> None:
        """Tell ``observer`` about every later action."""
        self._listeners.append(observer.on_event)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None once the match is over)."""
        return self.game.current_player

    def decide(self) -> Action | str:
        """Ask the seat whose turn it is for its action (nothing is applied)."""
        g = self.game
        seat = g.current_player
        if seat is None:
            raise GolfError("the match is over: there is nothing to decide")
        return self.seats[seat].decide(g.view(seat, codes=True), g.legal_actions())

    def play(self, action: Action | str, seat: int | None = None) -> Turn:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that one)
        and tell the observers. A wrong action raises :class:`~golf.IllegalAction`
        or :class:`~golf.NotationError` saying what is allowed; nothing changes."""
        current = self.game.current_player
        if current is None:
            raise IllegalAction(f"{action}: the match is over")
        if seat is not None and seat != current:
            raise IllegalAction(f"{action}: it is seat {current}'s turn, not seat {seat}'s")
        return self._play(current, action)

    def _play(self, seat: int, action: Action | str) -> Turn:
        g = self.game
        phase = g.phase
        event = self._apply(action)
        # tuple.__new__ skips the named tuple's Python-level constructor (3x faster).
        turn: Turn = tuple.__new__(Turn, (seat, g.history[-1], phase, event))
        self.turns.append(turn)
        for listener in self._listeners:
            listener(turn)
        return turn

    def step(self) -> Turn:
        """The seat to act decides and its action is played (see :meth:`play`)."""
        g = self.game
        seat = g.current_player
        if seat is None:
            raise GolfError("the match is over: there is nothing to decide")
        action = self.seats[seat].decide(g.view(seat, codes=True), g.legal_actions())
        return self._play(seat, action)

    def run(self) -> None:
        """Step until the match is over or it is an :class:`Outside` seat's turn."""
        g, seats, play = self.game, self.seats, self._play
        while True:
            seat = g.current_player
            if seat is None:
                return
            player = seats[seat]
            if isinstance(player, Outside):
                return
            play(seat, player.decide(g.view(seat, codes=True), g.legal_actions()))

    def close(self) -> None:
        """Stop what the seats' bots keep running (an external bot's program, see
        :mod:`golf.bots.external`); a table used as a context manager does it on exit.
        A bot that fails with ``fallback=forfeit`` raises
        :class:`~golf.bots.external.BotFailure` from :meth:`step` or :meth:`run`: the
        match cannot go on, and the message says which bot, seat and answer."""
        for s in self.seats:
            if isinstance(s, BotSeat):
                stop = getattr(s.bot, "close", None)  # only bots that run something have one
                if callable(stop):
                    stop()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def replay(self, action: Action | str) -> Turn:
        """Play a recorded action, first showing a bot in that seat the decision as if
        it were making it (a bot's later choices may depend on what it saw and on its
        random draws), so a restored match goes on as the original did."""
        g = self.game
        seat = g.current_player
        if seat is not None:
            player = self.seats[seat]
            if isinstance(player, BotSeat):
                player.decide(g.view(seat, codes=True), g.legal_actions())
        return self.play(action)


# --- who sits where, and the save format ----------------------------------------------

@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat, as a save keeps it: a person's name, or a bot's name with
    its spec and seed."""

    name: str
    bot: str | None = None
    seed: int = 0

    @property
    def is_human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSpec:
        name, bot, seed = data.get("name"), data.get("bot"), data.get("seed", 0)
        if not isinstance(name, str) or not name:
            raise GolfError(f"a seat needs a name, got {name!r}")
        if bot is not None and not isinstance(bot, str):
            raise GolfError(f"seat {name!r}: 'bot' must be a bot spec or null, got {bot!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GolfError(f"seat {name!r}: 'seed' must be an integer, got {seed!r}")
        return cls(name, bot, seed)


def build_bots(seats: Sequence[SeatSpec], rules: Rules) -> dict[int, Bot]:
    """The bot object of every bot seat (an unknown spec is a clear GolfError). For the
    terminal and saves: an external bot's ``cmd:`` spec is allowed, as in
    :func:`bot_seat`."""
    return {i: make_bot(s.bot, rules, seed=s.seed, programs=True)
            for i, s in enumerate(seats) if s.bot}


#: The format a save is written in; the terminal's earlier name still loads.
SAVE_FORMAT = "golf-save/1"
_READABLE = (SAVE_FORMAT, "golf-terminal-save/1")


@dataclass
class Saved:
    """A loaded save: the game record, the seats and the front end's options."""

    record: dict[str, Any]
    seats: list[SeatSpec]
    options: dict[str, Any] = field(default_factory=dict)


def save_json(game: Game, seats: Sequence[SeatSpec], options: Mapping[str, Any]) -> str:
    """A save as JSON: ``{"format", "seats", "options", "record": Game.record()}``."""
    data = {
        "format": SAVE_FORMAT,
        "seats": [s.to_dict() for s in seats],
        "options": dict(options),
        "record": game.record(),
    }
    return json.dumps(data, indent=1)


def write_save(
    path: Path, game: Game, seats: Sequence[SeatSpec], options: Mapping[str, Any],
) -> None:
    """Write the save atomically: a crash mid-write leaves the previous save intact."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(save_json(game, seats, options) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise GolfError(f"cannot save the game to {str(path)!r}: {e.strerror}") from None


def read_save(path: Path) -> Saved:
    """Load a save file (or a bare game record, every seat a person); anything
    malformed is a clear GolfError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise GolfError(f"cannot read {str(path)!r}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise GolfError(f"{str(path)!r} is not a saved game (not JSON: {e.msg} at line "
                        f"{e.lineno})") from None
    if not isinstance(data, dict):
        raise GolfError(f"{str(path)!r} is not a saved game (expected a JSON object)")
    return parse_save(data, str(path))


def parse_save(data: Mapping[str, Any], source: str = "the save") -> Saved:
    """A :class:`Saved` from decoded JSON (a save or a bare game record)."""
    where = repr(source) if source != "the save" else source
    fmt = data.get("format")
    if fmt == RECORD_FORMAT:
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or players < 1:
            raise GolfError(f"{where}: the record's 'players' must be a positive integer")
        return Saved(dict(data), [SeatSpec(f"Player {i + 1}") for i in range(players)])
    if fmt not in _READABLE:
        raise GolfError(f"{where} is not a saved game: its format is {fmt!r}, "
                        f"expected {SAVE_FORMAT!r} (from 'golf play --save') or "
                        f"{RECORD_FORMAT!r}")
    record, seats, options = data.get("record"), data.get("seats"), data.get("options", {})
    if not isinstance(record, dict):
        raise GolfError(f"{where}: 'record' must be a game record object")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise GolfError(f"{where}: 'seats' must be a list of seat objects")
    if not isinstance(options, dict):
        raise GolfError(f"{where}: 'options' must be an object")
    parsed = [SeatSpec.from_dict(s) for s in seats]
    if record.get("players") != len(parsed):
        raise GolfError(f"{where}: {len(parsed)} seats but the record has "
                        f"{record.get('players')!r} players")
    return Saved(record, parsed, options)


def restore(saved: Saved) -> tuple[Game, dict[int, Bot]]:
    """The saved game at its last action, with its bots shown every decision they
    made so far, so that they go on exactly as in the uninterrupted game."""
    record = saved.record
    start = Game.from_record({**record, "actions": []})
    bots = build_bots(saved.seats, start.rules)
    table = Table(start, [BotSeat(bots[i]) if i in bots else Outside()
                          for i in range(start.players)])
    start.replay(record["actions"], table.replay)
    return start, bots
