"""Session and guest secrets: random, shown to their owner once, stored only as hashes,
compared in constant time.

A token has two parts, ``SELECTOR.SECRET``. The selector is a public random id (the
row's key: a guest profile's id, a session's id) and the secret proves possession.
The server stores the selector and :func:`hash_secret` of the secret; a copy of the
database therefore holds nothing that signs anyone in. A plain SHA-256 suffices for
the hash (unlike passwords): a 256-bit random secret cannot be guessed, so slowing
each guess down adds nothing.

>>> t = issue_token()
>>> selector, secret = parse_token(t.cookie)
>>> selector == t.selector and secret_matches(secret, t.digest)
True
>>> secret_matches("guess", t.digest)
False
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field

from .errors import TokenRejected

__all__ = ["SECRET_BYTES", "SELECTOR_BYTES", "IssuedToken", "hash_secret", "issue_token",
           "new_secret", "parse_token", "secret_matches", "token_matches"]

#: Random bytes in a secret: 256 bits.
SECRET_BYTES = 32
#: Random bytes in a selector: 96 bits, unique without coordination.
SELECTOR_BYTES = 12
_URLSAFE = re.compile(r"[A-Za-z0-9_-]+")
#: The longest cookie value accepted (a selector, a dot and a secret, with room).
_MAX_TOKEN = 128


def new_secret(nbytes: int = SECRET_BYTES) -> str:
    """A fresh random secret, URL-safe text, from :mod:`secrets`."""
    return secrets.token_urlsafe(nbytes)


def hash_secret(secret: str) -> str:
    """What is stored instead of ``secret``: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def secret_matches(secret: str, digest: str) -> bool:
    """Whether ``secret`` hashes to ``digest``, compared in constant time."""
    return hmac.compare_digest(hash_secret(secret), digest)


@dataclass(frozen=True)
class IssuedToken:
    """A new token: the selector and the secret for the owner's cookie (once), and the
    digest for the store."""

    selector: str
    secret: str = field(repr=False)  # never in logs
    digest: str

    @property
    def cookie(self) -> str:
        """The value the owner keeps: ``SELECTOR.SECRET``."""
        return f"{self.selector}.{self.secret}"


def issue_token() -> IssuedToken:
    """A fresh token (a new session at sign-in, a new guest at a first visit)."""
    secret = new_secret()
    return IssuedToken(new_secret(SELECTOR_BYTES), secret, hash_secret(secret))


def parse_token(text: str) -> tuple[str, str]:
    """The selector and secret of a cookie value; TokenRejected (one message for
    every fault) when it is not the shape of a token."""
    if len(text) > _MAX_TOKEN:
        raise TokenRejected
    selector, dot, secret = text.partition(".")
    if not dot or not _URLSAFE.fullmatch(selector) or not _URLSAFE.fullmatch(secret):
        raise TokenRejected
    return selector, secret


def token_matches(text: str, selector: str, digest: str) -> bool:
    """Whether the cookie value ``text`` is the token stored as ``selector`` and
    ``digest`` (False for a malformed one)."""
    try:
        got_selector, secret = parse_token(text)
    except TokenRejected:
        return False
    same_selector = hmac.compare_digest(got_selector, selector)
    return secret_matches(secret, digest) and same_selector
