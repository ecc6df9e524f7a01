"""The rule of quick play's matching, apart from its queue (:mod:`.quickplay`): who may
share a table with whom, and which bot takes a seat no person fills (docs/quickplay.md
says it for players).

* Each waiting person has a **window** around their displayed rating:
  ``WINDOW_START`` points, widened by ``WINDOW_STEP`` every ``WINDOW_EVERY`` seconds
  of waiting, up to ``WINDOW_MAX`` (:func:`window`).
* Two people may share a table when each lies within the other's window and neither
  has blocked the other (:func:`compatible`). A group is a full table of people who
  are pairwise compatible: the longest waiting person first, then the others closest
  in rating to them (:func:`pick_groups`).
* A seat no person fills is given the bot of the anchored rating nearest the person's
  own (:func:`nearest_bot`); names repeated at one table are told apart
  (:func:`unique_names`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...ratings import Anchors, Rating, Variant
from ..core.protocol import MAX_NAME

__all__ = ["WINDOW_EVERY", "WINDOW_MAX", "WINDOW_START", "WINDOW_STEP", "Blocks", "Entry",
           "compatible", "nearest_bot", "pick_groups", "unique_names", "window"]

#: The window's half-width when a person starts waiting, in display points.
WINDOW_START = 50
#: Points the window widens by every WINDOW_EVERY seconds of waiting.
WINDOW_STEP = 50
WINDOW_EVERY = 5.0
#: The widest window: people further apart than this are never matched (bots are).
WINDOW_MAX = 500


def window(waited: float) -> int:
    """The half-width of a person's rating window after ``waited`` seconds.

    >>> window(0), window(4.9), window(5), window(12), window(3600)
    (50, 50, 100, 150, 500)
    """
    steps = int(max(0.0, waited) // WINDOW_EVERY)
    return min(WINDOW_MAX, WINDOW_START + WINDOW_STEP * steps)


@dataclass(frozen=True)
class Entry:
    """A waiting person as the matcher sees them."""

    id: str
    player_id: str
    name: str
    rating: int
    joined: float

    def window(self, now: float) -> int:
        return window(now - self.joined)


Blocks = frozenset[frozenset[str]]


def compatible(a: Entry, b: Entry, now: float, blocks: Blocks) -> bool:
    """Whether ``a`` and ``b`` may share a table now: each within the other's window,
    and neither has blocked the other.

    >>> a, b = Entry("1", "p", "A", 1000, 0.0), Entry("2", "q", "B", 1090, 0.0)
    >>> compatible(a, b, 0.0, frozenset()), compatible(a, b, 5.0, frozenset())
    (False, True)
    >>> compatible(a, b, 5.0, frozenset({frozenset({"p", "q"})}))
    False
    """
    if frozenset((a.player_id, b.player_id)) in blocks:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= a.window(now) and gap <= b.window(now)


def pick_groups(entries: Sequence[Entry], size: int, now: float, blocks: Blocks,
                first: Entry | None = None) -> list[list[Entry]]:
    """Full tables of ``size`` pairwise compatible people: the longest waiting person
    first, then whoever is closest in rating to them and fits everyone chosen so far.
    With ``first``, only the group around that person, however small (bot filling).
    Each entry is used at most once.
    """
    left = sorted(entries, key=lambda e: (e.joined, e.id))
    anchors = [first] if first is not None else list(left)
    groups: list[list[Entry]] = []
    used: set[str] = set()
    for anchor in anchors:
        if anchor.id in used:
            continue
        group = [anchor]
        # Only people within the anchor's window can join it (a cheap cut before sorting).
        reach = anchor.window(now)
        others = sorted((e for e in left if e.id not in used and e.id != anchor.id
                         and abs(e.rating - anchor.rating) <= reach),
                        key=lambda e: (abs(e.rating - anchor.rating), e.joined, e.id))
        for e in others:
            if len(group) == size:
                break
            if all(compatible(e, g, now, blocks) for g in group):
                group.append(e)
        if len(group) == size or first is not None:
            groups.append(group)
            used.update(g.id for g in group)
    return groups


def nearest_bot(rating: int, variant: Variant, anchors: Anchors) -> tuple[str, bool]:
    """The bot whose anchored rating is nearest ``rating`` (ties: the stronger), and
    whether it is anchored in ``variant`` itself. A variant without anchored bots
    borrows the nearest of the same preset's other bands (the table is then casual).

    >>> nearest_bot(900, Variant("six-card", "2"), Anchors.measured())[1]
    True
    """
    def pick(bots: dict[str, Rating]) -> str:
        return min(bots, key=lambda b: (abs(bots[b].display - rating), -bots[b].display, b))

    own = dict(anchors.by_variant.get(variant, {}))
    if own:
        return pick(own), True
    borrowed: dict[str, Rating] = {}
    for v, bots in anchors.by_variant.items():
        if v.preset == variant.preset:
            borrowed.update(bots)
    return (pick(borrowed) if borrowed else "medium"), False


def unique_names(names: Sequence[str]) -> list[str]:
    """Display names made distinct at one table (a table refuses a name twice):
    a repeated name gets " 2", " 3", ... (cut to fit the name length).

    >>> unique_names(["Ann", "ann", "Bo", "Ann"])
    ['Ann', 'ann 2', 'Bo', 'Ann 3']
    """
    out: list[str] = []
    seen: set[str] = set()
    for name in names:
        shown, n = name, 1
        while shown.lower() in seen:
            n += 1
            suffix = f" {n}"
            shown = name[:MAX_NAME - len(suffix)] + suffix
        seen.add(shown.lower())
        out.append(shown)
    return out
