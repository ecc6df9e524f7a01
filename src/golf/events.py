"""Turn events: what one action did, in public terms, and who may see which card.

:meth:`golf.Game.step` plays an action and returns an :class:`Event`: the seat that
acted, the action, and a tuple of facts in the order they happened. A fact is a small
tuple of ints whose first item is its kind (the constants below), so the engine builds
events at the cost of a tuple or two per action; text and JSON are made only when a
client asks, by :func:`render` and :meth:`Event.to_dict`, for one seat or for a
spectator (``None``).

What a fact shows follows :func:`golf.view.view`: a card drawn from the stock is shown
only to the seat holding it (until it is swapped in or discarded, when a later fact
shows it face up to everyone); where a seat peeked is public, the card never is (an
event does not even hold it); every other card a fact names is face up for all.

>>> from golf import Game
>>> g = Game("six-card", players=2, seed=7)
>>> for a in ("reveal 1", "reveal 4", "reveal 2", "reveal 5"):
...     _ = g.step(a)
>>> e = g.step("draw")
>>> render(e, 0), render(e, 1), render(e, None)
('seat 0 drew 9C from the stock', 'seat 0 drew from the stock', 'seat 0 drew from the stock')
>>> e.to_dict(1)["facts"]
[{'type': 'draw', 'seat': 0, 'from': 'stock', 'card': None}]
>>> render(g.step("swap 3"), 1)
'seat 0 swapped 9C into position 3; 6S went face up onto the discard pile'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import card_str
from .state import HoleResult, cells_of

if TYPE_CHECKING:
    from .actions import Action
    from .types import EventDict, FactDict, HoleResultDict

__all__ = [
    "DISCARDED", "DREW", "FACT_NAMES", "FINAL_TURNS", "FLIPPED", "HOLE_ENDED", "HOLE_STARTED",
    "KNOCKED", "MATCH_ENDED", "PASSED", "PEEKED", "PLAYOFF", "RESHUFFLED", "REVEALED", "SWAPPED",
    "Event", "hole_result_dict", "render",
]

# Fact kinds and their fields after the kind (cells 0-based, cards as codes):
DREW = 0          # seat, pile (0 stock, 1 discard), card: secret to others if from the stock
SWAPPED = 1       # seat, cell, card now face up there, card that went face up onto the discard
DISCARDED = 2     # seat, card
FLIPPED = 3       # seat, cell, card
PASSED = 4        # seat (declined the optional flip after discarding)
KNOCKED = 5       # seat
PEEKED = 6        # seat, cell (never the card)
REVEALED = 7      # seat, cell, card (setup)
RESHUFFLED = 8    # stock size after it, reshuffles so far this hole
FINAL_TURNS = 9   # seat that went out or knocked, mask of the seats still to play
HOLE_ENDED = 10   # hole number, playoff (0/1), index of its HoleResult in the match
PLAYOFF = 11      # hole number, mask of the tied seats dealt in
HOLE_STARTED = 12  # hole number, dealer, the discard pile's first card
MATCH_ENDED = 13  # mask of the winning seats

#: Each fact kind's name, as ``"type"`` in its dict.
FACT_NAMES = ("draw", "swap", "discard", "flip", "pass", "knock", "peek", "reveal",
              "reshuffle", "final_turns", "hole_end", "playoff", "hole_start", "match_end")
_PILES = ("stock", "discard")

Fact = tuple[int, ...]


class Event:
    """What one action did: ``seat`` played ``action`` and ``facts`` followed.

    ``result`` is the :class:`~golf.HoleResult` of the hole the action ended (None if
    it ended none). An event holds no secret a seat could not learn from a later view
    except the card drawn from the stock, which its renderers show to the holder only.
    """

    __slots__ = ("action", "facts", "result", "seat")

    def __init__(self, seat: int, action: Action, facts: tuple[Fact, ...],
                 result: HoleResult | None = None) -> None:
        self.seat = seat
        self.action = action
        self.facts = facts
        self.result = result

    def kinds(self) -> tuple[str, ...]:
        """The facts' type names, in order.

        >>> from golf import Game
        >>> g = Game("six-card", players=2, seed=7)
        >>> g.step("reveal 1").kinds()
        ('reveal',)
        """
        return tuple(FACT_NAMES[f[0]] for f in self.facts)

    @property
    def ended_hole(self) -> bool:
        """Whether this action ended a hole: :attr:`golf.Game.ended_hole` as it was
        right after the action (``result`` is that hole's)."""
        return self.result is not None

    @property
    def ended_match(self) -> bool:
        return any(f[0] == MATCH_ENDED for f in self.facts)

    def to_dict(self, for_seat: int | None, codes: bool = False) -> EventDict:
        """The event as JSON-ready data for ``for_seat`` (None: a spectator).

        Cards are notation strings, or card codes with ``codes``; a card the seat may
        not see is ``None``. See ``docs/events.md`` for every fact's keys.
        """
        card = _card_int if codes else _card_text
        return {
            "seat": self.seat,
            "action": str(self.action),
            "facts": [_fact_dict(f, for_seat, card, self.result) for f in self.facts],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.seat, self.action, self.facts, self.result) == \
            (other.seat, other.action, other.facts, other.result)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Event seat {self.seat} {self.action}: {', '.join(self.kinds())}>"


def _card_text(c: int) -> str:
    return card_str(c)


def _card_int(c: int) -> int:
    return c


def _seats(mask: int) -> list[int]:
    return list(cells_of(mask))


def hole_result_dict(h: HoleResult, card: Any = _card_text) -> HoleResultDict:
    """A finished hole as data (cards as text unless ``card`` maps them otherwise)."""
    return {
        "number": h.number,
        "playoff": h.playoff,
        "grids": [[card(c) for c in grid] if grid else None for grid in h.grids],
        "scores": list(h.scores),
        "knocked_by": h.knocked_by,
        "went_out": h.went_out,
        "discard_top": None if h.discard_top is None else card(h.discard_top),
    }


def _fact_dict(f: Fact, for_seat: int | None, card: Any, result: HoleResult | None) -> FactDict:
    kind = f[0]
    name = FACT_NAMES[kind]
    if kind == DREW:
        secret = f[2] == 0 and f[1] != for_seat
        return {"type": name, "seat": f[1], "from": _PILES[f[2]],
                "card": None if secret else card(f[3])}
    if kind == SWAPPED:
        return {"type": name, "seat": f[1], "position": f[2] + 1, "card": card(f[3]),
                "discarded": card(f[4])}
    if kind in (DISCARDED,):
        return {"type": name, "seat": f[1], "card": card(f[2])}
    if kind in (FLIPPED, REVEALED):
        return {"type": name, "seat": f[1], "position": f[2] + 1, "card": card(f[3])}
    if kind in (PASSED, KNOCKED):
        return {"type": name, "seat": f[1]}
    if kind == PEEKED:
        return {"type": name, "seat": f[1], "position": f[2] + 1}
    if kind == RESHUFFLED:
        return {"type": name, "stock_size": f[1], "reshuffles": f[2]}
    if kind == FINAL_TURNS:
        return {"type": name, "seat": f[1], "seats": _seats(f[2])}
    if kind == HOLE_ENDED:
        out: FactDict = {"type": name, "hole": f[1], "playoff": bool(f[2])}
        if result is not None:
            out["result"] = hole_result_dict(result, card)
        return out
    if kind == PLAYOFF:
        return {"type": name, "hole": f[1], "seats": _seats(f[2])}
    if kind == HOLE_STARTED:
        return {"type": name, "hole": f[1], "dealer": f[2], "discard_top": card(f[3])}
    return {"type": name, "winners": _seats(f[1])}  # MATCH_ENDED


def _fact_text(f: Fact, for_seat: int | None, result: HoleResult | None) -> str:
    kind = f[0]
    who = f"seat {f[1]}"
    if kind == DREW:
        if f[2] == 1:
            return f"{who} took {card_str(f[3])} from the discard pile"
        if f[1] == for_seat:
            return f"{who} drew {card_str(f[3])} from the stock"
        return f"{who} drew from the stock"
    if kind == SWAPPED:
        return (f"{who} swapped {card_str(f[3])} into position {f[2] + 1}; "
                f"{card_str(f[4])} went face up onto the discard pile")
    if kind == DISCARDED:
        return f"{who} discarded {card_str(f[2])}"
    if kind == FLIPPED:
        return f"{who} flipped {card_str(f[3])} at position {f[2] + 1}"
    if kind == REVEALED:
        return f"{who} turned up {card_str(f[3])} at position {f[2] + 1}"
    if kind == PASSED:
        return f"{who} did not flip"
    if kind == KNOCKED:
        return f"{who} knocked"
    if kind == PEEKED:
        return f"{who} looked at position {f[2] + 1}"
    if kind == RESHUFFLED:
        return f"the discard pile was shuffled into a new stock of {f[1]} cards"
    if kind == FINAL_TURNS:
        seats = ", ".join(str(s) for s in _seats(f[2])) or "nobody"
        return f"final turns: {who} is out; one more turn each for seat(s) {seats}"
    if kind == HOLE_ENDED:
        scores = "" if result is None else " (scores " + ", ".join(
            "-" if s is None else str(s) for s in result.scores) + ")"
        label = "playoff hole" if f[2] else "hole"
        return f"{label} {f[1]} ended{scores}"
    if kind == PLAYOFF:
        seats = ", ".join(str(s) for s in _seats(f[2]))
        return f"tied: seats {seats} play off in hole {f[1]}"
    if kind == HOLE_STARTED:
        return f"hole {f[1]} dealt by seat {f[2]}; {card_str(f[3])} starts the discard pile"
    seats = ", ".join(str(s) for s in _seats(f[1]))
    return f"the match is over: seat(s) {seats} won"


def render(event: Event, for_seat: int | None) -> str:
    """The event as one line of text for ``for_seat`` (None: a spectator), its facts
    joined by ``"; "``; a card that seat may not see is left out."""
    return "; ".join(_fact_text(f, for_seat, event.result) for f in event.facts)
