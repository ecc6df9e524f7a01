"""The OpenAPI document says which errors each REST call answers, in the body it really sends.

Every refusal is ``{"error": {"code", "message", "field"?, ...}}`` (:class:`ErrorBody`), never
FastAPI's ``{"detail": [...]}``: the document lists, per call, each HTTP status with that
schema and its codes (``x-error-codes``). The codes come from three places:

* the route itself: ``responses=errors("table_full", "name_taken")`` on its decorator, for
  what its own code (the room, the service) refuses;
* its dependencies, marked with :func:`raises` ("this table" answers ``no_table``, "this
  seat" ``unauthorized`` and ``bad_token``, ...);
* what every request passes (:mod:`golf.server.http.guard` and the models): a body can be
  ``bad_json``, ``too_deep``, ``bad_message``, ``too_large`` or ``bad_content_type``, and
  its fields' own codes (``FIELD_CODES``); a write can be ``cross_site``; a typed path or
  query parameter ``bad_message``.

>>> sorted(errors("table_full", "name_taken", "no_table"))
[404, 409]
>>> errors("table_full", "name_taken")[409]["x-error-codes"]
['name_taken', 'table_full']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, TypeVar, get_args

from fastapi import FastAPI, Path, Query
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel, Field

from ..core.protocol import ACCOUNT_CODES, CODES, FIELD_CODES, MAX_NAME, MAX_SEATS
from ..http.guard import WRITES

__all__ = ["MAX_INT", "ErrorBody", "ErrorInfo", "Number", "Page", "SeatNumber", "errors",
           "install", "raises", "statuses"]

#: The largest number a path or query takes (a match number, a replay version, a passkey
#: id): every stored one fits, and a larger one is refused ``bad_message`` at the edge
#: instead of overflowing a database integer (2^63 and beyond).
MAX_INT = 2**31 - 1
#: A whole number in a path: 0 to MAX_INT (the document says so; anything else is a 400).
Number = Annotated[int, Path(ge=0, le=MAX_INT)]
#: A seat number in a path: 0 to MAX_SEATS - 1.
SeatNumber = Annotated[int, Path(ge=0, lt=MAX_SEATS)]
#: A page of a list: 1 to MAX_INT.
Page = Annotated[int, Query(ge=1, le=MAX_INT)]

#: A display name's shape, as the document states it: no control character, and at least
#: one that is not a space (the server also refuses other invisible characters, and
#: collapses runs of spaces: :func:`golf.server.core.protocol.check_name`).
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
#: A display name in a body. The server's own check (``check_name``, code ``bad_name``)
#: refuses what the document refuses; the schema only says so.
Name = Annotated[str, Field(json_schema_extra={
    "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN,
    "description": f"1 to {MAX_NAME} characters of plain text: no control or invisible "
                   "formatting characters; runs of spaces count as one, and surrounding "
                   "spaces are dropped"})]

#: Refusals that a request the document allows can still get: they depend on the server's
#: state (the table, the seat, the account, a ceremony, the clock) or on combinations of
#: fields that no schema states (rules that contradict each other, a password containing
#: the username). Every other code of an operation answers only a request the document
#: refuses. Each error response lists its codes of this kind in ``x-beyond-schema``.
SHAPE_CODES = frozenset({
    "bad_json", "too_large", "bad_message", "too_deep", "bad_content_type", "bad_name",
    "bad_option", "bad_recovery_code", "bad_characters", "bad_shape", "not_found",
    "bad_method"})

F = TypeVar("F", bound=Callable[..., Any])

#: What any request with a body can be refused for before its route runs.
BODY_CODES = ("bad_json", "too_deep", "bad_message", "too_large", "bad_content_type")
#: The schema name of an error answer in the document.
REF = "#/components/schemas/ErrorBody"


class ErrorInfo(BaseModel):
    """One refusal: a stable code (docs/protocol.md, "Errors"; docs/identity.md,
    "Refusals"), a sentence, and the fields some codes add."""

    code: str = Field(description="the stable code, e.g. bad_rules or table_full")
    message: str = Field(description="what was wrong and what is allowed, in English")
    field: str | None = Field(None, description="the request field at fault, when one is")
    retry_after: float | None = Field(None, description="rate_limited, too_early: when to "
                                      "try again (see the code's documentation for the unit)")
    version: int | None = Field(None, description="rate_limited at a table: its state "
                                "version now")


class ErrorBody(BaseModel):
    """The body of every REST refusal."""

    error: ErrorInfo


def statuses(code: str) -> tuple[int, ...]:
    """Every HTTP status ``code`` is sent with (KeyError for an unknown code)."""
    if code in CODES:
        return (CODES[code],)
    return ACCOUNT_CODES[code]


def errors(*codes: str) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses=``: each status its codes are sent with, the error schema and
    the codes (``x-error-codes``)."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        for status in statuses(code):
            entry = out.setdefault(status, {"model": ErrorBody, "x-error-codes": []})
            if code not in entry["x-error-codes"]:
                entry["x-error-codes"].append(code)
    for entry in out.values():
        entry["x-error-codes"].sort()
        entry["description"] = _describe(entry["x-error-codes"])
    return out


def raises(*codes: str) -> Callable[[F], F]:
    """Mark a dependency with the codes it answers (every route using it lists them)."""
    for code in codes:
        statuses(code)  # an unknown code fails at import, not in the document

    def mark(fn: F) -> F:
        fn.golf_errors = codes  # type: ignore[attr-defined]
        return fn

    return mark


def _describe(codes: Iterable[str]) -> str:
    codes = list(codes)
    where = "docs/protocol.md, Errors"
    if any(c not in CODES for c in codes):
        where += "; docs/identity.md, Refusals"
    return "Refused: " + ", ".join(f"`{c}`" for c in codes) + f" ({where})"


def _dependency_codes(route: APIRoute) -> set[str]:
    out: set[str] = set()
    pending = list(route.dependant.dependencies)
    while pending:
        dep = pending.pop()
        out.update(getattr(dep.call, "golf_errors", ()))
        pending.extend(dep.dependencies)
    return out


def _typed_params(route: APIRoute) -> bool:
    """Whether a path or query parameter has a type a string can fail (``int``)."""
    fields = [*route.dependant.path_params, *route.dependant.query_params]
    pending = list(route.dependant.dependencies)
    while pending:
        dep = pending.pop()
        fields += [*dep.path_params, *dep.query_params]
        pending.extend(dep.dependencies)
    return any(f.field_info.annotation not in (str, str | None) for f in fields)


def route_codes(route: APIRoute, method: str) -> set[str]:
    """Every code ``route`` can answer when called with ``method``."""
    codes: set[str] = set()
    for entry in route.responses.values():
        codes.update(entry.get("x-error-codes", ()))
    codes |= _dependency_codes(route)
    if route.body_field is not None:
        codes.update(BODY_CODES)
        for model in _models(route.body_field.field_info.annotation):
            for name, info in model.model_fields.items():
                nested = list(_models(info.annotation))
                if name in FIELD_CODES and (info.annotation is not Any or nested):
                    codes.add(FIELD_CODES[name])  # a field that can be refused keeps its code
    if method in WRITES:
        codes.add("cross_site")
    if _typed_params(route):
        codes.add("bad_message")
    if any(c.regex != "[^/]+" for c in route.param_convertors.values()):
        codes.add("not_found")  # a path segment its convertor refuses matches no route
    return codes


def _models(annotation: Any) -> Iterator[type[BaseModel]]:
    """The body models in an annotation (``NewTable``, ``TableChanges | None``, ...)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in get_args(annotation):
        yield from _models(arg)


def _is_validation_error(response: dict[str, Any]) -> bool:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return str(schema.get("$ref", "")).endswith("/HTTPValidationError")


def describe(app: FastAPI, schema: dict[str, Any]) -> None:
    """Put every route's error answers into ``schema`` (in place), and take FastAPI's
    ``422 HTTPValidationError`` out: the server never answers that body."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, model in (("ErrorInfo", ErrorInfo), ("ErrorBody", ErrorBody)):
        if name not in components:  # (every route's own responses= brings them usually)
            components[name] = model.model_json_schema(
                ref_template="#/components/schemas/{model}")
            components[name].pop("$defs", None)  # ErrorInfo is a component of its own
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        for method in context.methods or ():
            op = schema["paths"].get(context.path_format, {}).get(method.lower())
            if op is None:
                continue
            responses = op.setdefault("responses", {})
            for status in [s for s, r in responses.items() if _is_validation_error(r)]:
                del responses[status]
            by_status: dict[int, set[str]] = {}
            for code in route_codes(route, method):
                for status in statuses(code):
                    by_status.setdefault(status, set()).add(code)
            for status, codes in sorted(by_status.items()):
                responses[str(status)] = {
                    "description": _describe(sorted(codes)),
                    "content": {"application/json": {"schema": {"$ref": REF}}},
                    "x-error-codes": sorted(codes),
                    "x-beyond-schema": sorted(codes - SHAPE_CODES)}
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` (and ``/api/openapi.json``) describe the real error answers."""
    plain = app.openapi
    done: set[int] = set()

    def openapi() -> dict[str, Any]:
        schema = plain()
        if id(schema) not in done:  # FastAPI keeps the document until the routes change
            describe(app, schema)
            done.add(id(schema))
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
