"""Turn events: what Game.step reports, and what each seat or a spectator is shown."""

from __future__ import annotations

import json
import random

import golf
from golf import Game
from golf.cards import card_str
from golf.events import (
    DISCARDED,
    DREW,
    FINAL_TURNS,
    HOLE_ENDED,
    HOLE_STARTED,
    KNOCKED,
    MATCH_ENDED,
    PEEKED,
    PLAYOFF,
    RESHUFFLED,
    REVEALED,
    SWAPPED,
    Event,
    render,
)


def setup_done(g: Game) -> None:
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])


def test_step_and_apply_play_the_same_game() -> None:
    g, h = Game("six-card", 2, seed=5), Game("six-card", 2, seed=5)
    rng = random.Random(5)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.apply(a)
        e = h.step(a)
        assert isinstance(e, Event) and e.action == a
    assert g.position() == h.position()


def test_a_stock_draw_is_the_holders_secret_until_played() -> None:
    g = Game("six-card", players=3, seed=12)
    setup_done(g)
    seat = g.state.hole.current
    e = g.step("draw")
    held = g.state.hole.held
    assert e.facts == ((DREW, seat, 0, held),)
    assert e.to_dict(seat)["facts"][0]["card"] == card_str(held)
    for other in (None, *(s for s in range(3) if s != seat)):
        assert e.to_dict(other)["facts"][0]["card"] is None
        assert card_str(held) not in render(e, other)
    out = g.state.hole.grids[seat][2]
    e = g.step("swap 3")
    assert e.facts[0] == (SWAPPED, seat, 2, held, out)
    for viewer in (None, 0, 1, 2):
        f = e.to_dict(viewer)["facts"][0]
        assert (f["card"], f["discarded"], f["position"]) == (card_str(held), card_str(out), 3)


def test_a_taken_discard_is_public_and_a_discard_names_its_card() -> None:
    g = Game("six-card", players=2, seed=3)
    setup_done(g)
    top = g.state.hole.discard[-1]
    e = g.step("take")
    assert e.to_dict(None)["facts"] == [
        {"type": "draw", "seat": e.seat, "from": "discard", "card": card_str(top)}]
    g2 = Game("six-card", players=2, seed=3)
    setup_done(g2)
    g2.apply("draw")
    held = g2.state.hole.held
    e = g2.step("discard")
    assert e.facts == ((DISCARDED, e.seat, held),)
    assert render(e, None) == f"seat {e.seat} discarded {card_str(held)}"


def test_a_peek_shows_where_never_what() -> None:
    g = Game("german", players=2, seed=1)
    e = g.step("peek 4")
    assert e.facts == ((PEEKED, 0, 3),)
    for viewer in (None, 0, 1):
        d = e.to_dict(viewer)
        assert d["facts"] == [{"type": "peek", "seat": 0, "position": 4}]
        assert "card" not in json.dumps(d)
    assert render(e, 0) == "seat 0 looked at position 4"


def test_setup_reveals_show_the_card_to_everyone() -> None:
    g = Game("six-card", players=2, seed=7)
    card = g.state.hole.grids[0][0]
    e = g.step("reveal 1")
    assert e.facts == ((REVEALED, 0, 0, card),)
    assert e.to_dict(None)["facts"][0]["card"] == card_str(card) == \
        e.to_dict(1, codes=False)["facts"][0]["card"]
    assert e.to_dict(1, codes=True)["facts"][0]["card"] == card


def test_going_out_starts_final_turns_for_the_others_and_the_hole_ends() -> None:
    g = Game("six-card", players=3, seed=2)
    rng = random.Random(2)
    finals = ends = 0
    while not g.is_over:
        e = g.step(rng.choice(g.legal_actions()))
        kinds = [f[0] for f in e.facts]
        if FINAL_TURNS in kinds:
            finals += 1
            f = e.facts[kinds.index(FINAL_TURNS)]
            assert f[1] == e.seat == g.state.hole.ender
            assert golf.state.cells_of(f[2]) == tuple(s for s in range(3) if s != e.seat)
        if HOLE_ENDED in kinds:
            ends += 1
            assert e.result is g.hole_results[-1] and e.ended_hole
            d = e.to_dict(None)["facts"][kinds.index(HOLE_ENDED)]
            assert d["result"]["scores"] == list(e.result.scores)
            if not g.is_over:
                start = e.facts[kinds.index(HOLE_STARTED)]
                assert start == (HOLE_STARTED, g.hole, g.dealer, g.state.hole.discard[-1])
    assert ends == len(g.hole_results) == 9 and finals >= 1
    assert e.ended_match and e.facts[-1] == (MATCH_ENDED, golf.state.mask_of(g.winners))


def test_a_knock_and_the_final_turns_it_starts() -> None:
    g = Game("six-card-knock", players=2, seed=4)
    rng = random.Random(1)
    while True:
        legal = g.legal_actions()
        if golf.actions.KNOCK in legal:
            break
        g.apply(rng.choice(legal))
    seat = g.state.hole.current
    e = g.step("knock")
    assert e.facts == ((KNOCKED, seat), (FINAL_TURNS, seat, 1 << (seat ^ 1)))
    assert render(e, None) == (f"seat {seat} knocked; final turns: seat {seat} is out; "
                               f"one more turn each for seat(s) {seat ^ 1}")


def test_a_reshuffle_is_reported_before_the_draw() -> None:
    # The golden game that reshuffles (tests/test_golden.py).
    g = Game("six-card", players=3, seed=28, rules={"flip_after_discard": "never"})
    rng = random.Random(28)
    seen = []
    while not g.is_over:
        e = g.step(rng.choice(g.legal_actions()))
        if e.facts[0][0] == RESHUFFLED:
            seen.append(e)
            assert e.facts[1][:3] == (DREW, e.seat, 0)
            assert e.facts[0][1] == len(g.state.hole.stock) + 1
            assert e.to_dict(None)["facts"][0] == {
                "type": "reshuffle", "stock_size": e.facts[0][1], "reshuffles": e.facts[0][2]}
    assert seen


def test_a_tie_starts_a_playoff() -> None:
    g = Game("six-card", players=2, seed=37, rules={"tie_break": "playoff", "holes": 1})
    rng = random.Random(37)
    playoffs = []
    while not g.is_over:
        e = g.step(rng.choice(g.legal_actions()))
        playoffs += [f for f in e.facts if f[0] == PLAYOFF]
    assert playoffs == [(PLAYOFF, 2, 0b11)]
    assert g.hole_results[-1].playoff


def test_every_event_is_json_ready_for_every_seat() -> None:
    g = Game("four-card-wild", players=3, seed=8)
    rng = random.Random(8)
    while not g.is_over:
        e = g.step(rng.choice(g.legal_actions()))
        for seat in (None, 0, 1, 2):
            for codes in (False, True):
                d = e.to_dict(seat, codes=codes)
                assert json.loads(json.dumps(d)) == d
                assert d["seat"] == e.seat and d["action"] == str(e.action)
            assert render(e, seat)


def test_the_events_doc_examples_run_and_its_table_lists_every_fact() -> None:
    import doctest
    from pathlib import Path

    from golf.events import FACT_NAMES

    doc = Path(__file__).resolve().parents[1] / "docs" / "events.md"
    failures, tried = doctest.testfile(str(doc), module_relative=False)
    assert tried and not failures
    text = doc.read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in text for name in FACT_NAMES)
