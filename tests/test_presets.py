"""Unit tests per rule of every preset, played through the public API.

Positions are set up by playing chosen actions from fixed seeds; where a scenario needs
a rare deal (a tie for the lowest total, say) the test searches seeds deterministically.
Every test name starts with its preset; docs/rules.md points at these names.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

import golf
from golf import Game
from golf.cards import JOKER, rank

# --- helpers ---------------------------------------------------------------------------


def names(actions: Iterable[golf.Action]) -> list[str]:
    return [str(a) for a in actions]


def play(g: Game, *actions: str) -> None:
    for a in actions:
        g.apply(a)


def setup(g: Game, positions: tuple[int, ...] = (1, 2)) -> None:
    """Every player reveals (or peeks at) ``positions`` until the setup phase is over."""
    while g.phase == "setup":
        kind = g.legal_actions()[0].kind
        for p in positions:
            g.apply(f"{kind} {p}")


def idle(g: Game) -> None:
    """A turn that changes no grid: draw, discard, and decline the flip where allowed."""
    play(g, "draw", "discard")
    if g.phase == "flip":
        g.apply("pass")


def random_play(g: Game, rng: random.Random, until: Callable[[Game], bool]) -> None:
    while not g.is_over and not until(g):
        g.apply(rng.choice(g.legal_actions()))


def full_match(variant: str, players: int, seed: int, **rules: Any) -> Game:
    g = Game(variant, players=players, seed=seed, rules=rules or None)
    random_play(g, random.Random(seed), lambda g: False)
    return g


def first_hole(variant: str, players: int, seed: int) -> tuple[list[str], list[int]]:
    """The actions of a random first hole and the totals after it."""
    g = Game(variant, players=players, seed=seed)
    random_play(g, random.Random(seed), lambda g: bool(g.hole_results))
    return names(g.history), g.totals


def replay(variant: str, players: int, seed: int, actions: list[str], **rules: Any) -> Game:
    g = Game(variant, players=players, seed=seed, rules=rules or None)
    play(g, *actions)
    return g


def own(g: Game, seat: int) -> list[str | None]:
    grid: list[str | None] = g.view(seat)["grids"][seat]
    return grid


def deck_ranks(g: Game) -> collections.Counter[int]:
    return collections.Counter(rank(c) for c in g.census())


def check_hole_scored(g: Game, number: int) -> None:
    """Each hole's score is the scorer's total of the revealed grid."""
    h = g.hole_results[number - 1]
    for seat, grid in enumerate(h.grids):
        if grid:
            assert h.scores[seat] == golf.score(list(grid), g.rules).total


DECKS = {  # cards in play by player count
    "six-card": {n: 52 if n <= 3 else 104 for n in range(2, 9)},
    "six-card-knock": {n: 52 if n <= 3 else 104 for n in range(2, 9)},
    "four-card": {n: 52 if n <= 3 else 104 for n in range(3, 8)},
    "four-card-wild": {n: 54 if n <= 5 else 108 for n in range(2, 9)},
    "nine-card": {n: 52 if n <= 3 else 104 for n in range(1, 9)},
    "german": {n: 52 for n in range(2, 7)},
}


@pytest.mark.parametrize("variant", sorted(DECKS))
def test_deck_counts_by_player_count(variant: str) -> None:
    lo, hi = golf.load_rules(variant).players
    assert sorted(DECKS[variant]) == list(range(lo, hi + 1))
    for players, cards in DECKS[variant].items():
        g = Game(variant, players=players, seed=players)
        assert len(g.census()) == cards
        jokers = 2 * (cards // 54) if variant == "four-card-wild" else 0
        assert deck_ranks(g)[JOKER] == jokers


@pytest.mark.parametrize("variant, players", [
    ("six-card", 3), ("six-card-knock", 4), ("four-card", 5), ("four-card-wild", 3),
    ("nine-card", 4), ("german", 3),
])
def test_every_preset_rotates_the_deal_and_left_of_the_dealer_starts(
    variant: str, players: int
) -> None:
    # Four regular holes, no playoff: a playoff hole deals only to the tied players.
    g = Game(variant, players=players, seed=3,
             rules={"holes": 4, "target": 0, "tie_break": "share"})
    rng = random.Random(3)
    seen: list[tuple[int, int, int | None]] = []
    while not g.is_over:
        if not seen or seen[-1][0] != g.hole:
            seen.append((g.hole, g.dealer, g.current_player))
        g.apply(rng.choice(g.legal_actions()))
    assert seen == [(h, (h - 2) % players, (h - 1) % players) for h in range(1, 5)]


# ======================================================================================
# six-card
# ======================================================================================


def test_six_card_grid_is_two_rows_of_three_dealt_face_down() -> None:
    g = Game("six-card", players=3, seed=1)
    v = g.view(0)
    assert (v["rows"], v["cols"]) == (2, 3)
    assert v["grids"] == [[None] * 6] * 3
    assert v["face_up"] == [[False] * 6] * 3
    assert v["stock_size"] == 52 - 3 * 6 - 1
    assert len(v["discard"]) == 1 and v["discard_top"] is not None


def test_six_card_deck_is_one_deck_for_two_or_three_and_two_for_four_or_more() -> None:
    assert len(Game("six-card", players=3, seed=0).census()) == 52
    assert len(Game("six-card", players=4, seed=0).census()) == 104
    assert deck_ranks(Game("six-card", players=8, seed=0))[JOKER] == 0


def test_six_card_setup_turns_any_two_cards_face_up() -> None:
    g = Game("six-card", players=2, seed=3)
    assert g.phase == "setup" and g.current_player == 0
    assert names(g.legal_actions()) == [f"reveal {i}" for i in range(1, 7)]
    g.apply("reveal 5")
    assert "reveal 5" not in names(g.legal_actions())
    with pytest.raises(golf.IllegalAction, match="already chose position 5"):
        g.apply("reveal 5")
    with pytest.raises(golf.IllegalAction, match="this variant starts with 'reveal N'"):
        g.apply("peek 1")
    g.apply("reveal 3")
    assert g.current_player == 1 and g.phase == "setup"
    # Revealed cards are face up for everybody.
    assert g.view(1)["face_up"][0] == [False, False, True, False, True, False]
    assert g.view(1)["grids"][0] == g.view(0)["grids"][0]
    assert g.view(1)["grids"][0][2] is not None
    play(g, "reveal 1", "reveal 6")
    assert g.phase == "turn" and g.current_player == 0
    assert [sum(f) for f in g.view(0)["face_up"]] == [2, 2]


def test_six_card_turn_is_draw_or_take_without_knocking() -> None:
    g = Game("six-card", players=2, seed=4)
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take"]
    with pytest.raises(golf.IllegalAction, match="this variant has no knocking"):
        g.apply("knock")
    with pytest.raises(golf.IllegalAction, match="must first draw"):
        g.apply("flip 3")


def test_six_card_taken_discard_must_be_swapped_not_discarded() -> None:
    g = Game("six-card", players=2, seed=5)
    setup(g)
    top = g.view(0)["discard_top"]
    g.apply("take")
    assert g.phase == "hold"
    assert names(g.legal_actions()) == [f"swap {i}" for i in range(1, 7)]
    with pytest.raises(golf.IllegalAction, match="taken from the discard pile must be swapped"):
        g.apply("discard")
    g.apply("swap 4")
    assert own(g, 0)[3] == top and g.view(0)["face_up"][0][3]
    # The replaced card lands face up on the discard pile, seen by everyone.
    assert g.view(1)["discard_top"] is not None and g.view(1)["grids"][0][3] == top


def test_six_card_drawn_card_is_swapped_or_discarded() -> None:
    g = Game("six-card", players=2, seed=6)
    setup(g)
    g.apply("draw")
    assert names(g.legal_actions()) == [f"swap {i}" for i in range(1, 7)] + ["discard"]
    held = g.view(0)["held"]
    g.apply("swap 6")
    assert own(g, 0)[5] == held and g.view(1)["grids"][0][5] == held


def test_six_card_swap_may_replace_a_face_up_card() -> None:
    g = Game("six-card", players=2, seed=7)
    setup(g)
    old = own(g, 0)[0]
    assert old is not None
    play(g, "draw", "swap 1")
    assert g.view(1)["discard_top"] == old


def test_six_card_flip_after_discarding_the_drawn_card_is_optional() -> None:
    g = Game("six-card", players=2, seed=8)
    setup(g)
    play(g, "draw", "discard")
    assert g.phase == "flip" and g.current_player == 0
    assert names(g.legal_actions()) == ["flip 3", "flip 4", "flip 5", "flip 6", "pass"]
    with pytest.raises(golf.IllegalAction, match="position 1 is already face up"):
        g.apply("flip 1")
    before = g.view(0)["face_up"][0]
    g.apply("pass")
    assert g.current_player == 1 and g.view(0)["face_up"][0] == before
    play(g, "draw", "discard", "flip 5")
    assert g.view(0)["face_up"][1][4] and g.view(0)["grids"][1][4] is not None


def test_six_card_going_out_gives_every_other_player_one_final_turn() -> None:
    g = Game("six-card", players=3, seed=9)
    setup(g)
    for cell in (3, 4, 5, 6):
        assert g.current_player == 0
        play(g, "draw", "discard", f"flip {cell}")
        if cell < 6:
            idle(g)
            idle(g)
    assert g.view(1)["final_turns_from"] == 0 and g.current_player == 1
    assert "knock" not in names(g.legal_actions())
    idle(g)
    assert g.hole == 1 and g.current_player == 2  # the last final turn is still to come
    idle(g)
    assert g.hole == 2 and len(g.hole_results) == 1
    h = g.hole_results[0]
    assert h.went_out == 0 and h.knocked_by is None
    check_hole_scored(g, 1)


def test_six_card_final_turns_off_ends_the_hole_at_once() -> None:
    g = Game("six-card", players=3, seed=9, rules={"final_turns": False})
    setup(g)
    for cell in (3, 4, 5, 6):
        play(g, "draw", "discard", f"flip {cell}")
        if cell < 6:
            idle(g)
            idle(g)
    assert len(g.hole_results) == 1 and g.hole == 2
    assert g.hole_results[0].went_out == 0


def test_six_card_going_out_by_a_swap() -> None:
    g = Game("six-card", players=2, seed=10)
    setup(g)
    for cell in (3, 4, 5, 6):
        play(g, "draw", f"swap {cell}")
        if cell < 6:
            idle(g)
    assert g.view(1)["final_turns_from"] == 0
    idle(g)
    assert g.hole_results[0].went_out == 0


def test_six_card_hole_end_reveals_everything_and_scores_each_grid() -> None:
    g = Game("six-card", players=4, seed=11)
    random_play(g, random.Random(11), lambda g: bool(g.hole_results))
    last = g.view(2)["last_hole"]
    assert all(card is not None for grid in last["grids"] for card in grid)
    for seat in range(4):
        assert last["scores"][seat] == golf.score(last["grids"][seat], "six-card").total
        assert g.score_hole(seat).total == last["scores"][seat]
    check_hole_scored(g, 1)
    assert g.hole_scores == [last["scores"]] and g.totals == last["scores"]


def test_six_card_scoring_values_and_column_pairs() -> None:
    assert golf.score("A 2 3 / 4 5 6", "six-card").total == 1 - 2 + 3 + 4 + 5 + 6
    assert golf.score("7 8 9 / 10 J Q", "six-card").total == 7 + 8 + 9 + 10 + 10 + 10
    assert golf.score("K K 3 / K Q 3", "six-card").total == 10
    assert golf.score("2 K K / 2 Q J", "six-card").total == 20  # a pair of 2s scores 0


def test_six_card_match_is_nine_holes_and_lowest_total_wins() -> None:
    g = full_match("six-card", 3, seed=12)
    assert g.is_over and g.current_player is None and g.phase == "over"
    assert len(g.hole_scores) == 9 and g.hole == 9
    assert g.totals == [sum(h[s] for h in g.hole_scores) for s in range(3)]
    assert g.winners == [s for s in range(3) if g.totals[s] == min(g.totals)]
    assert g.legal_actions() == []


def test_six_card_eighteen_holes_by_setting() -> None:
    g = full_match("six-card", 2, seed=13, holes=18)
    assert len(g.hole_scores) == 18


def test_six_card_tied_lowest_totals_share_the_win() -> None:
    # Every card worth 0: every grid scores 0, so all three tie and share the win.
    zero = {name: 0 for name in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                 "Q", "K")}
    g = full_match("six-card", 3, seed=14, holes=2, points=zero)
    assert g.totals == [0, 0, 0] and g.winners == [0, 1, 2]
    assert g.playoff_scores == [] and len(g.hole_results) == 2


def test_six_card_dealer_rotates_and_the_player_left_of_the_dealer_starts() -> None:
    g = Game("six-card", players=3, seed=15)
    rng = random.Random(15)
    seen: list[tuple[int, int, int | None]] = []
    while not g.is_over:
        if not seen or seen[-1][0] != g.hole:
            seen.append((g.hole, g.dealer, g.current_player))
        g.apply(rng.choice(g.legal_actions()))
    # Hole 1: seat 0 starts (the dealer is the last seat); then the deal passes on.
    assert seen == [(h, (h - 2) % 3, (h - 1) % 3) for h in range(1, 10)]


def test_six_card_reshuffles_the_discard_pile_when_the_stock_runs_out() -> None:
    g = Game("six-card", players=2, seed=16)
    setup(g)
    deck = sorted(g.census())
    while g.stock_size:
        idle(g)
    v = g.view(g.current_player or 0)
    pile, top = len(v["discard"]), v["discard_top"]
    assert pile == 52 - 12 and g.hole == 1
    g.apply("draw")
    after = g.view(1)
    # All but the top card became the new stock; one of them is now in the player's hand.
    assert after["discard"] == [top]
    assert g.stock_size == pile - 2
    assert sorted(g.census()) == deck


def test_six_card_hole_ends_if_the_stock_is_empty_and_cannot_be_refilled() -> None:
    g = Game("six-card", players=2, seed=16, rules={"reshuffle": False})
    setup(g)
    turns = 0
    while g.hole == 1:
        idle(g)
        turns += 1
    assert turns == 52 - 12 - 1  # one card drawn per turn until the stock was empty
    assert len(g.hole_results) == 1 and g.hole_results[0].went_out is None
    assert all(c is not None for grid in g.view(0)["last_hole"]["grids"] for c in grid)


def test_six_card_turn_limit_ends_a_hole_that_never_ends_otherwise() -> None:
    g = Game("six-card", players=2, seed=17, rules={"turn_limit": 10})
    setup(g)
    for _ in range(9):
        idle(g)
    assert g.hole == 1 and sum(g.view(0)["turns"]) == 9
    idle(g)
    assert g.hole == 2 and len(g.hole_results) == 1


def test_six_card_jokers_are_out_by_default_and_score_minus_two_if_added() -> None:
    assert deck_ranks(Game("six-card", players=2, seed=0))[JOKER] == 0
    g = Game("six-card", players=4, seed=0, rules={"jokers_per_deck": 2})
    assert deck_ranks(g)[JOKER] == 4 and len(g.census()) == 108
    with_jokers = {"jokers_per_deck": 2}
    assert golf.score("JK 3 4 / 5 6 7", "six-card", with_jokers).total == -2 + 25
    # Not wild: a joker does not cancel a column with a 7.
    assert golf.score("JK 3 4 / 7 6 7", "six-card", with_jokers).total == -2 + 27


# ======================================================================================
# six-card-knock
# ======================================================================================


def test_six_card_knock_allowed_on_a_first_turn() -> None:
    # 000: a player knocks "instead of taking their turn", with no exception for the
    # first turn of a hole (the old reading forbade it).
    g = Game("six-card-knock", players=2, seed=20)
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take", "knock"]
    g.apply("knock")
    assert g.current_player == 1 and g.view(1)["knocked_by"] == 0
    assert names(g.legal_actions()) == ["draw", "take"]
    idle(g)  # seat 1's one final turn ends the hole
    assert g.hole == 2 and g.hole_results[0].knocked_by == 0
    check_hole_scored(g, 1)


def test_six_card_knock_not_on_a_first_turn_by_setting() -> None:
    g = Game("six-card-knock", players=2, seed=20, rules={"knock_first_turn": False})
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take"]
    with pytest.raises(golf.IllegalAction, match="may not knock on your first turn"):
        g.apply("knock")
    idle(g)
    assert names(g.legal_actions()) == ["draw", "take"]  # seat 1's first turn
    idle(g)
    assert names(g.legal_actions()) == ["draw", "take", "knock"]


def test_six_card_knock_gives_each_other_player_one_turn_then_all_reveal() -> None:
    g = Game("six-card-knock", players=3, seed=21)
    setup(g)
    for _ in range(3):
        idle(g)
    grid = own(g, 0)
    g.apply("knock")  # the knock is seat 0's whole turn
    assert own(g, 0) == grid and g.current_player == 1 and g.phase == "turn"
    assert g.view(1)["knocked_by"] == 0
    assert names(g.legal_actions()) == ["draw", "take"]
    idle(g)
    with pytest.raises(golf.IllegalAction, match="already ending"):
        g.apply("knock")
    idle(g)
    assert len(g.hole_results) == 1 and g.hole == 2
    h = g.hole_results[0]
    assert h.knocked_by == 0 and h.went_out is None
    check_hole_scored(g, 1)


def test_six_card_knock_completing_the_grid_does_not_end_the_round() -> None:
    g = Game("six-card-knock", players=2, seed=22)
    setup(g)
    for cell in (3, 4, 5, 6):
        play(g, "draw", "discard", f"flip {cell}")
        idle(g)
    assert g.view(0)["face_up"][0] == [True] * 6 and g.hole == 1
    assert g.current_player == 0
    assert names(g.legal_actions()) == ["draw", "take", "knock"]
    play(g, "draw", "discard")  # nothing left to flip: the turn ends at once
    assert g.current_player == 1


def test_six_card_knock_match_still_nine_holes() -> None:
    g = full_match("six-card-knock", 4, seed=23)
    assert len(g.hole_scores) == 9
    # Completing a grid never ends the round here: every hole ended by a knock.
    assert all(h.knocked_by is not None and h.went_out is None for h in g.hole_results)


# ======================================================================================
# four-card
# ======================================================================================


def test_four_card_two_by_two_for_three_to_seven_players() -> None:
    assert golf.load_rules("four-card").players == (3, 7)
    for bad in (2, 8):
        with pytest.raises(golf.RulesError, match="four-card is for 3 to 7 players"):
            Game("four-card", players=bad)
    g = Game("four-card", players=3, seed=30)
    assert (g.view(0)["rows"], g.view(0)["cols"]) == (2, 2)
    assert g.view(0)["grids"] == [[None] * 4] * 3


def test_four_card_reveals_two_before_play() -> None:
    g = Game("four-card", players=3, seed=31)
    assert names(g.legal_actions()) == ["reveal 1", "reveal 2", "reveal 3", "reveal 4"]
    setup(g, (2, 3))
    assert g.view(1)["face_up"] == [[False, True, True, False]] * 3


def test_four_card_plays_like_six_card() -> None:
    g = Game("four-card", players=3, seed=32)
    setup(g)
    play(g, "take")
    assert "discard" not in names(g.legal_actions())
    g.apply("swap 1")
    play(g, "draw", "discard")
    assert names(g.legal_actions()) == ["flip 3", "flip 4", "pass"]


def test_four_card_round_ends_by_knocking_with_one_final_turn_each() -> None:
    g = Game("four-card", players=3, seed=33)
    setup(g)
    for cell in (3, 4):  # seat 0 completes its grid: the round goes on
        play(g, "draw", "discard", f"flip {cell}")
        idle(g)
        idle(g)
    assert g.hole == 1 and g.view(0)["face_up"][0] == [True] * 4
    assert g.current_player == 0
    g.apply("knock")
    idle(g)
    idle(g)
    assert g.hole == 2 and g.hole_results[0].knocked_by == 0
    check_hole_scored(g, 1)


def test_four_card_knock_on_a_first_turn() -> None:
    g = Game("four-card", players=3, seed=34)
    setup(g)
    for _ in range(3):  # every player may knock on their first turn
        assert "knock" in names(g.legal_actions())
        idle(g)
    g = Game("four-card", players=3, seed=34, rules={"knock_first_turn": False})
    setup(g)
    for _ in range(3):
        assert "knock" not in names(g.legal_actions())
        idle(g)
    assert "knock" in names(g.legal_actions())


# ======================================================================================
# four-card-wild
# ======================================================================================


def test_four_card_wild_players_peek_at_two_cards_privately() -> None:
    g = Game("four-card-wild", players=3, seed=40)
    assert names(g.legal_actions()) == ["peek 1", "peek 2", "peek 3", "peek 4"]
    with pytest.raises(golf.IllegalAction, match="starts with 'peek N'"):
        g.apply("reveal 1")
    play(g, "peek 1", "peek 4")
    mine = own(g, 0)
    assert mine[0] is not None and mine[3] is not None and mine[1] is None and mine[2] is None
    assert g.view(0)["peeked"] == [1, 4]
    for other in (1, 2):
        assert g.view(other)["grids"][0] == [None] * 4
        assert g.view(other)["peeked"] == []
    assert g.view(0)["face_up"][0] == [False] * 4  # a peek turns nothing face up
    setup(g)
    assert g.phase == "turn"
    # Peeked cards stay known to their owner (they remember them) and to nobody else,
    # but there is no more looking once play has begun.
    assert own(g, 0) == mine
    with pytest.raises(golf.IllegalAction, match="must first draw"):
        g.apply("peek 2")


def test_four_card_wild_deck_has_jokers_single_below_six_double_from_six() -> None:
    for players, cards in ((2, 54), (4, 54), (5, 54), (6, 108), (8, 108)):
        g = Game("four-card-wild", players=players, seed=0)
        assert len(g.census()) == cards
        assert deck_ranks(g)[JOKER] == 2 * (cards // 54)


def test_four_card_wild_draw_or_take_then_discard_or_replace_a_face_down_card() -> None:
    g = Game("four-card-wild", players=2, seed=41)
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take"]
    top = g.view(0)["discard_top"]
    g.apply("take")
    # The taken card may be discarded again (text 001: "the card just drawn").
    assert names(g.legal_actions()) == ["swap 1", "swap 2", "swap 3", "swap 4", "discard"]
    g.apply("swap 2")
    assert own(g, 0)[1] == top and g.view(1)["face_up"][0][1]


def test_four_card_wild_face_up_cards_may_never_be_replaced() -> None:
    g = Game("four-card-wild", players=2, seed=42)
    setup(g)
    play(g, "draw", "swap 3")
    idle_flip = ["draw", "discard", "flip 1"]
    play(g, *idle_flip)  # seat 1
    g.apply("draw")
    assert names(g.legal_actions()) == ["swap 1", "swap 2", "swap 4", "discard"]
    with pytest.raises(golf.IllegalAction, match="only face-down cards may be replaced"):
        g.apply("swap 3")


def test_four_card_wild_discarding_the_drawn_card_forces_a_flip() -> None:
    g = Game("four-card-wild", players=2, seed=43)
    setup(g)
    play(g, "draw", "discard")
    assert g.phase == "flip"
    assert names(g.legal_actions()) == ["flip 1", "flip 2", "flip 3", "flip 4"]
    with pytest.raises(golf.IllegalAction, match="must turn one face-down card up"):
        g.apply("pass")
    g.apply("flip 2")
    assert g.view(1)["face_up"][0] == [False, True, False, False]


def test_four_card_wild_discarding_a_taken_card_also_forces_a_flip() -> None:
    g = Game("four-card-wild", players=2, seed=44)
    setup(g)
    top = g.view(0)["discard_top"]
    play(g, "take", "discard")
    assert g.view(1)["discard_top"] == top
    assert g.phase == "flip" and "pass" not in names(g.legal_actions())


def test_four_card_wild_hole_goes_on_until_every_grid_is_face_up() -> None:
    g = Game("four-card-wild", players=3, seed=45)
    setup(g)
    turns = 0
    while g.hole == 1:
        seat = g.current_player
        assert seat is not None
        down = [i + 1 for i, up in enumerate(g.view(seat)["face_up"][seat]) if not up]
        play(g, "draw", "discard", f"flip {down[0]}")
        turns += 1
        if turns == 10:  # seat 0 is all face up, the others are not: the hole goes on
            assert g.hole == 1 and g.view(0)["face_up"][0] == [True] * 4
            assert g.view(0)["face_up"][2].count(True) == 3
    # Every turn turns one card up, so each player had exactly four turns.
    assert turns == 12
    assert g.hole_results[0].went_out is None
    check_hole_scored(g, 1)


def test_four_card_wild_a_player_all_face_up_is_skipped() -> None:
    # With the optional flip (a house setting) seat 1 can fall behind; once seat 0 is all
    # face up it has nothing to replace, so seat 1 plays on alone until it is done.
    g = Game("four-card-wild", players=2, seed=46, rules={"flip_after_discard": "may"})
    setup(g)
    for cell in (1, 2, 3, 4):
        play(g, "draw", "discard", f"flip {cell}")
        idle(g)
    assert g.view(1)["face_up"][0] == [True] * 4 and g.view(1)["face_up"][1] == [False] * 4
    for cell in (1, 2, 3):
        assert g.current_player == 1
        play(g, "draw", "discard", f"flip {cell}")
    assert g.current_player == 1 and g.hole == 1
    play(g, "draw", "swap 4")
    assert g.hole == 2


def test_four_card_wild_every_player_finishes_on_their_fourth_turn() -> None:
    # Decision 7: every turn turns exactly one card up, so the first players are all face
    # up while the others play their fourth turn, but nobody all face up is ever to play.
    waited = 0
    for seed in range(15):
        players = 2 + seed % 5
        g = Game("four-card-wild", players=players, seed=seed)
        rng = random.Random(seed)
        setup(g)
        turns = [0] * players
        while g.hole == 1:
            assert g.phase == "turn"
            seat = g.current_player
            assert seat == sum(turns) % players  # nobody is skipped
            assert g.view(seat)["face_up"][seat].count(True) == turns[seat]
            waited += seat != 0 and all(g.view(0)["face_up"][0])
            turns[seat] += 1
            g.apply(rng.choice(g.legal_actions()))
            while g.hole == 1 and g.phase != "turn":
                g.apply(rng.choice(g.legal_actions()))
        assert turns == [4] * players
    assert waited > 0


def test_four_card_wild_each_player_looks_at_exactly_two_cards() -> None:
    # Decision: 001's "only two" is the most a player may look at, and looking is
    # free, so everyone looks at two; there is no way to stop after one.
    g = Game("four-card-wild", players=2, seed=48)
    g.apply("peek 3")
    assert g.current_player == 0
    assert names(g.legal_actions()) == ["peek 1", "peek 2", "peek 4"]
    with pytest.raises(golf.IllegalAction):
        g.apply("draw")
    g.apply("peek 1")
    assert g.current_player == 1 and g.phase == "setup"
    setup(g)
    assert g.phase == "turn" and g.view(0)["peeked"] == [1, 3]


def test_four_card_wild_scoring_any_pair_and_wild_jokers() -> None:
    assert golf.score("A 7 / 10 Q", "four-card-wild").total == 1 + 7 + 10 + 10
    assert golf.score("K 2 / 3 4", "four-card-wild").total == 9  # 2 counts face value
    assert golf.score("9 4 / 6 9", "four-card-wild").total == 10  # any pair, not only columns
    assert golf.score("JK 4 / 6 Q", "four-card-wild").total == 10  # joker pairs with the queen
    assert golf.score("JK 4 / 6 5", "four-card-wild").total == 9  # joker pairs with the 6
    assert golf.score("JK K / K K", "four-card-wild").total == 0


def test_four_card_wild_nine_rounds_each_with_a_winner() -> None:
    g = full_match("four-card-wild", 4, seed=47)
    assert len(g.hole_scores) == 9 and len(g.hole_winners) == 9
    for scores, winners in zip(g.hole_scores, g.hole_winners, strict=True):
        assert winners == [s for s in range(4) if scores[s] == min(scores)]


# ======================================================================================
# nine-card
# ======================================================================================


def test_nine_card_three_by_three_with_two_cards_turned_up() -> None:
    g = Game("nine-card", players=2, seed=50)
    assert (g.view(0)["rows"], g.view(0)["cols"]) == (3, 3)
    assert names(g.legal_actions()) == [f"reveal {i}" for i in range(1, 10)]
    setup(g, (1, 9))
    assert g.phase == "turn"
    assert [sum(f) for f in g.view(0)["face_up"]] == [2, 2]


def test_nine_card_decks_one_for_up_to_three_two_from_four() -> None:
    assert [len(Game("nine-card", players=n, seed=0).census()) for n in range(1, 9)] == (
        [52] * 3 + [104] * 5)


def test_nine_card_plays_like_six_card() -> None:
    g = Game("nine-card", players=2, seed=56)
    setup(g)
    g.apply("take")
    assert "discard" not in names(g.legal_actions())
    g.apply("swap 5")
    play(g, "draw", "discard")
    assert g.phase == "flip" and "pass" in names(g.legal_actions())


def test_nine_card_solitaire_for_one_player() -> None:
    g = Game("nine-card", players=1, seed=51)
    setup(g)
    assert g.current_player == 0
    idle(g)
    assert g.current_player == 0  # always the solitaire player's turn
    g = full_match("nine-card", 1, seed=51)
    assert g.is_over and g.winners == [0]


def test_nine_card_column_needs_three_of_a_kind() -> None:
    assert golf.score("5 K K / 5 K K / 5 K K", "nine-card").total == 0
    # A pair in a column of three is not enough.
    assert golf.score("5 A A / 5 3 4 / 7 6 8", "nine-card").total == 40
    assert golf.score("2 K K / 2 K K / 2 K K", "nine-card").total == 0


def test_nine_card_hole_ends_at_once_when_a_grid_is_all_face_up() -> None:
    g = Game("nine-card", players=3, seed=52)
    setup(g)
    for cell in range(3, 10):
        assert g.current_player == 0
        play(g, "draw", "discard", f"flip {cell}")
        if cell < 9:
            idle(g)
            idle(g)
    # No further turns: the hole was scored the moment seat 0's grid was face up (and
    # either the next hole's setup began or, past 50, the match ended).
    assert len(g.hole_results) == 1 and g.phase in ("setup", "over")
    assert g.hole_results[0].went_out == 0
    assert g.view(0)["hole_scores"][0] == list(g.hole_results[0].scores)
    check_hole_scored(g, 1)


def test_nine_card_match_is_nine_holes_or_until_a_total_exceeds_50() -> None:
    ended_by_target = ended_by_holes = 0
    # Random play passes 50 at once; with every card worth 0 nobody ever passes it.
    zero = {"points": {name: 0 for name in ("A", "2", "3", "4", "5", "6", "7", "8", "9",
                                            "10", "J", "Q", "K")}}
    for seed in range(20):
        g = full_match("nine-card", 2, seed=seed, **(zero if seed % 2 else {}))
        running = [0, 0]
        for i, scores in enumerate(g.hole_scores):
            running = [a + b for a, b in zip(running, scores, strict=True)]
            if i < len(g.hole_scores) - 1:
                assert max(running) <= 50  # the match did not end early
        assert running == g.totals
        if max(g.totals) > 50:
            ended_by_target += 1
        else:
            assert len(g.hole_scores) == 9
            ended_by_holes += 1
    assert ended_by_target and ended_by_holes


def seed_with_total(variant: str, players: int, low: int) -> tuple[int, list[str], list[int]]:
    """A seed whose random first hole leaves the highest total at ``low`` or more."""
    for seed in range(500):
        actions, totals = first_hole(variant, players, seed)
        if max(totals) >= low:
            return seed, actions, totals
    raise AssertionError("no seed found")  # pragma: no cover


def test_nine_card_target_must_be_exceeded_not_just_reached() -> None:
    seed, actions, totals = seed_with_total("nine-card", 2, 5)
    top = max(totals)
    assert not replay("nine-card", 2, seed, actions, target=top).is_over
    assert replay("nine-card", 2, seed, actions, target=top - 1).is_over


def test_nine_card_target_100_by_setting() -> None:
    g = full_match("nine-card", 3, seed=53, target=100)
    assert max(g.totals) > 100 or len(g.hole_scores) == 9
    assert all(max(sum(h[s] for h in g.hole_scores[:k]) for s in range(3)) <= 100
               for k in range(len(g.hole_scores)))


def test_nine_card_option_flip_instead_of_drawing() -> None:
    g = Game("nine-card", players=2, seed=54)
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take"]
    g = Game("nine-card", players=2, seed=54, rules={"flip_instead_of_draw": True})
    setup(g)
    assert names(g.legal_actions()) == ["draw", "take"] + [f"flip {i}" for i in range(3, 10)]
    g.apply("flip 5")
    assert g.current_player == 1 and g.view(1)["face_up"][0][4]


def test_nine_card_option_jokers_at_minus_four() -> None:
    g = Game("nine-card", players=4, seed=55, rules={"jokers_per_deck": 2})
    assert deck_ranks(g)[JOKER] == 4
    assert golf.score("JK K K / 3 K K / 4 K K", "nine-card", {"jokers_per_deck": 2}).total == 3


def test_nine_card_options_rows_diagonals_adjacent_and_blocks() -> None:
    def total(grid: str, *patterns: str) -> int:
        return golf.score(grid, "nine-card", {"match": ["columns", *patterns]}).total

    assert total("7 7 7 / A 3 4 / 5 6 8") == 21 + 27
    assert total("7 7 7 / A 3 4 / 5 6 8", "rows") == 27
    assert total("7 A 3 / 4 7 5 / 6 8 7", "diagonals") == 27
    assert total("7 7 A / 3 4 5 / 6 8 9", "adjacent") == 36
    assert total("7 7 A / 7 7 3 / 4 5 6", "blocks") == -25 + 19


# ======================================================================================
# german
# ======================================================================================


def test_german_two_to_six_players_one_52_card_deck() -> None:
    assert golf.load_rules("german").players == (2, 6)
    assert len(Game("german", players=6, seed=0).census()) == 52
    assert deck_ranks(Game("german", players=6, seed=0))[JOKER] == 0
    with pytest.raises(golf.RulesError, match="german is for 2 to 6 players"):
        Game("german", players=7)


def test_german_layout_is_two_rows_of_three() -> None:
    g = Game("german", players=2, seed=60)
    assert (g.view(0)["rows"], g.view(0)["cols"]) == (2, 3)


def test_german_peek_at_any_two_privately() -> None:
    g = Game("german", players=2, seed=61)
    assert names(g.legal_actions()) == [f"peek {i}" for i in range(1, 7)]
    play(g, "peek 2", "peek 6")
    assert g.view(0)["peeked"] == [2, 6]
    assert [c is not None for c in own(g, 0)] == [False, True, False, False, False, True]
    assert g.view(1)["grids"][0] == [None] * 6
    assert g.view(0)["face_up"][0] == [False] * 6


def test_german_peek_bottom_row_by_setting() -> None:
    g = Game("german", players=2, seed=62, rules={"setup_cells": "bottom-row"})
    assert names(g.legal_actions()) == ["peek 4", "peek 5", "peek 6"]
    with pytest.raises(golf.IllegalAction, match="only positions 4, 5, 6 may be chosen"):
        g.apply("peek 1")


def test_german_taken_discard_must_be_swapped() -> None:
    g = Game("german", players=2, seed=63)
    setup(g)
    top = g.view(0)["discard_top"]
    g.apply("take")
    assert "discard" not in names(g.legal_actions())
    with pytest.raises(golf.IllegalAction, match="must be swapped"):
        g.apply("discard")
    g.apply("swap 3")
    assert g.view(1)["grids"][0][2] == top
    assert g.view(1)["discard_top"] is not None  # the old card lies face up on the pile


def test_german_drawn_card_swapped_or_discarded_without_a_flip() -> None:
    g = Game("german", players=2, seed=64)
    setup(g)
    g.apply("draw")
    assert names(g.legal_actions()) == [f"swap {i}" for i in range(1, 7)] + ["discard"]
    held = g.view(0)["held"]
    g.apply("discard")
    # The turn is over: no flip, the grid is unchanged.
    assert g.phase == "turn" and g.current_player == 1
    assert g.view(1)["discard_top"] == held
    assert g.view(1)["face_up"][0] == [False] * 6


def test_german_last_card_face_up_gives_each_other_player_exactly_one_turn() -> None:
    g = Game("german", players=3, seed=65)
    setup(g)
    for cell in range(1, 7):
        assert g.current_player == 0
        play(g, "draw", f"swap {cell}")
        if cell < 6:
            idle(g)
            idle(g)
    assert g.view(2)["final_turns_from"] == 0
    idle(g)
    assert g.hole == 1
    idle(g)
    assert g.hole == 2 and g.hole_results[0].went_out == 0
    check_hole_scored(g, 1)


def test_german_column_of_the_same_rank_scores_zero_and_twos_count_two() -> None:
    assert golf.score("7 2 3 / 7 4 5", "german").total == 14
    assert golf.score("2 K K / 3 K K", "german").total == 5
    assert golf.score("2 K K / 3 K K", "german", {"points.2": -2}).total == 1
    assert golf.score("10 A A / J A A", "german").total == 20  # same points, not same rank


def test_german_rows_by_agreement() -> None:
    # The other reading of "waagerechte Spalten": a whole row of three equal cards.
    grid = "8 8 8 / 2 3 4"
    assert golf.score(grid, "german").total == 33
    assert golf.score(grid, "german", {"match": ["columns", "rows"]}).total == 9
    assert golf.score("8 8 3 / 2 3 4", "german", {"match": ["columns", "rows"]}).total == 28


def test_german_horizontal_columns_are_two_equal_cards_side_by_side() -> None:
    # 004's column is two cards one above the other; a "waagerechte Spalte" is two
    # cards side by side in a row, so a row of 2x3 holds two of them, overlapping.
    pairs = {"match": ["columns", "row-pairs"]}
    assert golf.score("8 8 3 / 2 3 4", "german").total == 28
    s = golf.score("8 8 3 / 2 3 4", "german", pairs)
    assert s.total == 3 + 2 + 3 + 4
    assert [(m.label, m.cells) for m in s.matches] == [("row 1 cells 1+2", (1, 2))]
    assert golf.score("8 8 8 / 2 3 4", "german", pairs).total == 9  # three equal: all 0
    assert golf.score("8 3 8 / 2 4 5", "german", pairs).total == 30  # not side by side
    # A card may be in a column and a horizontal pair at once: column 1 and row 1.
    assert golf.score("8 8 3 / 8 4 5", "german", pairs).total == 3 + 4 + 5
    g = full_match("german", 3, seed=67, match=["columns", "row-pairs"])
    for number in range(1, len(g.hole_results) + 1):
        check_hole_scored(g, number)


def test_nine_card_block_is_four_cards_of_the_same_points() -> None:
    # 000: a 2x2 block "of the same face-point value" (10 J / Q 10 is one), while a
    # column still needs three of a kind (a 10/Q/J column is not zero).
    rules = {"match": ["columns", "rows", "diagonals", "blocks"]}
    assert golf.score("10 J 5 / Q 10 6 / 3 4 7", "nine-card", rules).total == -25 + 25
    assert golf.score("10 5 6 / Q 7 8 / J 9 4", "nine-card", rules).total == 69
    assert golf.score("10 J 5 / Q 10 6 / 3 4 7", "nine-card",
                      {**rules, "block_match_by": "rank"}).total == 65


def test_german_reshuffles_all_but_the_top_discard() -> None:
    g = Game("german", players=2, seed=66)
    setup(g)
    deck = sorted(g.census())
    while g.stock_size:
        play(g, "draw", "discard")
    top = g.view(0)["discard_top"]
    pile = len(g.view(0)["discard"])
    g.apply("draw")
    assert g.view(0)["discard"] == [top] and g.stock_size == pile - 2
    assert sorted(g.census()) == deck


def test_german_match_ends_when_a_total_reaches_the_target() -> None:
    seed, actions, totals = seed_with_total("german", 2, 5)
    top = max(totals)
    assert replay("german", 2, seed, actions, target=top).is_over
    assert not replay("german", 2, seed, actions, target=top + 1).is_over
    # The same position under 'exceed' goes on.
    assert not replay("german", 2, seed, actions, target=top, target_ends="exceed").is_over


def test_german_default_target_is_100_and_lowest_total_wins() -> None:
    g = full_match("german", 4, seed=67)
    assert max(g.totals) >= 100
    before_last = [sum(h[s] for h in g.hole_scores[:-1]) for s in range(4)]
    assert max(before_last) < 100
    low = min(g.totals)
    assert all(g.totals[w] == low for w in g.winners)


def playoff_game(players: int, tied: int) -> Game:
    """A german match (random play, deterministic seed search) whose first playoff hole is
    played by ``tied`` seats."""
    for seed in range(5000):
        g = Game("german", players=players, seed=seed)
        rng = random.Random(seed)
        random_play(g, rng, lambda g: g.is_playoff)
        if g.is_playoff and len(g.active) == tied:
            return g
    raise AssertionError("no seed found")  # pragma: no cover


def test_german_playoff_among_the_tied_players_only() -> None:
    g = playoff_game(3, 2)
    totals = g.totals
    low = min(totals)
    assert list(g.active) == [s for s in range(3) if totals[s] == low]
    out = next(s for s in range(3) if s not in g.active)
    v = g.view(out)
    assert v["playoff"] and v["grids"][out] is None and v["face_up"][out] is None
    assert v["legal_actions"] == []
    regular = len(g.hole_scores)
    rng = random.Random(1)
    random_play(g, rng, lambda g: False)
    # Playoff holes do not add to totals and are kept apart from the regular holes.
    assert g.totals == totals and len(g.hole_scores) == regular
    assert g.playoff_scores and all(s[out] is None for s in g.playoff_scores)
    last = g.playoff_scores[-1]
    assert len(g.winners) == 1
    assert last[g.winners[0]] == min(x for x in last if x is not None)
    assert g.hole_winners[-1] == g.winners


def test_german_playoff_with_three_tied_players() -> None:
    g = playoff_game(3, 3)
    assert len(set(g.totals)) == 1 and list(g.active) == [0, 1, 2]
    random_play(g, random.Random(2), lambda g: False)
    assert g.winners
    # A later playoff hole (if any) is played only by those tied in the one before.
    for before, after in zip(g.playoff_scores, g.playoff_scores[1:], strict=False):
        low = min(x for x in before if x is not None)
        assert [s for s, x in enumerate(after) if x is not None] == [
            s for s, x in enumerate(before) if x == low]


def test_german_only_a_tie_for_the_lowest_total_is_played_off() -> None:
    for seed in range(3000):
        g = full_match("german", 3, seed=seed)
        t = g.totals
        if len(set(t)) == 2 and t.count(min(t)) == 1:
            assert g.playoff_scores == [] and g.winners == [t.index(min(t))]
            return
    raise AssertionError("no seed found")  # pragma: no cover


def test_german_endless_playoff_ties_share_the_win_after_20() -> None:
    zero = {name: 0 for name in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                 "Q", "K")}
    g = full_match("german", 3, seed=68, points=zero, holes=1)
    assert len(g.hole_scores) == 1 and len(g.playoff_scores) == 20
    assert g.winners == [0, 1, 2] and g.hole == 21


def test_german_dealer_rotates_through_playoff_holes() -> None:
    g = playoff_game(3, 2)
    dealer = g.dealer
    assert dealer == (g.hole - 2) % 3
    first = (dealer + 1) % 3
    while first not in g.active:
        first = (first + 1) % 3
    assert g.current_player == first

