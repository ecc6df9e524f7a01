"""The REST lobby (``/api/...``): presets, tables, seats, host tools, replays.

Request and response bodies are Pydantic models (the OpenAPI document describes them);
"this table", "this seat" and "the host" are FastAPI dependencies; each route calls one
method of the room, which owns the rule and the broadcast. A body the models refuse is
answered in the protocol's error shape with the code of its field
(:func:`refused_body`); rules are checked only by the engine's loader.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the routes' annotations
# at run time, and the dependencies are names local to router().
import asyncio
from collections import OrderedDict
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ... import __version__
from ...bots import bot_names
from ...bots.base import LEVELS
from ...lab import effects_for
from ...rules import load_rules, preset_names, setting_schema
from ..core import bridge
from ..core.protocol import (
    FIELD_CODES,
    MAX_SEATS,
    PROTOCOL,
    ProtocolError,
    check_name,
    clean_text,
    json_type,
)
from ..core.tokens import hash_token, new_token
from ..players.accounts import Player, current_player, player_for_request, players_of
from ..storage.store import MatchRecord
from ..tables.creation import (
    SeatSpec,
    TableSpec,
    check_preset,
    check_rateable,
    create_table,
    external_token,
    parse_seat,
)
from ..tables.hub import Hub
from ..tables.room import Room, Seat
from ..tables.seating import OPTION_RANGES, Changes, check_options, options_schema
from .openapi import Name, Number, SeatNumber, errors, raises

REPLAY_CACHE = 32
T = TypeVar("T")
#: Whose steps a replay shows: ``public``, ``all`` (every card) or a seat number.
ReplaySeat = Annotated[str, Query(pattern=r"^(public|all|[0-7])$")]
#: A shipped preset's name: the document lists them (``GET /api/presets`` describes them).
PresetName = Annotated[str, Field(json_schema_extra={"enum": preset_names()})]
#: A table's options, as the document states them (:func:`check_options` checks them).
Options = Annotated[dict[str, Any], Field(json_schema_extra=options_schema())]

# --- bodies ---------------------------------------------------------------------------------


class Body(BaseModel):
    """A request body: JSON types as they are (no "1" for 1, no 1 for true), and no field
    the call does not know (``bad_message`` naming it: a misspelt field is never ignored)."""

    model_config = ConfigDict(strict=True, extra="forbid")


class SeatIn(Body):
    """One seat: a person, a server bot (a difficulty or a bot spec) or an external bot."""

    kind: Literal["human", "bot", "external"]
    bot: str = Field("medium", max_length=100)
    name: Name | None = None

    def spec(self) -> SeatSpec:
        return SeatSpec(self.kind, self.bot, self.name)


def _default_seats() -> list[SeatIn]:
    return [SeatIn(kind="human", bot="medium"), SeatIn(kind="bot", bot="medium")]


class NewTable(Body):
    name: Name
    preset: PresetName = "six-card"
    rules: dict[str, Any] | None = None
    seats: list[SeatIn] = Field(default_factory=_default_seats, min_length=1,
                                max_length=MAX_SEATS)
    public: bool = False
    title: str | None = Field(None, max_length=60)
    options: Options | None = None
    #: Rated or casual; a rated table plays its preset unchanged (docs/ratings.md).
    rated: bool = False

    def spec(self) -> TableSpec:
        return TableSpec(self.name, self.preset, self.rules, [s.spec() for s in self.seats],
                         self.public, self.title, self.options, self.rated)


class RulesCheck(Body):
    preset: Any = "six-card"
    rules: Any = None
    players: int | None = None


class JoinIn(Body):
    name: Name


class MyTablesIn(Body):
    tokens: list[str] = Field(max_length=50)


class TableChanges(Body):
    """A PATCH or rematch body: what changes between matches."""

    rules: dict[str, Any] | None = None
    options: Options | None = None
    public: bool | None = None
    title: str | None = Field(None, min_length=1, max_length=60)


class HostIn(Body):
    seat: int


class ConsentIn(Body):
    """A person's answer to the host's proposal of a bot in another person's seat."""

    consent: bool


#: Seconds of a turn timer, in the range of the table option ``turn_timer``.
TimerSeconds = Annotated[T, Field(ge=OPTION_RANGES["turn_timer"][0],
                                  le=OPTION_RANGES["turn_timer"][1])]


class TimerIn(Body):
    """The turn timer the host sets mid-match (seconds, or null for none)."""

    turn_timer: TimerSeconds[int] | TimerSeconds[float] | None


class Nudged(BaseModel):
    """The ``nudge`` frame the table was sent (docs/protocol.md)."""

    type: str
    table: str
    seat: int
    by: int
    version: int


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None
    bot: str | None
    #: A server bot's number among the bots of its level at this table (1, 2, ...): its
    #: name says it ("Easy bot 2"); null for any other seat.
    bot_number: int | None = None
    taken: bool
    connected: bool
    away: bool
    stand_in: bool
    #: The person abandoned the running or last match (left for good, or their grace ran
    #: out): a rated match counts them last.
    abandoned: bool = False
    #: The person has another page of the site open (``here``): not taken for absent.
    elsewhere: bool = False


class MatchLink(BaseModel):
    match: int
    status: str
    replay: str | None


class TableSummary(BaseModel):
    """The table summary of docs/protocol.md (``invite`` only for the host)."""

    id: str
    title: str
    status: str
    preset: str
    rules: dict[str, Any]
    public: bool
    options: dict[str, Any]
    host: int
    seats: list[SeatInfo]
    spectators: int
    match: int
    watch_url: str
    invite: str | None = None
    invite_url: str | None = None
    matches: list[MatchLink] | None = None
    bot_token: str | None = None
    rated: bool = False
    casual_reason: str | None = None
    #: Memory mode is the table's rule (golf.view.forgets_peeks), told to everyone.
    memory: bool = False
    rematch: dict[str, Any] | None = None
    #: The host's proposal of a bot in a person's seat, while it waits for consent.
    bot_proposal: dict[str, Any] | None = None


class Created(BaseModel):
    table: TableSummary
    seat: int
    token: str
    invite: str
    invite_url: str
    bot_tokens: dict[str, str]


class Joined(BaseModel):
    table: TableSummary
    seat: int
    token: str


class MyTable(BaseModel):
    #: The seat token the client sent; null for a table found by the browser's player
    #: (``POST /api/me/tables/{id}/seat`` gives this browser a token for it).
    token: str | None
    seat: int
    table: TableSummary


class MyTables(BaseModel):
    tables: list[MyTable]


class OpenTable(BaseModel):
    id: str
    title: str
    preset: str
    status: str
    seats: int
    free: int
    spectators: int
    #: Rated or casual (docs/ratings.md): the lobby marks a rated table "Rated".
    rated: bool = False


class OpenTables(BaseModel):
    tables: list[OpenTable]


class RulesVerdict(BaseModel):
    ok: bool
    errors: dict[str, str]
    codes: dict[str, dict[str, Any]] = {}
    settings: dict[str, Any] | None


class BotList(BaseModel):
    difficulties: dict[str, str]
    bots: list[str]


class Matches(BaseModel):
    matches: list[MatchLink]


class ReplayInfo(BaseModel):
    """A finished match: its record and what a replay viewer needs to step through it."""

    table: str
    match: int
    names: list[str]
    record: dict[str, Any]
    by: list[str]
    result: dict[str, Any] | None
    length: int
    holes: list[dict[str, int]]
    #: The match was played in memory mode: each seat's steps hide the peeked cards that
    #: seat no longer saw (golf.view.remembered).
    memory: bool


class ReplayStep(BaseModel):
    """One step of a replay, shaped like the live ``state`` frame's parts."""

    version: int
    view: dict[str, Any]
    event: dict[str, Any] | None
    scoring: list[dict[str, Any] | None] | None


# --- errors ---------------------------------------------------------------------------------

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


def bearer(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("unauthorized", "this call acts for a seat: send "
                            "'Authorization: Bearer <seat token>'")
    return token.strip()


def changes_of(room: Room, body: TableChanges) -> Changes:
    """The checked changes of a PATCH or rematch body (options merged over the table's)."""
    if body.rules is not None:
        check_preset(room.rec.preset, body.rules)
        if room.rec.rated:
            check_rateable(room.rec.preset, body.rules,
                           [(s.rec.kind, s.rec.bot) for s in room.seats])
    if body.options is not None:
        check_options(body.options, room.rec.options)
    title = None
    if body.title is not None:
        # Plain text, as names and chat: no bidi control can disguise it (clean_text).
        title = clean_text(body.title)
        if not title:
            raise ProtocolError("bad_option", "title is text of 1 to 60 characters",
                                field="title")
    return Changes(body.rules, body.options, body.public, title)


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    # --- who is asking ----------------------------------------------------------------
    @raises("no_table", "try_again")
    async def this_table(table_id: str) -> Room:
        """The table of the path (404 no_table)."""
        return await hub.room(table_id)

    TableDep = Annotated[Room, Depends(this_table)]
    PlayerDep = Annotated[Player, Depends(current_player)]
    Authorization = Annotated[str | None, Header()]

    @raises("unauthorized", "bad_token")
    async def this_seat(room: TableDep, authorization: Authorization = None) -> Seat:
        """The seat whose token is the Bearer token (401 unauthorized, 403 bad_token)."""
        seat = room.seat_of(hash_token(bearer(authorization)))
        if seat is None:
            raise ProtocolError("bad_token", "this token holds no seat at this table")
        return seat

    SeatDep = Annotated[Seat, Depends(this_seat)]

    @raises("not_host")
    async def the_host(room: TableDep, seat: SeatDep) -> Seat:
        """The seat of the Bearer token, which must hold the host role (403 not_host)."""
        if seat.position != room.host:
            raise ProtocolError("not_host", f"only the host (seat {room.host}) may do this")
        return seat

    HostDep = Annotated[Seat, Depends(the_host)]

    async def asks_as_seated(room: TableDep, authorization: Authorization = None) -> bool:
        """True if the request carries a seated person's token: the summary then has the
        invite (any person at the table may share it, not only the host)."""
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return False
        seat = room.seat_of(hash_token(token.strip()))
        return seat is not None and seat.rec.kind == "human"

    # --- about the server -------------------------------------------------------------
    @api.get("/health", responses={503: {"description": "the server is draining (after "
                                         "SIGTERM): the same body, status \"draining\""}})
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
            # What each house rule does, measured by the rules lab (docs/lab.md): the
            # shipped table, no numpy needed, so the light install serves it too.
            out.append({"name": name, "description": r.description,
                        "players": list(r.players), "settings": r.to_dict(),
                        "lab": effects_for(name)})
        return {"presets": out, "settings": setting_schema()}

    @api.post("/rules/check")
    async def rules_check(body: RulesCheck | None = None) -> RulesVerdict:
        body = body or RulesCheck()
        codes: dict[str, dict[str, Any]] = {}
        rules, errors = bridge.check_rules(body.preset, body.rules or {}, body.players, codes)
        return RulesVerdict(ok=not errors, errors=errors, codes=codes,
                            settings=rules.to_dict() if rules else None)

    @api.get("/bots")
    async def bots() -> BotList:
        return BotList(difficulties=LEVELS, bots=bot_names())

    # --- tables -------------------------------------------------------------------------
    @api.post("/tables", status_code=201, response_model_exclude_unset=True,
              responses=errors("draining", "bad_seats", "bad_option", "not_rateable",
                               "try_again"))
    async def create(body: NewTable, player: PlayerDep) -> Created:
        token = new_token()
        room, bot_tokens = await create_table(hub, body.spec(), hash_token(token),
                                              player.id)
        rec = room.rec
        return Created.model_validate({
            "table": room.summary(host_view=True), "seat": 0, "token": token,
            "invite": rec.invite, "invite_url": f"/join/{rec.invite}",
            "bot_tokens": bot_tokens})

    @api.get("/tables")
    async def open_tables() -> OpenTables:
        out = [OpenTable.model_validate(t) for t in await hub.open_tables()]
        out.sort(key=lambda t: (t.status != "waiting", -t.free))
        return OpenTables(tables=out[:200])

    @api.get("/tables/{table_id}", response_model_exclude_unset=True)
    async def table(room: TableDep, host: Annotated[bool, Depends(asks_as_seated)]
                    ) -> TableSummary:
        return TableSummary.model_validate(await with_matches(room, host))

    async def with_matches(room: Room, host_view: bool = False) -> dict[str, Any]:
        out = room.summary(host_view)
        out["matches"] = [
            {"match": m["match"], "status": m["status"],
             "replay": None if m["status"] == "playing"
             else f"/replay/{room.id}/{m['match']}"}
            for m in await hub.store.matches(room.id)]
        return out

    @api.get("/invites/{code}", response_model_exclude_unset=True,
             responses=errors("bad_invite", "try_again"))
    async def invite(code: str) -> TableSummary:
        room = await hub.by_invite(code, read_only=True)
        return TableSummary.model_validate(room.summary())

    async def join(room: Room, body: JoinIn, player: Player) -> Joined:
        name = check_name(body.name)
        token = new_token()
        seat = await room.join(name, hash_token(token), player.id)
        return Joined.model_validate({"table": room.summary(), "seat": seat.position,
                                      "token": token})

    @api.post("/invites/{code}/join", response_model_exclude_unset=True,
              responses=errors("bad_invite", "table_full", "already_started", "name_taken",
                               "try_again"))
    async def join_invite(code: str, body: JoinIn, player: PlayerDep) -> Joined:
        return await join(await hub.by_invite(code), body, player)

    @api.post("/tables/{table_id}/join", response_model_exclude_unset=True,
              responses=errors("bad_invite", "table_full", "already_started", "name_taken"))
    async def join_public(room: TableDep, body: JoinIn, player: PlayerDep) -> Joined:
        if not room.rec.public:
            raise ProtocolError("bad_invite", "this table is not public; join it with its "
                                "invite link")
        return await join(room, body, player)

    @api.post("/my-tables", response_model_exclude_unset=True, responses=errors("try_again"))
    async def my_tables(body: MyTablesIn, request: Request) -> MyTables:
        out: list[dict[str, Any]] = []
        for token in body.tokens:
            found = await hub.by_token(token)
            if found is None:
                continue
            room, seat = found
            if room.status in ("waiting", "playing"):
                out.append({"token": token, "seat": seat,
                            "table": room.summary(seat == room.host)})
        # The tables whose seats carry this browser's player (the account menu's list,
        # GET /api/me), so a second browser's lobby lists them too; without a token,
        # which POST /api/me/tables/{id}/seat issues (no guest is made here).
        player = await player_for_request(request)
        if player is not None:
            listed = {t["table"]["id"] for t in out}
            for mine in await players_of(request).my_tables(player.id):
                if mine.table_id in listed:
                    continue
                try:
                    room = await hub.room(mine.table_id)
                except ProtocolError:
                    continue  # gone meanwhile
                if room.status in ("waiting", "playing"):
                    out.append({"token": None, "seat": mine.seat, "table": room.summary()})
        return MyTables.model_validate({"tables": out})

    # --- host tools ---------------------------------------------------------------------
    @api.patch("/tables/{table_id}", response_model_exclude_unset=True,
               responses=errors("already_started", "bad_rules", "bad_option", "not_rateable"))
    async def patch(room: TableDep, _host: HostDep, body: TableChanges) -> TableSummary:
        await room.change(changes_of(room, body))
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats", response_model_exclude_unset=True,
              responses=errors("already_started", "bad_seats", "bad_name"))
    async def add_seat(room: TableDep, _host: HostDep, body: SeatIn) -> TableSummary:
        rec = parse_seat(body.spec(), len(room.seats))
        bot_token = external_token(rec)
        await room.add_seat(rec, MAX_SEATS)
        return with_token(room, bot_token)

    @api.put("/tables/{table_id}/seats/{position}", response_model_exclude_unset=True,
             responses=errors("already_started", "bad_seats", "bad_name"))
    async def set_seat(room: TableDep, _host: HostDep, position: SeatNumber,
                       body: SeatIn) -> TableSummary:
        rec = parse_seat(body.spec(), position)
        bot_token = external_token(rec)
        await room.replace_seat(position, rec)
        return with_token(room, bot_token)

    @api.delete("/tables/{table_id}/seats/{position}", response_model_exclude_unset=True,
                responses=errors("already_started", "bad_seats"))
    async def remove_seat(room: TableDep, host: HostDep, position: SeatNumber
                          ) -> TableSummary:
        await room.remove_seat(host, position)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/host", response_model_exclude_unset=True,
              responses=errors("bad_seats"))
    async def hand_over(room: TableDep, host: HostDep, body: HostIn) -> TableSummary:
        await room.hand_over(host, body.seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/nudge",
              responses=errors("not_started", "bad_seats", "rate_limited"))
    async def nudge(room: TableDep, host: HostDep) -> Nudged:
        return Nudged.model_validate(await room.nudge(host))

    @api.post("/tables/{table_id}/timer", response_model_exclude_unset=True,
              responses=errors("not_started", "bad_option"))
    async def set_timer(room: TableDep, _host: HostDep, body: TimerIn) -> TableSummary:
        await room.set_timer(body.turn_timer)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats/{position}/bot", response_model_exclude_unset=True,
              responses=errors("not_started", "bad_seats"))
    async def propose_bot(room: TableDep, host: HostDep, position: SeatNumber
                          ) -> TableSummary:
        await room.propose_bot(host, position)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats/{position}/bot/consent",
              response_model_exclude_unset=True, responses=errors("no_proposal", "bad_seats"))
    async def consent_bot(room: TableDep, seat: SeatDep, position: SeatNumber,
                          body: ConsentIn) -> TableSummary:
        await room.consent_bot(seat, position, body.consent)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/start", response_model_exclude_unset=True,
              responses=errors("already_started", "seats_open", "bad_seats", "bad_rules"))
    async def start(room: TableDep, _host: HostDep) -> TableSummary:
        await room.start()
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/rematch", response_model_exclude_unset=True,
              responses=errors("not_finished", "seats_open", "bad_rules", "bad_option",
                               "not_rateable"))
    async def rematch(room: TableDep, host: HostDep,
                      body: TableChanges | None = None) -> TableSummary:
        await room.offer_rematch(host, changes_of(room, body) if body else None)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/rematch/accept", response_model_exclude_unset=True,
              responses=errors("no_rematch"))
    async def accept_rematch(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.accept_rematch(seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/here", response_model_exclude_unset=True)
    async def here(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.here(seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/leave", response_model_exclude_unset=True,
              responses=errors("bad_seats"))
    async def leave(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.leave(seat)
        return TableSummary.model_validate(room.summary())

    # --- replays -----------------------------------------------------------------------------
    @api.get("/tables/{table_id}/matches")
    async def matches(room: TableDep) -> Matches:
        return Matches.model_validate({"matches": (await with_matches(room))["matches"]})

    async def finished_match(room: Room, number: int) -> MatchRecord:
        """The stored match ``number`` of this table, once it is over (a replay never
        shows a running match)."""
        m = await hub.store.match(room.id, number)
        if m is None:
            raise ProtocolError("no_match", f"table {room.id} has no match {number}")
        if m.status == "playing":
            raise ProtocolError("match_running", "the replay is available once the match is "
                                "over")
        return m

    @api.get("/tables/{table_id}/matches/{number}/replay",
             responses=errors("no_match", "match_running"))
    async def replay(room: TableDep, number: Number) -> ReplayInfo:
        m = await finished_match(room, number)
        record = {"format": "golf-record/1", "rules": m.rules, "players": m.players,
                  "seed": m.seed, "actions": m.actions}
        steps = await replay_of(room, number)
        return ReplayInfo(table=room.id, match=m.number, names=m.names, record=record,
                          by=m.by, result=m.result, length=steps.length,
                          holes=steps.hole_starts, memory=steps.memory)

    replays: OrderedDict[tuple[str, int], bridge.Replay] = OrderedDict()

    async def replay_of(room: Room, number: int) -> bridge.Replay:
        key = (room.id, number)
        if key in replays:
            replays.move_to_end(key)
            return replays[key]
        m = await finished_match(room, number)
        rec = {"rules": m.rules, "players": m.players, "seed": m.seed, "actions": m.actions,
               "by": m.by}
        # The table's memory rule as the match was played (stored with its result; a
        # match stored before that: the table's option now, which changes only between
        # matches).
        memory = (m.result or {}).get("memory")
        keep = not memory if isinstance(memory, bool) else bool(room.options["show_peeked"])
        steps = replays[key] = await asyncio.to_thread(bridge.Replay, rec, keep)
        while len(replays) > REPLAY_CACHE:
            replays.popitem(last=False)
        return steps

    @api.get("/tables/{table_id}/matches/{number}/replay/{version}",
             responses=errors("no_match", "match_running", "no_step", "bad_seats"))
    async def replay_step(room: TableDep, number: Number, version: Number,
                          seat: ReplaySeat = "public") -> ReplayStep:
        steps = await replay_of(room, number)
        if version > steps.length:
            raise ProtocolError("no_step", f"match {number} has steps 0 to {steps.length}")
        players = steps.games[0].players
        if seat in ("public", "all"):
            who = None
        elif int(seat) < players:
            who = int(seat)
        else:
            raise ProtocolError("bad_seats", f"match {number} has seats 0 to {players - 1}",
                                field="seat")
        # "all": every card; replay_of has made sure that the match is over.
        return ReplayStep.model_validate(steps.step(version, who, every_card=seat == "all"))

    return api


def with_token(room: Room, bot_token: str | None) -> TableSummary:
    """The host's table summary, plus the external seat's bot token when one was just made."""
    summary = room.summary(True)
    if bot_token:
        summary["bot_token"] = bot_token
    return TableSummary.model_validate(summary)
