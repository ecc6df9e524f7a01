"""Playouts for the lab: many matches of one ruleset, each reduced to one row of counts.

Two engines play them (:func:`pick_lab_engine`):

* ``compiled``: :func:`lab_batch`, a loop over :mod:`golf.fast` (the state machine and
  its compiled policies, unchanged), which deals each hole exactly as
  :func:`golf.fast.batch.play_batch` does (a generator seeded by match seed, hole and
  reshuffle alone) and counts, besides scores and turns, the events the lab reports:
  knocks, final turns, matched sets, wild cards, reshuffles, ties and playoffs.
* ``python``: :func:`engine_row`, :class:`golf.Game` with registry bots at a
  :class:`golf.table.Table`, the counts read from the engine's events and hole results.
  The reference, and the fallback where the compiled core refuses the rules or is not
  installed: it needs no numpy (its rows are lists), so a light install measures too,
  many times slower.

Paired deals: match ``d`` of a run is dealt from seed ``match_seed(seed, d)`` only, so a
ruleset and its base see the same cards in every hole of deal ``d`` (as long as both
use the same deck; a rule that changes the deck changes the cards too). Each engine has
its own shuffle, so deal ``d`` is one set of cards in the compiled core and another at
Python tables: compare a ruleset with its base in one engine.

One row (a match) holds the :data:`COLUMNS` counts, over its regular holes (playoff
holes only count in ``playoff_holes``).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import JOKER, RANK_MASK
from ..events import FINAL_TURNS, KNOCKED, RESHUFFLED, Event
from ..game import Game
from ..results import match_seed
from ..rules import Rules
from ..table import Table, bot_seats
from .effects import MAX_HOLES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]

#: Rows of counts, one a deal: a numpy array from the compiled core, a list of lists from
#: the engine's tables (which need no numpy: the light install plays them too).
Rows = Any
#: How to get the compiled core where it is missing.
FAST_EXTRA = "pip install 'golf-cards[fast]'"

#: What one row of counts holds, per match (one deal), in this order.
COLUMNS = (
    "matches",          # 1
    "holes",            # regular holes played
    "player_holes",     # holes x seats dealt in
    "turns",            # every seat's turns, regular holes
    "score",            # sum of hole scores
    "score_sq",         # sum of squared hole scores
    "first_diff",       # per hole: first mover's score - the others' mean, x players-1
    "last_diff",        # the same for the seat moving last in a round, x players-1
    "knocks",           # knocks
    "final_turn_holes",  # holes in which the others got final turns
    "set_grids",        # player-holes whose score a matched set (pair, line, block) changed
    "wild_cards",       # wild cards in the final grids
    "reshuffles",       # reshuffles of the discard pile into a new stock
    "tied",             # 1 if the match ended with more than one winner
    "playoff_matches",  # 1 if the match needed a playoff hole
    "playoff_holes",    # playoff holes played
    "capped",           # 1 if the match was stopped at MAX_HOLES regular holes
)
COL = {name: i for i, name in enumerate(COLUMNS)}
NCOL = len(COLUMNS)

#: The lab's players: a name (as it shows in reports) -> (bot spec for the engine,
#: compiled policy or None). Only policies that play exactly like the bot are paired.
PLAYERS: dict[str, tuple[str, str | None]] = {
    "expert": ("expert", "expert"),
    "random": ("random", "random"),
    "greedy": ("greedy", None),
    "fast-greedy": ("", "fast-greedy"),
    "search": ("search", None),
    "fast-expert": ("fast-expert", "expert"),
}


def pick_lab_engine(rules: Rules, players: int, who: Sequence[str],
                    engine: str = "auto") -> tuple[str, str]:
    """``("compiled" | "python", why)`` for seats played by the lab players ``who``.

    ``auto`` takes the compiled core when it plays the rules and every player has a
    compiled policy; ``python`` always plays at tables; ``compiled`` insists.
    """
    from ..errors import GolfError

    if engine not in ("auto", "python", "compiled"):
        raise GolfError(f"unknown engine {engine!r}; engines are: auto, python, compiled")
    if engine == "python":
        return "python", "asked for" + ("" if compiled_available() else _slower())
    why = None
    missing = [w for w in who if PLAYERS[w][1] is None]
    if missing:
        why = f"{missing[0]} has no compiled policy"
    else:
        try:
            from ..fast.ruleset import UnsupportedRules, config
        except ImportError:  # a light install: numpy and numba are the 'fast' extra
            why = "the compiled core is not installed" + _slower()
        else:
            try:
                config(rules, players)
            except UnsupportedRules as e:
                why = f"the compiled core does not play these rules: {e}"
    if why is None and engine == "compiled":
        # Asked for: played as asked, without the check's seconds of the Python expert.
        return "compiled", ("asked for (its expert was not checked against the Python "
                            "expert's moves)" if "expert" in who else "asked for")
    if why is None and "expert" in who:
        same, total = expert_agreement(rules, players)
        share = f"{100 * same / total:.1f} % of {total} decisions"
        if same >= AGREEMENT_FLOOR * total:
            return "compiled", ("the compiled core plays these rules and players; its expert "
                                f"played the Python expert's move in {share}")
        apart = (f"the compiled expert played the Python expert's move in only {share} "
                 f"under these rules (the lab's floor: {100 * AGREEMENT_FLOOR:.0f} %)")
        return "python", apart + _slower(compiled=True)
    if why is None:
        return "compiled", "the compiled core plays these rules and players"
    if engine == "compiled":
        raise GolfError(f"cannot use the compiled engine: {why}")
    if any(not PLAYERS[w][0] for w in who):
        raise GolfError(f"cannot play these rules: {why}, and "
                        f"{', '.join(w for w in who if not PLAYERS[w][0])} plays only compiled")
    return "python", why


#: The compiled expert stands in for the Python expert in the lab only where it plays like
#: it: :func:`expert_agreement` must find the Python expert's move picked in at least this
#: share of decisions. It is an approximation of the same ideas, not a port; where pairs,
#: adjacent or row-pairs link a big grid (nine-card: 90-94 %) the Python expert samples
#: the unknown cells and the compiled one does not (docs/lab.md, "The compiled expert").
AGREEMENT_FLOOR = 0.95
#: Decisions with a choice compared per ruleset (2 s to 10 s of the Python expert).
AGREEMENT_DECISIONS = 600


@functools.lru_cache(maxsize=512)
def expert_agreement(rules: Rules, players: int,
                     decisions: int = AGREEMENT_DECISIONS) -> tuple[int, int]:
    """``(same, total)``: in the Python expert's own matches (seeds 1000 on, every seat
    the expert, seeded by its seat), the decisions with more than one legal action until
    ``decisions`` were seen, and in how many of them the compiled expert, given the same
    view, picked the same action. Needs the compiled core."""
    from ..bots import make_bot

    same = total = 0
    for m in range(1000):
        g = Game(rules, players=players, seed=1000 + m)
        experts = [make_bot("expert", rules, seed=s) for s in range(players)]
        fast = make_bot("fast-expert", rules)
        while not g.is_over and total < decisions:
            seat, legal = g.current_player, g.legal_actions()
            assert seat is not None  # a match that is not over has a seat to move
            view = g.view(seat, codes=True)
            a = experts[seat].choose(view, legal)
            if len(legal) > 1:
                total += 1
                same += fast.choose(view, legal) == a
            g.apply(a)
        if total >= decisions:
            break
    return same, max(total, 1)


def compiled_available() -> bool:
    """Whether numpy and numba, which the compiled core needs, are installed."""
    for name in ("numpy", "numba"):
        try:
            if importlib.util.find_spec(name) is None:
                return False
        except (ImportError, ValueError):
            return False
    return True


def _slower(compiled: bool = False) -> str:
    if compiled:
        return "; the engine's tables are many times slower"
    return (f"; the engine's tables are many times slower: {FAST_EXTRA} adds the "
            "compiled core")


def seat_plan(who: Sequence[str], players: int, rotation: int) -> list[str]:
    """Who sits where in ``rotation``: the list ``who`` repeated over the seats, turned
    ``rotation`` seats on (so that over every rotation each player sits everywhere)."""
    return [who[(s + rotation) % len(who)] for s in range(players)] if len(who) > 1 \
        else [who[0]] * players


# --- the compiled engine -------------------------------------------------------------

def _compiled() -> Callable[..., Ints]:
    """The compiled loop (built on first use: importing numba costs a second)."""
    global _LAB_BATCH
    if _LAB_BATCH is None:
        _LAB_BATCH = _build()
    return _LAB_BATCH


_LAB_BATCH: Callable[..., Ints] | None = None


def _build() -> Callable[..., Ints]:
    import numpy as np

    from ..actions import K_KNOCK
    from ..fast._jit import jit
    from ..fast.batch import _deal_waiting, _seed_chance, play_action
    from ..fast.layout import (
        C_CELLS,
        C_FINAL_TURNS,
        C_O_LAST_GRIDS,
        C_O_LAST_SCORES,
        C_PLAYERS,
        C_POINTS,
        C_WILD,
        CHANCE_ENGINE,
        DEAL,
        KIND_SHIFT,
        NO_SCORE,
        S_CUR,
        S_HOLES_ENDED,
        S_LAST_KNOCKER,
        S_LAST_PLAYOFF,
        S_LAST_WENT_OUT,
        S_N_PLAYOFF,
        S_PHASE,
        S_WINNERS,
    )
    from ..fast.machine import (
        MAX_LEGAL,
        new_state,
        popcount,
        start_match,
    )
    from ..fast.policies import choose
    from ..phases import OVER, TURN

    rank_mask = RANK_MASK

    @jit
    def lab_batch(cfg: Ints, seeds: Ints, policies: Ints, ncol: int, max_holes: int) -> Ints:
        n = cfg[C_PLAYERS]
        cells = cfg[C_CELLS]
        out = np.zeros((seeds.shape[0], ncol), dtype=np.int64)
        legal = np.empty(MAX_LEGAL, dtype=np.int64)
        scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
        chance = np.zeros(1, dtype=np.uint64)
        decide = np.zeros(1, dtype=np.uint64)
        o_last, o_scores = cfg[C_O_LAST_GRIDS], cfg[C_O_LAST_SCORES]
        for m in range(seeds.shape[0]):
            seed = seeds[m]
            row = out[m]
            row[0] = 1
            _seed_chance(decide, seed, 1 << 20, 1)  # the policies' own stream, as play_batch
            st = new_state(cfg, CHANCE_ENGINE)
            start_match(st, cfg, chance)
            _deal_waiting(st, cfg, seed, chance)
            mover = -1
            turns = 0
            knocks = 0
            shuffles = 0
            while st[S_PHASE] != OVER:
                if row[1] >= max_holes:
                    row[16] = 1
                    break
                seat = st[S_CUR]
                if mover < 0:
                    mover = seat
                if st[S_PHASE] == TURN:
                    turns += 1
                a = choose(st, cfg, policies[m, seat], decide, legal, scratch)
                if a >> KIND_SHIFT == K_KNOCK:
                    knocks += 1
                ended = st[S_HOLES_ENDED]
                if play_action(st, cfg, a, seed, chance):
                    shuffles += 1
                while True:
                    if st[S_HOLES_ENDED] != ended:
                        ended = st[S_HOLES_ENDED]
                        if st[S_LAST_PLAYOFF]:
                            row[15] += 1
                        else:
                            row[1] += 1
                            row[3] += turns
                            row[8] += knocks
                            row[12] += shuffles
                            if cfg[C_FINAL_TURNS] and (st[S_LAST_KNOCKER] >= 0
                                                       or st[S_LAST_WENT_OUT] >= 0):
                                row[9] += 1
                            total = 0
                            dealt = 0
                            for s in range(n):
                                sc = st[o_scores + s]
                                if sc == NO_SCORE:
                                    continue
                                dealt += 1
                                total += sc
                                row[4] += sc
                                row[5] += sc * sc
                                plain = 0
                                for i in range(cells):
                                    r = st[o_last + s * cells + i] & rank_mask
                                    plain += cfg[C_POINTS + r]
                                    row[11] += cfg[C_WILD + r]
                                if plain != sc:
                                    row[10] += 1
                            row[2] += dealt
                            if dealt > 1:
                                last = mover - 1 if mover > 0 else n - 1
                                fsc = st[o_scores + mover]
                                lsc = st[o_scores + last]
                                # x (dealt - 1): the others' mean without a division
                                row[6] += fsc * (dealt - 1) - (total - fsc)
                                row[7] += lsc * (dealt - 1) - (total - lsc)
                        turns = 0
                        knocks = 0
                        shuffles = 0
                        mover = -1
                    if st[S_PHASE] != DEAL:
                        break
                    _deal_waiting(st, cfg, seed, chance)
            if st[S_PHASE] == OVER and popcount(st[S_WINNERS]) > 1:
                row[13] = 1
            if st[S_N_PLAYOFF] > 0:
                row[14] = 1
        return out

    return lab_batch


def compiled_rows(rules: Rules, players: int, seats: Sequence[str], seeds: Sequence[int]
                  ) -> Ints:
    """One row of :data:`COLUMNS` per match seed, seat ``s`` played by the compiled
    policy of lab player ``seats[s]``, in the compiled core."""
    import numpy as np

    from ..fast.batch import policy_config
    from ..fast.policies import POLICIES

    pols = [PLAYERS[w][1] for w in seats]
    assert all(p is not None for p in pols)
    cfg = policy_config(rules, players, [str(p) for p in pols])
    row = [POLICIES[str(p)] for p in pols]
    pol = np.array([row] * len(seeds), dtype=np.int64).reshape(len(seeds), players)
    return _compiled()(cfg, np.array(list(seeds), dtype=np.int64), pol, NCOL, MAX_HOLES)


# --- the engine ----------------------------------------------------------------------

def engine_row(rules: Rules, players: int, seats: Sequence[str], seed: int) -> list[int]:
    """The :data:`COLUMNS` counts of one match at a Python table (bots from the
    registry, seeded by :func:`golf.table.bot_seed`), read from the engine's events."""
    g = Game(rules, players=players, seed=seed)
    specs = [PLAYERS[w][0] for w in seats]
    table = Table(g, bot_seats(specs, rules, seed), events=True)
    row = [0] * NCOL
    row[0] = 1
    wild = [1 if rules.jokers_wild and r == JOKER else 0 for r in range(15)]
    turns = knocks = shuffles = finals = 0
    mover = -1
    try:
        while not g.is_over:
            if row[COL["holes"]] >= MAX_HOLES:
                row[COL["capped"]] = 1
                break
            turn = table.step()
            if mover < 0:
                mover = turn.seat
            if turn.phase == "turn":
                turns += 1
            event = turn.event
            assert isinstance(event, Event)
            for fact in event.facts:
                if fact[0] == KNOCKED:
                    knocks += 1
                elif fact[0] == RESHUFFLED:
                    shuffles += 1
                elif fact[0] == FINAL_TURNS:
                    finals = 1
            res = event.result
            if res is None:
                continue
            if res.playoff:
                row[COL["playoff_holes"]] += 1
            else:
                row[COL["holes"]] += 1
                row[COL["turns"]] += turns
                row[COL["knocks"]] += knocks
                row[COL["reshuffles"]] += shuffles
                row[COL["final_turn_holes"]] += finals
                dealt = [s for s, sc in enumerate(res.scores) if sc is not None]
                total = sum(int(res.scores[s] or 0) for s in dealt)
                for s in dealt:
                    sc = int(res.scores[s] or 0)
                    row[COL["score"]] += sc
                    row[COL["score_sq"]] += sc * sc
                    grid = res.grids[s]
                    plain = sum(rules.points[c & RANK_MASK] for c in grid)
                    row[COL["wild_cards"]] += sum(wild[c & RANK_MASK] for c in grid)
                    if plain != sc:
                        row[COL["set_grids"]] += 1
                row[COL["player_holes"]] += len(dealt)
                if len(dealt) > 1:
                    last = mover - 1 if mover > 0 else players - 1
                    k = len(dealt) - 1
                    fsc, lsc = int(res.scores[mover] or 0), int(res.scores[last] or 0)
                    row[COL["first_diff"]] += fsc * k - (total - fsc)
                    row[COL["last_diff"]] += lsc * k - (total - lsc)
            turns = knocks = shuffles = finals = 0
            mover = -1
    finally:
        table.close()
    if g.is_over and len(g.winners) > 1:
        row[COL["tied"]] = 1
    if row[COL["playoff_holes"]]:
        row[COL["playoff_matches"]] = 1
    return row


def play_rows(rules: Rules, players: int, who: Sequence[str], deals: int, seed: int,
              engine: str, first_deal: int = 0) -> Rows:
    """Rows for deals ``first_deal`` .. ``first_deal + deals - 1`` of ``seed``: with one
    lab player, one match a deal; with several, one match per rotation of the seats
    (summed into the deal's row for each player: see :func:`skill_rows`)."""
    seeds = [match_seed(seed, d) for d in range(first_deal, first_deal + deals)]
    seats = seat_plan(who, players, 0)
    if engine == "compiled":
        return compiled_rows(rules, players, seats, seeds)
    return [engine_row(rules, players, seats, s) for s in seeds]


def skill_rows(rules: Rules, players: int, pair: Sequence[str], deals: int, seed: int,
               engine: str, first_deal: int = 0) -> Rows:
    """Per deal, every rotation of the seats between lab players ``pair`` = (a, b):
    ``[a's score sum, a's player-holes, b's score sum, b's player-holes]``, so that
    ``b's mean - a's mean`` compares the two on the same cards from every seat."""
    from ..simulate import play_match

    a, b = pair
    if not rules.holes:  # a target alone may never be reached: stop at MAX_HOLES holes
        rules = dataclasses.replace(rules, holes=MAX_HOLES)
    plans = [seat_plan([a, b], players, k) for k in range(players)]
    seeds = [match_seed(seed, d) for d in range(first_deal, first_deal + deals)]
    if engine == "compiled":
        import numpy as np

        from ..fast.batch import play_batch, policy_config
        from ..fast.layout import C_HOLES
        from ..fast.policies import POLICIES

        out = np.zeros((deals, 4), dtype=np.int64)
        pols = [str(PLAYERS[w][1]) for w in pair]
        cfg = policy_config(rules, players, pols)
        rows = [[POLICIES[str(PLAYERS[w][1])] for w in plan] for plan in plans]
        pol = np.array([rows[k] for _ in seeds for k in range(players)], dtype=np.int64)
        sd = np.array([s for s in seeds for _ in range(players)], dtype=np.int64)
        cap = int(cfg[C_HOLES]) or 64
        while True:
            scores, _, _, regular, _, _ = play_batch(cfg, sd, pol, cap)
            if int(regular.max()) <= cap:
                break
            cap = int(regular.max())
        for m in range(len(sd)):
            d, k = divmod(m, players)
            h = int(regular[m])
            for s, who in enumerate(plans[k]):
                col = 0 if who == a else 2
                out[d, col] += int(scores[m, :h, s].sum())
                out[d, col + 1] += h
        return out
    rows = [[0, 0, 0, 0] for _ in seeds]
    for d, sd_ in enumerate(seeds):
        for plan in plans:
            res = play_match(rules, players, [PLAYERS[w][0] for w in plan], sd_)
            for s, who in enumerate(plan):
                col = 0 if who == a else 2
                rows[d][col] += sum(h[s] for h in res.hole_scores)
                rows[d][col + 1] += len(res.hole_scores)
    return rows


def first_deal(rules: Rules, players: int, seed: int, engine: str) -> list[list[int]]:
    """The grids dealt in the first hole of the match of ``seed`` (card codes, seat by
    seat) in ``engine``: what pairing rests on."""
    if engine == "python":
        g = Game(rules, players=players, seed=seed)
        return [list(grid) for grid in g.state.hole.grids]
    import numpy as np

    from ..fast.batch import _deal_waiting
    from ..fast.layout import C_CELLS, C_O_GRIDS, CHANCE_ENGINE
    from ..fast.machine import new_state, start_match
    from ..fast.ruleset import config

    cfg = config(rules, players)
    chance = np.zeros(1, dtype=np.uint64)
    st = new_state(cfg, CHANCE_ENGINE)
    start_match(st, cfg, chance)
    _deal_waiting(st, cfg, seed, chance)
    cells, at = int(cfg[C_CELLS]), int(cfg[C_O_GRIDS])
    return [[int(c) for c in st[at + s * cells: at + (s + 1) * cells]] for s in range(players)]
