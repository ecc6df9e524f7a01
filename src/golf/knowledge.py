"""What a seat knows about the cards, from its view alone, and worlds consistent with it.

This is the one definition of card knowledge: bots count cards with it, learners
encode it, searchers sample worlds from it. It reads nothing but a seat's view
(:func:`golf.view.view` with card codes) and the rules (for the deck).

A seat has **seen** every card in its view: face-up cards, its own peeked cards, the
discard pile, a card it holds, and, once the stock has been reshuffled this hole,
the stock's cards (everyone saw them on the discard pile; the view lists them in
``stock_cards``). The places whose card the seat does not know are its **slots**:
the stock (its order is never shown), every face-down cell it has not peeked at
(other players' peeked cells too: everyone sees where they looked, not what), and a
card another player holds after drawing from the stock. The slots split into
**groups** whose cards are known as a multiset: before a reshuffle one group holds
every slot and every card the seat has not seen; after one the stock's slots (with a
card held from it) take exactly the public ``stock_cards`` and the face-down cells
take the rest.

A **world** gives every slot a card. Given uniform shuffles, every world consistent
with the view is equally likely, which is a uniform permutation of each group's
cards over its slots; :class:`Sampler` draws them exactly. (Other players' choices may
say something about their cards, say which cells they keep face down after peeking;
that is inference about a strategy, not a fact of the view, and is left to bots.)

>>> from golf import Game, load_rules
>>> g = Game("six-card", players=2, seed=5)
>>> k = Knowledge.from_view(g.view(0, codes=True), g.rules)
>>> sum(k.unseen), len(k.slots), k.stock_known    # all but the first discard
(51, 51, False)
>>> s = Sampler(g.view(0, codes=True), g.rules, rng=1)
>>> w = s.world()
>>> s.game(w).view(0) == g.view(0)                # a world the seat cannot tell apart
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import N_CODES, RANK_MASK, card_str
from .errors import GolfError
from .game import Game
from .rules import Rules

if TYPE_CHECKING:
    import numpy as np

    from .state import MatchState

__all__ = ["GRID", "HELD", "STOCK", "Group", "Knowledge", "Sampler", "Slot", "World",
           "deck_codes", "deck_ranks", "draw_counts", "sample_game", "sample_world",
           "stock_counts", "unseen_counts"]

STOCK, GRID, HELD = "stock", "grid", "held"
_RANKS = 15  # counts by rank: index 0 unused, 1-13 ace to king, 14 joker


class Slot(NamedTuple):
    """A place whose card a seat does not know.

    ``place`` is ``"stock"`` (``at`` 0 is the bottom card, the top is last, as in a
    position), ``"grid"`` (``seat``'s cell ``at``, 0-based) or ``"held"`` (the card
    ``seat`` drew from the stock and holds now). ``seat`` is -1 for the stock.
    """

    place: str
    seat: int
    at: int


@dataclass(frozen=True)
class Group:
    """Slots (indices into :attr:`Knowledge.slots`) and the cards that fill them,
    in some order: exactly as many cards as slots (sorted card codes)."""

    slots: tuple[int, ...]
    cards: tuple[int, ...]


class World(NamedTuple):
    """One complete assignment of a seat's slots: ``cards[i]`` lies in ``slots[i]`` of
    the :class:`Knowledge` it was sampled from. ``seed`` seeds the world's future
    chance (reshuffles, later deals), which the view says nothing about either."""

    cards: tuple[int, ...]
    seed: int


def _rank_counts(cards: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * _RANKS
    for c in cards:
        counts[c & RANK_MASK] += 1
    return tuple(counts)


def deck_codes(rules: Rules, players: int) -> tuple[int, ...]:
    """How many cards of each code (0-63) the game's deck (:meth:`golf.Rules.deck`)
    holds."""
    return rules.cached(f"_deck_codes_{players}", lambda r: _code_counts(r.deck(players)))


def _code_counts(deck: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * N_CODES
    for c in deck:
        counts[c] += 1
    return tuple(counts)


@dataclass(frozen=True)
class Knowledge:
    """Everything a seat knows about where the cards are: see the module docs.

    Counts are by rank (index 0 unused, 14 the joker), as bots use them:

    * ``unseen``: the cards the seat has never seen, which is what each face-down
      cell it cannot see may hold;
    * ``stock``: after a reshuffle the cards of the stock (with a card another player
      holds from it), else None;
    * ``draws``: what a draw from the stock gives now: ``stock`` when it is known;
      from an empty stock, the discard pile below its top (the draw reshuffles it
      into the stock; nothing where the rules do not reshuffle); else ``unseen``.

    >>> from golf import Game
    >>> g = Game("german", players=2, seed=3)
    >>> g.apply("peek 1"); g.apply("peek 2")
    >>> k = Knowledge.from_view(g.view(0, codes=True), g.rules)
    >>> [s for s in k.slots if s.seat == 0]          # own cells 1 and 2 are known
    [Slot(place='grid', seat=0, at=2), Slot(place='grid', seat=0, at=3), \
Slot(place='grid', seat=0, at=4), Slot(place='grid', seat=0, at=5)]
    >>> sum(k.unseen), k.stock, k.draws == k.unseen
    (49, None, True)
    """

    seat: int
    players: int
    slots: tuple[Slot, ...]
    groups: tuple[Group, ...]
    stock_known: bool
    unseen: tuple[int, ...]
    stock: tuple[int, ...] | None
    draws: tuple[int, ...]

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rules: Rules) -> Knowledge:
        """Read a seat's view (``Game.view(seat, codes=True)``) under ``rules``.

        A view that cannot come from a game of these rules (more cards of some kind
        than the deck holds, a public stock that does not fit the stock) raises a
        :class:`golf.GolfError` saying what does not fit.
        """
        players, seat = view["players"], view["seat"]
        never, public = _split(view, rules)
        cells = [Slot(GRID, s, i) for s, grid in enumerate(view["grids"]) if grid is not None
                 for i, c in enumerate(grid) if c is None]
        slots = [Slot(STOCK, -1, i) for i in range(view["stock_size"])]
        holder = view["held_by"]
        if view["held"] is None and holder is not None:
            slots.append(Slot(HELD, holder, 0))  # drawn from the stock: only its holder sees it
        n_stock = len(slots)
        slots += cells
        unseen = _rank_counts(never)
        if public is None:
            if len(never) != len(slots):
                raise GolfError(f"the view leaves {len(never)} cards unseen for {len(slots)} "
                                "unknown places: it is not a view of a game of these rules")
            groups: tuple[Group, ...] = (Group(tuple(range(len(slots))), never),)
            return cls(seat, players, tuple(slots), groups, False, unseen, None,
                       _draws(view, rules, None) or unseen)
        if len(public) != n_stock:
            raise GolfError(f"the view's public stock has {len(public)} cards for {n_stock} "
                            "places in the stock: it is not a view of a game of these rules")
        if len(never) != len(cells):
            raise GolfError(f"the view leaves {len(never)} cards unseen for {len(cells)} "
                            "face-down cards: it is not a view of a game of these rules")
        groups = (Group(tuple(range(n_stock)), public),
                  Group(tuple(range(n_stock, len(slots))), never))
        stock = _rank_counts(public)
        return cls(seat, players, tuple(slots), groups, True, unseen, stock,
                   _draws(view, rules, stock) or stock)

    @property
    def unplaced(self) -> tuple[int, ...]:
        """By rank, every card whose place the seat does not know (all slots):
        ``unseen`` plus a public ``stock``."""
        if self.stock is None:
            return self.unseen
        return tuple(a + b for a, b in zip(self.unseen, self.stock, strict=True))

    def worlds_count(self) -> int:
        """How many distinct worlds are consistent with the view (each group's
        distinct arrangements, multiplied). Small only for small endgames.

        >>> from golf import Game
        >>> g = Game("six-card", players=2, seed=1)
        >>> Knowledge.from_view(g.view(0, codes=True), g.rules).worlds_count() > 10**60
        True
        """
        total = 1
        for g in self.groups:
            total *= _arrangements(g.cards)
        return total


def _tally(view: Mapping[str, Any], rules: Rules, key: int) -> tuple[list[int], list[int] | None]:
    """The one computation behind every count of this module: how many cards of each
    kind the view's seat has never seen, and the public stock's cards other than one
    the seat holds (None before a reshuffle). A kind is ``card & key``: the card code
    with ``key`` 63, its rank with 15."""
    left = list(deck_codes(rules, view["players"]) if key == N_CODES - 1
                else deck_ranks(rules, view["players"]))
    for grid in view["grids"]:
        if grid is not None:
            for c in grid:
                if c is not None:
                    left[c & key] -= 1
    for c in view["discard"]:
        left[c & key] -= 1
    held = view["held"]
    if held is not None:
        left[held & key] -= 1
    listed = view["stock_cards"]
    if listed is None:
        _check_left(left, key, "the view shows")
        return left, None
    public = list(listed)
    if held is not None and view["held_from"] == "stock":
        if held not in public:
            raise GolfError("the view's seat holds a card from the stock that the stock's "
                            "public cards do not list: it is not a view of these rules")
        public.remove(held)  # listed with the stock, but its holder sees it
    for c in public:
        left[c & key] -= 1
    _check_left(left, key, "the view shows and lists in the stock")
    return left, public


def _split(view: Mapping[str, Any], rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """:func:`_tally` by card code, as sorted cards."""
    left, public = _tally(view, rules, N_CODES - 1)
    return _elements(left), None if public is None else tuple(sorted(public))


def deck_ranks(rules: Rules, players: int) -> tuple[int, ...]:
    """How many cards of each rank the game's deck holds (index 0 unused, 14 the
    joker)."""
    return rules.cached(f"_deck_ranks_{players}", lambda r: _rank_counts(r.deck(players)))


def _check_left(left: list[int], key: int, what: str) -> None:
    if min(left) < 0:
        kind = left.index(min(left))
        name = card_str(kind) if key == N_CODES - 1 else f"a card of rank {card_str(kind, False)}"
        raise GolfError(f"{what} {name} more often than the deck holds it: "
                        "the view is not from a game of these rules")


def _elements(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(c for c, n in enumerate(counts) for _ in range(n))


def _arrangements(cards: Sequence[int]) -> int:
    from math import factorial

    total = factorial(len(cards))
    for c in set(cards):
        total //= factorial(cards.count(c))
    return total


def unseen_counts(view: Mapping[str, Any], rules: Rules) -> tuple[int, ...]:
    """By rank (index 0 unused, 14 the joker), the cards the view's seat has never seen:
    what a face-down cell it cannot see may hold (:attr:`Knowledge.unseen`).

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=5)
    >>> sum(unseen_counts(g.view(0, codes=True), g.rules))
    51
    """
    return tuple(_tally(view, rules, 15)[0][:_RANKS])


def draw_counts(view: Mapping[str, Any], rules: Rules) -> tuple[int, ...] | None:
    """By rank, the cards a draw from the stock gives now, where the seat knows them as
    a multiset: a public stock, or, from an empty stock, the discard pile below its
    top that the draw reshuffles into the stock. None where the draw is one of the
    unseen cards (:attr:`Knowledge.draws` is then :attr:`Knowledge.unseen`).

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=5)
    >>> draw_counts(g.view(0, codes=True), g.rules) is None
    True
    """
    return _draws(view, rules, stock_counts(view, rules))


def _draws(view: Mapping[str, Any], rules: Rules,
           stock: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if view["stock_size"] == 0 and not (view["held"] is None and view["held_by"] is not None):
        pile = view["discard"][:-1] if rules.reshuffle else []
        return _rank_counts(pile)
    return stock


def stock_counts(view: Mapping[str, Any], rules: Rules) -> tuple[int, ...] | None:
    """By rank, the cards of a public stock (after a reshuffle; with a card another
    player holds from it, without one the seat holds), else None
    (:attr:`Knowledge.stock`)."""
    public = _tally(view, rules, 15)[1]
    return None if public is None else _rank_counts(public)


def _random(rng: random.Random | int | None) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    return random.Random(rng)


class Sampler:
    """Worlds consistent with one view, drawn uniformly, and playable games of them.

    ``rng`` is a :class:`random.Random` (used as is, so a caller's stream continues)
    or a seed; the same seed gives the same worlds. :meth:`world` draws one world;
    :meth:`worlds` draws many at once (much faster per world; the batch is drawn by a
    NumPy generator seeded from ``rng``, so it is reproducible too but differs from
    as many :meth:`world` calls). :meth:`game` turns a world into a :class:`golf.Game`
    that plays on from there.

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=2)
    >>> s = Sampler(g.view(1, codes=True), g.rules, rng=7)
    >>> games = s.games(3)
    >>> all(h.view(1) == g.view(1) for h in games), len({str(h.position()) for h in games})
    (True, 3)
    """

    __slots__ = ("_base", "_cells", "_held_slot", "_n_stock", "_np", "_rng", "_template",
                 "knowledge", "rules")

    def __init__(self, view: Mapping[str, Any], rules: Rules,
                 rng: random.Random | int | None = None) -> None:
        self.rules = rules
        self.knowledge = k = Knowledge.from_view(view, rules)
        self._rng = _random(rng)
        self._np: np.random.Generator | None = None
        self._base: MatchState | None = None
        self._template = _template(view, rules)
        self._n_stock = view["stock_size"]
        self._held_slot = view["held"] is None and view["held_by"] is not None
        # where each grid slot's card goes: (seat, cell) in slot order
        self._cells = [(s.seat, s.at) for s in k.slots if s.place == GRID]

    def world(self) -> World:
        """One world, every consistent world equally likely."""
        rng = self._rng
        out: list[int] = []
        for g in self.knowledge.groups:
            cards = list(g.cards)
            rng.shuffle(cards)
            out += cards
        return World(tuple(out), rng.getrandbits(32))

    def worlds(self, n: int) -> list[World]:
        """``n`` independent worlds, each uniform over the consistent ones, drawn in one
        stroke by NumPy (an extra: ``pip install golf-cards[sim]``; :meth:`world`
        needs nothing)."""
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy comes with every extra
            raise GolfError("Sampler.worlds needs NumPy (pip install 'golf-cards[sim]'); "
                            "Sampler.world draws one world without it") from None
        gen = self._np
        if gen is None:
            gen = self._np = np.random.default_rng(self._rng.getrandbits(64))
        parts = []
        for g in self.knowledge.groups:
            if g.cards:
                block = np.tile(np.asarray(g.cards, dtype=np.int8), (n, 1))
                parts.append(gen.permuted(block, axis=1))
        rows: list[list[int]] = (np.concatenate(parts, axis=1).tolist() if parts
                                 else [[] for _ in range(n)])
        seeds = gen.integers(0, 2**32, n).tolist()
        return list(map(World, map(tuple, rows), seeds))

    def filled(self) -> World:
        """One world consistent with the view without drawing: each group's cards in
        sorted order over its slots. For callers whose answer cannot depend on the
        hidden cards (a policy blind to them, a search that reshuffles them itself)."""
        return World(tuple(c for g in self.knowledge.groups for c in g.cards), 0)

    def position(self, world: World) -> dict[str, Any]:
        """The world as a :mod:`golf.position` (every card where the world puts it)."""
        pos = dict(self._template)
        cards = world.cards
        k = self._n_stock
        pos["stock"] = list(cards[:k])
        at = k
        if self._held_slot:
            pos["held"] = cards[at]
            at += 1
        grids = [None if g is None else list(g) for g in self._template["grids"]]
        for (s, i), c in zip(self._cells, cards[at:], strict=True):
            grids[s][i] = c  # type: ignore[index]
        pos["grids"] = grids
        pos["seed"] = world.seed
        return pos

    def game(self, world: World, replayable: bool = True) -> Game:
        """A playable game in ``world``: legal_actions, apply and view work on it, and
        its view for the seat is the view the sampler was built from.

        With ``replayable`` its :meth:`~golf.Game.record` replays from the world, as a
        game set up from a position does; that costs a second copy of the state, which
        a search that only plays worlds out can skip (``replayable=False``: the record
        then has no position to start from, as for any game over a state whose cards
        were changed, and does not replay this world).

        The one place a world becomes a game. The first world is set up through
        :meth:`golf.Game.from_position`, which checks it; every other one copies that
        state, deals its own cards into the slots (the only difference between worlds
        of one view) and plays on it with :meth:`golf.Game.from_state`.
        """
        base = self._base
        if base is None:
            base = self._base = Game.from_position(self.rules, self.position(world)).state
        st = base.copy()
        h = st.hole
        cards = world.cards
        k = self._n_stock
        h.stock = list(cards[:k])
        if self._held_slot:
            h.held = cards[k]
            k += 1
        grids = h.grids
        for (s, i), c in zip(self._cells, cards[k:], strict=True):
            grids[s][i] = c
        st.seed = world.seed
        st.origin = None
        if replayable:
            st.origin = st.copy()
        return Game.from_state(st)

    def games(self, n: int, replayable: bool = True) -> list[Game]:
        """``n`` playable games of independent worlds (:meth:`worlds`, :meth:`game`)."""
        return [self.game(w, replayable) for w in self.worlds(n)]


def _template(view: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A position with every fact of the view; the world fills the stock, the unknown
    cells and a held card nobody else sees."""
    players, seat = view["players"], view["seat"]
    phase = view["phase"]
    current = view["current_player"]
    peeked_cells = view["peeked_cells"]
    chosen: list[int] = []
    if phase == "setup" and current is not None:
        # what the seat in setup has chosen so far this hole: its revealed cards or the
        # cells it peeked at (everyone sees where)
        if rules.setup == "reveal":
            chosen = [i + 1 for i, u in enumerate(view["face_up"][current]) if u]
        else:
            chosen = list(view["peeked"] if current == seat else peeked_cells[current])
    last = view["last_hole"]
    return {
        "players": players,
        "hole": view["hole"],
        "playoff": view["playoff"],
        "active": list(view["active"]),
        "dealer": view["dealer"],
        "phase": phase,
        "current_player": current if current is not None else view["active"][0],  # over
        "grids": [None if g is None else list(g) for g in view["grids"]],
        "face_up": [None if u is None else list(u) for u in view["face_up"]],
        "peeked": [list(view["peeked"]) if s == seat else list(peeked_cells[s] or [])
                   for s in range(players)],
        "setup_chosen": chosen,
        "discard": list(view["discard"]),
        "held": view["held"],
        "held_from": view["held_from"],
        "turns": list(view["turns"]),
        "knocked_by": view["knocked_by"],
        "final_turns_from": view["final_turns_from"],
        "reshuffles": 0 if view["stock_cards"] is None else 1,
        "totals": list(view["totals"]),
        "hole_scores": [list(h) for h in view["hole_scores"]],
        "playoff_scores": [list(h) for h in view["playoff_scores"]],
        "hole_results": [] if last is None else [last],
        "winners": list(view["winners"]),
    }


def sample_world(view: Mapping[str, Any], rules: Rules,
                 rng: random.Random | int | None = None) -> World:
    """One world consistent with ``view`` (see :class:`Sampler`); its cards follow
    ``Knowledge.from_view(view, rules).slots``."""
    return Sampler(view, rules, rng).world()


def sample_game(view: Mapping[str, Any], rules: Rules,
                rng: random.Random | int | None = None) -> Game:
    """A playable :class:`golf.Game` of one world consistent with ``view``.

    >>> from golf import Game
    >>> g = Game("four-card-wild", players=3, seed=4)
    >>> h = sample_game(g.view(2, codes=True), g.rules, random.Random(1))
    >>> h.view(2) == g.view(2), h.legal_actions() == g.legal_actions()
    (True, True)
    """
    s = Sampler(view, rules, rng)
    return s.game(s.world())
