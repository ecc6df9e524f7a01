"""Tournaments between bots, programs and chat agents, rated with OpenSkill.

Entrants are bot specs (``expert``, ``search:ms=50``), ``cmd:`` programs (the line
protocol) or chat agents (``openai:BASE_URL:MODEL``, answering the text prompts of
:mod:`golf.envs.text`). They meet at tables of ``players`` seats:

* **round robin**: every set of ``players`` entrants is a table, in every round;
* **Swiss**: each round, entrants are ordered by rating and seated in order, each
  table filled with the next entrants it has met least; the ones left over sit out
  (a bye, taken in turn from the bottom).

Every table plays ``deals`` deals a round, each deal once per seat rotation (duplicate
deals: every entrant plays every seat of the same cards), and every table of a round
plays the same deals. A match's seed comes from the run's seed and the deal's number
(:func:`golf.results.match_seed`) and its index from its place in the schedule, so the
results are the same on any :mod:`backend <golf.backend>`, and ratings are computed from
the results in index order.

Ratings: OpenSkill's Plackett-Luce model (the ``openskill`` package), one update per
match with every seat ranked by its placing (the match's winners first, then by total;
a seat that forfeited last). Each rating is ``mu`` with a 95% interval ``mu +- 1.96
sigma``; ``ordinal`` is ``mu - 3 sigma``, a conservative figure.

A state file keeps each finished match as one JSON line: a run interrupted and started
again with the same arguments plays only the matches missing, and ends with the same
leaderboard as an uninterrupted run.

>>> from golf import load_rules
>>> t = Tournament(("greedy", "random"), load_rules("six-card", {"holes": 1}), deals=2)
>>> board = run_tournament(t)
>>> [row["entrant"] for row in board["leaderboard"]], board["matches"]
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .backend import Backend, LocalPool, gather
from .bots.base import make_bot
from .envs.agents import ChatAgent, is_chat_spec
from .envs.text import TextMatch, TextOptions
from .errors import GolfError
from .game import Game
from .ratings import house_rules, rules_rateable
from .results import MatchResult, match_seed, rotated
from .results import placings as result_placings
from .rules import Rules, rules_from_dict
from .simulate import Z95, play_match, wilson

__all__ = ["FORMATS", "Tournament", "format_html", "format_markdown", "leaderboard",
           "load_state", "rate", "run_tournament"]

FORMATS = ("round-robin", "swiss")
STATE_VERSION = 1


@dataclass(frozen=True)
class Tournament:
    """What a tournament is: its entrants, rules, table size, deals a table and round,
    rounds, format and seed, and how chat agents are treated (``text``: retries and
    fallback; ``chat``: :class:`~golf.envs.agents.ChatAgent` options such as
    ``timeout``)."""

    entrants: tuple[str, ...]
    rules: Rules
    players: int = 2
    deals: int = 10
    rounds: int = 1
    format: str = "round-robin"
    seed: int = 0
    text: TextOptions = field(default_factory=TextOptions)
    chat: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.entrants) < 2:
            raise GolfError("a tournament needs at least two entrants")
        twice = sorted({e for e in self.entrants if self.entrants.count(e) > 1})
        if twice:
            raise GolfError(f"entrant {twice[0]!r} is named twice; give each entrant once "
                            "(a spec with other options is another entrant)")
        self.rules.check_players(self.players)
        if self.players < 2:
            raise GolfError("a tournament's tables need at least 2 players")
        if self.players > len(self.entrants):
            raise GolfError(f"{self.players} players a table but only {len(self.entrants)} "
                            "entrants")
        if self.format not in FORMATS:
            raise GolfError(f"unknown format {self.format!r}; formats are: "
                            f"{', '.join(FORMATS)}")
        for name, value in (("deals", self.deals), ("rounds", self.rounds)):
            if value < 1:
                raise GolfError(f"{name} must be at least 1, got {value}")
        if self.seed < 0:
            raise GolfError(f"the seed must be 0 or more, got {self.seed}")

    def check_entrants(self) -> None:
        """Fail on a bad spec before any match (a bot's or an agent's)."""
        for spec in self.entrants:
            if is_chat_spec(spec):
                ChatAgent.from_spec(spec, **dict(self.chat))
            else:
                make_bot(spec, self.rules, programs=True)

    @property
    def tables_per_round(self) -> int:
        """Round robin: every set of ``players`` entrants; Swiss: as many full tables
        as the entrants fill."""
        n = len(self.entrants)
        if self.format == "swiss":
            return n // self.players
        return math.comb(n, self.players)

    @property
    def matches(self) -> int:
        return self.rounds * self.tables_per_round * self.deals * self.players

    def identity(self) -> dict[str, Any]:
        """Everything that decides the matches and their results, as plain data: a state
        file belongs to the tournament with the same identity."""
        return {
            "entrants": list(self.entrants), "rules": self.rules.to_dict(),
            "players": self.players, "deals": self.deals, "rounds": self.rounds,
            "format": self.format, "seed": self.seed,
            "text": {"retries": self.text.retries, "fallback": self.text.fallback,
                     "recent": self.text.recent, "show_peeks": self.text.show_peeks},
        }

    def fingerprint(self) -> str:
        """A short hash of :meth:`identity` (the default state file's name has it)."""
        data = json.dumps(self.identity(), sort_keys=True).encode()
        return hashlib.sha256(data).hexdigest()[:12]


# --- the schedule --------------------------------------------------------------------

@dataclass(frozen=True)
class MatchJob:
    """One match of the schedule as plain data, played wherever the backend runs it."""

    index: int
    round: int
    table: tuple[str, ...]  # the table's entrants, in their seating for rotation 0
    seats: tuple[str, ...]  # the entrant in each seat for this rotation
    seed: int
    rules: str  # the rules' settings as JSON (a Rules object carries caches)
    text: TextOptions
    chat: dict[str, Any]


def round_tables(t: Tournament, round_: int, ratings: Mapping[str, Any],
                 met: Mapping[frozenset[str], int], byes: Mapping[str, int],
                 ) -> list[tuple[str, ...]]:
    """The tables of round ``round_``: every combination (round robin) or the Swiss
    pairing from the ratings after the rounds before."""
    if t.format == "round-robin":
        return list(itertools.combinations(t.entrants, t.players))
    order = sorted(t.entrants, key=lambda e: (-ratings[e].mu, t.entrants.index(e)))
    resting = len(order) % t.players
    # The byes go to those with the fewest so far, from the bottom of the order.
    out = sorted(reversed(order), key=lambda e: byes.get(e, 0))[:resting]
    left = [e for e in order if e not in out]
    tables: list[tuple[str, ...]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < t.players:
            pick = min(left, key=lambda e: (sum(met.get(frozenset((e, m)), 0) for m in table),
                                            left.index(e)))
            left.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return tables


def round_jobs(t: Tournament, round_: int, tables: Sequence[tuple[str, ...]]) -> list[MatchJob]:
    """The matches of one round: table by table, deal by deal, rotation by rotation;
    match ``((round * T + table) * deals + deal) * players + rotation``."""
    raw = json.dumps(t.rules.to_dict(), sort_keys=True)
    jobs = []
    per_round = t.tables_per_round
    for k, table in enumerate(tables):
        for d in range(t.deals):
            seed = match_seed(t.seed, round_ * t.deals + d)
            for r in range(t.players):
                index = ((round_ * per_round + k) * t.deals + d) * t.players + r
                jobs.append(MatchJob(index, round_, table, rotated(table, r), seed, raw,
                                     t.text, dict(t.chat)))
    return jobs


# --- playing one match ---------------------------------------------------------------

_RULES: dict[str, Rules] = {}


def _rules(raw: str) -> Rules:
    r = _RULES.get(raw)
    if r is None:
        r = _RULES[raw] = rules_from_dict(json.loads(raw))
    return r


def play(job: MatchJob) -> MatchResult:
    """Play one scheduled match: at a bot table (:func:`golf.simulate.play_match`) when
    every seat is a bot or program, else a text match whose chat agents answer."""
    rules = _rules(job.rules)
    players = len(job.seats)
    chats = {s: spec for s, spec in enumerate(job.seats) if is_chat_spec(spec)}
    if not chats:
        return play_match(rules, players, job.seats, job.seed, job.index)
    speakers = {s: ChatAgent.from_spec(spec, **job.chat) for s, spec in chats.items()}
    bots = {s: spec for s, spec in enumerate(job.seats) if s not in chats}
    match = TextMatch(Game(rules, players=players, seed=job.seed), bots, job.text)
    try:
        while (seat := match.to_act) is not None:
            match.answer(speakers[seat](match.observation()))
    finally:
        match.close()
    g = match.game
    forfeit = match.forfeited
    return MatchResult(
        job.index, job.seed, job.seats, tuple(tuple(h) for h in g.hole_scores), (), (),
        tuple(g.totals), tuple(g.winners) if forfeit is None else (),
        None if forfeit is None else f"{job.seats[forfeit]} forfeited",
        forfeit, tuple(f"{job.seats[s]}: {n} fallback(s)"
                       for s, n in enumerate(match.fallbacks) if n),
    )


def placings(result: MatchResult) -> list[int]:
    """Each seat's place (0 is first; tied seats share one) by
    :func:`golf.results.placings`: the match's winners, then by total; a seat that
    forfeited comes last.

    >>> placings(MatchResult(0, 0, ("a", "b", "c"), (), (), (), (9, 4, 4), (1,)))
    [2, 0, 1]
    """
    return result_placings(result.winners, result.totals, result.forfeit_seat)


# --- ratings -------------------------------------------------------------------------

def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise GolfError("tournament ratings need the openskill package: "
                        "pip install 'golf-cards[sim]'") from None
    return PlackettLuce()


def rate(entrants: Sequence[str], results: Sequence[MatchResult]) -> dict[str, Any]:
    """Each entrant's OpenSkill (Plackett-Luce) rating after ``results``, rated one
    match at a time in index order."""
    model = _model()
    ratings = {e: model.rating(name=e) for e in entrants}
    for res in sorted(results, key=lambda r: r.index):
        teams = [[ratings[spec]] for spec in res.bots]
        rated = model.rate(teams, ranks=placings(res))
        for spec, team in zip(res.bots, rated, strict=True):
            ratings[spec] = team[0]
    return ratings


# --- the state file ------------------------------------------------------------------

def default_state_path(t: Tournament) -> Path:
    return Path(f"golf-tournament-{t.fingerprint()}.jsonl")


def load_state(path: Path, t: Tournament) -> dict[int, MatchResult]:
    """The matches a state file holds (none when it does not exist). A file of another
    tournament is refused; a last line cut short (the run was killed while writing it)
    is dropped from the file."""
    if not path.exists():
        return {}
    try:
        data = path.read_bytes()
    except OSError as e:
        raise GolfError(f"cannot read the state file {str(path)!r}: {e.strerror}") from None
    lines = data.split(b"\n")
    complete = b"\n".join(lines[:-1]) + b"\n" if len(lines) > 1 else b""
    if lines[-1]:  # cut short: keep the whole lines only
        path.write_bytes(complete)
    rows = [json.loads(line) for line in complete.splitlines() if line.strip()]
    if not rows:
        return {}
    head = rows[0]
    if head.get("golf_tournament") != STATE_VERSION or head.get("identity") != t.identity():
        raise GolfError(f"the state file {str(path)!r} belongs to another tournament "
                        "(other entrants, rules or settings); give another --state, or "
                        "--fresh to start this one over")
    return {r["index"]: MatchResult.from_dict(r["result"]) for r in rows[1:]}


class _StateWriter:
    """Appends each finished match to the state file as it comes, flushed to disk."""

    def __init__(self, path: Path | None, t: Tournament, fresh: bool) -> None:
        self.file = None
        if path is None:
            return
        try:
            new = fresh or not path.exists() or path.stat().st_size == 0
            self.file = path.open("w" if new else "a", encoding="utf-8")
        except OSError as e:
            raise GolfError(f"cannot write the state file {str(path)!r}: {e.strerror}") from None
        if new:
            self._write({"golf_tournament": STATE_VERSION, "identity": t.identity()})

    def _write(self, row: dict[str, Any]) -> None:
        assert self.file is not None
        self.file.write(json.dumps(row, sort_keys=True) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def __call__(self, _: int, result: MatchResult) -> None:
        if self.file is not None:
            self._write({"index": result.index, "result": result.to_dict()})

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# --- running it ----------------------------------------------------------------------

def run_tournament(
    t: Tournament, backend: Backend | None = None, state: Path | None = None,
    fresh: bool = False, progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the tournament (what ``state`` holds already is not played again; ``fresh``
    starts the file over) and return :func:`leaderboard`'s data."""
    t.check_entrants()
    done = {} if fresh or state is None else load_state(state, t)
    backend = backend or LocalPool(1)
    writer = _StateWriter(state, t, fresh)
    total = t.matches
    start = len(done)

    def tick(n: int, _: int) -> None:
        if progress is not None:
            progress(start + n, total)

    try:
        if progress is not None and start:
            progress(start, total)
        if t.format == "round-robin":  # no round waits for another: all at once
            jobs = [j for r in range(t.rounds)
                    for j in round_jobs(t, r, round_tables(t, r, {}, {}, {}))]
            _play_missing(backend, jobs, done, writer, tick)
        else:
            per_round = t.tables_per_round * t.deals * t.players
            for r in range(t.rounds):
                # Only the rounds before decide the pairing, even when a resumed run
                # holds some of this round's matches already.
                before = {i: res for i, res in done.items() if i < r * per_round}
                ratings = rate(t.entrants, list(before.values()))
                tables = round_tables(t, r, ratings, _meetings(before), _byes(t, before, r))
                _play_missing(backend, round_jobs(t, r, tables), done, writer, tick)
                start = len(done)
    finally:
        writer.close()
    return leaderboard(t, [done[i] for i in sorted(done)])


def _play_missing(backend: Backend, jobs: Sequence[MatchJob], done: dict[int, MatchResult],
                  writer: _StateWriter, tick: Callable[[int, int], None]) -> None:
    for job in jobs:  # a state file from a changed schedule would mix tournaments
        old = done.get(job.index)
        if old is not None and old.bots != job.seats:
            raise GolfError(f"the state file's match {job.index} was played by "
                            f"{', '.join(old.bots)}, not {', '.join(job.seats)}: "
                            "start over with --fresh")
    missing = [j for j in jobs if j.index not in done]

    def keep(i: int, result: MatchResult) -> None:
        writer(i, result)
        done[result.index] = result

    gather(backend, play, missing, tick, keep)


def _meetings(done: Mapping[int, MatchResult]) -> dict[frozenset[str], int]:
    met: dict[frozenset[str], int] = {}
    for res in done.values():
        for a, b in itertools.combinations(res.bots, 2):
            key = frozenset((a, b))
            met[key] = met.get(key, 0) + 1
    return met


def _byes(t: Tournament, done: Mapping[int, MatchResult], before: int) -> dict[str, int]:
    """Rounds before ``before`` in which each entrant sat out."""
    per_round = t.tables_per_round * t.deals * t.players
    played: dict[int, set[str]] = {}
    for res in done.values():
        played.setdefault(res.index // per_round, set()).update(res.bots)
    return {e: sum(1 for r in range(before) if e not in played.get(r, set()))
            for e in t.entrants}


def leaderboard(t: Tournament, results: Sequence[MatchResult]) -> dict[str, Any]:
    """The tournament's figures as JSON-ready data: per entrant its rating (``mu``,
    ``sigma``, the 95% interval, ``ordinal``), matches, win share (Wilson 95%
    interval), mean hole score and forfeits, ranked by ``mu``; the pairwise share of
    meetings each entrant placed ahead (ties count half). ``variant`` names the rules'
    preset; ``rated_rules`` says whether they were that preset's unchanged and
    ``house_rules`` holds the settings that differ (:func:`golf.ratings.house_rules`)."""
    ratings = rate(t.entrants, results)
    stats = {e: {"matches": 0, "wins": 0.0, "points": 0, "holes": 0, "forfeits": 0}
             for e in t.entrants}
    ahead: dict[tuple[str, str], list[float]] = {}
    for res in results:
        places = placings(res)
        share = 1.0 / len(res.winners) if res.winners else 0.0
        for s, spec in enumerate(res.bots):
            st = stats[spec]
            st["matches"] += 1
            st["wins"] += share if s in res.winners else 0.0
            st["points"] += sum(h[s] for h in res.hole_scores)
            st["holes"] += len(res.hole_scores)
            st["forfeits"] += res.forfeit_seat == s
        for a, b in itertools.permutations(range(len(res.bots)), 2):
            v = 1.0 if places[a] < places[b] else 0.5 if places[a] == places[b] else 0.0
            ahead.setdefault((res.bots[a], res.bots[b]), []).append(v)
    rows = []
    for e in t.entrants:
        r, st = ratings[e], stats[e]
        n = int(st["matches"])
        rate_ = st["wins"] / n if n else math.nan
        rows.append({
            "entrant": e, "mu": r.mu, "sigma": r.sigma,
            "mu_ci95": [r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma],
            "ordinal": r.mu - 3 * r.sigma, "matches": n, "win_rate": rate_,
            "win_rate_ci95": list(wilson(rate_, n)) if n else [math.nan, math.nan],
            "mean_hole_score": st["points"] / st["holes"] if st["holes"] else math.nan,
            "forfeits": int(st["forfeits"]),
        })
    rows.sort(key=lambda row: (-row["mu"], row["sigma"], t.entrants.index(row["entrant"])))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return {
        "format": t.format, "variant": t.rules.name, "players": t.players,
        # A board names its preset; these say whether the rules were that preset's
        # unchanged (only then can it measure anchors for player ratings).
        "rated_rules": rules_rateable(t.rules), "house_rules": house_rules(t.rules),
        "deals": t.deals, "rounds": t.rounds, "seed": t.seed,
        "matches": len(results), "scheduled": t.matches,
        "rating": {"model": "openskill PlackettLuce", "mu0": 25.0, "sigma0": 25.0 / 3,
                   "interval": "mu +- 1.96 sigma", "ordinal": "mu - 3 sigma"},
        "leaderboard": rows,
        "ahead": [{"entrant": a, "opponent": b, "meetings": len(v), "share": sum(v) / len(v)}
                  for (a, b), v in sorted(ahead.items())],
    }


# --- the leaderboard as Markdown and HTML --------------------------------------------

def _title(board: Mapping[str, Any]) -> str:
    rounds = f", {board['rounds']} rounds" if board["rounds"] > 1 else ""
    house = board.get("house_rules") or {}
    changed = (" with house rules " + ", ".join(f"{k}={json.dumps(v)}" for k, v in house.items())
               if house else "")
    return (f"{board['format']} tournament: {board['variant']}{changed}, "
            f"{board['players']} players a "
            f"table, {board['deals']} duplicate deals a table{rounds}, seed {board['seed']}")


def format_markdown(board: Mapping[str, Any]) -> str:
    """The leaderboard as a Markdown table, with how to read it."""
    lines = [f"## {_title(board)}", "",
             f"{board['matches']} of {board['scheduled']} matches played. Ratings: OpenSkill "
             "(Plackett-Luce), mu with its 95% interval (mu +- 1.96 sigma); ordinal is "
             "mu - 3 sigma.", "",
             "| rank | entrant | mu | 95% interval | ordinal | matches | match wins (95% CI) "
             "| mean hole score |",
             "|---:|---|---:|---|---:|---:|---|---:|"]
    for r in board["leaderboard"]:
        lo, hi = r["mu_ci95"]
        wlo, whi = r["win_rate_ci95"]
        wins = (f"{100 * r['win_rate']:.1f}% ({100 * wlo:.1f} to {100 * whi:.1f})"
                if r["matches"] else "-")
        forfeits = f" ({r['forfeits']} forfeited)" if r["forfeits"] else ""
        name = r["entrant"].replace("|", "\\|")
        lines.append(f"| {r['rank']} | `{name}`{forfeits} | {r['mu']:.2f} | {lo:.2f} to "
                     f"{hi:.2f} | {r['ordinal']:.2f} | {r['matches']} | {wins} | "
                     f"{r['mean_hole_score']:.2f} |")
    return "\n".join(lines)


def rating_svg(board: Mapping[str, Any], width: int = 640) -> str:
    """A plot of the ratings, drawn here: one row per entrant, its 95% interval as a
    bar and its mu as a dot, on a shared axis."""
    rows = board["leaderboard"]
    low: float = min(r["mu_ci95"][0] for r in rows)
    high: float = max(r["mu_ci95"][1] for r in rows)
    pad = max(1.0, (high - low) * 0.05)
    lo, hi = math.floor(low - pad), math.ceil(high + pad)
    left, right, top, step = 200, 20, 20, 28
    height = top + step * len(rows) + 48

    def x(v: float) -> float:
        return left + (width - left - right) * (v - lo) / (hi - lo)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="ratings with 95% '
             'intervals" font-family="sans-serif" font-size="12">']
    ticks = _ticks(lo, hi)
    for v in ticks:
        parts.append(f'<line x1="{x(v):.1f}" y1="{top - 8}" x2="{x(v):.1f}" '
                     f'y2="{height - 36}" stroke="#ddd"/>'
                     f'<text x="{x(v):.1f}" y="{height - 22}" text-anchor="middle">{v:g}</text>')
    for k, r in enumerate(rows):
        y = top + step * k + step / 2
        a, b = r["mu_ci95"]
        label = r["entrant"] if len(r["entrant"]) <= 28 else r["entrant"][:27] + "…"
        parts.append(
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">'
            f'{html.escape(label)}</text>'
            f'<line x1="{x(a):.1f}" y1="{y:.1f}" x2="{x(b):.1f}" y2="{y:.1f}" '
            'stroke="#4a78b5" stroke-width="4" stroke-linecap="round"/>'
            f'<circle cx="{x(r["mu"]):.1f}" cy="{y:.1f}" r="5" fill="#1d3f6e">'
            f'<title>{html.escape(r["entrant"])}: mu {r["mu"]:.2f} ({a:.2f} to {b:.2f})'
            '</title></circle>')
    parts.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 4}" '
                 'text-anchor="middle">rating (mu, 95% interval)</text></svg>')
    return "".join(parts)


def _ticks(lo: float, hi: float) -> list[float]:
    """Round axis values between ``lo`` and ``hi``, about five of them.

    >>> _ticks(0, 10)
    [0, 2, 4, 6, 8, 10]
    """
    raw = (hi - lo) / 5
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    count = int((hi - first) // step) + 1
    return [round(first + i * step, 10) for i in range(count)]


def format_html(board: Mapping[str, Any]) -> str:
    """A self-contained page: the leaderboard, the rating plot (inline SVG) and the
    pairwise table; no script, no external file."""
    esc = html.escape
    head = ("<tr><th>rank</th><th>entrant</th><th>mu</th><th>95% interval</th>"
            "<th>ordinal</th><th>matches</th><th>match wins (95% CI)</th>"
            "<th>mean hole score</th></tr>")
    body = []
    for r in board["leaderboard"]:
        lo, hi = r["mu_ci95"]
        wlo, whi = r["win_rate_ci95"]
        wins = (f"{100 * r['win_rate']:.1f}% ({100 * wlo:.1f} to {100 * whi:.1f})"
                if r["matches"] else "-")
        body.append(f"<tr><td>{r['rank']}</td><td><code>{esc(r['entrant'])}</code></td>"
                    f"<td>{r['mu']:.2f}</td><td>{lo:.2f} to {hi:.2f}</td>"
                    f"<td>{r['ordinal']:.2f}</td><td>{r['matches']}</td><td>{wins}</td>"
                    f"<td>{r['mean_hole_score']:.2f}</td></tr>")
    names = [r["entrant"] for r in board["leaderboard"]]
    share = {(a["entrant"], a["opponent"]): a["share"] for a in board["ahead"]}
    grid = ["<tr><th></th>" + "".join(f"<th><code>{esc(n)}</code></th>" for n in names)
            + "</tr>"]
    for a in names:
        cells = "".join(
            "<td>-</td>" if a == b or (a, b) not in share
            else f"<td>{100 * share[(a, b)]:.0f}%</td>" for b in names)
        grid.append(f"<tr><th><code>{esc(a)}</code></th>{cells}</tr>")
    title = esc(_title(board))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }}
td:nth-child(2), th {{ text-align: left; }}
</style></head><body>
<h1>{title}</h1>
<p>{board['matches']} of {board['scheduled']} matches played. Ratings: OpenSkill
(Plackett-Luce), mu with its 95% interval (mu &#177; 1.96 sigma); ordinal is mu &#8722;
3 sigma.</p>
{rating_svg(board)}
<table>{head}{"".join(body)}</table>
<h2>Head to head</h2>
<p>The share of meetings in which the row's entrant placed ahead of the column's (ties
count half).</p>
<table>{"".join(grid)}</table>
</body></html>
"""
