"""Who is asking: guest profiles, sessions and their cookies (the server's side of
:mod:`golf.identity`; the accounts' rules are :mod:`.accounts`).

A first visit makes a **guest profile**: a row in ``golf_players`` with a random id and
the SHA-256 of a long-lived secret, the ``SELECTOR.SECRET`` token in the guest cookie.
Once the profile is claimed as an account it is reached through **sessions** only (rows
of ``golf_sessions``, one per signed-in browser, their tokens in the session cookie); the
guest secret is dropped at claim time, so signing out of an account never leaves the
browser signed in through its old guest cookie. A valid session wins over a guest cookie.

Every route that needs the person asking takes the :func:`current_player` dependency;
WebSocket code can use :func:`player_for_request` (which never creates a guest: a
socket cannot set cookies).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from ...identity import TokenRejected, issue_token, parse_token, secret_matches
from ...identity.tokens import new_secret
from ..storage import db
from ..storage.store import Store

__all__ = ["GUEST_COOKIE", "NO_PASSWORD", "SESSION_COOKIE", "AccountError", "Identity",
           "Player", "SessionInfo", "Sessions", "SignedIn", "current_identity",
           "current_player", "player_for_request", "require_signed_in", "same_secret",
           "sessions_of"]

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


def require_signed_in(who: Identity) -> str:
    """The request's session id; refused (``not_signed_in``) for a guest."""
    if who.session is None:
        raise AccountError("not_signed_in", "sign in to your account first", 401)
    return who.session


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
class SessionInfo:
    """One active session of an account, as its owner sees it."""

    id: str
    label: str | None
    created: float
    last_seen: float
    current: bool


class Sessions:
    """Guest profiles and sessions over the database: a request's cookies recognised, a
    guest made, a session begun, listed and ended.

    Reads use their own connections; writes go through the store's writer (one
    transaction each, as the tables' writes)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

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

    async def begin(self, who: Identity, guest_cookie: str | None, player: Player,
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

    async def active(self, who: Identity) -> list[SessionInfo]:
        """The account's active sessions, most recently used first."""
        s = require_signed_in(who)
        t = db.sessions
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(t.c.id, t.c.label, t.c.created, t.c.last_seen)
                .where(t.c.player_id == who.player.id).order_by(t.c.last_seen.desc()))).all()
        return [SessionInfo(r[0], r[1], r[2], r[3], r[0] == s) for r in rows]

    async def end(self, who: Identity, session_id: str) -> None:
        """Sign out one session of the account (perhaps this one)."""
        require_signed_in(who)
        t = db.sessions
        n = await self._end_sessions(sa.and_(t.c.id == session_id,
                                             t.c.player_id == who.player.id))
        if n == 0:
            raise AccountError("no_session", "your account has no session with this id",
                               404, "session")

    async def end_others(self, who: Identity) -> int:
        """Sign out every session of the account but this one; how many ended."""
        current = require_signed_in(who)
        t = db.sessions
        return await self._end_sessions(sa.and_(t.c.player_id == who.player.id,
                                                t.c.id != current))

    async def _end_sessions(self, where: Any) -> int:
        async def op(conn: Any) -> int:
            res = await conn.execute(db.sessions.delete().where(where))
            return int(res.rowcount or 0)

        n: int = await self.store.submit(op)
        return n


# --- FastAPI dependencies -------------------------------------------------------------------

def sessions_of(conn: HTTPConnection) -> Sessions:
    """The application's :class:`Sessions` (made at start-up, see golf.server.app)."""
    sessions: Sessions = conn.app.state.sessions
    return sessions


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
    sessions = sessions_of(request)
    session = request.cookies.get(SESSION_COOKIE)
    who = await sessions.resolve(request.cookies.get(GUEST_COOKIE), session)
    if who is not None and session and who.session is None:
        drop_cookie(response, request, SESSION_COOKIE)
    if who is not None and session and who.renewed:
        # A session lives SESSION_IDLE after its last use, its cookie as long.
        set_cookie(response, request, SESSION_COOKIE, session, SESSION_IDLE)
    if who is None:
        who, cookie = await sessions.new_guest()
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
    who = await sessions_of(conn).resolve(conn.cookies.get(GUEST_COOKIE),
                                          conn.cookies.get(SESSION_COOKIE))
    return None if who is None else who.player


def same_secret(a: str, b: str) -> bool:
    """Constant-time equality of two tokens."""
    return hmac.compare_digest(a.encode(), b.encode())
