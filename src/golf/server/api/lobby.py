"""The REST lobby (``/api/...``): the server, presets, tables, seats, host tools, replays.

Each route calls one method of the room (:mod:`golf.server.tables.room`), which owns the
rule and the broadcast, or one service below it: a new table is made by
:func:`golf.server.tables.creation.create_table`, a replay's steps come from
:class:`golf.server.tables.replays.Replays`. The bodies are the Pydantic models of
:mod:`.lobby_bodies` (the OpenAPI document describes them; a body they refuse is answered
in the error shape of :mod:`.errors`, with the code of its field); "this table", "this
seat" and "the host" are FastAPI dependencies; rules are checked only by the engine's
loader.
"""

# No ``from __future__ import annotations`` here: FastAPI reads the routes' annotations
# at run time, and the dependencies are names local to router().
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse

from ... import __version__
from ...bots import bot_names
from ...bots.base import LEVELS
from ...digits import whole
from ...lab import effects_for
from ...rules import load_rules, preset_names, setting_schema
from ..core import bridge
from ..core.protocol import MAX_SEATS, PROTOCOL, ProtocolError, check_name
from ..core.tokens import hash_token, new_token
from ..players.accounts import players_of
from ..players.sessions import Player, current_player, player_for_request
from ..tables.creation import check_changes, create_table, external_token, parse_seat
from ..tables.hub import Hub
from ..tables.replays import Replays, finished_match
from ..tables.room import Room, Seat
from ..tables.seating import Changes
from .lobby_bodies import (
    BotList,
    ConsentIn,
    Created,
    HostIn,
    Joined,
    JoinIn,
    Matches,
    MyTables,
    MyTablesIn,
    NewTable,
    Nudged,
    OpenTable,
    OpenTables,
    ReplayInfo,
    ReplayStep,
    RulesCheck,
    RulesVerdict,
    SeatIn,
    TableChanges,
    TableSummary,
    TimerIn,
)
from .openapi import Number, SeatNumber, errors, raises

__all__ = ["router"]

#: Whose steps a replay shows: ``public``, ``all`` (every card) or a seat number.
ReplaySeat = Annotated[str, Query(json_schema_extra={
    "pattern": rf"^(public|all|[0-{MAX_SEATS - 1}])$"})]


def bearer(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("unauthorized", "this call acts for a seat: send "
                            "'Authorization: Bearer <seat token>'")
    return token.strip()


def changes_of(room: Room, body: TableChanges) -> Changes:
    """The checked changes of a PATCH or rematch body (options merged over the table's)."""
    return check_changes(room, body.rules, body.options, body.public, body.title)


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
        seat = await room.seating.join(name, hash_token(token), player.id)
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
        await room.seating.change(changes_of(room, body))
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats", response_model_exclude_unset=True,
              responses=errors("already_started", "bad_seats", "bad_name"))
    async def add_seat(room: TableDep, _host: HostDep, body: SeatIn) -> TableSummary:
        rec = parse_seat(body.spec(), len(room.seats))
        bot_token = external_token(rec)
        await room.seating.add_seat(rec, MAX_SEATS)
        return with_token(room, bot_token)

    @api.put("/tables/{table_id}/seats/{position}", response_model_exclude_unset=True,
             responses=errors("already_started", "bad_seats", "bad_name"))
    async def set_seat(room: TableDep, _host: HostDep, position: SeatNumber,
                       body: SeatIn) -> TableSummary:
        rec = parse_seat(body.spec(), position)
        bot_token = external_token(rec)
        await room.seating.replace_seat(position, rec)
        return with_token(room, bot_token)

    @api.delete("/tables/{table_id}/seats/{position}", response_model_exclude_unset=True,
                responses=errors("already_started", "bad_seats"))
    async def remove_seat(room: TableDep, host: HostDep, position: SeatNumber
                          ) -> TableSummary:
        await room.seating.remove_seat(host, position)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/host", response_model_exclude_unset=True,
              responses=errors("bad_seats"))
    async def hand_over(room: TableDep, host: HostDep, body: HostIn) -> TableSummary:
        await room.seating.hand_over(host, body.seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/nudge",
              responses=errors("not_started", "bad_seats", "rate_limited"))
    async def nudge(room: TableDep, host: HostDep) -> Nudged:
        return Nudged.model_validate(await room.patience.nudge(host))

    @api.post("/tables/{table_id}/timer", response_model_exclude_unset=True,
              responses=errors("not_started", "bad_option"))
    async def set_timer(room: TableDep, _host: HostDep, body: TimerIn) -> TableSummary:
        await room.patience.set_timer(body.turn_timer)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats/{position}/bot", response_model_exclude_unset=True,
              responses=errors("not_started", "bad_seats", "rated_away"))
    async def propose_bot(room: TableDep, host: HostDep, position: SeatNumber
                          ) -> TableSummary:
        await room.patience.propose_bot(host, position)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/seats/{position}/bot/consent",
              response_model_exclude_unset=True, responses=errors("no_proposal", "bad_seats"))
    async def consent_bot(room: TableDep, seat: SeatDep, position: SeatNumber,
                          body: ConsentIn) -> TableSummary:
        await room.patience.consent_bot(seat, position, body.consent)
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
        await room.finish.offer_rematch(host, changes_of(room, body) if body else None)
        return TableSummary.model_validate(room.summary(True))

    @api.post("/tables/{table_id}/rematch/accept", response_model_exclude_unset=True,
              responses=errors("no_rematch"))
    async def accept_rematch(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.finish.accept_rematch(seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/rematch/decline", response_model_exclude_unset=True,
              responses=errors("no_rematch"))
    async def decline_rematch(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.finish.decline_rematch(seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/here", response_model_exclude_unset=True)
    async def here(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.here(seat)
        return TableSummary.model_validate(room.summary())

    @api.post("/tables/{table_id}/leave", response_model_exclude_unset=True,
              responses=errors("bad_seats"))
    async def leave(room: TableDep, seat: SeatDep) -> TableSummary:
        await room.seating.leave(seat)
        return TableSummary.model_validate(room.summary())

    # --- replays -----------------------------------------------------------------------------
    replays = Replays()

    @api.get("/tables/{table_id}/matches")
    async def matches(room: TableDep) -> Matches:
        return Matches.model_validate({"matches": (await with_matches(room))["matches"]})

    @api.get("/tables/{table_id}/matches/{number}/replay",
             responses=errors("no_match", "match_running"))
    async def replay(room: TableDep, number: Number) -> ReplayInfo:
        m = await finished_match(hub.store, room, number)
        record = {"format": "golf-record/1", "rules": m.rules, "players": m.players,
                  "seed": m.seed, "actions": m.actions}
        steps = await replays.steps(hub.store, room, number)
        return ReplayInfo(table=room.id, match=m.number, names=m.names, record=record,
                          by=m.by, result=m.result, length=steps.length,
                          holes=steps.hole_starts, memory=steps.memory)

    @api.get("/tables/{table_id}/matches/{number}/replay/{version}",
             responses=errors("no_match", "match_running", "no_step", "bad_seats"))
    async def replay_step(room: TableDep, number: Number, version: Number,
                          seat: ReplaySeat = "public") -> ReplayStep:
        steps = await replays.steps(hub.store, room, number)
        if version > steps.length:
            raise ProtocolError("no_step", f"match {number} has steps 0 to {steps.length}")
        players = steps.games[0].players
        who: int | None = None
        if seat not in ("public", "all"):
            # One digit, as the document's pattern says ("07" is no seat).
            who = whole(seat) if len(seat) == 1 else None
            if who is None or who >= MAX_SEATS:
                raise ProtocolError("bad_message", "seat is 'public', 'all' or a seat number "
                                    f"0 to {MAX_SEATS - 1}", field="seat")
            if who >= players:
                raise ProtocolError("bad_seats", f"match {number} has seats 0 to "
                                    f"{players - 1}", field="seat")
        # "all": every card; replays.steps has made sure that the match is over.
        return ReplayStep.model_validate(steps.step(version, who, every_card=seat == "all"))

    return api


def with_token(room: Room, bot_token: str | None) -> TableSummary:
    """The host's table summary, plus the external seat's bot token when one was just made."""
    summary = room.summary(True)
    if bot_token:
        summary["bot_token"] = bot_token
    return TableSummary.model_validate(summary)
