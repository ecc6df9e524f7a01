"""Tournaments between bots, with statistics.

:func:`play_match` plays one match between bots; :func:`simulate` plays many, in
worker processes, and :func:`summarise` turns the results into the figures that
``golf simulate`` prints. Every match's seed comes from the base seed and the
match's index alone, so the results do not depend on the number of workers.

Conventions (also in ``golf simulate --help``):

* ``bots`` lists one spec per seat; with fewer specs than players the list is
  repeated (``expert,greedy`` at four players is expert, greedy, expert, greedy).
* A shared match win counts fractionally: each of k joint winners gets 1/k.
* Intervals are 95%: a mean hole score's comes from the spread of per-match means
  (holes of one match are not independent), a win rate's is Wilson's.
* The first-player advantage compares, hole by hole, the score of the player who
  moved first with the mean score of the others (negative: moving first helps).
* Two engines play the matches (:func:`pick_engine`): ``python`` (a
  :class:`~golf.table.Table` per match, the bots as registered) and ``compiled``
  (:mod:`golf.fast.batch`, when every seat's bot has a compiled policy that plays it
  and :mod:`golf.fast` plays the rules). Both give the same records and reports; the
  compiled core deals with its own generator, so its matches are other deals.

>>> from golf import load_rules
>>> r = simulate(load_rules("six-card"), 2, ["greedy", "random"], games=4, seed=1, workers=1)
>>> [row["bot"] for row in r["seats"]], r["matches"]
(['greedy', 'random'], 4)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .backend import Backend, LocalPool, gather
from .bots.base import make_bot
from .bots.external import BotFailure, ExternalBot
from .errors import GolfError, IllegalAction
from .game import Game

# Part of this module's API too (they live in golf.results, which golf.fast.batch shares).
from .results import MatchResult as MatchResult
from .results import match_seed as match_seed
from .results import rotated as rotated
from .rules import Rules, rules_from_dict
from .table import BotSeat, Table, bot_seats

Z95 = 1.959963984540054


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """The bot spec of each seat: the list repeated up to ``players``."""
    if not bots:
        raise GolfError("give at least one bot, e.g. --bots expert,greedy")
    if len(bots) > players:
        raise GolfError(
            f"{len(bots)} bots ({', '.join(bots)}) but only {players} players: "
            "give at most one bot per player"
        )
    return [bots[s % len(bots)] for s in range(players)]


def play_match(
    rules: Rules, players: int, bots: Sequence[str], seed: int, index: int = 0,
) -> MatchResult:
    """Play one whole match at a :class:`~golf.table.Table`; seat ``s`` is played by
    the registry bot ``bots[s]``, seeded by :func:`golf.table.bot_seed`."""
    g = Game(rules, players=players, seed=seed)
    table = Table(g, bot_seats(bots, rules, seed))
    try:
        hole_turns, firsts = _play_out(table, bots, seed, index)
    except BotFailure as e:  # the bot's fallback is forfeit: the match ends here
        return MatchResult(index, seed, tuple(bots), tuple(tuple(h) for h in g.hole_scores),
                           (), (), tuple(g.totals), (), str(e), e.seat, _fallbacks(table))
    finally:
        table.close()  # an external bot's program is stopped with its match
    return MatchResult(
        index, seed, tuple(bots), tuple(tuple(h) for h in g.hole_scores), tuple(hole_turns),
        tuple(firsts), tuple(g.totals), tuple(g.winners), fallbacks=_fallbacks(table),
    )


def _fallbacks(table: Table) -> tuple[str, ...]:
    out: list[str] = []
    for s in table.seats:
        if isinstance(s, BotSeat) and isinstance(s.bot, ExternalBot):
            out += s.bot.failures
    return tuple(out)


def _play_out(
    table: Table, bots: Sequence[str], seed: int, index: int,
) -> tuple[list[tuple[int, ...]], list[int]]:
    g = table.game
    players = g.players
    hole_turns: list[tuple[int, ...]] = []
    firsts: list[int] = []
    turns = [0] * players
    first = -1
    playoff = False
    while not g.is_over:
        try:
            turn = table.step()
        except IllegalAction as e:  # a bot bug: say which bot and where
            seat = g.current_player
            assert seat is not None
            raise GolfError(f"bot {bots[seat]!r} (seat {seat}) chose an illegal action in "
                            f"match {index} (seed {seed}): {e}") from None
        if first < 0:
            first = turn.seat
        if turn.phase == "turn":
            turns[turn.seat] += 1
        if g.ended_hole:
            if not playoff:
                hole_turns.append(tuple(turns))
                firsts.append(first)
            playoff = g.is_playoff
            turns = [0] * players
            first = -1
    return hole_turns, firsts


# --- running many matches -------------------------------------------------------------

def _work(job: tuple[dict[str, Any], int, tuple[str, ...], int, int]) -> MatchResult:
    raw, players, bots, seed, index = job  # seed: the match's own seed
    rules = _rules_cache(raw)
    return play_match(rules, players, bots, seed, index)


_RULES: dict[str, Rules] = {}


def _rules_cache(raw: dict[str, Any]) -> Rules:
    # Workers rebuild the rules once from plain data (a Rules object would drag its
    # scorer's cache through the pipe).
    key = repr(sorted(raw.items()))
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = rules_from_dict(raw)
    return r


ENGINES = ("auto", "python", "compiled")


def pick_engine(
    rules: Rules, players: int, bots: Sequence[str], engine: str = "auto",
) -> tuple[str, str]:
    """The engine to play with (``"python"`` or ``"compiled"``) and why.

    ``auto`` takes the compiled core when every seat's bot has a compiled policy and the
    core plays the rules; ``compiled`` insists (a clear error naming the bot or setting
    otherwise); ``python`` always plays at tables.

    >>> from golf import load_rules
    >>> six = load_rules("six-card")
    >>> pick_engine(six, 2, ["fast-expert", "random"])
    ('compiled', 'every bot has a compiled policy')
    >>> pick_engine(six, 2, ["expert", "random"])[0]
    'python'
    """
    if engine not in ENGINES:
        raise GolfError(f"unknown engine {engine!r}; engines are: {', '.join(ENGINES)}")
    if engine == "python":
        return "python", "asked for"
    try:
        from .fast.batch import why_not_compiled
    except (ImportError, GolfError) as e:  # numba missing: golf.fast says which extra
        why: str | None = f"the compiled core is not available ({e})"
    else:
        why = why_not_compiled(rules, players, seat_bots(bots, players))
    if why is None:
        return "compiled", "every bot has a compiled policy"
    if engine == "compiled":
        raise GolfError(f"cannot use the compiled engine: {why}; use --engine python "
                        "(or auto, which falls back to it)")
    return "python", why


def run_matches(
    rules: Rules, players: int, bots: Sequence[str], games: int, seed: int, workers: int = 1,
    progress: Callable[[int, int], None] | None = None, duplicate: bool = False,
    engine: str = "python", backend: Backend | None = None,
) -> list[MatchResult]:
    """Play ``games`` matches, in ``workers`` processes (or on ``backend``: a
    :class:`golf.backend.Backend`, e.g. a Ray cluster), in match order.

    With ``duplicate`` each of ``games`` deals (a match seed: the same cards) is played
    ``players`` times, the bots rotated one seat on each time (:func:`rotated`), so every
    bot plays every seat of every deal; match ``d * players + k`` is deal ``d``,
    rotation ``k``. ``engine`` is :func:`pick_engine`'s choice (``auto`` is resolved
    here); the compiled engine runs in this process, whatever ``workers`` says."""
    rules.check_players(players)
    seats = tuple(seat_bots(bots, players))
    for spec in set(seats):
        make_bot(spec, rules, programs=True)  # a bad spec fails here, before any worker
    if games < 1:
        raise GolfError(f"the number of games must be at least 1, got {games}")
    if workers < 1:
        raise GolfError(f"the number of workers must be at least 1, got {workers}")
    if engine != "python" and pick_engine(rules, players, seats, engine)[0] == "compiled":
        from .fast.batch import run_compiled

        return run_compiled(rules, players, seats, games, seed, progress, duplicate)
    raw = rules.to_dict()
    if duplicate:
        jobs = [(raw, players, rotated(seats, k), match_seed(seed, d), d * players + k)
                for d in range(games) for k in range(players)]
    else:
        jobs = [(raw, players, seats, match_seed(seed, i), i) for i in range(games)]
    # The execution backend (a local pool by default, or Ray) keys results by index.
    return gather(backend or LocalPool(workers), _work, jobs, progress)


# --- statistics ------------------------------------------------------------------------

def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval of independent values: :func:`ratio_ci` with
    clusters of one."""
    return ratio_ci(values, [1] * len(values))


def ratio_ci(sums: Sequence[float], sizes: Sequence[float]) -> tuple[float, float, float]:
    """Mean per unit of clustered data (``sums[i]`` over ``sizes[i]`` units) with a 95%
    interval that treats clusters, not units, as independent."""
    total = sum(sizes)
    k = len(sums)
    if total == 0:
        return math.nan, math.nan, math.nan
    m = sum(sums) / total
    if k < 2:
        return m, math.nan, math.nan
    mean_size = total / k
    var = sum((s - m * n) ** 2 for s, n in zip(sums, sizes, strict=True)) / (k * (k - 1))
    half = Z95 * math.sqrt(var) / mean_size
    return m, m - half, m + half


def wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion ``p`` observed over ``n`` trials."""
    if n == 0:
        return math.nan, math.nan
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # (clamped to contain p: rounding leaves 1e-17 where p is 0 or 1)
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def _group(
    results: Sequence[MatchResult], key: Callable[[int, str], Any],
) -> dict[Any, dict[str, Any]]:
    groups: dict[Any, dict[str, list[float]]] = {}
    for res in results:
        share = 1.0 / len(res.winners) if res.winners else 0.0
        for s, spec in enumerate(res.bots):
            g = groups.setdefault(key(s, spec), {"sums": [], "holes": [], "wins": [],
                                                 "turns": []})
            scores = [h[s] for h in res.hole_scores]
            g["sums"].append(sum(scores))
            g["holes"].append(len(scores))
            g["wins"].append(share if s in res.winners else 0.0)
            g["turns"].extend(t[s] for t in res.turns)
    out: dict[Any, dict[str, Any]] = {}
    for k, g in groups.items():
        mean, lo, hi = ratio_ci(g["sums"], g["holes"])
        n = len(g["wins"])
        rate = sum(g["wins"]) / n
        wlo, whi = wilson(rate, n)
        turns = g["turns"]
        out[k] = {
            "matches": n,
            "holes": int(sum(g["holes"])),
            "mean_hole_score": mean,
            "mean_hole_score_ci95": [lo, hi],
            "win_rate": rate,
            "win_rate_ci95": [wlo, whi],
            "mean_turns_per_hole": sum(turns) / len(turns) if turns else math.nan,
        }
    return out


def summarise(
    results: Sequence[MatchResult], rules: Rules, players: int, bots: Sequence[str], seed: int,
    engine: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The figures of a run, as JSON-ready data (``engine``: :func:`pick_engine`'s
    answer, reported as ``engine`` and ``engine_reason``). Forfeited matches are left out
    of the figures and listed under ``forfeits``; ``fallbacks`` counts the decisions (or
    rests of matches) that bots' fallbacks played, with the first few messages."""
    everything = results
    results = [r for r in results if r.forfeit is None]
    by_seat = _group(results, lambda s, spec: s)
    by_bot = _group(results, lambda s, spec: spec)
    seats = seat_bots(bots, players)
    diffs_by_match: list[float] = []
    holes_by_match: list[int] = []
    first_wins = 0.0
    holes = 0
    for res in results:
        acc = 0.0
        for h, f in zip(res.hole_scores, res.first, strict=False):
            others = [v for s, v in enumerate(h) if s != f]
            if not others:
                continue
            acc += h[f] - sum(others) / len(others)
            low = min(h)
            if h[f] == low:
                first_wins += 1.0 / sum(1 for v in h if v == low)
            holes += 1
        diffs_by_match.append(acc)
        holes_by_match.append(min(len(res.hole_scores), len(res.first)))
    diff, dlo, dhi = ratio_ci(diffs_by_match, holes_by_match)
    return {
        **({"engine": engine[0], "engine_reason": engine[1]} if engine else {}),
        "variant": rules.name,
        "players": players,
        "bots": list(bots),
        "seed": seed,
        "matches": len(results),
        "holes_per_match": rules.holes,
        "target": rules.target,
        "seats": [{"seat": s, "bot": seats[s], **by_seat.get(s, _NO_FIGURES)}
                  for s in range(players)],
        "by_bot": [{"bot": b, **by_bot.get(b, _NO_FIGURES)} for b in dict.fromkeys(seats)],
        "first_player": {
            "holes": holes,
            "score_difference": diff,
            "score_difference_ci95": [dlo, dhi],
            "hole_win_rate": first_wins / holes if holes else math.nan,
            "hole_win_rate_ci95": list(wilson(first_wins / holes, holes)) if holes
            else [math.nan, math.nan],
            "fair_share": 1.0 / players,
        },
        **_failures(everything),
    }


#: A seat's or bot's figures when every one of its matches was forfeited.
_NO_FIGURES: dict[str, Any] = {
    "matches": 0, "holes": 0, "mean_hole_score": math.nan,
    "mean_hole_score_ci95": [math.nan, math.nan], "win_rate": math.nan,
    "win_rate_ci95": [math.nan, math.nan], "mean_turns_per_hole": math.nan,
}


def _failures(results: Sequence[MatchResult]) -> dict[str, Any]:
    forfeits = [{"match": r.index, "seed": r.seed, "seat": r.forfeit_seat,
                 "bot": r.bots[r.forfeit_seat] if r.forfeit_seat is not None else None,
                 "reason": r.forfeit} for r in results if r.forfeit is not None]
    messages = [m for r in results for m in r.fallbacks]
    return {"forfeits": forfeits,
            "fallbacks": {"count": len(messages), "first": messages[:5]}}


def duplicate_summary(results: Sequence[MatchResult], players: int) -> dict[str, Any]:
    """Paired figures of a duplicate run (:func:`run_matches` with ``duplicate``): per
    bot, its match win share and mean hole score averaged over its seats in each deal's
    rotations, with 95% intervals over deals (the rotations of a deal are paired, so
    the luck of the deal cancels out). A deal with a forfeited rotation is left out
    whole, so that every deal counted stays paired."""
    forfeited = {r.index // players for r in results if r.forfeit is not None}
    deals: dict[int, list[MatchResult]] = {}
    for r in results:
        if r.index // players not in forfeited:
            deals.setdefault(r.index // players, []).append(r)
    specs = list(dict.fromkeys(b for r in results for b in r.bots))
    out = []
    for spec in specs:
        wins: list[float] = []
        scores: list[float] = []
        for matches in deals.values():
            w, sc, n, holes = 0.0, 0, 0, 0
            for r in matches:
                for s, b in enumerate(r.bots):
                    if b != spec:
                        continue
                    n += 1
                    if s in r.winners:
                        w += 1.0 / len(r.winners)
                    sc += sum(h[s] for h in r.hole_scores)
                    holes += len(r.hole_scores)
            wins.append(w / n)
            scores.append(sc / holes if holes else math.nan)
        m, lo, hi = mean_ci(wins)
        sm, slo, shi = mean_ci(scores)
        out.append({"bot": spec, "win_rate": m, "win_rate_ci95": [lo, hi],
                    "mean_hole_score": sm, "mean_hole_score_ci95": [slo, shi]})
    return {"deals": len(deals), "rotations": players, "by_bot": out,
            "deals_forfeited": len(forfeited)}


def format_duplicate(dup: Mapping[str, Any]) -> str:
    """The paired lines ``golf simulate --duplicate`` prints after the table."""
    lines = [f"duplicate deals: {dup['deals']} deals x {dup['rotations']} rotations, "
             "intervals paired by deal"
             + (f" ({dup['deals_forfeited']} deals with a forfeited rotation left out)"
                if dup.get("deals_forfeited") else "")]
    width = max([26] + [len(r["bot"]) for r in dup["by_bot"]]) + 2
    for r in dup["by_bot"]:
        lo, hi = r["win_rate_ci95"]
        slo, shi = r["mean_hole_score_ci95"]
        lines.append(f"  {r['bot']:<{width}}match wins {100 * r['win_rate']:.1f}% "
                     f"({100 * lo:.1f} to {100 * hi:.1f}), mean hole score "
                     f"{r['mean_hole_score']:.2f} ({slo:.2f} to {shi:.2f})")
    return "\n".join(lines)


def simulate(
    rules: Rules, players: int, bots: Sequence[str], games: int, seed: int = 0,
    workers: int = 1, progress: Callable[[int, int], None] | None = None,
    engine: str = "python",
) -> dict[str, Any]:
    """Play ``games`` matches and return :func:`summarise`'s figures."""
    picked = pick_engine(rules, players, bots, engine)
    results = run_matches(rules, players, bots, games, seed, workers, progress,
                          engine=picked[0])
    return summarise(results, rules, players, bots, seed, picked)


class Progress:
    """A progress bar with an ETA on a terminal; a plain line now and then elsewhere."""

    def __init__(self, stream: Any = None, label: str = "matches", every: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self.every = every
        self.start = time.monotonic()
        self.last = -math.inf

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        finished = done == total
        if not finished and now - self.last < (0.1 if self.tty else self.every):
            return
        self.last = now
        elapsed = now - self.start
        eta = elapsed / done * (total - done) if done else math.nan
        if self.tty:
            width = 30
            fill = int(width * done / total)
            bar = "#" * fill + "-" * (width - fill)
            self.stream.write(f"\r[{bar}] {done}/{total} {self.label}, "
                              f"{_clock(elapsed)} elapsed, ETA {_clock(eta)}  ")
            if finished:
                self.stream.write("\n")
        else:
            self.stream.write(f"{done}/{total} {self.label} ({100 * done // total}%), "
                              f"{_clock(elapsed)} elapsed, ETA {_clock(eta)}\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    if math.isnan(seconds):
        return "--:--"
    s = int(seconds + 0.5)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def _engine_note(summary: Mapping[str, Any]) -> str:
    if "engine" not in summary:
        return ""
    return f", {summary['engine']} engine ({summary['engine_reason']})"


def format_table(summary: Mapping[str, Any]) -> str:
    """The text table ``golf simulate`` prints."""
    # The bot column fits the longest spec (an external bot's command can be long).
    width = max([26] + [len(r["bot"]) for r in summary["seats"]]) + 2
    lines = [
        f"{summary['variant']}, {summary['players']} players, {summary['matches']} matches, "
        f"seed {summary['seed']}" + _engine_note(summary),
        "",
        f"{'seat':<5}{'bot':<{width}}{'mean hole score (95% CI)':<28}"
        f"{'match wins (95% CI)':<26}{'turns/hole':>10}",
    ]

    def row(label: str, bot: str, r: Mapping[str, Any]) -> str:
        lo, hi = r["mean_hole_score_ci95"]
        wlo, whi = r["win_rate_ci95"]
        score = f"{r['mean_hole_score']:.2f} ({lo:.2f} to {hi:.2f})"
        wins = f"{100 * r['win_rate']:.1f}% ({100 * wlo:.1f} to {100 * whi:.1f})"
        return (f"{label:<5}{bot:<{width}}{score:<28}{wins:<26}"
                f"{r['mean_turns_per_hole']:>10.2f}")

    for r in summary["seats"]:
        lines.append(row(str(r["seat"] + 1), r["bot"], r))
    if len(summary["by_bot"]) < len(summary["seats"]):
        lines.append("")
        for r in summary["by_bot"]:
            lines.append(row("all", r["bot"], r))
    fp = summary["first_player"]
    if fp["holes"]:
        lo, hi = fp["score_difference_ci95"]
        wlo, whi = fp["hole_win_rate_ci95"]
        lines += [
            "",
            f"first player: scores {fp['score_difference']:+.2f} ({lo:+.2f} to {hi:+.2f}) "
            "against the others' mean per hole; wins "
            f"{100 * fp['hole_win_rate']:.1f}% ({100 * wlo:.1f} to {100 * whi:.1f}) of holes "
            f"(fair share {100 * fp['fair_share']:.1f}%)",
        ]
    lines.append("shared match wins count fractionally (1/k each for k joint winners)")
    lines += _failure_lines(summary)
    return "\n".join(lines)


def _failure_lines(summary: Mapping[str, Any], shown: int = 5) -> list[str]:
    """What external bots' failures did to a run: forfeited matches and fallbacks."""
    lines: list[str] = []
    forfeits = summary.get("forfeits", [])
    if forfeits:
        total = len(forfeits) + summary["matches"]
        lines += ["", f"FORFEITED: {len(forfeits)} of {total} matches, left out of the "
                  "figures above:"]
        lines += [f"  match {f['match']} (seed {f['seed']}): {f['reason']}"
                  for f in forfeits[:shown]]
        if len(forfeits) > shown:
            lines.append(f"  ... and {len(forfeits) - shown} more (--json lists them all)")
    fallbacks = summary.get("fallbacks", {"count": 0})
    if fallbacks["count"]:
        lines += ["", f"fallbacks: bots' fallbacks stepped in {fallbacks['count']} time(s); "
                  "the first:"]
        lines += [f"  {m}" for m in fallbacks["first"][:shown]]
    return lines
