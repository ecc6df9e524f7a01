"""The rules of accounts over the guest profiles and sessions of :mod:`.sessions`: a
profile's name and tables, claiming it as an account, signing in (with the password or a
recovery code), changing the password, deleting the account. Each is a method of
:class:`Players`, one per route of :mod:`golf.server.api.accounts`.

Claiming a guest profile adds an account (username and Argon2id password hash) and from
then on the profile is reached through sessions only (:class:`.sessions.Sessions`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from ...identity import (
    SIGN_IN_FAILED,
    IdentityError,
    Passwords,
    check_password,
    check_username,
    issue_recovery_codes,
    issue_token,
    lookup_key,
    username_key,
)
from ...identity.recovery import find_code
from ...identity.tokens import new_secret
from ..core.protocol import check_name
from ..storage import db
from ..storage.store import Store
from .limits import SharedLimiter
from .sessions import (
    NO_PASSWORD,
    AccountError,
    Identity,
    Player,
    Sessions,
    SignedIn,
    require_signed_in,
)

__all__ = ["DELETED_NAME", "MAX_LABEL", "Claimed", "MyTable", "Players", "players_of"]

#: Text shown instead of a deleted player's name in other people's histories.
DELETED_NAME = "deleted player"
#: Longest session label kept (from the browser's User-Agent).
MAX_LABEL = 120


def refused(e: IdentityError) -> AccountError:
    """A policy refusal of golf.identity (password, username, code) as a 422."""
    return AccountError(e.code, e.message, 422, e.field)


def sign_in_failed() -> AccountError:
    """The one answer to every failed sign-in: it never says whether the name exists."""
    return AccountError("sign_in_failed", SIGN_IN_FAILED, 401)


@dataclass(frozen=True)
class Claimed:
    """A claimed account: the new session and the recovery codes, shown this once."""

    signed_in: SignedIn
    codes: tuple[str, ...] = field(repr=False)


@dataclass(frozen=True)
class MyTable:
    """An unfinished table where the player holds a seat."""

    table_id: str
    title: str
    status: str
    preset: str
    seat: int


class Players:
    """The player and account rules over the database (see the module docstring).

    Reads use their own connections; writes go through the store's writer (one
    transaction each, as the tables' writes). Argon2 runs on a worker thread so that a
    sign-in never stalls the tables' event loop.
    """

    def __init__(self, store: Store, passwords: Passwords | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.passwords = passwords or Passwords()
        self.clock = clock
        #: Guest profiles and sessions (the same store and clock).
        self.sessions = Sessions(store, clock)
        # In the database: one count for every process of a cluster (golf.server.players.limits).
        self.limiter = SharedLimiter(lambda: self.store, lambda: self.clock())

    # --- the profile ----------------------------------------------------------------------
    async def set_name(self, who: Identity, name: str) -> Identity:
        """The display name shown for the player (``check_name``'s rules)."""
        clean = check_name(name)

        async def op(conn: Any) -> None:
            await conn.execute(db.players.update().where(db.players.c.id == who.player.id)
                               .values(name=clean))

        await self.store.submit(op)
        return replace(who, player=replace(who.player, name=clean))

    async def my_tables(self, player_id: str) -> list[MyTable]:
        """The unfinished tables where this player holds a seat, newest first."""
        t, s = db.tables, db.seats
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(t.c.id, t.c.title, t.c.status, t.c.preset, s.c.position)
                .join(s, s.c.table_id == t.c.id)
                .where(s.c.player_id == player_id, s.c.kind == "human",
                       t.c.status.in_(("waiting", "playing")))
                .order_by(t.c.created.desc()).limit(50))).all()
        return [MyTable(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def check_seat(self, who: Identity, table_id: str) -> None:
        """Refuse (``no_seat``) unless this player holds a seat at the unfinished table
        ``table_id``: asked before the table issues the seat a fresh token (``POST
        /api/me/tables/{id}/seat``, which the routes make of this and
        :meth:`golf.server.tables.seating.Seating.reissue_token`)."""
        if table_id not in {t.table_id for t in await self.my_tables(who.player.id)}:
            raise AccountError("no_seat", "you hold no seat at an unfinished table with "
                               "this id", 404, "table")

    # --- accounts -------------------------------------------------------------------------
    async def claim(self, who: Identity, username: str, password: str, label: str | None
                    ) -> Claimed:
        """Turn the guest profile into an account: a unique username, a password that
        meets the policy, ten recovery codes; the guest secret is dropped and a session
        begins."""
        if who.signed_in:
            raise AccountError("already_claimed", "this profile is an account already; "
                               "sign out to make another", 409)
        try:
            name = check_username(username)
            check_password(password, name)
        except IdentityError as e:
            raise refused(e) from None
        digest = await asyncio.to_thread(self.passwords.hash, password)
        codes = issue_recovery_codes()
        session = issue_token()
        csrf = new_secret(16)
        now = self.clock()
        pid = who.player.id

        async def op(conn: Any) -> None:
            await conn.execute(db.accounts.insert().values(
                player_id=pid, username=name, username_key=username_key(name),
                password_hash=digest, created=now, password_changed=now))
            await conn.execute(db.recovery_codes.insert(), [
                {"player_id": pid, "digest": d, "used": None} for d in codes.digests])
            await conn.execute(db.players.update().where(db.players.c.id == pid)
                               .values(secret_hash=None))
            await conn.execute(db.sessions.insert().values(
                id=session.selector, player_id=pid, secret_hash=session.digest, csrf=csrf,
                label=label, created=now, last_seen=now))

        try:
            await self.store.submit(op)
        except IntegrityError:
            raise AccountError("username_taken", f"the username {name!r} is taken; choose "
                               "another", 409, "username") from None
        ident = Identity(replace(who.player, username=name), session.selector, csrf)
        return Claimed(SignedIn(ident, session.cookie), codes.codes)

    async def _account(self, username: str) -> Any:
        """The account row for a typed username (None when no active account has it)."""
        a, p = db.accounts, db.players
        async with self.store.engine.connect() as conn:
            return (await conn.execute(
                sa.select(a.c.player_id, a.c.username, a.c.password_hash, p.c.name)
                .join(p, p.c.id == a.c.player_id)
                .where(a.c.username_key == lookup_key(username)[:24],
                       p.c.status == "active"))).first()

    async def _check_wait(self, username: str, address: str) -> None:
        """Reserve an attempt (counted as a failure until it succeeds), or refuse it
        before any password is verified."""
        wait = await self.limiter.reserve(username, address)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            raise AccountError("rate_limited", f"too many failed sign-ins; try again in "
                               f"{seconds} s", 429, retry_after=seconds)

    async def sign_in(self, who: Identity, guest_cookie: str | None, username: str,
                      password: str, address: str, label: str | None) -> SignedIn:
        """Username and password: a new session (the old one ends, the guest secret is
        rotated). Every failure gets the same answer after the same Argon2 work."""
        await self._check_wait(username, address)
        row = await self._account(username)
        stored = None if row is None or row.password_hash == NO_PASSWORD else row.password_hash
        ok = await asyncio.to_thread(self.passwords.verify_sign_in, stored, password)
        if not ok or row is None:
            raise sign_in_failed()  # the reserved attempt stays counted
        await self.limiter.given_back(username, address)
        if self.passwords.needs_rehash(row.password_hash):
            await self._set_password_hash(row.player_id, await asyncio.to_thread(
                self.passwords.hash, password), end_others_than=None)
        player = Player(row.player_id, row.name, row.username)
        return await self.sessions.begin(who, guest_cookie, player, label, False)

    async def sign_in_with_code(self, who: Identity, guest_cookie: str | None, username: str,
                                code: str, address: str, label: str | None) -> SignedIn:
        """A recovery code instead of the password: the code is used up, every other
        session ends and the account must set a new password before anything else."""
        await self._check_wait(username, address)
        row = await self._account(username)
        rc = db.recovery_codes
        rows: list[Any] = []
        if row is not None:
            async with self.store.engine.connect() as conn:
                rows = list((await conn.execute(
                    sa.select(rc.c.id, rc.c.digest).where(rc.c.player_id == row.player_id,
                                                          rc.c.used.is_(None)))).all())
        try:
            index = find_code(code, [r.digest for r in rows])
        except IdentityError as e:
            raise refused(e) from None
        if index is None or row is None:
            raise sign_in_failed()  # the reserved attempt stays counted
        await self.limiter.given_back(username, address)
        code_id, pid, now = rows[index].id, row.player_id, self.clock()

        async def op(conn: Any) -> None:
            # Used only if still unused: two requests with one code cannot both win.
            res = await conn.execute(rc.update().where(rc.c.id == code_id, rc.c.used.is_(None))
                                     .values(used=now))
            if res.rowcount != 1:
                raise LookupError("code used meanwhile")
            await conn.execute(db.accounts.update().where(db.accounts.c.player_id == pid)
                               .values(password_hash=NO_PASSWORD, password_changed=now))
            await conn.execute(db.sessions.delete().where(db.sessions.c.player_id == pid))

        try:
            await self.store.submit(op)
        except LookupError:
            raise sign_in_failed() from None
        player = Player(pid, row.name, row.username)
        return await self.sessions.begin(who, guest_cookie, player, label, True)

    async def change_password(self, who: Identity, current: str | None, new: str,
                              address: str) -> int:
        """A new password (the current one is needed unless the account signed in with a
        recovery code); every other session ends. Returns how many ended."""
        session = require_signed_in(who)
        username = who.player.username or ""
        if not who.password_needed:
            await self._check_wait(username, address)
            row = await self._account(username)
            stored = None if row is None or row.password_hash == NO_PASSWORD \
                else row.password_hash
            ok = await asyncio.to_thread(self.passwords.verify_sign_in, stored, current or "")
            if not ok:
                raise AccountError("wrong_password", "the current password is not right",
                                   403, "current")
            await self.limiter.given_back(username, address, forget=False)
        try:
            check_password(new, username)
        except IdentityError as e:
            raise AccountError(e.code, e.message, 422, "password") from None
        digest = await asyncio.to_thread(self.passwords.hash, new)
        return await self._set_password_hash(who.player.id, digest, end_others_than=session)

    async def _set_password_hash(self, pid: str, digest: str,
                                 end_others_than: str | None) -> int:
        now = self.clock()

        async def op(conn: Any) -> int:
            await conn.execute(db.accounts.update().where(db.accounts.c.player_id == pid)
                               .values(password_hash=digest, password_changed=now))
            if end_others_than is None:
                return 0
            res = await conn.execute(db.sessions.delete().where(
                db.sessions.c.player_id == pid, db.sessions.c.id != end_others_than))
            return int(res.rowcount or 0)

        n: int = await self.store.submit(op)
        return n

    async def delete_account(self, who: Identity, password: str | None,
                             address: str) -> None:
        """Delete the account: the password (or a recovery sign-in) confirms it; the
        profile keeps its id for other people's histories but loses its name, account,
        sessions, codes and passkeys, and its seats show :data:`DELETED_NAME`."""
        require_signed_in(who)
        if not who.password_needed:
            username = who.player.username or ""
            await self._check_wait(username, address)
            row = await self._account(username)
            stored = None if row is None or row.password_hash == NO_PASSWORD \
                else row.password_hash
            if not await asyncio.to_thread(self.passwords.verify_sign_in, stored,
                                           password or ""):
                raise AccountError("wrong_password", "the password is not right", 403,
                                   "password")
            await self.limiter.given_back(username, address, forget=False)
        pid = who.player.id

        async def op(conn: Any) -> None:
            for table in (db.sessions, db.recovery_codes, db.passkeys, db.accounts):
                await conn.execute(table.delete().where(table.c.player_id == pid))
            await conn.execute(db.players.update().where(db.players.c.id == pid).values(
                status="deleted", name=None, secret_hash=None))
            await conn.execute(db.seats.update().where(db.seats.c.player_id == pid)
                               .values(name=DELETED_NAME))

        await self.store.submit(op)

    async def remaining_codes(self, player_id: str) -> int:
        """Recovery codes of the account not used yet."""
        rc = db.recovery_codes
        async with self.store.engine.connect() as conn:
            n = (await conn.execute(sa.select(sa.func.count()).select_from(rc).where(
                rc.c.player_id == player_id, rc.c.used.is_(None)))).scalar_one()
        return int(n)


def players_of(conn: HTTPConnection) -> Players:
    """The application's :class:`Players` (made at start-up, see golf.server.app)."""
    players: Players = conn.app.state.players
    return players


