"""The text environment for language-model agents (golf.envs.text) and its TextArena
registration (golf.envs.textarena_env), driven by the real textarena package."""

from __future__ import annotations

import random
import re

import pytest
import textarena as ta
from hypothesis import example, given, settings
from hypothesis import strategies as st

import golf
from golf.envs.text import (
    AnswerError,
    TextMatch,
    TextOptions,
    describe,
    parse_answer,
    play_text,
)
from golf.knowledge import Sampler
from golf.rules import load_rules, preset_names

PRESETS = preset_names()


def _legal_from(prompt: str) -> list[str]:
    """The moves a prompt offers, read back from its 'Your legal moves:' line."""
    line = [x for x in prompt.splitlines() if x.startswith("Your legal moves: ")][-1]
    moves = []
    for group in line.removeprefix("Your legal moves: ").split(" | "):
        kind, *positions = group.split()
        moves += [f"{kind} {p}" for p in positions] if positions else [kind]
    return moves


def _players(name: str) -> int:
    return max(2, load_rules(name).players[0])


# --- the prompt ----------------------------------------------------------------------

@pytest.mark.parametrize("name", PRESETS)
def test_prompt_reads_the_same_in_every_world_the_seat_cannot_tell_apart(name: str) -> None:
    """A prompt is a function of the seat's view: in sampled deals consistent with that
    view (other hidden cards, another stock order) it is word for word the same, so it
    cannot carry a hidden card."""
    rng = random.Random(name)
    g = golf.Game(name, players=_players(name), seed=11, rules={"holes": 2})
    names = [f"P{s}" for s in range(g.players)]
    checked = 0
    while not g.is_over and checked < 12:
        seat = g.current_player
        assert seat is not None
        if rng.random() < 0.3:
            text = describe(g, seat, names)
            sampler = Sampler(g.view(seat, codes=True), g.rules, rng=rng.randrange(1 << 30))
            for _ in range(3):
                world = sampler.game(sampler.world())
                assert describe(world, seat, names) == text
            checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked >= 5


@pytest.mark.parametrize("name", PRESETS)
def test_the_prompt_offers_exactly_the_legal_moves(name: str) -> None:
    m = TextMatch(golf.Game(name, players=_players(name), seed=3, rules={"holes": 1}),
                  bots={s: "random" for s in range(1, _players(name))})
    rng = random.Random(4)
    while m.to_act is not None:
        prompt = m.observation()
        offered = _legal_from(prompt)
        assert offered == [str(a) for a in m.game.legal_actions()]
        assert m.answer(rng.choice(offered)).accepted
    assert m.game.is_over


def test_the_rules_come_from_the_settings() -> None:
    """Changing a setting changes the rules text (it is not a fixed copy)."""
    a = golf.Game("six-card", players=2, seed=1)
    b = golf.Game("six-card", players=2, seed=1, rules={"knock": True})
    assert "knock" not in describe(a, 0, ["You", "B"]).split("Your legal")[0]
    assert "or knock" in describe(b, 0, ["You", "B"])


@pytest.mark.parametrize("name", ["german", "four-card-wild"])
def test_memory_mode_describes_peeked_cards_only_until_the_first_draw(name: str) -> None:
    g = golf.Game(name, players=2, seed=5)
    m = TextMatch(g, bots={1: "greedy"})
    first = [a for a in g.legal_actions()][:2]
    for a in first:
        m.answer(str(a))
    peeked = [int(str(a).split()[1]) for a in first]
    cards = [g.view(0)["grids"][0][p - 1] for p in peeked]
    before = m.observation()
    for p, c in zip(peeked, cards, strict=True):
        assert f"{p}: {c}" in before
    assert m.answer("draw").accepted
    # While holding the drawn card and every turn after: the peeked cards are backs.
    for _ in range(6):
        if m.to_act is None:
            break
        prompt = m.observation()
        own = prompt.split("\n> ")[1].split("Stock:")[0] if "\n> " in prompt else prompt
        for p, c in zip(peeked, cards, strict=True):
            if not g.view(0)["face_up"][0][p - 1]:
                assert f"{p}: {c}" not in own
        assert "in secret; your grid shows" not in prompt
        legal = _legal_from(prompt)
        m.answer("discard" if "discard" in legal else ("draw" if "draw" in legal else legal[0]))
    # The log never named a peeked card: a peek is told as a position.
    assert not any(re.search(r"look at position \d+: ", e["observation"])
                   for e in m.transcript)


def test_show_peeks_keeps_them_described() -> None:
    g = golf.Game("german", players=2, seed=5)
    m = TextMatch(g, bots={1: "greedy"}, options=TextOptions(show_peeks=True))
    m.answer("peek 1")
    m.answer("peek 2")
    card = g.view(0)["grids"][0][0]
    m.answer("draw")
    assert f"1: {card}" in m.observation()


# --- reading answers -------------------------------------------------------------------

def test_answers_are_read_leniently() -> None:
    g = golf.Game("six-card-knock", players=2, seed=2)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    legal = g.legal_actions()
    assert str(parse_answer("d", legal)) == "draw"
    assert str(parse_answer("I'll take it: [take]", legal)) == "take"
    assert str(parse_answer("Reasoning...\n\nFinal answer: **draw**", legal)) == "draw"
    assert str(parse_answer("  DRAW.  ", legal)) == "draw"
    g.apply("draw")
    legal = g.legal_actions()
    assert str(parse_answer("s3", legal)) == "swap 3"
    assert str(parse_answer("Answer: swap 4\n", legal)) == "swap 4"
    assert str(parse_answer("x", legal)) == "discard"


@pytest.mark.parametrize(("text", "says"), [
    ("", "nothing typed"),
    ("knock", "'knock' is not legal now"),
    ("swap 9", "off the grid"),
    ("help", "is not a move"),
    ("banana", "is not an action"),
    ("x" * 30_000, "characters long"),
])
def test_a_wrong_answer_gets_a_specific_message(text: str, says: str) -> None:
    g = golf.Game("six-card", players=2, seed=2)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    g.apply("draw")
    with pytest.raises(AnswerError, match=re.escape(says)):
        parse_answer(text, g.legal_actions(), g.rules.cells)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200), st.integers(0, 40), st.text(max_size=60))
def test_any_answer_is_a_legal_move_or_an_answer_error(prefix: str, k: int, junk: str) -> None:
    g = golf.Game("nine-card", players=2, seed=k)
    rng = random.Random(k)
    for _ in range(k):
        g.apply(rng.choice(g.legal_actions()))
    legal = g.legal_actions()
    try:
        got = parse_answer(prefix + junk, legal, 9)
    except AnswerError:
        pass
    else:
        assert got in legal
    a = rng.choice(legal)
    assert parse_answer(f"{prefix}\nAnswer: {a}", legal, 9) == a


@pytest.mark.parametrize("text", ["²", "①", "³", "٣", "३", "𝟛", "Answer: ²", "[reveal ٣]",
                                  "s²", "swap ٣", "Answer: `٣`."])
def test_an_answer_in_other_digits_is_an_answer_error(text: str) -> None:
    # str.isdigit() is true for each; int() refused "²" (a bare ValueError) and read "٣"
    # as 3. Only ASCII digits name a position.
    legal = golf.Game("six-card", players=2, seed=1).legal_actions()  # reveal 1 to 6
    with pytest.raises(AnswerError):
        parse_answer(text, legal, 6)


@settings(max_examples=300, deadline=None)
@given(st.text() | st.text(st.characters(categories=("Nd", "No", "Nl", "Zs", "P")),
                           max_size=6))
@example("d0")  # found by Hypothesis: a position after 'draw' escaped as a NotationError
def test_any_text_is_a_legal_move_or_an_answer_error(text: str) -> None:
    legal = golf.Game("six-card", players=2, seed=1).legal_actions()
    try:
        got = parse_answer(text, legal, 6)
    except AnswerError:
        return
    assert got in legal


def test_a_match_counts_an_answer_in_other_digits_as_invalid() -> None:
    m = TextMatch(golf.Game("six-card", players=2, seed=1), bots={1: "greedy"},
                  options=TextOptions(retries=3))
    for text in ("²", "٣"):
        r = m.answer(text)
        assert not r.accepted and r.action is None and m.game.history == []
    assert m.invalid == [2, 0]
    assert m.answer("3").accepted


# --- retries, fallbacks and the record -------------------------------------------------

def test_retries_then_forfeit() -> None:
    m = TextMatch(golf.Game("six-card", players=3, seed=1), bots={1: "greedy", 2: "greedy"},
                  options=TextOptions(retries=2))
    for _ in range(2):
        r = m.answer("fold")
        assert not r.accepted and not m.is_over
        assert m.observation().startswith("Your last answer was not played: 'fold'")
        assert m.game.history == []
    r = m.answer("fold")
    assert r.fallback and m.is_over and m.forfeited == 0
    assert m.placings()[0] == 3 and m.rewards()[0] == -1.0
    assert m.invalid == [3, 0, 0] and m.fallbacks == [1, 0, 0]


def test_a_bot_fallback_plays_for_the_seat_and_is_counted() -> None:
    m = TextMatch(golf.Game("six-card", players=2, seed=1, rules={"holes": 1}),
                  bots={1: "greedy"}, options=TextOptions(retries=0, fallback="expert"))
    play_text(m, {0: lambda prompt: "no idea"})
    assert m.game.is_over and m.forfeited is None
    decisions = len([t for t in m.table.turns if t.seat == 0])
    assert m.fallbacks[0] == decisions == m.invalid[0]
    # The same deal with the expert itself in seat 0 plays the same moves.
    ref = golf.Game("six-card", players=2, seed=1, rules={"holes": 1})
    from golf.table import Table, bot_seats
    Table(ref, bot_seats(["expert", "greedy"], ref.rules, ref.seed)).run()
    assert m.game.history == ref.history


def test_the_record_replays_and_keeps_the_conversation() -> None:
    rng = random.Random(9)
    m = TextMatch(golf.Game("four-card-wild", players=2, seed=4, rules={"holes": 2}),
                  bots={1: "random"})
    while m.to_act is not None:
        legal = _legal_from(m.observation())
        m.answer(rng.choice(["???", f"Answer: {rng.choice(legal)}"]))
    rec = m.record()
    assert golf.Game.from_record(rec).totals == m.game.totals
    assert len(rec["transcript"]) == len(m.transcript) > 0
    assert rec["invalid_answers"][0] == sum(1 for e in m.transcript if e["error"])
    played = [e["action"] for e in rec["transcript"] if e["action"]]
    assert played == [str(t.action) for t in m.table.turns if t.seat == 0]


def test_bad_options_are_refused() -> None:
    with pytest.raises(golf.GolfError, match="retries"):
        TextOptions(retries=-1)
    with pytest.raises(golf.GolfError, match="fallback"):
        TextOptions(fallback="cmd:rm -rf /")
    with pytest.raises(golf.GolfError, match="not a seat"):
        TextMatch(golf.Game("six-card", players=2, seed=1), bots={5: "greedy"})


# --- TextArena ---------------------------------------------------------------------------


class LegalAgent(ta.Agent):  # type: ignore[misc]
    """A TextArena agent that answers with one of the moves its observation offers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: str) -> str:
        return self.rng.choice(_legal_from(observation))


def _drive(env: object, players: int, seed: int, agents: list[object]) -> tuple:
    env.reset(num_players=players, seed=seed)  # type: ignore[attr-defined]
    done, steps = False, 0
    while not done:
        pid, obs = env.get_observation()  # type: ignore[attr-defined]
        assert isinstance(obs, str)
        done, _info = env.step(agents[pid](obs))  # type: ignore[attr-defined,operator]
        steps += 1
        assert steps < 5000
    return env.close()  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("name", PRESETS)
def test_textarena_plays_every_preset_to_the_end(name: str) -> None:
    import golf.envs.textarena_env as tae

    n = _players(name)
    env = ta.make(tae.textarena_id(name, n), holes=1)
    rewards, info = _drive(env, n, 7, [LegalAgent(s) for s in range(n)])
    assert set(rewards) == set(range(n))
    assert max(rewards.values()) == 1.0 and min(rewards.values()) <= 0
    record = env.record()
    assert golf.Game.from_record(record).is_over
    assert all(not info[s]["invalid_move"] for s in range(n))


def test_textarena_ids_cover_every_player_count() -> None:
    from textarena.envs.registration import ENV_REGISTRY

    import golf.envs.textarena_env as tae

    for name in PRESETS:
        lo, hi = load_rules(name).players
        for n in range(lo, hi + 1):
            assert tae.textarena_id(name, n) in ENV_REGISTRY
            assert tae.textarena_id(name, n, raw=True) in ENV_REGISTRY
    solo = ta.make("GolfCards-NineCard-1p-v0", holes=1)
    rewards, _ = _drive(solo, 1, 3, [LegalAgent(0)])
    assert rewards[0] <= 0
    eight = ta.make("GolfCards-SixCard-8p-v0", holes=1)
    rewards, _ = _drive(eight, 8, 3, [LegalAgent(s) for s in range(8)])
    assert len(rewards) == 8


def test_textarena_wrong_answers_and_forfeit() -> None:
    env = ta.make("GolfCards-v0", variant="six-card", holes=1, retries=1)
    env.reset(num_players=2, seed=1)
    pid, _ = env.get_observation()
    done, _ = env.step("banana")
    assert not done
    pid2, obs = env.get_observation()
    assert pid2 == pid and "not an action" in obs
    done, _ = env.step("banana")
    assert done
    rewards, info = env.close()
    assert rewards[pid] == -1.0 and rewards[1 - pid] == 1.0
    assert info[pid]["invalid_move"] and "forfeited" in info[pid]["reason"]


def test_textarena_refuses_a_wrong_player_count() -> None:
    env = ta.make("GolfCards-FourCard-3p-v0")
    with pytest.raises(golf.GolfError, match="seats 3 players"):
        env.reset(num_players=2, seed=0)
