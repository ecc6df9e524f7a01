"""Engine speed, measured the way clients use the engine, on one core.

Prints, for random legal play (each action includes generating the legal actions, a
random choice and ``apply``, as the simulator and the RL envs pay; ``Game.step``, which
also builds the turn event for narrating clients, costs about 15-20% more per action):

* ``matches``: 9-hole matches, one Game per match: holes/s and actions/s;
* ``one-hole games``: a NEW one-hole Game per hole, built from the preset name each
  time (``rules={"holes": 1}``), as RL resets and simulators do; its per-hole rate
  should be at least 80% of the matches' rate;
  (and the same with one ``Rules`` object, which shows what parsing the rules costs);
* ``clones/s`` of a mid-hole game;
* ``from_state/s``: a Game built over a copied mid-hole state (what a world sampler
  does per sampled world), and ``from_position/s``: a Game set up from a position dict;
* with ``--pycardgolf PATH`` (a local checkout of hwilco/PyCardGolf, Python 3.12+): the
  same random 2-player six-card play there, a new round per hole, in a subprocess, and
  the ratio of our holes/s to its.

    .venv/bin/python bench/engine.py [--seconds 3] [--variant six-card]
    .venv/bin/python bench/engine.py --pycardgolf /tmp/pycardgolf

Times are CPU time of the measuring process (``time.process_time``), which a busy
machine disturbs less than wall time; still, compare only runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import golf

PY312 = "/root/.pyenv/versions/3.12.1/bin/python3.12"


def play_matches(variant: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Random 9-hole matches for ``seconds``: (holes/s, actions/s, holes played)."""
    rng = random.Random(1)
    holes = actions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = golf.Game(variant, players=players, seed=seed)
        seed += 1
        legal, apply, choice = g.legal_actions, g.apply, rng.choice
        while not g.is_over:
            apply(choice(legal()))
            actions += 1
        holes += len(g.hole_results)
    elapsed = time.process_time() - start
    return holes / elapsed, actions / elapsed, holes


def play_one_hole_games(variant: str | golf.Rules, players: int, seconds: float,
                        ) -> tuple[float, float, int]:
    """A new one-hole Game per hole, from the preset name: (holes/s, actions/s, holes)."""
    rng = random.Random(1)
    holes = actions = 0
    seed = 0
    one_hole = {"holes": 1} if isinstance(variant, str) else None
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = golf.Game(variant, players=players, seed=seed, rules=one_hole)
        seed += 1
        legal, apply, choice = g.legal_actions, g.apply, rng.choice
        while not g.is_over:
            apply(choice(legal()))
            actions += 1
        holes += len(g.hole_results)
    elapsed = time.process_time() - start
    return holes / elapsed, actions / elapsed, holes


def mid_hole(variant: str, players: int) -> golf.Game:
    rng = random.Random(2)
    g = golf.Game(variant, players=players, seed=3)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    return g


def per_second(fn: Any, seconds: float, batch: int = 1000) -> float:
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(batch):
            fn()
        n += batch
    return n / (time.process_time() - start)


def clones(variant: str, players: int, seconds: float) -> float:
    """Clones per second of a mid-hole game."""
    return per_second(mid_hole(variant, players).clone, seconds)


def from_states(variant: str, players: int, seconds: float) -> float | None:
    """Games per second built over a copy of a mid-hole state (None: no from_state)."""
    g = mid_hole(variant, players)
    build = getattr(golf.Game, "from_state", None)
    if build is None:
        return None
    state = g.state

    def one() -> None:
        build(state.copy()).legal_actions()

    return per_second(one, seconds)


def from_positions(variant: str, players: int, seconds: float) -> float:
    """Games per second set up from a mid-hole position dict (validated)."""
    g = mid_hole(variant, players)
    rules, pos = g.rules, g.position()
    return per_second(lambda: golf.Game.from_position(rules, pos), seconds, batch=100)


# Random play in PyCardGolf, run by its own interpreter. "round": its engine API, a new
# Round per hole, legal actions and a random choice per action, scores at the end (what
# our figures measure). "match": its own 9-round match loop, Game.tick with RandomBot
# players (an observation per decision, events published), the way its matches run.
_PYCARDGOLF = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from pycardgolf.core.event_bus import EventBus
from pycardgolf.core.game import Game
from pycardgolf.core.phases import RoundPhase
from pycardgolf.core.round import RoundFactory
from pycardgolf.players.bots.random_bot import RandomBot
seconds = float(sys.argv[2])
rng = random.Random(1)
names = ["a", "b"]
holes = actions = seed = 0
start = time.process_time()
while time.process_time() - start < seconds:
    r = RoundFactory.create_standard_round(names, seed=seed)
    seed += 1
    finished = RoundPhase.FINISHED
    while r.phase != finished:
        r.step(rng.choice(r.get_valid_actions(r.get_current_player_idx())))
        actions += 1
    r.get_scores()
    holes += 1
elapsed = time.process_time() - start
match_holes = 0
start = time.process_time()
while time.process_time() - start < seconds:
    g = Game([RandomBot("a", seed=seed), RandomBot("b", seed=seed + 1)], EventBus(),
             num_rounds=9, seed=seed)
    seed += 1
    while g.tick():
        pass
    match_holes += 9
match_elapsed = time.process_time() - start
print(json.dumps({"holes_per_s": holes / elapsed, "actions_per_s": actions / elapsed,
                  "match_holes_per_s": match_holes / match_elapsed}))
"""


def pycardgolf(path: Path, python: str, seconds: float) -> dict[str, float]:
    src = path / "src" if (path / "src" / "pycardgolf").is_dir() else path
    out = subprocess.run([python, "-c", _PYCARDGOLF, str(src), str(seconds)],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--variant", default="six-card")
    p.add_argument("--players", type=int, nargs="+", default=[2, 4])
    p.add_argument("--pycardgolf", type=Path, metavar="PATH",
                   help="a local checkout of hwilco/PyCardGolf to measure side by side")
    p.add_argument("--pycardgolf-python", default=PY312, metavar="PYTHON",
                   help=f"Python 3.12+ to run PyCardGolf with (default {PY312})")
    args = p.parse_args()
    s = args.seconds
    print(f"engine benchmark: {args.variant}, random legal play, one core, {s:g}s per figure "
          f"(Python {sys.version.split()[0]})")
    first_hps = None
    for players in args.players:
        hps, aps, holes = play_matches(args.variant, players, s)
        first_hps = first_hps or hps
        ohps, oaps, oholes = play_one_hole_games(args.variant, players, s)
        rules = golf.load_rules(args.variant, {"holes": 1})
        rhps, _, _ = play_one_hole_games(rules, players, s)
        cps = clones(args.variant, players, s / 2)
        fps = from_states(args.variant, players, s / 2)
        pps = from_positions(args.variant, players, s / 2)
        print(f"{players} players:")
        print(f"  9-hole matches   {hps:9,.0f} holes/s  {aps:10,.0f} actions/s  ({holes:,} holes)")
        print(f"  one-hole games   {ohps:9,.0f} holes/s  {oaps:10,.0f} actions/s  "
              f"({oholes:,} holes; {ohps / hps:.0%} of the matches' rate)")
        print(f"    same, Rules   {rhps:9,.0f} holes/s  (one Rules object for all: "
              f"{rhps / hps:.0%}; the rest is load_rules)")
        print(f"  clones           {cps:10,.0f}/s")
        print("  from_state       " + ("(no Game.from_state)" if fps is None
                                      else f"{fps:10,.0f}/s"))
        print(f"  from_position    {pps:10,.0f}/s")
    if args.pycardgolf:
        theirs = pycardgolf(args.pycardgolf, args.pycardgolf_python, s)
        print("PyCardGolf, 2 players:")
        print(f"  rounds (engine)  {theirs['holes_per_s']:9,.0f} holes/s  "
              f"{theirs['actions_per_s']:10,.0f} actions/s")
        print(f"  9-round matches  {theirs['match_holes_per_s']:9,.0f} holes/s  "
              "(Game.tick, RandomBot players)")
        if args.variant == "six-card" and args.players[0] == 2 and first_hps:
            print(f"ratio, our 2-player 9-hole matches to its rounds: "
                  f"{first_hps / theirs['holes_per_s']:.2f}x, to its matches: "
                  f"{first_hps / theirs['match_holes_per_s']:.2f}x")


if __name__ == "__main__":
    main()
