"""The Gymnasium environment: Gymnasium's own env checker for every preset, and the
environment's opponents, rewards, masks and errors."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import golf
from golf.envs import GYM_ID, GolfEnv

CASES = [(name, players) for name in golf.preset_names()
         for players in sorted({max(2, golf.load_rules(name).players[0]),
                                golf.load_rules(name).players[1]})]


@pytest.mark.parametrize("variant, players", CASES)
def test_gymnasium_env_checker(variant: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        env = gymnasium.make(GYM_ID, variant=variant, players=players, seat=players - 1)
        check_env(env.unwrapped)  # with a spec, so every render mode is checked too


def play_out(env: GolfEnv, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        assert sorted(env.encoding.action(i) for i in legal) == sorted(env.game.legal_actions())
        assert env.game.current_player == env.seat
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += float(reward)
        steps += 1
    return total, steps


def test_hole_rewards_add_up_to_minus_the_learners_scores() -> None:
    env = GolfEnv(variant="six-card", players=3, seat=1, opponents=["random", "random:"])
    total, steps = play_out(env, 3)
    g = env.game
    assert g.is_over and steps > 9
    assert total == -g.totals[1]
    assert env.action_masks().all()  # over: any action, a vector env's reset ignores it
    with pytest.raises(golf.GolfError, match="the match is over: call reset"):
        env.step(0)


def test_match_reward_says_whether_the_learner_won() -> None:
    for seed in range(4):
        env = GolfEnv(variant="four-card", players=3, rules={"holes": 1}, reward="match")
        total, _ = play_out(env, seed)
        assert total == (1.0 if 0 in env.game.winners else -1.0)


def test_an_illegal_action_costs_the_penalty_and_changes_nothing() -> None:
    env = GolfEnv(variant="six-card", players=2, illegal_reward=-3.0)
    obs, _ = env.reset(seed=1)
    before = env.game.position()
    obs2, reward, done, truncated, info = env.step(env.encoding.action_id("knock"))
    assert reward == -3.0 and not done and not truncated and info["illegal_action"]
    np.testing.assert_array_equal(obs, obs2)
    assert env.game.position() == before


def test_the_bots_play_the_other_seats_between_learner_turns() -> None:
    env = GolfEnv(variant="six-card", players=4, seat=2, opponents="random")
    env.reset(seed=9)
    assert env.game.current_player == 2
    assert sorted(env.bots) == [0, 1, 3]
    assert {b.name for b in env.bots.values()} == {"random"}
    # Seats 0 and 1 have made their setup choices before the learner's first turn.
    assert sum(env.game.face_up(0)) == sum(env.game.face_up(1)) == 2


def test_seeds_fix_the_deal_and_the_bots() -> None:
    def run(seed: int) -> list[float]:
        env = GolfEnv(variant="german", players=3, rules={"target": 30})
        return [play_out(env, seed)[0], *env.game.totals]

    assert run(7) == run(7)


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(golf.GolfError, match="give one opponent spec, or 2"):
        GolfEnv(players=3, opponents=["random"])
    with pytest.raises(golf.GolfError, match="unknown bot 'wizard'"):
        GolfEnv(opponents="wizard")
    with pytest.raises(golf.GolfError, match="seat must be from 0 to 1"):
        GolfEnv(seat=2)
    with pytest.raises(golf.GolfError, match="is for 3 to 7 players"):
        GolfEnv(variant="four-card", players=2)


def test_rendering_as_text() -> None:
    env = GolfEnv(variant="nine-card", players=2, render_mode="ansi", seat=1)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "seen by seat 1" in text.splitlines()[0]
    assert len(text.splitlines()) == 4


def test_opponents_of_every_kind() -> None:
    seen: list[int] = []

    def first(view: dict, legal: list) -> object:  # type: ignore[type-arg]
        seen.append(view["seat"])
        return legal[0]

    class Decider:
        def decide(self, view: dict, legal: list) -> str:  # type: ignore[type-arg]
            return str(legal[-1])  # notation works too

    class Actor:
        def act(self, view: dict, legal: list) -> object:  # type: ignore[type-arg]
            return legal[0]

    env = GolfEnv(variant="six-card", players=4, rules={"holes": 1},
                  opponents=[first, Decider(), Actor()])
    _total, _ = play_out(env, 2)
    assert env.game.is_over and set(seen) == {1}
    assert [b.name for b in env.bots.values()] == ["callable"] * 3
    # A golf Bot instance is used as it is.
    bot = golf.bots.make_bot("greedy", env.golf_rules, seed=3)
    env = GolfEnv(variant="six-card", players=2, rules={"holes": 1}, opponents=bot)
    env.reset(seed=0)
    assert env.bots[1] is bot


def test_a_bad_opponent_is_a_clear_error() -> None:
    with pytest.raises(golf.GolfError, match="an opponent is a bot spec"):
        GolfEnv(opponents=42)
    env = GolfEnv(variant="six-card", players=2, opponents=lambda view, legal: 3)
    with pytest.raises(golf.GolfError, match="return one of the legal actions"):
        play_out(env, 1)
    env = GolfEnv(variant="six-card", players=2, opponents=lambda view, legal: "knock")
    with pytest.raises(golf.GolfError, match="chose knock, which is not legal here"):
        play_out(env, 1)


def test_rgb_array_pictures_the_learners_view() -> None:
    env = GolfEnv(variant="german", players=3, render_mode="rgb_array", seat=1)
    env.reset(seed=1)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape[2] == 3
    # The picture shows only the view: trading hidden cards leaves it unchanged.
    before = img.copy()
    g = env.game
    v = g.view(1, codes=True)
    pos = g.position()
    slots = [(s, i) for s in g.active for i, c in enumerate(v["grids"][s]) if c is None]
    cards = [pos["grids"][s][i] for s, i in slots]
    cards.reverse()
    for (s, i), c in zip(slots, cards, strict=True):
        pos["grids"][s][i] = c
    env.game = golf.Game.from_position(g.rules, pos)
    np.testing.assert_array_equal(env.render(), before)


def test_results_arrive_in_info() -> None:
    env = GolfEnv(variant="six-card", players=3, rules={"holes": 2}, seat=2)
    rng = random.Random(4)
    _, info = env.reset(seed=4)
    holes, done = [], False
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if "hole_scores" in info:
            holes.append(info["hole_scores"])
            assert reward == -info["hole_scores"][2]
            assert info["dealt_in"].all()
    assert len(holes) == 2
    np.testing.assert_array_equal(info["totals"], np.sum(holes, axis=0))
    assert list(info["won"]) == [s in env.game.winners for s in range(3)]
