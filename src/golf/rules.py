"""Rule settings, presets and their validation.

A :class:`Rules` is an immutable set of orthogonal settings. Presets are TOML files
shipped in ``golf/presets``; a preset may ``extends`` another and override some of
its settings. Every rules file and override is validated: an unknown key, a wrong
type or an impossible combination raises :class:`golf.RulesError` naming the key.

>>> r = load_rules("six-card", {"holes": 18})
>>> r.holes, r.rows, r.cols, r.decks_for(4)
(18, 2, 3, 2)
>>> load_rules("six-card", {"hole": 18})
Traceback (most recent call last):
...
golf.errors.RulesError: unknown setting 'hole' (did you mean 'holes'?); ...
"""

from __future__ import annotations

import difflib
import functools
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeVar, cast, get_args

from .cards import JOKER, RANK_NAMES, build_deck, rank_name
from .digits import whole
from .errors import RulesError

_T = TypeVar("_T")

# The values of each choice setting. A comparison with a value not listed here
# (``rules.replace == "face-dwon"``) is a type error under mypy --strict.
#: How the cards of a pattern are compared: by rank, or by the points they score.
MatchBy = Literal["rank", "points"]
#: Whether the cards chosen at the start of a hole are turned up or looked at.
Setup = Literal["reveal", "peek"]
#: Which cards may be chosen at the start of a hole.
SetupCells = Literal["any", "bottom-row"]
#: Whether a card is turned up after the card in hand is thrown away.
FlipAfterDiscard = Literal["must", "may", "never"]
#: Which grid cards a card in hand may replace.
Replace = Literal["any", "face-down"]
#: Which all-face-up grid ends a hole: the first, every grid, or none.
EndOnComplete = Literal["first", "all", "never"]
#: Whether a points target is passed by going over it or by reaching it.
TargetEnds = Literal["exceed", "reach"]
#: What players tied for the lowest total do.
TieBreak = Literal["share", "playoff"]
#: Matching patterns a grid can score zero (or a bonus) with.
PatternName = Literal["columns", "rows", "row-pairs", "diagonals", "adjacent", "pairs", "blocks"]
PATTERNS: tuple[PatternName, ...] = get_args(PatternName)
_CHOICES: dict[str, tuple[str, ...]] = {
    "match_by": get_args(MatchBy),
    "block_match_by": get_args(MatchBy),
    "setup": get_args(Setup),
    "setup_cells": get_args(SetupCells),
    "flip_after_discard": get_args(FlipAfterDiscard),
    "replace": get_args(Replace),
    "end_on_complete": get_args(EndOnComplete),
    "target_ends": get_args(TargetEnds),
    "tie_break": get_args(TieBreak),
}
#: The allowed values of each choice setting (read-only).
CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(_CHOICES)
_POINT_KEYS = tuple(RANK_NAMES[1:])  # "A" .. "K", "JK"
MAX_CELLS = 16  # actions encode a cell in four bits


@dataclass(frozen=True, eq=True)
class Rules:
    """Every setting of a Golf variant. Build one with :func:`load_rules`."""

    name: str = "custom"
    description: str = ""
    players: tuple[int, int] = (2, 8)
    rows: int = 2
    cols: int = 3
    #: ``(from_players, decks)`` steps: the deck count for the largest step <= players.
    decks: tuple[tuple[int, int], ...] = ((1, 1),)
    jokers_per_deck: int = 0
    #: Points of each rank, indexed by rank (index 0 unused, 14 is the joker).
    points: tuple[int, ...] = (0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, 0)
    match: tuple[PatternName, ...] = ("columns",)
    #: How lines and pairs compare cards (blocks have their own setting).
    match_by: MatchBy = "rank"
    jokers_wild: bool = False
    block_points: int = -25
    #: How the four cards of a 2x2 block compare: 000's "same face-point value".
    block_match_by: MatchBy = "points"
    setup: Setup = "reveal"
    setup_count: int = 2
    setup_cells: SetupCells = "any"
    return_taken: bool = False
    flip_after_discard: FlipAfterDiscard = "may"
    replace: Replace = "any"
    flip_instead_of_draw: bool = False
    knock: bool = False
    #: 000 lets a player knock "instead of taking their turn", any turn.
    knock_first_turn: bool = True
    end_on_complete: EndOnComplete = "first"
    final_turns: bool = True
    reshuffle: bool = True
    holes: int = 9
    target: int = 0
    target_ends: TargetEnds = "exceed"
    tie_break: TieBreak = "share"
    turn_limit: int = 500
    #: Where each setting comes from (setting -> the rule of the source text).
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    # --- derived facts -------------------------------------------------------------
    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def decks_for(self, players: int) -> int:
        """How many decks a game of ``players`` players uses."""
        n = self.decks[0][1]
        for start, count in self.decks:
            if players >= start:
                n = count
        return n

    def deck_size(self, players: int) -> int:
        return self.decks_for(players) * (52 + self.jokers_per_deck)

    def deck(self, players: int) -> tuple[int, ...]:
        """Every card of a game of ``players`` players, in the fixed order the deal
        shuffles: the one definition of a game's deck (shared by every Rules with the
        same decks and jokers; see :func:`golf.cards.build_deck`).

        >>> r = load_rules("six-card")
        >>> len(r.deck(2)), len(r.deck(8)), r.deck(2) is load_rules("six-card").deck(3)
        (52, 104, True)
        """
        return _deck(self.decks_for(players), self.jokers_per_deck)

    def check_players(self, players: int) -> None:
        lo, hi = self.players
        if not isinstance(players, int) or isinstance(players, bool) or not lo <= players <= hi:
            raise RulesError(f"{self.name} is for {lo} to {hi} players, not {players!r}",
                             code="players_out_of_range",
                             params={"preset": self.name, "lo": lo, "hi": hi,
                                     "got": players if isinstance(players, int) else
                                     repr(players)})

    def setup_positions(self) -> tuple[int, ...]:
        """Cells (0-based) a player may choose for the initial reveal or peek."""
        if self.setup_cells == "bottom-row":
            return tuple(range(self.cells - self.cols, self.cells))
        return tuple(range(self.cells))

    def replaceable(self, face_up: Sequence[bool]) -> tuple[int, ...]:
        """Cells (0-based) a held card may be swapped into, given which cells are face up.

        Clients that plan ahead (bots deciding whether to take the discard) ask this
        instead of reading ``replace`` themselves.

        >>> load_rules("four-card-wild").replaceable([True, False, True, False])
        (1, 3)
        """
        if self.replace == "any":
            return tuple(range(len(face_up)))
        return tuple(i for i, up in enumerate(face_up) if not up)

    def cached(self, key: str, build: Callable[[Rules], _T]) -> _T:
        """Data compiled from these rules (a scorer, a bot's tables), built once per
        rules object: Rules is immutable, so what is derived from it never goes stale."""
        hit: _T | None = self.__dict__.get(key)
        if hit is None:
            hit = build(self)
            object.__setattr__(self, key, hit)
        return hit

    def source(self, key: str) -> str:
        return dict(self.sources).get(key, "")

    # --- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every setting as plain TOML/JSON data; ``load_rules(r.to_dict()) == r``."""
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "players":
                v = list(v)
            elif f.name == "decks":
                v = {str(a): b for a, b in v}
            elif f.name == "points":
                v = {rank_name(r): v[r] for r in range(1, 15)}
            elif f.name == "match":
                v = list(v)
            elif f.name == "sources":
                v = dict(v)
            d[f.name] = v
        return d


# --- validation of raw settings --------------------------------------------------------

@functools.cache
def _deck(decks: int, jokers_per_deck: int) -> tuple[int, ...]:
    """One shared tuple per deck count and jokers (a game's deck is read, never changed)."""
    return tuple(build_deck(decks, jokers_per_deck))


def _int(key: str, v: Any, lo: int = -(10**9), hi: int = 10**9) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise RulesError(f"setting '{key}' must be an integer, got {v!r}",
                         code="not_integer", params={"key": key, "got": repr(v)})
    if not lo <= v <= hi:
        raise RulesError(f"setting '{key}' must be between {lo} and {hi}, got {v}",
                         code="out_of_range", params={"key": key, "lo": lo, "hi": hi, "got": v})
    return v


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise RulesError(f"setting '{key}' must be true or false, got {v!r}",
                         code="not_boolean", params={"key": key, "got": repr(v)})
    return v


def _str(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise RulesError(f"setting '{key}' must be a string, got {v!r}",
                         code="not_string", params={"key": key, "got": repr(v)})
    return v


def _choice(key: str, v: Any) -> str:
    allowed = _CHOICES[key]
    if v not in allowed:
        raise RulesError(
            f"setting '{key}' must be one of {', '.join(repr(a) for a in allowed)}, got {v!r}",
            code="not_a_choice", params={"key": key, "allowed": [str(a) for a in allowed],
                                         "got": repr(v)})
    return str(v)


@dataclass(frozen=True)
class _IntIn:
    """The parser of an integer setting between ``lo`` and ``hi``; the bounds are data so
    that :func:`setting_schema` reads them from the parser itself."""

    lo: int
    hi: int

    def __call__(self, key: str, v: Any) -> int:
        return _int(key, v, self.lo, self.hi)


_PLAYER_RANGE = (1, 64)
_DECK_RANGE = (1, 16)
_POINT_RANGE = (-1000, 1000)


def _players(key: str, v: Any) -> tuple[int, int]:
    if isinstance(v, int) and not isinstance(v, bool):
        v = [v, v]
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise RulesError(f"setting 'players' must be [min, max], got {v!r}",
                         code="players_not_pair", params={"key": "players", "got": repr(v)})
    lo, hi = _int("players", v[0], *_PLAYER_RANGE), _int("players", v[1], *_PLAYER_RANGE)
    if lo > hi:
        raise RulesError(f"setting 'players' must have min <= max, got [{lo}, {hi}]",
                         code="players_min_over_max", params={"key": "players", "lo": lo, "hi": hi})
    return lo, hi


def _decks(key: str, v: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        return ((1, _int("decks", v, *_DECK_RANGE)),)
    if isinstance(v, list | tuple) and all(isinstance(p, list | tuple) for p in v):
        v = {p[0]: p[1] for p in v if len(p) == 2}
    if not isinstance(v, Mapping) or not v:
        raise RulesError(
            "setting 'decks' must be a number of decks or a table from player counts to decks, "
            f"like {{ 1 = 1, 4 = 2 }}; got {v!r}",
            code="decks_not_table", params={"key": "decks", "got": repr(v)},
        )
    steps = []
    for a, b in v.items():
        # A player count as an integer, or as a key written in ASCII digits ("4": TOML
        # and JSON keys are text); "٤" is no key.
        start = a if isinstance(a, int) and not isinstance(a, bool) else (
            whole(a) if isinstance(a, str) else None)
        if start is None:
            raise RulesError(f"setting 'decks' has key {a!r}; keys are player counts",
                             code="decks_bad_key",
                             params={"key": "decks", "got": repr(a)})
        steps.append((_int("decks", start, *_PLAYER_RANGE), _int("decks", b, *_DECK_RANGE)))
    steps.sort()
    return tuple(steps)


def _points(key: str, v: Any, base: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(v, Mapping):
        raise RulesError(f"setting 'points' must be a table of rank = points, got {v!r}",
                         code="points_not_table", params={"key": "points", "got": repr(v)})
    pts = list(base)
    for k, p in v.items():
        name = str(k).upper()
        name = "10" if name == "T" else name
        if name not in _POINT_KEYS:
            raise RulesError(
                f"setting 'points' has unknown rank {k!r}; ranks are {', '.join(_POINT_KEYS)}",
                code="points_unknown_rank",
                params={"key": "points", "got": repr(k), "ranks": list(_POINT_KEYS)},
            )
        pts[RANK_NAMES.index(name)] = _int(f"points.{name}", p, *_POINT_RANGE)
    return tuple(pts)


def _match(key: str, v: Any) -> tuple[PatternName, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list | tuple):
        raise RulesError(f"setting 'match' must be a list of patterns, got {v!r}",
                         code="match_not_list", params={"key": "match", "got": repr(v)})
    for p in v:
        if p not in PATTERNS:
            raise RulesError(
                f"setting 'match' has unknown pattern {p!r}; patterns are {', '.join(PATTERNS)}",
                code="not_a_choice",
                params={"key": "match", "allowed": list(PATTERNS), "got": repr(p)},
            )
    return cast(tuple[PatternName, ...], tuple(dict.fromkeys(v)))


def _sources(key: str, v: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, Mapping):
        raise RulesError(f"'sources' must be a table of setting = text, got {v!r}",
                         code="sources_not_table", params={"key": "sources", "got": repr(v)})
    return tuple((str(a), str(b)) for a, b in v.items())


_Parser = Callable[[str, Any], Any]
_PARSERS: dict[str, _Parser] = {
    "name": _str,
    "description": _str,
    "players": _players,
    "rows": _IntIn(1, 8),
    "cols": _IntIn(1, 8),
    "decks": _decks,
    "jokers_per_deck": _IntIn(0, 8),
    "match": _match,
    "jokers_wild": _bool,
    "block_points": _IntIn(-1000, 1000),
    "setup_count": _IntIn(0, MAX_CELLS),
    "return_taken": _bool,
    "flip_instead_of_draw": _bool,
    "knock": _bool,
    "knock_first_turn": _bool,
    "final_turns": _bool,
    "reshuffle": _bool,
    "holes": _IntIn(0, 1000),
    "target": _IntIn(0, 100000),
    "turn_limit": _IntIn(1, 100000),
    "sources": _sources,
    **{k: _choice for k in _CHOICES},
}
SETTINGS = tuple(f.name for f in fields(Rules))
assert set(SETTINGS) == set(_PARSERS) | {"points"}, "every setting needs a parser"


# --- wording ---------------------------------------------------------------------------
# What each setting and each of its choices is called, and what it means, in every
# language a player may read: written once, here beside the settings, and served by
# setting_schema() to the web lobby; the terminal's summary and 'golf variants show'
# read the same words. tests/test_rule_wording.py fails when one is missing.

#: The languages every setting and choice is worded in.
Lang = Literal["en", "de"]
LANGS: tuple[Lang, ...] = get_args(Lang)


@dataclass(frozen=True)
class Words:
    """A setting's or a choice's words in one language: a short ``name`` (a form label, a
    menu entry) and a one-line ``explain``. Explanations of match patterns may name
    ``{rows}``, ``{cols}`` and ``{block_points}``, filled in from the rules in play."""

    name: str
    explain: str


def _w(en: tuple[str, str], de: tuple[str, str]) -> dict[Lang, Words]:
    return {"en": Words(*en), "de": Words(*de)}


_SETTING_WORDS: dict[str, dict[Lang, Words]] = {
    "players": _w(
        ("Players", "How many people may sit at a table of this game (smallest and largest "
                    "number)."),
        ("Spieler", "Wie viele Leute an einem Tisch dieses Spiels sitzen dürfen (kleinste und "
                    "größte Zahl).")),
    "rows": _w(
        ("Rows", "How many rows of cards each player has in front of them."),
        ("Reihen", "Wie viele Reihen Karten jeder vor sich liegen hat.")),
    "cols": _w(
        ("Columns", "How many cards are in each row."),
        ("Spalten", "Wie viele Karten in jeder Reihe liegen.")),
    "decks": _w(
        ("Decks", "How many 52-card decks are shuffled together; from a given number of "
                  "players on, a table may use more."),
        ("Kartenspiele", "Wie viele Spiele zu 52 Karten zusammengemischt werden; ab einer "
                         "bestimmten Spielerzahl dürfen es mehr sein.")),
    "jokers_per_deck": _w(
        ("Jokers per deck", "Jokers added to each deck (0 plays without jokers)."),
        ("Joker pro Kartenspiel", "Joker, die zu jedem Kartenspiel dazukommen (0: ohne "
                                  "Joker).")),
    "points": _w(
        ("Card points", "What each card counts when it does not cancel with others. Low is "
                        "good."),
        ("Kartenwerte", "So viel zählt jede Karte, die sich nicht mit anderen aufhebt. Wenig "
                        "ist gut.")),
    "match": _w(
        ("What cancels", "Which groups of equal cards score zero together (a 2×2 block scores "
                         "the block points)."),
        ("Was sich aufhebt", "Welche Gruppen gleicher Karten zusammen null zählen (ein "
                             "2×2-Block zählt die Blockpunkte).")),
    "match_by": _w(
        ("Equal means", "When two cards in a line or a pair count as equal: the same rank, or "
                        "the same points."),
        ("Gleich heißt", "Wann zwei Karten in einer Linie oder einem Paar gleich sind: bei "
                         "gleichem Rang oder bei gleichen Punkten.")),
    "jokers_wild": _w(
        ("Jokers are wild", "A joker matches any card."),
        ("Joker sind wild", "Ein Joker passt zu jeder Karte.")),
    "block_points": _w(
        ("Block points", "What four equal cards in a 2×2 square score together (only when "
                         "blocks count)."),
        ("Blockpunkte", "So viel zählen vier gleiche Karten in einem 2×2-Quadrat zusammen "
                        "(nur wenn Blöcke zählen).")),
    "block_match_by": _w(
        ("Equal in a block means", "When the four cards of a 2×2 block count as equal: the "
                                   "same points, or only the same rank."),
        ("Gleich im Block heißt", "Wann die vier Karten eines 2×2-Blocks gleich sind: bei "
                                  "gleichen Punkten oder nur bei gleichem Rang.")),
    "setup": _w(
        ("At the start of a hole", "The chosen cards are turned face up for everyone, or "
                                   "looked at in secret and kept face down."),
        ("Zu Beginn einer Runde", "Die gewählten Karten werden für alle aufgedeckt oder "
                                  "heimlich angeschaut und bleiben verdeckt.")),
    "setup_count": _w(
        ("Cards chosen at the start", "How many of their cards each player turns up (or "
                                      "looks at) before play."),
        ("Karten zu Beginn", "Wie viele seiner Karten jeder vor dem Spiel aufdeckt (oder "
                             "anschaut).")),
    "setup_cells": _w(
        ("Which cards may be chosen", "Any of your cards, or only those of the bottom row."),
        ("Welche Karten man wählen darf", "Jede deiner Karten oder nur die der unteren "
                                          "Reihe.")),
    "return_taken": _w(
        ("A taken discard may go back", "A card taken from the discard pile may be thrown "
                                        "away again instead of being used."),
        ("Genommene Ablage darf zurück", "Eine von der Ablage genommene Karte darf wieder "
                                         "abgelegt werden, statt sie einzutauschen.")),
    "flip_after_discard": _w(
        ("Turn a card up after discarding", "After throwing away the card in your hand: you "
                                            "must turn one face-down card up, you may, or "
                                            "you never do."),
        ("Aufdecken nach dem Ablegen", "Nach dem Ablegen der Karte in der Hand musst du "
                                       "eine verdeckte Karte aufdecken, darfst es oder tust "
                                       "es nie.")),
    "replace": _w(
        ("Which cards may be replaced", "The card in your hand may replace any of your "
                                        "cards, or only a face-down one."),
        ("Welche Karten man ersetzen darf", "Die Karte in der Hand darf jede deiner Karten "
                                            "ersetzen oder nur eine verdeckte.")),
    "flip_instead_of_draw": _w(
        ("Turn up instead of drawing", "A turn may be just turning one of your face-down "
                                       "cards up."),
        ("Aufdecken statt ziehen", "Ein Zug darf auch nur daraus bestehen, eine verdeckte "
                                   "Karte aufzudecken.")),
    "knock": _w(
        ("Knocking", "Instead of taking a turn, a player may knock: everyone else has one "
                     "more turn, then the hole ends."),
        ("Klopfen", "Statt zu ziehen darf man klopfen: Alle anderen haben noch einen Zug, "
                    "dann endet die Runde.")),
    "knock_first_turn": _w(
        ("Knock on the first turn", "Knocking is also allowed on a player's first turn of a "
                                    "hole."),
        ("Klopfen im ersten Zug", "Klopfen ist auch im ersten Zug einer Runde erlaubt.")),
    "end_on_complete": _w(
        ("The hole ends when", "A hole ends once the first player has every card face up, "
                               "once every player has, or never that way (then only a knock "
                               "ends it)."),
        ("Die Runde endet, wenn", "Eine Runde endet, sobald der Erste alle Karten offen hat, "
                                  "sobald alle sie offen haben, oder nie auf diese Weise "
                                  "(dann nur durch Klopfen).")),
    "final_turns": _w(
        ("Last turns", "After someone goes out or knocks, everyone else has one more turn. "
                       "Off: the hole ends at once."),
        ("Letzte Züge", "Wenn jemand fertig ist oder klopft, haben alle anderen noch einen "
                        "Zug. Aus: Die Runde endet sofort.")),
    "reshuffle": _w(
        ("Reuse the discard pile", "When the stock runs out, the discard pile (except its "
                                   "top card) is shuffled into a new stock."),
        ("Ablage neu mischen", "Ist der Stapel leer, wird die Ablage (bis auf die oberste "
                               "Karte) zu einem neuen Stapel gemischt.")),
    "holes": _w(
        ("Holes", "How many holes (rounds) a match has; 0 means no limit (then a points "
                  "target ends it)."),
        ("Runden", "Wie viele Runden eine Partie hat; 0 heißt ohne Grenze (dann beendet ein "
                   "Punkteziel sie).")),
    "target": _w(
        ("Points target", "The match ends after the hole in which a total passes this "
                          "number; 0 means no target."),
        ("Punkteziel", "Die Partie endet nach der Runde, in der ein Punktestand diese Zahl "
                       "überschreitet; 0 heißt ohne Ziel.")),
    "target_ends": _w(
        ("Target passed when a total", "Whether a total must go over the points target to "
                                       "end the match, or reaching it is enough."),
        ("Ziel erreicht, wenn ein Punktestand", "Ob ein Punktestand das Punkteziel "
                                                "überschreiten muss, damit die Partie endet, "
                                                "oder ob es genügt, es zu erreichen.")),
    "tie_break": _w(
        ("A tie for the win", "The tied players share the win, or play extra holes among "
                              "themselves."),
        ("Gleichstand an der Spitze", "Die Punktgleichen teilen sich den Sieg oder spielen "
                                      "Stechrunden unter sich aus.")),
    "turn_limit": _w(
        ("Safety limit", "A hole ends and is scored after this many turns, so no hole can go "
                         "on forever."),
        ("Sicherheitsgrenze", "Eine Runde endet und wird gewertet, wenn sie so viele Züge "
                              "dauert – damit keine Runde ewig läuft.")),
}

_SAME_RANK = _w(("same rank", "cards are equal when they have the same rank (two 7s)"),
                ("gleicher Rang", "Karten sind gleich, wenn sie denselben Rang haben (zwei "
                                  "Siebenen)"))
_SAME_POINTS = _w(("same points", "cards are equal when they score the same points (a 10 and "
                                  "a jack that both count 10)"),
                  ("gleiche Punkte", "Karten sind gleich, wenn sie gleich viele Punkte zählen "
                                     "(eine 10 und ein Bube, die beide 10 zählen)"))
_CHOICE_WORDS: dict[str, dict[str, dict[Lang, Words]]] = {
    "match_by": {"rank": _SAME_RANK, "points": _SAME_POINTS},
    "block_match_by": {
        "rank": _w(("same rank", "in a 2x2 block, cards are equal only when they have the "
                                 "same rank"),
                   ("gleicher Rang", "im 2×2-Block sind Karten nur bei gleichem Rang "
                                     "gleich")),
        "points": _w(("same points", "in a 2x2 block, cards are equal when they score the same "
                                    "points (a 10 and a jack that both count 10)"),
                     ("gleiche Punkte", "im 2×2-Block sind Karten gleich, wenn sie gleich "
                                        "viele Punkte zählen (eine 10 und ein Bube, die beide "
                                        "10 zählen)")),
    },
    "setup": {
        "reveal": _w(("turned face up", "the chosen cards are turned face up for everyone"),
                     ("aufgedeckt", "die gewählten Karten werden für alle aufgedeckt")),
        "peek": _w(("looked at in secret", "the chosen cards are looked at in secret and stay "
                                           "face down: remember them"),
                   ("heimlich angeschaut", "die gewählten Karten werden heimlich angeschaut "
                                           "und bleiben verdeckt: merk sie dir")),
    },
    "setup_cells": {
        "any": _w(("any card", "any of your cards may be chosen"),
                  ("jede Karte", "jede deiner Karten darf gewählt werden")),
        "bottom-row": _w(("the bottom row", "only cards of your bottom row may be chosen"),
                         ("die untere Reihe", "nur Karten deiner unteren Reihe dürfen "
                                              "gewählt werden")),
    },
    "flip_after_discard": {
        "must": _w(("must", "after a discard you must turn one face-down card up"),
                   ("muss", "nach dem Ablegen musst du eine verdeckte Karte aufdecken")),
        "may": _w(("may", "after a discard you may turn one face-down card up"),
                  ("darf", "nach dem Ablegen darfst du eine verdeckte Karte aufdecken")),
        "never": _w(("never", "after a discard your cards stay as they are"),
                    ("nie", "nach dem Ablegen bleiben deine Karten, wie sie sind")),
    },
    "replace": {
        "any": _w(("any card", "the card in your hand may replace any of your cards"),
                  ("jede Karte", "die Karte in der Hand darf jede deiner Karten ersetzen")),
        "face-down": _w(("face-down cards only", "the card in your hand may replace only a "
                                                 "face-down card"),
                        ("nur verdeckte Karten", "die Karte in der Hand darf nur eine "
                                                 "verdeckte Karte ersetzen")),
    },
    "end_on_complete": {
        "first": _w(("the first grid is face up", "the hole ends once one player has every "
                                                  "card face up"),
                    ("die erste Auslage offen ist", "die Runde endet, sobald einer alle Karten "
                                                   "offen hat")),
        "all": _w(("every grid is face up", "the hole ends when every player has every card "
                                            "face up"),
                  ("alle Auslagen offen sind", "die Runde endet, wenn alle ihre Karten offen "
                                             "haben")),
        "never": _w(("never (knock to end)", "face-up cards never end the hole; only a knock "
                                             "does"),
                    ("nie (nur Klopfen)", "offene Karten beenden die Runde nie, nur ein "
                                          "Klopfen")),
    },
    "target_ends": {
        "exceed": _w(("goes over it", "a total must go over the target"),
                     ("es überschreitet", "ein Punktestand muss über dem Ziel liegen")),
        "reach": _w(("reaches it", "a total that reaches the target is enough"),
                    ("es erreicht", "ein Punktestand, der das Ziel erreicht, genügt")),
    },
    "tie_break": {
        "share": _w(("share the win", "tied players share the win"),
                    ("Sieg teilen", "Punktgleiche teilen sich den Sieg")),
        "playoff": _w(("play it off", "tied players play extra holes until one of them is "
                                  "lowest"),
                      ("Stechen", "Punktgleiche spielen Stechrunden, bis einer allein vorne "
                                  "liegt")),
    },
    "match": {
        "columns": _w(("columns", "a column of {rows} equal cards scores 0"),
                      ("Spalten", "eine Spalte aus {rows} gleichen Karten zählt 0")),
        "rows": _w(("rows", "a row of {cols} equal cards scores 0"),
                   ("Reihen", "eine Reihe aus {cols} gleichen Karten zählt 0")),
        "row-pairs": _w(("two side by side in a row", "two equal cards side by side in a row "
                                                      "score 0"),
                        ("zwei nebeneinander in einer Reihe", "zwei gleiche Karten "
                                                              "nebeneinander in einer Reihe "
                                                              "zählen 0")),
        "diagonals": _w(("diagonals", "a diagonal of {rows} equal cards scores 0"),
                        ("Diagonalen", "eine Diagonale aus {rows} gleichen Karten zählt 0")),
        "adjacent": _w(("neighbours", "two equal cards side by side or one above the other "
                                      "score 0"),
                       ("Nachbarn", "zwei gleiche Karten neben- oder übereinander zählen 0")),
        "pairs": _w(("any pair", "any two equal cards in the grid score 0 (each card in one "
                                 "pair only)"),
                    ("jedes Paar", "zwei beliebige gleiche Karten in der Auslage zählen 0 (jede "
                                   "Karte nur in einem Paar)")),
        "blocks": _w(("2×2 blocks", "four equal cards in a 2x2 block score {block_points} "
                                    "together"),
                     ("2×2-Blöcke", "vier gleiche Karten in einem 2×2-Block zählen zusammen "
                                    "{block_points}")),
    },
}


def setting_words(key: str, lang: Lang = "en") -> Words:
    """The name and explanation of setting ``key`` in ``lang``.

    >>> setting_words("holes", "de").name
    'Runden'
    """
    return _SETTING_WORDS[key][lang]


def choice_words(key: str, value: str, lang: Lang = "en", rules: Rules | None = None) -> Words:
    """The name and explanation of choice ``value`` of setting ``key`` (``match`` for a
    pattern) in ``lang``; with ``rules``, the explanation's numbers are filled in.

    >>> choice_words("match", "columns", rules=load_rules("nine-card")).explain
    'a column of 3 equal cards scores 0'
    """
    words = _CHOICE_WORDS[key][value][lang]
    if rules is None:
        return words
    return Words(words.name, words.explain.format(
        rows=rules.rows, cols=rules.cols, block_points=rules.block_points))


def _words(key: str, choices: Sequence[str]) -> dict[str, Any]:
    """The schema's ``words`` of one setting: per language its name and explanation, and
    the name and explanation of each choice (explanations of patterns keep their
    ``{rows}``-style fields for the client to fill)."""
    out: dict[str, Any] = {}
    for lang in LANGS:
        entry: dict[str, Any] = asdict(setting_words(key, lang))
        if choices:
            entry["choices"] = {c: asdict(choice_words(key, c, lang)) for c in choices}
        out[lang] = entry
    return out


#: Settings that name and document a variant rather than change its play.
_LABELS = ("name", "description", "sources")


def setting_schema() -> dict[str, dict[str, Any]]:
    """What each playing setting accepts, as JSON-ready data for a settings form.

    Built from the parsers that validate the settings, so it cannot disagree with them.
    Every setting except ``name``, ``description`` and ``sources`` has a ``type`` and
    its ``default`` (the :class:`Rules` default, as in :meth:`Rules.to_dict`):

    * ``int``: ``min`` and ``max`` (inclusive); ``bool``;
    * ``choice``: one of ``choices``; ``patterns``: a list of distinct ``choices``;
    * ``points``: a table ``rank = points`` over ``ranks``, each between ``min`` and ``max``;
    * ``players``: ``[min, max]`` player counts, each between ``min`` and ``max``;
    * ``decks``: a number of decks (``min`` to ``max``), or a table from player counts
      (``players_min`` to ``players_max``) to numbers of decks.

    Every setting also has its ``words``: per language (:data:`LANGS`) its ``name`` and
    ``explain``, and for ``choice`` and ``patterns`` settings the ``name`` and ``explain`` of
    each of the ``choices``.

    >>> s = setting_schema()
    >>> {k: v for k, v in s["holes"].items() if k != "words"}
    {'type': 'int', 'min': 0, 'max': 1000, 'default': 9}
    >>> s["knock"]["type"], s["setup"]["choices"], s["holes"]["words"]["de"]["name"]
    ('bool', ['reveal', 'peek'], 'Runden')
    >>> s["setup"]["words"]["de"]["choices"]["peek"]["name"]
    'heimlich angeschaut'
    >>> "name" in s, s["match"]["choices"] == list(PATTERNS)
    (False, True)
    """
    defaults = Rules().to_dict()
    out: dict[str, dict[str, Any]] = {}
    for key in SETTINGS:
        if key in _LABELS:
            continue
        parser = _PARSERS.get(key)
        kind: dict[str, Any]
        if key == "points":
            kind = {"type": "points", "ranks": list(_POINT_KEYS),
                    "min": _POINT_RANGE[0], "max": _POINT_RANGE[1]}
        elif isinstance(parser, _IntIn):
            kind = {"type": "int", "min": parser.lo, "max": parser.hi}
        elif parser is _bool:
            kind = {"type": "bool"}
        elif parser is _choice:
            kind = {"type": "choice", "choices": list(_CHOICES[key])}
        elif parser is _match:
            kind = {"type": "patterns", "choices": list(PATTERNS)}
        elif parser is _players:
            kind = {"type": "players", "min": _PLAYER_RANGE[0], "max": _PLAYER_RANGE[1]}
        elif parser is _decks:
            kind = {"type": "decks", "min": _DECK_RANGE[0], "max": _DECK_RANGE[1],
                    "players_min": _PLAYER_RANGE[0], "players_max": _PLAYER_RANGE[1]}
        else:
            raise AssertionError(f"setting '{key}' has a parser setting_schema does not know")
        out[key] = {**kind, "default": _copy(defaults[key]),
                    "words": _words(key, kind.get("choices", ()))}
    return out


def _unknown(key: str) -> RulesError:
    close = difflib.get_close_matches(key, (*SETTINGS, "extends"), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return RulesError(
        f"unknown setting '{key}'{hint}; settings are: {', '.join(SETTINGS)} (and 'extends')",
        code="unknown_setting", params={"key": key, "close": close[0] if close else None},
    )


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """Validate raw settings (as read from TOML or JSON) into :class:`Rules`."""
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "points":
            continue
        parser = _PARSERS.get(key)
        if parser is None:
            raise _unknown(key)
        kwargs[key] = parser(key, value)
    if "points" in data:
        kwargs["points"] = _points("points", data["points"], Rules.points)
    rules = Rules(**kwargs)
    _check_combination(rules)
    return rules


def _check_combination(r: Rules) -> None:
    """Reject settings that are each valid but cannot be played together."""
    if r.cells > MAX_CELLS:
        raise RulesError(f"rows x cols = {r.cells} cells; at most {MAX_CELLS} are supported",
                         code="too_many_cells", params={"cells": r.cells, "max": MAX_CELLS})
    if r.setup_count > len(r.setup_positions()):
        where = "the bottom row" if r.setup_cells == "bottom-row" else "the grid"
        raise RulesError(
            f"setting 'setup_count' is {r.setup_count} but {where} has only "
            f"{len(r.setup_positions())} cells",
            code="setup_count_over_cells",
            params={"key": "setup_count", "got": r.setup_count, "where": r.setup_cells,
                    "have": len(r.setup_positions())},
        )
    if r.end_on_complete == "never" and not r.knock:
        raise RulesError(
            "setting 'end_on_complete' = 'never' needs 'knock' = true: "
            "otherwise no round could end",
            code="never_needs_knock", params={"keys": ["end_on_complete", "knock"]},
        )
    if r.holes == 0 and r.target == 0:
        raise RulesError("settings 'holes' and 'target' are both 0: the match could never end",
                         code="holes_and_target_zero", params={"keys": ["holes", "target"]})
    if "diagonals" in r.match and r.rows != r.cols:
        raise RulesError(
            f"match pattern 'diagonals' needs a square grid, but rows={r.rows}, cols={r.cols}",
            code="diagonals_need_square",
            params={"keys": ["match", "rows", "cols"], "rows": r.rows, "cols": r.cols},
        )
    if "blocks" in r.match and (r.rows < 2 or r.cols < 2):
        raise RulesError("match pattern 'blocks' needs at least 2 rows and 2 columns",
                         code="blocks_need_2x2",
                         params={"keys": ["match", "rows", "cols"], "rows": r.rows, "cols": r.cols})
    if r.jokers_wild and r.jokers_per_deck == 0:
        raise RulesError("setting 'jokers_wild' = true needs 'jokers_per_deck' > 0",
                         code="jokers_wild_needs_jokers",
                         params={"keys": ["jokers_wild", "jokers_per_deck"]})
    for players in range(r.players[0], r.players[1] + 1):
        need = players * r.cells + 1
        have = r.deck_size(players)
        if need > have:
            raise RulesError(
                f"setting 'decks': {players} players need {need} cards ({r.cells} each and one "
                f"to start the discard pile) but {r.decks_for(players)} deck(s) hold {have}; "
                "add decks or lower 'players'",
                code="too_few_cards",
                params={"keys": ["decks", "players"], "players": players, "need": need,
                        "cells": r.cells, "decks": r.decks_for(players), "have": have},
            )


# --- presets and files -----------------------------------------------------------------

@functools.cache
def _preset_list() -> tuple[str, ...]:
    folder = resources.files("golf") / "presets"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def preset_names() -> list[str]:
    """Names of the shipped presets, in a stable order."""
    return list(_preset_list())


#: Each shipped preset's name for people, in the server's language (English), as in the name
#: the server gives a quick-play table. The browser shows it in the page's language
#: (``js/strings/names.js``, the ``preset.name.*`` strings, whose English names are these).
PRESET_TITLES: dict[str, str] = {
    "six-card": "Six-card Golf",
    "six-card-knock": "Six-card Golf with knocking",
    "four-card": "Four-card Golf",
    "four-card-wild": "Four-card Golf, wild jokers",
    "nine-card": "Nine-card Golf",
    "german": "German Golf",
}


def preset_title(name: str) -> str:
    """A preset's name for people; a name without one (a rules file's) as it is.

    >>> preset_title("six-card"), preset_title("my-rules")
    ('Six-card Golf', 'my-rules')
    """
    return PRESET_TITLES.get(name, name)


def default_players(rules: Rules, at_least: int = 2) -> int:
    """The player count used when none is given (the commands, the rules lab): the
    variant's smallest, but at least ``at_least`` (two, for a match between players),
    within its range.

    >>> default_players(load_rules("four-card")), default_players(load_rules("nine-card"))
    (3, 2)
    """
    lo, hi = rules.players
    return min(max(lo, at_least), hi)


def _read_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{where} is not valid TOML: {e}",
                         code="not_toml", params={"where": where, "detail": str(e)}) from None


def _copy(v: Any) -> Any:
    """A copy of TOML data sharing no table or list with the original."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


# A preset's settings with its ``extends`` applied, by name. The shipped presets are
# package data and never change while the program runs, so each file is read and
# parsed once; callers get a copy (see _raw_preset), never the cached tables.
_PRESET_SETTINGS: dict[str, dict[str, Any]] = {}


def _raw_preset(name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    if name in seen:
        raise RulesError(f"presets extend each other in a loop: {' -> '.join((*seen, name))}",
                         code="extends_loop", params={"chain": [*seen, name]})
    hit = _PRESET_SETTINGS.get(name)
    if hit is None:
        # Only a shipped name reaches the file system: a name is never a path, not even
        # one relative to the presets' folder ("../x" from an ``extends``).
        if name not in _preset_list():
            raise RulesError(
                f"unknown variant {name!r}; presets are: {', '.join(preset_names())} "
                "(or give the path of a .toml rules file)",
                code="unknown_preset", params={"got": repr(name), "allowed": preset_names()},
            )
        res = resources.files("golf") / "presets" / f"{name}.toml"
        raw = _read_toml(res.read_text(encoding="utf-8"), f"preset {name!r}")
        hit = _PRESET_SETTINGS[name] = _resolve(raw, (*seen, name))
    return cast(dict[str, Any], _copy(hit))


def _resolve(raw: dict[str, Any], seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Apply ``extends``: the parent's settings, then this file's on top."""
    parent = raw.pop("extends", None)
    if parent is None:
        return raw
    if not isinstance(parent, str):
        raise RulesError(f"'extends' must name a preset, got {parent!r}",
                         code="extends_not_name", params={"got": repr(parent)})
    base = _raw_preset(parent, seen)
    return merge_settings(base, raw)


def merge_settings(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Settings ``over`` on top of ``base``; tables ``points`` and ``sources`` merge by key."""
    out = dict(base)
    for k, v in over.items():
        mergeable = k in ("points", "sources") and isinstance(out.get(k), Mapping)
        if mergeable and isinstance(v, Mapping):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def _is_path(variant: str | Path) -> bool:
    return isinstance(variant, Path) or variant.endswith(".toml") or "/" in variant


def raw_settings(variant: str | Path | Mapping[str, Any] | Rules) -> dict[str, Any]:
    """The unvalidated settings of a preset name, TOML path, mapping or Rules (a new
    dict each call: changing it changes nothing else)."""
    if isinstance(variant, Rules):
        return variant.to_dict()
    if isinstance(variant, Mapping):
        return _resolve(_copy(dict(variant)))
    text = str(variant)
    if _is_path(variant):
        path = Path(text)
        try:
            content = path.read_text(encoding="utf-8")
        except OSError as e:
            raise RulesError(f"cannot read rules file {text!r}: {e.strerror}",
                             code="unreadable_file",
                             params={"path": text, "detail": e.strerror}) from None
        raw = _read_toml(content, f"rules file {text!r}")
        raw.setdefault("name", path.stem)
        return _resolve(raw)
    return _raw_preset(text)


def load_rules(
    variant: str | Path | Mapping[str, Any] | Rules = "six-card",
    overrides: Mapping[str, Any] | None = None,
) -> Rules:
    """Rules from a preset name, a TOML file, a mapping or Rules, with overrides on top.

    Rules of a preset name (with or without overrides) are built once and handed out
    again: a Rules is immutable, and a new Game per hole must not re-validate its
    settings. Files are read every time, so edits to them are seen.

    >>> load_rules("six-card", {"holes": 1}) is load_rules("six-card", {"holes": 1})
    True
    """
    if isinstance(variant, Rules) and not overrides:
        return variant
    key = _cache_key(variant, overrides)
    if key is not None:
        with _RESOLVED_LOCK:
            hit = _RESOLVED.get(key)
            if hit is not None:
                _RESOLVED.move_to_end(key)
                return hit
    raw = raw_settings(variant)
    if overrides:
        raw = merge_settings(raw, normalise_overrides(overrides))
    rules = rules_from_dict(raw)
    if key is not None:
        with _RESOLVED_LOCK:
            _RESOLVED[key] = rules
            if len(_RESOLVED) > RULES_CACHE_SIZE:
                _RESOLVED.popitem(last=False)
    return rules


def preset_rules(name: object, overrides: Mapping[str, Any] | None = None) -> Rules:
    """Rules of a shipped preset, by its name only, with ``overrides`` on top.

    For rules that come from someone else (a request to the server): unlike
    :func:`load_rules`, a name is never read as a file, and an unknown name is refused
    with one message whatever its text (it is neither echoed nor looked up anywhere), so
    the refusal tells nothing about the machine.

    >>> preset_rules("german").name
    'german'
    >>> try:
    ...     preset_rules("/etc/passwd")
    ... except RulesError as e:
    ...     print(e.code, str(e) == str(unknown_preset()))
    unknown_preset True
    >>> preset_rules("six-card", {"holes": 1}) is load_rules("six-card", {"holes": 1})
    True
    """
    if not isinstance(name, str) or name not in _preset_list():
        raise unknown_preset()
    return load_rules(name, overrides)


def unknown_preset() -> RulesError:
    """The one refusal of a preset name that is not shipped (see :func:`preset_rules`)."""
    names = preset_names()
    return RulesError(f"unknown preset; the presets are: {', '.join(names)}",
                      code="unknown_preset", params={"allowed": names})


#: How many (preset, overrides) combinations keep their built Rules (least recently
#: used go first).
RULES_CACHE_SIZE = 256
_RESOLVED: OrderedDict[Hashable, Rules] = OrderedDict()
# Servers build games from several threads; the LRU bookkeeping must not race.
_RESOLVED_LOCK = threading.Lock()


def _cache_key(variant: object, overrides: Mapping[str, Any] | None) -> Hashable | None:
    """The cache key of a preset name with overrides; None when not to be cached
    (files may change, and mappings or odd override values are not worth freezing)."""
    if not isinstance(variant, str) or _is_path(variant):
        return None
    if not overrides:
        return variant
    try:
        return variant, _freeze(overrides)
    except TypeError:
        return None


def _freeze(v: Any) -> Hashable:
    """A hashable copy of override data that keeps types apart: ``True``, ``1`` and
    ``1.0`` are equal in Python but are different settings (only ``1`` is a valid
    ``holes``), so each value is keyed with its type. Order is kept, since a later
    key may overwrite an earlier one (``points.2`` then ``points``)."""
    if isinstance(v, Mapping):
        return dict, tuple((_freeze(k), _freeze(x)) for k, x in v.items())
    if isinstance(v, list | tuple):
        return type(v), tuple(_freeze(x) for x in v)
    if isinstance(v, str | int | float | type(None)):
        return type(v), v
    raise TypeError(f"cannot freeze {type(v).__name__}")


def normalise_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Turn dotted keys (``points.2``) into nested tables."""
    out: dict[str, Any] = {}
    for k, v in overrides.items():
        if "." in k:
            head, tail = k.split(".", 1)
            if head != "points":
                raise RulesError(f"dotted setting {k!r}: only 'points.RANK' may be dotted",
                                 code="dotted_setting", params={"got": repr(k)})
            out.setdefault("points", {})[tail] = v
        else:
            out[k] = v
    return out


def parse_rule_option(text: str) -> tuple[str, Any]:
    """Parse a command-line ``KEY=VALUE``; VALUE is TOML (``18``, ``true``, ``["rows"]``)
    or, failing that, a bare string (``setup=peek``).

    >>> parse_rule_option("holes=18"), parse_rule_option("setup=peek")
    (('holes', 18), ('setup', 'peek'))
    """
    if "=" not in text:
        raise RulesError(f"rule option {text!r} must look like KEY=VALUE, for example holes=18",
                         code="option_syntax", params={"got": repr(text)})
    key, value = (s.strip() for s in text.split("=", 1))
    if not key:
        raise RulesError(f"rule option {text!r} has no key before '='",
                         code="option_no_key", params={"got": repr(text)})
    try:
        parsed = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value
    return key, parsed


def describe_points(rules: Rules) -> str:
    parts = [f"{rank_name(r)}={rules.points[r]}" for r in range(1, 14)]
    if rules.jokers_per_deck:
        parts.append(f"JK={'wild' if rules.jokers_wild else ''}{rules.points[JOKER]}")
    return " ".join(parts)
