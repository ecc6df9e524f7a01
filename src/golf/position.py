"""Positions: the whole state of a match as data, hidden cards included.

A position is to a game of Golf what a FEN is to chess: every card where it lies
(the stock in order, top last), who is to act and in which phase, the turns taken,
knocks and scores. :meth:`golf.Game.position` writes one; :meth:`golf.Game.from_position`
sets a game up from one and the engine plays every rule from there.

Programs that choose the cards themselves need this: OpenSpiel deals and draws at
explicit chance nodes, and a search bot samples the cards it cannot see to build a
world consistent with its view. A position is not what a player may know (that is
:func:`golf.view.view`); it holds everything, so it is for dealers and searchers only.

A game set up from a position remembers it: its :meth:`~golf.Game.record` carries the
position, so it still replays exactly.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=5)
>>> g.apply("reveal 1"); g.apply("reveal 2")
>>> p = g.position()
>>> p["phase"], p["current_player"], len(p["stock"]), p["face_up"][0][:3]
('setup', 1, 39, [True, True, False])
>>> h = Game.from_position(g.rules, p)
>>> h.view(0) == g.view(0) and h.legal_actions() == g.legal_actions()
True
>>> p["stock"][-1], p["grids"][1][5] = p["grids"][1][5], p["stock"][-1]   # rig the next draw
>>> Game.from_position(g.rules, p).census() != g.census()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .cards import JOKER, RANK_MASK, card_str
from .errors import GolfError
from .phases import FLIP, FROM_DISCARD, FROM_STOCK, HOLD, OVER, PHASES, SETUP, TURN
from .rules import Rules, load_rules
from .state import HoleResult, HoleState, MatchState, check_state

if TYPE_CHECKING:
    from .types import PositionDict


class HasState(Protocol):
    """What this module needs of a game: its public state (a :class:`golf.Game`)."""

    @property
    def state(self) -> MatchState: ...

POSITION_FORMAT = "golf-position/1"
_SOURCES = ("stock", "discard")


def position(state: MatchState) -> PositionDict:
    """Everything about a match's ``state`` now, as JSON-ready data (card codes,
    1-based positions). ``Game.position()`` is this for a game's state."""
    n, cells = state.players, state.rules.cells
    h = state.hole
    active = h.active
    held = h.held if h.held >= 0 and h.phase != OVER else None
    return {
        "format": POSITION_FORMAT,
        "players": n,
        "seed": state.seed,
        "hole": state.hole_index + 1,
        "playoff": state.playoff,
        "active": list(active),
        "dealer": h.dealer,
        "phase": PHASES[h.phase],
        "current_player": h.current,
        "grids": [list(h.grids[s]) if s in active else None for s in range(n)],
        "face_up": [[bool(h.up[s] >> i & 1) for i in range(cells)] if s in active else None
                    for s in range(n)],
        "peeked": [[i + 1 for i in range(cells) if h.peeked[s] >> i & 1] for s in range(n)],
        "setup_chosen": [i + 1 for i in range(cells) if h.chosen >> i & 1],
        "stock": list(h.stock),
        "discard": list(h.discard),
        "held": held,
        "held_from": None if held is None else _SOURCES[h.held_from],
        "turns": list(h.turns),
        "turn_count": h.turn_count,
        "knocked_by": h.knocker if h.knocker >= 0 else None,
        "final_turns_from": h.ender if h.ender >= 0 else None,
        "reshuffles": h.reshuffles,
        "totals": list(state.totals),
        "hole_scores": [list(s) for s in state.hole_scores],
        "playoff_scores": [list(s) for s in state.playoff_scores],
        "hole_results": [result_data(r) for r in state.hole_results],
        "winners": list(state.winners),
    }


def _fail(key: str, why: str) -> GolfError:
    return GolfError(f"position '{key}': {why}")


def _int(pos: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int:
    v = pos.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(key, f"must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _seat_or_none(pos: Mapping[str, Any], key: str, seats: Sequence[int]) -> int:
    v = pos.get(key)
    if v is None:
        return -1
    if not isinstance(v, int) or isinstance(v, bool) or v not in seats:
        raise _fail(key, f"must be null or a seat in play ({list(seats)}), got {v!r}")
    return v


def _int_list(pos: Mapping[str, Any], key: str, length: int, default: list[int]) -> list[int]:
    v = pos.get(key, default)
    if (not isinstance(v, list | tuple) or len(v) != length
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise _fail(key, f"must be a list of {length} integers, got {v!r}")
    return list(v)


def _mask(v: Any, key: str, cells: int) -> int:
    """A bit mask from 1-based positions."""
    if not isinstance(v, list | tuple):
        raise _fail(key, f"must be a list of positions from 1 to {cells}, got {v!r}")
    m = 0
    for p in v:
        if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= cells:
            raise _fail(key, f"positions run from 1 to {cells}, got {p!r}")
        m |= 1 << (p - 1)
    return m


def _valid_card(c: Any) -> bool:
    return (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 64
            and 1 <= c & RANK_MASK <= JOKER)


def result_data(h: HoleResult) -> dict[str, Any]:
    """A finished hole as data (every field of HoleResult, tuples as lists)."""
    out = {}
    for f in fields(h):
        v = getattr(h, f.name)
        if f.name == "grids":
            v = [list(x) for x in v]
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out


def _sorted_deck(r: Rules, players: int) -> list[int]:
    return r.cached(f"_sorted_deck_{players}", lambda r: sorted(r.deck(players)))


def state_from_position(
    variant: str | Path | Rules,
    pos: Mapping[str, Any],
    rules: Mapping[str, Any] | None = None,
) -> MatchState:
    """The match state ``pos`` describes (see :func:`position` for the keys);
    ``Game.from_position`` plays on it.

    Only ``players``, ``grids``, ``stock``, ``discard`` and ``phase`` are required; the
    rest defaults to a fresh first hole (dealer the last seat, nothing face up, no
    scores). The cards must be exactly the game's deck, and the rules must be able to
    reach the state (a held card exactly in the ``hold`` phase, a seat to act that is in
    play and has something to do, a phase the variant has, ...); otherwise a
    :class:`golf.GolfError` names the key or the problem and what is allowed.

    >>> from golf import Game
    >>> pos = Game("german", players=2, seed=1).position()
    >>> pos["phase"] = "flip"
    >>> Game.from_position("german", pos)
    Traceback (most recent call last):
    ...
    golf.errors.GolfError: position cannot be reached: german has no flip after discarding, ...
    """
    r = load_rules(variant, rules)
    if not isinstance(pos, Mapping):
        raise GolfError("a position is an object with players, grids, stock, discard and phase")
    fmt = pos.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise _fail("format", f"{fmt!r} is not supported (need {POSITION_FORMAT})")
    missing = [k for k in ("players", "grids", "stock", "discard", "phase") if k not in pos]
    if missing:
        raise GolfError(f"position lacks {', '.join(missing)}")
    players = pos["players"]
    r.check_players(players)
    seed = _int(pos, "seed", 0, 2**64, 0)
    n, cells = players, r.cells

    active_raw = pos.get("active", list(range(n)))
    if (not isinstance(active_raw, list | tuple) or not active_raw
            or sorted(set(active_raw)) != list(active_raw)
            or not all(isinstance(s, int) and 0 <= s < n for s in active_raw)):
        raise _fail("active", f"must be the seats in play, ascending, from 0 to {n - 1}")
    active = tuple(active_raw)

    grids_raw = pos["grids"]
    if not isinstance(grids_raw, list | tuple) or len(grids_raw) != n:
        raise _fail("grids", f"must list one grid (or null) per seat, {n} in all")
    grids: list[list[int]] = []
    for s, grid in enumerate(grids_raw):
        if s not in active:
            if grid:
                raise _fail("grids", f"seat {s} is not in play, so its grid must be null")
            grids.append([])
            continue
        if not isinstance(grid, list | tuple) or len(grid) != cells:
            raise _fail("grids", f"seat {s} needs a grid of {cells} card codes")
        grids.append(list(grid))
    stock, discard = pos["stock"], pos["discard"]
    if not isinstance(stock, list | tuple) or not isinstance(discard, list | tuple):
        raise _fail("stock", "stock and discard must be lists of card codes, top last")

    phase_name = pos["phase"]
    if phase_name not in PHASES:
        raise _fail("phase", f"must be one of {', '.join(PHASES)}, got {phase_name!r}")
    phase = PHASES.index(phase_name)
    held_raw = pos.get("held")
    if (held_raw is not None) != (phase == HOLD):
        raise _fail("held", "a card is held exactly in the 'hold' phase")
    held = -1 if held_raw is None else held_raw
    held_from = FROM_STOCK
    if held_raw is not None:
        src = pos.get("held_from")
        if src not in _SOURCES:
            raise _fail("held_from", f"must be 'stock' or 'discard', got {src!r}")
        held_from = FROM_DISCARD if src == "discard" else FROM_STOCK

    cards = [c for g in grids for c in g]
    cards += stock
    cards += discard
    if held_raw is not None:
        cards.append(held_raw)
    # Exactly the deck's cards, all plain ints (True == 1 would pass a comparison), is
    # checked in C; the slow look for what is wrong only runs when something is.
    if set(map(type, cards)) != {int} or sorted(cards) != _sorted_deck(r, players):
        for c in cards:
            if not _valid_card(c):
                raise GolfError(f"position holds {c!r}, which is not a card code")

    default_dealer = n - 1
    current = _int(pos, "current_player", 0, n - 1, (default_dealer + 1) % n)
    if phase != OVER and current not in active:
        raise _fail("current_player", f"seat {current} is not in play")
    if phase in (TURN, FLIP) and not discard:
        raise _fail("discard", "the discard pile may be empty only while its card is held")

    up = [0] * n
    face_up = pos.get("face_up")
    if face_up is not None:
        if not isinstance(face_up, list | tuple) or len(face_up) != n:
            raise _fail("face_up", "must list one row of booleans (or null) per seat")
        for s in active:
            row = face_up[s]
            if not isinstance(row, list | tuple) or len(row) != cells:
                raise _fail("face_up", f"seat {s} needs {cells} booleans")
            m = 0
            for i, u in enumerate(row):
                if u:
                    m |= 1 << i
            up[s] = m
    peeked_raw = pos.get("peeked")
    if peeked_raw is None:
        peeked = [0] * n
    elif not isinstance(peeked_raw, list | tuple) or len(peeked_raw) != n:
        raise _fail("peeked", "must list the peeked positions of every seat")
    else:
        peeked = [_mask(p, "peeked", cells) for p in peeked_raw]
    chosen = _mask(pos.get("setup_chosen", ()), "setup_chosen", cells)
    if phase == SETUP and bin(chosen).count("1") >= r.setup_count:
        raise _fail("setup_chosen", f"a seat in setup has chosen fewer than {r.setup_count}")
    if phase == FLIP and up[current] == (1 << cells) - 1:
        raise _fail("phase", "a seat with every card face up has nothing to flip")

    turns = _int_list(pos, "turns", n, [0] * n)
    hole_scores = pos.get("hole_scores", ())
    if not isinstance(hole_scores, list | tuple):
        raise _fail("hole_scores", "must be a list of per-seat score lists")
    regular = [_int_list({"s": s}, "s", n, []) for s in hole_scores]
    totals = _int_list(pos, "totals", n, [sum(col) for col in zip(*regular, strict=True)]
                       if regular else [0] * n)
    playoff_scores = pos.get("playoff_scores", ())
    winners = pos.get("winners", ())
    if phase == OVER and not winners:
        raise _fail("winners", "a finished match needs its winners")
    results = []
    if pos.get("hole_results"):
        names = [f.name for f in fields(HoleResult)]
        for h in pos["hole_results"]:
            try:
                data = {k: h[k] for k in names if k in h}
                data["grids"] = tuple(tuple(x or ()) for x in data["grids"])
                data["scores"] = tuple(data["scores"])
                results.append(HoleResult(**data))
            except (KeyError, TypeError, ValueError):
                raise _fail("hole_results",
                            f"each is an object with {', '.join(names)}") from None

    in_setup = phase == SETUP
    hole = HoleState(
        active, _int(pos, "dealer", 0, n - 1, default_dealer), grids, list(stock),
        list(discard), up=up, peeked=peeked, phase=phase, current=current, held=held,
        held_from=held_from, chosen=chosen if in_setup else 0,
        setup_left=r.setup_count - bin(chosen).count("1") if in_setup else 0,
        turns=turns, turn_count=_int(pos, "turn_count", 0, 10**9, sum(turns)),
        ender=_seat_or_none(pos, "final_turns_from", active),
        knocker=_seat_or_none(pos, "knocked_by", active),
        reshuffles=_int(pos, "reshuffles", 0, 10**9, 0),
    )
    state = MatchState(
        r, players, seed, r.deck(players), hole, totals=totals, hole_scores=regular,
        playoff_scores=[list(s) for s in playoff_scores], hole_results=results,
        winners=list(winners), hole_index=_int(pos, "hole", 1, 10**6, 1) - 1,
        playoff=bool(pos.get("playoff", False)),
    )
    try:
        check_state(state)
    except GolfError as e:
        raise GolfError(f"position cannot be reached: {e}") from None
    # Kept so that record() can replay this game: a frozen copy nobody plays on.
    state.origin = state.copy()
    return state


def draw_pool(g: HasState) -> list[int]:
    """The cards the draw just made could have produced: the stock and the card drawn.

    Only right after a ``draw`` (phase ``hold``, card from the stock); a dealer that
    chooses draws itself (OpenSpiel's chance nodes) picks one of them for :func:`redraw`.
    """
    h = _check_drawn(g)
    return [*h.stock, h.held]


def redraw(g: HasState, card: int) -> None:
    """Make ``card`` the card just drawn from the stock; the card drawn takes its place
    in the stock. For dealers that choose the draws themselves (OpenSpiel's chance nodes).

    The game's record starts again here (its position now, then the actions after), so
    it still replays exactly. Which card is held changes no legal action, so the game
    plays on.

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=1)
    >>> for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw"):
    ...     g.apply(a)
    >>> king = next(c for c in draw_pool(g) if c & RANK_MASK == 13)
    >>> redraw(g, king)
    >>> g.view(0)["held"][0], Game.from_record(g.record()).view(0) == g.view(0)
    ('K', True)
    """
    h = _check_drawn(g)
    if card != h.held:
        try:
            i = h.stock.index(card)
        except ValueError:
            raise GolfError(f"{card_str(card) if _valid_card(card) else card!r} is not in "
                            "the stock, so it cannot be the card drawn") from None
        h.stock[i] = h.held
        h.held = card
    # A frozen copy to replay from: the seed and earlier actions no longer lead here.
    st = g.state
    st.history.clear()
    st.origin = None
    st.origin = st.copy()


def _check_drawn(g: HasState) -> HoleState:
    h = g.state.hole
    if h.phase != HOLD or h.held_from != FROM_STOCK or h.held < 0:
        raise GolfError("no card has just been drawn from the stock "
                        f"(the game is in phase '{PHASES[h.phase]}')")
    return h
