"""Who plays the other seats of the Gymnasium environment: one function turns every
kind of opponent a researcher brings into a :class:`golf.bots.Bot`, which the
environment's opponent loop drives like any registry bot (``choose(view, legal)``).

An opponent spec is one of:

* a registry spec, ``"greedy"`` or ``"expert:memory=0.6"`` (:func:`golf.bots.make_bot`);
* a :class:`golf.bots.Bot` (used as it is; ``reset()`` at every new match; given once
  for several seats, the one object plays them all, so give one per seat to a bot
  that remembers);
* an object with ``choose``, ``act`` or ``decide`` taking ``(view, legal)``, or a plain
  callable ``f(view, legal)``: it returns one of ``legal`` (or its notation);
* an :class:`ObservationPolicy`, ``f(observation, mask) -> action id``: it sees what a
  learner sees (the encoding's vector of its own seat and the legal-action mask), so a
  learned policy can take a seat. That is the self-play and league hook;
* an object with ``predict`` (a Stable-Baselines3 model, maskable or not): wrapped in
  :meth:`ObservationPolicy.from_model`.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=1)
>>> first = make_opponent(lambda view, legal: legal[0], g.rules, 2)
>>> str(first.choose(g.view(0, codes=True), g.legal_actions()))
'reveal 1'
>>> last_id = ObservationPolicy(lambda obs, mask: int(mask.nonzero()[0][-1]))
>>> str(make_opponent(last_id, g.rules, 2).choose(g.view(0, codes=True), g.legal_actions()))
'reveal 6'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..actions import Action
from ..bots import Bot, make_bot
from ..errors import GolfError
from ..rules import Rules
from .encoding import Encoding, Mask, Obs

Decide = Callable[[Mapping[str, Any], Sequence[Action]], Any]


class ObservationPolicy:
    """An opponent that decides from the learner's numbers: ``policy(obs, mask)``
    returns an action id (an int, or a numpy scalar or one-element array), with
    ``obs`` the encoding's vector of its seat's view and ``mask`` the int8 legal mask.
    ``scaled`` picks the observation (as the environment's ``observation=`` option)."""

    def __init__(self, policy: Callable[[Obs, Mask], Any], *, scaled: bool = True) -> None:
        if not callable(policy):
            raise GolfError(f"ObservationPolicy takes a callable (obs, mask) -> action id, "
                            f"not {policy!r}")
        self.policy = policy
        self.scaled = scaled

    @classmethod
    def from_model(cls, model: Any, *, deterministic: bool = True,
                   scaled: bool = True) -> ObservationPolicy:
        """A policy from an object with ``predict(obs, ...)``, such as a Stable-Baselines3
        model; the mask goes to ``predict`` as ``action_masks`` when it takes one
        (sb3-contrib's maskable algorithms)."""
        predict = model.predict
        masked = "action_masks" in inspect.signature(predict).parameters

        def policy(obs: Obs, mask: Mask) -> Any:
            if masked:
                return predict(obs, action_masks=mask.astype(bool), deterministic=deterministic)[0]
            return predict(obs, deterministic=deterministic)[0]

        return cls(policy, scaled=scaled)


class _DecideBot(Bot):
    """A callable ``(view, legal) -> action`` as a bot."""

    name = "callable"

    def __init__(self, rules: Rules, decide: Decide, label: str) -> None:
        super().__init__(rules)
        self.decide, self.label = decide, label

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        got = self.decide(view, legal)
        if isinstance(got, str):
            got = Action.parse(got)
        if not isinstance(got, Action):
            raise GolfError(f"opponent {self.label} returned {got!r}: return one of the legal "
                            f"actions (a golf Action) or its notation; action ids are for "
                            f"an ObservationPolicy")
        return _checked(got, legal, self.label)


class _ObservationBot(Bot):
    """An :class:`ObservationPolicy` as a bot: the view becomes the vector and mask."""

    name = "policy"

    def __init__(self, rules: Rules, policy: ObservationPolicy, players: int) -> None:
        super().__init__(rules)
        self.policy = policy
        self.encoding = Encoding(rules, players, scaled=policy.scaled)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        enc = self.encoding
        got = self.policy.policy(enc.encode(view), enc.mask(legal))
        try:
            action_id = int(np.asarray(got).reshape(()))
        except (TypeError, ValueError):
            raise GolfError(f"an ObservationPolicy returns one action id, not {got!r}") from None
        return _checked(enc.action(action_id), legal, "ObservationPolicy")


def _checked(action: Action, legal: Sequence[Action], label: str) -> Action:
    if action not in legal:
        allowed = ", ".join(sorted(str(a) for a in legal))
        raise GolfError(f"opponent {label} chose {action}, which is not legal here; "
                        f"legal: {allowed}")
    return action


def make_opponent(spec: Any, rules: Rules, players: int, seed: int = 0) -> Bot:
    """The bot for one opponent spec (see the module docs); a bad spec is a GolfError
    saying what is accepted."""
    if isinstance(spec, str):
        return make_bot(spec, rules, seed=seed)
    if isinstance(spec, Bot):
        spec.reset()
        return spec
    if isinstance(spec, ObservationPolicy):
        return _ObservationBot(rules, spec, players)
    for method in ("choose", "act", "decide"):
        decide = getattr(spec, method, None)
        if callable(decide):
            return _DecideBot(rules, decide, f"{type(spec).__name__}.{method}")
    if callable(getattr(spec, "predict", None)):
        return _ObservationBot(rules, ObservationPolicy.from_model(spec), players)
    if callable(spec):
        return _DecideBot(rules, spec, getattr(spec, "__name__", repr(spec)))
    raise GolfError(f"an opponent is a bot spec (such as 'greedy'), a golf Bot, a callable "
                    f"(view, legal) -> action, an object with choose/act/decide, an "
                    f"ObservationPolicy or a model with predict; got {spec!r}")


def opponent_specs(opponents: Any, players: int) -> list[Any]:
    """One spec per other seat: a list or tuple is taken as that, anything else is
    the spec of every other seat."""
    specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * (players - 1)
    if len(specs) != players - 1:
        raise GolfError(f"give one opponent spec, or {players - 1} (one per other seat); "
                        f"got {len(specs)}")
    return specs
