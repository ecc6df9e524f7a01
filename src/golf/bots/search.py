"""The ``search`` bot: determinized Monte Carlo search in the compiled core.

At each decision it samples worlds consistent with its seat's view (every card it
cannot see dealt at random among the places it cannot see: the stock, face-down cells,
a card another player drew), plays legal actions in each world, and lets every seat
play a compiled policy (by default the compiled expert of :mod:`golf.fast.expert`) to
the end of the hole. It picks the action with the best mean margin over its best
opponent (see :mod:`golf.fast.search`). The actions compared are tried in the same
worlds, so close actions are compared on equal luck.

The simulations are spread over the root actions by sequential halving: the budget is
cut into rounds (one fewer than the bits of the number of actions), each round gives
every action still in the race the same new worlds, and only the better half goes on.
Good actions get most of the playouts; integer sums compare the means because the
actions in the race always have equal counts.

It never sees the game, only the view: the worlds come from :func:`view_worlds`,
which reads the view and the rules alone through :mod:`golf.knowledge`.
:func:`clairvoyant_choose` is the same search given the whole game (a bound for
benchmarks, not a bot).

Options:

* ``ms`` (time per decision, default 50; each halving round gets an equal share) or
  ``sims`` (a fixed number of playouts per decision; it overrides ``ms`` and makes
  decisions reproducible: they then depend only on the view, the seed and the options);
* ``playout``: ``expert`` (default), ``careful`` (fast-greedy that does not go out
  when behind) or ``fast-greedy`` (the compiled greedy policy, not the ``greedy`` bot),
  see :mod:`golf.fast.search`;
* ``root``: ``halving`` (default) or ``even`` (every action in every world);
* ``z`` (default 1): the playout policy's own move (the *anchor*, played in every
  world) is left only for an action whose paired advantage over it is ``z`` standard
  errors clear over at least 8 worlds (0: always the best mean); with fewer than
  ``thin`` worlds (default 40: a short budget or a loaded machine) it must be ``zthin``
  (default 2.5) standard errors clear, as a spread measured over few worlds is itself
  unreliable;
* ``turns``: stop each playout after that many turns and value the position by
  estimates (0, the default: play to the end of the hole);
* ``sigma`` (points a hole; 0, the default, values the margin alone): value a finished
  hole by the margin plus what it makes of winning the match under a normal model of
  the holes left, each moving the margin by ``sigma`` (``golf.fast.search.match_value``).

``docs/search.md`` has the measurements behind the defaults. Needs the ``fast`` extra
(numba).

>>> from golf import Game
>>> from golf.bots import make_bot
>>> g = Game("six-card", players=2, seed=4)
>>> bot = make_bot("search:sims=60", g.rules, seed=1)
>>> for _ in range(4):
...     g.apply(g.legal_actions()[0])
>>> a = bot.choose(g.view(g.current_player, codes=True), g.legal_actions())
>>> a in g.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..actions import Action
from ..errors import GolfError
from ..fast import FastGame
from ..fast.expert import expert_config
from ..fast.layout import C_CELLS, C_O_GRIDS, C_O_STOCK, S_HELD, S_STOCK_LEN
from ..fast.machine import seed_rng
from ..fast.search import PLAYOUTS, policy_choice, simulate_paired
from ..game import Game
from ..knowledge import Sampler
from ..knowledge import Slot as KnownSlot
from ..rules import Rules
from .base import Bot, Option, register

#: A place a seat cannot see: ("stock", i), ("held", seat) or ("grid", seat, cell).
Slot = tuple[Any, ...]
#: Worlds per compiled call in time-budget mode: small, so the budget is overshot little.
_BATCH = 1
#: How the simulations are spread over the root actions: ``halving`` (sequential
#: halving: equal rounds, each keeping the better half of the actions) or ``even``.
ROOTS = ("halving", "even")
#: Fewest worlds in which an action must beat the anchor before the bot plays it.
_MIN_WORLDS = 8
#: Not empty once this process has run a search (its compiled code is loaded).
_LOADED: list[bool] = []


def _rounds(n: int) -> int:
    """Rounds of sequential halving that bring ``n`` actions down to one."""
    return max(1, (n - 1).bit_length())


class _Runner:
    """One decision's compiled search: the template, its unknown places, the generator,
    and per root action the value sums, playouts, and the sums and squares of its
    advantage over the anchor (the playout policy's own choice) in the same worlds."""

    def __init__(self, template: np.ndarray[Any, Any], cfg: np.ndarray[Any, Any],
                 slots: np.ndarray[Any, Any], cards: np.ndarray[Any, Any],
                 ends: np.ndarray[Any, Any], seat: int, rng: np.ndarray[Any, Any],
                 policy: int, turns: int, actions: Sequence[int], sigma: int = 0) -> None:
        self.args = (template, cfg, slots, cards, ends)
        self.seat, self.rng, self.policy, self.turns = seat, rng, policy, turns
        self.sigma = sigma
        self.actions = list(actions)
        code = int(policy_choice(template, cfg, policy))
        self.anchor = self.actions.index(code) if code in self.actions else 0
        n = len(actions)
        self.sums, self.counts = [0] * n, [0] * n
        self.ahead, self.squares, self.own = [0] * n, [0] * n, [0] * n

    @property
    def sims(self) -> int:
        return sum(self.counts)

    def fixed(self, alive: Sequence[int], worlds: int) -> None:
        """Play the ``alive`` actions and the anchor in ``worlds`` new worlds."""
        order = [self.anchor, *(i for i in alive if i != self.anchor)]
        codes = np.array([self.actions[i] for i in order], dtype=np.int64)
        sums = np.zeros(len(order), dtype=np.int64)
        counts = np.zeros(len(order), dtype=np.int64)
        squares = np.zeros(len(order), dtype=np.int64)
        own = np.zeros(len(order), dtype=np.int64)
        simulate_paired(*self.args, codes, self.seat, worlds, self.rng, sums, counts,
                        squares, own, self.policy, self.turns, self.sigma)
        for k, i in enumerate(order):
            self.sums[i] += int(sums[k])
            self.counts[i] += int(counts[k])
            self.ahead[i] += int(sums[k]) - int(sums[0])
            self.squares[i] += int(squares[k])
            self.own[i] += int(own[k])

    def until(self, alive: Sequence[int], stop: float) -> None:
        """Play the ``alive`` actions in one new world at a time (at least once) while
        another world is expected to end before ``stop``."""
        t = time.perf_counter()
        self.fixed(alive, _BATCH)
        now = time.perf_counter()
        while now + (now - t) < stop:
            t = now
            self.fixed(alive, _BATCH)
            now = time.perf_counter()

    def better_half(self, alive: Sequence[int]) -> list[int]:
        """The better half of ``alive`` by value sums (equal counts), and the anchor."""
        ranked = sorted(alive, key=lambda i: -self.sums[i])[:-(-len(alive) // 2)]
        return sorted({*ranked, self.anchor})

    def top(self, alive: Sequence[int]) -> int:
        """The action of ``alive`` with the best value sum (the anchor on a tie)."""
        return max(alive, key=lambda i: (self.sums[i], i == self.anchor, -i))

    def best(self, alive: Sequence[int], z4: int, thin: int = 0, thin_z4: int = 0) -> int:
        """The action with the best value sum, unless its advantage over the anchor is
        not ``z`` standard errors clear (``z4`` = 400 z²) over at least
        :data:`_MIN_WORLDS` worlds (and ``thin_z4`` = 400 z² of the ``zthin`` option
        with fewer than ``thin`` worlds): then the anchor. Integers only: the test is
        400 S² (n-1) > z4 (n Q - S²) for the advantage's sum S, its squares' sum Q and
        n worlds."""
        top = self.top(alive)
        if top == self.anchor or not z4:
            return top
        s, q, n = self.ahead[top], self.squares[top], self.counts[top]
        need = max(z4, thin_z4) if n < thin else z4
        if s > 0 and n >= _MIN_WORLDS and 400 * s * s * (n - 1) > need * (n * q - s * s):
            return top
        return self.anchor


@dataclass(frozen=True)
class Measured:
    """What one decision's search measured, and what it chose: per legal action (by
    index) its playouts, its mean value (points: the seat's margin over the best other
    player after the hole, higher is better) and its paired advantage over the anchor
    (the playout policy's own move) in the worlds they shared.

    ``top`` is the action with the best value among those left in the race, ``chosen``
    the search's choice (``top`` when its advantage is clear by the ``z`` test, else
    ``anchor``). For benchmarks and analysis (``bench/anchor.py``)."""

    legal: tuple[Action, ...]
    anchor: int
    top: int
    chosen: int
    counts: tuple[int, ...]
    means: tuple[float, ...]
    #: Per action: the sum over shared worlds of its value less the anchor's
    #: (hundredths of a point), and the sum of the squares of those differences.
    ahead: tuple[int, ...]
    squares: tuple[int, ...]

    def clearness(self, i: int) -> float:
        """How many standard errors action ``i``'s mean advantage over the anchor is
        above zero (the statistic the ``z`` option is compared with; 0 for the anchor,
        an action with fewer than two worlds or a spread of zero)."""
        s, q, n = self.ahead[i], self.squares[i], self.counts[i]
        if i == self.anchor or n < 2:
            return 0.0
        var = (n * q - s * s) / (n - 1)
        return s / math.sqrt(var) if var > 0 else 0.0


def view_worlds(view: Mapping[str, Any], rules: Rules
                ) -> tuple[dict[str, Any], list[tuple[list[Slot], list[int]]]]:
    """A position holding every fact of ``view`` (its unknown places filled with some
    cards consistent with it), and the groups of unknown places with the cards that
    fill them: every world consistent with the view is a shuffle of each group's cards
    over its places, all equally likely under uniform shuffles.

    Both come from :mod:`golf.knowledge`, the one definition of what a seat knows: before
    the stock is reshuffled every unknown place takes any card the seat has not seen;
    after a reshuffle the stock (and a card another player drew from it) take the public
    stock's cards and the face-down cells the rest.
    """
    sampler = Sampler(view, rules, 0)
    k = sampler.knowledge
    order = [i for g in k.groups for i in g.slots]
    if order != list(range(len(k.slots))):  # pragma: no cover - knowledge's documented order
        raise GolfError("golf.knowledge groups are not in slot order")
    groups = [([_place(k.slots[i]) for i in g.slots], list(g.cards)) for g in k.groups]
    return sampler.position(sampler.filled()), groups


def _place(slot: KnownSlot) -> Slot:
    if slot.place == "stock":
        return ("stock", slot.at)
    if slot.place == "held":
        return ("held", slot.seat)
    return ("grid", slot.seat, slot.at)


@register
class SearchBot(Bot):
    """Determinized search with compiled playouts; see the module docs."""

    name = "search"
    defaults: ClassVar[Mapping[str, Any]] = {"ms": 50.0, "sims": 0, "playout": "expert",
                                             "root": "halving", "turns": 0, "z": 1.0,
                                             "zthin": 2.5, "thin": 40, "sigma": 0.0}

    def __init__(self, rules: Rules, seed: int = 0, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        o = self.options
        if o["sims"] < 0 or o["ms"] <= 0:
            raise GolfError("bot 'search': sims must be >= 0 (0: use the time budget ms) "
                            f"and ms > 0, got sims={o['sims']}, ms={o['ms']}")
        if not 0 <= o["z"] <= 10:
            raise GolfError(f"bot 'search': z must be from 0 (take the best mean) to 10, "
                            f"got z={o['z']}")
        if not 0 <= o["zthin"] <= 10 or o["thin"] < 0:
            raise GolfError(f"bot 'search': zthin must be from 0 to 10 and thin >= 0 (worlds "
                            f"below which zthin applies), got zthin={o['zthin']}, "
                            f"thin={o['thin']}")
        if not 0 <= o["sigma"] <= 50:
            raise GolfError(f"bot 'search': sigma must be from 0 (value the margin) to 50 "
                            f"points a hole, got sigma={o['sigma']}")
        if o["turns"] < 0:
            raise GolfError(f"bot 'search': turns must be >= 0 (0: play each hole to its "
                            f"end), got turns={o['turns']}")
        if o["playout"] not in PLAYOUTS:
            raise GolfError(f"bot 'search': playout={o['playout']!r} is not a playout "
                            f"policy; choose one of: {', '.join(PLAYOUTS)}")
        if o["root"] not in ROOTS:
            raise GolfError(f"bot 'search': root={o['root']!r} is not a way to spread the "
                            f"simulations; choose one of: {', '.join(ROOTS)}")
        self.last_sims = 0  # playouts of the last decision (for benchmarks)

    #: What an option's value means, for the coach's hints.
    value_meaning = ("your score for the hole less the best other player's, averaged over "
                     "the search's sampled deals played out")

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.last_sims = 0
            return legal[0]
        return legal[self._decide(view, legal)[2]]

    def _decide(self, view: Mapping[str, Any], legal: Sequence[Action]
                ) -> tuple[_Runner, list[int], int]:
        """One decision's search from the view: the runner, the actions left in the
        race and the index of the chosen one (what choose and explain share)."""
        start = time.perf_counter()
        position, groups = view_worlds(view, self.rules)
        run, alive = self._run(position, groups, legal, int(view["seat"]),
                               self._decision_seed(view), start)
        return run, alive, self._pick(run, alive)

    def measure(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Measured:
        """The same search as :meth:`choose` (same worlds, same choice), with what it
        measured of every action.

        >>> from golf import Game
        >>> from golf.bots import make_bot
        >>> g = Game("six-card", players=2, seed=4)
        >>> for _ in range(4):
        ...     g.apply(g.legal_actions()[0])
        >>> bot = make_bot("search:sims=60", g.rules, seed=1)
        >>> view, legal = g.view(g.current_player, codes=True), g.legal_actions()
        >>> m = bot.measure(view, legal)
        >>> m.legal[m.chosen] == bot.choose(view, legal)
        True
        """
        run, alive, chosen = self._decide(view, legal)
        return Measured(tuple(legal), run.anchor, run.top(alive), chosen, tuple(run.counts),
                        tuple(s / (100 * n) if n else 0.0
                              for s, n in zip(run.sums, run.counts, strict=True)),
                        tuple(run.ahead), tuple(run.squares))

    def explain(self, view: Mapping[str, Any], legal: Sequence[Action]) -> list[Option]:
        """Every legal action with what the search measured of it, its choice first
        (which is not the best value when the playout policy's own move is kept because
        no other beat it clearly, see the ``z`` option), then the others by value
        (lower is better): ``value`` is the seat's score for
        the hole less the best other player's (the change of its deficit, with the
        :data:`~golf.fast.search.WIN_BONUS` of a won match where the hole ends it),
        ``expected`` its own score for the hole, both means over the action's playouts.

        >>> from golf import Game
        >>> g = Game("six-card", players=2, seed=4)
        >>> for _ in range(4):
        ...     g.apply(g.legal_actions()[0])
        >>> from golf.bots import make_bot
        >>> bot = make_bot("search:sims=60", g.rules, seed=1)
        >>> options = bot.explain(g.view(g.current_player, codes=True), g.legal_actions())
        >>> options[0].action == bot.choose(g.view(g.current_player, codes=True),
        ...                                 g.legal_actions())
        True
        >>> [what for what, _ in options[0].parts]
        ['your hole', "the best other player's hole"]
        """
        run, alive, chosen = self._decide(view, legal)
        seat = int(view["seat"])
        totals = view["totals"]
        others = [t for s, t in enumerate(totals) if s != seat]
        behind = totals[seat] - min(others) if others else 0
        # the last scheduled hole, a playoff or a target match: the hole may end it
        ends = view["playoff"] or view["hole"] >= view["holes"] or bool(self.rules.target)
        other = "the best other player's hole" + (" and the match" if ends else "")
        out: list[tuple[int, float, Option]] = []
        for i, a in enumerate(legal):
            n = run.counts[i]
            if not n:  # pragma: no cover - every action gets a playout in round one
                continue
            value = -run.sums[i] / (100 * n) - behind
            mine = run.own[i] / (100 * n)
            reason = f"over {n} sampled deal{'s' if n != 1 else ''} played out"
            if i == chosen and i == run.anchor and len(legal) > 1 and \
                    any(run.sums[j] > run.sums[i] for j in alive):
                reason += (f"; the {self.options['playout']} policy's own move, as no "
                           "other is clearly better")
            # Parts rounded so that they add up to the rounded value as shown.
            shown, own_part = round(value, 1), round(mine, 1)
            parts = (("your hole", own_part), (other, round(shown - own_part, 1)))
            out.append((i != chosen, value, Option(a, round(mine, 2), reason, shown, parts)))
        return [o for *_, o in sorted(out, key=lambda t: (t[0], t[1]))]

    def _run(self, position: Mapping[str, Any],
             groups: Sequence[tuple[Sequence[Slot], Sequence[int]]],
             legal: Sequence[Action], seat: int, seed: int, start: float
             ) -> tuple[_Runner, list[int]]:
        """Search ``legal`` over worlds that fill ``groups`` into ``position``: the
        runner with every action's sums, and the actions left in the race."""
        f, cfg, slots, cards, ends = _compiled(self.rules, position, groups,
                                               self.options["playout"])
        actions = [int(a) for a in legal]
        if not _LOADED:
            # The first search of a process loads (or compiles) the compiled core; the
            # budget starts once that is done, or the decision would get one playout.
            _Runner(f.state.copy(), cfg, slots, cards, ends, seat, seed_rng(seed),
                    PLAYOUTS[self.options["playout"]], 0, actions[:1]).fixed([0], 1)
            _LOADED.append(True)
            start = time.perf_counter()
        run = _Runner(f.state.copy(), cfg, slots, cards, ends, seat, seed_rng(seed),
                      PLAYOUTS[self.options["playout"]], int(self.options["turns"]), actions,
                      round(100 * float(self.options["sigma"])))
        alive = list(range(len(legal)))
        rounds = _rounds(len(legal)) if self.options["root"] == "halving" else 1
        sims = int(self.options["sims"])
        stop = start + float(self.options["ms"]) / 1000
        for r in range(rounds):
            if sims:
                run.fixed(alive, max(1, -(-sims // (rounds * len(alive)))))
            else:
                run.until(alive, start + (stop - start) * (r + 1) / rounds)
            if r < rounds - 1:
                alive = run.better_half(alive)
        self.last_sims = run.sims
        return run, alive

    def _pick(self, run: _Runner, alive: Sequence[int]) -> int:
        o = self.options
        return run.best(alive, round(400 * float(o["z"]) ** 2), int(o["thin"]),
                        round(400 * float(o["zthin"]) ** 2))

    def _search(self, position: Mapping[str, Any],
                groups: Sequence[tuple[Sequence[Slot], Sequence[int]]],
                legal: Sequence[Action], seat: int, seed: int, start: float) -> Action:
        """The best of ``legal`` over worlds that fill ``groups`` into ``position``."""
        run, alive = self._run(position, groups, legal, seat, seed, start)
        return legal[self._pick(run, alive)]

    @staticmethod
    def _compiled_groups(f: FastGame, groups: Sequence[tuple[Sequence[Slot], Sequence[int]]]
                         ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any],
                                    np.ndarray[Any, Any]]:
        """The groups as state indices, cards and group ends, for the compiled core."""
        cfg = f.cfg
        cells, o_grids, o_stock = int(cfg[C_CELLS]), int(cfg[C_O_GRIDS]), int(cfg[C_O_STOCK])
        index: list[int] = []
        cards: list[int] = []
        ends: list[int] = []
        for places, group_cards in groups:
            for p in places:
                if p[0] == "stock":
                    index.append(o_stock + p[1])
                elif p[0] == "held":
                    index.append(S_HELD)
                else:
                    index.append(o_grids + p[1] * cells + p[2])
            cards += group_cards
            ends.append(len(index))
        return (np.array(index, dtype=np.int64), np.array(cards, dtype=np.int64),
                np.array(ends, dtype=np.int64))

    def _decision_seed(self, view: Mapping[str, Any]) -> int:
        """A seed from the bot's seed and the view alone, so a decision does not depend
        on earlier decisions or on anything the view does not show."""
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        digest = hashlib.blake2b(f"{self.seed}|{text}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little") >> 1


def _compiled(rules: Rules, position: Mapping[str, Any],
              groups: Sequence[tuple[Sequence[Slot], Sequence[int]]], playout: str
              ) -> tuple[FastGame, np.ndarray[Any, Any], np.ndarray[Any, Any],
                         np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The compiled core's game for ``position``, the config ``playout`` needs, and the
    unknown places of ``groups`` as state indices, cards and group ends."""
    f = FastGame.from_position(rules, position, chance="fast")
    cfg = expert_config(rules, f.players) if playout == "expert" else f.cfg
    return (f, cfg, *SearchBot._compiled_groups(f, groups))


def advantage(rules: Rules, view: Mapping[str, Any], legal: Sequence[Action], base: int,
              other: int, worlds: int, seed: int = 0, playout: str = "expert"
              ) -> tuple[float, float]:
    """How much better ``legal[other]`` is than ``legal[base]`` for the seat of
    ``view``: the mean, and its standard error, of the difference of their values
    (points: the seat's margin over the best other player after the hole) over
    ``worlds`` worlds sampled from the view, both actions played in each world with
    the same later chance, every seat then playing ``playout``. With many worlds this
    is the difference the search estimates, measured without its selection (what
    ``bench/anchor.py`` checks the ``z`` test against).

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=4)
    >>> for _ in range(4):
    ...     g.apply(g.legal_actions()[0])
    >>> view, legal = g.view(g.current_player, codes=True), g.legal_actions()
    >>> mean, se = advantage(g.rules, view, legal, 0, 0, 50)
    >>> (mean, se)
    (0.0, 0.0)
    """
    if worlds < 2:
        raise GolfError(f"advantage: worlds must be at least 2, got {worlds}")
    if playout not in PLAYOUTS:
        raise GolfError(f"advantage: playout={playout!r}; choose one of: {', '.join(PLAYOUTS)}")
    for i in (base, other):
        if not 0 <= i < len(legal):
            raise GolfError(f"advantage: action index {i} is not one of the {len(legal)} "
                            "legal actions")
    f, cfg, slots, cards, ends = _compiled(rules, *view_worlds(view, rules), playout)
    codes = np.array([int(legal[base]), int(legal[other])], dtype=np.int64)
    sums, counts = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    squares, own = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    simulate_paired(f.state.copy(), cfg, slots, cards, ends, codes, int(view["seat"]),
                    worlds, seed_rng(seed), sums, counts, squares, own, PLAYOUTS[playout],
                    0, 0)
    n = int(counts[1])
    s, q = int(sums[1]) - int(sums[0]), int(squares[1])
    mean = s / n
    var = max(q / n - mean * mean, 0.0) * n / (n - 1)
    return mean / 100, math.sqrt(var / n) / 100


def clairvoyant_choose(game: Game, sims: int = 200, seed: int = 0, stock: str = "known",
                       playout: str = "expert", root: str = "halving", z: float = 1.0
                       ) -> Action:
    """The search's choice for the seat to act in ``game`` when it sees every card:
    a bound on what the search loses to hidden information, NOT a bot (a bot gets
    only its view; this reads the game itself).

    ``stock="known"``: the true world, stock order included (the playouts differ only
    by reshuffles, so few ``sims`` are enough); ``stock="shuffled"``: every grid and
    held card as it is, the stock's cards in random order. ``sims``, ``playout``,
    ``root`` and ``z`` are the ``search`` bot's options.

    >>> from golf import Game
    >>> g = Game("six-card", players=2, seed=4)
    >>> for _ in range(4):
    ...     g.apply(g.legal_actions()[0])
    >>> clairvoyant_choose(g, sims=20) in g.legal_actions()
    True
    """
    if stock not in ("known", "shuffled"):
        raise GolfError(f"clairvoyant search: stock={stock!r}; choose 'known' or 'shuffled'")
    if sims <= 0:
        raise GolfError(f"clairvoyant search: sims must be > 0, got {sims}")
    seat = game.current_player
    if seat is None:
        raise GolfError("clairvoyant search: the match is over, nobody is to act")
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    position = game.position()
    groups: list[tuple[list[Slot], list[int]]] = []
    if stock == "shuffled":
        f = FastGame.from_position(game.rules, position, chance="fast")
        o_stock, n = int(f.cfg[C_O_STOCK]), int(f.state[S_STOCK_LEN])
        groups = [([("stock", i) for i in range(n)],
                   [int(c) for c in f.state[o_stock:o_stock + n]])]
    bot = SearchBot(game.rules, seed, sims=sims, playout=playout, root=root, z=z)
    digest = hashlib.blake2b(f"{seed}|{game.seed}|{len(game.history)}".encode(),
                             digest_size=8).digest()
    return bot._search(position, groups, legal, seat, int.from_bytes(digest, "little") >> 1,
                       time.perf_counter())
