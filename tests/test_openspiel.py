"""The OpenSpiel game ``python_golf``: OpenSpiel's own random simulation test for every
preset, explicit chance, observations, the resampler and IS-MCTS."""

from __future__ import annotations

import random
import re
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import golf
from golf import GolfError
from golf.envs.openspiel import (
    GolfState,
    card_id,
    engine_game,
    format_rules_param,
    id_card,
    parse_rules_param,
    resample,
    resampler,
)
from helpers import random_spiel_state

SHORT = [(name, players) for name in golf.preset_names()
         for players in sorted(set(golf.load_rules(name).players))]


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_golf", dict(params))


@pytest.mark.parametrize("variant, players", SHORT)
def test_random_sim_test_one_hole(variant: str, players: int) -> None:
    game = load(preset=variant, players=players, rules="holes:1;target:0")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("variant, players", SHORT)
def test_random_sim_test_whole_matches(variant: str, players: int) -> None:
    for reward in ("score", "match"):
        game = load(preset=variant, players=players, reward=reward)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_through_reshuffles_and_playoffs() -> None:
    seen = {"reshuffle": False, "playoff": False}

    def check(state: pyspiel.State) -> None:
        if not state.is_chance_node() and state.view(0)["stock_cards"] is not None:
            seen["reshuffle"] = True
        seen["playoff"] |= engine_game(state).is_playoff

    game = load(preset="german", players=5, rules="target:40")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False,
                            state_checker_fn=check)
    assert seen["reshuffle"]
    # Every card worth nothing: every hole ties, so the playoff runs to its limit.
    zero = ";".join(f"points.{r}:0" for r in ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"))
    game = load(preset="german", players=3, rules=f"holes:1;target:0;{zero}")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False,
                            state_checker_fn=check)
    assert seen["playoff"]



def test_the_deal_is_one_chance_node_per_card() -> None:
    game = load(players=3, rules="holes:1")
    state = game.new_initial_state()
    deck = Counter(golf.cards.build_deck(1, 0))
    dealt = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        left = deck - Counter(dealt)
        assert outcomes == sorted((card_id(c), n / sum(left.values())) for c, n in left.items())
        card = id_card(outcomes[-1][0])  # always the highest card left
        dealt.append(card)
        state.apply_action(outcomes[-1][0])
    assert len(dealt) == 3 * 6 + 1
    pos = engine_game(state).position()
    assert pos["grids"] == [dealt[0:6], dealt[6:12], dealt[12:18]]
    assert pos["discard"] == [dealt[18]]
    assert Counter(pos["stock"]) == deck - Counter(dealt)
    assert state.current_player() == 0 and state.legal_actions() == list(range(6))


def test_every_draw_is_a_chance_node_choosing_the_card() -> None:
    game = load(players=2, rules="holes:1")
    rng = random.Random(1)
    state = random_spiel_state(game, rng, 4)  # after the setup reveals
    draw_id = next(a for a in state.legal_actions() if state.action_to_string(a) == "draw")
    seat = state.current_player()
    stock = Counter(engine_game(state).position()["stock"])
    state.apply_action(draw_id)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert {id_card(a) for a, _ in outcomes} == set(stock)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert "holds" not in state.observation_string(seat)  # not drawn yet
    want = min(stock)
    state.apply_action(card_id(want))
    assert state.current_player() == seat
    assert f"holds {golf.card_str(want, False)} from the stock" in state.observation_string(seat)
    assert "holds a card from the stock" in state.observation_string(1 - seat)


def test_chance_outcome_ids_cover_every_card() -> None:
    cards = golf.cards.build_deck(2, 4)
    ids = {card_id(c) for c in cards}
    assert ids <= set(range(56)) and len(ids) == 56
    assert all(id_card(card_id(c)) == c for c in cards)
    state = load(preset="four-card-wild", players=2).new_initial_state()
    names = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in
             state.chance_outcomes()]
    assert "card JK1" in names and "card JK2" in names and "card AS" in names


def test_information_state_is_the_view_plus_the_public_actions() -> None:
    game = load(preset="german", players=3)
    state = random_spiel_state(game, random.Random(4), 12)
    for p in range(3):
        info, obs = state.information_state_string(p), state.observation_string(p)
        assert info.startswith(obs) and "\nactions: " in info
        tensor = np.array(state.information_state_tensor(p))
        assert tensor.shape == (game.information_state_tensor_size(),)
        # The view's vector, then the hole's public actions in order (id + 1, scaled).
        view = np.array(state.observation_tensor(p))
        np.testing.assert_array_equal(tensor[:view.size], view)
        enc = game.encoding
        played = re.findall(r"[a-z]+(?: \d+)?", info.split("\nactions: ")[1])
        assert len(played) == 12
        slots = tensor[view.size:] * enc.num_actions
        np.testing.assert_allclose(slots[:12], [enc.action_id(a) + 1 for a in played],
                                   rtol=1e-6)
        assert not slots[12:].any()
    # Peeked cards are private: seat 0 sees two of its cards, seat 1 none of them.
    own = state.observation_string(0).splitlines()[1]
    theirs = state.observation_string(1).splitlines()[1]
    assert theirs.count("??") - own.count("??") >= 1


def test_public_observer_hides_private_cards() -> None:
    game = load(preset="german", players=2)
    state = random_spiel_state(game, random.Random(2), 4)  # both seats have peeked
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    text = observer.string_from(state, 0)
    assert text.splitlines()[1].count("??") == 6
    with pytest.raises(ValueError, match="no observer for every seat's private cards"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


@pytest.mark.parametrize("variant, players, decisions", [
    ("six-card", 2, 30), ("four-card-wild", 4, 20), ("nine-card", 3, 40), ("german", 6, 150),
])
def test_resampling_keeps_everything_the_seat_has_seen(
    variant: str, players: int, decisions: int
) -> None:
    game = load(preset=variant, players=players, rules="holes:1;target:0")
    rng = random.Random(7)
    state = random_spiel_state(game, rng, decisions)
    assert not state.is_terminal() and not state.is_chance_node()
    p = state.current_player()
    real = engine_game(state)
    worlds = set()
    for _ in range(12):
        other = resample(state, p, rng)
        assert isinstance(other, GolfState)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        assert engine_game(other).view(p) == real.view(p)
        assert Counter(engine_game(other).census()) == Counter(real.census())
        worlds.add(str(other))
        # The resampled world plays on like any state.
        other.apply_action(other.legal_actions()[0])
    assert len(worlds) > 1  # the hidden cards really are dealt again
    assert str(state) not in worlds or len(worlds) > 1


def test_resampling_after_a_reshuffle_keeps_the_stock_known() -> None:
    game = load(preset="german", players=6, rules="holes:1;target:0")
    rng = random.Random(3)
    state = random_spiel_state(game, rng, 0)
    while (state.is_terminal() or state.is_chance_node()
           or state.view(0)["stock_cards"] is None):
        state = random_spiel_state(game, rng, 0) if state.is_terminal() else state
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()
    stock = Counter(engine_game(state).position()["stock"])
    for _ in range(5):
        other = resample(state, p, rng)
        assert Counter(engine_game(other).position()["stock"]) == stock
        assert other.information_state_string(p) == state.information_state_string(p)


def test_a_resampled_world_has_its_own_future_chance() -> None:
    """The engine seed decides every later shuffle and deal; the view says nothing of
    it, so a resampled world must not inherit the real one (it would reshuffle the
    stock and deal the next hole exactly as the real game will)."""
    game = load(preset="six-card", players=3, rules="holes:3")
    rng = random.Random(11)
    state = random_spiel_state(game, rng, 25)
    p = state.current_player()
    real = engine_game(state).position()["seed"]
    seeds = []
    for _ in range(8):
        world = engine_game(resample(state, p, rng))
        seeds.append(world.position()["seed"])
        assert world.view(p) == engine_game(state).view(p)
    assert real not in seeds and len(set(seeds)) > 1
    # and the world is a function of the generator alone
    again = [engine_game(resample(state, p, random.Random(s))).position() for s in (1, 1)]
    assert again[0] == again[1]


def play_with_ismcts(game: pyspiel.Game, set_resampler: bool) -> list[float]:
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=10.0,
                           max_simulations=15, random_state=rs)
    if set_resampler:
        bot.set_resampler(resampler(1))
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.returns())


def test_openspiel_ismcts_plays_a_hole_with_our_resampler() -> None:
    game = load(preset="german", players=3, rules="holes:1;target:0")
    returns = play_with_ismcts(game, set_resampler=True)
    assert len(returns) == 3 and all(r <= 0 for r in returns)
    # Without set_resampler, IS-MCTS calls state.resample_from_infostate: the same code.
    game = load(preset="six-card", players=2, rules="holes:1")
    assert len(play_with_ismcts(game, set_resampler=False)) == 2


def test_returns() -> None:
    for reward in ("score", "match"):
        game = load(players=3, rules="holes:2", reward=reward)
        state = random_spiel_state(game, random.Random(9), 10**6)
        g = engine_game(state)
        if reward == "score":
            assert state.returns() == [-float(t) for t in g.totals]
        else:
            assert state.returns() == [1.0 if s in g.winners else -1.0 for s in range(3)]
        assert game.min_utility() <= min(state.returns()) <= max(state.returns()) \
            <= game.max_utility()


def test_parameters() -> None:
    text = "holes:1;match:columns+rows;points.2:-2;final_turns:false"
    assert parse_rules_param(text) == {"holes": 1, "match": ["columns", "rows"],
                                       "points.2": -2, "final_turns": False}
    assert parse_rules_param(format_rules_param(parse_rules_param(text))) == \
        parse_rules_param(text)
    game = pyspiel.load_game(f"python_golf(players=3,preset=nine-card,rules={text})")
    rules = game.golf_rules
    assert rules.holes == 1 and rules.match == ("columns", "rows") and rules.points[2] == -2
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert game.num_distinct_actions() == 41 and game.max_chance_outcomes() == 56
    with pytest.raises(GolfError, match="reward must be 'score' or 'match'"):
        load(reward="money")
    with pytest.raises(GolfError, match="unknown variant 'seven-card'"):
        load(preset="seven-card")
    with pytest.raises(GolfError, match="is for 3 to 7 players"):
        load(preset="four-card", players=2)
