"""Sign-in limits kept in the database, shared by every server process on it.

The policies and keys are golf.identity.ratelimit's; the counts live in
``golf_signin_limits`` (one row per key, the key stored as its SHA-256 digest) so that
a cluster's processes count one attempt once, whichever process it reached. An attempt
is reserved before its password is verified: one write transaction locks the attempt's
two rows, checks the wait and counts the attempt as a failure (:meth:`reserve`); a
success gives it back (:meth:`given_back`). The writes go through the store's writer,
so within a process they are serialised, and across processes the row locks (``FOR
UPDATE`` on PostgreSQL, the single writer on SQLite) make check-and-count atomic: of
a burst of guesses sent at once, only those the policy allows are ever verified.

Times are seconds since the epoch (every process reads the same wall clock); rows whose
failures are forgotten are deleted now and then.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from ...identity.ratelimit import ACCOUNT_POLICY, ADDRESS_POLICY, LimitPolicy, limit_keys
from ..storage import db
from ..storage.store import Store

__all__ = ["PRUNE_EVERY", "SharedLimiter"]

#: Seconds between two deletions of forgotten rows by one process.
PRUNE_EVERY = 600.0

_ENSURE = sa.text("INSERT INTO golf_signin_limits (key, failures, last) "
                  "VALUES (:key, 0, :now) ON CONFLICT (key) DO NOTHING")


def _digest(key: tuple[str, str]) -> str:
    return hashlib.sha256(f"{key[0]}:{key[1]}".encode()).hexdigest()


class SharedLimiter:
    """Failed sign-ins per username and per address, counted in the database."""

    def __init__(self, store: Callable[[], Store], clock: Callable[[], float] = time.time,
                 account: LimitPolicy = ACCOUNT_POLICY,
                 address: LimitPolicy = ADDRESS_POLICY) -> None:
        self._store = store
        self.clock = clock
        self.account = account
        self.address = address
        self._pruned = 0.0

    def _rows(self, username: str, address: str) -> list[tuple[str, LimitPolicy, str]]:
        """The attempt's keys: (digest, policy, kind), in digest order (the order rows
        are locked in, the same in every transaction: no deadlock between two)."""
        rows = [(_digest(k), self.account if k[0] == "account" else self.address, k[0])
                for k in limit_keys(username, address)]
        return sorted(rows)

    async def reserve(self, username: str, address: str) -> float:
        """Check and count an attempt in one transaction: 0 when its password may be
        verified now (it counts as a failure already), else the seconds to wait
        (nothing counted, the password must not be verified)."""
        rows = self._rows(username, address)
        now = self.clock()
        t = db.signin_limits
        prune = now - self._pruned >= PRUNE_EVERY
        if prune:
            self._pruned = now

        async def op(conn: Any) -> float:
            if prune:
                oldest = max(self.account.forget_after, self.address.forget_after)
                await conn.execute(t.delete().where(t.c.last < now - oldest))
            for digest, _, _ in rows:
                await conn.execute(_ENSURE, {"key": digest, "now": now})
            found = {r.key: r for r in (await conn.execute(
                sa.select(t.c.key, t.c.failures, t.c.last)
                .where(t.c.key.in_([d for d, _, _ in rows])).with_for_update())).all()}
            wait = 0.0
            for digest, policy, _ in rows:
                row = found[digest]
                wait = max(wait, policy.wait(row.failures, row.last, now))
            if wait > 0:
                return wait
            for digest, policy, _ in rows:
                row = found[digest]
                forgotten = now - row.last >= policy.forget_after
                await conn.execute(t.update().where(t.c.key == digest).values(
                    failures=1 if forgotten else row.failures + 1, last=now))
            return 0.0

        wait: float = await self._store().submit(op)
        return wait

    async def given_back(self, username: str, address: str, forget: bool = True) -> None:
        """A reserved attempt succeeded: it no longer counts against the address, and the
        username's failures are forgotten (``forget``) or only this one given back."""
        rows = self._rows(username, address)
        t = db.signin_limits

        async def op(conn: Any) -> None:
            for digest, _, kind in rows:
                if kind == "account" and forget:
                    await conn.execute(t.delete().where(t.c.key == digest))
                else:
                    await conn.execute(t.update().where(t.c.key == digest, t.c.failures > 0)
                                       .values(failures=t.c.failures - 1))

        await self._store().submit(op)

    async def failures(self, username: str, address: str) -> tuple[int, int]:
        """The failures counted now for the username and for the address."""
        now = self.clock()
        t = db.signin_limits
        keys = limit_keys(username, address)
        async with self._store().engine.connect() as conn:
            found = {r.key: r for r in (await conn.execute(
                sa.select(t.c.key, t.c.failures, t.c.last)
                .where(t.c.key.in_([_digest(k) for k in keys])))).all()}
        out = []
        for key, policy in zip(keys, (self.account, self.address), strict=True):
            row = found.get(_digest(key))
            out.append(0 if row is None or now - row.last >= policy.forget_after
                       else int(row.failures))
        return out[0], out[1]
