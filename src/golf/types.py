"""Typed contracts of the engine's JSON-ready data: views, records, positions, events.

Card fields are typed ``Any``: a card is notation text (``"10H"``) or, when a caller
asks for ``codes``, a card code (int), and ``None`` where the card is hidden. The keys
are exact: a misspelt key fails ``mypy``.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = [
    "EventDict", "FactDict", "HoleResultDict", "PositionDict", "RecordDict", "ViewDict",
]


class HoleResultDict(TypedDict):
    """A finished hole (``view()["last_hole"]``, event ``hole_end`` facts, positions)."""

    number: int
    playoff: bool
    grids: list[list[Any] | None]
    scores: list[int | None]
    knocked_by: int | None
    went_out: int | None
    discard_top: Any


class ViewDict(TypedDict):
    """What one seat (or, with ``seat`` None, every seat) may know: see :func:`golf.view.view`."""

    variant: str
    players: int
    seat: int | None
    rows: int
    cols: int
    hole: int
    holes: int
    playoff: bool
    active: list[int]
    dealer: int
    phase: str
    current_player: int | None
    grids: list[Any]
    face_up: list[Any]
    peeked: list[int]
    peeked_cells: list[Any]
    stock_size: int
    stock_cards: Any
    discard: list[Any]
    discard_top: Any
    held: Any
    held_by: int | None
    held_from: str | None
    knocked_by: int | None
    final_turns_from: int | None
    turns: list[int]
    totals: list[int]
    hole_scores: list[list[int]]
    playoff_scores: list[list[int | None]]
    last_hole: Any
    legal_actions: list[str]
    is_over: bool
    winners: list[int]


class RecordDict(TypedDict):
    """A replayable game: see :meth:`golf.Game.record`."""

    format: str
    rules: dict[str, Any]
    players: int
    seed: int
    actions: list[str]
    position: NotRequired[PositionDict]


class PositionDict(TypedDict):
    """The whole state, hidden cards included: see :mod:`golf.position`."""

    format: str
    players: int
    seed: int
    hole: int
    playoff: bool
    active: list[int]
    dealer: int
    phase: str
    current_player: int
    #: Per seat, its card codes, or None for a seat not dealt in (typed loosely so
    #: that dealers may fill the list in place).
    grids: list[Any]
    face_up: list[Any]
    peeked: list[list[int]]
    setup_chosen: list[int]
    stock: list[int]
    discard: list[int]
    held: int | None
    held_from: str | None
    turns: list[int]
    turn_count: int
    knocked_by: int | None
    final_turns_from: int | None
    reshuffles: int
    totals: list[int]
    hole_scores: list[list[int]]
    playoff_scores: list[list[int | None]]
    #: Each finished hole: HoleResult's fields, a seat not dealt in with an empty grid.
    hole_results: list[dict[str, Any]]
    winners: list[int]


#: One fact of an event; ``type`` says which keys it has (see ``docs/events.md``).
#: Declared in the functional form because ``from`` (a draw's pile) is a keyword.
FactDict = TypedDict("FactDict", {
    "type": str,
    "seat": int,
    "from": str,
    "position": int,
    "card": Any,
    "discarded": Any,
    "stock_size": int,
    "reshuffles": int,
    "seats": list[int],
    "hole": int,
    "playoff": bool,
    "result": HoleResultDict,
    "dealer": int,
    "discard_top": Any,
    "winners": list[int],
}, total=False)


class EventDict(TypedDict):
    """An event for one seat or a spectator: see :meth:`golf.events.Event.to_dict`."""

    seat: int
    action: str
    facts: list[FactDict]
