"""Security primitives for player accounts, independent of any server.

* :mod:`~golf.identity.passwords`: the password policy, Argon2id hashing and a sign-in
  check that takes as long for an unknown username as for a wrong password;
* :mod:`~golf.identity.tokens`: session and guest secrets (random, stored hashed,
  compared in constant time);
* :mod:`~golf.identity.recovery`: ten one-time recovery codes;
* :mod:`~golf.identity.ratelimit`: sign-in limits per account and address with
  growing delays;
* :mod:`~golf.identity.usernames`: which usernames are allowed and what makes them
  unique;
* :mod:`~golf.identity.origin`: whether a state-changing request comes from the site
  itself (``Origin``, else ``Referer``).

Every refusal is an :class:`~golf.identity.errors.IdentityError` with a stable code,
the form field and a sentence saying what is allowed. Hashing needs the ``accounts``
extra (``argon2-cffi``); the rest is the standard library.
"""

from .errors import (
    IdentityError,
    PasswordRejected,
    RecoveryCodeRejected,
    TokenRejected,
    UsernameRejected,
)
from .origin import allowed_origins, same_origin
from .passwords import Passwords, check_password
from .ratelimit import SignInLimiter
from .recovery import RecoveryCodes, issue_recovery_codes
from .tokens import issue_token, parse_token, secret_matches, token_matches
from .usernames import check_username, lookup_key, username_key

#: The one answer to any failed sign-in: it never says whether the username exists.
SIGN_IN_FAILED = "wrong username or password"

__all__ = [
    "SIGN_IN_FAILED",
    "IdentityError",
    "PasswordRejected",
    "Passwords",
    "RecoveryCodeRejected",
    "RecoveryCodes",
    "SignInLimiter",
    "TokenRejected",
    "UsernameRejected",
    "allowed_origins",
    "check_password",
    "check_username",
    "issue_recovery_codes",
    "issue_token",
    "lookup_key",
    "parse_token",
    "same_origin",
    "secret_matches",
    "token_matches",
    "username_key",
]
