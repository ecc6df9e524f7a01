"""Stepping through a saved or finished game, turn by turn, forwards and back.

The game is rebuilt from its record and shown as everyone at the table saw it
(face-up cards only), or through one seat's eyes. Each step is one player's turn; a
finished hole is revealed with its explained scores. While stepping, the viewer may
go back a turn (``b``), jump to the start of a hole (``h 3``), look through another
seat's eyes (``s Ann``, ``s 2``, or ``s`` for the table's view), print the rest
(``a``) or stop (``q``).

>>> import io
>>> from golf import Game
>>> from golf.table import Saved, SeatSpec
>>> g = Game("six-card", players=2, seed=2, rules={"holes": 1})
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
>>> out = io.StringIO()
>>> saved = Saved(g.record(), [SeatSpec("Ann"), SeatSpec("Bob")])
>>> replay(saved, Console(io.StringIO(), out, width=80))
0
>>> "End of hole 1" in out.getvalue() and "the match" in out.getvalue()
True
>>> steps(g.record())[:3]
[Step(start=0, end=2, hole=1), Step(start=2, end=4, hole=1), Step(start=4, end=6, hole=1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..digits import whole
from ..game import Game
from ..table import Saved
from . import board as boards
from .console import Console
from .entry import did_you_mean
from .narrate import tell
from .session import hole_banner, hole_end, match_result, seat_list

_PROMPT = "Enter: next, b: back, h N: hole N, s NAME: seat, a: all, q: stop> "
_HELP = ("Enter (or n) shows the next turn; b goes back one; h N jumps to the start of "
         "hole N; s NAME (or a seat number) shows that player's private cards too, s alone "
         "the table's view; a prints the rest; q stops.")


class Step(NamedTuple):
    """One player's turn in the record: actions ``start`` to ``end`` (exclusive),
    in hole ``hole`` (counting playoff holes on)."""

    start: int
    end: int
    hole: int


def steps(record: Mapping[str, Any]) -> list[Step]:
    """The turns of a record: runs of actions by one seat within one hole."""
    game = Game.from_record({**record, "actions": []})
    out: list[Step] = []
    actions = list(record["actions"])
    i = 0
    while i < len(actions):
        actor, hole, start = game.current_player, game.hole, i
        game.apply(actions[i])
        i += 1
        while i < len(actions) and game.current_player == actor and not game.ended_hole:
            game.apply(actions[i])
            i += 1
        out.append(Step(start, i, hole))
    return out


class _Viewer:
    """The replay's state: which step, through whose eyes."""

    def __init__(self, saved: Saved, console: Console, seat: int | None) -> None:
        self.saved = saved
        self.record = saved.record
        self.actions: list[Any] = list(saved.record["actions"])
        self.console = console
        self.seat = seat
        self.names = [s.name for s in saved.seats]
        self.bots = [s.bot for s in saved.seats]
        self.steps = steps(saved.record)

    def game_at(self, index: int) -> Game:
        return Game.from_record({**self.record, "actions": self.actions[:index]})

    def shown(self, game: Game) -> Mapping[str, Any]:
        return game.view(self.seat)  # None: the public view, what everyone saw

    def show_step(self, k: int) -> None:
        """The board before step ``k``, then its actions told one by one."""
        c, style = self.console, self.console.style
        step = self.steps[k]
        game = self.game_at(step.start)
        if k == 0 or self.steps[k - 1].hole != step.hole:
            c.say(hole_banner(game.view(0), self.names, style, bool(game.rules.target)))
        c.board(boards.board(self.shown(game), self.names, game.rules, style, c.width,
                             self.bots))
        actor = game.current_player
        assert actor is not None
        for i in range(step.start, step.end):
            event = game.step(self.actions[i])
            peeked = None
            cell = event.action.cell
            if event.action.kind == "peek" and self.seat == actor and cell is not None:
                peeked = game.view(actor)["grids"][actor][cell]
            for line in tell(event, self.seat, self.names, style, peeked):
                c.say(line)
        if c.fixed:  # the board stays put: show it as the turn left it
            c.board(boards.board(self.shown(game), self.names, game.rules, style, c.width,
                                 self.bots, {actor: {a.cell for a in game.history[
                                     step.start:step.end] if a.cell is not None}}))
        if game.ended_hole:  # a step ends where its hole does
            c.say(hole_end(game, self.names, style, c.width))

    def finish(self, source: str | None) -> None:
        c, style = self.console, self.console.style
        game = self.game_at(len(self.actions))
        c.say("")
        if game.is_over:
            c.say(match_result(game, self.names, style))
        else:
            c.say(boards.board(self.shown(game), self.names, game.rules, style, c.width,
                               self.bots))
            c.say(f"The game goes on from here: golf resume {source or 'FILE'}")

    def command(self, text: str, k: int) -> int | None:
        """The step to show after ``text`` at step ``k`` (None: stay, after a message)."""
        c = self.console
        word, _, arg = text.strip().partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("", "n", "next"):
            return k + 1
        if word in ("b", "back"):
            if k == 0:
                c.error("this is the first turn; there is nothing before it")
                return None
            return k - 1
        if word in ("h", "hole"):
            holes = sorted({s.hole for s in self.steps})
            hole = whole(arg)
            if hole not in holes:
                c.error(f"h needs a hole number from 1 to {holes[-1]}, e.g. 'h 2'")
                return None
            return next(i for i, s in enumerate(self.steps) if s.hole == hole)
        if word in ("s", "seat"):
            return self._seat(arg, k)
        if word in ("?", "help"):
            c.say(_HELP)
            return None
        guess = did_you_mean(word, ["next", "back", "hole", "seat", "all", "quit", "help"])
        hint = f" (did you mean {guess!r}?)" if guess else ""
        c.error(f"{text.strip()!r} is not a replay command{hint}; {_HELP}")
        return None

    def _seat(self, arg: str, k: int) -> int | None:
        c = self.console
        if not arg:
            self.seat = None
            c.say("Showing the table's view (face-up cards only).")
            return k
        seat = seat_named(arg, self.names)
        if seat is None:
            c.error(f"{arg!r} is not a player; players are {', '.join(self.names)} (or "
                    f"seat numbers 1 to {len(self.names)})")
            return None
        self.seat = seat
        c.say(f"Seen through the eyes of {self.names[seat]}.")
        return k


def seat_named(text: str, names: Sequence[str]) -> int | None:
    """The seat a name (any case) or a seat number from 1 stands for, or None."""
    lowered = [n.lower() for n in names]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    number = whole(text)
    if number is not None and 1 <= number <= len(names):
        return number - 1
    return None


def replay(
    saved: Saved, console: Console, show_all: bool = False, seat: int | None = None,
    source: str | None = None,
) -> int:
    """Show the saved game; wait for a command between turns unless ``show_all`` or
    the input is not a terminal. Returns 0 (also when the viewer stops early)."""
    # Replaying the whole record first reports a broken one before anything is shown.
    Game.from_record(saved.record)
    v = _Viewer(saved, console, seat)
    style = console.style
    start = Game.from_record({**saved.record, "actions": []})
    who = seat_list(saved.seats)
    console.say(style.paint(f"Replay: {start.rules.name}{style.dot}{who}{style.dot}"
                            f"seed {start.seed}{style.dot}{len(v.actions)} moves", "bold"))
    if seat is not None:
        console.say(f"Seen through the eyes of {v.names[seat]}.")
    stepping = console.input_is_terminal and not show_all
    k = 0
    shown = -1
    while k < len(v.steps):
        if k != shown:
            v.show_step(k)
            shown = k
        if not stepping or k + 1 == len(v.steps):
            k += 1
            shown = k - 1
            continue
        answer = console.ask(style.paint(_PROMPT, "dim"))
        if answer is None or answer.strip().lower() in ("q", "quit"):
            console.close()
            return 0
        if answer.strip().lower() in ("a", "all"):
            stepping = False
            k += 1
            continue
        nxt = v.command(answer, k)
        if nxt is not None:
            if nxt == k:
                shown = -1  # the same turn again, through other eyes
            k = nxt
    console.close()
    v.finish(source)
    return 0
