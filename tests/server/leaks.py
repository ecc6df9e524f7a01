"""The leak check: every frame a receiver got, against the engine's truth.

For each frame (in the order received) it rebuilds the match at that frame's version
from the finished match's record and checks:

* a ``state`` frame's view is exactly the engine's view for that receiver (a spectator:
  the engine's public view, with no face-down card at all, no card drawn from the stock);
* a ``state`` frame's ``event`` (after an action) is exactly the engine's event
  rendered for that receiver (``Event.to_dict``) plus who played it, and nothing else;
* no face-down card of another seat, none of the receiver's own unseen cards, no
  stock order appears, and every card named in an event was visible to the
  receiver just before or just after it;
* the seed, a record or a position never appears while the match runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from golf import Game, card_str
from golf.events import Event
from golf.view import remembered

CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]$|^JK\d?$|^JK$")
FORBIDDEN_KEYS = {"seed", "record", "stock", "deck", "actions", "history"}


def strings(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)


def keys(x: Any) -> Iterator[str]:
    """Every key, with ``position`` only where it holds data (an engine position),
    not a grid position number."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k != "position" or isinstance(v, dict | list):
                yield k
            yield from keys(v)
    elif isinstance(x, list):
        for v in x:
            yield from keys(v)


def lists(x: Any) -> Iterator[list[Any]]:
    if isinstance(x, dict):
        for v in x.values():
            yield from lists(v)
    elif isinstance(x, list):
        yield x
        for v in x:
            yield from lists(v)


class Truth:
    """The match at every version, rebuilt from its record (test-side only)."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        g = Game.from_record({**record, "actions": []})
        self.games = [g.clone()]
        self.events: list[Event | None] = [None]
        for a in record["actions"]:
            self.events.append(g.step(a))
            self.games.append(g.clone())

    def at(self, version: int) -> Game:
        return self.games[version]


def public_ok(g: Game, view: dict[str, Any]) -> None:
    """A spectator's view holds no face-down card and no card drawn from the stock."""
    for seat in g.active:
        up = g.face_up(seat)
        for i, card in enumerate(view["grids"][seat]):
            if not up[i]:
                assert card is None, f"spectator sees face-down card {card} of seat {seat}"
    if view["held_from"] == "stock":
        assert view["held"] is None, "spectator sees the card drawn from the stock"


def visible_cards(view: dict[str, Any]) -> set[str]:
    return {s for s in strings(view) if CARD.match(s)}


def check(receiver: int | None, frames: list[dict[str, Any]], raw: list[str],
          truth: Truth, show_peeks: bool = False) -> int:
    """Check one receiver's frames of one match; returns how many states were checked.
    A seat's view must be the engine's, as memory mode shows it (``show_peeks``: the table
    or the player keeps peeked cards shown)."""
    seed = str(truth.record["seed"])
    checked = 0
    for msg, text in zip(frames, raw, strict=True):
        assert seed not in text, f"the seed leaked in a {msg['type']} frame"
        bad = FORBIDDEN_KEYS & set(keys(msg))
        assert not bad, f"forbidden keys {bad} in a {msg['type']} frame"
        if msg["type"] == "history":
            check_history(receiver, msg, truth)
            continue
        if msg["type"] != "state":
            assert msg["type"] != "event", "protocol 2 has no separate event frames"
            continue
        v = msg["version"]
        g = truth.at(v)
        codes = g.position().get("stock") or []
        if len(codes) >= 3:
            found = list(lists(msg))
            assert codes not in found and [card_str(c) for c in codes] not in found, \
                "the stock's order leaked"
        view = msg["view"]
        if receiver is None:
            assert view == json.loads(json.dumps(g.public_view())), \
                f"the spectators' view at version {v} differs from the engine's public view"
            public_ok(g, view)
        else:
            seen = remembered(g.view(receiver), g.rules, show_peeks)
            assert view == json.loads(json.dumps(seen)), \
                f"seat {receiver}'s view at version {v} differs from the engine's"
            for other in g.active:
                if other == receiver:
                    continue
                up = g.face_up(other)
                for i, card in enumerate(view["grids"][other]):
                    assert up[i] or card is None, \
                        f"seat {receiver} sees seat {other}'s face-down card"
            own_known = set(view["peeked"])
            up = g.face_up(receiver)
            for i, card in enumerate(view["grids"][receiver]):
                assert up[i] or (i + 1) in own_known or card is None, \
                    f"seat {receiver} sees its own unseen card at {i + 1}"
        checked += 1
        event = msg["event"]
        if event is None:
            assert msg["scoring"] is None
            continue
        check_event(receiver, event, truth, v)
        if event["action"] is None:
            continue
        before, after = truth.at(v - 1), g
        if receiver is None:
            allowed = visible_cards(_public(before)) | visible_cards(_public(after))
        else:
            allowed = visible_cards(before.view(receiver)) | \
                visible_cards(after.view(receiver))
        named = visible_cards(event)
        assert named <= allowed, \
            f"event at version {v} names {named - allowed} that {receiver} could not see"
        engine = truth.events[v]
        assert engine is not None
        assert (msg["scoring"] is not None) == engine.ended_hole
    return checked


def check_history(receiver: int | None, msg: dict[str, Any], truth: Truth) -> None:
    """A ``history`` frame: each logged move is the engine's event for the receiver at
    its version, naming no card the receiver could not see then."""
    versions = [e["version"] for e in msg["log"]]
    assert versions == list(range(1, len(versions) + 1)), "the move log has gaps"
    for entry in msg["log"]:
        v = entry["version"]
        check_event(receiver, entry["event"], truth, v)
        assert entry["hole"] == truth.at(v - 1).hole
        before, after = truth.at(v - 1), truth.at(v)
        if receiver is None:
            allowed = visible_cards(_public(before)) | visible_cards(_public(after))
        else:
            allowed = visible_cards(before.view(receiver)) | \
                visible_cards(after.view(receiver))
        named = visible_cards(entry["event"])
        assert named <= allowed, \
            f"the log's move {v} names {named - allowed} that {receiver} could not see"


def check_event(receiver: int | None, event: dict[str, Any], truth: Truth, v: int) -> None:
    """A frame's ``event`` against the engine's event of action ``v``, for ``receiver``:
    the engine's rendering and who played it, no field more."""
    if event["action"] is None:  # the absence policy ended the match: no engine event
        assert event["by"] == "absence" and event["facts"] == []
        return
    engine = truth.events[v]
    assert engine is not None
    want = json.loads(json.dumps(engine.to_dict(receiver)))
    assert event["by"] in ("player", "bot", "stand_in", "timeout")
    assert {k: x for k, x in event.items() if k != "by"} == want, \
        f"event at version {v} for {receiver} differs from the engine's"


def _public(g: Game) -> dict[str, Any]:
    """The engine's public view (reference for what a spectator may be shown)."""
    return dict(g.public_view())
