"""Break 5 and 6 of issue 12 through OpenSpiel itself: IS-MCTS in ``evaluate_bots``,
tensors that hold every peek, the player count, ``rl_environment`` with the PyTorch
DQN (it needs dm-tree), and state serialisation without pickle."""

from __future__ import annotations

import base64
import pickle
import pickletools
import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyspiel
import pytest
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random
from open_spiel.python.pytorch import dqn

from golf import GolfError
from golf.envs.openspiel import Restartable, deserialize_state, resample, serialize_state
from helpers import random_spiel_state

torch.set_num_threads(1)


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_golf", dict(params))



def ismcts_bot(game: pyspiel.Game, seed: int) -> ismcts.ISMCTSBot:
    rs = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=10.0,
                            max_simulations=8, random_state=rs)


def test_ismcts_plays_in_evaluate_bots_once_restartable() -> None:
    game = load(preset="german", players=2, rules="holes:1;target:0")
    rs = np.random.RandomState(0)
    other = uniform_random.UniformRandomBot(1, rs)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):  # the break, as found
        evaluate_bots.evaluate_bots(game.new_initial_state(), [ismcts_bot(game, 0), other], rs)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [Restartable(ismcts_bot(game, 0)), other], rs)
    assert len(returns) == 2 and all(r <= 0 for r in returns)


@pytest.mark.parametrize("variant, players", [("german", 3), ("four-card-wild", 2)])
def test_each_tensor_stands_for_one_view(variant: str, players: int) -> None:
    """The peek variants: what every seat has peeked at is in the tensor, so two
    states a seat can tell apart by its view never share a tensor."""
    game = load(preset=variant, players=players, rules="holes:1;target:0")
    rng = random.Random(0)
    texts: dict[tuple[float, ...], set[str]] = defaultdict(set)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            for p in range(players):
                texts[tuple(state.information_state_tensor(p))].add(state.observation_string(p))
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(texts) > 100
    assert all(len(v) == 1 for v in texts.values())


def test_another_seats_peek_changes_the_tensor() -> None:
    game = load(preset="german", players=2, rules="holes:1;target:0")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = state.information_state_tensor(1)
    peek = next(a for a in state.legal_actions() if state.action_to_string(a) == "peek 1")
    state.apply_action(peek)
    assert state.information_state_tensor(1) != before


def test_min_num_players_is_two_and_solitaire_still_loads() -> None:
    assert load().get_type().min_num_players == 2
    solo = load(preset="nine-card", players=1, rules="holes:1")
    pyspiel.random_sim_test(solo, num_sims=1, serialize=True, verbose=False)
    with pytest.raises(GolfError, match="is for 2 to 8 players"):
        load(preset="six-card", players=1)


def test_rl_environment_with_pytorch_dqn() -> None:
    game = load(preset="six-card", players=2, rules="holes:1")
    env = rl_environment.Environment(game)
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    agents = [dqn.DQN(player_id=p, state_representation_size=size,
                      num_actions=env.action_spec()["num_actions"], hidden_layers_sizes=[16],
                      replay_buffer_capacity=200, batch_size=16, learn_every=8,
                      min_buffer_size_to_learn=32) for p in range(2)]
    for _ in range(3):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action])
        for agent in agents:
            agent.step(ts)
        assert len(ts.rewards) == 2 and all(r <= 0 for r in ts.rewards)
    assert agents[0].loss is not None


def test_serialize_round_trips_through_the_history() -> None:
    game = load(preset="german", players=3, rules="holes:1;target:0")
    state = random_spiel_state(game, random.Random(1), 25)
    text = serialize_state(state)
    assert text.startswith("history=") and "position" not in text
    again = deserialize_state(game, text)
    assert str(again) == str(state) and again.history() == state.history()
    # pyspiel's own form reads back the same way, its pickled line ignored.
    assert str(deserialize_state(game, state.serialize())) == str(state)
    # What pyspiel pickles is a marker, not the cards; its own round trip works too.
    blob = base64.b64decode(state.serialize().splitlines()[2][len("__dict__="):])
    names = [arg for op, arg, _ in pickletools.genops(blob) if isinstance(arg, str)]
    assert "_Saved" in names and "position" not in names
    assert str(game.deserialize_state(state.serialize())) == str(state)


def test_a_resampled_world_keeps_its_cards() -> None:
    game = load(preset="six-card", players=2, rules="holes:1")
    state = random_spiel_state(game, random.Random(2), 12)
    world = resample(state, state.current_player(), random.Random(3))
    assert str(world) != str(state)
    text = serialize_state(world)
    assert "\nposition=" in text
    assert str(deserialize_state(game, text)) == str(world)
    assert str(game.deserialize_state(world.serialize())) == str(world)


class _Trap:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(_TRAP),))


_TRAP = Path(__file__).with_name(".pickle-ran")


def test_untrusted_text_is_never_unpickled() -> None:
    game = load(players=2, rules="holes:1")
    evil = base64.b64encode(pickle.dumps({"_core": _Trap()})).decode()
    text = f"history=\nmove_number=0\n__dict__={evil}"
    _TRAP.unlink(missing_ok=True)
    state = deserialize_state(game, text)
    assert state.is_chance_node() and not _TRAP.exists()
    for bad, why in [("history=0:3", "player -1 is to move"),
                     ("history=-1:999", "action 999 is not possible"),
                     ("history=x", "is not player:action"),
                     ("moves=1", "starts with 'history='")]:
        with pytest.raises(GolfError, match=why):
            deserialize_state(game, bad)
