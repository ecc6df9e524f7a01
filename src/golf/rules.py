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
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from .cards import JOKER, RANK_NAMES, rank_name
from .errors import RulesError

_T = TypeVar("_T")
#: Matching patterns a grid can score zero (or a bonus) with.
PATTERNS = ("columns", "rows", "diagonals", "adjacent", "pairs", "blocks")
_CHOICES: dict[str, tuple[str, ...]] = {
    "match_by": ("rank", "points"),
    "setup": ("reveal", "peek"),
    "setup_cells": ("any", "bottom-row"),
    "flip_after_discard": ("must", "may", "never"),
    "replace": ("any", "face-down"),
    "end_on_complete": ("first", "all", "never"),
    "target_ends": ("exceed", "reach"),
    "tie_break": ("share", "playoff"),
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
    match: tuple[str, ...] = ("columns",)
    match_by: str = "rank"
    jokers_wild: bool = False
    block_points: int = -25
    setup: str = "reveal"
    setup_count: int = 2
    setup_cells: str = "any"
    return_taken: bool = False
    flip_after_discard: str = "may"
    replace: str = "any"
    flip_instead_of_draw: bool = False
    knock: bool = False
    knock_first_turn: bool = False
    end_on_complete: str = "first"
    final_turns: bool = True
    reshuffle: bool = True
    holes: int = 9
    target: int = 0
    target_ends: str = "exceed"
    tie_break: str = "share"
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


def _players(key: str, v: Any) -> tuple[int, int]:
    if isinstance(v, int) and not isinstance(v, bool):
        v = [v, v]
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise RulesError(f"setting 'players' must be [min, max], got {v!r}")
    lo, hi = _int("players", v[0], 1, 64), _int("players", v[1], 1, 64)
    if lo > hi:
        raise RulesError(f"setting 'players' must have min <= max, got [{lo}, {hi}]")
    return lo, hi


def _decks(key: str, v: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        return ((1, _int("decks", v, 1, 16)),)
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
        steps.append((_int("decks", start, 1, 64), _int("decks", b, 1, 16)))
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
        pts[RANK_NAMES.index(name)] = _int(f"points.{name}", p, -1000, 1000)
    return tuple(pts)


def _match(key: str, v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list | tuple):
        raise RulesError(f"setting 'match' must be a list of patterns, got {v!r}")
    for p in v:
        if p not in PATTERNS:
            raise RulesError(
                f"setting 'match' has unknown pattern {p!r}; patterns are {', '.join(PATTERNS)}"
            )
    return tuple(dict.fromkeys(v))


def _sources(key: str, v: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, Mapping):
        raise RulesError(f"'sources' must be a table of setting = text, got {v!r}")
    return tuple((str(a), str(b)) for a, b in v.items())


_Parser = Callable[[str, Any], Any]
_PARSERS: dict[str, _Parser] = {
    "name": _str,
    "description": _str,
    "players": _players,
    "rows": lambda k, v: _int(k, v, 1, 8),
    "cols": lambda k, v: _int(k, v, 1, 8),
    "decks": _decks,
    "jokers_per_deck": lambda k, v: _int(k, v, 0, 8),
    "match": _match,
    "jokers_wild": _bool,
    "block_points": lambda k, v: _int(k, v, -1000, 1000),
    "setup_count": lambda k, v: _int(k, v, 0, MAX_CELLS),
    "return_taken": _bool,
    "flip_instead_of_draw": _bool,
    "knock": _bool,
    "knock_first_turn": _bool,
    "final_turns": _bool,
    "reshuffle": _bool,
    "holes": lambda k, v: _int(k, v, 0, 1000),
    "target": lambda k, v: _int(k, v, 0, 100000),
    "turn_limit": lambda k, v: _int(k, v, 1, 100000),
    "sources": _sources,
    **{k: _choice for k in _CHOICES},
}
SETTINGS = tuple(f.name for f in fields(Rules))
assert set(SETTINGS) == set(_PARSERS) | {"points"}, "every setting needs a parser"


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

def preset_names() -> list[str]:
    """Names of the shipped presets, in a stable order."""
    folder = resources.files("golf") / "presets"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _read_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{where} is not valid TOML: {e}") from None


def _raw_preset(name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    if name in seen:
        raise RulesError(f"presets extend each other in a loop: {' -> '.join((*seen, name))}")
    res = resources.files("golf") / "presets" / f"{name}.toml"
    if not res.is_file():
        raise RulesError(
            f"unknown variant {name!r}; presets are: {', '.join(preset_names())} "
            "(or give the path of a .toml rules file)"
        )
    return _resolve(_read_toml(res.read_text(encoding="utf-8"), f"preset {name!r}"), (*seen, name))


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


def raw_settings(variant: str | Path | Mapping[str, Any] | Rules) -> dict[str, Any]:
    """The unvalidated settings of a preset name, TOML path, mapping or Rules."""
    if isinstance(variant, Rules):
        return variant.to_dict()
    if isinstance(variant, Mapping):
        return _resolve(dict(variant))
    text = str(variant)
    if isinstance(variant, Path) or text.endswith(".toml") or "/" in text:
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
    """Rules from a preset name, a TOML file, a mapping or Rules, with overrides on top."""
    if isinstance(variant, Rules) and not overrides:
        return variant
    if isinstance(variant, str) and not overrides and variant in _PRESET_CACHE:
        return _PRESET_CACHE[variant]
    raw = raw_settings(variant)
    if overrides:
        raw = merge_settings(raw, normalise_overrides(overrides))
    rules = rules_from_dict(raw)
    if isinstance(variant, str) and not overrides and variant in preset_names():
        # Presets are immutable and loaded often (every Game): parse each once.
        _PRESET_CACHE[variant] = rules
    return rules


_PRESET_CACHE: dict[str, Rules] = {}


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
