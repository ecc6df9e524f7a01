"""golf tournament: schedules, duplicate deals, OpenSkill ratings, resuming after an
interruption, entrants of every kind, and the leaderboard's three forms."""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf.backend import LocalPool
from golf.bots.ratings import measured_variant
from golf.cli import main
from golf.errors import GolfError
from golf.ratings import Anchors, Variant
from golf.ratings import placings as rated_placings
from golf.results import MatchResult
from golf.results import placings as result_placings
from golf.rules import load_rules
from golf.tournament import (
    Tournament,
    _ticks,
    format_html,
    format_markdown,
    load_state,
    placings,
    round_jobs,
    round_tables,
    run_tournament,
)

ONE = load_rules("six-card", {"holes": 1})
TWO = load_rules("six-card", {"holes": 2})
PROGRAM = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_legal.py"


def test_a_round_robin_seats_every_pair_on_every_deal_in_every_seat() -> None:
    t = Tournament(("random", "greedy", "easy", "medium"), ONE, players=2, deals=3, seed=5)
    board = run_tournament(t)
    assert board["matches"] == t.matches == 6 * 3 * 2
    jobs = round_jobs(t, 0, round_tables(t, 0, {}, {}, {}))
    assert [j.index for j in jobs] == list(range(len(jobs)))
    # Every pair meets; on each deal each entrant of a table sits in each seat once.
    tables = Counter(j.table for j in jobs)
    assert set(tables) == set(itertools.combinations(t.entrants, 2))
    for (table, _seed), group in itertools.groupby(jobs, key=lambda j: (j.table, j.seed)):
        seatings = [j.seats for j in group]
        assert len(seatings) == 2
        for s in range(2):
            assert {x[s] for x in seatings} == set(table)
    # Every table plays the same deals.
    seeds = {table: [j.seed for j in jobs if j.table == table] for table in tables}
    assert len({tuple(v) for v in seeds.values()}) == 1
    assert len(set(next(iter(seeds.values())))) == 3


def test_the_ratings_put_the_strong_bot_first() -> None:
    t = Tournament(("random", "greedy"), TWO, deals=12, seed=2)
    board = run_tournament(t)
    top, bottom = board["leaderboard"]
    assert top["entrant"] == "greedy" and bottom["entrant"] == "random"
    assert top["mu_ci95"][0] < top["mu"] < top["mu_ci95"][1]
    assert math.isclose(top["mu_ci95"][1] - top["mu"], 1.959963984540054 * top["sigma"])
    assert top["sigma"] < 25 / 3  # the matches taught it something
    assert top["win_rate"] > 0.8 and top["matches"] == bottom["matches"] == 24
    ahead = {(a["entrant"], a["opponent"]): a["share"] for a in board["ahead"]}
    assert ahead[("greedy", "random")] + ahead[("random", "greedy")] == pytest.approx(1.0)


def test_placings_rank_winners_then_totals_and_a_forfeit_last() -> None:
    r = MatchResult(0, 0, ("a", "b", "c"), (), (), (), (3, 10, 10), (0,))
    assert placings(r) == [0, 1, 1]
    r = MatchResult(0, 0, ("a", "b", "c"), (), (), (), (1, 5, 9), (), "gone", 0)
    assert placings(r) == [2, 0, 1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=2, max_size=8), st.data())
def test_tournaments_and_player_ratings_place_seats_by_one_rule(totals: list[int],
                                                                data: st.DataObject) -> None:
    # golf.ratings rates people from the same places a tournament rates its entrants
    # from: one function (golf.results.placings), a forfeit last on top of it.
    n = len(totals)
    # The winners are the lowest totals: all of them, or the playoff's one.
    lowest = [s for s in range(n) if totals[s] == min(totals)]
    winners = data.draw(st.sampled_from([lowest, *([s] for s in lowest)]))
    bots = tuple(f"b{s}" for s in range(n))
    finished = MatchResult(0, 0, bots, (), (), (), tuple(totals), tuple(winners))
    assert placings(finished) == rated_placings(winners, totals)
    assert rated_placings is result_placings
    places = placings(finished)
    assert all(places[w] == 0 for w in winners)
    for a, b in itertools.permutations(range(n), 2):
        if a not in winners and b not in winners and totals[a] < totals[b]:
            assert places[a] < places[b]
    gone = data.draw(st.integers(0, n - 1))
    forfeited = MatchResult(0, 0, bots, (), (), (), tuple(totals), (), "gone", gone)
    places = placings(forfeited)
    assert places[gone] == n - 1 and sorted(places)[-2] < n - 1
    others = [s for s in range(n) if s != gone]
    ahead = rated_placings([], [totals[s] for s in others])
    assert [places[s] for s in others] == ahead  # the rest in the same order


def test_a_board_says_whether_its_rules_were_the_presets(tmp_path: Path) -> None:
    house = run_tournament(Tournament(("greedy", "random"), ONE, deals=1))
    assert (house["variant"], house["rated_rules"], house["house_rules"]) == (
        "six-card", False, {"holes": 1})
    assert "six-card with house rules holes=1," in format_markdown(house)
    with pytest.raises(GolfError, match=re.escape('house rules {"holes": 1}')):
        measured_variant(house)
    shipped = run_tournament(Tournament(("greedy", "random"), load_rules("german"), deals=1))
    assert (shipped["rated_rules"], shipped["house_rules"]) == (True, {})
    entry = measured_variant(shipped)
    assert entry["players"] == 2 and set(entry["bots"]) == {"greedy", "random"}
    anchors = Anchors.from_data({"mu0": 25.0, "sigma0": 25 / 3, "variants": {
        "german": entry | {"bots": {b: r | {"matches": 200} for b, r in entry["bots"].items()}}}})
    greedy = anchors.fixed(Variant("german", "2"), "greedy")
    assert greedy is not None and greedy.mu == shipped["leaderboard"][0]["mu"]
    # The command line records the same.
    out = tmp_path / "board.json"
    assert main(["tournament", "-e", "greedy,random", "--rule", "holes=1", "--deals", "1",
                 "--json", str(out), "--state", str(tmp_path / "s.jsonl"), "--quiet"]) == 0
    board = json.loads(out.read_text())
    assert (board["rated_rules"], board["house_rules"]) == (False, {"holes": 1})


def _interrupt_after(n: int) -> Any:
    def progress(done: int, total: int) -> None:
        if done >= n:
            raise KeyboardInterrupt
    return progress


def test_an_interrupted_tournament_resumes_to_the_same_result(tmp_path: Path) -> None:
    t = Tournament(("random", "greedy", "easy"), ONE, players=2, deals=4, seed=9)
    whole = run_tournament(t, state=tmp_path / "whole.jsonl")
    state = tmp_path / "cut.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(t, state=state, progress=_interrupt_after(7))
    assert len(load_state(state, t)) == 7
    # A line cut short by a kill is dropped, not misread.
    with state.open("a", encoding="utf-8") as f:
        f.write('{"index": 7, "resu')
    assert len(load_state(state, t)) == 7
    seen: list[int] = []
    resumed = run_tournament(t, state=state, progress=lambda d, n: seen.append(d))
    assert seen[0] == 7 and seen[-1] == t.matches == 24 and len(seen) == 24 - 7 + 1
    assert json.dumps(resumed, sort_keys=True) == json.dumps(whole, sort_keys=True)
    # Run again: nothing left to play.
    seen.clear()
    again = run_tournament(t, state=state, progress=lambda d, n: seen.append(d))
    assert seen == [24] and again == whole


def test_a_swiss_tournament_resumes_mid_round_to_the_same_result(tmp_path: Path) -> None:
    t = Tournament(("random", "greedy", "easy", "medium"), ONE, deals=2, rounds=3,
                   format="swiss", seed=6)
    whole = run_tournament(t)
    state = tmp_path / "swiss.jsonl"
    for cut in (5, 13):  # inside round 1, then inside round 2 (8 matches a round)
        with pytest.raises(KeyboardInterrupt):
            run_tournament(t, state=state, progress=_interrupt_after(cut))
    assert run_tournament(t, state=state) == whole


def test_a_state_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "s.jsonl"
    run_tournament(Tournament(("random", "greedy"), ONE, deals=1), state=state)
    other = Tournament(("random", "greedy"), ONE, deals=1, seed=1)
    with pytest.raises(GolfError, match="belongs to another tournament"):
        run_tournament(other, state=state)
    fresh = run_tournament(other, state=state, fresh=True)
    assert fresh["seed"] == 1 and len(load_state(state, other)) == 2


def test_a_worker_pool_gives_the_same_board_as_one_process() -> None:
    t = Tournament(("random", "greedy", "easy"), ONE, deals=3, seed=4)
    assert run_tournament(t, LocalPool(2)) == run_tournament(t, LocalPool(1))


def test_swiss_pairs_by_rating_and_byes_go_round() -> None:
    t = Tournament(("random", "greedy", "easy", "medium", "hard"), ONE, players=2, deals=2,
                   rounds=3, format="swiss", seed=3)
    board = run_tournament(t)
    assert board["matches"] == t.matches == 3 * 2 * 2 * 2
    # With five entrants one sits out each round, a different one each time.
    per_round = t.tables_per_round * t.deals * t.players
    jobs_by_round: dict[int, set[str]] = {}
    for row in board["leaderboard"]:
        assert row["matches"] in (4, 8, 12)
    results = load_free(t)
    for res in results:
        jobs_by_round.setdefault(res.index // per_round, set()).update(res.bots)
    byes = [set(t.entrants) - jobs_by_round[r] for r in range(3)]
    assert all(len(b) == 1 for b in byes) and len(set.union(*byes)) == 3


def load_free(t: Tournament) -> list[MatchResult]:
    """The results of a tournament, through a state file in memory's place."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.jsonl"
        run_tournament(t, state=path)
        return list(load_state(path, t).values())


def test_swiss_seats_the_leaders_together() -> None:
    t = Tournament(("a1", "a2", "b1", "b2"), ONE, format="swiss")

    class R:
        def __init__(self, mu: float) -> None:
            self.mu = mu

    ratings = {"a1": R(30), "a2": R(10), "b1": R(29), "b2": R(11)}
    assert round_tables(t, 1, ratings, {}, {}) == [("a1", "b1"), ("b2", "a2")]
    met = {frozenset(("a1", "b1")): 2}
    assert round_tables(t, 1, ratings, met, {}) == [("a1", "b2"), ("b1", "a2")]


def test_programs_play_and_three_seat_tables() -> None:
    program = f"cmd:python {PROGRAM}"
    t = Tournament(("greedy", program, "random"), ONE, players=3, deals=2, seed=1)
    board = run_tournament(t)
    assert board["matches"] == 1 * 2 * 3
    assert {r["entrant"] for r in board["leaderboard"]} == set(t.entrants)
    assert all(r["matches"] == 6 and r["forfeits"] == 0 for r in board["leaderboard"])


def test_a_program_that_dies_forfeits_and_is_rated_last() -> None:
    dead = "cmd[start_timeout=5]:python -c pass"
    board = run_tournament(Tournament(("random", dead), ONE, deals=2, seed=1))
    last = board["leaderboard"][-1]
    assert last["entrant"] == dead and last["forfeits"] == 4 and last["win_rate"] == 0


class _Chat(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that answers the first legal move of the prompt."""

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        line = [x for x in prompt.splitlines() if x.startswith("Your legal moves: ")][-1]
        kind, *where = line.removeprefix("Your legal moves: ").split(" | ")[0].split()
        move = f"{kind} {where[0]}" if where else kind
        data = json.dumps({"choices": [{"message": {"content": f"Answer: {move}"}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def chat_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Chat)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_a_chat_agent_is_an_entrant(chat_url: str) -> None:
    agent = f"openai:{chat_url}:first-move"
    board = run_tournament(Tournament((agent, "greedy"), ONE, deals=2, seed=1,
                                      chat={"timeout": 10}))
    row = next(r for r in board["leaderboard"] if r["entrant"] == agent)
    assert row["matches"] == 4 and row["forfeits"] == 0


def test_the_command_writes_markdown_json_and_a_self_contained_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "-e", "random,greedy,easy", "--rule", "holes=1", "--deals", "2",
            "--workers", "1", "--quiet", "--json", "b.json", "--html", "b.html",
            "--markdown", "b.md"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.strip() == (tmp_path / "b.md").read_text().strip()
    assert "| 1 | `" in out and "OpenSkill" in out
    board = json.loads((tmp_path / "b.json").read_text())
    assert [r["rank"] for r in board["leaderboard"]] == [1, 2, 3]
    page = (tmp_path / "b.html").read_text()
    assert "<svg" in page and page.count("<circle") == 3
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in page
    assert len(list(tmp_path.glob("golf-tournament-*.jsonl"))) == 1
    # The same command again resumes from the default state file: the same board.
    assert main(args) == 0
    assert json.loads((tmp_path / "b.json").read_text()) == board


@pytest.mark.parametrize(("args", "message"), [
    (["-e", "greedy,greedy"], "named twice"),
    (["-e", "greedy,random", "--players", "3"], "only 2 entrants"),
    (["-e", "greedy,nosuchbot"], "nosuchbot"),
    (["-e", "greedy,random", "--deals", "0"], "deals must be at least 1"),
])
def test_bad_input_gets_a_clear_error(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    assert main(["tournament", *args, "--state", str(tmp_path / "s.jsonl")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "s.jsonl").exists()


def test_names_are_escaped_in_the_page() -> None:
    board = run_tournament(Tournament(("random", "greedy"), ONE, deals=1))
    board["leaderboard"][0]["entrant"] = "<b>x</b>"
    page = format_html(board)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


@settings(deadline=None)  # a shared machine's pauses are not this function's
@given(st.floats(-1000, 1000), st.floats(0.5, 500))
def test_axis_ticks_are_round_and_inside(lo: float, span: float) -> None:
    ticks = _ticks(lo, lo + span)
    assert len(ticks) >= 2
    assert all(lo - 1e-9 <= v <= lo + span + 1e-9 for v in ticks)
    assert ticks == sorted(ticks)


def test_the_published_bot_ratings_match_their_data_file() -> None:
    """docs/bots.md's table is scripts/bot_ratings.py's rendering of ratings.json, and
    every preset has every bot rated, the expert above random."""
    import importlib.util

    from golf.bots.ratings import bot_ratings, rating_data
    from golf.rules import preset_names

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("bot_ratings", root / "scripts" /
                                                  "bot_ratings.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = rating_data()
    doc = (root / "docs" / "bots.md").read_text(encoding="utf-8")
    assert f"{script.BEGIN}\n{script.markdown(data)}\n{script.END}" in doc
    for variant in preset_names():
        bots = bot_ratings(variant)
        assert set(bots) == set(script.BOTS)
        assert bots["hard"]["mu"] > bots["greedy"]["mu"] > bots["random"]["mu"]
    with pytest.raises(GolfError, match="no measured bot ratings"):
        bot_ratings("nosuch")
