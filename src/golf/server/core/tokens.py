"""Unguessable identifiers: seat tokens, invite codes, table ids and seeds.

All come from :mod:`secrets`. Seat tokens are stored only as hashes.

>>> len(new_token()) >= 22, hash_token("a") == hash_token("a")
(True, True)
>>> new_seed().bit_length() <= 128
True
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32  # 256 bits
INVITE_BYTES = 18  # 144 bits
TABLE_ID_BYTES = 16  # 128 bits: the id is also the spectator link


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_invite() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def new_seed() -> int:
    """A 128-bit shuffle seed (never sent while its match runs)."""
    return secrets.randbits(128)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
