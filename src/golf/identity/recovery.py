"""Recovery codes: ten one-time codes given at account claim, instead of an e-mail.

Each code is 16 symbols of Crockford's base32 (digits and letters without I, L, O
and U), 80 random bits from :mod:`secrets`, shown as ``XXXX-XXXX-XXXX-XXXX``. Only
its SHA-256 is stored (80 random bits are beyond guessing, as for
:mod:`~golf.identity.tokens`); a used code is marked used and never matches again.
Typing is forgiving: case, spaces and hyphens do not matter, and ``O``, ``I`` and
``L`` are read as ``0``, ``1`` and ``1``.

>>> issued = issue_recovery_codes()
>>> len(issued.codes), len(set(issued.codes))
(10, 10)
>>> book = RecoveryCodes(issued.digests)
>>> after = book.redeem(issued.codes[3].lower().replace("-", " "))
>>> after is not None and after.remaining, after and after.redeem(issued.codes[3])
(9, None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import RecoveryCodeRejected

__all__ = ["ALPHABET", "CODE_LENGTH", "RECOVERY_CODE_COUNT", "IssuedCodes", "RecoveryCodes",
           "code_digest", "find_code", "issue_recovery_codes", "normalise_code"]

#: Codes given at claim time.
RECOVERY_CODE_COUNT = 10
#: Crockford's base32: no I, L, O, U (read as 1, 1, 0; U is left out entirely).
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Symbols a code: 16 x 5 = 80 bits.
CODE_LENGTH = 16
_GROUP = 4
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def _new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + _GROUP] for i in range(0, CODE_LENGTH, _GROUP))


def normalise_code(text: str) -> str:
    """A typed code in its stored form (16 symbols, no separators); RecoveryCodeRejected
    when it cannot be a code."""
    raw = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    if len(raw) != CODE_LENGTH or any(c not in ALPHABET for c in raw):
        raise RecoveryCodeRejected(f"a recovery code is {CODE_LENGTH} letters and digits, "
                                   "as printed when the account was made (such as "
                                   "ABCD-EFGH-JKMN-PQRS)")
    return raw


def code_digest(text: str) -> str:
    """The stored form of a code: the SHA-256 of its normalised text, in hex."""
    return hashlib.sha256(normalise_code(text).encode("ascii")).hexdigest()


@dataclass(frozen=True)
class IssuedCodes:
    """New codes: the text to show once and the digests to store, in the same order."""

    codes: tuple[str, ...] = field(repr=False)
    digests: tuple[str, ...]


def issue_recovery_codes(count: int = RECOVERY_CODE_COUNT) -> IssuedCodes:
    """A fresh set of codes (at claim time, or when the owner asks for new ones)."""
    codes = tuple(_new_code() for _ in range(count))
    return IssuedCodes(codes, tuple(code_digest(c) for c in codes))


def find_code(text: str, digests: Sequence[str | None]) -> int | None:
    """The index of the stored digest ``text`` matches, or None. Used codes are None
    in ``digests``. Every digest is compared (in constant time) whatever matches, so
    the time taken tells nothing about which code matched."""
    want = code_digest(text)
    found = None
    for i, digest in enumerate(digests):
        if digest is not None and hmac.compare_digest(want, digest) and found is None:
            found = i
    return found


@dataclass(frozen=True)
class RecoveryCodes:
    """An account's stored codes: their digests and which are used. The server keeps
    the same as rows; :meth:`redeem` is the rule they follow."""

    digests: tuple[str, ...]
    used: frozenset[int] = frozenset()

    @property
    def remaining(self) -> int:
        """Codes not used yet."""
        return len(self.digests) - len(self.used)

    def redeem(self, text: str) -> RecoveryCodes | None:
        """The codes after using ``text``, or None if it matches no unused code."""
        live = [None if i in self.used else d for i, d in enumerate(self.digests)]
        i = find_code(text, live)
        return None if i is None else RecoveryCodes(self.digests, self.used | {i})
