"""Save files: the engine's game record plus who sits where and the session's options.

A save is JSON::

    {"format": "golf-terminal-save/1",
     "seats": [{"name": "You", "bot": null, "seed": 0}, {"name": "Expert 1", ...}],
     "options": {"show_peeks": false},
     "record": <Game.record()>}

The record fixes the game (rules, seed, actions); bots are rebuilt from their spec
and seed and shown the game again from the start, so a resumed game continues
exactly as the uninterrupted one would have. A bare engine record (``golf-record/1``)
loads too, every seat a person.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.base import Bot
from ..errors import GolfError
from ..game import RECORD_FORMAT, Game
from .seats import Seat, build_bots

FORMAT = "golf-terminal-save/1"


@dataclass
class Saved:
    """A loaded save: the record, the seats and the options."""

    record: dict[str, Any]
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)


def to_json(game: Game, seats: Sequence[Seat], options: Mapping[str, Any]) -> str:
    data = {
        "format": FORMAT,
        "seats": [s.to_dict() for s in seats],
        "options": dict(options),
        "record": game.record(),
    }
    return json.dumps(data, indent=1)


def write(path: Path, game: Game, seats: Sequence[Seat], options: Mapping[str, Any]) -> None:
    """Write the save atomically: a crash mid-write leaves the previous save intact."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(to_json(game, seats, options) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise GolfError(f"cannot save the game to {str(path)!r}: {e.strerror}") from None


def read(path: Path) -> Saved:
    """Load a save file (or a bare game record); anything malformed is a clear GolfError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise GolfError(f"cannot read {str(path)!r}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise GolfError(f"{str(path)!r} is not a saved game (not JSON: {e.msg} at line "
                        f"{e.lineno})") from None
    if not isinstance(data, dict):
        raise GolfError(f"{str(path)!r} is not a saved game (expected a JSON object)")
    fmt = data.get("format")
    if fmt == RECORD_FORMAT:
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or players < 1:
            raise GolfError(f"{str(path)!r}: the record's 'players' must be a positive integer")
        return Saved(data, [Seat(f"Player {i + 1}") for i in range(players)])
    if fmt != FORMAT:
        raise GolfError(f"{str(path)!r} is not a saved game: its format is {fmt!r}, "
                        f"expected {FORMAT!r} (from 'golf play --save') or {RECORD_FORMAT!r}")
    record, seats, options = data.get("record"), data.get("seats"), data.get("options", {})
    if not isinstance(record, dict):
        raise GolfError(f"{str(path)!r}: 'record' must be a game record object")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise GolfError(f"{str(path)!r}: 'seats' must be a list of seat objects")
    if not isinstance(options, dict):
        raise GolfError(f"{str(path)!r}: 'options' must be an object")
    parsed = [Seat.from_dict(s) for s in seats]
    if record.get("players") != len(parsed):
        raise GolfError(f"{str(path)!r}: {len(parsed)} seats but the record has "
                        f"{record.get('players')!r} players")
    return Saved(record, parsed, options)


def restore(saved: Saved) -> tuple[Game, dict[int, Bot]]:
    """The saved game at its last action, with its bots shown every decision they
    made so far (a bot's choices may depend on what it saw and its random draws)."""
    record = saved.record
    start = Game.from_record({**record, "actions": []})
    bots = build_bots(saved.seats, start.rules)
    game = start
    actions = record["actions"]
    if not isinstance(actions, list):
        raise GolfError("game record 'actions' must be a list of action notations")
    for i, text in enumerate(actions):
        seat = game.current_player
        if seat is not None and seat in bots:
            bots[seat].choose(game.view(seat, codes=True), game.legal_actions())
        try:
            game.apply(text)
        except GolfError as e:
            raise GolfError(f"game record action {i + 1} ({text!r}) cannot be played: {e}") \
                from None
    return game, bots
