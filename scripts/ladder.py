"""Measure the bots and write docs/bots.md.

For 2-player six-card (9-hole matches), four-card-wild and nine-card it plays each
bot against itself (mean hole score) and every pair of bots head to head (match win
rate), with 95% intervals and the number of matches behind each figure, and checks
the targets of the bots issue. Head-to-head matches alternate the seats, so neither
bot gets the first seat more often. Everything is seeded: the same command writes
the same figures.

    .venv/bin/python scripts/ladder.py                  # the full ladder (minutes)
    .venv/bin/python scripts/ladder.py --scale 0.1 --out /tmp/bots.md   # a quick look
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

INTRO = """\
# Bots

Three bots play Golf in every variant: `random`, `greedy` and `expert` (with the `fast`
extra also `search`, below). Each sees only
what its seat may see (the engine's view and the legal actions), is seeded and
deterministic, and is named by a spec with options after a colon, such as
`expert:memory=0.6,noise=1`. The registry (`golf.bots.make_bot`) serves the command
line, the simulator and the terminal; `golf simulate --help` lists the options of a
run. This page is written by `scripts/ladder.py`: the figures below are measured, not
typed.

## The bots

- **random** plays a uniformly random legal action.
- **greedy** plays one-step rules of thumb. It values a face-down card at the average
  card of the deck (it counts nothing), takes the discard when that lowers its
  estimated score by two points or more (a match or a low card), otherwise draws; it
  swaps a drawn card in where it helps most and discards it when it helps nowhere;
  after discarding it flips a card while two or more are face down; it knocks once its
  estimated score is at most one point per card.
- **expert** plays for the expected value of its own score, counting cards:
  - it knows which cards it has not seen (the deck less every face-up card, its own
    peeked cards, the whole discard pile and a card it holds), and values every
    option by the expected total of its grid afterwards, computed with the engine's
    scorer (never a copy of the rules): the grid is split into the groups of cells
    that some matching rule links, each group's scores are tabulated from the scorer
    once per rule set, and expectations over the unseen cards are exact where one or
    two cards of a group are unknown and sampled (24 draws) where more are;
  - drawing is valued as the expectation, over every card it might draw, of the best
    use of that card (swap it somewhere, or discard it and flip);
  - it charges every option for the card it leaves on the discard pile: what that
    card would give the next player beyond an ordinary draw. Not feeding the
    opponent the card they wait for is worth about two points a hole against greedy;
  - it goes out (or knocks) when its final score beats by two points what it expects
    the best opponent to finish with after their last turn, including what they would
    gain from the card it leaves; when behind it goes out only if carrying on looks
    worse still, and after twelve turns of a hole it lowers that bar, so two careful
    players cannot stall; in its own final turn it simply minimises its expected score;
  - after discarding it flips a card to learn it while more than one stays face down
    (in the part of the grid it knows least); where a flip is compulsory it turns up the
    card it least expects to replace later;
  - where players peek, it assumes opponents kept the better cards face down.
- **search** (needs the `fast` extra, numba) is a determinized Monte Carlo search in
  the compiled core (`golf.fast.search`). At each decision it samples worlds consistent
  with its seat's view alone (the cards it has not seen dealt at random over the places
  it cannot see; `golf.bots.search.view_worlds`), plays every legal action in each
  world (every action on the same worlds and the same later chance, so close actions
  are compared on equal luck), lets every seat play the compiled greedy policy to the
  end of the hole, and picks the action with the best mean margin over the best
  opponent. `search:ms=50` (the default) searches for 50 ms a decision; `search:sims=200`
  plays a fixed number of playouts (reproducible: a decision then depends only on the
  view, the seed and the options). It clearly beats greedy but not yet the expert (its
  playouts are greedy's): measured by `bench/search.py`, see docs/fast.md.

## Difficulty

The expert's two options make it weaker for casual play:

- `memory` (0 to 1, default 1): the chance of remembering each card it peeked at and
  each card below the top of the discard pile. Forgotten cards count as unseen.
- `noise` (points, default 0): the standard deviation of a random error added to the
  value of every option, so it sometimes misjudges close (and, with more noise, not so
  close) choices.

| level | spec |
|---|---|
| easy | `{easy}` |
| medium | `{medium}` |
| hard | `expert` |

How they fare against greedy is measured below (six-card head to head).

## The simulator

```sh
golf simulate --variant six-card --players 2 --bots expert,greedy --games 500 --seed 1
golf simulate --variant nine-card --players 4 --bots expert:noise=1,greedy --games 200 \
    --rule 'match=["columns","rows"]' --json
golf simulate --bots expert,random --games 100 --csv runs.csv --plot scores.png
```

It plays the matches in worker processes (`--workers`, default one per CPU) and prints,
per seat and bot, the mean hole score and the match win rate with 95% intervals, the
mean number of turns per hole, and the first player's advantage (the first player's
hole score minus the others' mean, and the share of holes the first player wins).
`--json` prints the same figures as data; `--csv FILE` adds one row per match and seat
(hole scores, total, turns, win share); `--plot FILE.png` draws each bot's
distribution of hole scores. Conventions:

- `--bots` lists one bot per seat; with fewer bots than players the list repeats
  (`--players 4 --bots expert,greedy` seats expert, greedy, expert, greedy); more bots
  than players is an error, as are an unknown bot or variant and a player count the
  variant does not allow (exit status 2).
- Each match's seed is derived from `--seed` and the match's number, so the figures are
  the same whatever the number of workers. Without `--seed` a random one is used and
  printed.
- A match won jointly counts 1/k to each of its k winners.
- `--duplicate` plays each of `--games` deals once per seat rotation (the bots moved one
  seat on each time, the same cards every time: players x games matches) and adds each
  bot's win rate and mean hole score averaged over its seats in a deal, with intervals
  over deals, so the luck of the deal cancels out
  (`golf simulate --duplicate --bots search,expert --games 100`).
- The interval of a mean hole score comes from the spread of the per-match means (holes
  of one match are not independent); a win rate's is Wilson's interval.
- Progress and an ETA go to stderr: a bar on a terminal, a plain line every few
  seconds otherwise (`--quiet` for none).

## Speed

`python bench/bots.py` prints how many holes per second expert plays against expert in
2-player six-card on one core, and where the time goes (the engine, building views,
the bots). Figures for this machine are in the closing notes of the bots issue.
"""


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
    out = [INTRO.format(**LEVELS)]
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
    Path(args.out).write_text("\n".join(out), encoding="utf-8")
    print(f"wrote {args.out} in {minutes:.1f} minutes")
    return 0


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
