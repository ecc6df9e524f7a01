"""The session loop: people and bots play a match at one terminal.

Each person's screen is drawn from ``Game.view(seat)`` alone; bots decide from the
view of their own seat. With two or more people (hot-seat) the screen is cleared
after each person's turn and a "pass to NAME" screen comes before the next one.

>>> import io
>>> from golf import Game
>>> from golf.terminal.seats import seat_table, build_bots
>>> g = Game("six-card", players=2, seed=4, rules={"holes": 1})
>>> seats = seat_table([], ["random", "random"], g.seed)
>>> out = io.StringIO()
>>> session = Session(g, seats, build_bots(seats, g.rules), Console(io.StringIO(), out))
>>> session.run(), g.is_over, "wins the match" in out.getvalue()
(0, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import Action
from ..bots import make_bot
from ..bots.base import Bot
from ..errors import GolfError, IllegalAction
from ..game import Game
from . import board as boards
from . import savefile
from .console import Console
from .entry import Command, EntryError, legal_text, read
from .narrate import describe, verb
from .seats import PREFERRED_BOT, Seat, available_bot, bot_seed
from .style import Style
from .summary import rules_summary

_QUIT = "quit"


@dataclass
class Options:
    """How a session plays: bot pace, memory mode and where to save."""

    delay: float = 0.0
    show_peeks: bool = False
    save: Path | None = None

    def saved(self) -> dict[str, Any]:
        """The options a save file keeps (display choices belong to each run)."""
        return {"show_peeks": self.show_peeks}


class Session:
    """One match at a terminal. :meth:`run` plays it to the end or until a quit."""

    def __init__(
        self, game: Game, seats: Sequence[Seat], bots: Mapping[int, Bot], console: Console,
        options: Options | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise GolfError(f"{len(seats)} seats for a game of {game.players} players")
        self.game = game
        self.seats = list(seats)
        self.names = [s.name for s in seats]
        self.bots = dict(bots)
        self.console = console
        self.style = console.style
        self.options = options or Options()
        self.humans = [i for i, s in enumerate(seats) if s.is_human]
        self.hot_seat = len(self.humans) > 1
        #: The person whose private cards may be on screen now (hot-seat hiding).
        self.on_screen: int | None = None
        #: Public sentences about the moves since the last person's turn (hot-seat).
        self.recent: list[str] = []
        self.last_actor: int | None = None
        self._coach: Bot | None = None

    # --- what a seat sees ------------------------------------------------------------
    @property
    def memory_mode(self) -> bool:
        return self.game.rules.setup == "peek" and not self.options.show_peeks

    def shown(self, seat: int | None, codes: bool = False) -> Mapping[str, Any]:
        """What the screen shows ``seat`` (None: what everyone may see)."""
        if seat is None:
            return boards.masked(self.game.view(0, codes), True, True)
        v = self.game.view(seat, codes)
        if self.memory_mode and boards.has_drawn(v):
            return boards.masked(v, True, False)
        return v

    @property
    def onlooker(self) -> int | None:
        """Whose eyes the screen uses during bots' turns: the one person, if only one."""
        return self.humans[0] if len(self.humans) == 1 else None

    def draw_board(self, seat: int | None) -> None:
        self.console.say(boards.board(
            self.shown(seat), self.names, self.game.rules, self.style, self.console.width,
            [s.bot for s in self.seats],
        ))

    # --- the loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match is over (0) or someone quits (0); saves after each move."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.console.say("\nInterrupted.")
            self._resume_hint()
            return 130

    def _run(self) -> int:
        g = self.game
        self.save()
        self.announce_match()
        if g.history:
            v = g.view(0)
            hole = "playoff hole" if v["playoff"] else "hole"
            turn = self.names[v["current_player"]]  # type: ignore[index]  # not over: resumed
            self.console.say(self.style.paint(
                f"\nResuming after {len(g.history)} moves: {hole} {v['hole']}, "
                f"{turn} to play.", "bold"))
        else:
            self.announce_hole()
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            holes = len(g.hole_results)
            if self.seats[seat].is_human:
                if self.human_turn(seat) == _QUIT:
                    return 0
            else:
                self.bot_move(seat)
            if len(g.hole_results) > holes:
                if self.end_of_hole() == _QUIT:
                    return 0
                if not g.is_over:
                    self.announce_hole()
        self.end_of_match()
        return 0

    def save(self) -> None:
        if self.options.save is not None:
            savefile.write(self.options.save, self.game, self.seats, self.options.saved())

    def _resume_hint(self) -> None:
        if self.options.save is not None and not self.game.is_over:
            self.console.say(f"The game is saved in {self.options.save}; continue it with: "
                             f"golf resume {self.options.save}")

    def announce_match(self) -> None:
        g = self.game
        who = ", ".join(f"{s.name} ({s.bot})" if s.bot else s.name for s in self.seats)
        self.console.say(self.style.paint(
            f"Golf: {g.rules.name}{self.style.dot}{who}{self.style.dot}seed {g.seed}", "bold"))
        if self.humans:
            self.console.say("Type 'help' for the moves and commands, 'hint' for advice.")
        if self.memory_mode and self.humans:
            self.console.say("Memory mode: the cards you peek at hide again after your first "
                             "draw (--show-peeks keeps them visible).")

    def announce_hole(self) -> None:
        self.console.say(hole_banner(self.game.view(0), self.names, self.style))

    # --- bots -------------------------------------------------------------------------
    def bot_move(self, seat: int) -> None:
        g = self.game
        eyes = self.onlooker
        if not self.humans and self.last_actor != seat:
            self.draw_board(None)
        self.last_actor = seat
        before, public_before = self.shown(eyes), self.shown(None)
        action = self.bots[seat].choose(g.view(seat, codes=True), g.legal_actions())
        g.apply(action)
        self.save()
        line = describe(action, seat, before, self.shown(eyes), self.names, self.style)
        self.tell_everyone(action, seat, public_before)
        self.console.say(self.style.paint(line, "dim") if self.humans else line)
        self.console.sleep(self.options.delay)

    # --- people -----------------------------------------------------------------------
    def human_turn(self, seat: int) -> str | None:
        """Prompt ``seat`` until their turn is over; ``"quit"`` if they quit."""
        g = self.game
        name = self.names[seat]
        if self.hot_seat and self.on_screen != seat and self.pass_to(seat) == _QUIT:
            return _QUIT
        self.on_screen = seat
        self.last_actor = seat
        self.recent = []
        self.draw_board(seat)
        self.console.say(self.instruction(seat))
        holes = len(g.hole_results)
        while True:
            line = self.console.ask(self.style.paint(f"{name}> ", "turn"))
            if line is None:
                self.console.say("End of input: the game stops here.")
                self._resume_hint()
                return _QUIT
            legal = g.legal_actions()
            try:
                entry = read(line, legal)
            except EntryError as e:
                self.console.say(self.style.paint(str(e), "error"))
                continue
            if isinstance(entry, Command):
                if self.command(entry, seat) == _QUIT:
                    return _QUIT
                continue
            if self.play(seat, entry) is None:
                continue
            if len(g.hole_results) > holes or g.current_player != seat:
                break
            self.draw_board(seat)
            self.console.say(self.instruction(seat))
        if self.hot_seat:
            # Hide this person's cards at once: the next one may already be looking.
            self.console.clear()
            self.on_screen = None
        return None

    def play(self, seat: int, action: Action) -> Action | None:
        """Apply a person's action; an illegal one is explained and nothing changes."""
        g = self.game
        before, public_before = self.shown(seat), self.shown(None)
        try:
            g.apply(action)
        except IllegalAction as e:
            self.console.say(self.style.paint(f"Not allowed: {e}", "error"))
            return None
        self.save()
        self.console.say(describe(action, seat, before, self.shown(seat), self.names,
                                  self.style))
        self.tell_everyone(action, seat, public_before)
        return action

    def tell_everyone(self, action: Action, seat: int, public_before: Mapping[str, Any]) -> None:
        """Keep the public account of a move for the next person's "meanwhile" (hot-seat)."""
        if self.hot_seat:
            self.recent.append(describe(action, seat, public_before, self.shown(None),
                                        self.names, self.style))

    def pass_to(self, seat: int) -> str | None:
        """The hot-seat screen between two people: nothing private on it."""
        name = self.names[seat]
        self.console.clear()
        self.console.say(self.style.paint(f"Pass the terminal to {name}.", "warn"))
        if not self.console.pause(f"{name}, press Enter when you are ready. "):
            self.console.say("End of input: the game stops here.")
            self._resume_hint()
            return _QUIT
        self.console.clear()
        if self.recent:
            self.console.say(self.style.paint("Meanwhile:", "dim"))
            for sentence in self.recent:
                self.console.say("  " + sentence)
        return None

    def instruction(self, seat: int) -> str:
        """What ``seat`` may do now, in words with the short forms, and the legal list."""
        g, r, st = self.game, self.game.rules, self.style
        v = self.shown(seat)
        name = self.names[seat]
        you = "Your turn" if name == "You" else f"{name}, your turn"
        legal = g.legal_actions()
        phase = v["phase"]
        if phase == "setup":
            real = g.view(seat)
            done = sum(real["face_up"][seat]) if r.setup == "reveal" else len(real["peeked"])
            left = r.setup_count - done
            cards = "one card" if left == 1 else f"{left} cards"
            if r.setup == "reveal":
                text = f"{you}: turn up {cards} of your grid: reveal N (rN, or just N)."
            else:
                text = (f"{you}: look at {cards} of yours in secret: peek N (pN, or just N)."
                        " Remember them!")
        elif phase == "turn":
            top = v["discard_top"]
            options = ["draw from the stock (d)"]
            if top:
                options.append(f"take {st.card_name(top)} from the discard pile (t)")
            if any(a.kind == "flip" for a in legal):
                options.append("turn up a card instead (fN)")
            if any(a.kind == "knock" for a in legal):
                options.append("knock (k)")
            text = f"{you}: " + ", ".join(options[:-1]) + " or " + options[-1] + "."
        elif phase == "hold":
            held = st.card_name(v["held"]) if v["held"] else "a card"
            where = "into your grid" if r.replace == "any" else "for a face-down card"
            text = f"You hold {held}: swap it {where} (sN, or just N)"
            if any(a.kind == "discard" for a in legal):
                text += " or discard it (x)"
            text += "."
        else:
            text = "Turn up one of your face-down cards (fN, or just N)"
            if any(a.kind == "pass" for a in legal):
                text += " or leave them (n)"
            text += "."
        return text + "\n" + st.paint("legal: " + legal_text(legal), "dim")

    # --- commands ---------------------------------------------------------------------
    def command(self, cmd: Command, seat: int) -> str | None:
        c = self.console
        if cmd.name == "help":
            c.say(self.help_text())
        elif cmd.name == "hint":
            c.say(self.hint(seat))
        elif cmd.name == "rules":
            c.say(rules_summary(self.game.rules, self.game.players))
        elif cmd.name == "scores":
            c.say(boards.scorecard(self.game.view(seat), self.names, self.style))
        elif cmd.name == "board":
            self.draw_board(seat)
            c.say(self.instruction(seat))
        elif cmd.name == "quit":
            if self.options.save is None and c.input_is_terminal:
                answer = c.ask("The game is not saved (use --save FILE next time). "
                               "Quit anyway? [y/N] ")
                if answer is not None and answer.strip().lower() not in ("y", "yes"):
                    c.say("Playing on.")
                    return None
            c.say("Goodbye.")
            self._resume_hint()
            return _QUIT
        return None

    def help_text(self) -> str:
        r = self.game.rules
        rows = [("draw", "d", "draw the top card of the stock"),
                ("take", "t", "take the top card of the discard pile")]
        if r.knock:
            rows.append(("knock", "k", "end the round: everyone else has one more turn"))
        rows.append(("swap N", "sN", "put the card you hold at position N (or type just N)"))
        rows.append(("discard", "x", "discard the card you drew"))
        if r.flip_after_discard != "never" or r.flip_instead_of_draw:
            rows.append(("flip N", "fN", "turn up your face-down card at N (or just N)"))
        if r.flip_after_discard == "may":
            rows.append(("pass", "n", "turn up nothing after discarding"))
        if r.setup == "reveal":
            rows.append(("reveal N", "rN", "turn up a card at the start of a hole (or just N)"))
        else:
            rows.append(("peek N", "pN", "look at a card at the start of a hole (or just N)"))
        lines = ["Moves (the word, or its short form):"]
        lines += [f"  {word:<10}{short:<5}{what}" for word, short, what in rows]
        cols = r.cols
        shape = " / ".join(" ".join(str(r_ * cols + c + 1) for c in range(cols))
                           for r_ in range(r.rows))
        lines.append(f"Positions count row by row from the top left: {shape}.")
        lines.append("Commands:")
        lines += [
            "  hint      what the expert bot would do here and why",
            "  rules     a summary of the rules of this game",
            "  scores    the scorecard",
            "  board     show the table again",
            "  help (?)  this list",
            "  quit (q)  stop (with --save, 'golf resume FILE' continues)",
        ]
        return "\n".join(lines)

    def coach(self) -> Bot:
        if self._coach is None:
            spec = available_bot(PREFERRED_BOT)
            self._coach = make_bot(spec, self.game.rules, seed=bot_seed(self.game.seed, 99))
        return self._coach

    def hint(self, seat: int) -> str:
        """What the expert bot would do from this seat's view, and each option's value."""
        g, st = self.game, self.style
        bot = self.coach()
        view = self.shown(seat, codes=True)
        legal = g.legal_actions()
        lines = []
        if bot.name != PREFERRED_BOT:
            lines.append(f"(the {PREFERRED_BOT} bot is not installed; hints come from the "
                         f"{bot.name} bot)")
        options = bot.explain(view, legal)
        if not options:
            action = bot.choose(view, legal)
            lines.append(f"Hint: the {bot.name} bot would play '{action}' (it gives no "
                         "reasons).")
            return "\n".join(lines)
        best = options[0]
        lines.append(st.paint(f"Hint: {best.action} {st.dash} {best.reason}", "good"))
        lines.append(f"  {'option':<10}{'expected score':>15}  why")
        for opt in options:
            lines.append(f"  {opt.action!s:<10}{opt.expected:>15.1f}  {opt.reason}")
        lines.append(f"(expected score: of your grid at the end of the hole, as the "
                     f"{bot.name} bot reckons it; lower is better)")
        return "\n".join(lines)

    # --- ends -------------------------------------------------------------------------
    def end_of_hole(self) -> str | None:
        c = self.console
        c.say(hole_end(self.game, self.names, self.style, c.width))
        self.on_screen = None
        self.last_actor = None
        if not self.game.is_over and self.humans and \
                not c.pause("Press Enter for the next hole. "):
            c.say("End of input: the game stops here.")
            self._resume_hint()
            return _QUIT
        return None

    def end_of_match(self) -> None:
        c = self.console
        c.say("")
        c.say(match_result(self.game, self.names, self.style))
        if self.options.save is not None:
            c.say(f"Saved in {self.options.save}; watch it again with: "
                  f"golf replay {self.options.save}")


def hole_banner(view: Mapping[str, Any], names: Sequence[str], style: Style) -> str:
    """The start of a hole: its number, the dealer, who begins, and a playoff's cause."""
    v = view
    out = []
    if v["playoff"]:
        tied = " and ".join(names[s] for s in v["active"])
        total = v["totals"][v["active"][0]]
        out.append(style.paint(f"\nPlayoff: {tied} are tied on {total} and play an extra "
                               "hole.", "warn"))
    hole = f"Hole {v['hole']}"
    if v["holes"] and not v["playoff"]:
        hole += f" of {v['holes']}"
    starts = verb(names[v["current_player"]], "begins", "begin")
    deals = verb(names[v["dealer"]], "deals", "deal")
    out.append(style.paint(f"\n{hole}: {deals}, {starts}.", "bold"))
    return "\n".join(out)


def hole_end(game: Game, names: Sequence[str], style: Style, width: int = 80) -> str:
    """The finished hole revealed with the engine's explained scores, then the scorecard."""
    v = game.view(0)
    last = v["last_hole"]
    scores = [game.score_hole(s) if grid is not None else None
              for s, grid in enumerate(last["grids"])]
    return "\n".join(["", boards.reveal(last, scores, names, game.rules, style, width), "",
                      boards.scorecard(v, names, style)])


def match_result(game: Game, names: Sequence[str], style: Style) -> str:
    """Who won the match, with what total, and whether it took a playoff."""
    winners = game.winners
    total = game.totals[winners[0]]
    who = " and ".join(names[w] for w in winners)
    if len(winners) == 1:
        after = " after a playoff" if game.playoff_scores else ""
        verb = "win" if who == "You" else "wins"
        return style.paint(f"{who} {verb} the match{after} with {total}!", "good")
    return style.paint(f"{who} share the win with {total}.", "good")
