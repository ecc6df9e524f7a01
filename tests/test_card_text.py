"""The card text table the views read is card_str of every card."""

from __future__ import annotations

from golf.cards import CARD_TEXT, JOKER, N_CODES, RANK_MASK, SUITLESS, card_str, make_card


def test_card_text_is_card_str_of_every_card_with_a_rank() -> None:
    coded = [c for c in range(N_CODES) if 1 <= c & RANK_MASK <= JOKER]
    assert len(CARD_TEXT) == N_CODES
    assert all(CARD_TEXT[c] == card_str(c) for c in coded)
    assert CARD_TEXT[make_card(JOKER)] == "JK" and CARD_TEXT[make_card(12, SUITLESS)] == \
        card_str(make_card(12, SUITLESS))
