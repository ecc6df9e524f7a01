"""The game: the rules of Golf applied to a :class:`~golf.state.MatchState`.

The engine is deterministic: a match is fixed by its rules, player count, seed and
action list. Every deal and reshuffle draws from a generator seeded by
``(seed, hole, reshuffle)``, so a state needs no random state of its own and a copy of
it plays on exactly like the original.

>>> g = Game("six-card", players=2, seed=7)
>>> g.phase, g.current_player, [str(a) for a in g.legal_actions()][:3]
('setup', 0, ['reveal 1', 'reveal 2', 'reveal 3'])
>>> g.apply("reveal 1"); g.apply("reveal 4"); g.apply("reveal 2"); g.apply("reveal 5")
>>> g.phase, [str(a) for a in g.legal_actions()]
('turn', ['draw', 'take'])
>>> g.step("take").kinds()
('draw',)
>>> g.apply("draw")
Traceback (most recent call last):
...
golf.errors.IllegalAction: draw: you hold a card: swap it into your grid or discard it; ...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .actions import (
    CELL_MASK,
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
    KIND_SHIFT,
    KNOCK,
    MAX_POSITION,
    PASS,
    TAKE,
    Action,
)
from .cards import RANK_MASK
from .errors import GolfError, IllegalAction, NotationError
from .events import (
    DISCARDED,
    DREW,
    FINAL_TURNS,
    FLIPPED,
    HOLE_ENDED,
    HOLE_STARTED,
    KNOCKED,
    MATCH_ENDED,
    PASSED,
    PEEKED,
    PLAYOFF,
    RESHUFFLED,
    REVEALED,
    SWAPPED,
    Event,
    Fact,
)
from .phases import FLIP, FROM_DISCARD, FROM_STOCK, HOLD, OVER, PHASES, SETUP, TURN
from .position import position as _position
from .position import state_from_position
from .rules import Rules, load_rules, rules_from_dict
from .scoring import Score, Scorer, scorer
from .state import HoleResult, HoleState, MatchState, check_state, mask_of
from .view import view as _view

if TYPE_CHECKING:
    from .types import PositionDict, RecordDict, ViewDict

__all__ = ["FLIP", "FROM_DISCARD", "FROM_STOCK", "HOLD", "OVER", "PHASES", "SETUP", "TURN",
           "Game", "HoleResult"]
RECORD_FORMAT = "golf-record/1"
MAX_PLAYOFFS = 20


class _Tables:
    """What the engine derives from one Rules, built once and kept on it: the legal
    actions per phase and face-down mask, the rule flags the hot path reads, the seat
    order per set of seats dealt in."""

    __slots__ = ("end_on_complete", "final_turns", "flip_after", "flip_after_discard",
                 "flips", "full", "hold_discard", "hold_stock", "knock", "nexts", "reshuffle",
                 "setup", "skip_complete", "turn", "turn_limit")

    def __init__(self, rules: Rules) -> None:
        n = rules.cells
        self.full = full = (1 << n) - 1
        size = 1 << n
        allowed = rules.setup_positions()

        def acts(kind: int, mask: int, cells: Iterable[int] = range(n)) -> tuple[Action, ...]:
            return tuple(Action.of(kind, i) for i in cells if mask >> i & 1)

        # Indexed by the mask of cells still face down (or, for setup, not yet chosen).
        flips = [acts(K_FLIP, m) for m in range(size)]
        self.flips = flips
        # Legal actions per phase, looked up rather than built: in "turn", the knock is
        # added at play time (it depends on turns taken); "hold" depends on the pile the
        # card came from.
        self.turn = [(DRAW, TAKE, *(flips[m] if rules.flip_instead_of_draw else ()))
                     for m in range(size)]
        swaps = ([acts(K_SWAP, full)] * size if rules.replace == "any"
                 else [acts(K_SWAP, m) for m in range(size)])
        self.hold_stock = [(*sw, DISCARD) for sw in swaps]
        self.hold_discard = [(*sw, DISCARD) if rules.return_taken else sw for sw in swaps]
        self.flip_after = [(*f, PASS) if rules.flip_after_discard == "may" else f
                           for f in flips]
        kind = K_REVEAL if rules.setup == "reveal" else K_PEEK
        self.setup = [acts(kind, m, allowed) for m in range(size)]
        self.knock = rules.knock
        self.flip_after_discard = rules.flip_after_discard != "never"
        self.skip_complete = rules.replace == "face-down"
        self.turn_limit = rules.turn_limit
        self.reshuffle = rules.reshuffle
        self.final_turns = rules.final_turns
        self.end_on_complete = rules.end_on_complete
        self.nexts: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}

    def next_seats(self, players: int, active: tuple[int, ...]) -> tuple[int, ...]:
        """For each seat, the next seat in play after it (clockwise)."""
        key = (players, active)
        nxt = self.nexts.get(key)
        if nxt is None:
            nxt = self.nexts[key] = tuple(_next_seat(active, players, s)
                                          for s in range(players))
        return nxt


_SHARED: dict[tuple[Any, ...], _Tables] = {}


def _shared_tables(rules: Rules) -> _Tables:
    """The tables of every Rules with the same settings that shape them: a Rules built
    anew for each game (a preset with overrides) does not rebuild them."""
    key = (rules.cells, rules.setup_positions(), rules.flip_instead_of_draw, rules.replace,
           rules.return_taken, rules.flip_after_discard, rules.setup, rules.knock,
           rules.turn_limit, rules.reshuffle, rules.final_turns, rules.end_on_complete)
    t = _SHARED.get(key)
    if t is None:
        t = _SHARED[key] = _Tables(rules)
    return t


def _tables(rules: Rules) -> _Tables:
    return rules.cached("_engine_tables", _shared_tables)


_BIT_LENGTHS = tuple(n.bit_length() for n in range(1024))


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """``random.shuffle`` exactly (same draws, same result), without its per-card calls."""
    bits = rng.getrandbits
    lengths = _BIT_LENGTHS if len(cards) < len(_BIT_LENGTHS) else \
        tuple(n.bit_length() for n in range(len(cards) + 1))
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = lengths[n]
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _next_seat(active: tuple[int, ...], players: int, seat: int) -> int:
    s = (seat + 1) % players
    while s not in active:
        s = (s + 1) % players
    return s


class Game:
    """A match of Golf. See the module docs and ``docs/notation.md``.

    ``variant`` is a preset name, a path to a TOML rules file or a :class:`Rules`;
    ``rules`` overrides settings on top of it.

    The whole match is :attr:`state` (a :class:`~golf.state.MatchState`), public and
    read-only by convention: the game changes it only through :meth:`apply`. To play
    on a state you built or changed, make a game over it with :meth:`from_state`.
    """

    __slots__ = ("_ended_at", "_legal", "_next", "_notes", "_scorer", "_t", "state")

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        r = load_rules(variant, rules)
        r.check_players(players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise GolfError(f"seed must be a non-negative integer, got {seed!r}")
        t = self._t = _tables(r)
        self._scorer: Scorer = scorer(r)
        self._legal: tuple[Action, ...] | None = None
        self._notes: list[Fact] = []
        self._ended_at = -1
        deck = r.deck(players)
        active = tuple(range(players))
        self.state = MatchState(r, players, seed, deck, self._deal(r, players, seed, 0, deck,
                                                                    active))
        self._next = t.next_seats(players, active)
        if not r.setup_count:
            self._begin_turn(self.state.hole, self.state.hole.current)
        self._notes.clear()

    @classmethod
    def from_state(cls, state: MatchState, validate: bool = False) -> Game:
        """A game that plays on ``state`` (which it then owns: pass a copy to keep one).

        As cheap as :meth:`clone`: the state is trusted. With ``validate``, a state the
        rules cannot reach (wrong cards, a seat to act that has nothing to do, a phase
        the variant lacks, ...) raises :class:`golf.GolfError` saying what is wrong.

        >>> g = Game("six-card", players=2, seed=3)
        >>> s = g.state.copy()
        >>> s.hole.stock[-1], s.hole.grids[1][0] = s.hole.grids[1][0], s.hole.stock[-1]
        >>> rigged = Game.from_state(s, validate=True)
        >>> rigged.view(0) == g.view(0), rigged.census() == g.census()
        (True, False)
        >>> broken = g.state.copy()
        >>> broken.hole.stock.pop()
        13
        >>> Game.from_state(broken, validate=True)
        Traceback (most recent call last):
        ...
        golf.errors.GolfError: state's cards are not the game's deck: extra [none], missing [KS]
        """
        if validate:
            check_state(state)
        g = cls.__new__(cls)
        rules = state.rules
        t = g._t = rules.cached("_engine_tables", _shared_tables)
        g._scorer = rules.cached("_scorer", Scorer)
        g._next = t.next_seats(state.players, state.hole.active)
        g._legal = None
        g._notes = []
        g._ended_at = -1
        g.state = state
        return g

    # --- public state ------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def history(self) -> list[Action]:
        """Every action played (since the position a game set up from one began at)."""
        return self.state.history

    @property
    def hole_results(self) -> list[HoleResult]:
        return self.state.hole_results

    @property
    def active(self) -> tuple[int, ...]:
        """The seats dealt into the hole being played (a playoff deals in the tied ones)."""
        return self.state.hole.active

    @property
    def regular_scores(self) -> list[list[int]]:
        return self.state.hole_scores

    @property
    def playoff_scores(self) -> list[list[int | None]]:
        return self.state.playoff_scores

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the match is over."""
        h = self.state.hole
        return None if h.phase == OVER else h.current

    @property
    def phase(self) -> str:
        """``setup``, ``turn`` (draw, take, knock or flip), ``hold`` (swap or discard the
        held card), ``flip`` (flip after discarding) or ``over``."""
        return PHASES[self.state.hole.phase]

    @property
    def is_over(self) -> bool:
        return self.state.hole.phase == OVER

    @property
    def hole(self) -> int:
        """The number of the hole being played (1-based; playoff holes count on)."""
        return self.state.hole_index + 1

    @property
    def ended_hole(self) -> bool:
        """Whether the last action played ended a hole (a playoff hole too; the last
        of the match too): the one way to ask. Its result is ``hole_results[-1]``; the
        action's :class:`~golf.events.Event` says the same (``Event.ended_hole``).

        >>> g = Game("six-card", players=2, seed=7, rules={"holes": 1})
        >>> while not g.ended_hole:
        ...     g.apply(g.legal_actions()[0])
        >>> g.is_over, g.hole_results[-1].number
        (True, 1)
        """
        return self._ended_at == len(self.state.history)

    @property
    def is_playoff(self) -> bool:
        return self.state.playoff

    @property
    def dealer(self) -> int:
        return self.state.hole.dealer

    @property
    def hole_scores(self) -> list[list[int]]:
        """Each finished regular hole's score per seat."""
        return [list(s) for s in self.state.hole_scores]

    @property
    def totals(self) -> list[int]:
        return list(self.state.totals)

    @property
    def winners(self) -> list[int]:
        """The seats that won the match (empty until it is over; several on a shared win)."""
        return list(self.state.winners)

    @property
    def hole_winners(self) -> list[list[int]]:
        """For each finished hole (playoffs included), the seats with its lowest score."""
        out = []
        for h in self.state.hole_results:
            scores = [s for s in h.scores if s is not None]
            low = min(scores)
            out.append([i for i, s in enumerate(h.scores) if s == low])
        return out

    @property
    def stock_size(self) -> int:
        return len(self.state.hole.stock)

    def face_up(self, seat: int) -> list[bool]:
        up = self.state.hole.up[seat]
        return [bool(up >> i & 1) for i in range(self.rules.cells)]

    # --- hole lifecycle ----------------------------------------------------------
    def _deal(self, r: Rules, n: int, seed: int, hole_index: int, deck: tuple[int, ...],
              active: tuple[int, ...]) -> HoleState:
        """A freshly dealt hole: setup under way, or the first seat to take a turn."""
        dealer = (hole_index - 1) % n
        first = _next_seat(active, n, dealer)
        cards = list(deck)
        _shuffle(cards, random.Random(f"{seed}/{hole_index}/0"))
        cells = r.cells
        grids: list[list[int]] = [[] for _ in range(n)]
        for k, seat in enumerate(active):
            grids[seat] = cards[k * cells:(k + 1) * cells]
        stock = cards[len(active) * cells:]
        discard = [stock.pop()]
        return HoleState(active, dealer, grids, stock, discard, phase=SETUP, current=first,
                         setup_left=r.setup_count)

    def _start_hole(self, active: tuple[int, ...]) -> None:
        st = self.state
        r = st.rules
        h = st.hole = self._deal(r, st.players, st.seed, st.hole_index, st.deck, active)
        self._next = self._t.next_seats(st.players, active)
        self._notes.append((HOLE_STARTED, st.hole_index + 1, h.dealer, h.discard[-1]))
        if not r.setup_count:
            self._begin_turn(h, h.current)

    def _begin_turn(self, h: HoleState, seat: int) -> None:
        """Give ``seat`` the turn, skipping players with nothing to do, or end the hole."""
        t = self._t
        if h.turn_count >= t.turn_limit or not (h.stock or (t.reshuffle and len(h.discard) > 1)):
            self._end_hole()
            return
        if not t.skip_complete and seat != h.ender:  # the common case: no one to skip
            h.current = seat
            h.phase = TURN
            return
        full, up, nxt = t.full, h.up, self._next
        for _ in range(len(h.active)):
            if seat == h.ender:
                self._end_hole()
                return
            if not (t.skip_complete and up[seat] == full):
                h.current = seat
                h.phase = TURN
                return
            seat = nxt[seat]
        self._end_hole()  # every player is complete and may not replace face-up cards

    def _final_turns(self, h: HoleState, ender: int) -> None:
        """Note that the final turns began: every other seat with something to do plays once."""
        t = self._t
        seats = [s for s in h.active if s != ender
                 and not (t.skip_complete and h.up[s] == t.full)]
        self._notes.append((FINAL_TURNS, ender, mask_of(seats)))

    def _end_turn(self, h: HoleState, seat: int) -> None:
        h.turns[seat] += 1
        h.turn_count += 1
        t = self._t
        if h.up[seat] == t.full:
            rule = t.end_on_complete
            if rule == "first" and h.ender < 0:
                h.ender = seat  # recorded as went_out even when the hole ends at once
                if not t.final_turns:
                    self._end_hole()
                    return
                self._final_turns(h, seat)
            elif rule == "all" and all(h.up[s] == t.full for s in h.active):
                self._end_hole()
                return
        seat = self._next[seat]
        # _begin_turn's common case, inline: cards to draw, turns left, no one to skip.
        if (not t.skip_complete and seat != h.ender and h.turn_count < t.turn_limit
                and (h.stock or (t.reshuffle and len(h.discard) > 1))):
            h.current = seat
            h.phase = TURN
            if not t.knock:  # else _legal_tuple works out whether this seat may knock
                self._legal = t.turn[t.full ^ h.up[seat]]
            return
        self._begin_turn(h, seat)

    def _end_hole(self) -> None:
        st = self.state
        h = st.hole
        full = self._t.full
        total = self._scorer.total
        scores: list[int | None] = [None] * st.players
        for s in h.active:
            h.up[s] = full
            scores[s] = total(tuple(c & RANK_MASK for c in h.grids[s]))
        went_out = h.ender if h.ender >= 0 and h.ender != h.knocker else None
        # Finished holes' lists are replaced, never changed in place, so that state
        # copies may share them (see MatchState).
        st.hole_results = [*st.hole_results, HoleResult(
            st.hole_index + 1, st.playoff,
            tuple(tuple(g) for g in h.grids), tuple(scores),
            h.knocker if h.knocker >= 0 else None, went_out,
            h.discard[-1] if h.discard else None,
        )]
        self._notes.append((HOLE_ENDED, st.hole_index + 1, int(st.playoff),
                            len(st.hole_results) - 1))
        self._ended_at = len(st.history)  # the action just appended ended it
        h.held = -1
        self._legal = None
        if st.playoff:
            st.playoff_scores = [*st.playoff_scores, scores]
            ranked = [s for s in h.active if scores[s] is not None]
            low = min(int(scores[s] or 0) for s in ranked)
            self._finish_or_playoff(tuple(s for s in ranked if scores[s] == low))
            return
        full_scores = [s if s is not None else 0 for s in scores]
        st.hole_scores = [*st.hole_scores, full_scores]
        for s in range(st.players):
            st.totals[s] += full_scores[s]
        if self._match_done():
            low = min(st.totals)
            self._finish_or_playoff(tuple(s for s in range(st.players) if st.totals[s] == low))
        else:
            st.hole_index += 1
            self._start_hole(tuple(range(st.players)))

    def _match_done(self) -> bool:
        st = self.state
        r = st.rules
        if r.holes and len(st.hole_scores) >= r.holes:
            return True
        if r.target:
            if r.target_ends == "reach":
                return max(st.totals) >= r.target
            return max(st.totals) > r.target
        return False

    def _finish_or_playoff(self, tied: tuple[int, ...]) -> None:
        st = self.state
        if (len(tied) > 1 and st.rules.tie_break == "playoff"
                and len(st.playoff_scores) < MAX_PLAYOFFS):
            st.playoff = True
            st.hole_index += 1
            self._notes.append((PLAYOFF, st.hole_index + 1, mask_of(tied)))
            self._start_hole(tied)
            return
        st.winners = list(tied)
        st.hole.phase = OVER
        self._notes.append((MATCH_ENDED, mask_of(tied)))

    # --- legal actions -----------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty once the match is over)."""
        legal = self._legal
        return list(legal if legal is not None else self._legal_tuple())

    def _legal_tuple(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        h = self.state.hole
        t, seat, phase = self._t, h.current, h.phase
        down = t.full ^ h.up[seat]
        if phase == TURN:
            legal = t.turn[down]
            if t.knock and h.ender < 0 and (self.state.rules.knock_first_turn or h.turns[seat]):
                legal = (*legal[:2], KNOCK, *legal[2:])
        elif phase == HOLD:
            legal = (t.hold_stock if h.held_from == FROM_STOCK else t.hold_discard)[down]
        elif phase == FLIP:
            legal = t.flip_after[down]
        elif phase == SETUP:
            legal = t.setup[t.full ^ h.chosen]
        else:
            legal = ()
        self._legal = legal
        return legal

    # --- applying actions --------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an Action or its notation) for the current player.

        Raises :class:`golf.IllegalAction` (state unchanged) if the rules forbid it now,
        or :class:`golf.NotationError` for text that is not an action. :meth:`step` does
        the same and returns what happened.
        """
        if type(action) is not Action:
            action = self._coerce(action)
        legal = self._legal
        if legal is None:
            legal = self._legal_tuple()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action))
        self._step(action)

    push = apply

    def step(self, action: Action | str) -> Event:
        """:meth:`apply` ``action`` and return the :class:`~golf.events.Event` saying
        what happened (render it per seat with :func:`golf.events.render` or
        :meth:`~golf.events.Event.to_dict`)."""
        if type(action) is not Action:
            action = self._coerce(action)
        legal = self._legal
        if legal is None:
            legal = self._legal_tuple()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action))
        seat = self.state.hole.current
        facts = self._step(action)
        return Event(seat, action, facts, self.state.hole_results[-1] if self.ended_hole else None)

    def _coerce(self, action: object) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            try:
                return Action.parse(action)
            except NotationError as e:
                # The notation has room for 16 positions; say this grid's range.
                cells = self.rules.cells
                raise NotationError(str(e).replace(f"1 to {MAX_POSITION}", f"1 to {cells}")
                                    .replace(f"1 and {MAX_POSITION}", f"1 and {cells}")) from None
        if isinstance(action, int) and not isinstance(action, bool):
            try:
                return Action._cache[action]
            except KeyError:
                raise NotationError(f"{action} is not an action code") from None
        raise NotationError(f"an action is an Action or text like 'draw', not {action!r}")

    def _step(self, a: Action) -> tuple[Fact, ...]:
        """Apply a legal action (no checks: callers verified it) and return its facts."""
        st = self.state
        h = st.hole
        st.history.append(a)
        self._legal = None
        kind, cell = a >> KIND_SHIFT, a & CELL_MASK
        seat = h.current
        if kind in (K_DRAW, K_TAKE):
            shuffled = kind == K_DRAW and not h.stock
            if shuffled:
                self._reshuffle()
                h = st.hole
            t = self._t
            # The next legal actions are known here: set them, saving the lookup.
            if kind == K_DRAW:
                card = h.held = h.stock.pop()
                h.held_from = pile = FROM_STOCK
                self._legal = t.hold_stock[t.full ^ h.up[seat]]
            else:
                card = h.held = h.discard.pop()
                h.held_from = pile = FROM_DISCARD
                self._legal = t.hold_discard[t.full ^ h.up[seat]]
            h.phase = HOLD
            drew: Fact = (DREW, seat, pile, card)  # the pile: 0 stock, 1 discard
            if shuffled:
                return ((RESHUFFLED, len(h.stock) + 1, h.reshuffles), drew)
            return (drew,)
        if kind == K_SWAP:
            grid = h.grids[seat]
            out = grid[cell]
            card = grid[cell] = h.held
            h.discard.append(out)
            h.held = -1
            h.up[seat] |= 1 << cell
            h.peeked[seat] &= ~(1 << cell)
            fact: Fact = (SWAPPED, seat, cell, card, out)
            self._end_turn(h, seat)
        elif kind == K_DISCARD:
            card = h.held
            h.discard.append(card)
            h.held = -1
            fact = (DISCARDED, seat, card)
            t = self._t
            if t.flip_after_discard and h.up[seat] != t.full:
                h.phase = FLIP
                self._legal = t.flip_after[t.full ^ h.up[seat]]
                return (fact,)
            self._end_turn(h, seat)
        elif kind == K_FLIP:
            h.up[seat] |= 1 << cell
            fact = (FLIPPED, seat, cell, h.grids[seat][cell])
            self._end_turn(h, seat)
        elif kind == K_PASS:
            fact = (PASSED, seat)
            self._end_turn(h, seat)
        elif kind == K_KNOCK:
            h.knocker = h.ender = seat
            fact = (KNOCKED, seat)
            if not self._t.final_turns:
                h.turns[seat] += 1
                self._end_hole()
            else:
                self._final_turns(h, seat)
                self._end_turn(h, seat)
        else:  # setup: reveal or peek
            h.chosen |= 1 << cell
            if kind == K_REVEAL:
                h.up[seat] |= 1 << cell
                fact = (REVEALED, seat, cell, h.grids[seat][cell])
            else:
                h.peeked[seat] |= 1 << cell
                fact = (PEEKED, seat, cell)
            h.setup_left -= 1
            if h.setup_left == 0:
                h.chosen = 0
                nxt = self._next[seat]
                first = self._next[h.dealer]
                if nxt == first:
                    self._begin_turn(h, first)
                else:
                    h.current = nxt
                    h.setup_left = st.rules.setup_count
        notes = self._notes
        if notes:
            facts = (fact, *notes)
            notes.clear()
            return facts
        return (fact,)

    def _reshuffle(self) -> None:
        """Shuffle the discard pile, all but its top card, into a new stock."""
        st = self.state
        h = st.hole
        h.reshuffles += 1
        top = h.discard.pop()
        stock = h.discard
        _shuffle(stock, random.Random(f"{st.seed}/{st.hole_index}/{h.reshuffles}"))
        h.stock = stock
        h.discard = [top]

    def _why_illegal(self, a: Action) -> str:
        """A message saying why ``a`` is not allowed now and what is."""
        legal = self._legal_tuple()
        allowed = ", ".join(str(x) for x in legal) if legal else "nothing (the match is over)"
        r, kind, cell = self.rules, a >> KIND_SHIFT, a & CELL_MASK
        h = self.state.hole
        phase = h.phase
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
            elif h.chosen >> cell & 1:
                why = f"you already chose position {cell + 1}"
            else:
                allowed_cells = ", ".join(str(i + 1) for i in r.setup_positions())
                why = f"only positions {allowed_cells} may be chosen"
        elif phase == TURN:
            if kind == K_KNOCK and not r.knock:
                why = "this variant has no knocking"
            elif kind == K_KNOCK and h.ender >= 0:
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
        g._t = self._t
        g._scorer = self._scorer
        g._legal = self._legal
        g._next = self._next
        g._notes = []
        g._ended_at = self._ended_at
        g.state = self.state.copy()
        return g

    __copy__ = clone

    def record(self) -> RecordDict:
        """Everything needed to replay this game: rules, players, seed and actions (and,
        for a game set up by :meth:`from_position`, the position it began at)."""
        st = self.state
        rec: RecordDict = {
            "format": RECORD_FORMAT,
            "rules": st.rules.to_dict(),
            "players": st.players,
            "seed": st.seed,
            "actions": [str(a) for a in st.history],
        }
        if st.origin is not None:
            rec["position"] = _position(st.origin)
        return rec

    def position(self) -> PositionDict:
        """The whole state, hidden cards included, as data (see :mod:`golf.position`).

        For dealers and searchers only: what a player may know is :meth:`view`.
        """
        return _position(self.state)

    @classmethod
    def from_position(
        cls,
        variant: str | Path | Rules,
        position: Mapping[str, Any],
        rules: Mapping[str, Any] | None = None,
    ) -> Game:
        """A game set up in a :meth:`position`, which must be a state the rules can reach
        (see :func:`golf.position.state_from_position`)."""
        return cls.from_state(state_from_position(variant, position, rules))

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
        g.replay(record["actions"])
        return g

    def replay(self, actions: object, play: Callable[[Any], object] | None = None) -> None:
        """Play a record's ``actions`` in order: the one replay loop of a record.

        ``play`` plays one action on this game (default :meth:`apply`; a table's
        :meth:`~golf.table.Table.replay` shows its bots each decision first). Something
        not a list, or an action that cannot be played, raises :class:`golf.GolfError`
        naming it (the actions before it stay played).

        >>> g = Game("six-card", players=2, seed=1)
        >>> g.replay(["reveal 1", "reveal 1"])
        Traceback (most recent call last):
        ...
        golf.errors.GolfError: game record action 2 ('reveal 1') cannot be played: ...
        """
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise GolfError("game record 'actions' must be a list of action notations")
        step = self.apply if play is None else play
        for i, a in enumerate(actions):
            try:
                step(a)
            except GolfError as e:
                raise GolfError(f"game record action {i + 1} ({a!r}) cannot be played: {e}") \
                    from None

    def view(self, player: int | None, codes: bool = False) -> ViewDict:
        """What ``player`` may know, as JSON-ready data (see :func:`golf.view.view`);
        ``None`` gives the public view, what every seat knows."""
        return _view(self, player, codes=codes)

    def public_view(self, codes: bool = False) -> ViewDict:
        """What every seat knows, for spectators: no seat's secrets (``view(None)``).

        >>> g = Game("german", players=2, seed=1)
        >>> g.apply("peek 4")
        >>> v = g.public_view()
        >>> v["seat"], v["grids"][0][3], v["peeked_cells"][0], v["legal_actions"]
        (None, None, [4], [])
        """
        return _view(self, None, codes=codes)

    def score_hole(self, seat: int, number: int | None = None) -> Score:
        """The explained score of ``seat``'s grid at the end of a finished hole."""
        results = self.state.hole_results
        if not results:
            raise GolfError("no hole has finished yet")
        h = results[-1 if number is None else number - 1]
        grid = h.grids[seat]
        if not grid:
            raise GolfError(f"seat {seat} was not dealt in hole {h.number}")
        return self._scorer.score(grid)

    def census(self) -> list[int]:
        """Every card of the game wherever it lies (for invariant checks)."""
        return self.state.census()

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} "
                f"hole={self.hole} phase={self.phase}>")
