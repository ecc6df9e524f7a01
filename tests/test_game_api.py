"""The public Game API: apply, errors that change nothing, records, clones and views."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import golf
from golf import Action, Game
from golf.actions import DRAW, TAKE, swap


def snapshot(g: Game) -> Any:
    """Everything observable about a game, to check that a failed call changed nothing."""
    return (
        g.record(),
        [g.view(s) for s in range(g.players)],
        g.legal_actions(),
        g.phase,
        g.current_player,
        sorted(g.census()),
        g.stock_size,
    )


def setup(g: Game) -> None:
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])


def random_game(variant: str = "six-card", players: int = 3, seed: int = 1,
                steps: int = 60) -> Game:
    g = Game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


# --- construction ----------------------------------------------------------------------


def test_game_from_preset_rules_object_path_and_overrides(tmp_path: Path) -> None:
    a = Game("six-card", players=3, seed=42)
    b = Game(golf.load_rules("six-card"), players=3, seed=42)
    f = tmp_path / "mine.toml"
    f.write_text('extends = "six-card"\n', encoding="utf-8")
    c = Game(f, players=3, seed=42)
    assert a.view(0) == b.view(0)
    assert c.view(0)["grids"] == a.view(0)["grids"] and c.rules.name == "mine"
    d = Game(golf.load_rules("six-card"), players=3, seed=42, rules={"holes": 3})
    assert d.rules.holes == 3 and d.view(0)["holes"] == 3


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    def deal(seed: int) -> list[int]:
        return Game("six-card", players=2, seed=seed).census()

    assert deal(5) == deal(5)
    assert deal(5) != deal(6)


def test_seed_defaults_to_a_random_int_and_must_be_non_negative() -> None:
    g = Game("six-card")
    assert isinstance(g.seed, int) and g.seed >= 0
    assert g.record()["seed"] == g.seed
    for bad in (-1, "7", 1.5, True):
        with pytest.raises(golf.GolfError, match="seed must be a non-negative integer"):
            Game("six-card", seed=bad)  # type: ignore[arg-type]


def test_initial_properties() -> None:
    g = Game("six-card", players=3, seed=42)
    assert (g.current_player, g.phase, g.is_over, g.hole) == (0, "setup", False, 1)
    assert g.hole_scores == [] and g.totals == [0, 0, 0] and g.winners == []
    assert g.hole_winners == [] and not g.is_playoff and g.dealer == 2
    assert repr(g) == "<Game six-card players=3 seed=42 hole=1 phase=setup>"


# --- apply -----------------------------------------------------------------------------


def test_apply_by_text_action_or_code_gives_the_same_game() -> None:
    by_text, by_action, by_code = (Game("six-card", players=2, seed=3) for _ in range(3))
    for text in ["reveal 1", "reveal 2", "r5", "REVEAL 6", "draw", "swap 3", "t", "s 4"]:
        a = Action.parse(text)
        by_text.apply(text)
        by_action.apply(a)
        by_code.apply(int(a))  # type: ignore[arg-type]
    assert by_text.record() == by_action.record() == by_code.record()
    assert by_text.record()["actions"][2] == "reveal 5"  # records hold canonical notation


def test_push_is_apply() -> None:
    g = Game("six-card", players=2, seed=3)
    g.push("reveal 1")
    assert g.history == [Action.parse("reveal 1")]


def test_legal_actions_is_a_fresh_list() -> None:
    g = Game("six-card", players=2, seed=3)
    legal = g.legal_actions()
    legal.clear()
    assert len(g.legal_actions()) == 6


@pytest.mark.parametrize("variant, prepare, action, fragment", [
    ("six-card", [], "draw", "first each player must turn up 2 card(s)"),
    ("six-card", [], "reveal 7", "position 7 is off the grid, which has positions 1 to 6"),
    ("german", [], "reveal 1", "this variant starts with 'peek N', not 'reveal'"),
    ("six-card", ["reveal 1"], "reveal 1", "you already chose position 1"),
    ("six-card", "setup", "swap 1", "you must first draw from the stock or take the discard"),
    ("six-card", "setup", "knock", "this variant has no knocking"),
    ("six-card", "setup", "pass", "you must first draw"),
    ("six-card", "setup+take", "discard", "must be swapped into your grid"),
    ("six-card", "setup+take", "draw", "you hold a card: swap it into your grid or discard it"),
    ("four-card-wild", "setup+draw+swap", "swap 1", "position 1 is face up"),
    ("six-card", "setup+draw+discard", "flip 1", "position 1 is already face up"),
    ("six-card", "setup+draw+discard", "draw", "you discarded: now flip a face-down card"),
    ("four-card-wild", "setup+draw+discard", "pass", "you must turn one face-down card up"),
    ("four-card", "setup", "knock", "you may not knock on your first turn"),
    ("four-card", "setup", "flip 5", "position 5 is off the grid, which has positions 1 to 4"),
])
def test_illegal_action_changes_nothing_and_says_why_and_what_is_legal(
    variant: str, prepare: Any, action: str, fragment: str
) -> None:
    players = 3
    g = Game(variant, players=players, seed=8)
    steps = prepare.split("+") if isinstance(prepare, str) else []
    if isinstance(prepare, list):
        for a in prepare:
            g.apply(a)
    if "setup" in steps:
        setup(g)
    for step in steps[1:]:
        if step == "swap":
            # swap the held card into the first legal position (which turns it face up)
            g.apply(next(a for a in g.legal_actions() if a.kind == "swap"))
            # next player's turn; come back to seat 0's next turn
            while g.current_player != 0:
                g.apply("draw")
                g.apply(next(a for a in g.legal_actions() if a.kind == "swap"))
            g.apply("draw")
        else:
            g.apply(step)
    before = snapshot(g)
    with pytest.raises(golf.IllegalAction) as e:
        g.apply(action)
    msg = str(e.value)
    assert msg.startswith(f"{Action.parse(action)}: ")
    assert fragment in msg
    assert msg.endswith("legal now: " + ", ".join(str(a) for a in g.legal_actions()))
    assert snapshot(g) == before
    # The game goes on normally afterwards.
    g.apply(g.legal_actions()[0])


@pytest.mark.parametrize("bad", ["", "swap", "draw 3", "swap 0", "dance", "swap 99"])
def test_malformed_notation_raises_notation_error_and_changes_nothing(bad: str) -> None:
    g = random_game(steps=10)
    before = snapshot(g)
    with pytest.raises(golf.NotationError):
        g.apply(bad)
    assert snapshot(g) == before


@pytest.mark.parametrize("bad", [None, 2.5, 10**6, -1, ["draw"]])
def test_non_actions_raise_notation_error(bad: Any) -> None:
    g = Game("six-card", players=2, seed=1)
    before = snapshot(g)
    with pytest.raises(golf.NotationError):
        g.apply(bad)
    assert snapshot(g) == before


def test_nothing_is_legal_once_the_match_is_over() -> None:
    g = Game("nine-card", players=1, seed=2, rules={"holes": 1})
    rng = random.Random(2)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.current_player is None and g.phase == "over" and g.legal_actions() == []
    with pytest.raises(golf.IllegalAction, match=r"^draw: the match is over$"):
        g.apply("draw")


# --- records ---------------------------------------------------------------------------


def test_record_holds_rules_seed_players_and_canonical_actions() -> None:
    g = random_game(steps=40)
    r = g.record()
    assert r["format"] == "golf-record/1"
    assert r["players"] == 3 and r["seed"] == 1
    assert r["actions"] == [str(a) for a in g.history] and len(r["actions"]) == 40
    assert r["rules"] == g.rules.to_dict()
    json.dumps(r)


@pytest.mark.parametrize("variant", golf.preset_names())
def test_from_record_reproduces_the_game_exactly(variant: str) -> None:
    lo = golf.load_rules(variant).players[0]
    g = random_game(variant, players=max(lo, 2), seed=9, steps=200)
    r = json.loads(json.dumps(g.record()))
    h = Game.from_record(r)
    for seat in range(g.players):
        assert h.view(seat) == g.view(seat)
    assert h.census() == g.census() and h.record() == g.record()
    # Both go on identically.
    for a in ("draw", "take"):
        if a in [str(x) for x in g.legal_actions()]:
            g.apply(a)
            h.apply(a)
    assert h.view(0) == g.view(0)


def test_record_replays_rule_overrides_and_custom_rules(tmp_path: Path) -> None:
    g = Game("german", players=3, seed=4, rules={"points.2": -2, "match": ["columns", "rows"]})
    rng = random.Random(4)
    for _ in range(50):
        g.apply(rng.choice(g.legal_actions()))
    h = Game.from_record(g.record())
    assert h.rules == g.rules and h.rules.points[2] == -2
    assert h.view(1) == g.view(1)


def test_from_record_accepts_a_preset_name_for_rules() -> None:
    g = random_game("four-card", players=3, seed=5, steps=30)
    r = {**g.record(), "rules": "four-card"}
    assert Game.from_record(r).view(2) == g.view(2)


@pytest.mark.parametrize("mutate, fragment", [
    (lambda r: [], "a game record is an object"),
    (lambda r: {k: v for k, v in r.items() if k != "seed"}, "game record lacks seed"),
    (lambda r: {"format": "x"}, "game record lacks rules, players, seed, actions"),
    (lambda r: {**r, "format": "golf-record/9"}, "format 'golf-record/9' is not supported"),
    (lambda r: {**r, "actions": "draw"}, "'actions' must be a list"),
    (lambda r: {**r, "actions": [*r["actions"], "knock"]}, "action 21 ('knock') cannot be played"),
    (lambda r: {**r, "actions": ["dance"]}, "action 1 ('dance') cannot be played"),
    (lambda r: {**r, "players": 9}, "six-card is for 2 to 8 players"),
    (lambda r: {**r, "rules": {**r["rules"], "holes": "x"}}, "'holes' must be an integer"),
])
def test_bad_records_raise_clear_errors(mutate: Any, fragment: str) -> None:
    g = random_game(steps=20)
    with pytest.raises(golf.GolfError) as e:
        Game.from_record(mutate(g.record()))
    assert fragment in str(e.value)


# --- clones ----------------------------------------------------------------------------


def test_clone_is_independent_both_ways() -> None:
    g = random_game("german", players=4, seed=6, steps=50)
    before = snapshot(g)
    c = g.clone()
    assert snapshot(c) == before
    rng = random.Random(0)
    for _ in range(80):
        if c.is_over:
            break
        c.apply(rng.choice(c.legal_actions()))
    assert snapshot(g) == before
    d = g.clone()
    g.apply(g.legal_actions()[-1])
    assert snapshot(d) == before


def test_clone_across_a_hole_end_keeps_results_apart() -> None:
    g = random_game("six-card", players=2, seed=7, steps=0)
    rng = random.Random(7)
    while not g.hole_results:
        g.apply(rng.choice(g.legal_actions()))
    c = g.clone()
    while len(c.hole_results) < 3 and not c.is_over:
        c.apply(rng.choice(c.legal_actions()))
    assert len(g.hole_results) == 1 and len(g.hole_scores) == 1
    assert g.totals == g.hole_scores[0]


# --- views -----------------------------------------------------------------------------


def test_view_is_json_serialisable_in_every_phase() -> None:
    g = Game("four-card-wild", players=3, seed=3)
    rng = random.Random(3)
    phases = set()
    while not g.is_over:
        for seat in range(3):
            v = g.view(seat)
            assert json.loads(json.dumps(v)) == v
            assert v["seat"] == seat and v["phase"] == g.phase
        phases.add(g.phase)
        g.apply(rng.choice(g.legal_actions()))
    assert phases == {"setup", "turn", "hold", "flip"}
    v = g.view(0)
    assert json.loads(json.dumps(v)) == v and v["is_over"] and v["winners"] == g.winners


def test_view_function_and_method_agree_and_codes_are_ints() -> None:
    g = random_game(steps=25)
    assert golf.view(g, 1) == g.view(1)
    coded = g.view(1, codes=True)
    text = g.view(1)
    for a, b in zip(coded["discard"], text["discard"], strict=True):
        assert isinstance(a, int) and golf.card_str(a) == b
    with pytest.raises(golf.GolfError, match="player must be a seat from 0 to 2"):
        g.view(3)


def test_view_hides_other_players_face_down_and_peeked_cards() -> None:
    g = Game("german", players=3, seed=11)
    g.apply("peek 1")
    g.apply("peek 2")
    mine = g.view(0)
    assert mine["grids"][0][0] is not None and mine["grids"][0][1] is not None
    assert mine["grids"][0][2:] == [None] * 4 and mine["peeked"] == [1, 2]
    for other in (1, 2):
        v = g.view(other)
        assert v["grids"][0] == [None] * 6 and v["peeked"] == []
    setup(g)
    g.apply("draw")
    g.apply("swap 3")  # a swapped-in card is face up: everyone sees it
    card = g.view(0)["grids"][0][2]
    assert card is not None and all(g.view(s)["grids"][0][2] == card for s in range(3))
    assert g.view(1)["grids"][0][0] is None


def test_view_never_shows_the_stock() -> None:
    g = random_game(steps=30)
    for seat in range(3):
        v = g.view(seat)
        assert v["stock_size"] == g.stock_size
        # Reordering the stock (in a copy of the state) changes no view.
        state = g.state.copy()
        state.hole.stock.reverse()
        random.Random(seat).shuffle(state.hole.stock)
        assert Game.from_state(state).view(seat) == v


def test_held_card_from_the_stock_is_seen_by_its_holder_only() -> None:
    g = Game("six-card", players=3, seed=12)
    setup(g)
    g.apply(DRAW)
    holder = g.view(0)
    assert holder["held"] is not None and holder["held_by"] == 0
    assert holder["held_from"] == "stock"
    for other in (1, 2):
        v = g.view(other)
        assert v["held"] is None and v["held_by"] == 0 and v["held_from"] == "stock"
    g.apply(swap(3))
    assert all(g.view(s)["held"] is None and g.view(s)["held_by"] is None for s in range(3))


def test_held_card_taken_from_the_discard_pile_is_public() -> None:
    g = Game("six-card", players=3, seed=12)
    setup(g)
    top = g.view(1)["discard_top"]
    g.apply(TAKE)
    for seat in range(3):
        v = g.view(seat)
        assert v["held"] == top and v["held_from"] == "discard"


def test_view_shows_the_whole_discard_pile_and_legal_actions_to_the_mover_only() -> None:
    g = random_game(steps=45)
    mover = g.current_player
    assert mover is not None
    for seat in range(3):
        v = g.view(seat)
        assert v["discard"][-1] == v["discard_top"]
        expected = [str(a) for a in g.legal_actions()] if seat == mover else []
        assert v["legal_actions"] == expected


def test_score_hole_explains_a_finished_hole() -> None:
    g = Game("six-card", players=2, seed=13)
    with pytest.raises(golf.GolfError, match="no hole has finished yet"):
        g.score_hole(0)
    rng = random.Random(13)
    while not g.hole_results:
        g.apply(rng.choice(g.legal_actions()))
    for seat in range(2):
        s = g.score_hole(seat, 1)
        assert s.total == g.hole_scores[0][seat]
        assert s.explain().endswith(f"total: {s.total}")


def test_score_hole_of_a_seat_not_dealt_in() -> None:
    for seed in range(300):
        g = Game("german", players=3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        for h in g.hole_results:
            if h.playoff and None in h.scores:
                out = h.scores.index(None)
                with pytest.raises(golf.GolfError, match=f"seat {out} was not dealt in hole"):
                    g.score_hole(out, h.number)
                return
    raise AssertionError("no playoff with a seat left out")  # pragma: no cover
