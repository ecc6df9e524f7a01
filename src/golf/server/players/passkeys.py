"""Passkeys (WebAuthn, the ``webauthn`` package): an account adds one while signed in
and then signs in with it, no password typed.

The relying party is the site as the request names it: its id is the ``Host``'s host
name, its origin the scheme (``https`` behind a TLS proxy that says
``X-Forwarded-Proto: https``) and host. Each ceremony gets a fresh random challenge kept
in the database (``golf_passkey_challenges``, under the SHA-256 digest of the ceremony
key the browser holds) for :data:`CHALLENGE_TTL` seconds and usable once: any process of
a cluster can answer a ceremony another one began, and taking a challenge deletes its
row in the same statement, so two answers cannot both use it. Only the credential's id,
public key and signature counter are stored (``golf_passkeys``); sign-in asks for a
discoverable credential (the authenticator knows which account it belongs to).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from starlette.requests import HTTPConnection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..core.protocol import clean_text
from ..storage import db
from .accounts import Players
from .sessions import AccountError, Identity, Player, is_tls, require_signed_in

__all__ = ["CHALLENGE_TTL", "Passkeys", "RelyingParty", "relying_party"]

#: Seconds a ceremony's challenge stays valid.
CHALLENGE_TTL = 300.0
#: Seconds between two deletions of expired challenges by one process.
PRUNE_EVERY = 60.0
#: Passkeys an account may hold.
MAX_PASSKEYS = 10
RP_NAME = "Golf"


def _digest(key: str) -> str:
    """A ceremony key as stored: its SHA-256 digest (the key itself is the browser's)."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class RelyingParty:
    """The site as WebAuthn sees it."""

    id: str
    origin: str


def relying_party(conn: HTTPConnection) -> RelyingParty:
    """The relying party of a request: its host name and origin."""
    host = conn.url.hostname or "localhost"
    scheme = "https" if is_tls(conn) else "http"
    port = conn.url.port
    default = 443 if scheme == "https" else 80
    origin = f"{scheme}://{host}" + ("" if port in (None, default) else f":{port}")
    return RelyingParty(host, origin)


@dataclass(frozen=True)
class PasskeyInfo:
    """One passkey of an account, as its owner sees it."""

    id: int
    name: str
    created: float
    last_used: float | None


class Passkeys:
    """Registration and sign-in ceremonies over the players' store."""

    def __init__(self, players: Players) -> None:
        self.players = players
        self._pruned = 0.0

    async def _remember(self, challenge: bytes, purpose: str, player_id: str | None) -> str:
        """Store a ceremony's challenge; the ceremony key for the browser."""
        key = secrets.token_urlsafe(16)
        now = self.players.clock()
        t = db.passkey_challenges
        prune = now - self._pruned >= PRUNE_EVERY
        if prune:
            self._pruned = now

        async def op(conn: Any) -> None:
            if prune:  # expired ones are useless; without this the table only grows
                await conn.execute(t.delete().where(t.c.created < now - CHALLENGE_TTL))
            await conn.execute(t.insert().values(id=_digest(key), challenge=challenge,
                                                 purpose=purpose, player_id=player_id,
                                                 created=now))

        await self.players.store.submit(op)
        return key

    async def _take(self, key: str, purpose: str, player_id: str | None) -> bytes:
        """The challenge of ``key`` (used up now, by whichever process), if it is this
        ceremony's and fresh."""
        t = db.passkey_challenges
        expired = AccountError("passkey_failed", "this passkey request has expired; try "
                               "again", 400, "passkey")
        if not isinstance(key, str) or len(key) > 100:
            raise expired

        async def op(conn: Any) -> Any:
            # Deleted and read in one statement: of two answers, one gets the row.
            return (await conn.execute(t.delete().where(t.c.id == _digest(key)).returning(
                t.c.challenge, t.c.purpose, t.c.player_id, t.c.created))).first()

        found = await self.players.store.submit(op)
        if (found is None or found.purpose != purpose or found.player_id != player_id
                or self.players.clock() - found.created > CHALLENGE_TTL):
            raise expired
        return bytes(found.challenge)

    async def register_options(self, who: Identity, rp: RelyingParty) -> dict[str, Any]:
        """The options for ``navigator.credentials.create`` (signed in only)."""
        require_signed_in(who)
        existing = await self._credentials(who.player.id)
        if len(existing) >= MAX_PASSKEYS:
            raise AccountError("too_many_passkeys", f"an account holds at most "
                               f"{MAX_PASSKEYS} passkeys; remove one first", 409, "passkey")
        options = generate_registration_options(
            rp_id=rp.id, rp_name=RP_NAME, user_name=who.player.username or who.player.id,
            user_id=who.player.id.encode(), user_display_name=who.player.name or "",
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=c) for c in existing])
        key = await self._remember(options.challenge, "register", who.player.id)
        return {"ceremony": key, "options": json.loads(options_to_json(options))}

    async def register(self, who: Identity, rp: RelyingParty, ceremony: str,
                       credential: dict[str, Any], name: str) -> PasskeyInfo:
        """Store the new passkey the browser made for ``ceremony``."""
        require_signed_in(who)
        challenge = await self._take(ceremony, "register", who.player.id)
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=rp.id, expected_origin=rp.origin)
        # WebAuthnException: every refusal of the library (a malformed credential is
        # InvalidJSONStructure, a bad signature InvalidRegistrationResponse, ...).
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            raise AccountError("passkey_failed", f"the passkey could not be added: {e}"[:300],
                               400, "passkey") from None
        now = self.players.clock()
        label = clean_text(name)[:60] or "passkey"
        cred_id = bytes_to_base64url(verified.credential_id)

        async def op(conn: Any) -> int:
            res = await conn.execute(db.passkeys.insert().values(
                player_id=who.player.id, credential_id=cred_id,
                public_key=verified.credential_public_key, sign_count=verified.sign_count,
                name=label, created=now, last_used=None).returning(db.passkeys.c.id))
            return int(res.scalar_one())

        try:
            pk = await self.players.store.submit(op)
        except sa.exc.IntegrityError:
            raise AccountError("passkey_failed", "this passkey is registered already", 409,
                               "passkey") from None
        return PasskeyInfo(pk, label, now, None)

    async def _credentials(self, player_id: str) -> list[bytes]:
        from webauthn.helpers import base64url_to_bytes

        p = db.passkeys
        async with self.players.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(p.c.credential_id)
                                       .where(p.c.player_id == player_id))).all()
        return [base64url_to_bytes(r[0]) for r in rows]

    async def sign_in_options(self, rp: RelyingParty) -> dict[str, Any]:
        """The options for ``navigator.credentials.get`` (any discoverable passkey)."""
        options = generate_authentication_options(
            rp_id=rp.id, user_verification=UserVerificationRequirement.PREFERRED)
        key = await self._remember(options.challenge, "sign_in", None)
        return {"ceremony": key, "options": json.loads(options_to_json(options))}

    async def sign_in(self, rp: RelyingParty, ceremony: str,
                      credential: dict[str, Any]) -> Player:
        """The account whose passkey answered ``ceremony``'s challenge (its counter is
        stored); one refusal for every failure."""
        challenge = await self._take(ceremony, "sign_in", None)
        failed = AccountError("passkey_failed", "this passkey was not accepted", 401,
                              "passkey")
        cred_id = credential.get("id") if isinstance(credential, dict) else None
        if not isinstance(cred_id, str) or len(cred_id) > 512:
            raise failed
        p, a, pl = db.passkeys, db.accounts, db.players
        async with self.players.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(p.c.id, p.c.public_key, p.c.sign_count, p.c.player_id, a.c.username,
                          pl.c.name)
                .join(a, a.c.player_id == p.c.player_id).join(pl, pl.c.id == p.c.player_id)
                .where(p.c.credential_id == cred_id, pl.c.status == "active"))).first()
        if row is None:
            raise failed
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
                expected_origin=rp.origin, credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise failed from None
        now = self.players.clock()

        async def op(conn: Any) -> None:
            await conn.execute(p.update().where(p.c.id == row.id).values(
                sign_count=verified.new_sign_count, last_used=now))

        await self.players.store.submit(op)
        return Player(row.player_id, row.name, row.username)

    async def list(self, who: Identity) -> list[PasskeyInfo]:
        """The account's passkeys."""
        require_signed_in(who)
        p = db.passkeys
        async with self.players.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(p.c.id, p.c.name, p.c.created, p.c.last_used)
                                       .where(p.c.player_id == who.player.id)
                                       .order_by(p.c.id))).all()
        return [PasskeyInfo(r[0], r[1], r[2], r[3]) for r in rows]

    async def remove(self, who: Identity, passkey_id: int) -> None:
        """Remove one of the account's passkeys."""
        require_signed_in(who)
        p = db.passkeys

        async def op(conn: Any) -> int:
            res = await conn.execute(p.delete().where(p.c.id == passkey_id,
                                                      p.c.player_id == who.player.id))
            return int(res.rowcount or 0)

        if await self.players.store.submit(op) == 0:
            raise AccountError("no_passkey", "your account has no passkey with this id", 404,
                               "passkey")
