"""The whole state of a match as public values: what :class:`golf.Game` plays on.

A :class:`MatchState` is the match (rules, seats, seed, scores, history) and holds the
:class:`HoleState` of the hole being played (cards, who is to act, in which phase).
Both are plain slotted values with a cheap ``copy()``; the engine reads and writes
them, everyone else reads them (``Game.state`` is read-only by convention: to play on
a changed state, build a new game over it with :meth:`golf.Game.from_state`).

Cards are card codes (see :mod:`golf.cards`), seats are 0-based ints, and a set of grid
cells is a bit mask: bit ``i`` stands for cell ``i`` (0-based, row by row; position
``i + 1`` in the notation). ``-1`` stands for "none" where an int field may be empty
(no card held, no knock), so the hot path moves only ints and lists of ints.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=7)
>>> g.apply("reveal 1"); g.apply("reveal 4")
>>> h = g.state.hole
>>> h.current, h.up[0], bin(h.up[0]), len(h.stock), h.held
(1, 9, '0b1001', 39, -1)
>>> copy = g.state.copy()
>>> g.apply("reveal 2")
>>> copy.hole.up[1], g.state.hole.up[1], copy.history == g.state.history[:2]
(0, 2, True)
>>> Game.from_state(copy).legal_actions() == Game.from_state(copy.copy()).legal_actions()
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import card_str
from .errors import GolfError
from .phases import FLIP, FROM_DISCARD, FROM_STOCK, HOLD, OVER, PHASES, SETUP, TURN

if TYPE_CHECKING:
    from .actions import Action
    from .rules import Rules

__all__ = ["NONE", "HoleResult", "HoleState", "MatchState", "cells_of", "check_state", "mask_of"]

#: The value of an int field that is empty: no card held, nobody knocked, ...
NONE = -1


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


class HoleState:
    """The hole being played: every card where it lies and whose turn it is.

    ``grids[s]``
        seat ``s``'s cards, cell 0 first (an empty list for a seat not dealt in).
    ``up[s]``, ``peeked[s]``
        bit masks of the cells of seat ``s`` that are face up, and that its owner
        looked at during setup (a peeked cell stays in ``peeked`` until it is
        replaced; a card both peeked and face up is simply face up).
    ``stock``, ``discard``
        the piles, top card last. The stock's order is secret; the discard pile is
        face up.
    ``held``, ``held_from``
        the card drawn or taken and not yet played (``-1``: none) and its pile
        (:data:`golf.phases.FROM_STOCK` or ``FROM_DISCARD``).
    ``phase``, ``current``
        a :mod:`golf.phases` number and the seat to act.
    ``chosen``, ``setup_left``
        during setup, the mask of cells the seat to act has chosen, and how many it
        still chooses.
    ``turns[s]``, ``turn_count``
        turns finished per seat and in all this hole (``turn_limit`` counts the latter).
    ``ender``, ``knocker``
        the seat whose going out or knock started the final turns, and the seat that
        knocked (``-1``: none; a knocker is also the ender).
    ``reshuffles``
        how often the discard pile became the stock this hole (each reshuffle
        draws from its own seeded generator).
    ``dealer``, ``active``
        the dealer's seat and the seats dealt in, ascending (a playoff deals in the
        tied seats only).
    """

    __slots__ = (
        "active", "chosen", "current", "dealer", "discard", "ender", "grids", "held",
        "held_from", "knocker", "peeked", "phase", "reshuffles", "setup_left", "stock",
        "turn_count", "turns", "up",
    )

    def __init__(
        self,
        active: tuple[int, ...],
        dealer: int,
        grids: list[list[int]],
        stock: list[int],
        discard: list[int],
        *,
        up: list[int] | None = None,
        peeked: list[int] | None = None,
        phase: int = SETUP,
        current: int = 0,
        held: int = NONE,
        held_from: int = FROM_STOCK,
        chosen: int = 0,
        setup_left: int = 0,
        turns: list[int] | None = None,
        turn_count: int = 0,
        ender: int = NONE,
        knocker: int = NONE,
        reshuffles: int = 0,
    ) -> None:
        n = len(grids)
        self.active = active
        self.dealer = dealer
        self.grids = grids
        self.stock = stock
        self.discard = discard
        self.up = [0] * n if up is None else up
        self.peeked = [0] * n if peeked is None else peeked
        self.phase = phase
        self.current = current
        self.held = held
        self.held_from = held_from
        self.chosen = chosen
        self.setup_left = setup_left
        self.turns = [0] * n if turns is None else turns
        self.turn_count = turn_count
        self.ender = ender
        self.knocker = knocker
        self.reshuffles = reshuffles

    def copy(self) -> HoleState:
        """An independent copy (lists copied, ints and the ``active`` tuple shared)."""
        c = HoleState.__new__(HoleState)
        c.active = self.active
        c.dealer = self.dealer
        c.grids = [g[:] for g in self.grids]
        c.stock = self.stock[:]
        c.discard = self.discard[:]
        c.up = self.up[:]
        c.peeked = self.peeked[:]
        c.phase = self.phase
        c.current = self.current
        c.held = self.held
        c.held_from = self.held_from
        c.chosen = self.chosen
        c.setup_left = self.setup_left
        c.turns = self.turns[:]
        c.turn_count = self.turn_count
        c.ender = self.ender
        c.knocker = self.knocker
        c.reshuffles = self.reshuffles
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HoleState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in HoleState.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<HoleState phase={PHASES[self.phase]} current={self.current} "
                f"stock={len(self.stock)} discard={len(self.discard)}>")


class MatchState:
    """A match: its rules and seats, what has been played and scored, and its hole.

    ``rules``, ``players``, ``seed``, ``deck``
        the settings, the seat count, the seed every deal and reshuffle derives from,
        and the game's cards in a fixed order (what every deal shuffles).
    ``totals``, ``hole_scores``, ``playoff_scores``
        the running totals of regular holes, each regular hole's scores per seat, and
        each playoff hole's (None for a seat not in the playoff).
    ``hole_results``, ``history``, ``winners``
        every finished hole, every action played (since ``origin``), and the winning
        seats once the match is over.
    ``hole_index``, ``playoff``
        the 0-based number of the hole being played (playoff holes count on), and
        whether it is a playoff hole.
    ``hole``
        the :class:`HoleState` of the hole being played (the last one once the match is
        over).
    ``origin``
        for a match set up from a position, the state it began at (never played on):
        its record replays from there.
    """

    __slots__ = (
        "deck", "history", "hole", "hole_index", "hole_results", "hole_scores", "origin",
        "players", "playoff", "playoff_scores", "rules", "seed", "totals", "winners",
    )

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        deck: tuple[int, ...],
        hole: HoleState,
        *,
        totals: list[int] | None = None,
        hole_scores: list[list[int]] | None = None,
        playoff_scores: list[list[int | None]] | None = None,
        hole_results: list[HoleResult] | None = None,
        history: list[Action] | None = None,
        winners: list[int] | None = None,
        hole_index: int = 0,
        playoff: bool = False,
        origin: MatchState | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self.deck = deck
        self.hole = hole
        self.totals = [0] * players if totals is None else totals
        self.hole_scores = [] if hole_scores is None else hole_scores
        self.playoff_scores = [] if playoff_scores is None else playoff_scores
        self.hole_results = [] if hole_results is None else hole_results
        self.history = [] if history is None else history
        self.winners = [] if winners is None else winners
        self.hole_index = hole_index
        self.playoff = playoff
        self.origin = origin

    def copy(self) -> MatchState:
        """An independent copy; rules, deck, finished holes' scores and results and the
        origin are immutable by convention and shared."""
        c = MatchState.__new__(MatchState)
        c.rules = self.rules
        c.players = self.players
        c.seed = self.seed
        c.deck = self.deck
        c.hole = self.hole.copy()
        c.totals = self.totals[:]
        c.hole_scores = self.hole_scores[:]
        c.playoff_scores = self.playoff_scores[:]
        c.hole_results = self.hole_results[:]
        c.history = self.history[:]
        c.winners = self.winners[:]
        c.hole_index = self.hole_index
        c.playoff = self.playoff
        c.origin = self.origin
        return c

    def census(self) -> list[int]:
        """Every card of the hole wherever it lies: grids in play, stock, discard, held."""
        h = self.hole
        cards = [c for s in h.active for c in h.grids[s]]
        cards += h.stock
        cards += h.discard
        if h.held >= 0:
            cards.append(h.held)
        return cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in MatchState.__slots__
                   if k != "origin")

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<MatchState {self.rules.name} players={self.players} seed={self.seed} "
                f"hole={self.hole_index + 1} {self.hole!r}>")


def mask_of(cells: list[int] | tuple[int, ...]) -> int:
    """The bit mask of 0-based ``cells``.

    >>> mask_of([0, 3]), cells_of(9)
    (9, (0, 3))
    """
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_of(mask: int) -> tuple[int, ...]:
    """The 0-based cells of a bit mask, ascending."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return tuple(out)


def check_state(state: MatchState) -> None:
    """Raise :class:`golf.GolfError` if the rules cannot reach ``state``; say why.

    Checks that the cards are exactly the game's deck, that the phase, the held card
    and the seat to act agree, and that the seat to act has something to do.
    """
    why = _unreachable(state)
    if why:
        raise GolfError(why)


def _unreachable(st: MatchState) -> str | None:
    r, n, h = st.rules, st.players, st.hole
    full = (1 << r.cells) - 1
    if len(h.grids) != n or any(len(g) != (r.cells if s in h.active else 0)
                                for s, g in enumerate(h.grids)):
        return f"state needs a grid of {r.cells} cards per seat in play and none for others"
    want, have = Counter(st.deck), Counter(st.census())
    if want != have:
        extra = ", ".join(card_str(c) for c in sorted((have - want).elements()))
        lack = ", ".join(card_str(c) for c in sorted((want - have).elements()))
        return ("state's cards are not the game's deck: "
                f"extra [{extra or 'none'}], missing [{lack or 'none'}]")
    phase, cur = h.phase, h.current
    if (h.held >= 0) != (phase == HOLD):
        return "a card is held exactly in the 'hold' phase"
    if phase == OVER:
        return None if st.winners else "a finished match needs its winners"
    if st.winners:
        return "a match still being played has no winners yet"
    if cur not in h.active:
        return f"seat {cur} is to act but is not in play"
    if not h.discard and not (phase == HOLD and h.held_from == FROM_DISCARD):
        return "the discard pile may be empty only while its only card is held"
    if any(h.peeked) and r.setup != "peek":
        return f"nobody peeks in {r.name} (its setup is '{r.setup}')"
    if phase == SETUP:
        if not r.setup_count:
            return f"{r.name} has no setup phase"
        if not 0 < h.setup_left <= r.setup_count or \
                bin(h.chosen).count("1") != r.setup_count - h.setup_left:
            return f"a seat in setup has chosen fewer than {r.setup_count} cards"
        if h.chosen & ~mask_of(list(r.setup_positions())):
            return "a seat in setup chose a position the rules do not allow"
        return None
    if phase == FLIP and r.flip_after_discard == "never":
        return f"{r.name} has no flip after discarding, so no 'flip' phase"
    if phase == FLIP and h.up[cur] == full:
        return "a seat with every card face up has nothing to flip"
    if r.replace == "face-down" and h.up[cur] == full:
        return (f"seat {cur} has every card face up and may not replace face-up cards "
                f"in {r.name}, so it cannot be its turn")
    if h.knocker >= 0 and (not r.knock or h.ender != h.knocker):
        return "a knock needs a variant with knocking and starts the final turns"
    if h.ender >= 0 and h.ender != h.knocker and (
            r.end_on_complete != "first" or h.up[h.ender] != full or not r.final_turns):
        return f"seat {h.ender} cannot have started the final turns"
    if cur == h.ender:
        return f"seat {cur} started the final turns, so the hole ends before its turn"
    if r.end_on_complete == "first" and h.ender < 0 and any(
            h.up[s] == full for s in h.active):
        return "a seat with every card face up would have started the final turns"
    if phase == TURN and (h.turn_count >= r.turn_limit
                          or not (h.stock or (r.reshuffle and len(h.discard) > 1))):
        return "the hole is over: no turns or no cards left to draw"
    return None
