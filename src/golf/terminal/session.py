"""The session loop: people and bots play a match at one terminal.

The match is driven by a :class:`golf.table.Table`: bots sit in
:class:`~golf.table.BotSeat` seats, each person in a :class:`~golf.table.PersonSeat` whose
callback is this session's prompt, and the session watches the table to tell the
moves and save after each one. Each person's screen is drawn from
``Game.view(seat)`` alone; bots decide from the view of their own seat. With two or
more people (hot-seat) the screen is cleared after each person's turn and a "pass to
NAME" screen comes before the next one.

>>> import io
>>> from golf import Game
>>> from golf.table import build_bots
>>> from golf.terminal.seats import seat_table
>>> g = Game("six-card", players=2, seed=4, rules={"holes": 1})
>>> seats = seat_table([], ["random", "random"], g.seed)
>>> out = io.StringIO()
>>> session = Session(g, seats, build_bots(seats, g.rules), Console(io.StringIO(), out))
>>> session.run(), g.is_over, "wins the match" in out.getvalue()
(0, True, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import Action
from ..bots import make_bot
from ..bots.base import Bot, Option, parse_spec
from ..bots.ladder import COACH_BUDGET_MS, strongest
from ..errors import GolfError, IllegalAction
from ..events import Event
from ..game import Game
from ..table import BotSeat, PersonSeat, Seat, SeatSpec, Table, Turn, bot_seed, write_save
from ..view import forgets_peeks, has_drawn
from . import board as boards
from .console import Console
from .entry import COMMANDS, Command, EntryError, did_you_mean, legal_now, read
from .narrate import tell, verb
from .seats import available_bot
from .style import Style
from .summary import header, match_length, rules_summary

_QUIT = "quit"
#: The coach's seed comes from the game's seed like a bot's, from a seat no match has.
_COACH_SEAT = 99


class _Quit(Exception):
    """A person stopped the match (quit, or the input ended)."""


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
        self, game: Game, seats: Sequence[SeatSpec], bots: Mapping[int, Bot], console: Console,
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
        #: The coach's bot spec: the strongest measured bot that explains within the
        #: coach's budget (golf.bots.ladder); set it before the first hint to change it.
        self.coach_spec = strongest(game.rules, COACH_BUDGET_MS, players=game.players)
        missing = [s.name for i, s in enumerate(seats) if s.bot and i not in self.bots]
        if missing:
            raise GolfError(f"no bot object for {', '.join(missing)}")
        places: list[Seat] = [PersonSeat(self._asker(i)) if s.is_human else BotSeat(self.bots[i])
                              for i, s in enumerate(seats)]
        self.table = Table(game, places, observers=[self], events=True)
        #: The person whose turn is on screen with its prompt (its board is drawn).
        self._prompting: int | None = None
        #: (hole, holes ended, seat) whose peeks have been cleared off the screen.
        self._hidden: set[tuple[int, int, int]] = set()
        #: How many holes had ended before the last action (a move of a finished hole
        #: is not highlighted on the next one's board).

    # --- what a seat sees ------------------------------------------------------------
    @property
    def memory_mode(self) -> bool:
        return forgets_peeks(self.game.rules, self.options.show_peeks)

    def shown(self, seat: int | None, codes: bool = False) -> Mapping[str, Any]:
        """What the screen shows ``seat`` (None: what everyone may see)."""
        if seat is None:
            return self.game.public_view(codes)
        return boards.remembered(self.game.view(seat, codes), self.game.rules,
                                 self.options.show_peeks)

    @property
    def onlooker(self) -> int | None:
        """Whose eyes the screen uses during bots' turns: the one person, if only one."""
        return self.humans[0] if len(self.humans) == 1 else None

    def draw_board(self, seat: int | None) -> None:
        """The table through ``seat``'s eyes (None: everyone's), the last move's cells
        highlighted; a fixed screen adds the discard pile's history."""
        v = self.shown(seat)
        text = boards.board(v, self.names, self.game.rules, self.style, self.console.width,
                            [s.bot for s in self.seats], self._last_cells())
        if self.console.fixed and v["discard"]:
            pile = " ".join(self.style.card_name(c) for c in v["discard"][-14:])
            more = "... " if len(v["discard"]) > 14 else ""
            text += f"\nDiscard pile, top last: {more}{pile}"
        self.console.board(text)

    def _last_cells(self) -> dict[int, set[int]]:
        """The cells the last action of this hole changed, by seat."""
        g = self.game
        if not self.table.turns:
            return {}
        turn = self.table.turns[-1]
        if turn.action.cell is None or g.ended_hole:  # a new hole: nothing changed yet
            return {}
        return {turn.seat: {turn.action.cell}}

    # --- the loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match is over (0) or someone quits (0); saves after each move."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.console.close()
            self.console.say("\nInterrupted.")
            self._resume_hint()
            return 130
        finally:
            self.console.close()

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
            person = self.seats[seat].is_human
            if not person:
                self.before_bot(seat)
            try:
                self.table.step()
            except _Quit:
                return 0
            except IllegalAction as e:
                if not person:
                    raise
                # A person's move the rules forbid: say why; nothing changed.
                why = str(e).split("; legal now: ")[0]
                self.console.error(f"Not allowed: {why}; {legal_now(g.legal_actions())}")
                continue
            if g.ended_hole:
                if self.end_of_hole() == _QUIT:
                    return 0
                if not g.is_over:
                    self.announce_hole()
        self.end_of_match()
        return 0

    def save(self) -> None:
        if self.options.save is not None:
            write_save(self.options.save, self.game, self.seats, self.options.saved())

    def _resume_hint(self) -> None:
        if self.options.save is not None and not self.game.is_over:
            self.console.say(f"The game is saved in {self.options.save}; continue it with: "
                             f"golf resume {self.options.save}")

    def announce_match(self) -> None:
        g = self.game
        who = seat_list(self.seats)
        self.console.say(self.style.paint(
            f"Golf: {g.rules.name}{self.style.dot}{who}{self.style.dot}seed {g.seed}", "bold"))
        self.console.say(f"{header(g.rules)}\nMatch: {match_length(g.rules)}; the lowest "
                         "total wins.")
        if self.humans:
            self.console.say("Type 'help' for the moves and commands, 'hint' for advice.")
        if self.memory_mode and self.humans:
            self.console.say("Memory mode: the cards you peek at hide again after your first "
                             "draw (--show-peeks keeps them visible).")

    def announce_hole(self) -> None:
        if self.console.fixed and self.game.hole_results:
            self.console.clear()  # a new hole, a new page: last hole's moves and hints go
        self.console.say(hole_banner(self.game.view(0), self.names, self.style,
                                     bool(self.game.rules.target)))

    # --- watching the table --------------------------------------------------------
    def before_bot(self, seat: int) -> None:
        """Before a bot decides: the table for onlookers when only bots play."""
        if not self.humans and self.last_actor != seat:
            self.draw_board(None)
        self.last_actor = seat

    def sentences(self, turn: Turn, eyes: int | None) -> list[str]:
        """The turn's event in words for ``eyes`` (None: everyone at the table)."""
        event = turn.event
        assert isinstance(event, Event), "the session's table plays with events"
        peeked = None
        if turn.action.kind == "peek" and eyes == turn.seat and turn.action.cell is not None:
            peeked = self.game.view(eyes)["grids"][eyes][turn.action.cell]
        lines = tell(event, eyes, self.names, self.style, peeked)
        return [self.style.paint(line, "warn") if line.startswith("The stock ran out")
                else line for line in lines]

    def on_event(self, turn: Turn) -> None:
        """After every action at the table: save, and tell it."""
        g, seat = self.game, turn.seat
        self.save()
        person = self.seats[seat].is_human
        eyes = seat if person else self.onlooker
        if self.hot_seat:  # the public account, for the next person's "meanwhile"
            self.recent.extend(self.sentences(turn, None))
        if not person:
            if self.console.fixed and not g.ended_hole:
                self.draw_board(self.onlooker)
                self.console.status("")
            for line in self.sentences(turn, eyes):
                self.console.say(self.style.paint(line, "dim") if self.humans else line)
            self.console.sleep(self.options.delay)
            return
        self.hide_peeks_if_due(seat)
        for line in self.sentences(turn, eyes):
            self.console.say(line)
        if g.ended_hole or g.current_player != seat:
            self._prompting = None
            if self.hot_seat:
                # Hide this person's cards at once: the next one may already be looking.
                self.console.clear()
                self.on_screen = None
        else:
            self.draw_board(seat)
            self.console.status(self.instruction(seat))

    def hide_peeks_if_due(self, seat: int) -> bool:
        """In memory mode, clear the screen once ``seat``'s peeked cards hide (after
        their first draw of a hole), so that the earlier board and the sentences naming
        the cards scroll away with it. True if the screen was cleared."""
        if not self.memory_mode:
            return False
        key = (self.game.hole, len(self.game.hole_results), seat)
        if key in self._hidden or not has_drawn(self.game.view(seat)):
            return False
        self._hidden.add(key)
        self.console.clear()
        return True

    # --- people -----------------------------------------------------------------------
    def _asker(self, seat: int) -> Callable[[Mapping[str, Any], Sequence[Action]], Action]:
        def ask(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            return self.ask_move(seat, legal)
        return ask

    def ask_move(self, seat: int, legal: Sequence[Action]) -> Action:
        """Prompt ``seat`` (answering commands on the way) until they type a move;
        raises _Quit if they quit or the input ends."""
        name = self.names[seat]
        if self._prompting != seat:
            if self.hot_seat and self.on_screen != seat and self.pass_to(seat) == _QUIT:
                raise _Quit
            self.on_screen = seat
            self.last_actor = seat
            self.recent = []
            self.draw_board(seat)
            self.console.status(self.instruction(seat))
            self._prompting = seat
        while True:
            line = self.console.ask(self.style.paint(f"{name}> ", "turn"))
            if line is None:
                self.console.say("End of input: the game stops here.")
                self._resume_hint()
                raise _Quit
            try:
                entry = read(line, legal, self.game.rules.cells)
            except EntryError as e:
                self.console.error(str(e))
                continue
            if isinstance(entry, Command):
                if self.command(entry, seat) == _QUIT:
                    raise _Quit
                continue
            return entry

    def pass_to(self, seat: int) -> str | None:
        """The hot-seat screen between two people: nothing private on it."""
        name = self.names[seat]
        self.console.clear()
        self.console.say(self.style.paint(f"Pass the terminal to {name}.", "warn"))
        if self.wait(f"{name}, press Enter when you are ready. ") == _QUIT:
            return _QUIT
        self.console.clear()
        if self.recent:
            self.console.say(self.style.paint("Meanwhile:", "dim"))
            for sentence in self.recent:
                self.console.say("  " + sentence)
        return None

    def wait(self, prompt: str) -> str | None:
        """A pause between turns or holes: Enter goes on; ``scores``, ``rules``, ``help``
        and ``quit`` work here too (nothing private is shown). ``_QUIT`` to stop."""
        c = self.console
        if not c.input_is_terminal:
            return None
        while True:
            line = c.ask(self.style.paint(prompt, "dim"))
            if line is None:
                c.say("End of input: the game stops here.")
                self._resume_hint()
                return _QUIT
            word = line.strip().lower()
            if not word:
                return None
            name = COMMANDS.get(word)
            if name == "quit":
                if self.quit() == _QUIT:
                    return _QUIT
            elif name == "scores":
                c.say(boards.scorecard(self.game.view(0), self.names, self.style))
            elif name == "rules":
                c.say(rules_summary(self.game.rules, self.game.players))
            else:
                guess = did_you_mean(word, ["scores", "rules", "quit", "help"])
                hint = f" (did you mean {guess!r}?)" if guess and name != "help" else ""
                c.error(f"{line.strip()!r} is not for this screen{hint}: press Enter to go "
                        "on, or type scores, rules or quit")

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
        return text + "\n" + st.paint(legal_now(legal), "dim")

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
            c.status(self.instruction(seat))
        elif cmd.name == "quit":
            return self.quit()
        return None

    def quit(self) -> str | None:
        """Stop (``_QUIT``), once confirmed where an unsaved game would be lost."""
        c = self.console
        if self.options.save is None and c.input_is_terminal:
            answer = c.ask("The game is not saved (use --save FILE next time). "
                           "Quit anyway? [y/N] ")
            if answer is not None and answer.strip().lower() not in ("y", "yes"):
                c.say("Playing on.")
                return None
        c.say("Goodbye.")
        self._resume_hint()
        return _QUIT

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
            spec = available_bot(self.coach_spec)
            seed = bot_seed(self.game.seed, _COACH_SEAT)
            self._coach = make_bot(spec, self.game.rules, seed=seed)
        return self._coach

    def hint(self, seat: int) -> str:
        """What the coach (:attr:`coach_spec`) would do in this seat, and the value of
        each option it decides by, best first, with the parts that value adds up from.

        The coach reads the seat's own view, peeked cards included: in memory mode it
        uses what the player saw (and may have forgotten), nothing more."""
        g, st = self.game, self.style
        if self._coach is None and parse_spec(available_bot(self.coach_spec))[0] == "search":
            # numba loads (or, the first time on a machine, compiles) the search's core
            self.console.status("(the coach is the search bot; its first hint loads its "
                                "compiled core: seconds, or minutes the first time on "
                                "this machine)")
        bot = self.coach()
        view = g.view(seat, codes=True)
        legal = g.legal_actions()
        lines = []
        wanted = parse_spec(self.coach_spec)[0]
        if bot.name != wanted:
            lines.append(f"(the {wanted} bot is not installed; hints come from the "
                         f"{bot.name} bot)")
        options = bot.explain(view, legal)
        if not options:
            action = bot.choose(view, legal)
            lines.append(f"Hint: the {bot.name} bot would play '{action}' (it gives no "
                         "reasons).")
            return "\n".join(lines)
        best = options[0]
        lines.append(st.paint(f"Hint: {advice(best.action, best.reason, st.dash)}", "good"))
        if all(o.value is None for o in options):
            lines.append("(no option scores better than another here; the coach picks the "
                         "card in the part of your grid it knows least)")
            return "\n".join(lines)
        rows = _hint_rows(options)
        width = max(len(move) for move, _, _, _ in rows)
        for rank, (move, value, made, tail) in enumerate(rows, 1):
            tail = f" ({tail})" if tail else ""
            lines.append(f"  {rank}. {move:<{width}} {value}  = {made}{tail}")
        lines.append(f"(lower is better: {bot.value_meaning}, as the {bot.name} bot "
                     "reckons it)")
        return "\n".join(lines)

    # --- ends -------------------------------------------------------------------------
    def end_of_hole(self) -> str | None:
        c = self.console
        text = hole_end(self.game, self.names, self.style, c.width)
        if c.fixed and not self.game.is_over:
            c.board(text.strip("\n"))
            c.status("")
        else:
            c.say(text)
        self.on_screen = None
        self.last_actor = None
        if not self.game.is_over and self.humans:
            return self.wait("Press Enter for the next hole. ")
        return None

    def end_of_match(self) -> None:
        c = self.console
        c.say("")
        c.say(match_result(self.game, self.names, self.style))
        if self.options.save is not None:
            c.say(f"Saved in {self.options.save}; watch it again with: "
                  f"golf replay {self.options.save}")


def seat_list(seats: Sequence[SeatSpec]) -> str:
    """``You, Easy, Expert 1 (expert:noise=1)``: a bot's spec where its name does not
    already say it."""
    out = []
    for s in seats:
        named = s.bot is not None and s.name.split()[0].lower() == s.bot.lower()
        out.append(s.name if s.bot is None or named else f"{s.name} ({s.bot})")
    return ", ".join(out)


#: A move without a position in words, where a reason names it by its bare notation.
_MOVE_WORDS = {"draw": "draw from the stock", "take": "take the top discard",
               "discard": "discard the card you hold", "knock": "knock",
               "pass": "leave your face-down cards as they are"}


def advice(action: Action, reason: str, dash: str = "-") -> str:
    """The coach's advice in one phrase, the move said once: a reason that names the
    move itself stands alone (``take the 2: swap into position 1 for the 7``), a bare
    ``draw: ...`` says where it draws from, and any other reason follows the move.

    >>> advice(Action.parse("draw"), "draw: expected gain 2.4")
    'draw from the stock: expected gain 2.4'
    >>> advice(Action.parse("swap 2"), "swap into position 2 for the 8")
    'swap into position 2 for the 8'
    >>> advice(Action.parse("draw"), "over 200 sampled deals")
    'draw - over 200 sampled deals'
    """
    kind, pos = action.kind, action.position
    if pos is None and (reason == kind or reason.startswith(kind + ":")):
        return _MOVE_WORDS.get(kind, kind) + reason[len(kind):]
    if reason.startswith(kind + " ") and (pos is None or f"position {pos}" in reason):
        return reason
    return f"{action} {dash} {reason}" if reason else str(action)


def _hint_rows(options: Sequence[Option]) -> list[tuple[str, str, str, str]]:
    """The coach's options as rows (action, value, its parts, what else the reason
    says), best first; moves of one kind that are alike in every number and reason
    share a row (``swap 2 3 5``)."""
    rows: list[tuple[str, str, str, str]] = []
    kinds: list[str] = []
    for opt in options:
        if opt.value is None:
            value, made = "  -  ", "only when nothing else is legal"
        else:
            value, made = f"{opt.value:5.1f}", _sum_text(opt.parts)
        tail = re.sub(r"^(swap into|flip) position \d+,? ?", "", opt.reason)
        if tail.startswith("discard the "):
            tail = ""
        elif opt.action.kind == "draw":
            tail = "averaged over the cards you might draw"
        kind, pos = opt.action.kind, opt.action.position
        last = rows[-1] if rows else None
        if last is not None and pos is not None and kinds[-1] == kind and \
                last[1:] == (value, made, tail):
            rows[-1] = (f"{last[0]} {pos}", value, made, tail)
            continue
        rows.append((str(opt.action), value, made, tail))
        kinds.append(kind)
    return rows


def _sum_text(parts: Sequence[tuple[str, float]]) -> str:
    """``your grid 16.2 + next player's gain 1.5 - what a flip teaches 3.0``."""
    out = ""
    for k, (what, points) in enumerate(parts):
        if k == 0:
            out = f"{what} {points:.1f}"
        else:
            out += f" {'-' if points < 0 else '+'} {what} {abs(points):.1f}"
    return out


def hole_banner(
    view: Mapping[str, Any], names: Sequence[str], style: Style, target: bool = False,
) -> str:
    """The start of a hole: its number, the dealer, who begins, and a playoff's cause
    (``target``: the match may end sooner, once a total passes its target)."""
    v = view
    out = []
    if v["playoff"]:
        tied = " and ".join(names[s] for s in v["active"])
        total = v["totals"][v["active"][0]]
        out.append(style.paint(f"\nPlayoff: {tied} are tied on {total} and play an extra "
                               "hole.", "warn"))
    hole = f"Hole {v['hole']}"
    if v["holes"] and not v["playoff"]:
        hole += f" of {'up to ' if target else ''}{v['holes']}"
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
    """Who won the match, with what total, whether it took a playoff, and (with more
    than two players) everyone's place."""
    text = _winner_line(game, names, style)
    if game.players > 2:
        text += "\n" + boards.placings(game.totals, game.winners, names)
    return text


def _winner_line(game: Game, names: Sequence[str], style: Style) -> str:
    winners = game.winners
    total = game.totals[winners[0]]
    who = " and ".join(names[w] for w in winners)
    if len(winners) == 1:
        after = " after a playoff" if game.playoff_scores else ""
        verb = "win" if who == "You" else "wins"
        return style.paint(f"{who} {verb} the match{after} with {total}!", "good")
    return style.paint(f"{who} share the win with {total}.", "good")
