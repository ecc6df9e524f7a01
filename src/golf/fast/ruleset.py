"""Rules in the compiled core's terms: a config array, or a clear refusal.

The core plays a whitelist of settings and values (:data:`SUPPORTED`). A setting it does
not know (one added to :class:`~golf.Rules` after this module was written) or a value it
does not play raises :class:`UnsupportedRules` naming the setting, so the fast path never
plays a rule differently from the engine: callers fall back to :class:`golf.Game`.

>>> from golf import load_rules
>>> cfg = config(load_rules("six-card"), 2)
>>> int(cfg[C_CELLS]), int(cfg[C_DECK])
(6, 52)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import JOKER
from ..errors import RulesError
from ..game import MAX_PLAYOFFS
from ..rules import Rules
from ..scoring import Pattern, patterns
from .layout import (
    C_CELLS,
    C_COLS,
    C_DECK,
    C_END,
    C_FINAL_TURNS,
    C_FIXED,
    C_FLIP_AFTER,
    C_FLIP_INSTEAD,
    C_FULL,
    C_HOLES,
    C_KNOCK,
    C_KNOCK_FIRST,
    C_MAX_PLAYOFFS,
    C_N_LINES,
    C_N_SETS,
    C_O_DECK,
    C_O_DISCARD,
    C_O_GRIDS,
    C_O_LAST_GRIDS,
    C_O_LAST_SCORES,
    C_O_LINE_KEYS,
    C_O_LINES,
    C_O_PEEKED,
    C_O_PERM,
    C_O_RPERM,
    C_O_SET_KEYS,
    C_O_SET_POINTS,
    C_O_SETS,
    C_O_STOCK,
    C_O_TOTALS,
    C_O_TURNS,
    C_O_UP,
    C_O_WORK,
    C_PLAYERS,
    C_POINT_KEYS,
    C_POINTS,
    C_RANK_KEYS,
    C_REPLACE_DOWN,
    C_RESHUFFLE,
    C_RETURN_TAKEN,
    C_ROWS,
    C_SETUP_ALLOWED,
    C_SETUP_COUNT,
    C_SETUP_PEEK,
    C_STATE_SIZE,
    C_TARGET,
    C_TARGET_REACH,
    C_TIE_PLAYOFF,
    C_TURN_LIMIT,
    C_WILD,
    C_WORK,
    END_ALL,
    END_FIRST,
    END_NEVER,
    FLIP_MAY,
    FLIP_MUST,
    FLIP_NEVER,
    HEADER,
)

Config = npt.NDArray[np.int64]

#: Settings that do not change play (names, texts, the player range checked by Rules).
_INERT = ("name", "description", "sources", "players")
#: Settings played by the core with any valid value.
_ANY_VALUE = (
    "rows", "cols", "decks", "jokers_per_deck", "points", "match", "jokers_wild",
    "block_points", "setup_count", "return_taken", "flip_instead_of_draw", "knock",
    "knock_first_turn", "final_turns", "reshuffle", "holes", "target", "turn_limit",
)
#: Choice settings and the values the core plays.
_CHOICES: dict[str, tuple[str, ...]] = {
    "match_by": ("rank", "points"),
    "block_match_by": ("rank", "points"),
    "setup": ("reveal", "peek"),
    "setup_cells": ("any", "bottom-row"),
    "flip_after_discard": ("must", "may", "never"),
    "replace": ("any", "face-down"),
    "end_on_complete": ("first", "all", "never"),
    "target_ends": ("exceed", "reach"),
    "tie_break": ("share", "playoff"),
}
_PATTERNS = ("columns", "rows", "row-pairs", "diagonals", "adjacent", "pairs", "blocks")
#: Every setting the fast core knows, with the values it plays (None: any valid value).
SUPPORTED: Mapping[str, tuple[str, ...] | None] = {
    **{k: None for k in (*_INERT, *_ANY_VALUE)},
    **_CHOICES,
}


class UnsupportedRules(RulesError):
    """The compiled core does not play these rules; use :class:`golf.Game` instead."""


def check_supported(rules: Rules) -> None:
    """Refuse rules with a setting (or value) the compiled core does not play.

    >>> from golf import load_rules
    >>> check_supported(load_rules("german"))  # every preset is played
    """
    for f in fields(rules):
        if f.name.startswith("_"):
            continue
        if f.name not in SUPPORTED:
            raise UnsupportedRules(
                f"golf.fast does not play the setting '{f.name}' yet; it plays: "
                f"{', '.join(SUPPORTED)}. Use golf.Game for these rules."
            )
        allowed = SUPPORTED[f.name]
        value: Any = getattr(rules, f.name)
        if allowed is not None and value not in allowed:
            raise UnsupportedRules(
                f"golf.fast does not play {f.name} = {value!r}; it plays "
                f"{', '.join(repr(a) for a in allowed)}. Use golf.Game for these rules."
            )
    for p in rules.match:
        if p not in _PATTERNS:
            raise UnsupportedRules(
                f"golf.fast does not play the match pattern {p!r}; it plays "
                f"{', '.join(_PATTERNS)}. Use golf.Game for these rules."
            )


def config(rules: Rules, players: int) -> Config:
    """The config array of ``rules`` for ``players`` seats (cached on the rules object)."""
    table: dict[int, Config] = rules.cached("_fast_configs", lambda r: {})
    hit = table.get(players)
    if hit is None:
        check_supported(rules)
        rules.check_players(players)
        hit = table[players] = _build(rules, players)
    return hit


def _build(r: Rules, players: int) -> Config:
    pats = patterns(r)
    lines = [p for p in pats if not p.exclusive]
    sets = [p for p in pats if p.exclusive]
    deck = r.deck(players)
    cells, n_deck = r.cells, len(deck)
    o_lines = C_FIXED
    o_sets = o_lines + len(lines)
    o_set_points = o_sets + len(sets)
    o_line_keys = o_set_points + len(sets)
    o_set_keys = o_line_keys + len(lines)
    o_deck = o_set_keys + len(sets)
    cfg = np.zeros(o_deck + n_deck, dtype=np.int64)
    cfg[C_ROWS], cfg[C_COLS], cfg[C_CELLS], cfg[C_PLAYERS] = r.rows, r.cols, cells, players
    cfg[C_DECK] = n_deck
    cfg[C_SETUP_COUNT] = r.setup_count
    cfg[C_SETUP_PEEK] = r.setup == "peek"
    cfg[C_SETUP_ALLOWED] = sum(1 << i for i in r.setup_positions())
    cfg[C_RETURN_TAKEN] = r.return_taken
    cfg[C_FLIP_AFTER] = {"must": FLIP_MUST, "may": FLIP_MAY, "never": FLIP_NEVER}[
        r.flip_after_discard]
    cfg[C_REPLACE_DOWN] = r.replace == "face-down"
    cfg[C_FLIP_INSTEAD] = r.flip_instead_of_draw
    cfg[C_KNOCK], cfg[C_KNOCK_FIRST] = r.knock, r.knock_first_turn
    cfg[C_END] = {"first": END_FIRST, "all": END_ALL, "never": END_NEVER}[r.end_on_complete]
    cfg[C_FINAL_TURNS], cfg[C_RESHUFFLE] = r.final_turns, r.reshuffle
    cfg[C_HOLES], cfg[C_TARGET] = r.holes, r.target
    cfg[C_TARGET_REACH] = r.target_ends == "reach"
    cfg[C_TIE_PLAYOFF] = r.tie_break == "playoff"
    cfg[C_TURN_LIMIT], cfg[C_MAX_PLAYOFFS] = r.turn_limit, MAX_PLAYOFFS
    cfg[C_N_LINES], cfg[C_N_SETS] = len(lines), len(sets)
    cfg[C_FULL] = (1 << cells) - 1
    for rank in range(15):
        cfg[C_POINTS + rank] = r.points[rank]
        cfg[C_WILD + rank] = r.jokers_wild and rank == JOKER
        cfg[C_RANK_KEYS + rank] = rank
        cfg[C_POINT_KEYS + rank] = r.points[rank]
    # Each pattern compares its cards as the engine's Pattern.match_by says (blocks by
    # block_match_by, the rest by match_by): the offset of the key table it reads.
    key_table = {"rank": C_RANK_KEYS, "points": C_POINT_KEYS}
    cfg[C_O_LINES], cfg[C_O_SETS], cfg[C_O_SET_POINTS] = o_lines, o_sets, o_set_points
    cfg[C_O_LINE_KEYS], cfg[C_O_SET_KEYS] = o_line_keys, o_set_keys
    cfg[C_O_DECK] = o_deck
    for k, p in enumerate(lines):
        cfg[o_lines + k] = p.mask
        cfg[o_line_keys + k] = key_table[p.match_by]
    for k, p in enumerate(sets):
        cfg[o_sets + k] = p.mask
        cfg[o_set_points + k] = p.points
        cfg[o_set_keys + k] = key_table[p.match_by]
    cfg[o_deck:o_deck + n_deck] = deck
    # The state's regions, in order.
    at = HEADER
    for key, size in (
        (C_O_GRIDS, players * cells), (C_O_UP, players), (C_O_PEEKED, players),
        (C_O_TURNS, players), (C_O_TOTALS, players), (C_O_STOCK, n_deck),
        (C_O_DISCARD, n_deck), (C_O_PERM, n_deck), (C_O_RPERM, n_deck),
        (C_O_LAST_GRIDS, players * cells), (C_O_LAST_SCORES, players),
        (C_O_WORK, _work_size(cells, sets)),
    ):
        cfg[key] = at
        at += size
    cfg[C_STATE_SIZE] = at
    cfg[C_WORK] = at - cfg[C_O_WORK]
    return cfg


def _work_size(cells: int, sets: list[Pattern]) -> int:
    """Room for :func:`golf.fast.score.lowest_total`'s search over matched sets: three
    rows of ``cells``, four of ``len(sets)``, and its table of ``2**(t + 1)`` for the
    ``t`` cells that sets can touch (nothing for rules without sets)."""
    if not sets:
        return 0
    touched = 0
    for p in sets:
        touched |= p.mask
    return 3 * cells + 4 * len(sets) + (1 << (touched.bit_count() + 1))
