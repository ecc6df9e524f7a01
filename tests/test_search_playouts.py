"""The search's compiled playout policies, root allocation and clairvoyant bound."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from golf import Game, GolfError, load_rules
from golf.actions import Action
from golf.bots import make_bot
from golf.bots.search import SearchBot, advantage, clairvoyant_choose
from golf.fast import FastGame
from golf.fast.machine import MAX_LEGAL, legal_actions
from golf.fast.search import P_CAREFUL, P_GREEDY, playout_action

# card codes: suit * 16 + rank (A=1 ... K=13)
K, TWO, NINE, TEN, JACK, FOUR = 13, 2, 9, 10, 11, 4


def _hold(mine: list[int], held: int, theirs: list[int], their_up: list[bool]) -> Game:
    """Six-card, seat 0 holding ``held`` (drawn) with every cell but the last face up."""
    g = Game("six-card", players=2, seed=3)
    p: dict[str, Any] = g.position()
    used = {*mine, held, *theirs}
    stock = [c for c in p["stock"] + [c for grid in p["grids"] for c in grid]
             + p["discard"] + ([p["held"]] if p["held"] is not None else [])
             if c not in used]
    p.update(phase="hold", current_player=0, grids=[mine, theirs],
             face_up=[[True] * 5 + [False], their_up], held=held, held_from="stock",
             discard=stock[:1], stock=stock[1:], turns=[3, 3], turn_count=6,
             setup_chosen=[])
    return Game.from_position(g.rules, p)


def _policy(g: Game, policy: int) -> Action:
    f = FastGame.from_position(g.rules, g.position(), chance="fast")
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    n = legal_actions(f.state, f.cfg, legal)
    a = playout_action(f.state, f.cfg, policy, legal, n, np.empty(2 * MAX_LEGAL, dtype=np.int64))
    assert a in legal[:n]
    return Action(int(a))


def test_careful_playouts_do_not_go_out_when_behind() -> None:
    # seat 0 shows 10 J 9 / J 10 (no pair; cells in rows, columns pair) and holds a 9:
    # the 9 in the last face-down cell pairs the column and ends the hole at 40 points,
    # while the opponent shows two kings and four face-down cards
    behind = _hold([16 + TEN, 16 + JACK, 16 + NINE, 32 + JACK, 32 + TEN, 48 + FOUR],
                   32 + NINE, [16 + K, 32 + K, 48 + TWO, 2, 18, 34],
                   [True, True] + [False] * 4)
    assert str(_policy(behind, P_GREEDY)) == "swap 6"  # greedy completes its grid
    assert str(_policy(behind, P_CAREFUL)) in ("swap 1", "swap 5")  # a 10 goes instead
    # ahead: the same move leaves 0 points against an opponent showing 10 J 9
    ahead = _hold([16 + K, 16 + TWO, 16 + FOUR, 32 + K, 32 + TWO, 48 + NINE], 32 + FOUR,
                  [16 + TEN, 32 + JACK, NINE, 33, 17, 49], [True, True, True] + [False] * 3)
    assert str(_policy(ahead, P_GREEDY)) == str(_policy(ahead, P_CAREFUL)) == "swap 6"


def test_every_playout_choice_is_legal_over_many_states() -> None:
    """Careful play differs from greedy only where greedy completes the grid."""
    rules = load_rules("six-card")
    differs = 0
    for seed in range(6):
        f = FastGame(rules, players=2, seed=seed, chance="fast")
        legal = np.empty(MAX_LEGAL, dtype=np.int64)
        scratch = np.empty(2 * MAX_LEGAL, dtype=np.int64)
        while not f.is_over:
            n = legal_actions(f.state, f.cfg, legal)
            g_a = playout_action(f.state, f.cfg, P_GREEDY, legal, n, scratch)
            c_a = playout_action(f.state, f.cfg, P_CAREFUL, legal, n, scratch)
            assert c_a in legal[:n]
            if c_a != g_a:
                differs += 1
                seat = f.current_player
                assert seat is not None
                down = [not u for u in f.position()["face_up"][seat]]
                assert sum(down) == 1 and down[g_a & 15]
            f.apply(int(c_a))
    assert differs > 0


def test_halving_and_even_spreading_both_reproduce() -> None:
    g = Game("six-card", players=2, seed=8)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    view, legal = g.view(g.current_player or 0, codes=True), g.legal_actions()
    for root in ("halving", "even"):
        a = make_bot(f"search:sims=90,root={root}", g.rules, seed=2)
        b = make_bot(f"search:sims=90,root={root}", g.rules, seed=2)
        assert a.choose(view, legal) == b.choose(view, legal)
        assert isinstance(a, SearchBot) and a.last_sims >= 90


def test_clairvoyant_reads_the_game_and_reproduces() -> None:
    g = Game("six-card", players=2, seed=5)
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    for stock in ("known", "shuffled"):
        first = clairvoyant_choose(g, sims=40, seed=1, stock=stock)
        assert first in g.legal_actions()
        assert clairvoyant_choose(g, sims=40, seed=1, stock=stock) == first
    with pytest.raises(GolfError, match="stock='peek'"):
        clairvoyant_choose(g, stock="peek")
    with pytest.raises(GolfError, match="sims must be > 0"):
        clairvoyant_choose(g, sims=0)


@pytest.mark.parametrize(("spec", "message"), [
    ("search:ms=0", "ms > 0, got sims=0, ms=0"),
    ("search:ms=-5", "ms > 0"),
    ("search:playout=expertish", "playout='expertish' is not a playout policy"),
    ("search:root=ucb", "root='ucb' is not a way"),
    ("search:zthin=-1", "zthin must be from 0 to 10 and thin >= 0"),
    ("search:thin=-2", "got zthin=2.5, thin=-2"),
])
def test_bad_options_say_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(GolfError, match=message.replace("(", r"\(")):
        make_bot(spec, load_rules("six-card"))


def test_a_huge_z_keeps_the_playout_policys_own_move() -> None:
    """The anchor is the compiled expert's move; with z=10 the search never finds an
    advantage clear enough to leave it (and with z=0 it sometimes does)."""
    from golf.fast.expert import expert_choice, expert_config

    g = Game("six-card", players=2, seed=21)
    expert = make_bot("expert", g.rules, seed=1)
    deviations = checked = 0
    while not g.is_over and checked < 24:
        seat = g.current_player
        assert seat is not None
        view, legal = g.view(seat, codes=True), g.legal_actions()
        if len(legal) > 1:
            f = FastGame.from_position(g.rules, g.position(), chance="fast")
            own = Action(int(expert_choice(f.state, expert_config(g.rules, 2))))
            assert make_bot("search:sims=60,z=10", g.rules, seed=3).choose(view, legal) == own
            free = make_bot("search:sims=60,z=0", g.rules, seed=3).choose(view, legal)
            deviations += free != own
            checked += 1
        g.apply(expert.choose(view, legal))
    assert checked == 24 and deviations > 0


def test_the_match_value_adds_what_the_lead_makes_of_winning() -> None:
    """After a hole of a 9-hole match: sigma 0 is the margin; a small sigma adds (or
    takes) the whole half win bonus for any lead; a larger one less, never more; the
    two seats' values cancel (two players); at the match's end it is the margin and the
    win bonus, as without sigma."""
    import random

    from golf.fast.layout import S_HOLES_ENDED
    from golf.fast.search import WIN_BONUS, hole_value, match_value

    half = 50 * WIN_BONUS
    seen: set[int] = set()
    for seed in range(12):
        f = FastGame("six-card", players=2, seed=seed, chance="fast")
        pick = random.Random(seed)
        while not f.is_over:
            f.apply(pick.choice(f.legal_actions()))
            if f.is_over or int(f.state[S_HOLES_ENDED]) == 0:
                continue
            st, cfg = f.state, f.cfg
            margin = 100 * int(hole_value(st, cfg, 0))
            values = [int(match_value(st, cfg, 0, sigma)) for sigma in (0, 1, 300, 900)]
            assert values[0] == margin
            sign = (margin > 0) - (margin < 0)
            assert values[1] == margin + sign * half
            assert sign * (values[1] - values[2]) >= 0 and sign * (values[2] - values[3]) >= 0
            assert sign * (values[3] - margin) >= 0
            assert int(match_value(st, cfg, 1, 300)) == -values[2]
            seen.add(sign)
            break
        while not f.is_over:
            f.apply(pick.choice(f.legal_actions()))
        assert int(match_value(f.state, f.cfg, 0, 300)) == 100 * int(hole_value(f.state, f.cfg, 0))
    assert seen >= {-1, 1}


def _decisions(seed: int, count: int) -> list[tuple[Game, dict[str, Any], list[Action]]]:
    """``count`` positions with a choice, from an expert self-play match (copies)."""
    g = Game("six-card", players=2, seed=seed)
    expert = make_bot("expert", g.rules, seed=1)
    out = []
    while not g.is_over and len(out) < count:
        seat = g.current_player
        assert seat is not None
        view, legal = g.view(seat, codes=True), g.legal_actions()
        if len(legal) > 1:
            out.append((Game.from_position(g.rules, g.position()), view, legal))
        g.apply(expert.choose(view, legal))
    return out


def test_measure_is_the_decision_with_its_statistics() -> None:
    """measure runs the same search as choose; its top is the best mean of the actions
    it kept, and it leaves the anchor only for an action clear by z over enough worlds
    (with fewer than ``thin`` worlds, by ``zthin``)."""
    left = 0
    for _, view, legal in _decisions(22, 30):
        bot = make_bot("search:sims=120,z=1,thin=30,zthin=3", load_rules("six-card"), seed=5)
        assert isinstance(bot, SearchBot)
        m = bot.measure(view, legal)
        assert m.legal == tuple(legal)
        assert m.legal[m.chosen] == bot.choose(view, legal)
        assert sum(m.counts) == bot.last_sims
        assert m.means[m.top] == max(m.means[i] for i in range(len(legal))
                                     if m.counts[i] == m.counts[m.top])
        assert m.chosen in (m.top, m.anchor)
        assert m.clearness(m.anchor) == 0.0
        if m.chosen != m.anchor:
            left += 1
            need = 1 if m.counts[m.top] >= 30 else 3
            assert m.clearness(m.top) > need and m.counts[m.top] >= 8
    assert left > 0


def test_thin_evidence_needs_the_stricter_test() -> None:
    """With a few playouts every action has fewer than ``thin`` worlds: a huge ``zthin``
    then keeps the anchor wherever ``thin=0`` (z alone) leaves it."""
    r = load_rules("six-card")
    strict = loose = 0
    for _, view, legal in _decisions(23, 30):
        a = make_bot("search:sims=60,z=0.5,zthin=10", r, seed=2)
        b = make_bot("search:sims=60,z=0.5,thin=0", r, seed=2)
        assert isinstance(a, SearchBot) and isinstance(b, SearchBot)
        ma, mb = a.measure(view, legal), b.measure(view, legal)
        assert ma.counts == mb.counts and ma.top == mb.top  # same search, other test
        assert ma.counts[ma.top] < 40
        strict += ma.chosen != ma.anchor
        loose += mb.chosen != mb.anchor
    assert strict == 0 and loose > 0


def test_advantage_is_paired_and_antisymmetric() -> None:
    """The advantage of an action over itself is exactly zero; swapping the two actions
    negates the mean (the same worlds and chance) and keeps the error."""
    r = load_rules("six-card")
    for _, view, legal in _decisions(24, 12)[4:]:
        assert advantage(r, view, legal, 1, 1, 30, seed=3) == (0.0, 0.0)
        ab = advantage(r, view, legal, 0, 1, 200, seed=9)
        ba = advantage(r, view, legal, 1, 0, 200, seed=9)
        assert ab[0] == pytest.approx(-ba[0]) and ab[1] == pytest.approx(ba[1])
        assert ab[1] >= 0
    _, view, legal = _decisions(24, 1)[0]
    with pytest.raises(GolfError, match="action index 9 is not one of the"):
        advantage(r, view, legal, 0, 9, 10)
    with pytest.raises(GolfError, match="worlds must be at least 2"):
        advantage(r, view, legal, 0, 1, 1)
    with pytest.raises(GolfError, match="playout='best'"):
        advantage(r, view, legal, 0, 1, 10, playout="best")
