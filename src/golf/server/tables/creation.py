"""Making a table: the one path every new table takes (``POST /api/tables`` and quick
play's matches), and the checks of what a new or changed table may hold
(:func:`check_changes`: ``PATCH /api/tables/{id}`` and a rematch's changes).

What to make is plain data (:class:`TableSpec`, :class:`SeatSpec`): the REST routes build
it from their request bodies, quick play from its match. :func:`create_table` checks it
(the name, the rules through the engine's loader, the seats, the title, the options, a
rated table's rateability), seats the host in seat 0 and hands the stored table to the
hub.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import GolfError
from ...rules import preset_rules
from ..core import bridge
from ..core.protocol import ProtocolError, check_name, clean_text
from ..core.tokens import hash_token, new_invite, new_seed, new_table_id, new_token
from ..ratings import rating_service
from ..storage.records import SeatRecord, TableRecord
from .hub import Hub
from .room import Room
from .seating import Changes, check_options, number_bots

__all__ = ["SeatSpec", "TableSpec", "check_changes", "check_preset", "check_rateable",
           "create_table", "external_token", "parse_seat"]


@dataclass(frozen=True)
class SeatSpec:
    """One seat asked for: a person, a server bot (a difficulty or a bot spec) or an
    external bot (with its display name)."""

    kind: str  # human | bot | external
    bot: str = "medium"
    name: str | None = None


def _default_seats() -> list[SeatSpec]:
    return [SeatSpec("human"), SeatSpec("bot")]


@dataclass(frozen=True)
class TableSpec:
    """A table asked for: the host's name, the preset and rule overrides, the seats (seat
    0 is the host's), whether it is listed, its title and options, rated or casual."""

    name: str
    preset: str = "six-card"
    rules: Mapping[str, Any] | None = None
    seats: Sequence[SeatSpec] = field(default_factory=_default_seats)
    public: bool = False
    title: str | None = None
    options: Mapping[str, Any] | None = None
    rated: bool = False


def parse_seat(spec: SeatSpec, index: int) -> SeatRecord:
    """One entry of ``seats`` as a stored seat (bot specs checked by building the bot)."""
    where = f"seats[{index}]"
    bot = None
    name = None
    if spec.kind == "bot":
        bot = spec.bot
        try:
            bridge.bot_spec(bot)
        except GolfError as e:
            raise ProtocolError("bad_seats", f"{where}: {e}; or a difficulty: easy, medium, "
                                "hard", field="seats") from None
        name = bridge.bot_label(bot)
    elif spec.kind == "external":
        name = check_name(spec.name if spec.name is not None else f"Bot {index}")
    return SeatRecord(index, spec.kind, name, bot, None, new_seed())


def external_token(rec: SeatRecord) -> str | None:
    """A new bot token for an external seat (only its hash is kept), else None."""
    if rec.kind != "external":
        return None
    token = new_token()
    rec.token_hash = hash_token(token)
    return token


def check_preset(preset: Any, overrides: Any) -> None:
    _rules, errors = bridge.check_rules(preset, overrides)
    if errors:
        key, message = next(iter(errors.items()))
        raise ProtocolError("bad_rules", message, field=key)


def check_rateable(preset: str, overrides: Mapping[str, Any],
                   seats: list[tuple[str, str | None]]) -> None:
    """A rated table's rules and seats must be rateable (ProtocolError not_rateable
    with the reason, e.g. house rules)."""
    rules = preset_rules(preset, dict(overrides) or None)
    reason = rating_service.casual_reason_for(rules, seats)
    if reason is not None:
        # The cause as data too, for a page to word in its own language.
        cause = rating_service.casual_cause_for(rules, seats)
        raise ProtocolError("not_rateable", f"this table cannot be rated: {reason}",
                            field="rated", extra={"cause": cause} if cause else None)


def check_changes(room: Room, rules: dict[str, Any] | None = None,
                  options: dict[str, Any] | None = None, public: bool | None = None,
                  title: str | None = None) -> Changes:
    """The checked changes of a table between matches (a PATCH or a rematch): rules
    through the engine's loader (and still rateable at a rated table), options merged over
    the table's, a title of plain text. None leaves a setting as it is."""
    if rules is not None:
        check_preset(room.rec.preset, rules)
        if room.rec.rated:
            check_rateable(room.rec.preset, rules,
                           [(s.rec.kind, s.rec.bot) for s in room.seats])
    if options is not None:
        check_options(options, room.rec.options)
    clean = None
    if title is not None:
        # Plain text, as names and chat: no bidi control can disguise it (clean_text).
        clean = clean_text(title)
        if not clean:
            raise ProtocolError("bad_option", "title is text of 1 to 60 characters",
                                field="title")
    return Changes(rules, options, public, clean)


async def create_table(hub: Hub, spec: TableSpec, host_token_hash: str,
                       host_player: str | None) -> tuple[Room, dict[str, str]]:
    """The one way a table is made (``POST /api/tables`` and quick play): checks the
    spec, seats the host (seat 0: the profile ``host_player``) under
    ``host_token_hash`` and stores the table. Returns the room and the external seats'
    new bot tokens."""
    if hub.draining:
        raise ProtocolError("draining", "the server is shutting down; try again in a "
                            "moment")
    name = check_name(spec.name)
    overrides = dict(spec.rules or {})
    check_preset(spec.preset, overrides)
    seats = [parse_seat(s, i) for i, s in enumerate(spec.seats)]
    if seats[0].kind != "human":
        raise ProtocolError("bad_seats", "seat 0 is the host's and must be human",
                            field="seats")
    try:
        preset_rules(spec.preset, overrides or None).check_players(len(seats))
    except GolfError as e:
        raise ProtocolError("bad_seats", str(e), field="seats") from None
    title = clean_text(spec.title or "") or f"{name}'s table"
    if len(title) > 60:
        raise ProtocolError("bad_option", "title is text of at most 60 characters",
                            field="title")
    options = check_options(dict(spec.options or {}))
    if spec.rated:
        check_rateable(spec.preset, overrides, [(s.kind, s.bot) for s in seats])
    seats[0].name = name
    number_bots(seats)  # bots of one level told apart: "Easy bot", "Easy bot 2"
    seats[0].token_hash = host_token_hash
    seats[0].player_id = host_player
    bot_tokens = {str(s.position): t for s in seats if (t := external_token(s))}
    rec = TableRecord(new_table_id(), title, "waiting", spec.preset,
                      overrides, spec.public, options, 0, new_invite(), 0,
                      time.time(), seats, rated=spec.rated)
    return await hub.add(rec), bot_tokens
