"""A burst of simultaneous wrong passwords: only the attempts the limit allows are
verified, on one process and across two processes on one database; passkey ceremonies
are shared by the processes too.

An answer 401 means the password was verified (and was wrong); 429 means the attempt
was refused before any verification. Run with ``-s`` to see the figures.
"""

from __future__ import annotations

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import ServerProcess
from test_accounts import Browser, unique

from conftest import fresh_database
from golf.identity.ratelimit import ACCOUNT_POLICY

BURST = 16
PASSWORD = "plum tree 42 river"
#: The policy lets free_failures + 1 attempts through at once; one more is tolerated in
#: case a slow machine spreads the burst over more than the first wait (1 s).
MOST = ACCOUNT_POLICY.free_failures + 2

_addresses = itertools.count(2)


def browser(server: ServerProcess) -> Browser:
    """A browser with a guest identity, on a loopback address of its own (so that only
    the account's limit can hold the burst back, not the address's)."""
    n = next(_addresses)
    b = Browser(server, address=f"127.1.{n // 250}.{n % 250 + 2}")
    b.me()
    return b


def burst(servers: list[ServerProcess], username: str) -> list[int]:
    """``BURST`` wrong passwords for ``username`` sent at once, spread over ``servers``;
    the statuses answered."""
    people = [browser(servers[i % len(servers)]) for i in range(BURST)]
    start = threading.Barrier(BURST)

    def guess(i: int) -> int:
        start.wait()
        return people[i].post("/api/signin", {"username": username,
                                              "password": f"wrong guess {i}"}).status_code

    try:
        with ThreadPoolExecutor(BURST) as pool:
            return list(pool.map(guess, range(BURST)))
    finally:
        for b in people:
            b.close()


def claim(server: ServerProcess) -> str:
    name = unique("burst")
    b = browser(server)
    try:
        r = b.post("/api/account/claim", {"username": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
    finally:
        b.close()
    return name


def test_a_burst_on_one_process_is_not_all_verified(server: ServerProcess) -> None:
    name = claim(server)
    statuses = burst([server], name)
    verified = statuses.count(401)
    backend = "postgresql" if server.db else "sqlite"
    print(f"\nsign-in burst, one process ({backend}): {verified} of {BURST} verified, "
          f"{statuses.count(429)} refused unverified")
    assert set(statuses) <= {401, 429}, statuses
    assert 1 <= verified <= MOST, statuses


def test_two_processes_share_the_limit_and_the_passkey_ceremonies(postgres_url: str,
                                                      tmp_path: Path) -> None:
    url = fresh_database(postgres_url)
    servers = [ServerProcess(tmp_path / f"s{i}", url) for i in range(2)]
    for s in servers:
        s.data_dir.mkdir()
        s.start()
    try:
        name = claim(servers[0])
        statuses = burst(servers, name)
        verified = statuses.count(401)
        print(f"\nsign-in burst, two processes (postgresql): {verified} of {BURST} "
              f"verified, {statuses.count(429)} refused unverified")
        assert set(statuses) <= {401, 429}, statuses
        assert 1 <= verified <= MOST, statuses
        # The limit holds on the other process too: the right password waits there.
        b = browser(servers[1])
        try:
            r = b.post("/api/signin", {"username": name, "password": PASSWORD})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        finally:
            b.close()
        # A passkey ceremony begun on one process is answered on the other, once.
        began, answers = browser(servers[0]), browser(servers[1])
        try:
            r = began.post("/api/passkeys/signin/options", {})
            assert r.status_code == 200, r.text
            ceremony = r.json()["ceremony"]
            r = answers.post("/api/passkeys/signin", {"ceremony": ceremony,
                                                      "credential": {"id": "nope"}})
            # Found and used up there: refused for the unknown passkey, not as expired.
            assert r.status_code == 401, r.text
            assert r.json()["error"]["code"] == "passkey_failed"
            r = began.post("/api/passkeys/signin", {"ceremony": ceremony,
                                                    "credential": {"id": "nope"}})
            assert r.status_code == 400 and "expired" in r.json()["error"]["message"]
        finally:
            began.close()
            answers.close()
    finally:
        for s in servers:
            s.stop()
