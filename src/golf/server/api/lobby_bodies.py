"""The lobby's request and response bodies (``/api/presets``, ``/api/tables``, seats, host
tools, replays), as Pydantic models: the OpenAPI document describes them, and a body they
refuse is answered in the protocol's error shape (:func:`golf.server.api.errors.refused_body`).
A request body that makes or changes a table turns into the plain data of
:mod:`golf.server.tables.creation` (:meth:`NewTable.spec`, :meth:`SeatIn.spec`).
"""

# No ``from __future__ import annotations``: Pydantic and FastAPI read these annotations.
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from ...rules import preset_names
from ..core.protocol import MAX_SEATS
from ..tables.creation import SeatSpec, TableSpec
from ..tables.seating import OPTION_RANGES, options_schema
from .openapi import Name

T = TypeVar("T")
#: A shipped preset's name: the document lists them (``GET /api/presets`` describes them).
PresetName = Annotated[str, Field(json_schema_extra={"enum": preset_names()})]
#: A table's options, as the document states them
#: (:func:`golf.server.tables.seating.check_options` checks them).
Options = Annotated[dict[str, Any], Field(json_schema_extra=options_schema())]

# --- requests --------------------------------------------------------------------------------

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


# --- answers ---------------------------------------------------------------------------------

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
    #: casual_reason as data a page words in its language (golf.ratings.casual_cause):
    #: ``{"reason": "house_rules"}``, ``{"reason": "players"}`` or ``{"reason":
    #: "unmeasured_bot", "bot", "variant"}``; null when casual_reason is.
    casual_cause: dict[str, str] | None = None
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
