"""The REST lobby (``/api/...``): presets, tables, seats, host tools, replays.

Bodies are checked here by hand, so every refusal has the protocol's error shape and
a message naming the field; rules are checked only by the engine's loader.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .. import __version__
from ..bots import bot_names
from ..bots.base import LEVELS
from ..errors import GolfError
from ..rules import load_rules, preset_names, setting_schema
from . import bridge
from .hub import Hub
from .protocol import PROTOCOL, ProtocolError, check_name
from .room import Changes, Room, Seat, check_options
from .store import SeatRecord, TableRecord
from .tokens import hash_token, new_invite, new_seed, new_table_id, new_token

MAX_BODY = 16384
MAX_SEATS = 8
REPLAY_CACHE = 32
SEAT_KINDS = ("human", "bot", "external")


def error_response(e: ProtocolError) -> JSONResponse:
    body: dict[str, Any] = {"code": e.code, "message": e.message}
    if e.field is not None:
        body["field"] = e.field
    return JSONResponse({"error": body}, status_code=e.status)


async def body_of(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ProtocolError("too_large", f"the request body has {len(raw)} bytes; at most "
                            f"{MAX_BODY} are allowed")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise ProtocolError("bad_json", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "the request body is a JSON object")
    return data


def bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("unauthorized", "this call acts for a seat: send "
                            "'Authorization: Bearer <seat token>'")
    return token.strip()


def seat_by_token(room: Room, request: Request) -> Seat:
    seat = room.seat_of(hash_token(bearer(request)))
    if seat is None:
        raise ProtocolError("bad_token", "this token holds no seat at this table")
    return seat


def host_of(room: Room, request: Request) -> Seat:
    seat = seat_by_token(room, request)
    if seat.position != room.host:
        raise ProtocolError("not_host", f"only the host (seat {room.host}) may do this")
    return seat


def is_host(room: Room, request: Request) -> bool:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    seat = room.seat_of(hash_token(token.strip()))
    return seat is not None and seat.position == room.host


def parse_seat(spec: Any, index: int) -> SeatRecord:
    """One entry of ``seats``: ``{"kind": "human"|"bot"|"external", "bot": ...}``."""
    where = f"seats[{index}]"
    if not isinstance(spec, Mapping):
        raise ProtocolError("bad_seats", f'{where} must be an object like {{"kind": "human"}}'
                            ' or {"kind": "bot", "bot": "medium"}', field="seats")
    kind = spec.get("kind")
    if kind not in SEAT_KINDS:
        raise ProtocolError("bad_seats", f"{where}.kind must be human, bot or external, got "
                            f"{json.dumps(kind)[:40]}", field="seats")
    bot = None
    name = None
    if kind == "bot":
        bot = spec.get("bot", "medium")
        if not isinstance(bot, str) or len(bot) > 100:
            raise ProtocolError("bad_seats", f"{where}.bot is easy, medium, hard or a bot "
                                "name", field="seats")
        try:
            bridge.bot_spec(bot)
        except GolfError as e:
            raise ProtocolError("bad_seats", f"{where}: {e}; or a difficulty: easy, medium, "
                                "hard", field="seats") from None
        name = bridge.bot_label(bot)
    elif kind == "external":
        name = spec.get("name", f"Bot {index}")
        name = check_name(name)
    return SeatRecord(index, kind, name, bot, None, new_seed())


def external_token(rec: SeatRecord) -> str | None:
    """A new bot token for an external seat (only its hash is kept), else None."""
    if rec.kind != "external":
        return None
    token = new_token()
    rec.token_hash = hash_token(token)
    return token


def with_token(summary: dict[str, Any], bot_token: str | None) -> dict[str, Any]:
    """The table summary, plus the external seat's bot token when one was just made."""
    if bot_token:
        summary["bot_token"] = bot_token
    return summary


def check_preset(preset: Any, overrides: Any) -> None:
    _rules, errors = bridge.check_rules(preset, overrides)
    if errors:
        key, message = next(iter(errors.items()))
        raise ProtocolError("bad_rules", message, field=key)


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/health")
    async def health() -> JSONResponse:
        body = {"status": "draining" if hub.draining else "ok", "protocol": PROTOCOL,
                "version": __version__, "tables": len(hub.rooms),
                "connections": hub.connections(), "draining": hub.draining}
        return JSONResponse(body, status_code=503 if hub.draining else 200)

    @api.get("/presets")
    async def presets() -> dict[str, Any]:
        out = []
        for name in preset_names():
            r = load_rules(name)
            out.append({"name": name, "description": r.description,
                        "players": list(r.players), "settings": r.to_dict()})
        return {"presets": out, "settings": setting_schema()}

    @api.post("/rules/check")
    async def rules_check(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        players = body.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            return {"ok": False, "errors": {"players": "players is a whole number"},
                    "settings": None}
        rules, errors = bridge.check_rules(body.get("preset", "six-card"),
                                           body.get("rules", {}), players)
        return {"ok": not errors, "errors": errors,
                "settings": rules.to_dict() if rules else None}

    @api.get("/bots")
    async def bots() -> dict[str, Any]:
        return {"difficulties": LEVELS, "bots": bot_names()}

    @api.post("/tables", status_code=201)
    async def create(request: Request) -> JSONResponse:
        if hub.draining:
            raise ProtocolError("draining", "the server is shutting down; try again in a "
                                "moment")
        body = await body_of(request)
        name = check_name(body.get("name"))
        preset = body.get("preset", "six-card")
        overrides = body.get("rules", {}) or {}
        check_preset(preset, overrides)
        raw_seats = body.get("seats", [{"kind": "human"}, {"kind": "bot", "bot": "medium"}])
        if not isinstance(raw_seats, list) or not 1 <= len(raw_seats) <= MAX_SEATS:
            raise ProtocolError("bad_seats", f"seats is a list of 1 to {MAX_SEATS} seats",
                                field="seats")
        seats = [parse_seat(s, i) for i, s in enumerate(raw_seats)]
        if seats[0].kind != "human":
            raise ProtocolError("bad_seats", "seat 0 is the host's and must be human",
                                field="seats")
        try:
            load_rules(preset, overrides or None).check_players(len(seats))
        except GolfError as e:
            raise ProtocolError("bad_seats", str(e), field="seats") from None
        public = body.get("public", False)
        if not isinstance(public, bool):
            raise ProtocolError("bad_option", "public is true or false", field="public")
        title = body.get("title") or f"{name}'s table"
        if not isinstance(title, str) or len(title) > 60:
            raise ProtocolError("bad_option", "title is text of at most 60 characters",
                                field="title")
        options = check_options(body.get("options", {}) or {})
        token = new_token()
        seats[0].name = name
        seats[0].token_hash = hash_token(token)
        bot_tokens = {}
        for s in seats:
            if s.kind == "external":
                t = new_token()
                s.token_hash = hash_token(t)
                bot_tokens[str(s.position)] = t
        rec = TableRecord(new_table_id(), " ".join(title.split()), "waiting", preset,
                          dict(overrides), public, options, 0, new_invite(), 0, time.time(),
                          seats)
        room = await hub.add(rec)
        return JSONResponse({"table": room.summary(host_view=True), "seat": 0, "token": token,
                             "invite": rec.invite, "invite_url": f"/join/{rec.invite}",
                             "bot_tokens": bot_tokens}, status_code=201)

    @api.get("/tables")
    async def open_tables() -> dict[str, Any]:
        out: list[dict[str, Any]] = []
        for room in hub.rooms.values():
            r = room.rec
            if r.public and r.status in ("waiting", "playing"):
                out.append({"id": r.id, "title": r.title, "preset": r.preset,
                            "status": r.status, "seats": len(room.seats),
                            "free": room.free_seats(),
                            "spectators": room.audience.spectators})
        out.sort(key=lambda t: (t["status"] != "waiting", -int(t["free"])))
        return {"tables": out[:200]}

    @api.get("/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        return await with_matches(room, is_host(room, request))

    async def with_matches(room: Room, host_view: bool = False) -> dict[str, Any]:
        out = room.summary(host_view)
        out["matches"] = [
            {"match": m["match"], "status": m["status"],
             "replay": None if m["status"] == "playing"
             else f"/replay/{room.id}/{m['match']}"}
            for m in await hub.store.matches(room.id)]
        return out

    @api.get("/invites/{code}")
    async def invite(code: str) -> dict[str, Any]:
        room = await hub.by_invite(code)
        return room.summary()

    async def join(room: Room, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        name = check_name(body.get("name"))
        token = new_token()
        seat = await room.join(name, hash_token(token))
        return {"table": room.summary(), "seat": seat.position, "token": token}

    @api.post("/invites/{code}/join")
    async def join_invite(code: str, request: Request) -> dict[str, Any]:
        return await join(await hub.by_invite(code), request)

    @api.post("/tables/{table_id}/join")
    async def join_public(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        if not room.rec.public:
            raise ProtocolError("bad_invite", "this table is not public; join it with its "
                                "invite link")
        return await join(room, request)

    @api.post("/my-tables")
    async def my_tables(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        tokens = body.get("tokens")
        if not isinstance(tokens, list) or len(tokens) > 50 or \
                not all(isinstance(t, str) for t in tokens):
            raise ProtocolError("bad_message", "tokens is a list of at most 50 seat tokens",
                                field="tokens")
        out = []
        for token in tokens:
            found = await hub.by_token(token)
            if found is None:
                continue
            room, seat = found
            if room.rec.status in ("waiting", "playing"):
                out.append({"token": token, "seat": seat,
                            "table": room.summary(seat == room.host)})
        return {"tables": out}

    # --- host tools ------------------------------------------------------------------------
    @api.patch("/tables/{table_id}")
    async def patch(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        host_of(room, request)
        await room.change(changes_of(room, await body_of(request)))
        return room.summary(True)

    @api.post("/tables/{table_id}/seats")
    async def add_seat(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        host_of(room, request)
        rec = parse_seat(await body_of(request), len(room.seats))
        bot_token = external_token(rec)
        await room.add_seat(rec, MAX_SEATS)
        return with_token(room.summary(True), bot_token)

    @api.put("/tables/{table_id}/seats/{position}")
    async def set_seat(table_id: str, position: int, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        host_of(room, request)
        rec = parse_seat(await body_of(request), position)
        bot_token = external_token(rec)
        await room.replace_seat(position, rec)
        return with_token(room.summary(True), bot_token)

    @api.delete("/tables/{table_id}/seats/{position}")
    async def remove_seat(table_id: str, position: int, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        await room.remove_seat(host_of(room, request), position)
        return room.summary(True)

    @api.post("/tables/{table_id}/host")
    async def hand_over(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        old = host_of(room, request)
        position = (await body_of(request)).get("seat")
        if isinstance(position, bool) or not isinstance(position, int):
            raise ProtocolError("bad_message", "seat is the seat number of the new host",
                                field="seat")
        await room.hand_over(old, position)
        return room.summary()

    @api.post("/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        host_of(room, request)
        await room.start()
        return room.summary(True)

    @api.post("/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        host_of(room, request)
        body = await body_of(request)
        await room.rematch(changes_of(room, body) if body else None)
        return room.summary(True)

    @api.post("/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        room = await hub.room(table_id)
        await room.leave(seat_by_token(room, request))
        return room.summary()

    # --- replays -----------------------------------------------------------------------------
    @api.get("/tables/{table_id}/matches")
    async def matches(table_id: str) -> dict[str, Any]:
        room = await hub.room(table_id)
        return {"matches": (await with_matches(room))["matches"]}

    @api.get("/tables/{table_id}/matches/{number}/replay")
    async def replay(table_id: str, number: int) -> dict[str, Any]:
        room = await hub.room(table_id)
        m = await hub.store.match(room.id, number)
        if m is None:
            raise ProtocolError("no_match", f"table {room.id} has no match {number}")
        if m.status == "playing":
            raise ProtocolError("match_running", "the replay is available once the match is "
                                "over")
        record = {"format": "golf-record/1", "rules": m.rules, "players": m.players,
                  "seed": m.seed, "actions": m.actions}
        steps = await replay_of(room, number)
        return {"table": room.id, "match": m.number, "names": m.names, "record": record,
                "by": m.by, "result": m.result, "length": steps.length,
                "holes": steps.hole_starts}

    replays: OrderedDict[tuple[str, int], bridge.Replay] = OrderedDict()

    async def replay_of(room: Room, number: int) -> bridge.Replay:
        key = (room.id, number)
        if key in replays:
            replays.move_to_end(key)
            return replays[key]
        m = await hub.store.match(room.id, number)
        if m is None:
            raise ProtocolError("no_match", f"table {room.id} has no match {number}")
        if m.status == "playing":
            raise ProtocolError("match_running", "the replay is available once the match is "
                                "over")
        rec = {"rules": m.rules, "players": m.players, "seed": m.seed, "actions": m.actions,
               "by": m.by}
        steps = replays[key] = await asyncio.to_thread(bridge.Replay, rec)
        while len(replays) > REPLAY_CACHE:
            replays.popitem(last=False)
        return steps

    @api.get("/tables/{table_id}/matches/{number}/replay/{version}")
    async def replay_step(table_id: str, number: int, version: int,
                          seat: str = "public") -> dict[str, Any]:
        room = await hub.room(table_id)
        steps = await replay_of(room, number)
        if not 0 <= version <= steps.length:
            raise ProtocolError("bad_message", f"version is from 0 to {steps.length}",
                                field="version")
        if seat == "public":
            who = None
        elif seat.isdigit() and int(seat) < steps.games[0].players:
            who = int(seat)
        else:
            raise ProtocolError("bad_message", "seat is 'public' or a seat number",
                                field="seat")
        return steps.step(version, who)

    return api


def changes_of(room: Room, body: Mapping[str, Any]) -> Changes:
    """Rules, options, public and title from a PATCH or rematch body, each checked
    (options again by the room, merged over the table's own)."""
    rec = room.rec
    unknown = set(body) - {"rules", "options", "public", "title"}
    if unknown:
        raise ProtocolError("bad_message", f"unknown field {sorted(unknown)[0]!r}; fields are: "
                            "rules, options, public, title", field=sorted(unknown)[0])
    overrides = body.get("rules", rec.overrides)
    if overrides is None:
        overrides = {}
    check_preset(rec.preset, overrides)
    options = body.get("options", {}) or {}
    check_options(options, rec.options)
    public = body.get("public", rec.public)
    if not isinstance(public, bool):
        raise ProtocolError("bad_option", "public is true or false", field="public")
    title = body.get("title", rec.title)
    if not isinstance(title, str) or not 1 <= len(title) <= 60:
        raise ProtocolError("bad_option", "title is text of 1 to 60 characters", field="title")
    return Changes(dict(overrides), dict(options), public, " ".join(title.split()))
