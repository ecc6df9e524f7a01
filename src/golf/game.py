"""The game state machine: one match of Golf under one :class:`~golf.Rules`.

The engine is deterministic: a match is fixed by its rules, player count, seed and
action list. Every deal and reshuffle draws from a generator seeded by
``(seed, hole, reshuffle)``, so a clone needs no random state of its own.

>>> g = Game("six-card", players=2, seed=7)
>>> g.phase, g.current_player, [str(a) for a in g.legal_actions()][:3]
('setup', 0, ['reveal 1', 'reveal 2', 'reveal 3'])
>>> g.apply("reveal 1"); g.apply("reveal 4"); g.apply("reveal 2"); g.apply("reveal 5")
>>> g.phase, [str(a) for a in g.legal_actions()]
('turn', ['draw', 'take'])
>>> g.apply("swap 1")
Traceback (most recent call last):
...
golf.errors.IllegalAction: swap 1: you must first draw from the stock or take the discard; ...
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import (
    DISCARD,
    DRAW,
    K_DISCARD,
    K_DRAW,
    K_FLIP,
    K_KNOCK,
    K_PASS,
    K_PEEK,
    K_REVEAL,
    K_SWAP,
    K_TAKE,
    KNOCK,
    PASS,
    TAKE,
    Action,
)
from .cards import build_deck
from .errors import GolfError, IllegalAction, NotationError
from .phases import FLIP, FROM_DISCARD, FROM_STOCK, HOLD, OVER, PHASES, SETUP, TURN
from .rules import Rules, load_rules, rules_from_dict
from .scoring import Score, Scorer, scorer
from .view import view as _view

__all__ = ["FLIP", "FROM_DISCARD", "FROM_STOCK", "HOLD", "OVER", "PHASES", "SETUP", "TURN",
           "Game", "HoleResult"]
RECORD_FORMAT = "golf-record/1"
MAX_PLAYOFFS = 20


@dataclass(frozen=True)
class HoleResult:
    """A finished hole: every grid face up, each seat's score (None: not dealt in)."""

    number: int
    playoff: bool
    grids: tuple[tuple[int, ...], ...]
    scores: tuple[int | None, ...]
    knocked_by: int | None
    went_out: int | None
    #: The discard pile's top card when the hole ended (the last card played to it).
    discard_top: int | None = None


class _Tables:
    """Action tuples per face-down mask, built once per grid size."""

    __slots__ = ("flips", "full", "peeks", "reveals", "swaps_all", "swaps_down")

    def __init__(self, rules: Rules) -> None:
        n = rules.cells
        self.full = (1 << n) - 1
        size = 1 << n
        allowed = rules.setup_positions()

        def acts(kind: int, mask: int, cells: Iterable[int] = range(n)) -> tuple[Action, ...]:
            return tuple(Action.of(kind, i) for i in cells if mask >> i & 1)

        # Indexed by the mask of cells still face down (or, for setup, not yet chosen).
        self.flips = [acts(K_FLIP, m) for m in range(size)]
        self.swaps_down = [acts(K_SWAP, m) for m in range(size)]
        self.swaps_all = acts(K_SWAP, self.full)
        self.reveals = [acts(K_REVEAL, m, allowed) for m in range(size)]
        self.peeks = [acts(K_PEEK, m, allowed) for m in range(size)]


_TABLES: dict[tuple[int, tuple[int, ...]], _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    key = (rules.cells, rules.setup_positions())
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Tables(rules)
    return t


class Game:
    """A match of Golf. See the module docs and ``docs/notation.md``.

    ``variant`` is a preset name, a path to a TOML rules file or a :class:`Rules`;
    ``rules`` overrides settings on top of it.
    """

    __slots__ = (
        "_chosen", "_current", "_dealer", "_deck", "_discard", "_ender", "_grids", "_held",
        "_held_from", "_hole_index", "_knocker", "_legal", "_origin", "_peeked", "_phase",
        "_playoff", "_reshuffles", "_scorer", "_setup_left", "_stock", "_t", "_turn_count",
        "_turns", "_up", "_winners", "active", "history", "hole_results", "players",
        "playoff_scores", "regular_scores", "rules", "seed", "totals_",
    )

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = load_rules(variant, rules)
        self.rules.check_players(players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise GolfError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = seed
        self.players = players
        self._scorer: Scorer = scorer(self.rules)
        self._t = _tables(self.rules)
        self._deck = tuple(build_deck(self.rules.decks_for(players), self.rules.jokers_per_deck))
        self.totals_ = [0] * players
        self.regular_scores: list[list[int]] = []
        self.playoff_scores: list[list[int | None]] = []
        self.hole_results: list[HoleResult] = []
        self.history: list[Action] = []
        self._winners: list[int] = []
        self._hole_index = 0
        self._playoff = False
        self._origin: Game | None = None  # the position a game set up by from_position began at
        self._start_hole(tuple(range(players)))

    # --- public state ------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return None if self._phase == OVER else self._current

    @property
    def phase(self) -> str:
        """``setup``, ``turn`` (draw, take, knock or flip), ``hold`` (swap or discard the
        held card), ``flip`` (flip after discarding) or ``over``."""
        return PHASES[self._phase]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def hole(self) -> int:
        """The number of the hole being played (1-based; playoff holes count on)."""
        return self._hole_index + 1

    @property
    def is_playoff(self) -> bool:
        return self._playoff

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def hole_scores(self) -> list[list[int]]:
        """Each finished regular hole's score per seat."""
        return [list(s) for s in self.regular_scores]

    @property
    def totals(self) -> list[int]:
        return list(self.totals_)

    @property
    def winners(self) -> list[int]:
        """The seats that won the match (empty until it is over; several on a shared win)."""
        return list(self._winners)

    @property
    def hole_winners(self) -> list[list[int]]:
        """For each finished hole (playoffs included), the seats with its lowest score."""
        out = []
        for h in self.hole_results:
            scores = [s for s in h.scores if s is not None]
            low = min(scores)
            out.append([i for i, s in enumerate(h.scores) if s == low])
        return out

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    def face_up(self, seat: int) -> list[bool]:
        up = self._up[seat]
        return [bool(up >> i & 1) for i in range(self.rules.cells)]

    # --- hole lifecycle ----------------------------------------------------------
    def _start_hole(self, active: tuple[int, ...]) -> None:
        r, n = self.rules, self.players
        self.active = active
        self._dealer = (self._hole_index - 1) % n
        first = self._next_seat(self._dealer)
        rng = random.Random(f"{self.seed}/{self._hole_index}/0")
        deck = list(self._deck)
        rng.shuffle(deck)
        cells = r.cells
        self._grids: list[list[int]] = [[] for _ in range(n)]
        for k, seat in enumerate(active):
            self._grids[seat] = deck[k * cells:(k + 1) * cells]
        self._stock = deck[len(active) * cells:]
        self._discard = [self._stock.pop()]
        self._up = [0] * n
        self._peeked = [0] * n
        self._chosen = 0
        self._held = -1
        self._held_from = FROM_STOCK
        self._turns = [0] * n
        self._turn_count = 0
        self._ender = -1
        self._knocker = -1
        self._reshuffles = 0
        self._legal: tuple[Action, ...] | None = None
        if r.setup_count:
            self._phase = SETUP
            self._current = first
            self._setup_left = r.setup_count
        else:
            self._setup_left = 0
            self._begin_turn(first)

    def _next_seat(self, seat: int) -> int:
        active, n = self.active, self.players
        s = (seat + 1) % n
        while s not in active:
            s = (s + 1) % n
        return s

    def _can_supply(self) -> bool:
        return bool(self._stock) or (self.rules.reshuffle and len(self._discard) > 1)

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` the turn, skipping players with nothing to do, or end the hole."""
        if self._turn_count >= self.rules.turn_limit or not self._can_supply():
            self._end_hole()
            return
        skip_complete = self.rules.replace == "face-down"
        for _ in range(len(self.active)):
            if seat == self._ender:
                self._end_hole()
                return
            if not (skip_complete and self._up[seat] == self._t.full):
                self._current = seat
                self._phase = TURN
                return
            seat = self._next_seat(seat)
        self._end_hole()  # every player is complete and may not replace face-up cards

    def _end_turn(self, seat: int) -> None:
        self._turns[seat] += 1
        self._turn_count += 1
        if self._up[seat] == self._t.full:
            rule = self.rules.end_on_complete
            if rule == "first" and self._ender < 0:
                self._ender = seat  # recorded as went_out even when the hole ends at once
                if not self.rules.final_turns:
                    self._end_hole()
                    return
            elif rule == "all" and all(self._up[s] == self._t.full for s in self.active):
                self._end_hole()
                return
        self._begin_turn(self._next_seat(seat))

    def _end_hole(self) -> None:
        full = self._t.full
        scores: list[int | None] = [None] * self.players
        for s in self.active:
            self._up[s] = full
            scores[s] = self._scorer.total(tuple(c & 15 for c in self._grids[s]))
        went_out = self._ender if self._ender >= 0 and self._ender != self._knocker else None
        self.hole_results.append(HoleResult(
            self._hole_index + 1, self._playoff,
            tuple(tuple(g) for g in self._grids), tuple(scores),
            self._knocker if self._knocker >= 0 else None, went_out,
            self._discard[-1] if self._discard else None,
        ))
        self._held = -1
        self._legal = None
        if self._playoff:
            self.playoff_scores.append(scores)
            ranked = [s for s in self.active if scores[s] is not None]
            low = min(int(scores[s] or 0) for s in ranked)
            tied = tuple(s for s in ranked if scores[s] == low)
            self._finish_or_playoff(tied)
            return
        full_scores = [s if s is not None else 0 for s in scores]
        self.regular_scores.append(full_scores)
        for s in range(self.players):
            self.totals_[s] += full_scores[s]
        if self._match_done():
            low = min(self.totals_)
            self._finish_or_playoff(tuple(s for s in range(self.players) if self.totals_[s] == low))
        else:
            self._hole_index += 1
            self._start_hole(tuple(range(self.players)))

    def _match_done(self) -> bool:
        r = self.rules
        if r.holes and len(self.regular_scores) >= r.holes:
            return True
        if r.target:
            if r.target_ends == "reach":
                return max(self.totals_) >= r.target
            return max(self.totals_) > r.target
        return False

    def _finish_or_playoff(self, tied: tuple[int, ...]) -> None:
        if (len(tied) > 1 and self.rules.tie_break == "playoff"
                and len(self.playoff_scores) < MAX_PLAYOFFS):
            self._playoff = True
            self._hole_index += 1
            self._start_hole(tied)
            return
        self._winners = list(tied)
        self._phase = OVER

    # --- legal actions -----------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty once the match is over)."""
        return list(self._legal_tuple())

    def _legal_tuple(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        t, r, seat, phase = self._t, self.rules, self._current, self._phase
        down = t.full ^ self._up[seat]
        if phase == TURN:
            legal = (DRAW, TAKE)
            if r.knock and self._ender < 0 and (r.knock_first_turn or self._turns[seat]):
                legal += (KNOCK,)
            if r.flip_instead_of_draw:
                legal += t.flips[down]
        elif phase == HOLD:
            legal = t.swaps_all if r.replace == "any" else t.swaps_down[down]
            if self._held_from == FROM_STOCK or r.return_taken:
                legal += (DISCARD,)
        elif phase == FLIP:
            legal = t.flips[down]
            if r.flip_after_discard == "may":
                legal += (PASS,)
        elif phase == SETUP:
            free = t.full ^ self._chosen
            legal = t.reveals[free] if r.setup == "reveal" else t.peeks[free]
        else:
            legal = ()
        self._legal = legal
        return legal

    # --- applying actions --------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its notation) for the current player.

        Raises :class:`golf.IllegalAction` (state unchanged) if the rules forbid it now,
        or :class:`golf.NotationError` for text that is not an action.
        """
        if type(action) is not Action:
            action = self._coerce(action)
        legal = self._legal if self._legal is not None else self._legal_tuple()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action))
        self._step(action)

    push = apply

    def _coerce(self, action: object) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return Action.parse(action)
        if isinstance(action, int) and not isinstance(action, bool):
            try:
                return Action._cache[action]
            except KeyError:
                raise NotationError(f"{action} is not an action code") from None
        raise NotationError(f"an action is an Action or text like 'draw', not {action!r}")

    def _step(self, a: Action) -> None:
        """Apply a legal action (no checks: callers verified it)."""
        self.history.append(a)
        self._legal = None
        kind, cell = a >> 4, a & 15
        seat = self._current
        if kind == K_DRAW:
            if not self._stock:
                self._reshuffle()
            self._held = self._stock.pop()
            self._held_from = FROM_STOCK
            self._phase = HOLD
        elif kind == K_TAKE:
            self._held = self._discard.pop()
            self._held_from = FROM_DISCARD
            self._phase = HOLD
        elif kind == K_SWAP:
            grid = self._grids[seat]
            self._discard.append(grid[cell])
            grid[cell] = self._held
            self._held = -1
            self._up[seat] |= 1 << cell
            self._peeked[seat] &= ~(1 << cell)
            self._end_turn(seat)
        elif kind == K_DISCARD:
            self._discard.append(self._held)
            self._held = -1
            if self.rules.flip_after_discard != "never" and self._up[seat] != self._t.full:
                self._phase = FLIP
            else:
                self._end_turn(seat)
        elif kind == K_FLIP:
            self._up[seat] |= 1 << cell
            self._end_turn(seat)
        elif kind == K_PASS:
            self._end_turn(seat)
        elif kind == K_KNOCK:
            self._knocker = self._ender = seat
            if not self.rules.final_turns:
                self._turns[seat] += 1
                self._end_hole()
            else:
                self._end_turn(seat)
        else:  # setup: reveal or peek
            self._chosen |= 1 << cell
            if kind == K_REVEAL:
                self._up[seat] |= 1 << cell
            else:
                self._peeked[seat] |= 1 << cell
            self._setup_left -= 1
            if self._setup_left == 0:
                self._chosen = 0
                nxt = self._next_seat(seat)
                first = self._next_seat(self._dealer)
                if nxt == first:
                    self._begin_turn(first)
                else:
                    self._current = nxt
                    self._setup_left = self.rules.setup_count

    def _reshuffle(self) -> None:
        """Shuffle the discard pile, all but its top card, into a new stock."""
        self._reshuffles += 1
        top = self._discard.pop()
        stock = self._discard
        random.Random(f"{self.seed}/{self._hole_index}/{self._reshuffles}").shuffle(stock)
        self._stock = stock
        self._discard = [top]

    def _why_illegal(self, a: Action) -> str:
        """A message saying why ``a`` is not allowed now and what is."""
        legal = self._legal_tuple()
        allowed = ", ".join(str(x) for x in legal) if legal else "nothing (the match is over)"
        r, kind, cell = self.rules, a >> 4, a & 15
        phase = self._phase
        prefix = f"{a}: "
        if phase == OVER:
            return prefix + "the match is over"
        if a.cell is not None and cell >= r.cells:
            why = f"position {cell + 1} is off the grid, which has positions 1 to {r.cells}"
        elif phase == SETUP:
            if kind not in (K_REVEAL, K_PEEK):
                verb = "turn up" if r.setup == "reveal" else "look at"
                why = f"first each player must {verb} {r.setup_count} card(s) of their grid"
            elif (kind == K_REVEAL) != (r.setup == "reveal"):
                why = (f"this variant starts with '{r.setup} N', not '{a.kind}'")
            elif self._chosen >> cell & 1:
                why = f"you already chose position {cell + 1}"
            else:
                allowed_cells = ", ".join(str(i + 1) for i in r.setup_positions())
                why = f"only positions {allowed_cells} may be chosen"
        elif phase == TURN:
            if kind == K_KNOCK and not r.knock:
                why = "this variant has no knocking"
            elif kind == K_KNOCK and self._ender >= 0:
                why = "the round is already ending"
            elif kind == K_KNOCK:
                why = "you may not knock on your first turn"
            elif kind == K_FLIP and not r.flip_instead_of_draw:
                why = "you must first draw from the stock or take the discard"
            elif kind == K_FLIP:
                why = f"position {cell + 1} is already face up"
            else:
                why = "you must first draw from the stock or take the discard"
        elif phase == HOLD:
            if kind == K_DISCARD:
                why = "a card taken from the discard pile must be swapped into your grid"
            elif kind == K_SWAP:
                why = f"position {cell + 1} is face up and only face-down cards may be replaced"
            else:
                why = "you hold a card: swap it into your grid or discard it"
        elif phase == FLIP:
            if kind == K_FLIP:
                why = f"position {cell + 1} is already face up"
            elif kind == K_PASS:
                why = "after discarding you must turn one face-down card up"
            else:
                why = "you discarded: now flip a face-down card"
        else:  # pragma: no cover - every phase is handled above
            why = "not allowed now"
        return f"{prefix}{why}; legal now: {allowed}"

    # --- copies, records and views -----------------------------------------------
    def clone(self) -> Game:
        """An independent copy sharing only immutable data."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.players = self.players
        g._scorer = self._scorer
        g._t = self._t
        g._deck = self._deck
        g.active = self.active
        g.totals_ = self.totals_[:]
        g.regular_scores = self.regular_scores[:]
        g.playoff_scores = self.playoff_scores[:]
        g.hole_results = self.hole_results[:]
        g.history = self.history[:]
        g._winners = self._winners[:]
        g._hole_index = self._hole_index
        g._playoff = self._playoff
        g._dealer = self._dealer
        g._grids = [x[:] for x in self._grids]
        g._stock = self._stock[:]
        g._discard = self._discard[:]
        g._up = self._up[:]
        g._peeked = self._peeked[:]
        g._chosen = self._chosen
        g._held = self._held
        g._held_from = self._held_from
        g._turns = self._turns[:]
        g._turn_count = self._turn_count
        g._ender = self._ender
        g._knocker = self._knocker
        g._reshuffles = self._reshuffles
        g._legal = self._legal
        g._phase = self._phase
        g._current = self._current
        g._setup_left = self._setup_left
        g._origin = self._origin
        return g

    __copy__ = clone

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this game: rules, players, seed and actions (and,
        for a game set up by :meth:`from_position`, the position it began at)."""
        rec = {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "actions": [str(a) for a in self.history],
        }
        if self._origin is not None:
            rec["position"] = self._origin.position()
        return rec

    def position(self) -> dict[str, Any]:
        """The whole state, hidden cards included, as data (see :mod:`golf.position`).

        For dealers and searchers only: what a player may know is :meth:`view`.
        """
        from .position import position

        return position(self)

    @classmethod
    def from_position(
        cls,
        variant: str | Path | Rules,
        position: Mapping[str, Any],
        rules: Mapping[str, Any] | None = None,
    ) -> Game:
        """A game set up in a :meth:`position` (see :func:`golf.position.from_position`)."""
        from .position import from_position

        return from_position(variant, position, rules)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Game:
        """Replay a :meth:`record` exactly; a bad record raises a clear GolfError."""
        if not isinstance(record, Mapping):
            raise GolfError("a game record is an object with rules, players, seed and actions")
        missing = [k for k in ("rules", "players", "seed", "actions") if k not in record]
        if missing:
            raise GolfError(f"game record lacks {', '.join(missing)}")
        fmt = record.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise GolfError(f"game record format {fmt!r} is not supported (need {RECORD_FORMAT})")
        raw_rules = record["rules"]
        rules = load_rules(raw_rules) if isinstance(raw_rules, str) else rules_from_dict(raw_rules)
        if "position" in record:
            g = cls.from_position(rules, record["position"])
        else:
            g = cls(rules, players=record["players"], seed=record["seed"])
        actions = record["actions"]
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise GolfError("game record 'actions' must be a list of action notations")
        for i, a in enumerate(actions):
            try:
                g.apply(a)
            except GolfError as e:
                raise GolfError(f"game record action {i + 1} ({a!r}) cannot be played: {e}") \
                    from None
        return g

    def view(self, player: int, codes: bool = False) -> dict[str, Any]:
        """What ``player`` may know, as JSON-ready data (see :func:`golf.view.view`)."""
        return _view(self, player, codes=codes)

    def score_hole(self, seat: int, number: int | None = None) -> Score:
        """The explained score of ``seat``'s grid at the end of a finished hole."""
        if not self.hole_results:
            raise GolfError("no hole has finished yet")
        h = self.hole_results[-1 if number is None else number - 1]
        grid = h.grids[seat]
        if not grid:
            raise GolfError(f"seat {seat} was not dealt in hole {h.number}")
        return self._scorer.score(grid)

    def census(self) -> list[int]:
        """Every card of the game wherever it lies (for invariant checks)."""
        cards = [c for s in self.active for c in self._grids[s]]
        cards += self._stock + self._discard
        if self._held >= 0:
            cards.append(self._held)
        return cards

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} "
                f"hole={self.hole} phase={self.phase}>")

