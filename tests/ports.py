"""Loopback ports for the servers, clusters, databases and Ray nodes the tests start.

Asking the kernel for port 0 and closing the socket is racy once several pytest-xdist
workers start servers at once: two workers can be handed the same ephemeral port, and a
client's outgoing connection can take it too (outgoing connections draw from that very
range), so a server fails with "address already in use". Here each worker draws from a
block of its own below Linux's ephemeral range (32768 and up) and above Ray's worker ports
(10002 to 19999), walking forward through it so that a port just closed (in TIME_WAIT) is
not reused at once; a port is handed out only if it can be bound now.
"""

from __future__ import annotations

import itertools
import os
import random
import socket

FIRST = 20000
BLOCK = 1300
#: Blocks 0..7 for workers gw0..gw7, block 8 for the controller or a run without workers.
SLOTS = 9


def _block() -> range:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    digits = worker[2:]
    slot = int(digits) % (SLOTS - 1) if worker.startswith("gw") and digits.isdigit() \
        else SLOTS - 1
    start = FIRST + slot * BLOCK
    return range(start, start + BLOCK)


_cursor = itertools.count(random.randrange(BLOCK))


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port_block(n: int = 1) -> int:
    """A base port such that base..base+n-1 are all free now, from this worker's block."""
    block = _block()
    for _ in range(BLOCK):
        offset = next(_cursor) % BLOCK
        if offset + n > BLOCK:
            continue
        base = block.start + offset
        if all(_bindable(p) for p in range(base, base + n)):
            # The next call starts after this block: its ports stay this caller's.
            for _ in range(n - 1):
                next(_cursor)
            return base
    raise RuntimeError(f"no {n} consecutive free ports in {block.start}..{block.stop - 1}")


def free_port() -> int:
    """One free loopback port from this worker's block."""
    return free_port_block(1)
