"""Who is asking: guest profiles, accounts and their sessions (the server's side of
:mod:`golf.identity`).

A first visit makes a **guest profile**: a row in ``golf_players`` with a random id and
the SHA-256 of a long-lived secret, the ``SELECTOR.SECRET`` token in the guest cookie.
Claiming the profile adds an account (username and Argon2id password hash) and from
then on the profile is reached through **sessions** only (rows of ``golf_sessions``,
one per signed-in browser, their tokens in the session cookie); the guest secret is
dropped at claim time, so signing out of an account never leaves the browser signed in
through its old guest cookie. A valid session wins over a guest cookie.

Every route that needs the person asking takes the :func:`current_player` dependency;
WebSocket code can use :func:`player_for_request` (which never creates a guest: a
socket cannot set cookies). The rules of accounts (claim, sign-in, recovery, password
change, deletion) are the methods of :class:`Players`, one per route of
:mod:`golf.server.api.accounts`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, Request, Response
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from ...identity import (
    SIGN_IN_FAILED,
    IdentityError,
    Passwords,
    TokenRejected,
    check_password,
    check_username,
    issue_recovery_codes,
    issue_token,
    lookup_key,
    parse_token,
    secret_matches,
    username_key,
)
from ...identity.recovery import find_code
from ...identity.tokens import new_secret
from ..core.protocol import check_name
from ..storage import db
from ..storage.store import Store
from .limits import SharedLimiter

__all__ = ["GUEST_COOKIE", "SESSION_COOKIE", "AccountError", "Identity", "Player", "Players",
           "current_identity", "current_player", "player_for_request", "players_of"]

#: The cookie holding a guest profile's token.
GUEST_COOKIE = "golf_guest"
#: The cookie holding a signed-in session's token.
SESSION_COOKIE = "golf_session"
#: A guest cookie lives 400 days (the longest browsers keep one).
GUEST_MAX_AGE = 400 * 24 * 3600
#: A session ends after 30 days without a request (and its cookie with it).
SESSION_IDLE = 30 * 24 * 3600
#: ``last_seen`` is written at most this often per session or guest (not every request).
TOUCH_EVERY = 300.0
#: The stored "password" of an account signed in with a recovery code until its owner
#: sets a new password: not an Argon2 hash, so no password matches it.
NO_PASSWORD = "!"
#: Text shown instead of a deleted player's name in other people's histories.
DELETED_NAME = "deleted player"
#: Longest session label kept (from the browser's User-Agent).
MAX_LABEL = 120


@dataclass(frozen=True)
class Player:
    """The person asking: their profile id, display name and (when the profile is an
    account) username."""

    id: str
    name: str | None
    username: str | None


@dataclass(frozen=True)
class Identity:
    """A request's player and how it was recognised: ``session`` is the session id when
    signed in (None for a guest), ``csrf`` the token state-changing requests must echo in
    the ``X-CSRF-Token`` header, ``password_needed`` whether the account signed in with a
    recovery code and must set a new password."""

    player: Player
    session: str | None
    csrf: str = field(repr=False)
    password_needed: bool = False
    #: The session's last use was just recorded: its cookie's lifetime starts again.
    renewed: bool = False

    @property
    def signed_in(self) -> bool:
        """Whether the request comes through an account's session."""
        return self.session is not None


class AccountError(Exception):
    """A refusal of an account route: a stable ``code``, its ``http_status``, a sentence,
    the form ``field`` it is about and, for the rate limit, ``retry_after`` seconds."""

    def __init__(self, code: str, message: str, status: int, field: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.http_status = status
        self.field = field
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        """The REST error body, shaped as the lobby's errors."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        return {"error": out}


def refused(e: IdentityError) -> AccountError:
    """A policy refusal of golf.identity (password, username, code) as a 422."""
    return AccountError(e.code, e.message, 422, e.field)


def sign_in_failed() -> AccountError:
    """The one answer to every failed sign-in: it never says whether the name exists."""
    return AccountError("sign_in_failed", SIGN_IN_FAILED, 401)


def guest_csrf(secret: str) -> str:
    """A guest's CSRF token, derived from the secret of its cookie: only a page that can
    read our responses learns it, and the stored hash does not give it away."""
    return hashlib.sha256(b"golf-csrf\0" + secret.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class SignedIn:
    """A new session: the identity it makes and the cookie values to set (the session's,
    and the guest's when its secret was rotated)."""

    identity: Identity
    session_cookie: str = field(repr=False)
    guest_cookie: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Claimed:
    """A claimed account: the new session and the recovery codes, shown this once."""

    signed_in: SignedIn
    codes: tuple[str, ...] = field(repr=False)


@dataclass(frozen=True)
class SessionInfo:
    """One active session of an account, as its owner sees it."""

    id: str
    label: str | None
    created: float
    last_seen: float
    current: bool


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
        # In the database: one count for every process of a cluster (golf.server.players.limits).
        self.limiter = SharedLimiter(lambda: self.store, lambda: self.clock())

    # --- recognising a request ------------------------------------------------------------
    async def resolve(self, guest: str | None, session: str | None) -> Identity | None:
        """The identity of a request's cookies: a valid session first, else a valid
        guest; None when neither is valid (a malformed cookie counts as none)."""
        if session:
            found = await self._session(session)
            if found is not None:
                return found
        if guest:
            return await self._guest(guest)
        return None

    async def _session(self, cookie: str) -> Identity | None:
        try:
            selector, secret = parse_token(cookie)
        except TokenRejected:
            return None
        s, p, a = db.sessions, db.players, db.accounts
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(s.c.secret_hash, s.c.csrf, s.c.last_seen, s.c.player_id, p.c.name,
                          a.c.username, a.c.password_hash)
                .join(p, p.c.id == s.c.player_id).join(a, a.c.player_id == s.c.player_id)
                .where(s.c.id == selector, p.c.status == "active"))).first()
        now = self.clock()
        if row is None or not secret_matches(secret, row.secret_hash):
            return None
        if now - row.last_seen > SESSION_IDLE:
            await self._end_sessions(sa.and_(s.c.id == selector))
            return None
        renewed = now - row.last_seen > TOUCH_EVERY
        if renewed:
            await self._touch(s, selector, now)
        return Identity(Player(row.player_id, row.name, row.username), selector, row.csrf,
                        password_needed=row.password_hash == NO_PASSWORD, renewed=renewed)

    async def _guest(self, cookie: str) -> Identity | None:
        try:
            selector, secret = parse_token(cookie)
        except TokenRejected:
            return None
        p = db.players
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(p.c.secret_hash, p.c.name, p.c.last_seen)
                .where(p.c.id == selector, p.c.status == "active",
                       p.c.secret_hash.is_not(None)))).first()
        if row is None or not secret_matches(secret, row.secret_hash):
            return None
        now = self.clock()
        if now - row.last_seen > TOUCH_EVERY:
            await self._touch(p, selector, now)
        return Identity(Player(selector, row.name, None), None, guest_csrf(secret))

    async def _touch(self, table: sa.Table, key: str, now: float) -> None:
        async def op(conn: Any) -> None:
            await conn.execute(table.update().where(table.c.id == key).values(last_seen=now))

        await self.store.submit(op)

    async def new_guest(self) -> tuple[Identity, str]:
        """A fresh guest profile: its identity and the cookie value to set."""
        token = issue_token()
        now = self.clock()

        async def op(conn: Any) -> None:
            await conn.execute(db.players.insert().values(
                id=token.selector, secret_hash=token.digest, name=None, status="active",
                created=now, last_seen=now))

        await self.store.submit(op)
        return (Identity(Player(token.selector, None, None), None, guest_csrf(token.secret)),
                token.cookie)

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
        :meth:`golf.server.tables.room.Room.reissue_token`)."""
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
        return await self.begin_session(who, guest_cookie, player, label, False)

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
        return await self.begin_session(who, guest_cookie, player, label, True)

    async def begin_session(self, who: Identity, guest_cookie: str | None, player: Player,
                     label: str | None, password_needed: bool) -> SignedIn:
        """A new session for ``player``; the request's old session ends and its guest
        cookie (when valid) gets a new secret, so no value seen before the sign-in is
        worth anything after it."""
        session = issue_token()
        csrf = new_secret(16)
        now = self.clock()
        guest = await self._guest(guest_cookie) if guest_cookie else None
        rotated = issue_token() if guest is not None else None
        old_session = who.session

        async def op(conn: Any) -> None:
            if old_session is not None:
                await conn.execute(db.sessions.delete().where(db.sessions.c.id == old_session))
            if guest is not None and rotated is not None:
                await conn.execute(db.players.update()
                                   .where(db.players.c.id == guest.player.id)
                                   .values(secret_hash=rotated.digest))
            await conn.execute(db.sessions.insert().values(
                id=session.selector, player_id=player.id, secret_hash=session.digest,
                csrf=csrf, label=label, created=now, last_seen=now))

        await self.store.submit(op)
        new_guest = None
        if guest is not None and rotated is not None:
            new_guest = f"{guest.player.id}.{rotated.secret}"
        return SignedIn(Identity(player, session.selector, csrf, password_needed),
                        session.cookie, new_guest)

    async def sign_out(self, who: Identity) -> None:
        """End the request's own session."""
        if who.session is not None:
            await self._end_sessions(db.sessions.c.id == who.session)

    async def sessions(self, who: Identity) -> list[SessionInfo]:
        """The account's active sessions, most recently used first."""
        s = self.require_signed_in(who)
        t = db.sessions
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(t.c.id, t.c.label, t.c.created, t.c.last_seen)
                .where(t.c.player_id == who.player.id).order_by(t.c.last_seen.desc()))).all()
        return [SessionInfo(r[0], r[1], r[2], r[3], r[0] == s) for r in rows]

    async def end_session(self, who: Identity, session_id: str) -> None:
        """Sign out one session of the account (perhaps this one)."""
        self.require_signed_in(who)
        t = db.sessions
        n = await self._end_sessions(sa.and_(t.c.id == session_id,
                                             t.c.player_id == who.player.id))
        if n == 0:
            raise AccountError("no_session", "your account has no session with this id",
                               404, "session")

    async def end_other_sessions(self, who: Identity) -> int:
        """Sign out every session of the account but this one; how many ended."""
        current = self.require_signed_in(who)
        t = db.sessions
        return await self._end_sessions(sa.and_(t.c.player_id == who.player.id,
                                                t.c.id != current))

    async def _end_sessions(self, where: Any) -> int:
        async def op(conn: Any) -> int:
            res = await conn.execute(db.sessions.delete().where(where))
            return int(res.rowcount or 0)

        n: int = await self.store.submit(op)
        return n

    @staticmethod
    def require_signed_in(who: Identity) -> str:
        if who.session is None:
            raise AccountError("not_signed_in", "sign in to your account first", 401)
        return who.session

    async def change_password(self, who: Identity, current: str | None, new: str,
                              address: str) -> int:
        """A new password (the current one is needed unless the account signed in with a
        recovery code); every other session ends. Returns how many ended."""
        session = self.require_signed_in(who)
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
        self.require_signed_in(who)
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


# --- FastAPI dependencies -------------------------------------------------------------------

def players_of(conn: HTTPConnection) -> Players:
    """The application's :class:`Players` (made at start-up, see golf.server.app)."""
    players: Players = conn.app.state.players
    return players


def is_tls(conn: HTTPConnection) -> bool:
    """Whether the request came over TLS (directly, or through a trusted proxy that says
    so: golf.server.http.proxies sets the scheme; anyone else's X-Forwarded-Proto is ignored)."""
    return conn.url.scheme in ("https", "wss")


def set_cookie(response: Response, conn: HTTPConnection, name: str, value: str,
               max_age: int) -> None:
    """An HttpOnly, SameSite=Lax cookie for the whole site, Secure behind TLS."""
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True,
                        samesite="lax", secure=is_tls(conn))


def drop_cookie(response: Response, conn: HTTPConnection, name: str) -> None:
    """Tell the browser to forget a cookie."""
    response.delete_cookie(name, path="/", httponly=True, samesite="lax",
                           secure=is_tls(conn))


async def current_identity(request: Request, response: Response) -> Identity:
    """The request's identity; a first visit (or cookies that are no longer valid) gets
    a new guest profile and its cookie. A stale session cookie is dropped."""
    players = players_of(request)
    session = request.cookies.get(SESSION_COOKIE)
    who = await players.resolve(request.cookies.get(GUEST_COOKIE), session)
    if who is not None and session and who.session is None:
        drop_cookie(response, request, SESSION_COOKIE)
    if who is not None and session and who.renewed:
        # A session lives SESSION_IDLE after its last use, its cookie as long.
        set_cookie(response, request, SESSION_COOKIE, session, SESSION_IDLE)
    if who is None:
        who, cookie = await players.new_guest()
        set_cookie(response, request, GUEST_COOKIE, cookie, GUEST_MAX_AGE)
        if session:
            drop_cookie(response, request, SESSION_COOKIE)
    return who


async def current_player(who: Annotated[Identity, Depends(current_identity)]) -> Player:
    """The person asking (a FastAPI dependency): the signed-in account, else the guest
    of the cookie, else a new guest."""
    return who.player


async def player_for_request(conn: HTTPConnection) -> Player | None:
    """The player of a request's or WebSocket handshake's cookies, or None (no guest is
    made here: a WebSocket cannot set a cookie)."""
    who = await players_of(conn).resolve(conn.cookies.get(GUEST_COOKIE),
                                         conn.cookies.get(SESSION_COOKIE))
    return None if who is None else who.player


def same_secret(a: str, b: str) -> bool:
    """Constant-time equality of two tokens."""
    return hmac.compare_digest(a.encode(), b.encode())
