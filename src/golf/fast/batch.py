"""Batch simulation in the compiled core: what ``golf simulate --engine compiled`` runs.

:func:`run_compiled` plays the same matches as :func:`golf.simulate.run_matches` asks
for (one per match seed, or with ``duplicate`` every rotation of every deal) with one
compiled policy per seat, and returns the same :class:`~golf.results.MatchResult`
records (hole scores, turns, who moved first, totals, winners), so every report of the
simulator (means, intervals, win rates, duplicate pairing, CSV, plot) reads them alike.

Which bots it can play: :data:`COMPILED_BOTS` maps a bot spec to the compiled policy
that plays it. Only policies that decide as the Python bot does belong there:

* ``random``: uniform among the legal actions, like the ``random`` bot: the same
  distribution, but another random stream (a compiled match of seed s is not the
  Python match of seed s).
* ``fast-expert``: the compiled expert policy (:mod:`golf.fast.expert`); the
  ``fast-expert`` bot is that policy behind the bot interface (it decides from the view
  alone, and ``tests/test_fast_expert.py`` holds bot and policy to the same moves). The
  ``expert`` bot is another player and is not mapped.
* ``greedy`` is **not** mapped: the compiled ``fast-greedy`` policy values unknown
  cards at the deck's mean with the core's scorer, where the ``greedy`` bot uses the
  engine's estimator, and they pick different actions in about one decision in twenty
  (``tests/test_simulate_compiled.py`` measures it). It is a different policy, so it has
  another name, and plays in :func:`golf.fast.play` under that name only.

Chance is explicit and per hole, like the engine's: the deal of hole h and its n-th
reshuffle come from a generator seeded by (match seed, h, n) alone, so every rotation
of a duplicate deal gets the same cards, whatever the bots did before. Decisions of the
random policy draw from a second generator per match. The shuffles are the core's own
(splitmix64), not the engine's, so a compiled match is not the Python match of the
same seed; its statistics are those of the same bots on other deals.

>>> from golf import load_rules
>>> rs = run_compiled(load_rules("six-card"), 2, ("random", "random"), games=3, seed=1)
>>> len(rs), len(rs[0].hole_scores), rs[0].bots
(3, 9, ('random', 'random'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..errors import GolfError
from ..phases import OVER, TURN
from ..results import MatchResult, match_seed, rotated
from ..rules import Rules
from ._jit import jit
from .layout import (
    C_DECK,
    C_HOLES,
    C_O_LAST_SCORES,
    C_O_PERM,
    C_O_RPERM,
    C_O_TOTALS,
    C_PLAYERS,
    CHANCE_ENGINE,
    DEAL,
    S_CUR,
    S_HOLE,
    S_HOLES_ENDED,
    S_LAST_PLAYOFF,
    S_PERM_FOR,
    S_PHASE,
    S_RESHUFFLES,
    S_RPERM_FOR,
    S_WINNERS,
)
from .machine import (
    MAX_LEGAL,
    below,
    needs_reshuffle,
    new_state,
    next_u64,
    reshuffle_key,
    resume_deal,
    start_match,
    step,
)
from .policies import POLICIES, choose
from .ruleset import UnsupportedRules, config

Ints = npt.NDArray[np.int64]
Rng = npt.NDArray[np.uint64]

#: Bot spec -> the compiled policy that plays exactly that bot (see the module docs).
COMPILED_BOTS: dict[str, str] = {"random": "random", "fast-expert": "expert"}
#: Bots with a compiled namesake that does not play like them, and why.
NOT_THE_SAME: dict[str, str] = {
    "greedy": "the compiled fast-greedy policy estimates unknown cards differently and "
              "picks another action in about one decision in twenty, so it does not stand "
              "in for the greedy bot",
    "expert": "the compiled expert policy is the fast-expert bot, another player than the "
              "expert bot; use --bots fast-expert to play it compiled",
}
#: Matches per compiled call: progress is reported between calls.
CHUNK = 2000


def compiled_policy(spec: str) -> str | None:
    """The compiled policy that plays the bot ``spec``, or None.

    >>> compiled_policy("random"), compiled_policy("fast-expert"), compiled_policy("expert")
    ('random', 'expert', None)
    """
    return COMPILED_BOTS.get(spec.strip())


def why_not_compiled(rules: Rules, players: int, specs: Sequence[str]) -> str | None:
    """Why these seats cannot be played compiled (None: they can)."""
    missing = [s for s in dict.fromkeys(specs) if compiled_policy(s) is None]
    if missing:
        name = missing[0].strip()
        why = f": {NOT_THE_SAME[name]}" if name in NOT_THE_SAME else ""
        return (f"bot {missing[0]!r} has no compiled policy{why} (compiled: "
                f"{', '.join(COMPILED_BOTS)})")
    try:
        config(rules, players)
    except ImportError as e:  # pragma: no cover - numba is a dependency of golf.fast
        return f"the compiled core needs {e.name or e}"
    except UnsupportedRules as e:
        return str(e)
    return None


@jit
def _seed_chance(rng: Rng, seed: int, hole: int, shuffle: int) -> None:
    """``rng`` becomes the generator of shuffle ``shuffle`` of hole ``hole`` of a match."""
    rng[0] = (np.uint64(seed) ^ np.uint64(hole) * np.uint64(0xD1B54A32D192ED03)
              ^ np.uint64(shuffle) * np.uint64(0x8CB92BA72F3D8DD7))
    next_u64(rng)


@jit
def _permute(st: Ints, at: int, length: int, rng: Rng) -> None:
    for i in range(length):
        st[at + i] = i
    for i in range(length - 1, 0, -1):
        j = below(rng, i + 1)
        st[at + i], st[at + j] = st[at + j], st[at + i]


@jit
def play_action(st: Ints, cfg: Ints, a: int, seed: int, rng: Rng) -> bool:
    """Play action ``a`` in the match of ``seed``; a reshuffle it causes draws from that
    reshuffle's own generator (seeded by match, hole and reshuffle, as every deal is by
    match and hole). True when it reshuffled the discard pile. Every batch loop plays
    through here (this module's and golf.lab's), so they shuffle alike."""
    length = needs_reshuffle(st, cfg, a)
    if length:
        _seed_chance(rng, seed, st[S_HOLE], st[S_RESHUFFLES] + 1)
        _permute(st, cfg[C_O_RPERM], length, rng)
        st[S_RPERM_FOR] = reshuffle_key(st)
    step(st, cfg, a, rng)
    return length > 0


@jit
def _deal_waiting(st: Ints, cfg: Ints, seed: int, rng: Rng) -> None:
    """Deal the hole waiting in phase DEAL with its own generator."""
    hole = st[S_HOLE]
    _seed_chance(rng, seed, hole, 0)
    _permute(st, cfg[C_O_PERM], cfg[C_DECK], rng)
    st[S_PERM_FOR] = hole
    resume_deal(st, cfg, rng)


@jit
def play_batch(cfg: Ints, seeds: Ints, policies: Ints, cap: int
               ) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """Play one match per seed, seat s of match m by ``policies[m, s]``; record at most
    ``cap`` regular holes a match. Returns (hole scores [m, hole, seat], turns [m, hole,
    seat], first seat [m, hole], regular holes [m], totals [m, seat], winners mask [m]);
    a match with more than ``cap`` regular holes reports its count, recording ``cap``."""
    n = cfg[C_PLAYERS]
    m_count = seeds.shape[0]
    scores = np.zeros((m_count, cap, n), dtype=np.int64)
    turns = np.zeros((m_count, cap, n), dtype=np.int64)
    first = np.zeros((m_count, cap), dtype=np.int64)
    regular = np.zeros(m_count, dtype=np.int64)
    totals = np.zeros((m_count, n), dtype=np.int64)
    winners = np.zeros(m_count, dtype=np.int64)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    chance = np.zeros(1, dtype=np.uint64)
    decide = np.zeros(1, dtype=np.uint64)
    hole_turns = np.zeros(n, dtype=np.int64)
    o_scores, o_tot = cfg[C_O_LAST_SCORES], cfg[C_O_TOTALS]
    for m in range(m_count):
        seed = seeds[m]
        _seed_chance(decide, seed, 1 << 20, 1)  # the policies' own stream
        st = new_state(cfg, CHANCE_ENGINE)
        start_match(st, cfg, chance)
        _deal_waiting(st, cfg, seed, chance)
        hole_turns[:] = 0
        mover = -1
        h = 0
        while st[S_PHASE] != OVER:
            seat = st[S_CUR]
            if mover < 0:
                mover = seat
            if st[S_PHASE] == TURN:
                hole_turns[seat] += 1
            a = choose(st, cfg, policies[m, seat], decide, legal, scratch)
            ended = st[S_HOLES_ENDED]
            play_action(st, cfg, a, seed, chance)
            while True:
                if st[S_HOLES_ENDED] != ended:
                    ended = st[S_HOLES_ENDED]
                    if not st[S_LAST_PLAYOFF]:
                        if h < cap:
                            for s in range(n):
                                scores[m, h, s] = st[o_scores + s]
                                turns[m, h, s] = hole_turns[s]
                            first[m, h] = mover
                        h += 1
                    hole_turns[:] = 0
                    mover = -1
                if st[S_PHASE] != DEAL:
                    break
                _deal_waiting(st, cfg, seed, chance)
        regular[m] = h
        for s in range(n):
            totals[m, s] = st[o_tot + s]
        winners[m] = st[S_WINNERS]
    return scores, turns, first, regular, totals, winners


def policy_config(rules: Rules, players: int, policies: Sequence[str]) -> Ints:
    """The config array the compiled ``policies`` play under (the expert keeps tables
    of its own at its end)."""
    if "expert" in policies:
        from .expert import expert_config

        return expert_config(rules, players)
    return config(rules, players)


def _policy_row(seats: Sequence[str]) -> list[int]:
    return [POLICIES[COMPILED_BOTS[s.strip()]] for s in seats]


def run_compiled(
    rules: Rules, players: int, seats: Sequence[str], games: int, seed: int,
    progress: Callable[[int, int], None] | None = None, duplicate: bool = False,
) -> list[MatchResult]:
    """The matches :func:`golf.simulate.run_matches` would play (same match seeds and
    indices, same rotations with ``duplicate``), played by the compiled policies of
    ``seats`` (one spec per seat) in this process."""
    why = why_not_compiled(rules, players, seats)
    if why:
        raise GolfError(f"cannot play compiled: {why}")
    cfg = policy_config(rules, players, [COMPILED_BOTS[s.strip()] for s in seats])
    if duplicate:
        plan = [(d * players + k, match_seed(seed, d), rotated(seats, k))
                for d in range(games) for k in range(players)]
    else:
        plan = [(i, match_seed(seed, i), tuple(seats)) for i in range(games)]
    cap = int(cfg[C_HOLES]) or 32
    results: list[MatchResult] = []
    for start in range(0, len(plan), CHUNK):
        part = plan[start:start + CHUNK]
        seeds = np.array([p[1] for p in part], dtype=np.int64)
        pol = np.array([_policy_row(p[2]) for p in part], dtype=np.int64)
        out = play_batch(cfg, seeds, pol, cap)
        if int(out[3].max()) > cap:  # a long match (target-only rules): replay wider
            cap = int(out[3].max())
            out = play_batch(cfg, seeds, pol, cap)
        results += _records(part, out, players)
        if progress:
            progress(len(results), len(plan))
    return results


def _records(
    part: Sequence[tuple[int, int, tuple[str, ...]]],
    out: tuple[Ints, Ints, Ints, Ints, Ints, Ints], players: int,
) -> list[MatchResult]:
    scores, turns, first, regular, totals, winners = (x.tolist() for x in out)
    recs = []
    for j, (index, seed, bots) in enumerate(part):
        h = regular[j]
        recs.append(MatchResult(
            index, seed, tuple(bots), tuple(tuple(r) for r in scores[j][:h]),
            tuple(tuple(r) for r in turns[j][:h]), tuple(first[j][:h]), tuple(totals[j]),
            tuple(s for s in range(players) if winners[j] >> s & 1),
        ))
    return recs


