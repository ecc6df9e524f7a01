"""Cards as ints and their notation: ``A 2 .. 10 J Q K`` (``T`` for 10), suits, ``JK``."""

from __future__ import annotations

import collections

import pytest

import golf
from golf.cards import (
    ACE,
    JOKER,
    KING,
    RANK_NAMES,
    SUITS,
    build_deck,
    card_str,
    make_card,
    parse_card,
    rank,
    suit,
)

NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("r, name", list(enumerate(NAMES, start=1)))
def test_each_rank_parses_without_a_suit(r: int, name: str) -> None:
    card = parse_card(name)
    assert rank(card) == r
    assert card_str(card, suits=False) == name


@pytest.mark.parametrize("s, letter", list(enumerate(SUITS)))
def test_suit_letters_follow_the_rank(s: int, letter: str) -> None:
    for r, name in enumerate(NAMES, start=1):
        card = parse_card(name + letter)
        assert (rank(card), suit(card)) == (r, s)
        assert card_str(card) == name + letter


def test_t_means_ten_and_case_and_spaces_do_not_matter() -> None:
    assert parse_card("T") == parse_card("10")
    assert parse_card("th") == parse_card("10H")
    assert parse_card(" qs ") == make_card(12, 0)
    assert parse_card("1") == make_card(ACE)


@pytest.mark.parametrize("text", ["JK", "jk", "joker", "*"])
def test_joker_spellings(text: str) -> None:
    card = parse_card(text)
    assert rank(card) == JOKER
    assert card_str(card) == "JK"
    assert card_str(card, suits=False) == "JK"


@pytest.mark.parametrize("text", ["", "B", "11", "0", "1O", "10X", "KK", "JKH", "A S", "QQ"])
def test_bad_cards_raise_notation_error_listing_what_is_allowed(text: str) -> None:
    with pytest.raises(golf.NotationError) as e:
        parse_card(text)
    msg = str(e.value)
    assert repr(text) in msg
    assert "A 2 3 4 5 6 7 8 9 10 J Q K" in msg and "JK" in msg


def test_notation_error_is_a_golf_error_and_a_value_error() -> None:
    with pytest.raises(golf.GolfError):
        parse_card("Z")
    with pytest.raises(ValueError):
        parse_card("Z")


def test_every_card_of_a_deck_round_trips_through_its_notation() -> None:
    for card in build_deck(1, 2):
        assert parse_card(card_str(card)) == card or rank(card) == JOKER
        assert rank(parse_card(card_str(card))) == rank(card)


def test_build_deck_counts() -> None:
    one = build_deck(1, 0)
    assert len(one) == 52 and len(set(one)) == 52
    by_rank = collections.Counter(rank(c) for c in one)
    assert all(by_rank[r] == 4 for r in range(ACE, KING + 1))
    two = build_deck(2, 2)
    assert len(two) == 108
    counts = collections.Counter(rank(c) for c in two)
    assert counts[JOKER] == 4 and counts[ACE] == 8
    assert collections.Counter(two) == collections.Counter(build_deck(1, 2) * 2)


def test_rank_names_table_matches_ranks() -> None:
    assert RANK_NAMES[ACE] == "A" and RANK_NAMES[10] == "10" and RANK_NAMES[JOKER] == "JK"
