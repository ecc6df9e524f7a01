"""The table: one driver for a match with people, bots and outside players; observers
hear every action; one derivation of bot seeds; the save format; clear errors."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf import Action, Game, GolfError, IllegalAction, NotationError, load_rules, preset_names
from golf.bots import make_bot
from golf.envs.gymnasium_env import GolfEnv
from golf.simulate import play_match
from golf.table import (
    SAVE_FORMAT,
    BotSeat,
    Outside,
    PersonSeat,
    Saved,
    Seat,
    SeatSpec,
    Table,
    Turn,
    bot_seats,
    bot_seed,
    read_save,
    restore,
    save_json,
    write_save,
)
from golf.terminal.seats import seat_table

SRC = Path(__file__).resolve().parents[1] / "src" / "golf"


class Log:
    """An observer that keeps every turn it is told about."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []

    def on_event(self, turn: Turn) -> None:
        self.turns.append(turn)


class Scripted:
    """A person who answers from a list, then always the first legal action; keeps the
    views it was shown."""

    def __init__(self, answers: Sequence[Action | str] = ()) -> None:
        self.answers = list(answers)
        self.views: list[Mapping[str, Any]] = []

    def __call__(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | str:
        self.views.append(view)
        return self.answers.pop(0) if self.answers else legal[0]


def plain_loop(game: Game, bots: Sequence[Any]) -> None:
    """The loop every driver had before the table."""
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat, codes=True), game.legal_actions()))


# --- driving a match ----------------------------------------------------------------------

@pytest.mark.parametrize("preset", preset_names())
def test_bots_at_a_table_play_as_a_plain_loop_does(preset: str) -> None:
    rules = load_rules(preset, {"holes": 2})
    players = max(2, rules.players[0])
    specs = [("expert", "random", "greedy")[s % 3] for s in range(players)]
    g = Game(rules, players=players, seed=41)
    Table(g, bot_seats(specs, rules, g.seed)).run()
    h = Game(rules, players=players, seed=41)
    plain_loop(h, [make_bot(spec, rules, seed=bot_seed(41, s)) for s, spec in enumerate(specs)])
    assert g.is_over and g.record() == h.record()


def test_a_person_plays_through_a_callback_and_sees_only_their_view() -> None:
    g = Game("six-card", players=2, seed=5, rules={"holes": 1})
    person = Scripted()
    table = Table(g, [PersonSeat(person), BotSeat(make_bot("greedy", g.rules, seed=1))])
    table.run()
    assert g.is_over
    assert person.views and all(v["seat"] == 0 for v in person.views)
    people_moves = [t for t in table.turns if t.seat == 0]
    assert len(people_moves) == len(person.views)
    # The other grid's face-down cards never reach the person's callback.
    for v in person.views:
        up = v["face_up"][1]
        assert all(card is None for card, shown in zip(v["grids"][1], up, strict=True)
                   if not shown)


def test_observers_and_listening_seats_hear_every_action_in_order() -> None:
    g = Game("nine-card", players=3, seed=8, rules={"holes": 2})
    log, late = Log(), Log()

    class ListeningBot(BotSeat):
        def __init__(self, bot: Any) -> None:
            super().__init__(bot)
            self.heard: list[Turn] = []

        def on_event(self, turn: Turn) -> None:
            self.heard.append(turn)

    listener = ListeningBot(make_bot("random", g.rules, seed=3))
    seats: list[Seat] = [listener, *bot_seats(["random", "greedy", "expert"], g.rules, g.seed)[1:]]
    table = Table(g, seats, observers=[log])
    table.step()
    table.watch(late)
    table.run()
    assert [t.action for t in log.turns] == g.history == [t.action for t in table.turns]
    assert listener.heard == log.turns
    assert late.turns == log.turns[1:]
    replayed = Game(g.rules, players=3, seed=8)
    for t in log.turns:  # each turn names the seat that played it and the phase it was in
        assert (t.seat, t.phase) == (replayed.current_player, replayed.phase)
        assert t.event == replayed.apply(t.action)  # and carries what the engine returned


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(preset_names()), st.integers(0, 2**32))
def test_every_match_ends_and_the_table_keeps_the_whole_history(preset: str, seed: int) -> None:
    rules = load_rules(preset, {"holes": 1, "target": 0})
    players = max(2, rules.players[0])
    g = Game(rules, players=players, seed=seed)
    log = Log()
    table = Table(g, bot_seats(["random"] * players, rules, seed), [log])
    table.run()
    assert g.is_over and table.is_over and table.to_act is None
    assert [t.action for t in log.turns] == g.history


def test_outside_seats_are_played_through_play_and_stop_the_run() -> None:
    g = Game("six-card", players=3, seed=2, rules={"holes": 1})
    seats: list[Seat] = [BotSeat(make_bot("random", g.rules, seed=1)), Outside(),
                         BotSeat(make_bot("random", g.rules, seed=2))]
    table = Table(g, seats)
    while not g.is_over:
        table.run()
        if g.is_over:
            break
        assert g.current_player == 1
        with pytest.raises(GolfError, match="seat 1 is played from outside the table"):
            table.step()
        table.play(g.legal_actions()[-1], seat=1)
    assert any(t.seat == 1 for t in table.turns)


# --- clear errors, nothing changed --------------------------------------------------------

def test_a_bad_answer_from_a_person_is_a_clear_error_and_changes_nothing() -> None:
    g = Game("six-card", players=2, seed=9)
    person = Scripted(["knock", "swp 3", Action.parse("reveal 9"), "reveal 2"])
    table = Table(g, [PersonSeat(person), BotSeat(make_bot("random", g.rules, seed=1))])
    before = g.record()
    with pytest.raises(IllegalAction, match=r"knock: .*reveal 1, reveal 2"):
        table.step()
    with pytest.raises(NotationError, match="swp"):
        table.step()
    with pytest.raises(IllegalAction, match="position 9 is off the grid"):
        table.step()
    assert g.record() == before and table.turns == []
    turn = table.step()  # the person tries again, and text notation is fine
    assert (turn.seat, str(turn.action), turn.phase) == (0, "reveal 2", "setup")
    assert g.history == [Action.parse("reveal 2")]


def test_play_checks_whose_turn_it_is_and_that_the_match_is_on() -> None:
    g = Game("six-card", players=2, seed=9, rules={"holes": 1})
    table = Table(g, bot_seats(["random", "random"], g.rules, g.seed))
    with pytest.raises(IllegalAction, match="it is seat 0's turn, not seat 1's"):
        table.play("reveal 1", seat=1)
    assert g.history == []
    table.run()
    with pytest.raises(IllegalAction, match="the match is over"):
        table.play("draw")
    with pytest.raises(GolfError, match="the match is over"):
        table.step()
    with pytest.raises(GolfError, match="3 seats for a game of 2 players"):
        Table(g, bot_seats(["random"] * 3, g.rules, 0))


# --- one derivation of bot seeds ----------------------------------------------------------

def test_bot_seeds_come_from_one_function() -> None:
    defined = [p for p in SRC.rglob("*.py")
               if any(isinstance(n, ast.FunctionDef) and n.name == "bot_seed"
                      for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert [p.relative_to(SRC).as_posix() for p in defined] == ["table.py"]
    assert len({bot_seed(7, s) for s in range(16)}) == 16
    assert all(0 <= bot_seed(seed, s) < 2**63 for seed in (0, 1, 2**64) for s in range(4))


def test_every_driver_seeds_its_bots_by_match_seed_and_seat() -> None:
    rules = load_rules("six-card", {"holes": 1})
    # the terminal: the seats of a new game
    seats = seat_table(["Ann"], ["random", "random"], game_seed=77)
    assert [s.seed for s in seats[1:]] == [bot_seed(77, 1), bot_seed(77, 2)]
    # the simulator: a match of noisy bots plays as bots seeded by bot_seed do
    specs = ["expert:noise=3", "random"]
    result = play_match(rules, 2, specs, seed=123)
    g = Game(rules, players=2, seed=123)
    plain_loop(g, [make_bot(spec, rules, seed=bot_seed(123, s)) for s, spec in enumerate(specs)])
    assert result.totals == tuple(g.totals)
    # the Gymnasium opponents
    env = GolfEnv("six-card", players=3, rules={"holes": 1}, opponents="random", seat=1)
    env.reset(seed=4)
    assert {s: b.seed for s, b in env.bots.items()} == {
        s: bot_seed(env.game.seed, s) for s in (0, 2)}


# --- the save format ----------------------------------------------------------------------

def test_a_save_round_trips_and_restored_bots_go_on_as_before(tmp_path: Path) -> None:
    g = Game("four-card-wild", players=3, seed=12)
    seats = [SeatSpec("Ann"), SeatSpec("Rand", "random", bot_seed(12, 1)),
             SeatSpec("Ex", "expert:noise=2", bot_seed(12, 2))]
    person = Scripted()
    bots = {1: make_bot("random", g.rules, seed=bot_seed(12, 1)),
            2: make_bot("expert:noise=2", g.rules, seed=bot_seed(12, 2))}
    places: list[Seat] = [PersonSeat(person), BotSeat(bots[1]), BotSeat(bots[2])]
    table = Table(g, places)
    for _ in range(40):
        table.step()
    path = tmp_path / "save.json"
    write_save(path, g, seats, {"show_peeks": True})
    assert json.loads(path.read_text())["format"] == SAVE_FORMAT
    saved = read_save(path)
    assert saved.seats == seats and saved.options == {"show_peeks": True}
    again, again_bots = restore(saved)
    assert again.record() == g.record()
    resumed = Table(again, [PersonSeat(Scripted()), BotSeat(again_bots[1]),
                            BotSeat(again_bots[2])])
    table.run()
    resumed.run()
    assert again.record() == g.record()


def test_older_saves_and_bare_records_still_load(tmp_path: Path) -> None:
    g = Game("six-card", players=2, seed=3)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw"):
        g.apply(a)
    seats = [SeatSpec("You"), SeatSpec("Random", "random", 5)]
    old = json.loads(save_json(g, seats, {}))
    old["format"] = "golf-terminal-save/1"  # what 'golf play --save' wrote before
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    saved = read_save(path)
    assert saved.seats == seats
    assert restore(saved)[0].record() == g.record()
    path.write_text(json.dumps(g.record()))
    bare = read_save(path)
    assert [s.name for s in bare.seats] == ["Player 1", "Player 2"]
    assert restore(bare)[1] == {}
    path.write_text(json.dumps({**old, "format": "golf-save/99"}))
    with pytest.raises(GolfError, match="its format is 'golf-save/99', expected 'golf-save/1'"):
        read_save(path)
    with pytest.raises(GolfError, match=r"action 6 \('knock'\) cannot be played"):
        restore(Saved({**g.record(), "actions": [*old["record"]["actions"], "knock"]}, seats))
