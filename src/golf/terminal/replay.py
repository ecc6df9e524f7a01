"""Stepping through a saved or finished game, turn by turn.

The game is rebuilt from its record and shown as everyone at the table saw it
(face-up cards only), or through one seat's eyes with ``seat``. Each step is one
player's turn; a finished hole is revealed with its explained scores.

>>> import io
>>> from golf import Game
>>> from golf.terminal.savefile import Saved
>>> from golf.terminal.seats import Seat
>>> g = Game("six-card", players=2, seed=2, rules={"holes": 1})
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> out = io.StringIO()
>>> saved = Saved(g.record(), [Seat("Ann"), Seat("Bob")])
>>> replay(saved, Console(io.StringIO(), out, width=80))
0
>>> "End of hole 1" in out.getvalue() and "the match" in out.getvalue()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Game
from . import board as boards
from .console import Console
from .narrate import describe
from .savefile import Saved
from .session import hole_banner, hole_end, match_result


def replay(
    saved: Saved, console: Console, show_all: bool = False, seat: int | None = None,
    source: str | None = None,
) -> int:
    """Show the saved game; wait for Enter between turns unless ``show_all`` or the input
    is not a terminal. Returns 0 (also when the viewer stops early with ``q``)."""
    record = saved.record
    game = Game.from_record({**record, "actions": []})
    actions: list[Any] = list(record["actions"])
    # Replaying the whole record first reports a broken one before anything is shown.
    Game.from_record(record)
    names = [s.name for s in saved.seats]
    bots = [s.bot for s in saved.seats]
    style = console.style
    stepping = console.input_is_terminal and not show_all

    def shown() -> Mapping[str, Any]:
        if seat is None:
            return boards.masked(game.view(0), True, True)
        return game.view(seat)

    who = ", ".join(f"{s.name} ({s.bot})" if s.bot else s.name for s in saved.seats)
    console.say(style.paint(f"Replay: {game.rules.name}{style.dot}{who}{style.dot}"
                            f"seed {game.seed}{style.dot}{len(actions)} moves", "bold"))
    if seat is not None:
        console.say(f"Seen through the eyes of {names[seat]}.")
    console.say(hole_banner(game.view(0), names, style))
    i = 0
    while i < len(actions):
        actor = game.current_player
        assert actor is not None
        holes = len(game.hole_results)
        console.say(boards.board(shown(), names, game.rules, style, console.width, bots))
        while i < len(actions) and game.current_player == actor and \
                len(game.hole_results) == holes:
            before = shown()
            game.apply(actions[i])
            console.say(describe(game.history[-1], actor, before, shown(), names, style))
            i += 1
        if len(game.hole_results) > holes:
            console.say(hole_end(game, names, style, console.width))
            if not game.is_over:
                console.say(hole_banner(game.view(0), names, style))
        if stepping and i < len(actions):
            answer = console.ask(style.paint("Enter: next turn, a: all the rest, q: stop> ",
                                             "dim"))
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
            if answer.strip().lower() in ("a", "all"):
                stepping = False
    console.say("")
    if game.is_over:
        console.say(match_result(game, names, style))
    else:
        console.say(boards.board(shown(), names, game.rules, style, console.width, bots))
        where = source or "FILE"
        console.say(f"The game goes on from here: golf resume {where}")
    return 0
