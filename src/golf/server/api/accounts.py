"""The REST routes of players and accounts (``/api/me``, ``/api/account``, ``/api/signin``,
``/api/sessions``, ``/api/passkeys``): Pydantic models at the edge, one method of
:class:`~golf.server.players.accounts.Players` (or
:class:`~golf.server.players.passkeys.Passkeys`) per route.

Every state-changing route takes :func:`golf.server.api.checked.checked_write` (this
site's Origin, this browser's CSRF token). A refusal is the lobby's error shape,
``{"error": {"code", "message", "field"?, "retry_after"?}}``.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from starlette.convertors import Convertor, register_url_convertor

from ..players.accounts import MAX_LABEL, Players, players_of
from ..players.passkeys import PasskeyInfo, Passkeys, relying_party
from ..players.sessions import (
    GUEST_COOKIE,
    GUEST_MAX_AGE,
    SESSION_COOKIE,
    SESSION_IDLE,
    Identity,
    SignedIn,
    drop_cookie,
    set_cookie,
)
from ..ratings.names import played_names
from ..tables.hub import Hub
from .checked import AccountRoute, Body, Who, Writer
from .openapi import Name, Number, errors, raises

__all__ = ["account_router"]


# --- bodies ---------------------------------------------------------------------------------

class NameIn(Body):
    name: Name


#: A username as the document states it: letters and digits with single separators,
#: surrounding spaces allowed (golf.identity.usernames; 3 to 24 characters without them).
#: Any other text can never be a username: claiming it is refused, signing in with it fails.
Username = Annotated[str, Field(max_length=200, json_schema_extra={
    "pattern": r"^\s*[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*\s*$",
    "description": "3 to 24 characters once surrounding spaces are dropped: letters A to Z, "
                   "digits, and single . _ or - between them"})]
#: A recovery code as printed (golf.identity.recovery): 16 symbols of Crockford's base32,
#: any case, with spaces or hyphens anywhere (O, I and L are read as 0, 1, 1).
RecoveryCode = Annotated[str, Field(max_length=100, json_schema_extra={
    "pattern": r"^[\s-]*(?:[0-9A-TV-Za-tv-z][\s-]*){16}$"})]


class Credentials(Body):
    username: Username
    password: str = Field(max_length=1024)


class RecoveryIn(Body):
    username: Username
    code: RecoveryCode


class PasswordIn(Body):
    current: str | None = Field(None, max_length=1024)
    password: str = Field(max_length=1024)


class DeleteIn(Body):
    password: str | None = Field(None, max_length=1024)


class CeremonyIn(Body):
    ceremony: str = Field(max_length=100)
    credential: dict[str, Any]
    name: str = Field("passkey", max_length=100)


class PlayerOut(BaseModel):
    id: str
    name: str | None
    username: str | None


class TableOut(BaseModel):
    table_id: str
    title: str
    status: str
    preset: str
    seat: int


class MeOut(BaseModel):
    """Who the browser is: its player, whether signed in, its CSRF token, and its
    unfinished tables."""

    player: PlayerOut
    signed_in: bool
    csrf: str
    password_needed: bool
    recovery_codes_left: int | None
    tables: list[TableOut]


class MeOnly(BaseModel):
    me: MeOut


class ClaimedOut(BaseModel):
    me: MeOut
    recovery_codes: list[str]


class SeatTokenOut(BaseModel):
    table_id: str
    seat: int
    token: str


class SessionOut(BaseModel):
    id: str
    label: str | None
    created: float
    last_seen: float
    current: bool


class SessionsOut(BaseModel):
    sessions: list[SessionOut]


class Ended(BaseModel):
    ended: int


class PasskeyOut(BaseModel):
    id: int
    name: str
    created: float
    last_used: float | None


class PasskeysOut(BaseModel):
    passkeys: list[PasskeyOut]


class Ceremony(BaseModel):
    ceremony: str
    options: dict[str, Any]


class SessionId(Convertor[str]):
    """A session's id in a path: a token's selector (golf.identity.tokens), so that
    ``/api/sessions/signout-others`` is that call's path only, never a session's."""

    regex = "[A-Za-z0-9_-]{16}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("session", SessionId())


# --- dependencies ---------------------------------------------------------------------------

def address(request: Request) -> str:
    """The address a sign-in is limited by."""
    return request.client.host if request.client else "unknown"


def label(request: Request) -> str | None:
    """What a session is called in its owner's list: the browser's User-Agent."""
    agent = " ".join(request.headers.get("user-agent", "").split())
    return agent[:MAX_LABEL] or None


def no_store(response: Response) -> None:
    """Answers about identity are never cached (they carry the CSRF token)."""
    response.headers["Cache-Control"] = "no-store"


def account_router() -> APIRouter:
    """The routes; the services come from the application's state."""
    api = APIRouter(prefix="/api", route_class=AccountRoute, tags=["accounts"])

    @raises("try_again")  # the service writes to the database, which may be away
    def service(request: Request) -> Players:
        return players_of(request)

    @raises("try_again")
    def passkeys(request: Request) -> Passkeys:
        keys: Passkeys | None = getattr(request.app.state, "passkeys", None)
        if keys is None:
            keys = request.app.state.passkeys = Passkeys(players_of(request))
        return keys

    PlayersDep = Annotated[Players, Depends(service)]
    PasskeysDep = Annotated[Passkeys, Depends(passkeys)]

    async def me_of(players: Players, who: Identity) -> MeOut:
        tables = await players.my_tables(who.player.id)
        left = await players.remaining_codes(who.player.id) if who.signed_in else None
        name = who.player.name
        if name is None:
            # Never chose one: the name they last played under (what others see on their
            # profile), so a second browser's lobby gets it too.
            async with players.store.engine.connect() as conn:
                name = (await played_names(conn, [who.player.id])).get(who.player.id)
        return MeOut(player=PlayerOut(id=who.player.id, name=name,
                                      username=who.player.username),
                     signed_in=who.signed_in, csrf=who.csrf,
                     password_needed=who.password_needed, recovery_codes_left=left,
                     tables=[TableOut(table_id=t.table_id, title=t.title, status=t.status,
                                      preset=t.preset, seat=t.seat) for t in tables])

    def signed_in(request: Request, response: Response, done: SignedIn) -> None:
        set_cookie(response, request, SESSION_COOKIE, done.session_cookie, SESSION_IDLE)
        if done.guest_cookie is not None:
            set_cookie(response, request, GUEST_COOKIE, done.guest_cookie, GUEST_MAX_AGE)
        no_store(response)

    @api.get("/me")
    async def me(players: PlayersDep, who: Who, response: Response) -> MeOut:
        """Who am I: the player, signed in or not, the CSRF token, my unfinished tables."""
        no_store(response)
        return await me_of(players, who)

    @api.post("/me/name", responses=errors("bad_name"))
    async def set_name(players: PlayersDep, who: Writer, body: NameIn,
                       response: Response) -> MeOnly:
        """Set the display name (a guest too, at any time)."""
        no_store(response)
        return MeOnly(me=await me_of(players, await players.set_name(who, body.name)))

    @api.post("/me/tables/{table_id}/seat", responses=errors("no_seat"))
    async def seat_token(request: Request, players: PlayersDep, who: Writer, table_id: str,
                         response: Response) -> SeatTokenOut:
        """A fresh seat token for my seat at one of my unfinished tables."""
        # The seat then answers to it alone: an older token of the seat stops working.
        no_store(response)
        await players.check_seat(who, table_id)
        hub: Hub = request.app.state.hub
        room = await hub.room(table_id)
        seat, token = await room.seating.reissue_token(who.player.id)
        return SeatTokenOut(table_id=table_id, seat=seat, token=token)

    @api.post("/account/claim", responses=errors(
        "already_claimed", "username_taken", "too_short", "too_long", "too_repetitive",
        "too_common", "contains_username", "bad_characters", "bad_shape", "reserved"))
    async def claim(request: Request, response: Response, players: PlayersDep, who: Writer,
                    body: Credentials) -> ClaimedOut:
        """Make this guest profile an account; the recovery codes are shown this once."""
        done = await players.claim(who, body.username, body.password, label(request))
        signed_in(request, response, done.signed_in)
        drop_cookie(response, request, GUEST_COOKIE)
        return ClaimedOut(me=await me_of(players, done.signed_in.identity),
                          recovery_codes=list(done.codes))

    @api.post("/signin", responses=errors("sign_in_failed", "rate_limited"))
    async def sign_in(request: Request, response: Response, players: PlayersDep,
                      who: Writer, body: Credentials) -> MeOnly:
        """Sign in with username and password (a new session)."""
        done = await players.sign_in(who, request.cookies.get(GUEST_COOKIE), body.username,
                                     body.password, address(request), label(request))
        signed_in(request, response, done)
        return MeOnly(me=await me_of(players, done.identity))

    @api.post("/signin/recovery",
              responses=errors("sign_in_failed", "rate_limited", "bad_recovery_code"))
    async def sign_in_recovery(request: Request, response: Response, players: PlayersDep,
                               who: Writer, body: RecoveryIn) -> MeOnly:
        """Sign in with a recovery code; a new password must be set next."""
        done = await players.sign_in_with_code(who, request.cookies.get(GUEST_COOKIE),
                                               body.username, body.code, address(request),
                                               label(request))
        signed_in(request, response, done)
        return MeOnly(me=await me_of(players, done.identity))

    @api.post("/signout")
    async def sign_out(request: Request, response: Response, players: PlayersDep,
                       who: Writer) -> Ended:
        """End this browser's session (it is a guest again)."""
        await players.sessions.sign_out(who)
        drop_cookie(response, request, SESSION_COOKIE)
        no_store(response)
        return Ended(ended=1 if who.signed_in else 0)

    @api.get("/sessions", responses=errors("not_signed_in"))
    async def sessions(players: PlayersDep, who: Who, response: Response) -> SessionsOut:
        """My account's active sessions."""
        no_store(response)
        return SessionsOut(sessions=[SessionOut(id=s.id, label=s.label, created=s.created,
                                                last_seen=s.last_seen, current=s.current)
                                     for s in await players.sessions.active(who)])

    @api.delete("/sessions/{session_id:session}",
                responses=errors("not_signed_in", "no_session"))
    async def end_session(request: Request, response: Response, players: PlayersDep,
                          who: Writer, session_id: str) -> Ended:
        """Sign out one session (this one included)."""
        await players.sessions.end(who, session_id)
        if session_id == who.session:
            drop_cookie(response, request, SESSION_COOKIE)
        return Ended(ended=1)

    @api.post("/sessions/signout-others", responses=errors("not_signed_in"))
    async def end_others(players: PlayersDep, who: Writer) -> Ended:
        """Sign out every other session of my account."""
        return Ended(ended=await players.sessions.end_others(who))

    @api.post("/account/password", responses=errors(
        "not_signed_in", "wrong_password", "rate_limited", "too_short", "too_long",
        "too_repetitive", "too_common", "contains_username"))
    async def change_password(request: Request, players: PlayersDep, who: Writer,
                              body: PasswordIn) -> Ended:
        """A new password; every other session ends."""
        return Ended(ended=await players.change_password(who, body.current, body.password,
                                                         address(request)))

    @api.delete("/account",
                responses=errors("not_signed_in", "wrong_password", "rate_limited"))
    async def delete_account(request: Request, response: Response, players: PlayersDep,
                             who: Writer, body: DeleteIn) -> Ended:
        """Delete my account (my games stay in others' histories as "deleted player")."""
        await players.delete_account(who, body.password, address(request))
        drop_cookie(response, request, SESSION_COOKIE)
        return Ended(ended=1)

    # --- passkeys -----------------------------------------------------------------------
    def passkey_out(p: PasskeyInfo) -> PasskeyOut:
        return PasskeyOut(id=p.id, name=p.name, created=p.created, last_used=p.last_used)

    @api.get("/passkeys", responses=errors("not_signed_in"))
    async def list_passkeys(keys: PasskeysDep, who: Who, response: Response) -> PasskeysOut:
        """My account's passkeys."""
        no_store(response)
        return PasskeysOut(passkeys=[passkey_out(p) for p in await keys.list(who)])

    @api.post("/passkeys/register/options",
              responses=errors("not_signed_in", "too_many_passkeys"))
    async def register_options(request: Request, keys: PasskeysDep, who: Writer) -> Ceremony:
        """Begin adding a passkey: options for navigator.credentials.create."""
        return Ceremony.model_validate(await keys.register_options(who,
                                                                   relying_party(request)))

    @api.post("/passkeys/register", responses=errors("not_signed_in", "passkey_failed"))
    async def register(request: Request, keys: PasskeysDep, who: Writer,
                       body: CeremonyIn) -> PasskeyOut:
        """Store the passkey the browser made."""
        return passkey_out(await keys.register(who, relying_party(request), body.ceremony,
                                               body.credential, body.name))

    # ":int": only digits name a passkey, so that DELETE /api/passkeys/register is the
    # 405 of that path (POST only) rather than this route with the id "register".
    @api.delete("/passkeys/{passkey_id:int}",
                responses=errors("not_signed_in", "no_passkey"))
    async def remove_passkey(keys: PasskeysDep, who: Writer, passkey_id: Number) -> Ended:
        """Remove one of my passkeys."""
        await keys.remove(who, passkey_id)
        return Ended(ended=1)

    @api.post("/passkeys/signin/options")
    async def sign_in_options(request: Request, keys: PasskeysDep, _who: Writer) -> Ceremony:
        """Begin signing in with a passkey: options for navigator.credentials.get."""
        return Ceremony.model_validate(await keys.sign_in_options(relying_party(request)))

    @api.post("/passkeys/signin", responses=errors("passkey_failed"))
    async def passkey_sign_in(request: Request, response: Response, players: PlayersDep,
                              keys: PasskeysDep, who: Writer, body: CeremonyIn) -> MeOnly:
        """Sign in with the passkey that answered the challenge (a new session)."""
        player = await keys.sign_in(relying_party(request), body.ceremony, body.credential)
        done = await players.sessions.begin(who, request.cookies.get(GUEST_COOKIE), player,
                                           label(request), False)
        signed_in(request, response, done)
        # Read back: an account signed in by recovery still owes a new password.
        now = await players.sessions.resolve(None, done.session_cookie) or done.identity
        return MeOnly(me=await me_of(players, now))

    return api
