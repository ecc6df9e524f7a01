"""Protocol constants, errors and the per-connection limits (see ``docs/protocol.md``).

Every error a client can cause is a :class:`ProtocolError` with a code from
:data:`CODES` and a message that says what was wrong and what is allowed.

>>> b = TokenBucket(capacity=2, rate=1.0, now=0.0)
>>> b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)
(True, True, False, True)
"""

from __future__ import annotations

import json
import math
import re
import time
import unicodedata
from collections.abc import Mapping
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - the web extra installs it
    orjson = None  # type: ignore[assignment]

PROTOCOL = 2
#: Frames above this many bytes are refused with ``too_large``.
MAX_FRAME = 4096
#: Frames above this size make the WebSocket layer close the connection (1009).
HARD_MAX_FRAME = 65536
#: REST request bodies above this many bytes are refused with ``too_large`` (413).
MAX_BODY = 16384
#: JSON nested deeper than this (arrays and objects) is refused with ``too_deep`` before it
#: is parsed: no message needs more than a few levels, and the parser's recursion must never
#: be what refuses it.
MAX_DEPTH = 32
#: Every frame but an accepted action takes a token; an accepted action gives its token back,
#: because the match paces those (only the seat to move can play, once per version).
BUCKET_CAPACITY = 30
BUCKET_RATE = 20.0
#: Rate-limited this many times within FLOOD_WINDOW seconds: the socket is closed.
FLOOD_STRIKES = 50
FLOOD_WINDOW = 10.0
MAX_CHAT = 300
CHAT_BURST = 5
CHAT_RATE = 1.0
MAX_NAME = 20
#: Seats at a table, at most (a seat number is 0 to MAX_SEATS - 1).
MAX_SEATS = 8

CLIENT_TYPES = ("hello", "action", "chat", "mute", "hint", "sync", "ready", "ping")
#: The fields each client frame may have (docs/protocol.md, "Client → server"): any other
#: is ``bad_message`` naming it, never silently ignored (a client that sends ``as_seat``
#: or a misspelt ``verison`` learns so at once).
FRAME_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(("type", *more)) for kind, more in (
        ("hello", ("protocol", "table", "token", "show_peeks")),
        ("action", ("version", "action")), ("chat", ("text",)), ("mute", ("seat", "muted")),
        ("hint", ("version",)), ("sync", ("show_peeks",)), ("ready", ()), ("ping", ()))}
assert set(FRAME_FIELDS) == set(CLIENT_TYPES)

#: Error code -> HTTP status for REST answers (the WebSocket ignores the status).
CODES: dict[str, int] = {
    "bad_json": 400, "too_large": 413, "bad_message": 400, "unknown_type": 400,
    "unsupported_protocol": 400, "not_joined": 400, "already_joined": 400,
    "no_table": 404, "bad_token": 403, "bad_invite": 404, "spectator": 403,
    "not_started": 409, "match_over": 409, "stale_version": 409, "not_your_turn": 409,
    "bad_action": 400, "illegal_action": 409, "rate_limited": 429, "chat_too_long": 400,
    "chat_empty": 400, "bad_rules": 422, "bad_seats": 422, "bad_name": 422,
    "bad_option": 422, "table_full": 409, "already_started": 409, "name_taken": 409,
    "seats_open": 409, "not_finished": 409, "not_host": 403, "unauthorized": 401,
    "match_running": 409, "draining": 503, "no_match": 404, "too_deep": 400,
    "cross_site": 403, "bad_content_type": 415, "try_again": 503,
    # No such REST call, or not with this method (golf.server.app).
    "not_found": 404, "bad_method": 405,
    # Quick play and care (golf.server.matchmaking.quickplay, golf.server.moderation.care).
    "no_ticket": 404, "too_early": 409, "suspended": 403, "no_player": 404,
    # Ratings (golf.server.ratings.rating_service, golf.server.api.ratings).
    "not_rateable": 422, "bad_variant": 404,
    # Fair rated play: what would help one seat is off at a rated table (golf.server.tables.room).
    "rated_table": 403,
    # The host's tools for a slow friend (golf.server.tables.patience); an away person's
    # rated seat is the absence rules', not the others' vote.
    "no_proposal": 409, "rated_away": 409,
    # Between holes and after a match (golf.server.tables.finish).
    "hole_break": 409, "no_rematch": 409,
    # Blocks and reports of oneself; a replay step past the match's end.
    "is_you": 409, "no_step": 404,
}

#: The codes of the account routes (golf.server.players.accounts,
#: golf.server.players.passkeys and the policy
#: refusals of golf.identity), with every HTTP status each is sent with: they are
#: ``AccountError`` refusals, listed in docs/identity.md ("Refusals"). Together with CODES
#: this is every code the server sends (tests/server/test_contract.py reads the source).
ACCOUNT_CODES: dict[str, tuple[int, ...]] = {
    "sign_in_failed": (401,), "not_signed_in": (401,), "rate_limited": (429,),
    "cross_site": (403,), "bad_csrf": (403,), "wrong_password": (403,),
    "already_claimed": (409,), "username_taken": (409,), "no_seat": (404,),
    "no_session": (404,), "no_passkey": (404,), "too_many_passkeys": (409,),
    "passkey_failed": (400, 401, 409),
    # Policy refusals (golf.identity), all 422 with the form field.
    "too_short": (422,), "too_long": (422,), "too_repetitive": (422,), "too_common": (422,),
    "contains_username": (422,), "bad_characters": (422,), "bad_shape": (422,),
    "reserved": (422,), "bad_recovery_code": (422,),
}

#: A REST body field with a code of its own keeps that code whatever is wrong with it
#: (a number for ``name`` is ``bad_name``, as an empty name is).
FIELD_CODES: dict[str, str] = {
    "name": "bad_name", "seats": "bad_seats", "kind": "bad_seats", "bot": "bad_seats",
    "options": "bad_option", "public": "bad_option", "title": "bad_option",
    "rules": "bad_rules", "preset": "bad_rules", "rated": "not_rateable",
    "turn_timer": "bad_option"}


class ProtocolError(Exception):
    """A client mistake: answered with ``{"type": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str, field: str | None = None,
                 extra: Mapping[str, Any] | None = None) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        #: More fields of the error frame (``retry_after`` of ``rate_limited``).
        self.extra = dict(extra or {})

    @property
    def status(self) -> int:
        return CODES[self.code]

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        out.update(self.extra)
        return out



class RefusedWithState(ProtocolError):
    """A refused action, answered with the receiver's current state (``state``, sent in
    the error frame: a stale version or another's turn, docs/protocol.md)."""

    def __init__(self, e: ProtocolError, state: dict[str, Any]) -> None:
        super().__init__(e.code, e.message, e.field)
        self.state = state


class TokenBucket:
    """``capacity`` messages at once, refilled at ``rate`` per second."""

    __slots__ = ("capacity", "level", "rate", "stamp")

    def __init__(self, capacity: float, rate: float, now: float | None = None) -> None:
        self.capacity = capacity
        self.rate = rate
        self.level = float(capacity)
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False

    def give_back(self) -> None:
        """Return the token of a message that turned out not to count."""
        self.level = min(self.capacity, self.level + 1.0)

    def wait_ms(self, now: float | None = None) -> int:
        """Milliseconds until a token is there again (0 if one is there now).

        >>> b = TokenBucket(capacity=1, rate=4.0, now=0.0)
        >>> b.take(0.0), b.wait_ms(0.0), b.wait_ms(0.2), b.wait_ms(0.25)
        (True, 250, 50, 0)
        """
        now = time.monotonic() if now is None else now
        level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        return 0 if level >= 1.0 else math.ceil((1.0 - level) / self.rate * 1000)


#: A JSON string (with its escapes): its brackets are text, not nesting.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def too_deep(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests arrays and objects deeper than ``limit``, judged on the raw
    bytes without parsing (a cheap scan of a size-capped body or frame).

    Invalid JSON gets no verdict beyond its brackets: the parser refuses it afterwards.

    >>> too_deep(b'{"a": [1, {"b": "[[[[["}]}', limit=3), too_deep(b"[[[[1]]]]", limit=3)
    (False, True)
    """
    opens = raw.count(b"[") + raw.count(b"{")
    if opens <= limit:  # the common case: too few brackets to nest that deep
        return False
    depth = 0
    for m in _BRACKETS.finditer(_STRING.sub(b'""', raw)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def deep_error(what: str) -> ProtocolError:
    return ProtocolError("too_deep", f"{what} nests arrays and objects more than {MAX_DEPTH} "
                         "levels deep; no message needs that")


def decode(frame: str | bytes) -> dict[str, Any]:
    """A client frame as a message object, or a ProtocolError saying why not.

    >>> decode('{"type": "ping"}')
    {'type': 'ping'}
    >>> try:
    ...     decode('[1]')
    ... except ProtocolError as e:
    ...     print(e.code, "-", e.message)
    bad_message - a message is a JSON object with a "type" field, got a list
    >>> try:
    ...     decode('{"type": "action", "version": 0, "action": "draw", "as_seat": 1}')
    ... except ProtocolError as e:
    ...     print(e.code, e.field, "-", e.message)
    bad_message as_seat - "action" has no field "as_seat"; its fields are: action, type, version

    A binary frame is read as the same bytes in a text frame (UTF-8 JSON).
    """
    raw = frame.encode() if isinstance(frame, str) else frame
    if len(raw) > MAX_FRAME:
        raise ProtocolError("too_large", f"the message has {len(raw)} bytes; at most "
                            f"{MAX_FRAME} are allowed")
    if too_deep(raw):
        raise deep_error("the message")
    try:
        msg = json.loads(frame)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "the message is not valid JSON; send one JSON object "
                            'with a "type" field per frame') from None
    if not isinstance(msg, dict):
        names: dict[type, str] = {list: "a list", str: "a string"}
        got = names.get(type(msg), type(msg).__name__)
        raise ProtocolError("bad_message", 'a message is a JSON object with a "type" field, '
                            f"got {got}")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'the message needs a string field "type", one of: '
                            + ", ".join(CLIENT_TYPES))
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}; the types "
                            "are: " + ", ".join(CLIENT_TYPES))
    allowed = FRAME_FIELDS[kind]
    for name in msg:
        if name not in allowed:
            raise ProtocolError("bad_message", f'"{kind}" has no field {json.dumps(name)[:40]}; '
                                f"its fields are: {', '.join(sorted(allowed))}",
                                field=name[:40])
    return msg


def json_type(value: Any) -> str:
    """The JSON type of a decoded value, as a message names it.

    >>> json_type("2"), json_type(2), json_type(True), json_type(None), json_type([1])
    ('a string', 'a number', 'a boolean', 'null', 'an array')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
    return names.get(type(value), "a value")


def field(msg: Mapping[str, Any], name: str, kind: type | tuple[type, ...],
          what: str, optional: bool = False) -> Any:
    """``msg[name]`` checked against ``kind`` (bool is never an int here)."""
    if name not in msg or (optional and msg[name] is None):
        if optional:
            return None
        raise ProtocolError("bad_message", f'"{msg.get("type", "message")}" needs the field '
                            f'"{name}" ({what})', field=name)
    value = msg[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        wanted = " or ".join(dict.fromkeys(json_type(k()) for k in kinds))
        raise ProtocolError("bad_message", f'field "{name}" must be {wanted} ({what}), got '
                            f"{json_type(value)}: {json.dumps(value)[:40]}", field=name)
    return value


#: Characters that draw nothing but are not format characters (Unicode's default-ignorable
#: letters and marks): the Hangul fillers, the combining grapheme joiner, the Khmer
#: inherent vowels and the Mongolian free variation selectors. Variation selectors
#: (U+FE00-U+FE0F, which choose an emoji's picture) are kept.
_BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")


def hidden(ch: str) -> bool:
    """Whether text one person sends another may not carry the character ``ch``: every
    character of Unicode category C (controls, format characters, surrogates, private use,
    unassigned) and the blank letters of ``_BLANK``. Format characters (Cf) are the
    bidirectional controls (U+200E, U+200F, U+061C, U+202A-U+202E, U+2066-U+2069), which
    could show a line reversed ("gnp.exe"), and the zero-width and invisible ones (U+200B-
    U+200D, U+2060-U+2064, U+FEFF, U+00AD, tags). The zero-width joiner U+200D goes too:
    an emoji sequence it joins (a family of three) shows as its separate emoji.

    >>> [hidden(c) for c in "a \\u202e\\u2066\\u200f\\u200d\\x1b\\u3164\\xe9"]
    [False, False, True, True, True, True, True, True, False]
    """
    return unicodedata.category(ch)[0] == "C" or ch in _BLANK


def clean_text(text: str) -> str:
    """Text from a person for others to read (chat, a report's reason) as one line of plain
    text: runs of white space (line breaks and tabs too) made one space, every
    :func:`hidden` character dropped, trimmed. Every path by which one person's text reaches
    another uses it, or :func:`check_name` (which refuses instead of dropping).

    >>> clean_text("  pay\\tme\\n now \\u202eexe.png\\u202c ")
    'pay me now exe.png'
    """
    words = ("".join(ch for ch in word if not hidden(ch)) for word in text.split())
    return " ".join(word for word in words if word)


def check_name(name: Any) -> str:
    """A display name: 1 to MAX_NAME characters of plain text, white space made single
    spaces; a name with a :func:`hidden` character (a control, a right-to-left override,
    a zero-width character) is refused, not changed behind its owner's back.

    >>> check_name("  Ann ")
    'Ann'
    """
    if not isinstance(name, str):
        raise ProtocolError("bad_name", "a name is text of 1 to 20 characters", field="name")
    if any(hidden(ch) for ch in name):
        raise ProtocolError("bad_name", "a name may not contain control characters or "
                            "invisible formatting characters (such as right-to-left marks "
                            "or zero-width characters)", field="name")
    clean = " ".join(name.split())
    # The length as sent counts too (surrounding and repeated spaces included), as the
    # OpenAPI document's maxLength says: what the document refuses, the server refuses.
    if not 1 <= len(clean) <= MAX_NAME or len(name) > MAX_NAME:
        raise ProtocolError("bad_name", f"a name has 1 to {MAX_NAME} characters, not "
                            f"{max(len(clean), len(name)) if clean else 0}", field="name")
    return clean


_encode_stdlib = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def dumps_stdlib(obj: Any) -> str:
    """A server frame as compact JSON text, by the standard library's encoder.

    >>> dumps_stdlib({"type": "pong", "seats": {1: "Ann"}})
    '{"type":"pong","seats":{"1":"Ann"}}'
    """
    return _encode_stdlib(obj)


def dumps_fast(obj: Any) -> str:
    """The same JSON meaning as :func:`dumps_stdlib`, by orjson when it is installed (about
    ten times faster: every frame a table sends is encoded here). Non-ASCII characters come
    as UTF-8 instead of ``\\u`` escapes; whatever orjson refuses (a string with a lone
    surrogate, an integer beyond 64 bits) is encoded by the standard library instead.

    >>> dumps_fast({"type": "pong", "seats": {1: "Ann"}})
    '{"type":"pong","seats":{"1":"Ann"}}'
    """
    if orjson is None:  # pragma: no cover - the web extra installs orjson
        return _encode_stdlib(obj)
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _encode_stdlib(obj)


#: How the server encodes every frame it sends.
dumps = dumps_fast


def now_ms() -> int:
    return int(time.time() * 1000)
