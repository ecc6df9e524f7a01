"""The state machine, compiled: :class:`golf.Game`'s rules on one int64 array.

Every function mirrors a step of :mod:`golf.game` (the reference): the same legal
actions in the same order, the same turn order, hole ends, scores and playoffs. Nothing
here calls itself or each other in a cycle (numba compiles no such thing): the steps
that follow a move (begin a turn, end the hole, deal the next) run in :func:`_settle`'s
loop.

Chance is explicit. With ``CHANCE_RNG`` the state shuffles with its own generator
(``rng``, a one-element uint64 array). With ``CHANCE_ENGINE`` every shuffle takes a
permutation that the caller put in the state beforehand, computed exactly as
:class:`golf.Game` shuffles (see :mod:`golf.fast.game`): a deal then waits in phase
``DEAL`` until its permutation arrives.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..actions import K_DISCARD, K_DRAW, K_FLIP, K_KNOCK, K_PASS, K_PEEK, K_REVEAL, K_SWAP, K_TAKE
from ..phases import FLIP, FROM_DISCARD, FROM_STOCK, HOLD, OVER, SETUP, TURN
from ._jit import core, inlined, ix, jit
from .layout import (
    C_CELLS,
    C_DECK,
    C_END,
    C_FINAL_TURNS,
    C_FLIP_AFTER,
    C_FLIP_INSTEAD,
    C_FULL,
    C_HOLES,
    C_KNOCK,
    C_KNOCK_FIRST,
    C_MAX_PLAYOFFS,
    C_O_DECK,
    C_O_DISCARD,
    C_O_GRIDS,
    C_O_LAST_GRIDS,
    C_O_LAST_SCORES,
    C_O_PEEKED,
    C_O_PERM,
    C_O_RPERM,
    C_O_STOCK,
    C_O_TOTALS,
    C_O_TURNS,
    C_O_UP,
    C_PLAYERS,
    C_REPLACE_DOWN,
    C_RESHUFFLE,
    C_RETURN_TAKEN,
    C_SETUP_ALLOWED,
    C_SETUP_COUNT,
    C_SETUP_PEEK,
    C_STATE_SIZE,
    C_TARGET,
    C_TARGET_REACH,
    C_TIE_PLAYOFF,
    C_TURN_LIMIT,
    CELL_MASK,
    CHANCE_RNG,
    DEAL,
    END_ALL,
    END_FIRST,
    FLIP_MAY,
    FLIP_NEVER,
    KIND_SHIFT,
    NO_SCORE,
    RANK_MASK,
    RESHUFFLE_KEY,
    S_ACTIVE,
    S_CHANCE,
    S_CHOSEN,
    S_CUR,
    S_DEALER,
    S_DISCARD_LEN,
    S_ENDER,
    S_HELD,
    S_HELD_FROM,
    S_HOLE,
    S_HOLES_ENDED,
    S_KNOCKER,
    S_LAST_DISCARD_TOP,
    S_LAST_KNOCKER,
    S_LAST_NUMBER,
    S_LAST_PLAYOFF,
    S_LAST_WENT_OUT,
    S_N_PLAYOFF,
    S_N_REGULAR,
    S_PENDING,
    S_PERM_FOR,
    S_PHASE,
    S_PLAYOFF,
    S_RESHUFFLES,
    S_RPERM_FOR,
    S_SETUP_LEFT,
    S_STOCK_LEN,
    S_TURN_COUNT,
    S_WINNERS,
)
from .score import score_cards

Ints = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]
# What _settle does next.
_DONE, _BEGIN, _END_HOLE, _START = 0, 1, 2, 3
DRAW_CODE = K_DRAW << KIND_SHIFT
TAKE_CODE = K_TAKE << KIND_SHIFT
DISCARD_CODE = K_DISCARD << KIND_SHIFT
PASS_CODE = K_PASS << KIND_SHIFT
KNOCK_CODE = K_KNOCK << KIND_SHIFT
MAX_LEGAL = 40  # the most legal actions of any state: 16 swaps + discard, or 16 flips + 3


# --- the generator -------------------------------------------------------------------
GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # splitmix64's step


@inlined
def mix64(z: np.uint64) -> np.uint64:
    """splitmix64's output function of the state ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.uint64(z ^ (z >> np.uint64(31)))


@inlined
def bounded(u: np.uint64, n: int) -> int:
    """0 to n - 1 from a 64-bit draw (multiply-shift of its high half, no division;
    the bias is below n / 2**32)."""
    return int(((u >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@inlined
def next_u64(rng: Rng) -> np.uint64:
    """splitmix64: one 64-bit draw (the state is ``rng[0]``)."""
    rng[0] += GOLDEN
    return mix64(rng[0])


@inlined
def below(rng: Rng, n: int) -> int:
    """A draw from 0 to n - 1 (multiply-shift; the bias is below n / 2**32)."""
    return bounded(next_u64(rng), n)


@jit
def seed_rng(seed: int) -> Rng:
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    next_u64(rng)
    return rng


# --- small facts ---------------------------------------------------------------------
@inlined
def popcount(m: int) -> int:
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@core
def known_ranks(st: Ints, cfg: Ints, seat: int, seen: int, ranks: Ints) -> int:
    """The ranks of the seat's cells in ``seen`` (a cell mask; the others 0: unknown)
    into ``ranks``; returns how many are unknown."""
    cells = cfg[C_CELLS]
    base = cfg[C_O_GRIDS] + seat * cells
    unknown = 0
    for i in range(cells):
        if seen >> i & 1:
            ranks[i] = st[ix(base + i)] & RANK_MASK
        else:
            ranks[i] = 0
            unknown += 1
    return unknown


@inlined
def next_seat(st: Ints, cfg: Ints, seat: int) -> int:
    n = cfg[C_PLAYERS]
    active = st[S_ACTIVE]
    # Wrap by comparison: a 64-bit division costs dozens of cycles, once per turn.
    s = seat + 1
    if s == n:
        s = 0
    while not active >> s & 1:
        s += 1
        if s == n:
            s = 0
    return int(s)


@inlined
def _can_supply(st: Ints, cfg: Ints) -> bool:
    return bool(st[S_STOCK_LEN] > 0 or (cfg[C_RESHUFFLE] != 0 and st[S_DISCARD_LEN] > 1))


@jit
def new_state(cfg: Ints, chance: int) -> Ints:
    """A match before its first deal: call :func:`start_match` next."""
    st = np.empty(cfg[C_STATE_SIZE], dtype=np.int64)
    reset_state(st, chance)
    return st


@core
def reset_state(st: Ints, chance: int) -> None:
    """Make ``st`` a match before its first deal (what :func:`new_state` returns), in
    place: a batch of matches reuses one array."""
    for i in range(st.shape[0]):
        st[i] = 0
    st[S_CHANCE] = chance
    st[S_PERM_FOR] = -1
    st[S_RPERM_FOR] = -1
    st[S_HELD] = -1
    st[S_ENDER] = -1
    st[S_KNOCKER] = -1


@core
def start_match(st: Ints, cfg: Ints, rng: Rng) -> None:
    """Deal the first hole (with engine chance, the deal may wait in phase DEAL)."""
    _settle(st, cfg, _START, (1 << cfg[C_PLAYERS]) - 1, rng)


# --- hole lifecycle ------------------------------------------------------------------
@inlined
def _shuffle_in_place(st: Ints, rng: Rng, length: int, at: int) -> None:
    """Fisher-Yates on ``st[at:at + length]``: the draws of :func:`below`, with the
    generator's state kept in a register for the loop (through ``rng[0]`` every draw
    would wait for the last one's store, as numba cannot tell ``rng`` from ``st``)."""
    x = rng[0]
    for i in range(length - 1, 0, -1):
        x += GOLDEN
        j = bounded(mix64(x), i + 1)
        t = st[ix(at + i)]
        st[ix(at + i)] = st[ix(at + j)]
        st[ix(at + j)] = t
    rng[0] = x


@core
def _start_hole(st: Ints, cfg: Ints, active: int, rng: Rng) -> tuple[int, int]:
    n, cells, deck = cfg[C_PLAYERS], cfg[C_CELLS], cfg[C_DECK]
    hole = st[S_HOLE]
    o_perm = cfg[C_O_PERM]
    o_deck = cfg[C_O_DECK]
    # The deal region becomes the shuffled cards: shuffling the cards themselves gives
    # what the permutation does (a shuffle moves by position), one look-up fewer a card.
    if st[S_CHANCE] == CHANCE_RNG:
        for i in range(deck):
            st[ix(o_perm + i)] = cfg[ix(o_deck + i)]
        _shuffle_in_place(st, rng, deck, o_perm)
    elif st[S_PERM_FOR] != hole:
        st[S_PHASE] = DEAL
        st[S_PENDING] = active
        return _DONE, 0
    else:
        for i in range(deck):
            st[ix(o_perm + i)] = cfg[ix(o_deck + st[ix(o_perm + i)])]
    st[S_PERM_FOR] = -1
    st[S_ACTIVE] = active
    st[S_DEALER] = (hole + n - 1) % n
    first = next_seat(st, cfg, st[S_DEALER])
    o_grids = cfg[C_O_GRIDS]
    o_stock, o_discard = cfg[C_O_STOCK], cfg[C_O_DISCARD]
    k = 0
    for seat in range(n):
        base = o_grids + seat * cells
        if active >> seat & 1:
            for i in range(cells):
                st[ix(base + i)] = st[ix(o_perm + k)]
                k += 1
        else:
            for i in range(cells):
                st[ix(base + i)] = 0
    stock = deck - k - 1
    for i in range(stock):
        st[ix(o_stock + i)] = st[ix(o_perm + k + i)]
    st[o_discard] = st[ix(o_perm + deck - 1)]
    st[S_STOCK_LEN] = stock
    st[S_DISCARD_LEN] = 1
    o_up, o_peeked, o_turns = cfg[C_O_UP], cfg[C_O_PEEKED], cfg[C_O_TURNS]
    for s in range(n):
        st[ix(o_up + s)] = 0
        st[ix(o_peeked + s)] = 0
        st[ix(o_turns + s)] = 0
    st[S_CHOSEN] = 0
    st[S_HELD] = -1
    st[S_HELD_FROM] = FROM_STOCK
    st[S_TURN_COUNT] = 0
    st[S_ENDER] = -1
    st[S_KNOCKER] = -1
    st[S_RESHUFFLES] = 0
    st[S_PENDING] = 0
    if cfg[C_SETUP_COUNT]:
        st[S_PHASE] = SETUP
        st[S_CUR] = first
        st[S_SETUP_LEFT] = cfg[C_SETUP_COUNT]
        return _DONE, 0
    st[S_SETUP_LEFT] = 0
    return _BEGIN, first


@inlined
def _begin_turn(st: Ints, cfg: Ints, seat: int) -> int:
    """Give ``seat`` the turn, skipping seats with nothing to do; or say the hole ends."""
    if st[S_TURN_COUNT] >= cfg[C_TURN_LIMIT] or not _can_supply(st, cfg):
        return _END_HOLE
    skip_complete = cfg[C_REPLACE_DOWN] != 0
    full = cfg[C_FULL]
    o_up = cfg[C_O_UP]
    for _ in range(popcount(st[S_ACTIVE])):
        if seat == st[S_ENDER]:
            return _END_HOLE
        if not (skip_complete and st[ix(o_up + seat)] == full):
            st[S_CUR] = seat
            st[S_PHASE] = TURN
            return _DONE
        seat = next_seat(st, cfg, seat)
    return _END_HOLE


@inlined
def _end_turn(st: Ints, cfg: Ints, seat: int) -> tuple[int, int]:
    st[ix(cfg[C_O_TURNS] + seat)] += 1
    st[S_TURN_COUNT] += 1
    full = cfg[C_FULL]
    o_up = cfg[C_O_UP]
    if st[ix(o_up + seat)] == full:
        rule = cfg[C_END]
        if rule == END_FIRST and st[S_ENDER] < 0:
            st[S_ENDER] = seat
            if not cfg[C_FINAL_TURNS]:
                return _END_HOLE, 0
        elif rule == END_ALL:
            done = True
            for s in range(cfg[C_PLAYERS]):
                if st[S_ACTIVE] >> s & 1 and st[ix(o_up + s)] != full:
                    done = False
            if done:
                return _END_HOLE, 0
    return _BEGIN, next_seat(st, cfg, seat)


@core
def _match_done(st: Ints, cfg: Ints) -> bool:
    if cfg[C_HOLES] and st[S_N_REGULAR] >= cfg[C_HOLES]:
        return True
    if cfg[C_TARGET]:
        o_tot = cfg[C_O_TOTALS]
        top = st[o_tot]
        for s in range(1, cfg[C_PLAYERS]):
            top = max(top, st[ix(o_tot + s)])
        if cfg[C_TARGET_REACH]:
            return bool(top >= cfg[C_TARGET])
        return bool(top > cfg[C_TARGET])
    return False


@core
def _finish_or_playoff(st: Ints, cfg: Ints, tied: int) -> tuple[int, int]:
    if (popcount(tied) > 1 and cfg[C_TIE_PLAYOFF]
            and st[S_N_PLAYOFF] < cfg[C_MAX_PLAYOFFS]):
        st[S_PLAYOFF] = 1
        st[S_HOLE] += 1
        return _START, tied
    st[S_WINNERS] = tied
    st[S_PHASE] = OVER
    return _DONE, 0


@core
def _end_hole(st: Ints, cfg: Ints) -> tuple[int, int]:
    n, cells, full = cfg[C_PLAYERS], cfg[C_CELLS], cfg[C_FULL]
    o_up, o_grids = cfg[C_O_UP], cfg[C_O_GRIDS]
    o_last, o_scores = cfg[C_O_LAST_GRIDS], cfg[C_O_LAST_SCORES]
    active = st[S_ACTIVE]
    low = NO_SCORE
    for s in range(n):
        for i in range(cells):
            st[ix(o_last + s * cells + i)] = st[ix(o_grids + s * cells + i)]
        if active >> s & 1:
            st[ix(o_up + s)] = full
            sc = score_cards(cfg, st, o_grids + s * cells)
            st[ix(o_scores + s)] = sc
            if low == NO_SCORE or sc < low:
                low = sc
        else:
            st[ix(o_scores + s)] = NO_SCORE
    ender, knocker = st[S_ENDER], st[S_KNOCKER]
    st[S_LAST_KNOCKER] = knocker
    st[S_LAST_WENT_OUT] = ender if ender >= 0 and ender != knocker else -1
    dl = st[S_DISCARD_LEN]
    st[S_LAST_DISCARD_TOP] = st[ix(cfg[C_O_DISCARD] + dl - 1)] if dl > 0 else -1
    st[S_LAST_PLAYOFF] = st[S_PLAYOFF]
    st[S_LAST_NUMBER] = st[S_HOLE] + 1
    st[S_HOLES_ENDED] += 1
    st[S_HELD] = -1
    if st[S_PLAYOFF]:
        st[S_N_PLAYOFF] += 1
        tied = 0
        for s in range(n):
            if active >> s & 1 and st[ix(o_scores + s)] == low:
                tied |= 1 << s
        return _finish_or_playoff(st, cfg, tied)
    o_tot = cfg[C_O_TOTALS]
    for s in range(n):
        if active >> s & 1:
            st[ix(o_tot + s)] += st[ix(o_scores + s)]
    st[S_N_REGULAR] += 1
    if _match_done(st, cfg):
        best = st[o_tot]
        for s in range(1, n):
            best = min(best, st[ix(o_tot + s)])
        tied = 0
        for s in range(n):
            if st[ix(o_tot + s)] == best:
                tied |= 1 << s
        return _finish_or_playoff(st, cfg, tied)
    st[S_HOLE] += 1
    return _START, (1 << n) - 1


@inlined
def _settle(st: Ints, cfg: Ints, todo: int, arg: int, rng: Rng) -> None:
    """Run what follows a move until a seat must act (or a deal waits, or the match ends)."""
    while todo != _DONE:
        if todo == _BEGIN:
            todo = _begin_turn(st, cfg, arg)
        elif todo == _END_HOLE:
            todo, arg = _end_hole(st, cfg)
        else:
            todo, arg = _start_hole(st, cfg, arg, rng)


@core
def resume_deal(st: Ints, cfg: Ints, rng: Rng) -> None:
    """Deal the hole waiting in phase DEAL (its permutation is now in the state)."""
    _settle(st, cfg, _START, st[S_PENDING], rng)


# --- legal actions -------------------------------------------------------------------
@inlined
def legal_actions(st: Ints, cfg: Ints, out: Ints) -> int:
    """Write the legal action codes, in the engine's order, into ``out``; return how many."""
    phase = st[S_PHASE]
    seat = st[S_CUR]
    cells, full = cfg[C_CELLS], cfg[C_FULL]
    down = full ^ st[ix(cfg[C_O_UP] + seat)]
    k = 0
    if phase == TURN:
        out[0] = DRAW_CODE
        out[1] = TAKE_CODE
        k = 2
        if (cfg[C_KNOCK] and st[S_ENDER] < 0
                and (cfg[C_KNOCK_FIRST] or st[ix(cfg[C_O_TURNS] + seat)])):
            out[ix(k)] = KNOCK_CODE
            k += 1
        if cfg[C_FLIP_INSTEAD]:
            for i in range(cells):
                if down >> i & 1:
                    out[ix(k)] = K_FLIP << KIND_SHIFT | i
                    k += 1
    elif phase == HOLD:
        for i in range(cells):
            if not cfg[C_REPLACE_DOWN] or down >> i & 1:
                out[ix(k)] = K_SWAP << KIND_SHIFT | i
                k += 1
        if st[S_HELD_FROM] == FROM_STOCK or cfg[C_RETURN_TAKEN]:
            out[ix(k)] = DISCARD_CODE
            k += 1
    elif phase == FLIP:
        for i in range(cells):
            if down >> i & 1:
                out[ix(k)] = K_FLIP << KIND_SHIFT | i
                k += 1
        if cfg[C_FLIP_AFTER] == FLIP_MAY:
            out[ix(k)] = PASS_CODE
            k += 1
    elif phase == SETUP:
        free = full ^ st[S_CHOSEN]
        kind = K_PEEK if cfg[C_SETUP_PEEK] else K_REVEAL
        allowed = cfg[C_SETUP_ALLOWED]
        for i in range(cells):
            if allowed >> i & 1 and free >> i & 1:
                out[ix(k)] = kind << KIND_SHIFT | i
                k += 1
    return k


@jit
def is_legal(st: Ints, cfg: Ints, action: int) -> bool:
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    n = legal_actions(st, cfg, buf)
    return bool(np.any(buf[:n] == action))


# --- applying actions ----------------------------------------------------------------
@core
def _reshuffle(st: Ints, cfg: Ints, rng: Rng) -> None:
    """Shuffle the discard pile, all but its top card, into a new stock."""
    st[S_RESHUFFLES] += 1
    o_stock, o_discard, o_rperm = cfg[C_O_STOCK], cfg[C_O_DISCARD], cfg[C_O_RPERM]
    length = st[S_DISCARD_LEN] - 1
    top = st[ix(o_discard + length)]
    if st[S_CHANCE] == CHANCE_RNG:  # shuffle the cards in the stock (see _start_hole)
        for i in range(length):
            st[ix(o_stock + i)] = st[ix(o_discard + i)]
        _shuffle_in_place(st, rng, length, o_stock)
    else:
        for i in range(length):
            st[ix(o_stock + i)] = st[ix(o_discard + st[ix(o_rperm + i)])]
    st[S_RPERM_FOR] = -1
    st[o_discard] = top
    st[S_DISCARD_LEN] = 1
    st[S_STOCK_LEN] = length


@core
def needs_reshuffle(st: Ints, cfg: Ints, action: int) -> int:
    """The number of cards a reshuffle before ``action`` would shuffle (0: none)."""
    if action == DRAW_CODE and st[S_PHASE] == TURN and st[S_STOCK_LEN] == 0:
        return int(st[S_DISCARD_LEN] - 1)
    return 0


@core
def reshuffle_key(st: Ints) -> int:
    return int(st[S_HOLE] * RESHUFFLE_KEY + st[S_RESHUFFLES] + 1)


@inlined
def step(st: Ints, cfg: Ints, a: int, rng: Rng) -> None:
    """Apply a legal action (no check: callers verified it with :func:`is_legal`)."""
    kind, cell = a >> KIND_SHIFT, a & CELL_MASK
    seat = st[S_CUR]
    cells = cfg[C_CELLS]
    o_up, o_peeked = cfg[C_O_UP], cfg[C_O_PEEKED]
    o_stock, o_discard = cfg[C_O_STOCK], cfg[C_O_DISCARD]
    todo, arg = _DONE, 0
    if kind == K_DRAW:
        if st[S_STOCK_LEN] == 0:
            _reshuffle(st, cfg, rng)
        st[S_STOCK_LEN] -= 1
        st[S_HELD] = st[ix(o_stock + st[S_STOCK_LEN])]
        st[S_HELD_FROM] = FROM_STOCK
        st[S_PHASE] = HOLD
    elif kind == K_TAKE:
        st[S_DISCARD_LEN] -= 1
        st[S_HELD] = st[ix(o_discard + st[S_DISCARD_LEN])]
        st[S_HELD_FROM] = FROM_DISCARD
        st[S_PHASE] = HOLD
    elif kind == K_SWAP:
        g = cfg[C_O_GRIDS] + seat * cells + cell
        st[ix(o_discard + st[S_DISCARD_LEN])] = st[ix(g)]
        st[S_DISCARD_LEN] += 1
        st[ix(g)] = st[S_HELD]
        st[S_HELD] = -1
        st[ix(o_up + seat)] |= 1 << cell
        st[ix(o_peeked + seat)] &= ~(1 << cell)
        todo, arg = _end_turn(st, cfg, seat)
    elif kind == K_DISCARD:
        st[ix(o_discard + st[S_DISCARD_LEN])] = st[S_HELD]
        st[S_DISCARD_LEN] += 1
        st[S_HELD] = -1
        if cfg[C_FLIP_AFTER] != FLIP_NEVER and st[ix(o_up + seat)] != cfg[C_FULL]:
            st[S_PHASE] = FLIP
        else:
            todo, arg = _end_turn(st, cfg, seat)
    elif kind == K_FLIP:
        st[ix(o_up + seat)] |= 1 << cell
        todo, arg = _end_turn(st, cfg, seat)
    elif kind == K_PASS:
        todo, arg = _end_turn(st, cfg, seat)
    elif kind == K_KNOCK:
        st[S_KNOCKER] = seat
        st[S_ENDER] = seat
        if not cfg[C_FINAL_TURNS]:
            st[ix(cfg[C_O_TURNS] + seat)] += 1
            todo = _END_HOLE
        else:
            todo, arg = _end_turn(st, cfg, seat)
    else:  # setup: reveal or peek
        st[S_CHOSEN] |= 1 << cell
        if kind == K_REVEAL:
            st[ix(o_up + seat)] |= 1 << cell
        else:
            st[ix(o_peeked + seat)] |= 1 << cell
        st[S_SETUP_LEFT] -= 1
        if st[S_SETUP_LEFT] == 0:
            st[S_CHOSEN] = 0
            nxt = next_seat(st, cfg, seat)
            first = next_seat(st, cfg, st[S_DEALER])
            if nxt == first:
                todo, arg = _BEGIN, first
            else:
                st[S_CUR] = nxt
                st[S_SETUP_LEFT] = cfg[C_SETUP_COUNT]
    _settle(st, cfg, todo, arg, rng)
