""":class:`FastGame`: one match in the compiled core, with :class:`golf.Game`'s API.

With ``chance="engine"`` (the default) every deal and reshuffle is the engine's own:
the permutation comes from the same ``random.Random(f"{seed}/{hole}/{n}")`` shuffle, so a
FastGame plays exactly the match ``golf.Game(variant, players, seed)`` plays, and its
:meth:`~FastGame.record` replays through :meth:`golf.Game.from_record`. With
``chance="fast"`` the core shuffles with its own generator (no Python per deal); such a
game is not the engine's game of that seed, but its :meth:`~FastGame.position` at any
moment sets up the same state in :meth:`golf.Game.from_position`.

>>> from golf import Game
>>> f, g = FastGame("six-card", players=2, seed=7), Game("six-card", players=2, seed=7)
>>> for a in ("reveal 1", "reveal 4", "reveal 2", "reveal 5", "draw", "discard"):
...     f.apply(a); g.apply(a)
>>> f.legal_actions() == g.legal_actions(), f.position() == g.position()
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import KINDS, POSITIONAL, Action
from ..errors import GolfError, IllegalAction, NotationError
from ..game import HoleResult
from ..phases import OVER, PHASES
from ..position import POSITION_FORMAT, result_data
from ..rules import Rules, load_rules
from .layout import (
    C_DECK,
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
    CELL_MASK,
    CHANCE_ENGINE,
    CHANCE_RNG,
    DEAL,
    KIND_SHIFT,
    RESHUFFLE_KEY,
    S_ACTIVE,
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
from .machine import MAX_LEGAL, legal_actions, new_state, resume_deal, seed_rng, start_match, step
from .ruleset import Config, config

CHANCES = ("engine", "fast")
_SOURCES = ("stock", "discard")


def engine_permutation(seed: int, hole_index: int, shuffle: int, length: int) -> list[int]:
    """The permutation :class:`golf.Game` applies when it shuffles ``length`` cards: the
    deal of a hole (``shuffle`` 0) or its n-th reshuffle. ``shuffled[k] = cards[perm[k]]``:
    a shuffle moves cards by position only, so shuffling the indices gives the moves."""
    perm = list(range(length))
    random.Random(f"{seed}/{hole_index}/{shuffle}").shuffle(perm)
    return perm


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


class FastGame:
    """A match in the compiled core. ``chance`` is ``"engine"`` (the engine's deals: the
    same match as ``golf.Game`` with this seed) or ``"fast"`` (the core's own generator)."""

    __slots__ = (
        "_cells",
        "cfg",
        "chance",
        "history",
        "hole_results",
        "players",
        "playoff_scores",
        "regular_scores",
        "rng",
        "rules",
        "seed",
        "state",
    )

    def __init__(
        self,
        variant: str | Path | Rules = "six-card",
        players: int = 2,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
        chance: str = "engine",
        rng: npt.NDArray[np.uint64] | None = None,
        _deal: bool = True,
    ) -> None:
        self.rules = load_rules(variant, rules)
        self.cfg: Config = config(self.rules, players)
        if chance not in CHANCES:
            raise GolfError(f"chance must be one of {', '.join(CHANCES)}, got {chance!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise GolfError(f"seed must be a non-negative integer below 2**63, got {seed!r}")
        self.players, self.seed, self.chance = players, seed, chance
        self._cells = self.rules.cells
        # A shared generator lets a caller play match after match on one stream, as
        # golf.fast.play does (chance="fast" only; engine chance draws nothing from it).
        self.rng = seed_rng(seed) if rng is None else rng
        self.state = new_state(self.cfg, CHANCE_ENGINE if chance == "engine" else CHANCE_RNG)
        self.history: list[Action] = []
        self.hole_results: list[HoleResult] = []
        self.regular_scores: list[list[int]] = []
        self.playoff_scores: list[list[int | None]] = []
        if _deal:
            start_match(self.state, self.cfg, self.rng)
            self._after_step(0)

    @classmethod
    def from_position(
        cls,
        variant: str | Path | Rules,
        position: Mapping[str, Any],
        rules: Mapping[str, Any] | None = None,
        chance: str = "engine",
        rng: npt.NDArray[np.uint64] | None = None,
    ) -> FastGame:
        """A FastGame in the state a :mod:`golf.position` describes. The engine checks the
        position (a bad one raises its clear GolfError). With ``chance="engine"`` it then
        plays exactly like ``golf.Game.from_position``; a search sets up each sampled
        world this way with ``chance="fast"``."""
        from ..game import Game

        p = Game.from_position(variant, position, rules).position()
        f = cls(load_rules(variant, rules), p["players"], p["seed"], chance=chance, rng=rng,
                _deal=False)
        f._load(p)
        return f

    def _load(self, p: Mapping[str, Any]) -> None:
        st, cfg, n, cells = self.state, self.cfg, self.players, self._cells
        phase = PHASES.index(p["phase"])
        st[S_PHASE], st[S_CUR], st[S_DEALER] = phase, p["current_player"], p["dealer"]
        st[S_HOLE], st[S_PLAYOFF] = p["hole"] - 1, p["playoff"]
        chosen = sum(1 << (i - 1) for i in p["setup_chosen"])
        st[S_CHOSEN] = chosen
        st[S_SETUP_LEFT] = (self.rules.setup_count - bin(chosen).count("1")
                            if p["phase"] == "setup" else 0)
        st[S_HELD] = -1 if p["held"] is None else p["held"]
        st[S_HELD_FROM] = _SOURCES.index(p["held_from"]) if p["held_from"] else 0
        st[S_TURN_COUNT], st[S_RESHUFFLES] = p["turn_count"], p["reshuffles"]
        st[S_ENDER] = -1 if p["final_turns_from"] is None else p["final_turns_from"]
        st[S_KNOCKER] = -1 if p["knocked_by"] is None else p["knocked_by"]
        st[S_ACTIVE] = sum(1 << s for s in p["active"])
        st[S_WINNERS] = sum(1 << s for s in p["winners"])
        st[S_N_REGULAR], st[S_N_PLAYOFF] = len(p["hole_scores"]), len(p["playoff_scores"])
        st[S_HOLES_ENDED] = len(p["hole_results"])
        o_g, o_up, o_pk = int(cfg[C_O_GRIDS]), int(cfg[C_O_UP]), int(cfg[C_O_PEEKED])
        for s in range(n):
            grid = p["grids"][s] or [0] * cells
            st[o_g + s * cells:o_g + (s + 1) * cells] = grid
            st[o_up + s] = sum(1 << i for i, u in enumerate(p["face_up"][s] or ()) if u)
            st[o_pk + s] = sum(1 << (i - 1) for i in p["peeked"][s])
        o_tu, o_to = int(cfg[C_O_TURNS]), int(cfg[C_O_TOTALS])
        st[o_tu:o_tu + n] = p["turns"]
        st[o_to:o_to + n] = p["totals"]
        for key, length, off in (("stock", S_STOCK_LEN, C_O_STOCK),
                                 ("discard", S_DISCARD_LEN, C_O_DISCARD)):
            cards = p[key]
            o = int(cfg[off])
            st[o:o + len(cards)] = cards
            st[length] = len(cards)
        self.regular_scores = [list(x) for x in p["hole_scores"]]
        self.playoff_scores = [list(x) for x in p["playoff_scores"]]
        self.hole_results = [HoleResult(**{**h, "grids": tuple(tuple(g) for g in h["grids"]),
                                           "scores": tuple(h["scores"])})
                             for h in p["hole_results"]]

    # --- state -----------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[int(self.state[S_PHASE])]

    @property
    def is_over(self) -> bool:
        return bool(self.state[S_PHASE] == OVER)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else int(self.state[S_CUR])

    @property
    def hole(self) -> int:
        return int(self.state[S_HOLE]) + 1

    @property
    def totals(self) -> list[int]:
        o = int(self.cfg[C_O_TOTALS])
        return [int(x) for x in self.state[o:o + self.players]]

    @property
    def winners(self) -> list[int]:
        return _seats(int(self.state[S_WINNERS]), self.players) if self.is_over else []

    @property
    def hole_scores(self) -> list[list[int]]:
        return [list(s) for s in self.regular_scores]

    @property
    def stock_size(self) -> int:
        return int(self.state[S_STOCK_LEN])

    # --- play ------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now, in the engine's order."""
        buf = np.empty(MAX_LEGAL, dtype=np.int64)
        n = legal_actions(self.state, self.cfg, buf) if not self.is_over else 0
        return [Action.of(int(a) >> KIND_SHIFT, int(a) & CELL_MASK) for a in buf[:n]]

    def legal_codes(self) -> list[int]:
        buf = np.empty(MAX_LEGAL, dtype=np.int64)
        n = legal_actions(self.state, self.cfg, buf) if not self.is_over else 0
        return [int(a) for a in buf[:n]]

    def apply(self, action: Action | str | int) -> None:
        """Play ``action`` (an Action, its notation or its code) for the current player;
        an illegal one raises :class:`golf.IllegalAction` and changes nothing."""
        a = self._coerce(action)
        legal = self.legal_codes()
        if a not in legal:
            allowed = ", ".join(str(Action.of(x >> KIND_SHIFT, x & CELL_MASK)) for x in legal)
            move = Action.of(a >> KIND_SHIFT, a & CELL_MASK)
            raise IllegalAction(f"{move}: not legal now; legal now: "
                                f"{allowed or 'nothing (the match is over)'}")
        self._step(a)

    push = apply

    def _coerce(self, action: object) -> int:
        if isinstance(action, str):
            return int(Action.parse(action))
        if isinstance(action, int) and not isinstance(action, bool):
            kind, cell = action >> KIND_SHIFT, action & CELL_MASK
            if not (0 <= kind < len(KINDS) and (kind in POSITIONAL or cell == 0)):
                raise NotationError(f"{action} is not an action code")
            return int(action)
        raise NotationError(f"an action is an Action or text like 'draw', not {action!r}")

    def _step(self, a: int) -> None:
        st = self.state
        if self.chance == "engine" and a == 32 and st[S_STOCK_LEN] == 0:
            self._supply_reshuffle()
        ended = int(st[S_HOLES_ENDED])
        step(st, self.cfg, a, self.rng)
        self.history.append(Action.of(a >> KIND_SHIFT, a & CELL_MASK))
        self._after_step(ended)

    def _supply_reshuffle(self) -> None:
        st = self.state
        length = int(st[S_DISCARD_LEN]) - 1
        hole, n = int(st[S_HOLE]), int(st[S_RESHUFFLES]) + 1
        o = int(self.cfg[C_O_RPERM])
        st[o:o + length] = engine_permutation(self.seed, hole, n, length)
        st[S_RPERM_FOR] = hole * RESHUFFLE_KEY + n

    def _after_step(self, ended: int) -> None:
        """Record a hole that just ended, and deal any hole waiting for its shuffle."""
        st = self.state
        if st[S_HOLES_ENDED] != ended:
            self._record_hole()
        while st[S_PHASE] == DEAL:
            hole = int(st[S_HOLE])
            o, deck = int(self.cfg[C_O_PERM]), int(self.cfg[C_DECK])
            st[o:o + deck] = engine_permutation(self.seed, hole, 0, deck)
            st[S_PERM_FOR] = hole
            ended = int(st[S_HOLES_ENDED])
            resume_deal(st, self.cfg, self.rng)
            if st[S_HOLES_ENDED] != ended:
                self._record_hole()

    def _record_hole(self) -> None:
        st, n, cells = self.state, self.players, self._cells
        o_g, o_s = int(self.cfg[C_O_LAST_GRIDS]), int(self.cfg[C_O_LAST_SCORES])
        dealt = [bool(self.state[o_g + s * cells]) for s in range(n)]
        grids = tuple(tuple(int(c) for c in st[o_g + s * cells:o_g + (s + 1) * cells])
                      if dealt[s] else () for s in range(n))
        scores = tuple(int(st[o_s + s]) if dealt[s] else None for s in range(n))
        playoff = bool(st[S_LAST_PLAYOFF])
        knocker, out = int(st[S_LAST_KNOCKER]), int(st[S_LAST_WENT_OUT])
        top = int(st[S_LAST_DISCARD_TOP])
        self.hole_results.append(HoleResult(
            int(st[S_LAST_NUMBER]), playoff, grids, scores,
            knocker if knocker >= 0 else None, out if out >= 0 else None,
            top if top >= 0 else None))
        if playoff:
            self.playoff_scores.append(list(scores))
        else:
            self.regular_scores.append([s if s is not None else 0 for s in scores])

    # --- copies, records, positions ---------------------------------------------
    def clone(self) -> FastGame:
        """An independent copy (the state array and the generator are copied)."""
        g = FastGame.__new__(FastGame)
        g.rules, g.cfg, g.chance, g.players, g.seed = (
            self.rules, self.cfg, self.chance, self.players, self.seed)
        g._cells = self._cells
        g.state = self.state.copy()
        g.rng = self.rng.copy()
        g.history = self.history[:]
        g.hole_results = self.hole_results[:]
        g.regular_scores = [s[:] for s in self.regular_scores]
        g.playoff_scores = [s[:] for s in self.playoff_scores]
        return g

    copy = clone
    __copy__ = clone

    def record(self) -> dict[str, Any]:
        """The engine's record of this match (``chance="engine"`` only): it replays through
        :meth:`golf.Game.from_record` to the same state."""
        if self.chance != "engine":
            raise GolfError("only a FastGame with chance='engine' deals the engine's cards, so "
                            "only it has a record; use position() for chance='fast'")
        from ..game import RECORD_FORMAT

        return {"format": RECORD_FORMAT, "rules": self.rules.to_dict(), "players": self.players,
                "seed": self.seed, "actions": [str(a) for a in self.history]}

    def position(self) -> dict[str, Any]:
        """The whole state as a :mod:`golf.position` (what ``golf.Game.position`` writes)."""
        st, cfg, n, cells = self.state, self.cfg, self.players, self._cells
        active = _seats(int(st[S_ACTIVE]), n)
        o_g, o_up, o_pk = int(cfg[C_O_GRIDS]), int(cfg[C_O_UP]), int(cfg[C_O_PEEKED])
        o_st, o_di = int(cfg[C_O_STOCK]), int(cfg[C_O_DISCARD])
        o_tu, o_to = int(cfg[C_O_TURNS]), int(cfg[C_O_TOTALS])
        phase = int(st[S_PHASE])
        held = int(st[S_HELD]) if st[S_HELD] >= 0 and phase != OVER else None
        ender, knocker = int(st[S_ENDER]), int(st[S_KNOCKER])
        return {
            "format": POSITION_FORMAT,
            "players": n,
            "seed": self.seed,
            "hole": int(st[S_HOLE]) + 1,
            "playoff": bool(st[S_PLAYOFF]),
            "active": active,
            "dealer": int(st[S_DEALER]),
            "phase": PHASES[phase],
            "current_player": int(st[S_CUR]),
            "grids": [[int(c) for c in st[o_g + s * cells:o_g + (s + 1) * cells]]
                      if s in active else None for s in range(n)],
            "face_up": [[bool(int(st[o_up + s]) >> i & 1) for i in range(cells)]
                        if s in active else None for s in range(n)],
            "peeked": [[i + 1 for i in range(cells) if int(st[o_pk + s]) >> i & 1]
                       for s in range(n)],
            "setup_chosen": [i + 1 for i in range(cells) if int(st[S_CHOSEN]) >> i & 1],
            "stock": [int(c) for c in st[o_st:o_st + int(st[S_STOCK_LEN])]],
            "discard": [int(c) for c in st[o_di:o_di + int(st[S_DISCARD_LEN])]],
            "held": held,
            "held_from": None if held is None else _SOURCES[int(st[S_HELD_FROM])],
            "turns": [int(x) for x in st[o_tu:o_tu + n]],
            "turn_count": int(st[S_TURN_COUNT]),
            "knocked_by": knocker if knocker >= 0 else None,
            "final_turns_from": ender if ender >= 0 else None,
            "reshuffles": int(st[S_RESHUFFLES]),
            "totals": [int(x) for x in st[o_to:o_to + n]],
            "hole_scores": [list(s) for s in self.regular_scores],
            "playoff_scores": [list(s) for s in self.playoff_scores],
            "hole_results": [result_data(h) for h in self.hole_results],
            "winners": self.winners,
        }

    def __repr__(self) -> str:
        return (f"<FastGame {self.rules.name} players={self.players} seed={self.seed} "
                f"chance={self.chance} hole={self.hole} phase={self.phase}>")

