"""Measure the bots and write the head-to-head tables of docs/bots.md.

For 2-player six-card (9-hole matches), four-card-wild and nine-card it plays each
bot against itself (mean hole score) and every pair of bots head to head (match win
rate), with 95% intervals and the number of matches behind each figure, and checks
the targets of the bots issue. Head-to-head matches alternate the seats, so neither
bot gets the first seat more often. Everything is seeded: the same command writes
the same figures.

    .venv/bin/python scripts/ladder.py                  # the full ladder (minutes)
    .venv/bin/python scripts/ladder.py --scale 0.1 --out /tmp/bots.md   # a quick look

Only the block between the two marker lines in docs/bots.md is rewritten; the rest of
that page (the bots, the ladder against the expert from ``bench/ladder.py``, the coach,
the simulator) is written by hand.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from golf import load_rules
from golf.rules import Rules
from golf.simulate import MatchResult, Progress, ratio_ci, run_matches, wilson

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("random", "greedy", "expert")
LEVELS = {
    "easy": "expert:memory=0.4,noise=4",
    "medium": "expert:memory=0.8,noise=1.5",
    "hard": "expert",
}


@dataclass
class Duel:
    """Two bots head to head over matches with alternating seats."""

    a: str
    b: str
    matches: int
    a_wins: float  # fractional shared wins
    a_mean: tuple[float, float, float]
    b_mean: tuple[float, float, float]

    @property
    def rate(self) -> float:
        return self.a_wins / self.matches

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.rate, self.matches)


def duel(rules: Rules, a: str, b: str, matches: int, seed: int, workers: int) -> Duel:
    half = matches // 2
    first = run_matches(rules, 2, [a, b], half, seed, workers, _progress(f"{a} v {b}"))
    second = run_matches(rules, 2, [b, a], matches - half, seed + 1, workers,
                         _progress(f"{b} v {a}"))
    wins = 0.0
    sums: dict[str, list[float]] = {a: [], b: []}
    sizes: list[int] = []
    for results, seats in ((first, (a, b)), (second, (b, a))):
        for r in results:
            if seats.index(a) in r.winners:
                wins += 1.0 / len(r.winners)
            for s, name in enumerate(seats):
                sums[name].append(sum(h[s] for h in r.hole_scores))
            sizes.append(len(r.hole_scores))
    return Duel(a, b, matches, wins, ratio_ci(sums[a], sizes), ratio_ci(sums[b], sizes))


def self_play(rules: Rules, bot: str, matches: int, seed: int, workers: int) -> tuple[
        tuple[float, float, float], int, int, float]:
    """(mean hole score with interval, matches, holes, mean turns per hole)."""
    results = run_matches(rules, 2, [bot, bot], matches, seed, workers, _progress(f"{bot} self"))
    sums = [sum(h[0] + h[1] for h in r.hole_scores) / 2 for r in results]
    sizes = [len(r.hole_scores) for r in results]
    turns = _turns(results)
    return ratio_ci(sums, sizes), len(results), sum(sizes), turns


def _turns(results: Sequence[MatchResult]) -> float:
    t = [x for r in results for h in r.turns for x in h]
    return sum(t) / len(t) if t else 0.0


def _progress(label: str) -> Progress | None:
    return Progress(sys.stderr, label=f"matches ({label})") if sys.stderr.isatty() else None


def ci(m: tuple[float, float, float]) -> str:
    return f"{m[0]:.2f} ({m[1]:.2f} to {m[2]:.2f})"


def pct(rate: float, interval: tuple[float, float]) -> str:
    return f"{100 * rate:.1f}% ({100 * interval[0]:.1f} to {100 * interval[1]:.1f})"


# --- the report ---------------------------------------------------------------------------

#: docs/bots.md is written by hand except between these lines, which this script rewrites.
BEGIN = "<!-- head-to-head tables: written by scripts/ladder.py, do not edit by hand -->"
END = "<!-- end of the tables written by scripts/ladder.py -->"


NOTES = """
## Reading the figures

- A bot's hole score depends on its opponent as much as on itself: the hole ends when
  one player goes out, and the other is caught with whatever they hold. The expert
  plays to win the match, not for a low score: it goes out as soon as it is safely
  ahead, so against random it ends holes early with scores greedy would still have
  improved; it wins all those matches either way.
- In self-play the expert scores more than greedy does against itself. Two experts
  deny each other the cards they wait for (each keeps or buries what the other
  needs), so both finish higher; two greedy bots feed each other matches. Head to
  head, the expert finishes about three points a hole below greedy.
- Where no target is set (four-card-wild, nine-card) the expert's edge over greedy is
  smaller: in four-card-wild each player has exactly four turns and the choices are
  few; in nine-card the three-card columns leave more unknown cards per column, whose
  expectations are sampled, and a match ends after three or four holes, when a total
  passes 50.
"""


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=float, default=1.0,
                   help="multiply every number of matches (0.1 for a quick look)")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", default=str(ROOT / "docs" / "bots.md"))
    args = p.parse_args(argv)

    def n(matches: int) -> int:
        return max(4, int(matches * args.scale) // 2 * 2)

    start = time.monotonic()
    seed = args.seed
    out: list[str] = []
    checks: list[str] = []

    sections = [
        ("six-card", "2-player `six-card`, 9-hole matches", n(1000), n(400)),
        ("four-card-wild", "2-player `four-card-wild` (2x2, private peeks, wild jokers, "
         "any pair scores zero), 9-hole matches", n(400), n(200)),
        ("nine-card", "2-player `nine-card` (3x3, three of a kind in a column), nine "
         "holes or until a total passes 50", n(400), n(200)),
    ]
    for variant, title, duel_matches, self_matches in sections:
        rules = load_rules(variant)
        out.append(f"\n## {title}\n")
        out.append("### Self-play\n")
        out.append("| bot | mean hole score (95% CI) | matches | holes | turns per hole |")
        out.append("|---|---|---|---|---|")
        selfs = {}
        for bot in BOTS:
            seed += 10
            m, matches, holes, turns = self_play(rules, bot, self_matches, seed, args.workers)
            selfs[bot] = m
            out.append(f"| {bot} | {ci(m)} | {matches} | {holes} | {turns:.1f} |")
        out.append("\n### Head to head\n")
        out.append("| bot A | bot B | A wins matches (95% CI) | A's mean hole score | "
                   "B's mean hole score | matches |")
        out.append("|---|---|---|---|---|---|")
        duels: dict[tuple[str, str], Duel] = {}
        pairs = [("greedy", "random"), ("expert", "random"), ("expert", "greedy")]
        if variant == "six-card":
            pairs += [(LEVELS["medium"], "greedy"), (LEVELS["easy"], "greedy"),
                      ("expert", LEVELS["medium"])]
        for a, b in pairs:
            seed += 10
            d = duels[(a, b)] = duel(rules, a, b, duel_matches, seed, args.workers)
            out.append(f"| `{a}` | `{b}` | {pct(d.rate, d.interval)} | {ci(d.a_mean)} | "
                       f"{ci(d.b_mean)} | {d.matches} |")
        if variant == "six-card":
            checks += _targets(duels, selfs)

    out.append("\n## Targets (2-player six-card, 9-hole matches)\n")
    out += checks
    out.append(NOTES)
    minutes = (time.monotonic() - start) / 60
    out.append(
        f"\nMeasured by `python scripts/ladder.py --scale {args.scale:g} --seed {args.seed}` "
        f"in {minutes:.0f} minutes on {args.workers} worker(s). Shared match wins count "
        "half to each bot; intervals are 95% (Wilson's for win rates; for mean hole "
        "scores, from the spread of per-match means).\n")
    path = Path(args.out)
    path.write_text(splice(path.read_text(encoding="utf-8") if path.exists() else "",
                           "\n".join(out)), encoding="utf-8")
    print(f"wrote the tables of {args.out} in {minutes:.1f} minutes")
    return 0


def splice(text: str, tables: str) -> str:
    """``text`` with what stands between :data:`BEGIN` and :data:`END` replaced by
    ``tables`` (just the tables, between the markers, when ``text`` is empty).

    >>> out = splice(f"intro\\n{BEGIN}\\nold\\n{END}\\noutro\\n", "new")
    >>> out.split("\\n")[0], out.split("\\n")[2], out.split("\\n")[4], "old" in out
    ('intro', 'new', 'outro', False)
    """
    block = f"{BEGIN}\n{tables.strip()}\n{END}"
    if not text:
        return block + "\n"
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise SystemExit(f"the file has no '{BEGIN}' ... '{END}' block to rewrite; add the "
                         "two lines where the tables go")
    return head + block + tail


def _targets(duels: dict[tuple[str, str], Duel], selfs: dict[str, tuple[float, float,
                                                                            float]]) -> list[str]:
    lines = ["| target | measured | met |", "|---|---|---|"]
    gr = duels[("greedy", "random")]
    eg = duels[("expert", "greedy")]
    es = selfs["expert"]
    lines.append(f"| greedy beats random in >= 95% of matches | {pct(gr.rate, gr.interval)} "
                 f"| {_met(gr.rate >= 0.95)} |")
    lines.append(f"| expert beats greedy in >= 70% of matches | {pct(eg.rate, eg.interval)} "
                 f"| {_met(eg.rate >= 0.70)} |")
    lines.append(f"| expert's self-play mean hole score <= 9 | {ci(es)} | {_met(es[0] <= 9)} |")
    return lines


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


if __name__ == "__main__":
    sys.exit(main())
