"""A live match: one :class:`golf.table.Table`, the one match driver of the project.

The room asks :class:`LiveMatch` who is to act, which action a server bot (or the bot
standing in for an absent person) chooses, and plays accepted actions through the
table, which returns the engine's event. Bots are built as every driver builds them:
from their spec and :func:`golf.table.bot_seed` of the match's seed and their seat, so
each match (a rematch too) has its own bots, fixed by its seed.

A match loaded from the database (after a restart) is rebuilt the way
:func:`golf.table.restore` rebuilds a save: every stored action is replayed, and the
bot that made it is first shown that decision, so its memory and its random draws are
where they were and it goes on exactly as it would have without the restart.

>>> from golf.rules import load_rules
>>> m = LiveMatch.new(load_rules("six-card", {"holes": 1}), 2, 7, {1: "random"})
>>> m.server_bot(1), m.server_bot(0)
(True, False)
>>> turn = m.play("reveal 1")
>>> turn.event.to_dict(None)["facts"]
[{'type': 'reveal', 'seat': 0, 'position': 1, 'card': 'JC'}]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ...actions import Action
from ...bots.base import Bot, make_bot
from ...events import HOLE_STARTED, Event
from ...game import Game
from ...rules import Rules
from ...table import BotSeat, Outside, Seat, Table, Turn, bot_seed
from ..core import bridge

__all__ = ["BY_BOT", "BY_STAND_IN", "STAND_IN", "LiveMatch", "runs"]

#: The bot that plays for an absent person under the absence policy ``bot``.
STAND_IN = "medium"
#: How an action's ``by`` names the two kinds of bot moves (the rest are people's).
BY_BOT, BY_STAND_IN = "bot", "stand_in"


class LiveMatch:
    """One running (or finished) match of a room: the table, its bots and stand-ins."""

    def __init__(self, game: Game, bots: Mapping[int, str]) -> None:
        self.game = game
        self._specs = dict(bots)
        seats: list[Seat] = [
            BotSeat(self._bot(bots[s], s)) if s in bots else Outside()
            for s in range(game.players)]
        self.table = Table(game, seats, events=True)
        self._stand_ins: dict[int, Bot] = {}

    @classmethod
    def new(cls, rules: Rules, players: int, seed: int, bots: Mapping[int, str]) -> LiveMatch:
        """A new match of ``rules`` for ``players`` seats dealt from ``seed``; ``bots``
        maps a seat to the spec (or difficulty) of the server bot playing it."""
        return cls(Game(rules, players=players, seed=seed), bots)

    @classmethod
    def restore(cls, rules: Mapping[str, Any], players: int, seed: int,
                bots: Mapping[int, str], actions: Sequence[str],
                by: Sequence[str]) -> LiveMatch:
        """The stored match at its last action, every bot (stand-ins too) shown each
        decision it made, as :func:`golf.table.restore` does for a save."""
        game = Game.from_record({"rules": dict(rules), "players": players, "seed": seed,
                                 "actions": []})
        match = cls(game, bots)
        for text, who in zip(actions, by, strict=True):
            match.replay(text, who)
        return match

    def _bot(self, spec: str, seat: int) -> Bot:
        # A spec from a web client never starts a program (make_bot's default).
        return make_bot(spec, self.game.rules, seed=bot_seed(self.game.seed, seat))

    # --- facts ---------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """How many actions were played: the state version clients see."""
        return len(self.game.history)

    @property
    def to_act(self) -> int | None:
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def hole(self) -> int:
        """The hole being played (1 for the first)."""
        return self.game.hole

    @property
    def players(self) -> int:
        return self.game.players

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions()

    # --- what the room hands out (built by the bridge) -------------------------------------
    def view(self, seat: int, keep_peeks: bool) -> dict[str, Any]:
        """The view ``seat`` is shown (:func:`golf.server.core.bridge.shown_view`)."""
        return bridge.shown_view(self.game, seat, keep_peeks)

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see."""
        return bridge.public_view(self.game)

    def coach_view(self, seat: int, keep_peeks: bool) -> dict[str, Any]:
        """The view the coach advises ``seat`` from (:func:`bridge.coach_view`)."""
        return bridge.coach_view(self.game, seat, keep_peeks)

    def timeout_move(self) -> str:
        """The safe move for the seat to act whose time ran out
        (:func:`golf.server.core.bridge.default_move`)."""
        seat = self.to_act
        assert seat is not None, "nobody is to act in a finished match"
        view = bridge.seat_view(self.game, seat)
        return bridge.default_move(view, view["legal_actions"])

    def result(self, ended: str | None, memory: bool, abandoned: Collection[int],
               by: Sequence[str]) -> dict[str, Any]:
        """The match's result as stored (:func:`golf.server.core.bridge.match_result`):
        ``abandoned`` the seats whose person abandoned it, ``by`` who played each action
        so far (the stored ``by`` with the last action's)."""
        return bridge.match_result(self.game, ended, memory, abandoned, self.stood_in(by))

    def stood_in(self, by: Sequence[str]) -> list[list[int]]:
        """Per seat, the holes (1 for the first, as the events number them) in which a
        stand-in bot made at least one of the seat's moves; ``by`` says who played each
        action so far."""
        holes: list[set[int]] = [set() for _ in range(self.players)]
        for (seat, hole, _event), who in zip(self.played(), by, strict=True):
            if who == BY_STAND_IN:
                holes[seat].add(hole)
        return [sorted(h) for h in holes]

    def server_bot(self, seat: int) -> bool:
        """True if a server bot plays ``seat`` (not a person, not an external bot)."""
        return seat in self._specs

    # --- deciding ------------------------------------------------------------------------
    def decide(self, by: str) -> Action:
        """The action the bot of the seat to act chooses (``by``: ``bot`` for a server
        bot seat, ``stand_in`` for the bot playing for an absent person). Runs in a
        worker thread while the room's lock keeps the game still."""
        seat = self.to_act
        assert seat is not None, "nobody is to act in a finished match"
        bot = self._chooser(seat, by)
        g = self.game
        return bot.choose(g.view(seat, codes=True), g.legal_actions())

    def _chooser(self, seat: int, by: str) -> Bot:
        if by == BY_BOT:
            player = self.table.seats[seat]
            assert isinstance(player, BotSeat), f"seat {seat} has no server bot"
            return player.bot
        bot = self._stand_ins.get(seat)
        if bot is None:
            # The stand-in's seed follows from the match and the seat like any bot's.
            bot = self._stand_ins[seat] = self._bot(STAND_IN, seat)
        return bot

    # --- playing -------------------------------------------------------------------------
    def play(self, action: str | Action) -> Turn:
        """Play an action for the seat to act; the turn carries the engine's event. A
        wrong action raises the engine's NotationError or IllegalAction saying what is
        allowed, and changes nothing."""
        return self.table.play(action)

    def replay(self, action: str, by: str) -> Turn:
        """Play a stored action, first showing the bot that chose it the decision."""
        seat = self.to_act
        if seat is not None and by in (BY_BOT, BY_STAND_IN):
            self.decide(by)
        return self.table.play(action)

    def played(self) -> list[tuple[int, int, Event]]:
        """Every action played so far as (seat, hole it was played in, engine event)."""
        out: list[tuple[int, int, Event]] = []
        hole = 1
        for turn in self.table.turns:
            event = turn.event
            assert isinstance(event, Event), "a live match's table records events"
            out.append((turn.seat, hole, event))
            for f in event.facts:
                if f[0] == HOLE_STARTED:
                    hole = f[1]
        return out

    def explained(self, event: Event) -> list[dict[str, Any] | None] | None:
        """The engine scorer's explanation per seat of the hole ``event`` ended (None
        when it ended none)."""
        return bridge.hole_scoring(self.game, event)


def runs(status: str, live: LiveMatch | None) -> bool:
    """Whether a table of ``status`` has a match running: it plays, and its match
    ``live`` is not over."""
    return status == "playing" and live is not None and not live.is_over
