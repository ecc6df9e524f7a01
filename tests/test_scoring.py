"""Scoring: card values, every matching pattern, the lowest arrangement and its explanation."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import golf
from golf.cards import JOKER, make_card, parse_card
from golf.rules import load_rules
from golf.scoring import Score, patterns

NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def total(grid: str, variant: str = "six-card", **rules: object) -> int:
    return golf.score(grid, variant, rules or None).total


def consistent(s: Score) -> None:
    """A score's parts add up: cards left plus what the matches score."""
    assert s.total == sum(s.points) + sum(m.points for m in s.matches)
    for i, matched in enumerate(s.matched):
        if matched:
            assert s.points[i] == 0
            assert any(i + 1 in m.cells for m in s.matches)


# --- card values ------------------------------------------------------------------------

SIX_CARD_POINTS = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                   "10": 10, "J": 10, "Q": 10, "K": 0}


@pytest.mark.parametrize("variant, values", [
    ("six-card", SIX_CARD_POINTS),
    ("six-card-knock", SIX_CARD_POINTS),
    ("four-card", SIX_CARD_POINTS),
    ("nine-card", SIX_CARD_POINTS),
    ("german", {**SIX_CARD_POINTS, "2": 2}),
    ("four-card-wild", {**SIX_CARD_POINTS, "2": 2}),
])
def test_card_values(variant: str, values: dict[str, int]) -> None:
    r = load_rules(variant)
    for name, points in values.items():
        cards = [name] + ["K"] * (r.cells - 1)
        # Without matching patterns a grid scores the plain sum of its cards (K = 0).
        assert golf.score(cards, variant, {"match": []}).total == points, name


def test_joker_values_by_preset() -> None:
    assert total("JK K / K K", "four-card-wild", match=[]) == 0  # unpaired wild joker
    assert total("JK K K / K K K", "six-card", jokers_per_deck=2, match=[]) == -2
    assert total("JK K K / K K K / K K K", "nine-card", jokers_per_deck=2, match=[]) == -4


def test_override_of_a_card_value() -> None:
    assert total("2 K K / 3 K K", "german") == 5
    assert total("2 K K / 3 K K", "german", **{"points.2": -2}) == 1


# --- columns ----------------------------------------------------------------------------

def test_column_pair_scores_zero_whatever_the_rank() -> None:
    assert total("A 2 3 / A 5 K") == 6
    assert total("Q 4 5 / Q 6 7") == 22
    assert total("K 4 5 / K 6 7") == 22


def test_a_pair_of_twos_in_a_column_scores_zero_not_minus_four() -> None:
    assert total("2 5 6 / 2 7 8") == 26
    assert total("2 5 6 / 3 7 8") == 27


def test_only_same_column_pairs_count_in_six_card() -> None:
    # Equal cards on a row or a diagonal do not cancel in six-card.
    assert total("5 5 3 / 4 6 7") == 30
    assert total("5 3 4 / 6 5 7") == 30


def test_three_of_a_kind_column_in_nine_card() -> None:
    assert total("5 2 3 / 5 4 6 / 5 7 8", "nine-card") == -2 + 3 + 4 + 6 + 7 + 8
    # A pair in a 3-card column is not enough.
    assert total("5 2 3 / 5 4 6 / 9 7 8", "nine-card") == 5 + 5 + 9 - 2 + 3 + 4 + 6 + 7 + 8


def test_all_columns_can_match() -> None:
    assert total("Q J 10 / Q J 10") == 0
    assert total("Q J 10 / Q J 10 / Q J 10", "nine-card") == 0


# --- rows and diagonals -----------------------------------------------------------------

def test_rows_when_enabled() -> None:
    grid = "5 5 5 / 2 3 4 / 6 7 8"
    assert total(grid, "nine-card") == 15 + (-2 + 3 + 4) + 21
    assert total(grid, "nine-card", match=["columns", "rows"]) == (-2 + 3 + 4) + 21
    # German option: equal cards in a row of the 2x3 layout.
    assert total("7 7 7 / 2 3 4", "german") == 21 + 9
    assert total("7 7 7 / 2 3 4", "german", match=["columns", "rows"]) == 9


def test_diagonals_when_enabled() -> None:
    down = "5 2 3 / 4 5 6 / 7 8 5"
    up = "3 2 5 / 4 5 6 / 5 8 7"
    for grid in (down, up):
        plain = total(grid, "nine-card")
        assert total(grid, "nine-card", match=["columns", "diagonals"]) == plain - 15


def test_lines_share_cards() -> None:
    # A column and a row through the same card both apply: every card of both is zero.
    grid = "4 4 4 / 4 6 7 / 4 8 9"
    assert total(grid, "nine-card", match=["columns", "rows"]) == 6 + 7 + 8 + 9


# --- adjacent pairs ---------------------------------------------------------------------

def test_adjacent_pairs_overlap_so_three_in_a_row_all_score_zero() -> None:
    assert total("5 5 5 / 2 3 4 / 6 7 8", "nine-card", match=["adjacent"]) == (
        -2 + 3 + 4 + 6 + 7 + 8)
    s = golf.score("5 5 5 / 2 3 4 / 6 7 8", "nine-card", {"match": ["adjacent"]})
    assert [m.cells for m in s.matches] == [(1, 2), (2, 3)]
    consistent(s)


def test_adjacent_means_horizontal_or_vertical_not_diagonal() -> None:
    plain = 9 + 3 + 4 + 6 + 7 + 8 + 10 + 10 + 10
    assert total("9 3 4 / 6 7 8 / 10 J Q", "nine-card", match=["adjacent"]) == plain
    vertical = total("9 3 4 / 9 7 8 / 10 J Q", "nine-card", match=["adjacent"])
    assert vertical == plain - 6 - 9
    diagonal = total("9 3 4 / 6 9 8 / 10 J Q", "nine-card", match=["adjacent"])
    assert diagonal == plain - 7 + 9


# --- any pair (four-card-wild) ----------------------------------------------------------

def test_any_pair_anywhere_scores_zero() -> None:
    assert total("5 9 / 9 5", "four-card-wild") == 0
    assert total("5 9 / 3 5", "four-card-wild") == 12
    assert total("5 9 / 3 4", "four-card-wild") == 21


def test_three_of_a_kind_makes_one_pair_only() -> None:
    s = golf.score("5 5 / 5 9", "four-card-wild")
    assert s.total == 14
    assert len(s.matches) == 1 and s.matches[0].rule == "pair"
    consistent(s)
    assert total("5 5 / 5 5", "four-card-wild") == 0


def test_wild_joker_pairs_with_the_highest_card_it_can() -> None:
    assert total("JK 3 / 7 9", "four-card-wild") == 10
    assert total("JK 3 / 7 Q", "four-card-wild") == 10
    assert total("JK JK / 7 9", "four-card-wild") == 0
    assert total("JK 5 / 5 5", "four-card-wild") == 0


def test_pairs_use_each_card_once_even_with_jokers() -> None:
    # Each joker pairs with one of the two dearest cards; no card is used twice.
    s = golf.score("JK 9 / JK 10", "four-card-wild")
    assert s.total == 0
    used = [c for m in s.matches for c in m.cells]
    assert len(used) == len(set(used))
    consistent(s)


def test_jokers_are_not_wild_in_six_card() -> None:
    # Added jokers score -2 each; a pair of jokers in a column cancels like any equal pair.
    assert total("JK 5 6 / 7 8 9", "six-card", jokers_per_deck=2) == -2 + 5 + 6 + 7 + 8 + 9
    assert total("JK 5 6 / JK 8 9", "six-card", jokers_per_deck=2) == 5 + 6 + 8 + 9


def test_wild_joker_completes_lines_independently() -> None:
    rules = {"jokers_per_deck": 2, "jokers_wild": True, "match": ["columns", "rows"]}
    # The joker completes column 1 (5 5) and row 2 (JK 7 7) at once.
    assert golf.score("5 3 4 / JK 7 7 / 5 8 9", "nine-card", rules).total == 3 + 4 + 8 + 9


# --- 2x2 blocks -------------------------------------------------------------------------

BLOCKS = {"match": ["columns", "blocks"]}


def test_block_of_four_equal_cards_scores_minus_25() -> None:
    s = golf.score("5 5 K / 5 5 Q / 3 4 6", "nine-card", BLOCKS)
    assert s.total == -25 + 0 + 10 + 3 + 4 + 6
    assert [m.rule for m in s.matches] == ["block"] and s.matches[0].points == -25
    assert s.matches[0].cells == (1, 2, 4, 5)
    consistent(s)


def test_block_combines_with_a_zero_column() -> None:
    # Column 1 (5 5 5) is zero; the block 1+2+4+5 then counts -25 for its four cards,
    # instead of 0 + 5 + 0 + 5 without it.
    s = golf.score("5 5 5 / 5 5 8 / 5 9 10", "nine-card", BLOCKS)
    assert s.total == -25 + 5 + 8 + 0 + 9 + 10
    assert {m.rule for m in s.matches} == {"column", "block"}
    consistent(s)
    assert total("5 5 5 / 5 5 8 / 5 9 10", "nine-card") == 5 + 5 + 5 + 8 + 9 + 10


def test_overlapping_blocks_count_once() -> None:
    s = golf.score("5 5 5 / 5 5 5 / 2 3 4", "nine-card", BLOCKS)
    assert s.total == -25 + 5 + 5 - 2 + 3 + 4
    assert [m.rule for m in s.matches] == ["block"]
    consistent(s)


def test_block_points_setting() -> None:
    assert total("5 5 K / 5 5 Q / 3 4 6", "nine-card", match=["blocks"], block_points=-40) == -17


def test_adjacent_lines_and_a_block_together() -> None:
    # Every card of the block is already zero by adjacency; the block still adds -25.
    grid = "5 5 K / 5 5 Q / 3 4 6"
    assert total(grid, "nine-card", match=["adjacent", "blocks"]) == -25 + 10 + 3 + 4 + 6


def test_block_compares_points_by_default_and_ranks_on_request() -> None:
    # 000: a 2x2 block "of the same face-point value": 10, J and Q all score 10.
    grid = "10 J / Q 10"
    base = {"match": ["blocks"]}
    assert golf.score(grid, "four-card", base).total == -25
    assert golf.score(grid, "four-card", {**base, "block_match_by": "rank"}).total == 40
    assert golf.score("10 10 / 10 10", "four-card", {**base, "block_match_by": "rank"}).total \
        == -25


def test_nine_card_block_by_points_while_columns_compare_ranks() -> None:
    # The old reading (one match_by for every pattern) could not score this grid: by
    # rank the block is missed, by points the 10/J/Q column wrongly scores 0.
    rules = {"match": ["columns", "blocks"]}
    s = golf.score("10 J 5 / Q 10 6 / J 4 7", "nine-card", rules)
    assert s.total == -25 + 5 + 6 + 10 + 4 + 7
    assert [m.rule for m in s.matches] == ["block"]
    consistent(s)
    # Column 1 is 10 Q J: equal points, different ranks, so it scores 30, not 0.
    s = golf.score("10 5 6 / Q 7 8 / J 9 4", "nine-card", rules)
    assert s.total == 10 + 5 + 6 + 10 + 7 + 8 + 10 + 9 + 4 and s.matches == ()


def test_match_by_governs_lines_and_pairs_but_not_blocks() -> None:
    blocks = {"match": ["blocks"], "block_match_by": "rank"}
    assert total("10 J / Q 10", "four-card", **blocks, match_by="points") == 40
    assert total("10 5 6 / J 7 8 / Q 9 4", "nine-card", match_by="points") == 5 + 6 + 7 + 8 \
        + 9 + 4
    assert total("10 J / 3 4", "four-card", match=["pairs"], match_by="points") == 7


# --- match_by ---------------------------------------------------------------------------

def test_match_by_rank_versus_points() -> None:
    grid = "10 5 6 / J 7 8"
    assert total(grid) == 46
    assert total(grid, match_by="points") == 26
    assert total("J 5 6 / Q 7 8", "german") == 46
    assert total("J 5 6 / Q 7 8", "german", match_by="points") == 26
    # Same points but different ranks only matter with match_by = "points": A vs K differ.
    assert total("A 5 6 / K 7 8", match_by="points") == 27


# --- the explanation --------------------------------------------------------------------

def test_explain_lists_the_grid_matches_cards_left_and_total() -> None:
    text = golf.score("A 2 3 / A 5 K", "six-card").explain()
    lines = text.splitlines()
    assert lines[0].split() == ["A", "2", "3"]
    assert lines[1].split() == ["A", "5", "K"]
    assert "column 1 (A A): 0" in lines
    assert "cards left: 2=-2 3=3 5=5 K=0" in lines
    assert lines[-1] == "total: 6"


def test_explain_when_every_card_matched() -> None:
    text = golf.score("Q J 10 / Q J 10").explain()
    assert "cards left: none" in text and text.endswith("total: 0")
    assert "column 2 (J J): 0" in text


def test_to_dict_is_json_with_a_score_field() -> None:
    s = golf.score("5 5 K / 5 5 Q / 3 4 6", "nine-card", BLOCKS)
    d = json.loads(json.dumps(s.to_dict()))
    assert d["score"] == s.total == -2
    assert d["grid"] == [["5", "5", "K"], ["5", "5", "Q"], ["3", "4", "6"]]
    assert d["matches"] == [{"rule": "block", "label": "block 1+2+4+5", "cells": [1, 2, 4, 5],
                             "points": -25}]
    assert d["cards"][2] == {"position": 3, "card": "K", "points": 0, "matched": False}
    assert d["cards"][0]["matched"] is True and d["cards"][5]["points"] == 10


# --- input forms and bad grids ----------------------------------------------------------

def test_score_accepts_text_names_codes_and_rules_objects() -> None:
    expected = golf.score("A 2 3 / A 5 K").total
    assert golf.score(["A", "2", "3", "A", "5", "K"]).total == expected
    codes = [parse_card(c) for c in ("A", "2", "3", "A", "5", "K")]
    assert golf.score(codes).total == expected
    assert golf.score("AS 2H 3D / AC 5S KH", load_rules("six-card")).total == expected
    assert golf.score("a 2 3 / 1 5 k").total == expected
    assert golf.score("T 2 3 / 10 5 K").total == -2 + 3 + 5
    assert golf.score("A 2 3 / A 5 K", "six-card", {"points": {"A": 50}}).total == expected
    assert golf.score("A 2 3/A 5 K").total == expected


def test_suits_do_not_matter_for_matching() -> None:
    assert total("5S 2 3 / 5H 4 6") == total("5 2 3 / 5 4 6") == -2 + 3 + 4 + 6


@pytest.mark.parametrize("grid, fragment", [
    ("A 2 3 / A 5", "has rows of 3 / 2 cards; six-card needs 2 row(s) of 3 cards"),
    ("A 2 3 A 5 K", "has rows of 6 cards"),
    ("A 2 3 / A 5 K / 1 2 3", "has rows of 3 / 3 / 3 cards"),
    ("", "has rows of 0 cards"),
    ("A 2 3 / A 5 Z", "'Z' is not a card"),
    ("A 2 3 / A 5 JK", "six-card is played without jokers"),
])
def test_bad_grids_raise_notation_errors(grid: str, fragment: str) -> None:
    with pytest.raises(golf.NotationError) as e:
        golf.score(grid, "six-card")
    assert fragment in str(e.value)


def test_bad_grid_as_a_sequence() -> None:
    with pytest.raises(golf.NotationError, match="a six-card grid has 6 cards, got 5"):
        golf.score(["A"] * 5)
    with pytest.raises(golf.NotationError, match="'B' is not a card"):
        golf.score(["A", "2", "3", "A", "5", "B"])


@pytest.mark.parametrize("codes", [[0] * 6, [1, 2, 3, 4, 5, 15], [1, 2, 3, 4, 5, 64],
                                   [1, 2, 3, 4, 5, -1]])
def test_bad_card_codes_are_rejected(codes: list[int]) -> None:
    with pytest.raises(golf.NotationError, match="is not a card code"):
        golf.score(codes)


def test_jokers_given_as_a_sequence_need_jokers_in_the_rules() -> None:
    with pytest.raises(golf.NotationError, match="six-card is played without jokers"):
        golf.score(["JK", "5", "6", "7", "8", "9"])
    with pytest.raises(golf.NotationError, match="six-card is played without jokers"):
        golf.score([make_card(JOKER), 5, 6, 7, 8, 9])
    assert golf.score(["JK", "5", "6", "7", "8", "9"], "six-card",
                      {"jokers_per_deck": 2}).total == 33


def test_bad_variant_or_rule_in_score() -> None:
    with pytest.raises(golf.RulesError, match="unknown variant"):
        golf.score("A 2 3 / A 5 K", "eight-card")
    with pytest.raises(golf.RulesError, match="unknown setting 'mach'"):
        golf.score("A 2 3 / A 5 K", "six-card", {"mach": []})


def test_pattern_lists_per_preset() -> None:
    kinds = {name: sorted({p.kind for p in patterns(load_rules(name))})
             for name in golf.preset_names()}
    assert kinds["six-card"] == ["column"]
    assert kinds["four-card-wild"] == ["pair"]
    assert kinds["nine-card"] == ["column"]
    assert len(patterns(load_rules("four-card-wild"))) == 6  # every pair of four cells
    every = load_rules("nine-card", {"match": ["columns", "rows", "diagonals", "adjacent",
                                                "pairs", "blocks"]})
    counts = {k: sum(p.kind == k for p in patterns(every)) for k in
              ("column", "row", "diagonal", "adjacent", "pair", "block")}
    assert counts == {"column": 3, "row": 3, "diagonal": 2, "adjacent": 12, "pair": 36,
                      "block": 4}
    pairs = patterns(load_rules("german", {"match": ["row-pairs"]}))
    assert [(p.kind, p.cells, p.label) for p in pairs] == [
        ("row-pair", (0, 1), "row 1 cells 1+2"), ("row-pair", (1, 2), "row 1 cells 2+3"),
        ("row-pair", (3, 4), "row 2 cells 4+5"), ("row-pair", (4, 5), "row 2 cells 5+6")]
    assert {p.match_by for p in patterns(every) if p.kind == "block"} == {"points"}
    assert {p.match_by for p in patterns(every) if p.kind != "block"} == {"rank"}


# --- the scorer finds the lowest arrangement: brute-force cross-checks ---------------------

RANKS = st.integers(min_value=1, max_value=14)


def brute_any_pairs(ranks: Sequence[int], points: Sequence[int]) -> int:
    """Lowest total over every set of disjoint pairs (wild jokers pair with anything)."""
    n = len(ranks)
    best = sum(points[r] for r in ranks)

    def ok(a: int, b: int) -> bool:
        return ranks[a] == ranks[b] or JOKER in (ranks[a], ranks[b])

    pairs = [p for p in itertools.combinations(range(n), 2) if ok(*p)]
    for k in range(1, n // 2 + 1):
        for chosen in itertools.combinations(pairs, k):
            cells = [c for p in chosen for c in p]
            if len(set(cells)) == len(cells):
                best = min(best, sum(points[ranks[i]] for i in range(n) if i not in cells))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(RANKS, min_size=4, max_size=4))
def test_any_pair_scoring_is_the_best_matching(ranks: list[int]) -> None:
    r = load_rules("four-card-wild")
    s = golf.score([make_card(x) for x in ranks], r)
    assert s.total == brute_any_pairs(ranks, r.points)
    consistent(s)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=13), min_size=6, max_size=6))
def test_six_card_pairs_brute_force(ranks: list[int]) -> None:
    # With 'pairs' instead of 'columns' a 2x3 grid uses up to three disjoint pairs.
    r = load_rules("six-card", {"match": ["pairs"]})
    assert golf.score([make_card(x) for x in ranks], r).total == brute_any_pairs(ranks, r.points)


def brute_nine(ranks: Sequence[int], points: Sequence[int], block: int,
               block_by_points: bool = True) -> int:
    """Columns, rows and diagonals of three equal ranks zero their cards; at most one 2x2
    block (any two blocks of a 3x3 grid share the centre) of equal points (or ranks)
    replaces its four cards by ``block``."""
    lines = [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 4, 8),
             (2, 4, 6)]
    zero = {i for line in lines if len({ranks[j] for j in line}) == 1 for i in line}
    own = [0 if i in zero else points[ranks[i]] for i in range(9)]
    best = sum(own)
    key = (lambda r: points[r]) if block_by_points else (lambda r: r)
    for top in (0, 1, 3, 4):
        cells = (top, top + 1, top + 3, top + 4)
        if len({key(ranks[i]) for i in cells}) == 1:
            best = min(best, block + sum(own[i] for i in range(9) if i not in cells))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=4), min_size=9, max_size=9))
def test_lines_and_blocks_brute_force(ranks: list[int]) -> None:
    # Few ranks make lines and blocks frequent.
    r = load_rules("nine-card", {"match": ["columns", "rows", "diagonals", "blocks"]})
    s = golf.score([make_card(x) for x in ranks], r)
    assert s.total == brute_nine(ranks, r.points, r.block_points)
    consistent(s)


# Ranks where points and ranks disagree: 10, J and Q all score 10.
TENS = st.sampled_from([5, 10, 11, 12, 13])
NINE_GRID = st.lists(TENS, min_size=9, max_size=9)
ALL_LINES_AND_BLOCKS = {"match": ["columns", "rows", "diagonals", "blocks"]}


@settings(max_examples=300, deadline=None)
@given(NINE_GRID, st.sampled_from(["points", "rank"]))
def test_blocks_by_points_or_rank_brute_force(ranks: list[int], by: str) -> None:
    r = load_rules("nine-card", {**ALL_LINES_AND_BLOCKS, "block_match_by": by})
    s = golf.score([make_card(x) for x in ranks], r)
    assert s.total == brute_nine(ranks, r.points, r.block_points, by == "points")
    consistent(s)


def _ten_block(ranks: Sequence[int], points: Sequence[int]) -> bool:
    """Some 2x2 block has equal points but not equal ranks."""
    return any(
        len({points[ranks[i]] for i in cells}) == 1 and len({ranks[i] for i in cells}) > 1
        for top in (0, 1, 3, 4)
        for cells in [(top, top + 1, top + 3, top + 4)]
    )


@settings(max_examples=300, deadline=None)
@given(NINE_GRID)
def test_block_by_points_toggles_exactly_the_equal_points_blocks(ranks: list[int]) -> None:
    # Comparing blocks by points only adds candidate blocks, so it never scores more,
    # and it changes a score only where a block is equal in points but not in ranks.
    cards = [make_card(x) for x in ranks]
    by_points = golf.score(cards, "nine-card", ALL_LINES_AND_BLOCKS).total
    by_rank = golf.score(cards, "nine-card", {**ALL_LINES_AND_BLOCKS,
                                              "block_match_by": "rank"}).total
    assert by_points <= by_rank
    if by_points != by_rank:
        assert _ten_block(ranks, load_rules("nine-card").points)


# --- german row matches: pairs side by side, or whole rows --------------------------------

def brute_german(ranks: Sequence[int], points: Sequence[int], row_pairs: bool) -> int:
    """2x3 grid: equal columns zero their cards; so do two equal cards side by side in a
    row (``row_pairs``), or else a row of three equal cards."""
    lines = [(0, 3), (1, 4), (2, 5)]
    lines += [(0, 1), (1, 2), (3, 4), (4, 5)] if row_pairs else [(0, 1, 2), (3, 4, 5)]
    zero = {i for line in lines if len({ranks[j] for j in line}) == 1 for i in line}
    return sum(points[ranks[i]] for i in range(6) if i not in zero)


GERMAN_GRID = st.lists(st.integers(min_value=1, max_value=4), min_size=6, max_size=6)


@settings(max_examples=300, deadline=None)
@given(GERMAN_GRID, st.sampled_from(["row-pairs", "rows"]), st.sampled_from([2, -2]))
def test_german_row_matches_brute_force(ranks: list[int], pattern: str, two: int) -> None:
    r = load_rules("german", {"match": ["columns", pattern], "points.2": two})
    s = golf.score([make_card(x) for x in ranks], r)
    assert s.total == brute_german(ranks, r.points, pattern == "row-pairs")
    consistent(s)


@settings(max_examples=300, deadline=None)
@given(GERMAN_GRID)
def test_row_pairs_differ_from_whole_rows_exactly_where_documented(ranks: list[int]) -> None:
    # Every whole row of equal cards is two equal pairs side by side, so with german's
    # points (none below zero) the pair reading never scores more; the readings differ
    # only on a row with two equal neighbours that is not all equal.
    cards = [make_card(x) for x in ranks]
    pairs = golf.score(cards, "german", {"match": ["columns", "row-pairs"]}).total
    rows = golf.score(cards, "german", {"match": ["columns", "rows"]}).total
    assert pairs <= rows
    if pairs != rows:
        assert any(
            len(set(ranks[3 * r:3 * r + 3])) == 2 and (ranks[3 * r] == ranks[3 * r + 1]
                                                     or ranks[3 * r + 1] == ranks[3 * r + 2])
            for r in (0, 1)
        )


# --- properties of every preset and setting -----------------------------------------------

SETTING_MIXES = [
    ("six-card", {}),
    ("german", {"match": ["columns", "row-pairs"]}),
    ("nine-card", {"match": ["columns", "rows", "row-pairs", "diagonals", "adjacent", "blocks"]}),
    ("nine-card", {**ALL_LINES_AND_BLOCKS, "block_match_by": "rank", "match_by": "points"}),
    ("four-card-wild", {}),
    ("four-card", {"match": ["pairs", "blocks"], "jokers_per_deck": 2, "jokers_wild": True}),
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SETTING_MIXES), st.data())
def test_scoring_ignores_suits(mix: tuple[str, dict[str, object]], data: st.DataObject) -> None:
    variant, rules = mix
    r = load_rules(variant, rules)
    top = 14 if r.jokers_per_deck else 13
    ranks = data.draw(st.lists(st.sampled_from([1, 2, 10, 11, 12, 13, top]),
                               min_size=r.cells, max_size=r.cells))
    suits = data.draw(st.lists(st.integers(0, 3), min_size=r.cells, max_size=r.cells))
    perm = data.draw(st.permutations(range(4)))
    a = golf.score([make_card(x, s) for x, s in zip(ranks, suits, strict=True)], r)
    b = golf.score([make_card(x, perm[s]) for x, s in zip(ranks, suits, strict=True)], r)
    assert a.total == b.total and a.matches == b.matches


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SETTING_MIXES), st.data())
def test_partial_scores_only_matches_of_known_cards(
    mix: tuple[str, dict[str, object]], data: st.DataObject
) -> None:
    variant, rules = mix
    r = load_rules(variant, rules)
    top = 14 if r.jokers_per_deck else 13
    ranks = data.draw(st.lists(st.sampled_from([1, 2, 5, 10, 11, 12, 13, top]),
                               min_size=r.cells, max_size=r.cells))
    hidden = data.draw(st.sets(st.integers(0, r.cells - 1)))
    cards = [make_card(x) for x in ranks]
    sc = golf.scoring.scorer(r)
    full = sc.score(cards)
    part = sc.partial([None if i in hidden else c for i, c in enumerate(cards)])
    assert sc.partial(cards) == full
    for m in part.matches:
        assert not hidden & {i - 1 for i in m.cells}
    # Lines among known cards stay matched whatever the hidden cards turn out to be.
    lines = {(m.rule, m.cells) for m in full.matches if m.rule not in ("pair", "block")}
    assert {(m.rule, m.cells) for m in part.matches if m.rule not in ("pair", "block")} <= lines
    assert all(part.points[i] == 0 for i in hidden)
    consistent(part)
