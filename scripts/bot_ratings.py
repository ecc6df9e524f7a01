"""Measure the built-in bots' OpenSkill ratings per variant with ``golf tournament``.

For each preset, a round robin between the bots (at the preset's smallest table of at
least two players) over duplicate deals; the ratings go to ``src/golf/bots/ratings.json``
(:func:`golf.bots.ratings.bot_ratings` reads them: the fixed ratings that player ratings
anchor to) and the table between the markers of docs/bots.md.

    python scripts/bot_ratings.py --deals 24 --workers 2
    python scripts/bot_ratings.py --deals 24 --ray 10.0.0.5:6379   # on a Ray cluster

Each preset's finished matches are kept in ``--state-dir`` (one JSONL file each), so an
interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from golf.backend import make_backend
from golf.bots.ratings import measured_variant
from golf.rules import load_rules, preset_names
from golf.simulate import Progress
from golf.tournament import Tournament, run_tournament

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "golf" / "bots" / "ratings.json"
DOC = ROOT / "docs" / "bots.md"
BEGIN = "<!-- bot ratings: written by scripts/bot_ratings.py, do not edit by hand -->"
END = "<!-- end of bot ratings -->"
BOTS = ("random", "greedy", "easy", "medium", "hard", "fast-expert")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=24, help="duplicate deals a table")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument("--variants", default=",".join(preset_names()))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS")
    ap.add_argument("--state-dir", type=Path, default=Path("bot-ratings-state"))
    ap.add_argument("--dry-run", action="store_true", help="print, write nothing")
    args = ap.parse_args()
    bots = tuple(args.bots.split(","))
    args.state_dir.mkdir(parents=True, exist_ok=True)
    backend = make_backend(args.workers, args.ray)
    out: dict[str, Any] = {}
    for variant in args.variants.split(","):
        rules = load_rules(variant)
        players = min(max(rules.players[0], 2), rules.players[1])
        t = Tournament(bots, rules, players=players, deals=args.deals, seed=args.seed)
        start = time.monotonic()
        board = run_tournament(t, backend, args.state_dir / f"{variant}.jsonl",
                               progress=Progress(sys.stderr, label=f"{variant} matches"))
        took = time.monotonic() - start
        print(f"{variant}: {board['matches']} matches in {took:.0f} s", file=sys.stderr)
        out[variant] = measured_variant(board)
    command = "python scripts/bot_ratings.py " + " ".join(sys.argv[1:])
    data = {
        "model": "openskill PlackettLuce", "mu0": 25.0, "sigma0": 25.0 / 3,
        "interval": "mu +- 1.96 sigma", "format": "round-robin, duplicate deals",
        "deals": args.deals, "seed": args.seed, "measured": datetime.date.today().isoformat(),
        "command": command.strip(), "variants": out,
    }
    table = markdown(data)
    print(table)
    if not args.dry_run:
        DATA.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        write_doc(table)
    return 0


def markdown(data: dict[str, Any]) -> str:
    """One row per bot, one column per variant: mu and the half-width of its interval."""
    variants = list(data["variants"])
    bots = list(next(iter(data["variants"].values()))["bots"])
    head = "| bot | " + " | ".join(
        f"{v} ({data['variants'][v]['players']}p)" for v in variants) + " |"
    lines = [head, "|---|" + "---:|" * len(variants)]
    for bot in bots:
        cells = []
        for v in variants:
            r = data["variants"][v]["bots"][bot]
            cells.append(f"{r['mu']:.1f} ± {1.959963984540054 * r['sigma']:.1f}")
        lines.append(f"| `{bot}` | " + " | ".join(cells) + " |")
    matches = ", ".join(f"{v} {data['variants'][v]['matches']}" for v in variants)
    lines += ["", f"Matches per variant: {matches}. Measured {data['measured']} with "
              f"`{data['command']}`."]
    return "\n".join(lines)


def write_doc(table: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{table}\n{END}"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text,
                      flags=re.S)
    else:
        raise SystemExit(f"{DOC} has no marker {BEGIN!r}: add it where the table goes")
    DOC.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
