"""The error shape of every REST answer that refuses: ``{"error": {"code", "message",
"field"?, ...}}`` with the code's HTTP status (docs/protocol.md, "Errors").

:func:`error_response` turns a :class:`~golf.server.core.protocol.ProtocolError` into that
answer (the application's handlers use it for every refusal, 404 and 405 included), and
:func:`refused_body` says which field of a body, path or query the models refused, with
that field's own code (``FIELD_CODES``), never FastAPI's ``{"detail": [...]}``.
"""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..core.protocol import FIELD_CODES, ProtocolError, json_type

__all__ = ["error_response", "refused_body"]


def error_response(e: ProtocolError) -> JSONResponse:
    body: dict[str, Any] = {"code": e.code, "message": e.message}
    if e.field is not None:
        body["field"] = e.field
    body.update(e.extra)  # e.g. retry_after
    return JSONResponse({"error": body}, status_code=e.status)


def refused_body(e: RequestValidationError) -> ProtocolError:
    """A body, path or query the models refused, as the protocol's error: the code of
    the field at fault and a message naming where."""
    errors = e.errors()
    if not errors:
        return ProtocolError("bad_message", "the request is malformed")
    # An unknown field comes first: it may be a misspelt one that is missing besides.
    first = next((x for x in errors if x.get("type") == "extra_forbidden"), errors[0])
    loc = [str(x) for x in first.get("loc", ())]
    if first.get("type") == "json_invalid":
        return ProtocolError("bad_json", "the request body is not valid JSON")
    if loc[:1] == ["body"] and len(loc) == 1:
        return ProtocolError("bad_message", "the request body is a JSON object")
    if first.get("type") == "extra_forbidden" and loc[:1] == ["body"]:
        # An unknown field is the message's fault wherever it sits: bad_message naming it
        # (``field``: the unknown name at the top, else the top field it is inside).
        return ProtocolError("bad_message", f"unknown field {'.'.join(loc[1:])!r}: the "
                             "body has no such field (see docs/protocol.md)", field=loc[1])
    field = loc[1] if len(loc) > 1 else loc[0] if loc else "request"
    where = ".".join(loc[1:]) or field
    code = FIELD_CODES.get(field, "bad_message") if loc[:1] == ["body"] else "bad_message"
    message = f"{where}: {first.get('msg', 'not allowed')}"
    if str(first.get("type", "")).endswith("_type") and loc[:1] == ["body"]:
        message += f", got {json_type(first.get('input'))}"  # a type error names the type
    return ProtocolError(code, message, field=field)
