"""The match state as a public value: copies, games built over states, and the states
the rules cannot reach (refused by ``from_state(validate=True)`` and ``from_position``)."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

import golf
from golf import Game, GolfError
from golf.phases import FLIP, HOLD, SETUP, TURN
from golf.state import HoleState, MatchState, check_state

SRC = Path(golf.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent


def played(variant: str = "six-card", players: int = 2, seed: int = 1, steps: int = 20,
           rules: dict[str, Any] | None = None) -> Game:
    g = Game(variant, players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_copy_is_independent_and_equal() -> None:
    g = played(steps=25)
    copy = g.state.copy()
    assert copy == g.state and copy is not g.state and copy.hole is not g.state.hole
    assert copy.hole.grids is not g.state.hole.grids
    assert all(a is not b for a, b in zip(copy.hole.grids, g.state.hole.grids, strict=True))
    before = g.position()
    h = Game.from_state(copy)
    rng = random.Random(3)
    for _ in range(10):
        h.apply(rng.choice(h.legal_actions()))
    assert g.position() == before and copy != g.state


def test_a_game_over_a_copied_state_plays_exactly_like_the_original() -> None:
    g = played(steps=13)
    h = Game.from_state(g.state.copy(), validate=True)
    rng = random.Random(9)
    while not g.is_over:
        assert h.legal_actions() == g.legal_actions()
        a = rng.choice(g.legal_actions())
        assert h.step(a) == g.step(a)
    assert h.position() == g.position() and h.record() == g.record()


def test_clone_and_from_state_agree() -> None:
    g = played(steps=17)
    assert Game.from_state(g.state.copy()).position() == g.clone().position() == g.position()


def test_game_state_fields_are_the_public_properties() -> None:
    g = played("german", players=3, steps=12)
    st, h = g.state, g.state.hole
    assert (st.rules, st.players, st.seed, st.history) == (g.rules, g.players, g.seed, g.history)
    assert (h.current, h.dealer, h.active, len(h.stock)) == (
        g.current_player, g.dealer, g.active, g.stock_size)
    assert [bool(h.up[1] >> i & 1) for i in range(g.rules.cells)] == g.face_up(1)
    assert sorted(st.census()) == sorted(g.census()) == sorted(st.deck)


def test_every_state_of_a_match_validates() -> None:
    for variant in golf.preset_names():
        g = Game(variant, players=3, seed=4)
        rng = random.Random(4)
        while not g.is_over:
            check_state(g.state)
            g.apply(rng.choice(g.legal_actions()))
        check_state(g.state)


def _in_phase(variant: str, phase: int, rules: dict[str, Any] | None = None,
              seed: int = 1) -> Game:
    g = Game(variant, players=2, seed=seed, rules=rules)
    rng = random.Random(seed)
    while g.state.hole.phase != phase:
        g.apply(rng.choice(g.legal_actions()))
    return g


def _refused(state: MatchState, message: str) -> None:
    with pytest.raises(GolfError, match=message):
        Game.from_state(state, validate=True)
    pos = golf.position.position(state)
    with pytest.raises(GolfError, match="position cannot be reached: .*" + message):
        Game.from_position(state.rules, pos)


def test_a_german_game_is_never_in_the_flip_phase() -> None:
    s = _in_phase("german", TURN).state.copy()
    s.hole.phase = FLIP
    _refused(s, "german has no flip after discarding")


def test_a_complete_seat_never_acts_where_face_up_cards_stay() -> None:
    s = _in_phase("six-card", TURN, rules={"replace": "face-down"}).state.copy()
    h = s.hole
    h.up[h.current] = (1 << s.rules.cells) - 1
    h.ender = h.current ^ 1  # the other seat went out first, so the final turns run
    h.up[h.ender] = (1 << s.rules.cells) - 1
    _refused(s, "has every card face up and may not replace face-up cards")


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: setattr(s.hole, "knocker", s.hole.current ^ 1),
     "a knock needs a variant with knocking"),
    (lambda s: setattr(s.hole, "ender", s.hole.current ^ 1),
     "cannot have started the final turns"),
    (lambda s: s.hole.peeked.__setitem__(0, 1), "nobody peeks in six-card"),
    (lambda s: setattr(s, "winners", [0]), "a match still being played has no winners"),
    (lambda s: setattr(s.hole, "turn_count", s.rules.turn_limit),
     "the hole is over: no turns or no cards left"),
    (lambda s: s.hole.stock.append(s.hole.stock[0]), "not the game's deck: extra"),
    (lambda s: setattr(s.hole, "current", 5), "seat 5 is to act but is not in play"),
])
def test_unreachable_states_are_refused_with_a_reason(change: Any, message: str) -> None:
    s = _in_phase("six-card", TURN).state.copy()
    change(s)
    with pytest.raises(GolfError, match=message):
        Game.from_state(s, validate=True)
    Game.from_state(s)  # trusted: no checks at all (the caller vouches for the state)


def test_the_ender_cannot_be_the_seat_to_act() -> None:
    s = _in_phase("six-card-knock", TURN, seed=3).state.copy()
    s.hole.knocker = s.hole.ender = s.hole.current
    _refused(s, "started the final turns, so the hole ends before its turn")


def test_setup_only_where_the_variant_has_one() -> None:
    s = _in_phase("six-card", SETUP).state.copy()
    s.hole.chosen = 0b111  # three chosen in a two-card setup
    with pytest.raises(GolfError, match="chosen fewer than 2"):
        Game.from_state(s, validate=True)
    g = _in_phase("six-card", HOLD)
    assert Game.from_state(g.state.copy(), validate=True).legal_actions() == g.legal_actions()


def test_view_of_a_bool_is_refused() -> None:
    g = Game("six-card", players=2, seed=1)
    for bad in (True, False, 2, -1, "0", 0.0):
        with pytest.raises(GolfError, match="player must be a seat from 0 to 1"):
            g.view(bad)  # type: ignore[arg-type]
    assert g.view(None) == g.public_view() and g.view(None)["seat"] is None


def test_the_public_view_shows_what_every_seat_sees() -> None:
    g = _in_phase("german", HOLD, seed=2)
    pub = g.public_view(codes=True)
    views = [g.view(s, codes=True) for s in range(2)]
    for key in ("discard", "stock_size", "face_up", "peeked_cells", "totals", "phase"):
        assert pub[key] == views[0][key] == views[1][key]
    for seat in range(2):
        for i, card in enumerate(pub["grids"][seat]):
            assert card is None or card == views[seat ^ 1]["grids"][seat][i]
    held_from = g.state.hole.held_from
    assert (pub["held"] is None) == (held_from == golf.phases.FROM_STOCK)
    assert pub["peeked"] == [] and pub["legal_actions"] == []


def test_hole_state_keyword_defaults() -> None:
    h = HoleState((0, 1), 1, [[1], [2]], [3], [4])
    assert (h.up, h.peeked, h.turns, h.held, h.ender) == ([0, 0], [0, 0], [0, 0], -1, -1)
    assert h.copy() == h


# --- module boundaries ------------------------------------------------------------------

# A class's own private methods (self-prefixed) are its own business; another object's are not.
GAME_PRIVATE = re.compile(r"(?<!self)\.(_legal|_legal_tuple|_next|_notes|_scorer|_t|_step|_deal"
                          r"|_end_hole|_end_turn|_begin_turn|_coerce|_why_illegal)\b")


def test_nothing_outside_the_engine_core_reads_a_private_attribute_of_game() -> None:
    offenders = []
    for path in [*SRC.rglob("*.py"), *TESTS.rglob("*.py")]:
        if path.name == "game.py" and path.parent == SRC:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_PRIVATE.search(line) and "GAME_PRIVATE" not in line:
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


@pytest.mark.parametrize("module", ["view.py", "position.py", "state.py", "events.py",
                                    "types.py"])
def test_the_engine_core_modules_do_not_import_the_game(module: str) -> None:
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert "game" not in imported and "golf.game" not in imported
