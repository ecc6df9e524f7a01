"""Passwords: the policy a new one must meet, Argon2id hashing, and a sign-in check
that takes as long for an unknown username as for a wrong password.

Hashing is Argon2id through ``argon2-cffi`` with OWASP's recommended minimum
(:data:`DEFAULT_PARAMS`: 19 MiB of memory, 2 passes, 1 lane, a 16-byte random salt and
a 32-byte hash), about 60 ms on one core: costly for guessing at scale, cheap enough
for a game server. The hash string carries its parameters, so raising them later
works through :meth:`Passwords.needs_rehash` at the next sign-in.

Passwords are normalised (Unicode NFKC) before hashing and checking, so the same
password typed on two keyboards that compose characters differently matches.

>>> check_password("correct horse")
>>> check_password("short")
Traceback (most recent call last):
golf.identity.errors.PasswordRejected: a password needs at least 10 characters (this one has 5)
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from .common_passwords import COMMON_PASSWORDS
from .errors import PasswordRejected

__all__ = ["DEFAULT_PARAMS", "MAX_LENGTH", "MIN_DISTINCT", "MIN_LENGTH", "HashParams",
           "Passwords", "check_password", "normalise_password"]

#: Shortest password accepted, in characters (after normalisation).
MIN_LENGTH = 10
#: Longest password accepted: long enough for any passphrase, short enough that
#: hashing a request's password costs a bounded time.
MAX_LENGTH = 256
#: Usernames this long or longer must not appear in their password.
MIN_USERNAME_IN_PASSWORD = 4
#: Fewest different characters: ``aaaaaaaaaa`` and ``ababababab`` are refused.
MIN_DISTINCT = 4


def normalise_password(password: str) -> str:
    """The form a password is checked and hashed in: Unicode NFKC."""
    return unicodedata.normalize("NFKC", password)


def check_password(password: str, username: str | None = None) -> None:
    """Refuse a new password that breaks the policy, with a PasswordRejected saying
    which rule: at least :data:`MIN_LENGTH` and at most :data:`MAX_LENGTH` characters,
    at least :data:`MIN_DISTINCT` different ones, not on the list of common passwords,
    not the username."""
    text = normalise_password(password)
    folded = text.casefold()
    if len(text) < MIN_LENGTH:
        raise PasswordRejected("too_short", f"a password needs at least {MIN_LENGTH} "
                               f"characters (this one has {len(text)})")
    if len(text) > MAX_LENGTH:
        raise PasswordRejected("too_long", f"a password has at most {MAX_LENGTH} "
                               f"characters (this one has {len(text)})")
    if len(set(folded)) < MIN_DISTINCT:
        raise PasswordRejected("too_repetitive", f"a password needs at least "
                               f"{MIN_DISTINCT} different characters")
    if folded in COMMON_PASSWORDS:
        raise PasswordRejected("too_common", "this password is on the list of commonly "
                               "used passwords, which are guessed first; choose another")
    user = (username or "").casefold()
    if len(user) >= MIN_USERNAME_IN_PASSWORD and user in folded:
        raise PasswordRejected("contains_username", "a password must not contain the "
                               "username")


@dataclass(frozen=True)
class HashParams:
    """Argon2id's cost parameters: passes, memory in KiB, lanes, hash and salt bytes."""

    time_cost: int = 2
    memory_cost: int = 19 * 1024
    parallelism: int = 1
    hash_len: int = 32
    salt_len: int = 16


#: OWASP's Password Storage Cheat Sheet minimum for Argon2id (m=19 MiB, t=2, p=1).
DEFAULT_PARAMS = HashParams()


class Passwords:
    """Hashing and checking with one set of :class:`HashParams`.

    A random dummy hash with the same parameters is made at construction: checking a
    password for an unknown username verifies against it, so that answer costs one
    Argon2 verification like a wrong password does (no time difference tells an
    attacker which usernames exist).
    """

    def __init__(self, params: HashParams = DEFAULT_PARAMS) -> None:
        from argon2 import PasswordHasher, Type  # the accounts extra, needed here only

        self.params = params
        self._hasher = PasswordHasher(
            time_cost=params.time_cost, memory_cost=params.memory_cost,
            parallelism=params.parallelism, hash_len=params.hash_len,
            salt_len=params.salt_len, type=Type.ID)
        self._dummy = self._hasher.hash(secrets.token_urlsafe(32))

    def hash(self, password: str) -> str:
        """The Argon2id hash string to store (salt and parameters included)."""
        return self._hasher.hash(normalise_password(password))

    def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from. A stored value that
        is not an Argon2 hash never matches."""
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            return self._hasher.verify(stored, normalise_password(password))
        except (VerificationError, InvalidHashError):
            return False

    def verify_sign_in(self, stored: str | None, password: str) -> bool:
        """The sign-in check: ``stored`` is the account's hash, or None when no account
        has the username given. An unknown username costs the same work as a wrong
        password and answers False the same way."""
        if stored is None:
            self.verify(self._dummy, password)
            return False
        return self.verify(stored, password)

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than these (hash the
        password again at a successful sign-in)."""
        from argon2.exceptions import InvalidHashError

        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
