"""The errors of :mod:`golf.identity`: each names the field it is about, a stable code
for programs and a sentence for people."""

from __future__ import annotations

from ..errors import GolfError


class IdentityError(GolfError):
    """Input an account cannot accept. ``code`` is stable (``too_short``, ...), ``field``
    names the form field, the message says what is wrong and what is allowed."""

    code: str  # always set, unlike a GolfError's

    def __init__(self, code: str, message: str, field: str) -> None:
        super().__init__(message, code=code)
        self.code = code
        self.message = message
        self.field = field


class PasswordRejected(IdentityError):
    """A new password that the password policy refuses."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, "password")


class UsernameRejected(IdentityError):
    """A username that breaks the username rules."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, "username")


class RecoveryCodeRejected(IdentityError):
    """Text that is not the shape of a recovery code (a well-formed but wrong code is
    not an error: it simply matches nothing)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_recovery_code", message, "code")


class TokenRejected(IdentityError):
    """A session or guest cookie that is not the shape of a token. The message is the
    same whatever is wrong with it: it is not shown to attackers piece by piece."""

    def __init__(self) -> None:
        super().__init__("bad_token", "this sign-in has expired or is not valid; "
                         "sign in again", "token")
