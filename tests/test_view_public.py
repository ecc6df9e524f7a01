"""What the whole table knows, in every seat's view: the cards of a reshuffled stock
(``stock_cards``) and where each player peeked (``peeked_cells``)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golf import Game
from golf.cards import card_str

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def public_stock(g: Game) -> list[int] | None:
    """Test-only, from the full position: the stock's cards plus a card held from it,
    once the stock has been reshuffled this hole."""
    pos = g.position()
    if not pos["reshuffles"]:
        return None
    cards = list(pos["stock"])
    if pos["held"] is not None and pos["held_from"] == "stock":
        cards.append(pos["held"])
    return sorted(cards)


def to_reshuffle(seed: int = 3, policy: int = 0, players: int = 6) -> Game:
    """A german game at the turn whose draw will reshuffle the discard pile."""
    g = Game("german", players=players, seed=seed)
    rng = random.Random(policy)
    while g.stock_size or g.phase != "turn":
        g.apply(rng.choice(g.legal_actions()))
    return g


def check_public(g: Game) -> None:
    expected = public_stock(g)
    peeks = g.position()["peeked"]
    for seat in range(g.players):
        v, c = g.view(seat), g.view(seat, codes=True)
        if expected is None:
            assert v["stock_cards"] is None and c["stock_cards"] is None
        else:
            assert c["stock_cards"] == expected
            assert v["stock_cards"] == [card_str(x) for x in expected]
        for s in range(g.players):
            if s not in g.active:
                assert v["peeked_cells"][s] is None
                continue
            up = g.face_up(s)
            assert v["peeked_cells"][s] == [p for p in peeks[s] if not up[p - 1]]
        # Everything public is the same for every seat.
        if seat:
            first = g.view(0)
            assert v["stock_cards"] == first["stock_cards"]
            assert v["peeked_cells"] == first["peeked_cells"]


def test_the_stock_is_unknown_before_a_reshuffle_and_public_after() -> None:
    g = to_reshuffle()
    check_public(g)
    assert all(g.view(s)["stock_cards"] is None for s in range(6))
    pile = g.view(0, codes=True)["discard"]
    g.apply("draw")  # the pile but its top card becomes the stock; one card is drawn
    holder = g.current_player
    assert holder is not None
    check_public(g)
    for seat in range(6):
        v = g.view(seat, codes=True)
        assert v["stock_cards"] == sorted(pile[:-1])  # the drawn card is still among them
        assert len(v["stock_cards"]) == v["stock_size"] + 1
        assert (v["held"] is not None) == (seat == holder)
    held = g.view(holder, codes=True)["held"]
    g.apply("discard")  # now everyone saw the drawn card: it leaves the list
    check_public(g)
    left = Counter(pile[:-1])
    left[held] -= 1
    assert Counter(g.view(0, codes=True)["stock_cards"]) == +left
    # Every later draw keeps the list right, and a new hole hides the stock again.
    rng = random.Random(1)
    hole = g.hole
    while g.hole == hole and not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        check_public(g)
    if not g.is_over:
        assert g.view(0)["stock_cards"] is None


def test_the_stock_cards_never_tell_which_card_was_drawn() -> None:
    g = to_reshuffle()
    g.apply("draw")
    holder = g.current_player
    assert holder is not None
    pos = g.position()
    # The same state, except that another of the stock's cards (of another rank) was drawn.
    j = next(i for i, c in enumerate(pos["stock"]) if c & 15 != pos["held"] & 15)
    pos["held"], pos["stock"][j] = pos["stock"][j], pos["held"]
    other = Game.from_position(g.rules, pos)
    assert other.view(holder)["held"] != g.view(holder)["held"]
    for seat in range(6):
        for codes in (False, True):
            a, b = g.view(seat, codes=codes), other.view(seat, codes=codes)
            assert a["stock_cards"] == b["stock_cards"]
            if seat != holder:
                assert a == b  # nothing in another seat's view tells the two apart
    # The holder's list is the others' list: it does not leave its own card out.
    assert g.view(holder)["stock_cards"] == g.view((holder + 1) % 6)["stock_cards"]


def test_peeked_cells_show_where_but_never_what() -> None:
    g = Game("german", players=3, seed=4)
    g.apply("peek 4")
    g.apply("peek 6")
    g.apply("peek 5")
    for seat in range(3):
        v = g.view(seat)
        assert v["peeked_cells"] == [[4, 6], [5], []]
        if seat != 0:
            assert v["grids"][0][3] is None and v["grids"][0][5] is None
            assert v["peeked"] == ([5] if seat == 1 else [])
    assert g.view(0)["grids"][0][3] is not None
    assert g.view(0)["peeked"] == [4, 6]
    # A peeked card swapped out goes face up: it is no longer a peeked face-down cell.
    g.apply("peek 4")  # seat 1's second, then seat 2's two
    g.apply("peek 5")
    g.apply("peek 4")
    assert g.current_player == 0 and g.phase == "turn"
    assert g.view(2)["peeked_cells"] == [[4, 6], [4, 5], [4, 5]]
    g.apply("draw")
    g.apply("swap 4")
    for seat in range(3):
        assert g.view(seat)["peeked_cells"][0] == [6]
    check_public(g)


def test_peeked_cells_drop_cells_flipped_face_up() -> None:
    g = Game("four-card-wild", players=2, seed=2, rules={"flip_instead_of_draw": True})
    first = g.current_player
    assert first is not None
    g.apply("peek 3")
    g.apply("peek 4")
    g.apply("peek 3")
    g.apply("peek 4")
    assert g.view(1 - first)["peeked_cells"][first] == [3, 4]
    g.apply("flip 3")
    assert g.view(1 - first)["peeked_cells"][first] == [4]
    assert g.view(first)["peeked"] == [3, 4]  # the seat's own list keeps what it saw
    check_public(g)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policy=SEEDS, players=st.integers(min_value=2, max_value=6))
def test_public_fields_through_random_play(seed: int, policy: int, players: int) -> None:
    """In whole random holes of a reshuffling variant, after every action."""
    g = Game("german", players=players, seed=seed, rules={"holes": 1, "target": 0})
    rng = random.Random(policy)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        check_public(g)
