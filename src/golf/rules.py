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
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar, cast, get_args

from .cards import JOKER, RANK_NAMES, build_deck, rank_name
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
            raise RulesError(f"{self.name} is for {lo} to {hi} players, not {players!r}")

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
        raise RulesError(f"setting '{key}' must be an integer, got {v!r}")
    if not lo <= v <= hi:
        raise RulesError(f"setting '{key}' must be between {lo} and {hi}, got {v}")
    return v


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise RulesError(f"setting '{key}' must be true or false, got {v!r}")
    return v


def _str(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise RulesError(f"setting '{key}' must be a string, got {v!r}")
    return v


def _choice(key: str, v: Any) -> str:
    allowed = _CHOICES[key]
    if v not in allowed:
        raise RulesError(
            f"setting '{key}' must be one of {', '.join(repr(a) for a in allowed)}, got {v!r}"
        )
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
        raise RulesError(f"setting 'players' must be [min, max], got {v!r}")
    lo, hi = _int("players", v[0], *_PLAYER_RANGE), _int("players", v[1], *_PLAYER_RANGE)
    if lo > hi:
        raise RulesError(f"setting 'players' must have min <= max, got [{lo}, {hi}]")
    return lo, hi


def _decks(key: str, v: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        return ((1, _int("decks", v, *_DECK_RANGE)),)
    if isinstance(v, list | tuple) and all(isinstance(p, list | tuple) for p in v):
        v = {p[0]: p[1] for p in v if len(p) == 2}
    if not isinstance(v, Mapping) or not v:
        raise RulesError(
            "setting 'decks' must be a number of decks or a table from player counts to decks, "
            f"like {{ 1 = 1, 4 = 2 }}; got {v!r}"
        )
    steps = []
    for a, b in v.items():
        try:
            start = int(a)
        except (TypeError, ValueError):
            raise RulesError(f"setting 'decks' has key {a!r}; keys are player counts") from None
        steps.append((_int("decks", start, *_PLAYER_RANGE), _int("decks", b, *_DECK_RANGE)))
    steps.sort()
    return tuple(steps)


def _points(key: str, v: Any, base: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(v, Mapping):
        raise RulesError(f"setting 'points' must be a table of rank = points, got {v!r}")
    pts = list(base)
    for k, p in v.items():
        name = str(k).upper()
        name = "10" if name == "T" else name
        if name not in _POINT_KEYS:
            raise RulesError(
                f"setting 'points' has unknown rank {k!r}; ranks are {', '.join(_POINT_KEYS)}"
            )
        pts[RANK_NAMES.index(name)] = _int(f"points.{name}", p, *_POINT_RANGE)
    return tuple(pts)


def _match(key: str, v: Any) -> tuple[PatternName, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list | tuple):
        raise RulesError(f"setting 'match' must be a list of patterns, got {v!r}")
    for p in v:
        if p not in PATTERNS:
            raise RulesError(
                f"setting 'match' has unknown pattern {p!r}; patterns are {', '.join(PATTERNS)}"
            )
    return cast(tuple[PatternName, ...], tuple(dict.fromkeys(v)))


def _sources(key: str, v: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, Mapping):
        raise RulesError(f"'sources' must be a table of setting = text, got {v!r}")
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

    >>> s = setting_schema()
    >>> s["holes"], s["knock"]["type"], s["setup"]["choices"]
    ({'type': 'int', 'min': 0, 'max': 1000, 'default': 9}, 'bool', ['reveal', 'peek'])
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
        out[key] = {**kind, "default": _copy(defaults[key])}
    return out


def _unknown(key: str) -> RulesError:
    close = difflib.get_close_matches(key, (*SETTINGS, "extends"), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return RulesError(
        f"unknown setting '{key}'{hint}; settings are: {', '.join(SETTINGS)} (and 'extends')"
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
        raise RulesError(f"rows x cols = {r.cells} cells; at most {MAX_CELLS} are supported")
    if r.setup_count > len(r.setup_positions()):
        where = "the bottom row" if r.setup_cells == "bottom-row" else "the grid"
        raise RulesError(
            f"setting 'setup_count' is {r.setup_count} but {where} has only "
            f"{len(r.setup_positions())} cells"
        )
    if r.end_on_complete == "never" and not r.knock:
        raise RulesError(
            "setting 'end_on_complete' = 'never' needs 'knock' = true: otherwise no round could end"
        )
    if r.holes == 0 and r.target == 0:
        raise RulesError("settings 'holes' and 'target' are both 0: the match could never end")
    if "diagonals" in r.match and r.rows != r.cols:
        raise RulesError(
            f"match pattern 'diagonals' needs a square grid, but rows={r.rows}, cols={r.cols}"
        )
    if "blocks" in r.match and (r.rows < 2 or r.cols < 2):
        raise RulesError("match pattern 'blocks' needs at least 2 rows and 2 columns")
    if r.jokers_wild and r.jokers_per_deck == 0:
        raise RulesError("setting 'jokers_wild' = true needs 'jokers_per_deck' > 0")
    for players in range(r.players[0], r.players[1] + 1):
        need = players * r.cells + 1
        have = r.deck_size(players)
        if need > have:
            raise RulesError(
                f"setting 'decks': {players} players need {need} cards ({r.cells} each and one "
                f"to start the discard pile) but {r.decks_for(players)} deck(s) hold {have}; "
                "add decks or lower 'players'"
            )


# --- presets and files -----------------------------------------------------------------

@functools.cache
def _preset_list() -> tuple[str, ...]:
    folder = resources.files("golf") / "presets"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def preset_names() -> list[str]:
    """Names of the shipped presets, in a stable order."""
    return list(_preset_list())


def _read_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{where} is not valid TOML: {e}") from None


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
        raise RulesError(f"presets extend each other in a loop: {' -> '.join((*seen, name))}")
    hit = _PRESET_SETTINGS.get(name)
    if hit is None:
        res = resources.files("golf") / "presets" / f"{name}.toml"
        if not res.is_file():
            raise RulesError(
                f"unknown variant {name!r}; presets are: {', '.join(preset_names())} "
                "(or give the path of a .toml rules file)"
            )
        raw = _read_toml(res.read_text(encoding="utf-8"), f"preset {name!r}")
        hit = _PRESET_SETTINGS[name] = _resolve(raw, (*seen, name))
    return cast(dict[str, Any], _copy(hit))


def _resolve(raw: dict[str, Any], seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Apply ``extends``: the parent's settings, then this file's on top."""
    parent = raw.pop("extends", None)
    if parent is None:
        return raw
    if not isinstance(parent, str):
        raise RulesError(f"'extends' must name a preset, got {parent!r}")
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
            raise RulesError(f"cannot read rules file {text!r}: {e.strerror}") from None
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
                raise RulesError(f"dotted setting {k!r}: only 'points.RANK' may be dotted")
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
        raise RulesError(f"rule option {text!r} must look like KEY=VALUE, for example holes=18")
    key, value = (s.strip() for s in text.split("=", 1))
    if not key:
        raise RulesError(f"rule option {text!r} has no key before '='")
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
