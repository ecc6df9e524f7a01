"""A short summary of the rules being played, written from the :class:`~golf.Rules`
settings so it always says what the engine does.

>>> from golf import load_rules
>>> text = rules_summary(load_rules("six-card"), players=3)
>>> "2 rows of 3" in text and "one deck" in text and "9 holes" in text
True
"""

from __future__ import annotations

import json
import re

from ..cards import JOKER, rank_name
from ..errors import RulesError
from ..rules import Rules, choice_words, describe_points, load_rules, preset_names

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _n(k: int) -> str:
    return _NUMBERS[k] if 0 <= k < len(_NUMBERS) else str(k)


def _cards(k: int) -> str:
    return f"{_n(k)} card" + ("" if k == 1 else "s")


def _points(r: Rules) -> str:
    groups: dict[int, list[str]] = {}
    for rank in range(1, 14):
        groups.setdefault(r.points[rank], []).append(rank_name(rank))
    parts = []
    for pts, names in groups.items():
        parts.append(f"{'/'.join(names)}={pts}")
    if r.jokers_per_deck:
        joker = f"joker={r.points[JOKER]}"
        if r.jokers_wild:
            joker += " (wild)"
        parts.append(joker)
    return ", ".join(parts)


def _matching(r: Rules) -> list[str]:
    """What scores together: each pattern's explanation, then what "equal" means for
    the lines and pairs and for blocks (each only where such a pattern counts)."""
    out = [choice_words("match", pattern, rules=r).explain for pattern in r.match]
    if any(pattern != "blocks" for pattern in r.match):
        out.append(choice_words("match_by", r.match_by).explain)
    if "blocks" in r.match:
        out.append(choice_words("block_match_by", r.block_match_by).explain)
    if r.jokers_wild:
        out.append("a joker matches any card")
    return out


def rules_summary(r: Rules, players: int) -> str:
    """The rules of ``r`` for a game of ``players`` players, in a dozen lines."""
    decks = r.decks_for(players)
    deck = "one deck" if decks == 1 else f"{_n(decks)} decks"
    jokers = f" with {_n(r.jokers_per_deck * decks)} jokers" if r.jokers_per_deck else ""
    lines = [header(r), ""]
    lines.append(f"Deal: {_cards(r.cells)} each in {r.rows} rows of {r.cols}, face down; "
                 f"{deck}{jokers} for {players} players.")
    where = " of the bottom row" if r.setup_cells == "bottom-row" else ""
    if r.setup == "reveal" and r.setup_count:
        lines.append(f"Start: each player turns up {_cards(r.setup_count)}{where}.")
    elif r.setup_count:
        lines.append(f"Start: each player looks at {_cards(r.setup_count)}{where} in secret "
                     "and must remember them (they hide again after your first draw).")
    turn = "Turn: draw from the stock or take the top discard"
    if r.flip_instead_of_draw:
        turn += ", or turn up a face-down card instead"
    if r.knock:
        turn += ", or knock" + ("" if r.knock_first_turn else " (not on your first turn)")
    lines.append(turn + ".")
    target = "any card of your grid" if r.replace == "any" else "one of your face-down cards"
    lines.append(f"Swap the card for {target}; the new card lies face up and the old one "
                 "goes to the discard pile.")
    if not r.return_taken:
        lines.append("A card taken from the discard pile must be swapped in.")
    discard = "Or discard a drawn card"
    if r.flip_after_discard == "must":
        discard += ", then turn up one face-down card."
    elif r.flip_after_discard == "may":
        discard += ", then you may turn up one face-down card."
    else:
        discard += " and leave your grid as it is."
    lines.append(discard)
    lines.append("Round end: " + _round_end(r))
    lines.append(f"Points: {_points(r)}.")
    matches = _matching(r)
    if matches:
        lines.append("Matches: " + "; ".join(matches) + ".")
    if r.reshuffle:
        lines.append("An empty stock is refilled with the discard pile but its top card.")
    lines.append("Match: " + _match_end(r))
    return "\n".join(lines)


def changes(r: Rules) -> list[str]:
    """The settings in which ``r`` differs from the preset it is named after (a rules
    file that extends a preset without renaming it, or ``--rule`` overrides), as
    ``key=value``; empty for a preset as shipped or rules of another name.

    >>> changes(load_rules("six-card", {"holes": 1, "target": 40}))
    ['holes=1', 'target=40']
    """
    base = parent(r)
    if base is None:
        return []
    mine, theirs = r.to_dict(), base.to_dict()
    out = []
    for key, value in mine.items():
        if key in ("name", "description", "sources") or value == theirs.get(key):
            continue
        shown = describe_points(r) if key == "points" else json.dumps(value)
        out.append(f"{key}={shown}")
    return out


def parent(r: Rules) -> Rules | None:
    """The preset ``r`` is a version of: the one of its name, or else the one whose
    description it carries (a rules file that ``extends`` a preset and keeps its
    description); None for rules of their own."""
    try:
        if r.name in preset_names():
            return load_rules(r.name)
        for name in preset_names():
            base = load_rules(name)
            if r.description and base.description == r.description:
                return base
    except RulesError:  # pragma: no cover - a shipped preset always loads
        pass
    return None


def for_players(text: str) -> str:
    """A description without the references meant for developers (source texts by
    number, the decisions file).

    >>> for_players("German six-card Golf (text 004): peek at two (Decisions)")
    'German six-card Golf: peek at two'
    """
    text = re.sub(r"\s*\((?:text|texts)\s+\d{3}(?:\s*(?:and|,)\s*\d{3})*\)", "", text)
    return re.sub(r"\s*\(Decisions?\)", "", text).strip()


def header(r: Rules) -> str:
    """The first line about the rules: the name and the preset's description, or,
    where settings were changed, the name and what changed (the preset's description
    would no longer be true).

    The description is the one players read (``golf variants``): without the
    references meant for the project's developers, such as a source text by its number.

    >>> header(load_rules("german"))  # doctest: +ELLIPSIS
    'german: German six-card Golf: peek at two, no flips, ...'
    >>> header(load_rules("german", {"target": 40}))
    'german with target=40 (play to 40; otherwise as german)'
    """
    changed = changes(r)
    if not changed:
        return f"{r.name}: {for_players(r.description)}" if r.description else r.name
    base = parent(r)
    assert base is not None
    name = r.name if base.name == r.name else f"{r.name}: {base.name}"
    return f"{name} with {', '.join(changed)} ({match_length(r)}; otherwise as {base.name})"


def match_length(r: Rules) -> str:
    """How long a match lasts, in a few words: both limits where there are two.

    >>> match_length(load_rules("nine-card"))
    'up to 9 holes, ending sooner once a total passes 50'
    >>> match_length(load_rules("six-card", {"holes": 1}))
    'one hole'
    """
    verb = "reaches" if r.target_ends == "reach" else "passes"
    if r.holes and r.target:
        return f"up to {r.holes} holes, ending sooner once a total {verb} {r.target}"
    if r.holes:
        return "one hole" if r.holes == 1 else f"{r.holes} holes"
    return f"play to {r.target}"


def _round_end(r: Rules) -> str:
    if r.end_on_complete == "all":
        return "when every player has all cards face up."
    if r.end_on_complete == "never":
        return "a knock gives every other player one more turn, then all cards are shown."
    text = "when a player has every card face up"
    text += ", every other player has one last turn." if r.final_turns else \
        ", at once (no further turns)."
    if r.knock:
        text += " A knock also ends it after one more turn each."
    return text


def _match_end(r: Rules) -> str:
    parts = []
    if r.holes:
        parts.append(f"{r.holes} hole" + ("" if r.holes == 1 else "s"))
    if r.target:
        verb = "reaches" if r.target_ends == "reach" else "passes"
        parts.append(f"until a total {verb} {r.target}")
    return " or ".join(parts) + "; the lowest total wins, " + \
        choice_words("tie_break", r.tie_break).explain + "."
