"""An arena for agents: one agent against bots over duplicate deals, with 95% intervals.

Each deal (its seed from the run's seed and the deal's number, :func:`golf.results.
match_seed`) is played once per seat the agent can take, the opponents keeping their
order around the table, so every seat's luck is shared out evenly and the figures are
paired by deal. An agent is a bot spec (``expert``, ``search:ms=50``, ``cmd:python
mybot.py``), played as a bot, or ``openai:BASE_URL:MODEL``, an OpenAI-compatible chat
endpoint answering the text prompts of :mod:`golf.envs.text`.

>>> from golf.rules import load_rules
>>> res = run_arena("greedy", ["random"], load_rules("six-card", {"holes": 1}),
...                 players=2, deals=3, seed=1)
>>> len(res.matches), res.matches[0].seat, res.matches[1].seat
(6, 0, 1)
>>> 0.0 <= summarise(res)["win_share"][0] <= 1.0
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from .backend import Backend, LocalPool, gather
from .envs.agents import ChatAgent, is_chat_spec
from .envs.text import TextMatch, TextOptions
from .errors import GolfError
from .game import Game
from .results import match_seed
from .rules import Rules, rules_from_dict
from .simulate import mean_ci

__all__ = ["ArenaMatch", "ArenaResult", "format_summary", "run_arena", "summarise"]

Agent = Callable[[str], str]


@dataclass(frozen=True)
class ArenaMatch:
    """One match of the arena: the deal, the agent's seat, the totals, the agent's share
    of the win (1/k of a k-way win, 0 after a forfeit) and its margin over the best
    opponent (their lowest total less the agent's: positive is better). A match that an
    opponent's ``cmd:`` program forfeited (``void``) is left out of the figures."""

    deal: int
    seed: int
    seat: int
    totals: tuple[int, ...]
    share: float
    margin: float | None
    invalid: int
    fallbacks: int
    forfeited: bool
    void: bool = False


@dataclass
class ArenaResult:
    agent: str
    opponents: list[str]
    variant: str
    players: int
    deals: int
    seed: int
    matches: list[ArenaMatch] = field(default_factory=list)


def _agent(spec: str, options: dict[str, Any]) -> Agent | None:
    """The text agent a spec names, or None for a bot spec (played as a bot)."""
    if is_chat_spec(spec):
        return ChatAgent.from_spec(spec, **options)
    return None


def run_arena(
    agent: str, opponents: Sequence[str], rules: Rules, players: int, deals: int,
    seed: int = 0, text: TextOptions | None = None, chat: dict[str, Any] | None = None,
    transcript: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    ask: Agent | None = None, backend: Backend | None = None,
) -> ArenaResult:
    """Play ``deals`` deals, each once per agent seat (``players`` matches a deal).
    ``opponents`` fill the other seats in order (repeated if shorter). ``ask``: a
    callable text agent to use instead of the one ``agent`` names (for tests and
    embedding; its matches run in this process). ``transcript``: a stream that gets one
    JSON line per match, in match order (its game record with every prompt and
    answer). ``backend``: where the matches run (:mod:`golf.backend`; default here, one
    after another); the results are the same on any."""
    if deals < 1:
        raise GolfError(f"deals must be at least 1, got {deals}")
    if not opponents and players > 1:
        raise GolfError("name at least one opponent bot")
    lo, hi = rules.players
    if not lo <= players <= hi:
        raise GolfError(f"{rules.name} is for {lo} to {hi} players, not {players}")
    if ask is None:
        _agent(agent, chat or {})  # a bad agent spec fails here, before any match
    others = [opponents[k % len(opponents)] for k in range(players - 1)] if opponents else []
    result = ArenaResult(agent, list(others), rules.name, players, deals, seed)
    raw = json.dumps(rules.to_dict(), sort_keys=True)
    jobs = [_ArenaJob(agent, tuple(others), raw, players, d, match_seed(seed, d), seat,
                      text, dict(chat or {}), transcript is not None)
            for d in range(deals) for seat in range(players)]
    writer = _InOrder(transcript)
    if ask is not None:
        backend = LocalPool(1)  # a callable agent answers in this process
        played = gather(backend, functools.partial(_play_job, ask=ask), jobs, progress,
                        writer)
    else:
        played = gather(backend or LocalPool(1), _play_job, jobs, progress, writer)
    result.matches.extend(m for m, _ in played)
    return result


@dataclass(frozen=True)
class _ArenaJob:
    """One arena match as plain data, to be played wherever the backend runs it."""

    agent: str
    others: tuple[str, ...]
    rules: str  # the rules' settings as JSON (a Rules object carries caches)
    players: int
    deal: int
    seed: int
    seat: int
    text: TextOptions | None
    chat: dict[str, Any]
    record: bool


@functools.lru_cache(maxsize=8)
def _rules(raw: str) -> Rules:
    return rules_from_dict(json.loads(raw))


def _play_job(job: _ArenaJob, ask: Agent | None = None) -> tuple[ArenaMatch, str | None]:
    """Play one match of the arena: the agent at ``job.seat``, the opponents after it
    in order. Returns its figures and, when asked for, its transcript line."""
    rules = _rules(job.rules)
    players, seat = job.players, job.seat
    speaker = ask if ask is not None else _agent(job.agent, job.chat)
    bots = {s: job.others[(s - seat - 1) % players] for s in range(players) if s != seat}
    if speaker is None:
        bots[seat] = job.agent
    names = [f"{bots[s]} (seat {s + 1})" if s != seat else f"agent (seat {s + 1})"
             for s in range(players)]
    match = TextMatch(Game(rules, players=players, seed=job.seed), bots, job.text, names)
    try:
        while match.to_act is not None:
            match.answer(speaker(match.observation()) if speaker else "")
    finally:
        match.close()
    line = (json.dumps({"deal": job.deal, "seat": seat, "record": match.record()})
            if job.record else None)
    return _scored(match, job.deal, job.seed, seat), line


class _InOrder:
    """Writes the matches' transcript lines in match order, whatever order they finish
    in (a line waits for the ones before it)."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.waiting: dict[int, str | None] = {}
        self.next = 0

    def __call__(self, index: int, played: tuple[ArenaMatch, str | None]) -> None:
        if self.stream is None:
            return
        self.waiting[index] = played[1]
        while self.next in self.waiting:
            line = self.waiting.pop(self.next)
            self.next += 1
            if line is not None:
                self.stream.write(line + "\n")
        self.stream.flush()


def _scored(match: TextMatch, deal: int, seed: int, seat: int) -> ArenaMatch:
    g = match.game
    totals = tuple(g.totals)
    forfeited = match.forfeited == seat
    void = match.forfeited is not None and not forfeited
    winners = g.winners
    share = 0.0 if forfeited or seat not in winners else 1.0 / len(winners)
    rest = [t for s, t in enumerate(totals) if s != seat]
    margin = None if forfeited or void or not rest else float(min(rest) - totals[seat])
    return ArenaMatch(deal, seed, seat, totals, share, margin, match.invalid[seat],
                      match.fallbacks[seat], forfeited, void)


def summarise(result: ArenaResult) -> dict[str, Any]:
    """Win share and margin per match with 95% intervals over deals (paired: each deal's
    matches are averaged first), and the counts of wrong answers, fallbacks, forfeits."""
    by_deal: dict[int, list[ArenaMatch]] = {}
    for m in result.matches:
        if not m.void:
            by_deal.setdefault(m.deal, []).append(m)
    shares = [sum(m.share for m in ms) / len(ms) for ms in by_deal.values()]
    margins = [sum(m.margin for m in ms if m.margin is not None)
               / max(1, sum(1 for m in ms if m.margin is not None))
               for ms in by_deal.values() if any(m.margin is not None for m in ms)]
    return {
        "agent": result.agent, "opponents": result.opponents, "variant": result.variant,
        "players": result.players, "deals": result.deals, "seed": result.seed,
        "matches": len(result.matches),
        "fair_share": 1.0 / result.players,
        "win_share": list(mean_ci(shares)),
        "margin": list(mean_ci(margins)),
        "invalid_answers": sum(m.invalid for m in result.matches),
        "fallbacks": sum(m.fallbacks for m in result.matches),
        "forfeits": sum(1 for m in result.matches if m.forfeited),
        "void": sum(1 for m in result.matches if m.void),
    }


def format_summary(s: dict[str, Any]) -> str:
    def ci(v: list[float], fmt: str) -> str:
        m, lo, hi = v
        if lo != lo:  # NaN: too few deals for an interval
            return format(m, fmt)
        return f"{format(m, fmt)} [{format(lo, fmt)}, {format(hi, fmt)}]"

    return "\n".join([
        f"{s['agent']} against {', '.join(s['opponents']) or 'nobody'}: {s['variant']}, "
        f"{s['players']} players, {s['deals']} deals x {s['players']} seats = "
        f"{s['matches']} matches (seed {s['seed']})",
        f"  win share {ci(s['win_share'], '.3f')} (fair share {s['fair_share']:.3f}; "
        "95% interval, paired by deal)",
        f"  margin over the best opponent per match {ci(s['margin'], '+.2f')} points",
        f"  wrong answers {s['invalid_answers']}, fallbacks {s['fallbacks']}, "
        f"forfeits {s['forfeits']}",
        *([f"  {s['void']} matches left out: an opponent's program forfeited them"]
          if s["void"] else []),
    ])
