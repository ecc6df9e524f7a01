"""A golf bot in Python that speaks the golf-bot/1 line protocol (docs/bot-protocol.md)
and plays a random legal action, seeded by its seat so that its play is reproducible.

    golf simulate --bots 'cmd:python examples/bots/random_legal.py,expert' --games 20
"""

from __future__ import annotations

import json
import random
import sys


def main() -> int:
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != "golf-bot/1":
        print(f"random_legal.py speaks golf-bot/1, not {hello.get('protocol')!r}",
              file=sys.stderr)
        return 3
    rng = random.Random(hello["seat"])
    print(json.dumps({"protocol": "golf-bot/1", "name": "random-legal (python)"}),
          flush=True)
    for line in sys.stdin:  # one decision per line, until golf closes stdin
        decision = json.loads(line)
        print(rng.choice(decision["legal"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
