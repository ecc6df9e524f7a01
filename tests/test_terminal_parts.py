"""The terminal's parts in-process: drawing from views, typed input, sentences, the rules
summary, seats, save files and command-line errors."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf import Game, card_str, load_rules, preset_names
from golf.actions import ALIASES, Action
from golf.bots import make_bot
from golf.cards import build_deck
from golf.cli import build_parser, main
from golf.commands.play import seats_wanted
from golf.errors import GolfError, NotationError
from golf.scoring import scorer
from golf.table import Saved, SeatSpec, build_bots, read_save, restore, save_json, write_save
from golf.terminal import board as boards
from golf.terminal.console import Console
from golf.terminal.entry import Command, EntryError, legal_text, read
from golf.terminal.narrate import tell
from golf.terminal.replay import replay
from golf.terminal.seats import seat_table
from golf.terminal.session import Options, Session
from golf.terminal.style import Style, detect, visible_len
from golf.terminal.summary import rules_summary

PLAIN = Style(color=False, unicode=False)
TOKEN = re.compile(r"(\d+):(.{3})[* ]?")
SHORT = {kind: alias for alias, kind in ALIASES.items()}


def random_game(preset: str, seed: int, steps: int, players: int | None = None) -> Game:
    rules = load_rules(preset)
    lo, hi = rules.players
    n = players if players is not None else lo + seed % (min(hi, 4) - lo + 1)
    g = Game(rules, players=n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


games = st.builds(random_game, st.sampled_from(preset_names()), st.integers(0, 10_000),
                  st.integers(0, 120))


def shown_grids(text: str, players: int, cols: int) -> list[list[str]]:
    rows = []
    for line in text.split("Stock:")[0].splitlines():
        cells = TOKEN.findall(line)
        if len(cells) == players * cols:
            rows.append([[c.strip() for _, c in cells[s * cols:(s + 1) * cols]]
                         for s in range(players)])
    return [[card for row in rows for card in row[s]] for s in range(players)]


# --- drawing ---------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(games)
def test_the_board_shows_exactly_what_the_view_holds(g: Game) -> None:
    names = [f"P{i}" for i in range(g.players)]
    for seat in range(g.players):
        view = g.view(seat)
        text = boards.board(view, names, g.rules, PLAIN, width=10**6)
        shown = shown_grids(text, g.players, g.rules.cols)
        for other, grid in enumerate(view["grids"]):
            if grid is None:
                assert "sits out" in text
                continue
            assert shown[other] == [c if c is not None else "###" for c in grid]
    # The public screen shows face-up cards only, and no card held from the stock.
    public = boards.masked(g.view(0), True, True)
    text = boards.board(public, names, g.rules, PLAIN, width=10**6)
    shown = shown_grids(text, g.players, g.rules.cols)
    for seat in g.active:
        up = g.face_up(seat)
        grid = g.view(seat)["grids"][seat]
        assert shown[seat] == [c if u else "###" for c, u in zip(grid, up, strict=True)]
    if public["held_from"] == "stock":
        assert public["held"] is None


def test_masking_copies_the_view() -> None:
    g = Game("german", players=2, seed=1)
    g.apply("peek 1")
    v = g.view(0)
    hidden = boards.masked(v, True, False)
    assert v["grids"][0][0] is not None and hidden["grids"][0][0] is None
    assert v["peeked"] == [1] and hidden["peeked"] == []


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(preset_names()), st.randoms(use_true_random=False))
def test_visible_matches_are_the_scorers_matches(preset: str, rnd: random.Random) -> None:
    rules = load_rules(preset)
    deck = build_deck(1, rules.jokers_per_deck)
    cards = [rnd.choice(deck) for _ in range(rules.cells)]
    # Repeated ranks make matches likely.
    for i in range(1, rules.cells):
        if rnd.random() < 0.4:
            cards[i] = cards[rnd.randrange(i)]
    names = [card_str(c) for c in cards]
    full = scorer(rules).score(cards)
    everything = boards.visible_matches(rules, names, [True] * rules.cells)
    assert [m.label for m in everything] == [m.label for m in full.matches]
    up = [rnd.random() < 0.6 for _ in cards]
    some = boards.visible_matches(rules, names, up)
    for m in some:
        assert all(up[i - 1] for i in m.cells)
    lines = {m.label for m in full.matches if m.rule not in ("pair", "block")
             and all(up[i - 1] for i in m.cells)}
    assert lines <= {m.label for m in some}


def test_a_cancelled_column_is_marked_once_both_cards_are_up() -> None:
    rules = load_rules("six-card")
    names = ["5H", "9S", "KS", "5C", "2D", "QH"]
    text = "\n".join(boards.grid_lines(names, 2, 3, PLAIN, {0, 3}))
    assert text == "1: 5H* 2: 9S  3: KS\n4: 5C* 5: 2D  6: QH"
    half = boards.visible_matches(rules, names, [True, True, True, False, True, True])
    assert half == ()


def test_styles() -> None:
    assert detect(io.StringIO(), ascii_only=True) == PLAIN
    # A pipe is no terminal: no colour, though it may take Unicode.
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert detect(out) == Style(color=False, unicode=True)
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert detect(latin).unicode is False
    fancy = Style(color=True, unicode=True)
    assert visible_len(fancy.card("10D")) == 3 and "♦" in fancy.card("10D")
    assert fancy.card(None) != fancy.card("AS") and PLAIN.card(None) == "###"


def test_scorecard_and_reveal() -> None:
    g = random_game("six-card", 3, 10_000, players=2)
    names = ["Ann", "Bob"]
    card = boards.scorecard(g.view(0), names, PLAIN)
    lines = card.splitlines()
    assert len(lines) == 3 + len(g.hole_scores) and lines[-1] == "(* won the hole)"
    assert lines[-2].split()[1:] == [str(t) for t in g.totals]
    for row, scores in zip(lines[1:-2], g.hole_scores, strict=True):
        # each hole's lowest score (the hole's winner) carries the mark, no other
        marked = [c.endswith("*") for c in row.split()[1:]]
        assert marked == [s == min(scores) for s in scores]
    last = g.view(0)["last_hole"]
    text = boards.reveal(last, [g.score_hole(0), g.score_hole(1)], names, g.rules, PLAIN)
    low = min(s for s in last["scores"] if s is not None)
    assert f"the hole with {low}." in text
    for seat in range(2):
        assert f"{names[seat]}: {last['scores'][seat]}" in text


# --- typed input -----------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(games)
def test_every_legal_action_can_be_typed_in_full_and_short(g: Game) -> None:
    legal = g.legal_actions()
    positional_kinds = {a.kind for a in legal if a.position is not None}
    for a in legal:
        assert read(str(a), legal) == a
        assert read(str(a).upper(), legal) == a
        short = SHORT.get(a.kind)
        if short is not None:
            assert read(f"{short}{a.position or ''}", legal) == a
        if a.position is not None and len(positional_kinds) == 1:
            assert read(str(a.position), legal) == a
    text = legal_text(legal)
    for kind in {a.kind for a in legal}:
        assert kind in text


def test_commands_and_bad_words() -> None:
    legal = Game("six-card", players=2, seed=1).legal_actions()
    assert read(" Hint ", legal) == Command("hint")
    assert read("?", legal) == Command("help")
    assert read("q", legal) == Command("quit")
    assert read("scores", legal) == Command("scores")
    with pytest.raises(EntryError, match="'jump' is not an action or a command; legal now: "
                       "reveal 1 2 3 4 5 6"):
        read("jump", legal)
    with pytest.raises(EntryError, match="'draw' takes no position"):
        read("d 4", legal)
    # With the grid's size (the text agents' reader passes it), a position after a kind
    # that takes none was a NotationError, not an EntryError: Hypothesis found "d0".
    for text, kind in (("d0", "draw"), ("d5", "draw"), ("draw 1", "draw"), ("k2", "knock"),
                       ("t 3", "take")):
        with pytest.raises(EntryError, match=f"'{kind}' takes no position"):
            read(text, legal, 6)
    with pytest.raises(EntryError, match="nothing can be done at position 7"):
        read("7", legal)
    turn = Game("six-card", players=2, seed=1)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2"):
        turn.apply(a)
    with pytest.raises(EntryError, match="a position alone is not a move now"):
        read("3", turn.legal_actions())
    flip = Game("six-card", players=2, seed=1)
    for a in ("reveal 1", "reveal 2", "reveal 1", "reveal 2", "draw", "discard"):
        flip.apply(a)
    assert read("n", flip.legal_actions()) == Action.parse("pass")


#: Digits that are not ASCII: ``str.isdigit()`` is true for all of them, ``int()``
#: refuses the first three and reads the others (Arabic-Indic, Devanagari, bold maths).
OTHER_DIGITS = ["²", "①", "³", "٣", "३", "𝟛", "٣٣", "1²"]


@pytest.mark.parametrize("text", [*OTHER_DIGITS, "r٣", "reveal ٣", "swap ²", "r ٣"])
def test_only_ascii_digits_are_positions(text: str) -> None:
    legal = Game("six-card", players=2, seed=1).legal_actions()  # reveal 1 to 6
    with pytest.raises(EntryError):
        read(text, legal, 6)
    assert read("3", legal, 6) == Action.parse("reveal 3")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.text(st.characters(categories=("Nd", "No", "Nl", "Zs")),
                                      max_size=4))
def test_any_typed_line_is_an_action_a_command_or_an_entry_error(text: str) -> None:
    legal = Game("six-card", players=2, seed=1).legal_actions()
    other_digits = any(c.isdigit() and not c.isascii() for c in text)
    try:
        got = read(text, legal, 6)
    except EntryError:
        return
    assert isinstance(got, Command | Action)
    assert not other_digits, f"{text!r} was read as {got!r}"


def test_replay_commands_take_ascii_digits_only() -> None:
    g = random_game("six-card", 5, 10_000, players=3)
    saved = Saved(g.record(), [SeatSpec("Ann"), SeatSpec("Bob"), SeatSpec("Cy")])
    commands = ["h ²", "h ①", "h ٣", "s ²", "s ٣", "s 2", "q"]
    out = io.StringIO()
    console = Console(io.StringIO("\n".join(commands) + "\n"), out, PLAIN, width=200)
    console.input_is_terminal = True  # step through it, as a person would
    assert replay(saved, console) == 0
    text = out.getvalue()
    assert text.count("h needs a hole number") == 3
    assert "'²' is not a player" in text and "'٣' is not a player" in text
    assert text.count("Seen through the eyes of") == 1  # "s 2" only: Bob
    assert "Seen through the eyes of Bob" in text


# --- sentences --------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.sampled_from(preset_names()), st.integers(0, 10_000))
def test_moves_are_told_without_naming_unseen_cards(preset: str, seed: int) -> None:
    g = random_game(preset, seed, 0)
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(g.players)]
    for _ in range(150):
        if g.is_over:
            break
        actor = g.current_player
        assert actor is not None
        action = rng.choice(g.legal_actions())
        event = g.step(action)
        for seat in [*range(g.players), None]:
            lines = tell(event, seat, names, PLAIN)
            assert any(line.startswith(names[actor]) for line in lines)
            text = " ".join(lines)
            if action.kind == "draw":
                drawn = g.view(actor)["held"]
                assert (drawn in text) == (seat == actor)
            if action.kind == "peek" and seat != actor:
                assert text.endswith("(hidden from the others)")
            if action.kind == "swap":
                # the card swapped out lies face up: everyone is told which it was
                assert "discarding " in text and "face-down" not in text


# --- rules summary ----------------------------------------------------------------------------

@pytest.mark.parametrize("preset", preset_names())
def test_the_rules_summary_follows_the_settings(preset: str) -> None:
    r = load_rules(preset)
    text = rules_summary(r, r.players[0])
    assert f"in {r.rows} rows of {r.cols}" in text
    assert ("knock" in text) == r.knock
    assert ("looks at" in text) == (r.setup == "peek")
    assert ("refilled" in text) == r.reshuffle
    if r.holes:
        assert f"{r.holes} holes" in text
    if r.target:
        assert f"{r.target}" in text
    assert ("extra holes" in text) == (r.tie_break == "playoff")
    assert ("a joker matches any card" in text) == r.jokers_wild


@pytest.mark.parametrize("preset", preset_names())
def test_the_rules_summary_has_no_references_meant_for_developers(preset: str) -> None:
    """Bug: the German variant's summary read "German six-card Golf (text 004): ..." (a
    source text by its number in the project's notes, meaningless at the table)."""
    from golf.terminal.summary import header

    r = load_rules(preset)
    for text in (header(r), rules_summary(r, max(2, r.players[0]))):
        assert not re.search(r"\(texts? \d{3}|\bDecisions?\b", text), text
    assert header(load_rules("german")).startswith("german: German six-card Golf: peek at two")


def test_the_rules_summary_reflects_overrides() -> None:
    r = load_rules("nine-card", {"match": ["columns", "blocks"], "flip_instead_of_draw": True,
                                 "points": {"2": 2}})
    text = rules_summary(r, 5)
    assert "two decks" in text
    assert "four equal cards in a 2x2 block score -25 together" in text
    assert "or turn up a face-down card instead" in text
    assert "A=1, 2=2" in text


# --- seats and the command line ---------------------------------------------------------------

def wanted(*argv: str) -> tuple[list[str], list[str]]:
    return seats_wanted(build_parser().parse_args(["play", *argv]))


def test_who_plays_by_default_and_on_request() -> None:
    assert wanted() == (["You"], ["expert", "expert"])
    assert wanted("--players", "4") == (["You"], ["expert"] * 3)
    assert wanted("--humans", "Ann,Bob") == (["Ann", "Bob"], [])
    assert wanted("--humans", "Ann") == (["Ann"], ["expert", "expert"])
    assert wanted("--bots", "greedy") == (["You"], ["greedy"])
    assert wanted("--players", "5", "--bots", "greedy") == (["You"], ["greedy"] * 4)
    assert wanted("--humans", "", "--bots", "random,greedy") == ([], ["random", "greedy"])
    seats = seat_table(["Ann"], ["expert", "greedy", "expert"], game_seed=7)
    assert [s.name for s in seats] == ["Ann", "Expert 1", "Greedy", "Expert 2"]
    assert len({s.seed for s in seats[1:]}) == 3


def test_the_help_says_who_sits_down(capsys: pytest.CaptureFixture[str]) -> None:
    """Bug: the help said the default was "the people plus two bots", but --bots easy
    seats one bot. The help says what each case does, and the cases do that."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the people plus two bots" not in text
    assert "Without --players: with --bots, one bot per name in --bots (--bots easy: you " \
        "against one bot)" in text, text
    assert "with --players, a single name fills every bot seat" in text, text
    assert "without --bots, one person plays two bots and two or more people play each " \
        "other" in text, text
    assert wanted("--bots", "easy") == (["You"], ["easy"])
    assert wanted("--bots", "easy,hard") == (["You"], ["easy", "hard"])
    assert wanted("--players", "4", "--bots", "easy") == (["You"], ["easy"] * 3)
    assert wanted() == (["You"], ["expert", "expert"])
    assert wanted("--humans", "Ann,Bob") == (["Ann", "Bob"], [])


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--bots", "nobody"], "unknown bot 'nobody'"),
    (["play", "--bots", "random:speed=2"], "bot 'random' has no option 'speed'"),
    (["play", "--players", "1"], "six-card is for 2 to 8 players, not 1"),
    (["play", "--players", "4", "--bots", "random,random"], "leaves 3 seat(s) for bots, but "
     "--bots names 2"),
    (["play", "--humans", "Ann", "--players", "0"], "--players must be at least 1"),
    (["play", "--humans", "", "--bots", ""], "nobody to play"),
    (["play", "--humans", "Ann,ann"], "two players are called 'ann'"),
    (["play", "--delay", "-1"], "--delay must be 0 or more seconds"),
    (["play", "--variant", "nope"], "unknown variant 'nope'"),
    (["play", "--rule", "hole=3"], "unknown setting 'hole'"),
    (["resume", "/nonexistent/save.json"], "cannot read '/nonexistent/save.json'"),
])
def test_command_line_mistakes_exit_2_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("golf: error: ") and message in err, err
    assert "Traceback" not in err


def test_save_files_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["resume", str(bad)]) == 2
    assert "is not a saved game (not JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"format": "something/9"}))
    assert main(["replay", str(bad)]) == 2
    assert "its format is 'something/9'" in capsys.readouterr().err
    g = Game("six-card", players=2, seed=1)
    seats = [SeatSpec("Ann"), SeatSpec("Bot", "random", 3)]
    data = json.loads(save_json(g, seats, {}))
    data["record"]["actions"] = ["reveal 1", "knock"]
    bad.write_text(json.dumps(data))
    assert main(["resume", str(bad)]) == 2
    assert "action 2 ('knock') cannot be played" in capsys.readouterr().err
    data["seats"] = data["seats"][:1]
    bad.write_text(json.dumps(data))
    assert main(["resume", str(bad)]) == 2
    assert "1 seats but the record has 2 players" in capsys.readouterr().err
    # An unfinished save is never overwritten by a new game.
    good = tmp_path / "good.json"
    write_save(good, g, seats, {})
    assert main(["play", "--save", str(good)]) == 2
    assert "holds an unfinished game" in capsys.readouterr().err
    assert main(["replay", str(good), "--seat", "Zed"]) == 2
    assert "--seat 'Zed' is not a player; players are Ann, Bot" in capsys.readouterr().err


# --- save files and sessions ------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.sampled_from(preset_names()), st.integers(0, 10_000), st.integers(0, 60))
def test_restored_bots_go_on_as_if_never_interrupted(preset: str, seed: int, k: int) -> None:
    """Bots rebuilt from a save make the same next choice as the bots that played."""
    rules = load_rules(preset)
    players = rules.players[0] if rules.players[0] > 1 else 2
    g = Game(rules, players=players, seed=seed)
    seats = seat_table([], ["random"] * players, g.seed)
    bots = build_bots(seats, rules)
    for _ in range(k):
        if g.is_over:
            return
        seat = g.current_player
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat, codes=True), g.legal_actions()))
    saved = Saved(json.loads(save_json(g, seats, {}))["record"], seats)
    again, again_bots = restore(saved)
    assert again.record() == g.record()
    for _ in range(20):
        if g.is_over:
            break
        seat = g.current_player
        assert seat is not None
        a = bots[seat].choose(g.view(seat, codes=True), g.legal_actions())
        b = again_bots[seat].choose(again.view(seat, codes=True), again.legal_actions())
        assert a == b
        g.apply(a)
        again.apply(b)


@pytest.mark.parametrize("preset", preset_names())
def test_bots_play_a_whole_match_of_every_preset(preset: str, tmp_path: Path) -> None:
    rules = load_rules(preset, {"holes": 1, "target": 0})
    players = max(2, rules.players[0])
    g = Game(rules, players=players, seed=17)
    seats = seat_table([], ["random"] * players, g.seed)
    out = io.StringIO()
    save = tmp_path / "s.json"
    code = Session(g, seats, build_bots(seats, rules), Console(io.StringIO(), out, PLAIN),
                   Options(save=save)).run()
    assert code == 0 and g.is_over
    text = out.getvalue()
    assert text.count("End of ") == len(g.hole_results)
    assert "the match" in text or "share the win" in text
    restored, _ = restore(read_save(save))
    assert restored.record() == g.record()


def test_a_bare_game_record_replays_with_numbered_players(tmp_path: Path) -> None:
    g = random_game("four-card", 4, 10_000, players=3)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(g.record()))
    saved = read_save(path)
    assert [s.name for s in saved.seats] == ["Player 1", "Player 2", "Player 3"]
    out = io.StringIO()
    assert replay(saved, Console(io.StringIO(), out, PLAIN), show_all=True) == 0
    text = out.getvalue()
    assert text.count("End of ") == len(g.hole_results)
    assert text.count("Player 1 knocks") == sum(h.knocked_by == 0 for h in g.hole_results)


# --- descriptions follow the settings (bug 7) ----------------------------------------------

def test_the_rules_header_follows_overrides_and_files(tmp_path: Path) -> None:
    text = rules_summary(load_rules("german", {"target": 40}), players=2)
    assert "play to 100" not in text and "target=40" in text.splitlines()[0]
    assert "play to 40" in text.splitlines()[0]
    text = rules_summary(load_rules("six-card", {"holes": 1}), players=2)
    assert "nine holes" not in text and "holes=1" in text and "one hole" in text
    path = tmp_path / "house.toml"
    path.write_text('extends = "six-card"\nholes = 3\n')
    first = rules_summary(load_rules(str(path)), players=2).splitlines()[0]
    assert "nine holes" not in first and "holes=3" in first
    plain = rules_summary(load_rules("six-card"), players=2).splitlines()[0]
    assert plain == f"six-card: {load_rules('six-card').description}"


def test_a_target_and_a_hole_count_are_both_said() -> None:
    g = Game("nine-card", players=2, seed=1)
    out = io.StringIO()
    seats = seat_table([], ["random", "random"], g.seed)
    session = Session(g, seats, build_bots(seats, g.rules), Console(io.StringIO(), out, PLAIN))
    session.announce_match()
    session.announce_hole()
    text = out.getvalue()
    assert "up to 9 holes, ending sooner once a total passes 50" in text
    assert "Hole 1 of up to 9" in text
    assert "Hole 1 of up to 9" in boards.board(g.view(0), session.names, g.rules, PLAIN)


# --- what the narration tells (bugs 4 and 5) --------------------------------------------------

def _bots_match(variant: str, seed: int, rules: dict[str, object] | None = None,
                players: int = 2) -> tuple[Game, str, int]:
    """A bots-only match told at a terminal; also how many draws found the stock empty
    (each one reshuffles the discard pile), counted from the views."""
    g = Game(variant, players=players, seed=seed, rules=rules)
    seats = seat_table([], ["random"] * players, g.seed)
    bots = build_bots(seats, g.rules)
    out = io.StringIO()
    session = Session(g, seats, bots, Console(io.StringIO(), out, PLAIN))
    empties = 0
    original = session.table.step

    def step() -> object:
        nonlocal empties
        seat = g.current_player
        assert seat is not None
        v = g.view(seat, codes=True)
        turn = original()
        if turn.action.kind == "draw" and v["stock_size"] == 0:
            empties += 1
        return turn

    session.table.step = step  # type: ignore[method-assign]
    assert session.run() == 0
    return g, out.getvalue(), empties


def test_a_swap_that_ends_the_hole_names_the_card_it_discards() -> None:
    for seed in range(12):
        g, text, _ = _bots_match("six-card", seed, {"holes": 3})
        assert "discarding a face-down card" not in text
        for h in g.hole_results:
            if h.went_out is not None and h.discard_top is not None:
                top = card_str(h.discard_top, suits=False)
                assert re.search(rf"swaps \S+ into position \d, discarding {top}\n"
                                 rf"|discards {top}\n|turns up position \d: \S+\n", text)


def test_reshuffles_are_told() -> None:
    told = 0
    for seed in range(6):
        # six players leave a stock of 15 cards: it runs out soon
        _, text, empties = _bots_match("german", seed, {"target": 40}, players=6)
        assert text.count("shuffled into a new stock") == empties
        told += empties
    assert told > 0, "some match must run its stock out"


# --- named difficulties -----------------------------------------------------------------------

def test_difficulties_name_bots_everywhere() -> None:
    from golf.bots.base import LEVELS, parse_spec

    rules = load_rules("six-card")
    for level, spec in LEVELS.items():
        assert make_bot(level, rules).spec == make_bot(spec, rules).spec
    easy = make_bot("easy:noise=1", rules).options
    assert (easy["memory"], easy["noise"]) == (0.4, 1.0)
    assert parse_spec("HARD") == ("expert", {})
    seats = seat_table(["Ann"], ["easy", "hard", "hard"], 5)
    assert [s.name for s in seats] == ["Ann", "Easy", "Hard 1", "Hard 2"]
    assert [s.bot for s in seats] == [None, "easy", "hard", "hard"]
    with pytest.raises(GolfError, match=r"unknown bot 'meduim' \(did you mean 'medium'\?\)"):
        make_bot("meduim", rules)


def test_a_match_against_named_difficulties_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code = main(["play", "--bots", "easy,medium", "--humans", "", "--seed", "3", "--rule",
                 "holes=1", "--save", str(save), "--delay", "0", "--plain"])
    assert code == 0
    saved = read_save(save)
    assert [s.bot for s in saved.seats] == ["easy", "medium"]
    game, bots = restore(saved)
    assert game.is_over and bots[0].options["noise"] == 4.0


@pytest.mark.parametrize(("variant", "cells"), [("four-card", 4), ("six-card", 6),
                                                ("nine-card", 9)])
def test_engine_notation_messages_give_the_grids_range(variant: str, cells: int) -> None:
    """Bug 6: 'reveal' alone said 'N from 1 to 16' on every grid."""
    g = Game(variant, players=load_rules(variant).players[0] + 1, seed=1)
    with pytest.raises(NotationError, match=f"with N from 1 to {cells}$"):
        g.apply("reveal")
    with pytest.raises(NotationError, match=f"is not between 1 and {cells}$"):
        g.apply("swap 17")
    legal = g.legal_actions()
    with pytest.raises(EntryError, match=f"from 1 to {cells};"):
        read("reveal", legal, cells)
