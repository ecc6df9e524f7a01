"""TextArena environments for every preset and player count (extra ``golf-cards[text]``).

Importing this module registers ``GolfCards-<Preset>-<N>p-v0`` for each preset and each
player count it allows (``GolfCards-SixCard-2p-v0`` ... ``GolfCards-NineCard-1p-v0``),
wrapped the way TextArena wraps its own games (the whole conversation as one string for
an LLM agent; ``-raw`` ids come unwrapped), plus ``GolfCards-v0`` taking ``variant=``,
``rules=`` and option keywords. TextArena drives every seat through
``reset / get_observation / step / close``:

>>> import textarena as ta
>>> import golf.envs.textarena_env
>>> env = ta.make("GolfCards-SixCard-2p-v0", holes=1)
>>> env.reset(num_players=2, seed=5)
>>> pid, obs = env.get_observation()
>>> pid, "Your legal moves: reveal 1 2 3 4 5 6" in obs
(0, True)
>>> done, info = env.step("[reveal 2]")
>>> done
False

The match is :class:`golf.envs.text.TextMatch` (every seat an agent), so answers are
read leniently, wrong ones get a specific message and ``retries`` more tries before the
``fallback`` (forfeit, or a named bot's move), and :meth:`GolfTextArenaEnv.record`
keeps every prompt and answer with the game record. Rewards at the end: +1 for first
place, -1 for last, evenly between (a lone player: minus the total).
"""

from __future__ import annotations

from typing import Any

# TextArena ships no type information.
import textarena as ta  # type: ignore[import-untyped]
from textarena.envs.registration import (  # type: ignore[import-untyped]
    ENV_REGISTRY,
    register,
)
from textarena.wrappers import (  # type: ignore[import-untyped]
    ActionFormattingWrapper,
    LLMObservationWrapper,
)

from ..errors import GolfError
from ..game import Game
from ..rules import load_rules, preset_names
from .text import TextMatch, TextOptions

__all__ = ["GENERIC_ID", "GolfTextArenaEnv", "register_all", "textarena_id"]

GENERIC_ID = "GolfCards-v0"
ENTRY_POINT = "golf.envs.textarena_env:GolfTextArenaEnv"
_WRAPPERS = [LLMObservationWrapper, ActionFormattingWrapper]


def textarena_id(variant: str, players: int, raw: bool = False) -> str:
    """The registered id of a preset and player count.

    >>> textarena_id("four-card-wild", 3)
    'GolfCards-FourCardWild-3p-v0'
    """
    camel = "".join(part.capitalize() for part in variant.split("-"))
    return f"GolfCards-{camel}-{players}p-v0{'-raw' if raw else ''}"


class GolfTextArenaEnv(ta.Env):  # type: ignore[misc]
    """One Golf match of ``variant`` (a preset, a TOML path) with ``rules`` overrides
    and keyword overrides (``holes=1``); ``retries``, ``fallback``, ``recent`` and
    ``show_peeks`` as in :class:`golf.envs.text.TextOptions`. The player count comes
    from ``reset``; with ``players`` given, ``reset`` must use it."""

    def __init__(self, variant: str = "six-card", players: int | None = None,
                 rules: dict[str, Any] | None = None, retries: int = 2,
                 fallback: str = "forfeit", recent: int = 12, show_peeks: bool = False,
                 **overrides: Any) -> None:
        self.variant = variant
        self.fixed_players = players
        self.overrides = {**(rules or {}), **overrides}
        self.rules = load_rules(variant, self.overrides)
        self.options = TextOptions(retries=retries, fallback=fallback, recent=recent,
                                   show_peeks=show_peeks)
        self.match: TextMatch | None = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        if self.fixed_players is not None and num_players != self.fixed_players:
            raise GolfError(f"this environment seats {self.fixed_players} players, not "
                            f"{num_players}")
        lo, hi = self.rules.players
        if not lo <= num_players <= hi:
            raise GolfError(f"{self.rules.name} is for {lo} to {hi} players, not {num_players}")
        game = Game(self.rules, players=num_players, seed=0 if seed is None else seed)
        if self.match is not None:
            self.match.close()
        self.match = TextMatch(game, {}, self.options)
        self.state = ta.FFAMultiPlayerState(num_players=num_players, seed=seed)
        roles = {s: self.match.names[s] for s in range(num_players)}
        self.state.reset(game_state={"record": None}, role_mapping=roles)
        self._ask()

    def _current(self) -> TextMatch:
        if self.match is None:
            raise GolfError("call reset(num_players, seed) first")
        return self.match

    def _ask(self) -> None:
        match = self._current()
        seat = match.to_act
        if seat is None:
            return
        self.state.manually_set_current_player_id(seat, force=True)
        self.state.add_observation(to_id=seat, message=match.observation(seat),
                                   observation_type=ta.ObservationType.PROMPT)

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        match = self._current()
        if match.is_over:
            return True, {"reason": "the match is over"}
        seat = self.state.current_player_id
        self.state.add_observation(from_id=seat, to_id=seat, message=str(action),
                                   observation_type=ta.ObservationType.PLAYER_ACTION)
        reply = match.answer(action)
        if not reply.accepted and not match.is_over:
            self.state.game_info[seat]["invalid_move"] = True
        if match.is_over:
            self._finish()
        else:
            self._ask()
        done, info = self.state.step(rotate_player=False)
        return bool(done), dict(info)

    def _finish(self) -> None:
        match = self._current()
        rewards = match.rewards()
        totals = match.game.totals
        if match.forfeited is not None:
            reason = f"{match.names[match.forfeited]} forfeited after repeated invalid answers"
        else:
            reason = "the match is over: totals " + ", ".join(
                f"{match.names[s]} {t}" for s, t in enumerate(totals))
        self.state.game_state["record"] = match.record()
        self.state.set_game_outcome(rewards, reason)

    def record(self) -> dict[str, Any]:
        """The match's game record with every prompt and answer (see
        :meth:`golf.envs.text.TextMatch.record`)."""
        return self._current().record()

    def close(self) -> tuple[dict[int, float] | None, dict[int, dict[str, Any]]]:
        if self.match is not None:
            self.match.close()
        return self.state.rewards, self.state.game_info


def register_all() -> list[str]:
    """Register every id (again harmlessly); the ids, the generic one first."""
    ids = [GENERIC_ID]
    if GENERIC_ID not in ENV_REGISTRY:
        register(id=GENERIC_ID, entry_point=ENTRY_POINT, default_wrappers=_WRAPPERS)
    for name in preset_names():
        lo, hi = load_rules(name).players
        for n in range(lo, hi + 1):
            for raw in (False, True):
                env_id = textarena_id(name, n, raw)
                ids.append(env_id)
                if env_id not in ENV_REGISTRY:
                    register(id=env_id, entry_point=ENTRY_POINT,
                             default_wrappers=None if raw else _WRAPPERS,
                             variant=name, players=n)
    return ids


register_all()
