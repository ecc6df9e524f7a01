"""Every REST call the server describes, the docs describe: drift between the served OpenAPI
document and docs/ fails here.

A call is documented when one of the docs' *route entries* names it: a heading, the first
cell of a table row, or the start of a bullet, each a code span ``METHOD /api/path`` spelt out
in full (``…/block`` abbreviations and mentions in running text do not count). Path
parameters may be named as the docs like (``{id}``, ``{n}``, ``{seat}``), and a query string
may follow (``?page=N``). Every route entry in turn names a call the server has. Every code an
operation's error responses list (``x-error-codes``) is in the docs' code tables, with that
status: docs/protocol.md, "Errors", or docs/identity.md, "Refusals".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import Route

from golf.server.app import Config, create_app

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
METHODS = ("get", "post", "put", "patch", "delete")
#: The docs that list routes (each a table, a bullet list or headings of its own).
ROUTE_DOCS = ("protocol.md", "identity.md", "quickplay.md", "ratings.md", "server.md")

Operation = tuple[str, str]  # ("POST", "/api/tables/{}/join"): method, normalised path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Any],
                                                                       set[Operation]]]:
    """The served OpenAPI document, and the calls under /api/ the server answers besides
    (the document itself and its page)."""
    app = create_app(Config(data_dir=tmp_path_factory.mktemp("docs-routes")))
    with TestClient(app) as client:
        r = client.get("/api/openapi.json")
        assert r.status_code == 200, r.text
        spec: dict[str, Any] = r.json()
    unlisted = {(method, normalised(route.path)) for route in app.routes
                if isinstance(route, Route) and route.path.startswith("/api/")
                and not route.include_in_schema
                for method in route.methods or () if method != "HEAD"}
    yield spec, unlisted


def normalised(path: str) -> str:
    """A path with its query dropped and every ``{parameter}`` the same ``{}``."""
    return re.sub(r"\{[^}]*\}", "{}", path.split("?", 1)[0])


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each operation of the document: method, path as the document writes it, operation."""
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield method.upper(), path, op


ROUTE = re.compile(r"(GET|POST|PUT|PATCH|DELETE) (/api/\S*)")
SPAN = re.compile(r"`([^`]+)`")


def first_cell(row: str) -> str:
    """A table row's first cell (a ``|`` inside a code span does not end it)."""
    code = False
    for i, ch in enumerate(row[1:], 1):
        if ch == "`":
            code = not code
        elif ch == "|" and not code:
            return row[1:i]
    return row[1:]


def route_entries(text: str) -> Iterator[tuple[int, str, str]]:
    """The routes one doc names as entries: (line, method, path as written)."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if stripped.startswith("#"):
            spans = SPAN.findall(stripped)
        elif stripped.startswith("|"):
            spans = SPAN.findall(first_cell(stripped))
        elif (bullet := re.match(r"[*-] `([^`]+)`", stripped)) is not None:
            spans = [bullet.group(1)]
        else:
            continue
        for span in spans:
            if (m := ROUTE.fullmatch(span.strip())) is not None:
                yield number, m.group(1), m.group(2)


def documented_routes() -> dict[Operation, list[str]]:
    """Every route entry of the docs, normalised, with where it stands."""
    out: dict[Operation, list[str]] = {}
    for name in ROUTE_DOCS:
        for number, method, path in route_entries((DOCS / name).read_text(encoding="utf-8")):
            out.setdefault((method, normalised(path)), []).append(f"docs/{name}:{number}")
    return out


def section(text: str, heading: str) -> str:
    """From ``heading`` (a whole line) to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(f"\n{heading}\n") + 1
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, start + len(heading))
    return text[start:end.start() if end else len(text)]


def code_tables() -> dict[str, set[int]]:
    """The docs' code tables: each code with its HTTP statuses."""
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    identity = (DOCS / "identity.md").read_text(encoding="utf-8")
    out: dict[str, set[int]] = {}
    for table in (section(protocol, "## Errors"), section(identity, "#### Refusals")):
        for m in re.finditer(r"^\| ((?:`\w+`(?:, )?)+) \| ([\d, ]+) \|", table, re.M):
            for code in re.findall(r"`(\w+)`", m.group(1)):
                out.setdefault(code, set()).update(int(s) for s in m.group(2).split(","))
    return out


# --- the tests --------------------------------------------------------------------------------

def test_the_docs_read_route_entries_as_written() -> None:
    text = "\n".join([
        "### `GET /api/tables/{id}` — one table's summary",
        "| `POST /api/quickplay` `{\"preset\"}` | queue: `POST /api/not-an-entry` |",
        "| `GET /api/passkeys`, `DELETE /api/passkeys/{id}` | mine |",
        "| `POST /api/players/{player}/block`, `DELETE …/block` | block |",
        "* `GET /api/leaderboards/{preset}/{band}?page=N|M`: a page",
        "* prose first, then `POST /api/prose`",
        "`POST /api/tables/{id}/join` does the same.",
        "```", "| `GET /api/in-a-block` |", "```"])
    found = [(m, normalised(p)) for _, m, p in route_entries(text)]
    assert found == [("GET", "/api/tables/{}"), ("POST", "/api/quickplay"),
                     ("GET", "/api/passkeys"), ("DELETE", "/api/passkeys/{}"),
                     ("POST", "/api/players/{}/block"),
                     ("GET", "/api/leaderboards/{}/{}")]


def test_every_operation_of_the_openapi_document_has_a_route_entry_in_the_docs(
        served: tuple[dict[str, Any], set[Operation]]) -> None:
    spec, _ = served
    docs = documented_routes()
    ops = [(method, path) for method, path, _ in operations(spec)]
    assert len(ops) > 60
    missing = [f"{method} {path}" for method, path in ops
               if (method, normalised(path)) not in docs]
    assert not missing, ("calls of /api/openapi.json that no route entry of docs/ names "
                         "(a heading, a table's first cell or a bullet's start, spelt out in "
                         f"full): {missing}")


def test_every_route_entry_of_the_docs_is_a_call_the_server_has(
        served: tuple[dict[str, Any], set[Operation]]) -> None:
    spec, unlisted = served
    real = {(method, normalised(path)) for method, path, _ in operations(spec)} | unlisted
    stale = {f"{method} {path}": where for (method, path), where in documented_routes().items()
             if (method, path) not in real}
    assert not stale, f"route entries of docs/ that the server does not have: {stale}"


def test_every_error_code_of_the_openapi_document_is_in_the_docs_code_tables(
        served: tuple[dict[str, Any], set[Operation]]) -> None:
    spec, _ = served
    tables = code_tables()
    assert {"no_table", "no_seat", "passkey_failed"} <= set(tables)
    missing: dict[str, list[str]] = {}
    for method, path, op in operations(spec):
        for status, response in op.get("responses", {}).items():
            for code in response.get("x-error-codes", []):
                if int(status) not in tables.get(code, set()):
                    missing.setdefault(f"{code} {status}", []).append(f"{method} {path}")
    assert not missing, ("codes (with their status) of the document's x-error-codes in "
                         "neither docs/protocol.md \"Errors\" nor docs/identity.md "
                         f"\"Refusals\": {missing}")


def test_every_retry_after_in_a_code_table_names_its_unit() -> None:
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    identity = (DOCS / "identity.md").read_text(encoding="utf-8")
    rows = [line for table in (section(protocol, "## Errors"),
                               section(identity, "#### Refusals"))
            for line in table.splitlines() if line.startswith("|") and "retry_after" in line]
    assert len(rows) >= 3
    unitless = [row for row in rows if not re.search(r"\b(ms|milliseconds?|s|seconds?)\b",
                                                     row.split("retry_after", 1)[1])]
    assert not unitless, f"a retry_after without its unit: {unitless}"
