"""Golf as text, for language-model agents: one seat's turn as a prompt, a lenient
reader of answers, and a match where some seats answer in text and the others are bots.

Everything a prompt says comes from the engine: the rules from the rule settings
(:func:`golf.terminal.summary.rules_summary`), the board from the seat's view (so a
hidden card can never appear, and in memory mode a peeked card is described only while
the view still shows it), the others' moves from the engine's events as that seat may
hear them, and the legal moves from :meth:`golf.Game.legal_actions`.

>>> import golf
>>> m = TextMatch(golf.Game("six-card", players=2, seed=3, rules={"holes": 1}),
...               bots={1: "greedy"})
>>> m.to_act
0
>>> "Your legal moves: reveal 1 2 3 4 5 6" in m.observation()
True
>>> reply = m.answer("I will turn up the first card.\\nAnswer: [reveal 1]")
>>> reply.accepted, str(reply.action)
(True, 'reveal 1')
>>> m.answer("flip the queen").accepted
False
>>> m.transcript[-1]["error"]  # doctest: +ELLIPSIS
"'flip the queen' is not an action; actions are: ... legal now: reveal 2 3 4 5 6"

The TextArena environments built on it are in :mod:`golf.envs.textarena_env`.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..bots.base import Bot
from ..bots.external import BotFailure
from ..errors import GolfError
from ..game import Game
from ..results import placings
from ..table import BotSeat, Outside, Seat, Table, Turn, bot_seat
from ..terminal.board import board, remembered, scorecard
from ..terminal.entry import SHORT, Command, EntryError, legal_text, read
from ..terminal.narrate import tell
from ..terminal.style import Style
from ..terminal.summary import rules_summary
from ..view import forgets_peeks

__all__ = [
    "FORFEIT", "AnswerError", "Reply", "TextMatch", "TextOptions", "describe",
    "parse_answer", "play_text", "rules_text",
]

#: The fallback that ends the match for a seat that keeps answering wrongly.
FORFEIT = "forfeit"
_PLAIN = Style()
# A final "Answer: ..." line (also "Move:", "Final answer -"), the way chat models close.
_ANSWER_LINE = re.compile(r"^\s*(?:final\s+)?(?:answer|move|action)\s*[:=\-]\s*(.+?)\s*$",
                          re.IGNORECASE | re.MULTILINE)
_BRACKETS = re.compile(r"\[([^\[\]]{1,40})\]")
# Longest answer read at all: a runaway model is told so rather than scanned at length.
MAX_ANSWER = 20_000


class AnswerError(GolfError):
    """An answer that names no legal move; the message says what is legal."""


@dataclass(frozen=True)
class TextOptions:
    """How a text match treats its agents.

    ``retries``: wrong answers forgiven per decision (each gets a specific message and
    the same question again). ``fallback``: what happens after that: ``"forfeit"`` (the
    seat loses the match: last place) or a bot spec (``"greedy"``, ``"expert"``...)
    whose move is played for the seat, counted as a fallback. ``recent``: how many of
    the latest moves a prompt recalls. ``show_peeks``: where players peek in secret
    (``setup = "peek"``), keep describing the peeked cards after the seat's first draw;
    by default they are described only until then (memory mode, as at a real table).
    """

    retries: int = 2
    fallback: str = FORFEIT
    recent: int = 12
    show_peeks: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.retries, int) or self.retries < 0:
            raise GolfError(f"retries must be a whole number of at least 0, got {self.retries!r}")
        if not isinstance(self.recent, int) or self.recent < 0:
            raise GolfError(f"recent must be a whole number of at least 0, got {self.recent!r}")
        if self.fallback != FORFEIT:
            from ..bots.base import bot_available, parse_spec

            name, _ = parse_spec(self.fallback)
            if name == "cmd" or not bot_available(name):
                raise GolfError(f"fallback {self.fallback!r}: use 'forfeit' or a built-in "
                                "bot such as 'greedy' or 'expert'")


def rules_text(game: Game) -> str:
    """The rules of this match in a few plain sentences, from its rule settings."""
    return rules_summary(game.rules, game.players)


def describe(game: Game, seat: int, names: Sequence[str],
             recent: Sequence[str] = (), show_peeks: bool = False,
             intro: str | None = None) -> str:
    """Seat ``seat``'s turn as text: the rules (``intro``, by default
    :func:`rules_text`), the board as this seat is shown it (grids with positions,
    piles, the held card, totals; in memory mode its peeked cards only until its first
    draw, :func:`golf.terminal.board.remembered`), the latest moves as this seat heard
    them, and its legal moves when it is to act. Built from ``game.view(seat)`` alone,
    so two deals this seat cannot tell apart read the same. ``names[seat]`` is how the
    seat is addressed in the board ("You").
    """
    v = remembered(game.view(seat), game.rules, show_peeks)
    parts = [rules_text(game) if intro is None else intro, ""]
    parts.append(f"You play seat {seat + 1} of {game.players}. The lowest score wins. "
                 f"Positions are numbered 1 to {v['rows'] * v['cols']}, row by row from "
                 f"the top left; a card shown as {_PLAIN.back().strip()} is face down.")
    if v["peeked"]:
        where = ", ".join(str(p) for p in v["peeked"])
        memo = (" Remember them: after your first draw they are shown face down."
                if forgets_peeks(game.rules, show_peeks) else "")
        parts.append(f"You looked at position(s) {where} in secret; your grid shows "
                     f"them.{memo}")
    parts += ["", board(v, names, game.rules, _PLAIN, width=100)]
    if v["hole_scores"] or v["playoff_scores"]:
        parts += ["", scorecard(v, names, _PLAIN)]
    if recent:
        parts += ["", "Latest moves:", *(f"- {line}" for line in recent)]
    parts.append("")
    if v["is_over"]:
        parts.append("The match is over.")
    elif game.current_player == seat:
        legal = game.legal_actions()
        parts.append(f"Your legal moves: {legal_text(legal)}")
        parts.append(_how_to_answer(legal))
    else:
        who = v["current_player"]
        parts.append(f"Waiting for {names[who]}." if who is not None else "")
    return "\n".join(parts).rstrip() + "\n"


def _how_to_answer(legal: Sequence[Action]) -> str:
    # The terminal's short forms, for the kinds of move legal now only.
    kinds = dict.fromkeys(a.kind for a in legal)
    short = ", ".join(f"{SHORT[k].replace('N', '3')} for {k}" + (" 3" if "N" in SHORT[k] else "")
                      for k in kinds if k in SHORT)
    return (f"Answer with one legal move in this notation, for example '{legal[-1]}' "
            f"(or its short form: {short}), or end your answer with a line "
            "'Answer: <move>'.")


def parse_answer(text: str, legal: Sequence[Action], cells: int | None = None) -> Action:
    """The legal move an answer names, read leniently: a final ``Answer: ...`` line,
    else the last ``[...]`` bracket, else the last non-empty line; the notation or its
    short forms (``d``, ``s3``, a bare position where one kind of move fits). Anything
    else raises :class:`AnswerError` with what is legal now.

    >>> import golf
    >>> legal = golf.Game("six-card", players=2, seed=1).legal_actions()
    >>> str(parse_answer("Let me see... [reveal 4]", legal))
    'reveal 4'
    >>> str(parse_answer("Thinking.\\nAnswer: `r5`.", legal))
    'reveal 5'
    >>> parse_answer("knock", legal)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    golf.envs.text.AnswerError: 'knock' is not legal now; legal now: reveal 1 2 3 4 5 6
    """
    if not isinstance(text, str):
        raise AnswerError(f"an answer is text, got {type(text).__name__}")
    if len(text) > MAX_ANSWER:
        raise AnswerError(f"the answer is {len(text)} characters long; answer with one move "
                          f"(at most {MAX_ANSWER} characters)")
    candidate = _candidate(text)
    try:
        got = read(candidate, legal, cells)
    except EntryError as e:
        # The terminal's own commands (help, hint...) are no use to an agent.
        raise AnswerError(str(e).split("; commands:")[0]) from None
    if isinstance(got, Command):
        raise AnswerError(f"{candidate!r} is not a move; {_legal_now(legal)}")
    if got not in legal and cells is not None and (got.position or 0) > cells:
        raise AnswerError(f"position {got.position} is off the grid, which has positions 1 "
                          f"to {cells}; {_legal_now(legal)}")
    if got not in legal:
        raise AnswerError(f"{str(got)!r} is not legal now; {_legal_now(legal)}")
    return got


def _legal_now(legal: Sequence[Action]) -> str:
    return "legal now: " + legal_text(legal)


def _candidate(text: str) -> str:
    answers = _ANSWER_LINE.findall(text)
    if answers:
        text = answers[-1]
    brackets = _BRACKETS.findall(text)
    if brackets:
        text = brackets[-1]
    lines = [line for line in text.splitlines() if line.strip()]
    word = lines[-1] if lines else ""
    return word.strip(" \t`'\"*_.!")


@dataclass(frozen=True)
class Reply:
    """What became of one answer: whether it was played, the action played for the
    seat (its own, or the fallback bot's), and the message it gets otherwise."""

    accepted: bool
    action: Action | None = None
    message: str = ""
    fallback: bool = False


class TextMatch:
    """A match at a :class:`golf.table.Table` whose agent seats answer in text and whose
    other seats are registry bots (``bots``: seat -> spec, seeded by
    :func:`golf.table.bot_seed`). Bots play by themselves until an agent is to act;
    :meth:`observation` is that agent's prompt and :meth:`answer` takes its text.
    Every prompt and answer is kept in :attr:`transcript` and in :meth:`record`.
    """

    def __init__(self, game: Game, bots: Mapping[int, str] | None = None,
                 options: TextOptions | None = None,
                 names: Sequence[str] | None = None) -> None:
        bots = dict(bots or {})
        for seat in bots:
            if not isinstance(seat, int) or not 0 <= seat < game.players:
                raise GolfError(f"bot seat {seat!r} is not a seat of this {game.players}-player "
                                "game")
        self.game = game
        self.options = options or TextOptions()
        self.names = list(names) if names else [
            f"Bot {s + 1} ({bots[s]})" if s in bots else f"Player {s + 1}"
            for s in range(game.players)]
        if len(self.names) != game.players:
            raise GolfError(f"{len(self.names)} names for {game.players} players")
        seats: list[Seat] = [bot_seat(bots[s], game.rules, game.seed, s) if s in bots
                             else Outside() for s in range(game.players)]
        self.agents = [s for s in range(game.players) if s not in bots]
        # Only agents read the narration: a table of bots alone plays without events.
        self.table = Table(game, seats, events=bool(self.agents))
        if self.agents:
            self.table.watch(self)
        self._heard: dict[int, deque[str]] = {
            s: deque(maxlen=self.options.recent or None) for s in self.agents}
        self._rules = rules_text(game)
        self._fallback_bots: dict[int, Bot] = {}
        self._tries = 0
        self._error = ""
        self._prompt: tuple[tuple[int, int, str], str] | None = None
        #: Every prompt and answer: seat, hole, observation, answer, action, error, fallback.
        self.transcript: list[dict[str, Any]] = []
        #: Per seat: the answers that named no legal move, and the fallbacks they led to.
        self.invalid = [0] * game.players
        self.fallbacks = [0] * game.players
        #: The seat that forfeited the match (a text agent out of tries, or a ``cmd:``
        #: bot whose fallback is forfeit), if one did.
        self.forfeited: int | None = None
        self._run_bots()

    def _run_bots(self) -> None:
        try:
            self.table.run()
        except BotFailure as e:
            self.forfeited = e.seat

    # -- the table's observer: each agent hears each move as it may -------------------
    def on_event(self, turn: Turn) -> None:
        for seat in self.agents:
            for line in tell(turn.event, seat, self._names_for(seat), _PLAIN):  # type: ignore[arg-type]
                self._heard[seat].append(line)

    def _names_for(self, seat: int) -> list[str]:
        return [("You" if s == seat else n) for s, n in enumerate(self.names)]

    @property
    def is_over(self) -> bool:
        return self.game.is_over or self.forfeited is not None

    @property
    def to_act(self) -> int | None:
        """The agent seat to answer now (None when the match is over)."""
        return None if self.is_over else self.game.current_player

    def observation(self, seat: int | None = None) -> str:
        """The prompt for ``seat`` (by default the seat to act): after a wrong answer it
        starts with what was wrong."""
        seat = self.to_act if seat is None else seat
        if seat is None:
            raise GolfError("the match is over: nobody is to act")
        if seat not in self._heard:
            raise GolfError(f"seat {seat} is played by a bot, not answered in text")
        error = self._error if seat == self.to_act else ""
        # The agent reads the prompt, then answer() stores it: build it once.
        key = (seat, len(self.game.history), error)
        if self._prompt is not None and self._prompt[0] == key:
            return self._prompt[1]
        text = describe(self.game, seat, self._names_for(seat), list(self._heard[seat]),
                        self.options.show_peeks, self._rules)
        if error:
            text = f"Your last answer was not played: {error}\n\n{text}"
        self._prompt = (key, text)
        return text

    def answer(self, text: str) -> Reply:
        """Play the answer of the seat to act. A wrong one changes nothing and returns
        its message; after ``options.retries`` of them in one decision the fallback
        decides (the seat forfeits, or the fallback bot's move is played for it)."""
        seat = self.to_act
        if seat is None:
            raise GolfError("the match is over: no answer is expected")
        prompt = self.observation(seat)
        entry: dict[str, Any] = {"seat": seat, "hole": self.game.hole,
                                 "observation": prompt, "answer": text, "action": None,
                                 "error": None, "fallback": False}
        self.transcript.append(entry)
        legal = self.game.legal_actions()
        try:
            action = parse_answer(text, legal, self.game.rules.cells)
        except AnswerError as e:
            entry["error"] = str(e)
            self.invalid[seat] += 1
            self._tries += 1
            if self._tries <= self.options.retries:
                self._error = str(e)
                return Reply(False, None, str(e))
            return self._fall_back(seat, entry, str(e))
        return self._play(seat, action, entry, fallback=False)

    def _fall_back(self, seat: int, entry: dict[str, Any], message: str) -> Reply:
        self.fallbacks[seat] += 1
        entry["fallback"] = True
        if self.options.fallback == FORFEIT:
            self.forfeited = seat
            self._error = ""
            return Reply(False, None, f"{message}; no tries left: {self.names[seat]} "
                         "forfeits the match", fallback=True)
        bot = self._fallback_bots.get(seat)
        if bot is None:
            bot = bot_seat(self.options.fallback, self.game.rules, self.game.seed, seat).bot
            self._fallback_bots[seat] = bot
        action = BotSeat(bot).decide(self.game.view(seat, codes=True),
                                     self.game.legal_actions())
        return self._play(seat, action, entry, fallback=True)

    def _play(self, seat: int, action: Action, entry: dict[str, Any], fallback: bool) -> Reply:
        self.table.play(action, seat)
        entry["action"] = str(action)
        self._tries = 0
        self._error = ""
        self._run_bots()
        return Reply(True, action, "", fallback=fallback)

    def placings(self) -> list[int]:
        """Each seat's place (1 is first; tied seats share a place); a seat that
        forfeited is last, alone."""
        g = self.game
        # A playoff settles a tie on totals, so the match's winners come first.
        winners = set(g.winners) if g.is_over and self.forfeited is None else set()
        return [1 + p for p in placings(winners, g.totals, self.forfeited)]

    def rewards(self) -> dict[int, float]:
        """A reward per seat from its place: +1 first, -1 last, evenly between (shared
        places share the mean); a lone player's reward is minus its total."""
        n = self.game.players
        if n == 1:
            return {0: float(-self.game.totals[0])}
        places = self.placings()
        return {s: 1.0 - 2.0 * (places[s] - 1 + (places.count(places[s]) - 1) / 2) / (n - 1)
                for s in range(n)}

    def record(self) -> dict[str, Any]:
        """The game record (:meth:`golf.Game.record`, replayable by
        :meth:`golf.Game.from_record`) with the transcript, the counts of wrong answers
        and fallbacks per seat, and the forfeit, for audit."""
        out: dict[str, Any] = dict(self.game.record())
        out["transcript"] = [dict(e) for e in self.transcript]
        out["invalid_answers"] = list(self.invalid)
        out["fallbacks"] = list(self.fallbacks)
        out["forfeited"] = self.forfeited
        return out

    def close(self) -> None:
        self.table.close()


def play_text(match: TextMatch, agents: Mapping[int, Callable[[str], str]]) -> TextMatch:
    """Run ``match`` to the end, asking ``agents[seat](prompt)`` for each answer."""
    while (seat := match.to_act) is not None:
        match.answer(agents[seat](match.observation()))
    return match
