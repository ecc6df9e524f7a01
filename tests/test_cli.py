"""The ``golf`` command: variants, score calculator, demo, and clear errors (status 2)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import golf
from golf.cli import main
from golf.rules import SETTINGS, load_rules

GOLF = Path(sys.executable).parent / "golf"  # the console script next to the interpreter


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def fails_cleanly(argv: list[str], capsys: pytest.CaptureFixture[str], fragment: str) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert err.startswith("golf: error: ") and fragment in err
    assert "Traceback" not in err + out
    return err


# --- golf variants ---------------------------------------------------------------------


def test_variants_table_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["variants"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["name", "players", "grid"]
    for name in golf.preset_names():
        r = load_rules(name)
        row = next(line for line in lines if line.startswith(name + " "))
        assert f"{r.players[0]}-{r.players[1]}" in row and f"{r.rows}x{r.cols}" in row
    assert "9 holes / target 50" in out and "target 100" in out


def test_variants_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["variants", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert [d["name"] for d in data] == golf.preset_names()
    german = next(d for d in data if d["name"] == "german")
    assert german["players"] == [2, 6] and german["grid"] == "2x3" and german["target"] == 100


def test_variants_show_lists_every_setting_with_its_source(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["variants", "show", "nine-card", "--sources"], capsys)
    assert code == 0
    assert out.startswith("nine-card: ")
    settings = out.split("Settings (change one with --rule KEY=VALUE):\n", 1)[1]
    keys = [line.split()[0] for line in settings.splitlines()
            if line.startswith("  ") and not line.startswith("    ")]
    assert keys == [k for k in SETTINGS if k not in ("name", "description", "sources")]
    assert "from: 000 Nine-card golf: a 3x3 grid" in out
    assert "points" in out and "J=10" in out


@pytest.mark.parametrize("name", golf.preset_names())
def test_variants_show_speaks_to_players(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """No references meant for developers, the rules in words, and only the settings
    that matter for the preset."""
    code, out, _ = run(["variants", "show", name], capsys)
    assert code == 0
    assert not re.search(r"\b00\d\b|Decisions|from:", out), out
    assert "Turn: " in out and "Match: " in out
    r = load_rules(name)
    assert ("block_points" in out) == ("blocks" in r.match)
    assert ("knock_first_turn" in out) == r.knock
    assert "turn_limit" not in out


def test_german_is_quoted_with_its_letters(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["variants", "show", "german", "--sources"], capsys)
    assert "König 0" in out and "zählt" in out and "außer der obersten" in out
    assert not re.search(r"Koenig|zaehlt|ausser|uebrige|veraendern", out)


def test_variants_show_json_is_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["variants", "show", "german", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert load_rules(data) == load_rules("german")
    assert data["target_ends"] == "reach" and data["tie_break"] == "playoff"


def test_variants_show_errors(capsys: pytest.CaptureFixture[str]) -> None:
    fails_cleanly(["variants", "show"], capsys, "needs a preset name")
    fails_cleanly(["variants", "show", "ten-card"], capsys, "unknown variant 'ten-card'")


# --- golf score ------------------------------------------------------------------------


def test_score_prints_the_explanation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "A 2 3 / A 5 K"], capsys)
    assert code == 0
    assert out.strip() == "six-card:\n" + golf.score("A 2 3 / A 5 K", "six-card").explain()
    assert "column 1 (A A): 0" in out and out.strip().endswith("total: 6")


def test_score_json_has_a_score_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "--variant", "four-card-wild", "JK 9 / 4 4", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["score"] == 0 and data["variant"] == "four-card-wild"
    assert data["grid"] == [["JK", "9"], ["4", "4"]]
    assert sorted(m["rule"] for m in data["matches"]) == ["pair", "pair"]


def test_score_with_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    grid = "5 5 5 / 2 3 4 / K Q J"
    _, out, _ = run(["score", "--variant", "nine-card", grid, "--json"], capsys)
    assert json.loads(out)["score"] == 15 + 5 + 20
    _, out, _ = run(["score", "--variant", "nine-card", "--rule", 'match=["columns","rows"]',
                     grid, "--json"], capsys)
    assert json.loads(out)["score"] == 5 + 20
    _, out, _ = run(["score", "-v", "german", "-r", "points.2=-2", "2 K K / 3 K K", "--json"],
                    capsys)
    assert json.loads(out)["score"] == 1
    _, out, _ = run(["score", "-v", "six-card", "-r", "match_by=points", "10 5 6 / J 7 8"],
                    capsys)
    assert out.strip().endswith("total: 26")


def test_score_with_a_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "six-card"\n[points]\nK = -3\n', encoding="utf-8")
    _, out, _ = run(["score", "--variant", str(f), "K 4 5 / 6 7 8", "--json"], capsys)
    assert json.loads(out)["score"] == -3 + 30


@pytest.mark.parametrize("argv, fragment", [
    (["score", "A 2 3 / A 5"], "has rows of 3 / 2 cards"),
    (["score", "A 2 3 / A 5 X"], "'X' is not a card"),
    (["score", "A 2 3 / A 5 JK"], "played without jokers"),
    (["score", "--variant", "seven-card", "A 2 3 / A 5 K"], "unknown variant 'seven-card'"),
    (["score", "--rule", "hole=18", "A 2 3 / A 5 K"], "unknown setting 'hole' (did you mean"),
    (["score", "--rule", "holes=many", "A 2 3 / A 5 K"], "'holes' must be an integer"),
    (["score", "--rule", "holes", "A 2 3 / A 5 K"], "must look like KEY=VALUE"),
    (["score", "--rule", "points.Z=1", "A 2 3 / A 5 K"], "unknown rank 'Z'"),
    (["score", "--rule", "setup_count=9", "A 2 3 / A 5 K"], "'setup_count' is 9"),
    (["score", "--variant", "/no/such/file.toml", "A 2 3 / A 5 K"], "cannot read rules file"),
    (["score", "--variant", "sixcard", "A 2 3 / A 5 K"], "(did you mean 'six-card'?)"),
    (["score", "A 2 3 / A 5 JK"], "--rule jokers_per_deck=2"),
    (["score", "AS AS AS / 2 3 4"], "AS appears 3 times, but six-card is played with at most "
     "2 decks"),
    (["score", "-v", "german", "A A A / A A K"], "5 cards of rank A, but german's cards "
     "(one deck at most) hold only 4"),
    (["score", "-v", "four-card-wild", "-r", "jokers_per_deck=1", "JK JK / JK 2"],
     "3 jokers, but four-card-wild's cards (2 decks at most) hold only 2"),
    (["score"], "give a grid to score"),
    (["score", "--table", "/no/such/table.txt"], "cannot read the table file"),
])
def test_score_errors_exit_2_with_a_clear_message(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fails_cleanly(argv, capsys, fragment)


# --- golf demo -------------------------------------------------------------------------


def test_demo_plays_a_full_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "--variant", "german", "--players", "3", "--seed", "1"], capsys)
    assert code == 0
    assert out.startswith("german, 3 random players, seed 1")
    assert "== hole 1: dealer is player 3 ==" in out
    assert "player 1: peek" in out and "totals:" in out
    assert out.rstrip().splitlines()[-1].startswith("winner")
    # The same seed gives the same match.
    run(["demo", "--variant", "german", "--players", "3", "--seed", "1"], capsys)
    code, again, _ = run(["demo", "--variant", "german", "--players", "3", "--seed", "1"],
                         capsys)
    assert again == out


def test_demo_default_six_card_nine_holes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "--seed", "5"], capsys)
    assert code == 0
    assert "== hole 9:" in out and "== hole 10" not in out
    totals = [line for line in out.splitlines() if line.strip().startswith("totals:")]
    assert len(totals) == 9


def test_demo_with_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["demo", "-v", "six-card", "-r", "holes=2", "-s", "3"], capsys)
    assert code == 0 and "== hole 2:" in out and "== hole 3" not in out


def test_demo_errors(capsys: pytest.CaptureFixture[str]) -> None:
    fails_cleanly(["demo", "--players", "9"], capsys, "six-card is for 2 to 8 players, not 9")
    fails_cleanly(["demo", "--seed", "-4"], capsys, "seed must be a non-negative integer")


def test_lab_players_are_ascii_digits(capsys: pytest.CaptureFixture[str]) -> None:
    # int() read "٣" as 3 (and the lab ran); "²" was a clean refusal already.
    for players in ("٣", "2,٤", "²"):
        fails_cleanly(["lab", "six-card", "--players", players, "--deals", "2",
                       "--skill-deals", "0"], capsys, "--players must be a number")


# --- the command itself ----------------------------------------------------------------


def test_a_mistyped_bot_name_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    err = fails_cleanly(["simulate", "--bots", "expret,greedy", "--games", "1"], capsys,
                        "unknown bot 'expret' (did you mean 'expert'?)")
    assert "bots are: expert, fast-expert, greedy" in err
    fails_cleanly(["play", "--bots", "gredy,random", "--humans", ""], capsys,
                  "unknown bot 'gredy' (did you mean 'greedy'?)")


def test_usage_errors_are_golf_errors_from_golf_errors() -> None:
    # UsageError lives with the other errors; the command line re-exports it.
    from golf import cli, errors
    assert cli.UsageError is errors.UsageError
    assert issubclass(errors.UsageError, golf.GolfError)


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([], capsys)
    assert code == 2 and "variants" in out and "score" in out and "demo" in out


def test_argparse_mistakes_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["nonsense"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["demo", "--players", "two"])
    assert e.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"golf {golf.__version__}"


# --- real processes --------------------------------------------------------------------


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONIOENCODING": "utf-8"}


def test_console_script_scores_a_grid() -> None:
    assert GOLF.exists(), f"the 'golf' console script is not installed next to {sys.executable}"
    p = subprocess.run([str(GOLF), "score", "--json", "A 2 3 / A 5 K"], capture_output=True,
                       text=True, timeout=60, env=_env(), check=False)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["score"] == 6


def test_console_script_error_has_status_2_and_no_traceback() -> None:
    p = subprocess.run([str(GOLF), "score", "--variant", "nope", "A 2 3 / A 5 K"],
                       capture_output=True, text=True, timeout=60, env=_env(), check=False)
    assert p.returncode == 2
    assert p.stderr.startswith("golf: error: unknown variant 'nope'")
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_python_dash_m_golf_runs_a_demo() -> None:
    p = subprocess.run([sys.executable, "-m", "golf", "demo", "--variant", "nine-card",
                        "--players", "1", "--seed", "2"], capture_output=True, text=True,
                       timeout=60, env=_env(), check=False)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("nine-card, 1 random player")
    assert "winner: player 1" in p.stdout


# --- default player counts (bug: four-card failed with the defaults) ---------------------

def test_player_counts_default_to_the_variants_smallest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["simulate", "-v", "four-card", "--games", "2", "--quiet",
                        "--workers", "1", "--bots", "greedy,random", "--json"], capsys)
    assert code == 0 and json.loads(out)["players"] == 3
    code, out, _ = run(["simulate", "-v", "nine-card", "--games", "1", "--quiet",
                        "--workers", "1", "--json"], capsys)
    assert code == 0 and json.loads(out)["players"] == 2  # a match needs two
    code, out, _ = run(["demo", "-v", "four-card", "--seed", "1"], capsys)
    assert code == 0 and "four-card, 3 random players" in out


def test_play_fills_a_variants_smallest_table_with_bots() -> None:
    from golf.cli import build_parser
    from golf.commands.play import seats_wanted

    args = build_parser().parse_args(["play", "-v", "four-card", "--humans", "Ann,Bob"])
    humans, bots = seats_wanted(args, load_rules("four-card"))
    assert humans == ["Ann", "Bob"] and len(bots) == 1
    args = build_parser().parse_args(["play", "-v", "six-card", "--humans", "Ann,Bob"])
    assert seats_wanted(args, load_rules("six-card"))[1] == []


def test_score_accepts_commas_names_the_variant_and_says_why_cards_did_not_cancel(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(["score", "A,2,3 / A,5,K"], capsys)
    assert out.startswith("six-card:\n") and out.strip().endswith("total: 6")
    _, out, _ = run(["score", "-v", "four-card", "5 5 / K 2"], capsys)
    assert out.startswith("four-card:")
    assert "the 5s at positions 1 and 2 do not cancel: in four-card only columns" in out
    _, out, _ = run(["score", "-v", "four-card", "5 K / 5 2"], capsys)
    assert "do not cancel" not in out


def test_score_a_whole_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "table.txt"
    f.write_text("# our game\nplayers: Ann, Bob, Cid\n"
                 "A 2 3 / A 5 K ; 7 7 Q / 2 3 4 ; K K 5 / 5 6 6\n"
                 "4 4 J / 9 9 2 ; A 2 A / 3 3 3 ; Q Q 10 / 8 8 K\n", encoding="utf-8")
    code, out, _ = run(["score", "--table", str(f), "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    first = [golf.score(g, "six-card").total for g in
             ("A 2 3 / A 5 K", "7 7 Q / 2 3 4", "K K 5 / 5 6 6")]
    second = [golf.score(g, "six-card").total for g in
              ("4 4 J / 9 9 2", "A 2 A / 3 3 3", "Q Q 10 / 8 8 K")]
    assert data["players"] == ["Ann", "Bob", "Cid"]
    assert [h["scores"] for h in data["holes"]] == [first, second]
    assert data["holes"][1]["totals"] == [a + b for a, b in zip(first, second, strict=True)]
    _, out, _ = run(["score", "--table", str(f)], capsys)
    assert "six-card: 3 players, 2 holes" in out
    assert re.search(r"^Total\s+40\s+38\s+68$", out, re.M)
    assert "lowest total: Bob with 38" in out
    f.write_text("players: Ann, Bob\nA 2 3 / A 5 K\n", encoding="utf-8")
    fails_cleanly(["score", "--table", str(f)], capsys, "line 2: 1 grids for 2 players")
    f.write_text("players: Ann, Bob\nA 2 3 / A 5 K; AS AS AS / AS 2 2\n", encoding="utf-8")
    fails_cleanly(["score", "--table", str(f)], capsys, "line 2, Bob's grid: AS appears")
