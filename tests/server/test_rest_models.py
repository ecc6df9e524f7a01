"""The REST lobby's typed API: bodies are Pydantic models (strict JSON types), "this
table", "this seat" and "the host" are dependencies, and refusals keep the protocol's
codes and shapes."""

from __future__ import annotations

from typing import Any

import httpx
from harness import ServerProcess

from golf.server.app import Config, create_app


def test_the_openapi_document_names_the_bodies(tmp_path: Any) -> None:
    schema = create_app(Config(data_dir=tmp_path)).openapi()
    models = set(schema["components"]["schemas"])
    assert {"NewTable", "SeatIn", "TableChanges", "JoinIn", "Created", "TableSummary",
            "ReplayStep"} <= models
    create = schema["paths"]["/api/tables"]["post"]
    ref = create["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/NewTable")
    # The host's token is a declared header of the host tools.
    start = schema["paths"]["/api/tables/{table_id}/start"]["post"]
    assert any(p["name"].lower() == "authorization" for p in start["parameters"])


def refused(server: ServerProcess, body: Any, code: str, field: str | None = None) -> None:
    r = server.post("/api/tables", body)
    assert r.status_code == (400 if code == "bad_message" else 422), r.text
    err = r.json()["error"]
    assert err["code"] == code, err
    assert err["message"]
    if field is not None:
        assert err["field"] == field, err


def test_json_types_are_strict_and_refusals_name_the_field(server: ServerProcess) -> None:
    base = {"name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    refused(server, {**base, "public": "yes"}, "bad_option", "public")
    refused(server, {**base, "public": 1}, "bad_option", "public")
    refused(server, {**base, "seats": [{"kind": "human"}, {"kind": "bot", "bot": 5}]},
            "bad_seats", "seats")
    refused(server, {**base, "seats": []}, "bad_seats", "seats")
    refused(server, {**base, "seats": [{"kind": "human"}] * 9}, "bad_seats", "seats")
    refused(server, {**base, "name": 12345}, "bad_name", "name")
    refused(server, {"seats": base["seats"]}, "bad_name", "name")
    refused(server, {**base, "title": "x" * 61}, "bad_option", "title")
    r = httpx.post(server.base + "/api/tables", content=b"[1, 2]",
                   headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_message"
    big = b'{"name": "Ann", "title": "' + b"x" * 20000 + b'"}'
    r = httpx.post(server.base + "/api/tables", content=big,
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_who_is_asking_is_checked_before_the_body(server: ServerProcess) -> None:
    t = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
    tid = t["table"]["id"]
    joined = server.post(f"/api/invites/{t['invite']}/join", {"name": "Bob"}).json()
    # No token, another seat's token, a token of no seat: 401, 403 not_host, 403 bad_token,
    # even with a body that would be refused.
    r = httpx.patch(f"{server.base}/api/tables/{tid}", json={"public": "no"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = httpx.patch(f"{server.base}/api/tables/{tid}", json={"public": "no"},
                    headers={"Authorization": f"Bearer {joined['token']}"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = httpx.patch(f"{server.base}/api/tables/{tid}", json={"public": True},
                    headers={"Authorization": "Bearer nobody"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    # The host's PATCH: an unknown field is refused, a good one applies and is summarised.
    host = {"Authorization": f"Bearer {t['token']}"}
    r = httpx.patch(f"{server.base}/api/tables/{tid}", json={"colour": "red"}, headers=host)
    assert r.status_code == 400 and r.json()["error"]["field"] == "colour"
    r = httpx.patch(f"{server.base}/api/tables/{tid}", json={"public": True,
                                                              "title": "  Two   words "},
                    headers=host)
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["public"] is True and summary["title"] == "Two words"
    assert summary["invite"] == t["invite"]  # the host's summary has the invite
    assert "invite" not in server.get(f"/api/tables/{tid}").json()
    assert server.get(f"/api/tables/{tid}", token=t["token"]).json()["invite"] == t["invite"]
    r = server.post(f"/api/tables/{tid}/host", {"seat": "1"}, token=t["token"])
    assert r.status_code == 400 and r.json()["error"]["field"] == "seat"
    r = server.post(f"/api/tables/{tid}/host", {"seat": 1}, token=t["token"])
    assert r.status_code == 200 and r.json()["host"] == 1
