"""What the Gymnasium and PettingZoo environments share about an episode: the holes
that ended (from :attr:`golf.Game.ended_hole`), the rewards and ``info`` results they
give, and the rendering of a seat's view. Needs gymnasium (extra ``golf-cards[rl]``).

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=7, rules={"holes": 1})
>>> ended = []
>>> while not g.is_over:
...     g.apply(g.legal_actions()[0])
...     ended += ended_holes(g)
>>> [r.number for r in ended], rewards(g, ended, "hole") == [-s for s in ended[0].scores]
([1], True)
>>> rewards(g, ended, "match") == [1.0 if s in g.winners else -1.0 for s in range(2)]
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..game import Game
from ..state import HoleResult
from ..table import Turn
from .encoding import describe
from .picture import Image, table_image

__all__ = ["HoleWatch", "ended_holes", "render_view", "results", "rewards"]


def ended_holes(game: Game) -> list[HoleResult]:
    """The hole the game's last action ended, as a list (empty if it ended none)."""
    return [game.hole_results[-1]] if game.ended_hole else []


class HoleWatch:
    """An observer of a :class:`golf.table.Table` (``table.watch(HoleWatch(game))``)
    keeping the result of every hole an action at it ended, until :meth:`take`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._ended: list[HoleResult] = []

    def on_event(self, turn: Turn) -> None:
        self._ended += ended_holes(self.game)

    def take(self) -> list[HoleResult]:
        """The holes ended since the last call, oldest first."""
        out, self._ended = self._ended, []
        return out


def rewards(game: Game, ended: Sequence[HoleResult], mode: str) -> list[float]:
    """Every seat's reward for a step in which the holes ``ended`` ended: ``"hole"``,
    minus the seat's score in each (nothing for a hole it sat out); ``"match"``, +1
    for a winner and -1 for the others once the match is over, else 0."""
    out = [0.0] * game.players
    if mode == "hole":
        for result in ended:
            for seat, score in enumerate(result.scores):
                if score is not None:
                    out[seat] -= float(score)
    elif game.is_over:
        winners = game.winners
        out = [1.0 if seat in winners else -1.0 for seat in range(game.players)]
    return out


def results(game: Game, ended: Sequence[HoleResult]) -> dict[str, Any]:
    """What ``info`` reports when holes ``ended`` (empty if none did):
    ``hole_scores`` (the last one's, every seat, 0 for a seat sitting it out),
    ``dealt_in`` (False for those) and ``totals``; at the end of the match ``won`` and
    ``record`` (JSON text) too."""
    if not ended:
        return {}
    scores = ended[-1].scores
    out: dict[str, Any] = {
        "hole_scores": np.array([s or 0 for s in scores], np.float64),
        "dealt_in": np.array([s is not None for s in scores]),
        "totals": np.array(game.totals, np.float64),
    }
    if game.is_over:
        winners = game.winners
        out["won"] = np.array([s in winners for s in range(game.players)])
        out["record"] = json.dumps(game.record(), separators=(",", ":"))
    return out


def render_view(game: Game, seat: int, mode: str | None) -> str | Image | None:
    """``seat``'s view for ``render()``: ``ansi`` returns it as text, ``human`` prints
    it, ``rgb_array`` returns a picture (:func:`golf.envs.picture.table_image`)."""
    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode; make the env "
                              "with render_mode='ansi', 'human' or 'rgb_array'")
        return None
    view = game.view(seat, codes=True)
    if mode == "rgb_array":
        return table_image(view)
    text = describe(view)
    if mode == "human":
        print(text)
        return None
    return text
