"""External bots (``cmd:``): the golf-bot/1 line protocol, the example bots in bash and
Python played for real through the Table, ``golf simulate`` and ``golf play``, and every
failure - time-out, crash, illegal or malformed answer, bad handshake - with each
fallback. The programs here are real processes; nothing is mocked."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf import Action, Game, GolfError, load_rules
from golf.bots import make_bot
from golf.bots.base import Bot, bot_names, parse_spec, split_specs
from golf.bots.external import PROTOCOL, BotFailure, ExternalBot
from golf.cli import main
from golf.simulate import match_seed, play_match, run_matches, summarise
from golf.table import BotSeat, Table, bot_seats

ROOT = Path(__file__).resolve().parents[1]
BASH_BOT = ROOT / "examples" / "bots" / "first_legal.sh"
JS_BOT = ROOT / "examples" / "bots" / "minstd.js"
PY_BOT = ROOT / "examples" / "bots" / "random_legal.py"
BASH_SPEC = f"cmd:bash {shlex.quote(str(BASH_BOT))}"
PY_SPEC = f"cmd:python {shlex.quote(str(PY_BOT))}"
SIX = load_rules("six-card", {"holes": 2})
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
HELLO = f'echo \'{{"protocol":"{PROTOCOL}"}}\''


def script(tmp_path: Path, body: str, name: str = "bot.sh") -> str:
    """A bash bot from ``body`` (the handshake line is read first); its spec's command."""
    path = tmp_path / name
    path.write_text("set -u\nIFS= read -r hello\n" + body + "\n")
    return f"bash {shlex.quote(str(path))}"


def first_legal_bot(rules: Any, seed: int = 0) -> Bot:
    class FirstLegal(Bot):
        name = "first-legal-python"

        def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            return legal[0]

    return FirstLegal(rules, seed)


def running(pid: int) -> bool:
    """True if ``pid`` is a live process (a zombie, killed but not reaped, counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def eventually_dead(pid: int, within: float = 3.0) -> bool:
    """True once ``pid`` is gone or a zombie (not ours to reap), within ``within`` s."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.02)
    return False


# --- the spec ---------------------------------------------------------------------------

def test_cmd_specs_keep_their_command_whole_and_round_trip() -> None:
    assert parse_spec("cmd:python my bot.py --depth=2") == (
        "cmd", {"command": "python my bot.py --depth=2"})
    spec = "cmd[timeout=2.5,fallback=expert:memory=0.5,noise=1]:bash x.sh"
    assert parse_spec(spec) == ("cmd", {"timeout": "2.5", "fallback": "expert:memory=0.5,noise=1",
                                        "command": "bash x.sh"})
    bot = make_bot(f"cmd[timeout=2.5,fallback=greedy]:bash {BASH_BOT}", SIX, programs=True)
    assert isinstance(bot, ExternalBot)
    assert bot.options["timeout"] == 2.5 and bot.options["fallback"] == "greedy"
    assert make_bot(bot.spec, SIX, programs=True).spec == bot.spec == \
        f"cmd[timeout=2.5,fallback=greedy]:bash {BASH_BOT}"
    assert make_bot(BASH_SPEC, SIX, programs=True).spec == BASH_SPEC


def test_bot_lists_split_around_commands_brackets_and_quotes() -> None:
    assert split_specs("cmd:python bot.py,expert:memory=0.5,noise=1,greedy") == [
        "cmd:python bot.py", "expert:memory=0.5,noise=1", "greedy"]
    assert split_specs("cmd[timeout=1,fallback=greedy]:bash b.sh 'x,y',hard") == [
        "cmd[timeout=1,fallback=greedy]:bash b.sh 'x,y'", "hard"]
    with pytest.raises(GolfError, match=r"options go in brackets: cmd\[KEY=VALUE"):
        split_specs("cmd:python bot.py,timeout=2")
    with pytest.raises(GolfError, match="empty entry"):
        split_specs("cmd:python bot.py,,greedy")


@pytest.mark.parametrize(("spec", "message"), [
    ("cmd:", "names no command"),
    ("cmd", "an external bot is written cmd:COMMAND"),
    ("cmd:no-such-program-here x", r"cannot run 'no-such-program-here' \(not found on PATH\)"),
    ("cmd:./nowhere/bot.sh", r"cannot run './nowhere/bot.sh' \(no such file\)"),
    ("cmd:bash 'unclosed", "cannot split the command line"),
    ("cmd[timeout=0]:bash x", "timeout must be more than 0 seconds"),
    ("cmd[timeout=soon]:bash x", "option timeout='soon' must be a number"),
    ("cmd[tmeout=2]:bash x", "has no option 'tmeout'; its options: command, timeout"),
    ("cmd[fallback=gredy]:bash x", "fallback 'gredy' is not usable: unknown bot 'gredy'"),
    ("cmd[fallback=cmd:bash y]:bash x", "fallback must be forfeit or a bot name"),
    ("cmd[stderr=file]:bash x", "stderr must be capture or inherit"),
    ("cmd[timeout=2:bash x", "the options bracket is not closed"),
    ("cmd[timeout=2]bash x", "write cmd:COMMAND or cmd"),
])
def test_bad_cmd_specs_are_clear_errors_before_anything_starts(spec: str, message: str) -> None:
    with pytest.raises(GolfError, match=message):
        make_bot(spec, SIX, programs=True)


def test_a_program_runs_only_where_programs_are_allowed(tmp_path: Path) -> None:
    # The server builds bots from web clients' specs with make_bot's default.
    marker = tmp_path / "ran"
    spec = f"cmd:bash -c 'touch {marker}'"
    with pytest.raises(GolfError, match=r"runs a program, which is not allowed here"):
        make_bot(spec, SIX)
    from golf.server.core import bridge

    with pytest.raises(GolfError, match=r"runs a program, which is not allowed here"):
        bridge.bot_spec(spec)
    assert "cmd" not in bot_names()
    assert not marker.exists()


# --- the example bots, for real -------------------------------------------------------------

def test_the_bash_example_plays_a_whole_match_at_a_table_as_first_legal_would() -> None:
    g = Game(SIX, players=2, seed=5)
    bots = bot_seats([BASH_SPEC, "greedy"], SIX, g.seed)
    legal_firsts: list[Action] = []
    with Table(g, bots) as table:
        while not table.is_over:
            if table.to_act == 0:
                legal_firsts.append(g.legal_actions()[0])
            table.step()
        assert isinstance(bots[0].bot, ExternalBot)
        assert bots[0].bot.program_name == "first-legal (bash)"
        assert bots[0].bot.failures == []
    assert [t.action for t in table.turns if t.seat == 0] == legal_firsts
    # the same match with a Python bot that plays the first legal action
    twin = Game(SIX, players=2, seed=5)
    Table(twin, [BotSeat(first_legal_bot(SIX)), bot_seats(["greedy"] * 2, SIX, 5)[1]]).run()
    assert twin.history == g.history and twin.totals == g.totals


def test_the_program_receives_the_seats_view_and_nothing_else(tmp_path: Path) -> None:
    log = tmp_path / "lines.jsonl"
    command = script(tmp_path, f'echo "$hello" >> {log}\n{HELLO}\n'
                     f'while IFS= read -r l; do echo "$l" >> {log}; '
                     r'[[ $l =~ \"legal\":\[\"([^\"]+)\" ]]; echo "${BASH_REMATCH[1]}"; done')
    g = Game(SIX, players=3, seed=8)
    with Table(g, bot_seats(["greedy", f"cmd:{command}", "random"], SIX, g.seed)) as table:
        table.run()
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    hello, decisions = lines[0], lines[1:]
    assert hello == {"protocol": PROTOCOL, "seat": 1, "players": 3,
                     "rules": {k: v for k, v in SIX.to_dict().items() if k != "sources"}}
    # replay the match: each decision line is exactly the seat's view and legal actions
    replay = Game(SIX, players=3, seed=8)
    expected = []
    for action in g.history:
        if replay.current_player == 1:
            expected.append({"type": "decide",
                             "legal": [str(a) for a in replay.legal_actions()],
                             "view": json.loads(json.dumps(replay.view(1, codes=True)))})
        replay.apply(action)
    assert decisions == expected
    assert not any("seed" in line or "record" in line for line in log.read_text().splitlines())


def test_the_bash_example_through_golf_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--bots", f"{BASH_SPEC},greedy", "--games", "3", "--seed", "2",
                 "--workers", "2", "--rule", "holes=2", "--json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["matches"] == 3 and out["forfeits"] == [] and out["fallbacks"]["count"] == 0
    assert [r["bot"] for r in out["seats"]] == [BASH_SPEC, "greedy"]
    # the figures are those of the same matches with the first legal action in seat 0
    for i in range(3):
        seed = match_seed(2, i)
        g = Game(SIX, players=2, seed=seed)
        Table(g, [BotSeat(first_legal_bot(SIX)), bot_seats(["greedy"] * 2, SIX, seed)[1]]).run()
        assert play_match(SIX, 2, [BASH_SPEC, "greedy"], seed, i).totals == tuple(g.totals)


@pytest.fixture(scope="module")
def node() -> str:
    """Debian's node, installed by scripts/ci/node.sh when missing (CI's bare machine)."""
    out = subprocess.run(["bash", str(ROOT / "scripts" / "ci" / "node.sh")], check=True,
                         capture_output=True, text=True, timeout=900)
    path = out.stdout.strip().splitlines()[-1]
    assert os.access(path, os.X_OK), f"no node binary at {path}"
    return path


class MinstdTwin(Bot):
    """What examples/bots/minstd.js computes, in Python: MINSTD seeded by seat + 1."""

    name = "minstd-twin"

    def __init__(self, rules: Any, seed: int = 0, seat: int = 0) -> None:
        super().__init__(rules, seed)
        self.state = seat + 1

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.state = self.state * 48271 % 2147483647
        return legal[self.state % len(legal)]


def test_the_javascript_example_at_a_table_and_in_simulate(node: str) -> None:
    spec = f"cmd:{shlex.quote(node)} {shlex.quote(str(JS_BOT))}"
    rules = load_rules("four-card", {"holes": 2})
    for seed in (3, 4):
        g = Game(rules, players=3, seed=seed)
        seats = bot_seats(["greedy", spec, "expert"], rules, seed)
        with Table(g, seats) as table:
            table.run()
        assert seats[1].bot.program_name == "minstd (javascript)"  # type: ignore[attr-defined]
        twin = Game(rules, players=3, seed=seed)
        twin_seats = bot_seats(["greedy", "random", "expert"], rules, seed)
        twin_seats[1] = BotSeat(MinstdTwin(rules, seat=1))
        Table(twin, twin_seats).run()
        assert twin.history == g.history and g.is_over
    results = run_matches(rules, 3, [spec, "greedy"], games=3, seed=5, workers=2)
    for r in results:
        twin = Game(rules, players=3, seed=r.seed)
        twin_seats = bot_seats(["random", "greedy", "random"], rules, r.seed)
        twin_seats[0], twin_seats[2] = (BotSeat(MinstdTwin(rules, seat=0)),
                                        BotSeat(MinstdTwin(rules, seat=2)))
        Table(twin, twin_seats).run()
        assert r.forfeit is None and r.totals == tuple(twin.totals)


def test_the_python_example_is_reproducible_for_any_number_of_workers() -> None:
    one = run_matches(SIX, 2, [PY_SPEC, "random"], games=4, seed=3, workers=1)
    two = run_matches(SIX, 2, [PY_SPEC, "random"], games=4, seed=3, workers=2)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two]
    assert all(r.forfeit is None for r in one)


def test_golf_play_with_a_cmd_bot_at_the_terminal() -> None:
    moves = ("r1\nr2\n" + "d\nx\nf3\nf4\nf5\nf6\nf1\nf2\n" * 6) * 3
    done = subprocess.run(
        [sys.executable, "-m", "golf", "play", "--bots", BASH_SPEC, "--seed", "9", "--rule",
         "holes=1", "--plain", "--delay", "0"], input=moves, capture_output=True, text=True,
        timeout=120, env=ENV, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Cmd" in done.stdout and "End of hole 1" in done.stdout
    assert re.search(r"(wins? the match|share the win)", done.stdout)
    # bots only, two external ones and an expert
    done = subprocess.run(
        [sys.executable, "-m", "golf", "play", "--humans", "", "--bots",
         f"{BASH_SPEC},{PY_SPEC},expert", "--seed", "9", "--rule", "holes=1", "--plain",
         "--delay", "0"], capture_output=True, text=True, timeout=120, env=ENV, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Cmd 1" in done.stdout and "Cmd 2" in done.stdout and "Expert" in done.stdout


def test_golf_play_ends_a_forfeited_match_with_one_clear_line(tmp_path: Path) -> None:
    crash = script(tmp_path, f"{HELLO}\nread -r l\necho 'bad luck' >&2\nexit 7")
    args = [sys.executable, "-m", "golf", "play", "--humans", "", "--rule", "holes=1",
            "--plain", "--delay", "0", "--seed", "1", "--bots"]
    done = subprocess.run([*args, f"cmd:{crash},greedy"], capture_output=True, text=True,
                          timeout=120, env=ENV)
    assert done.returncode == 2
    assert done.stderr == (f"golf: error: bot 'cmd:{crash}' in seat 0 exited with status 7; "
                           "its stderr ended: 'bad luck'; the match is forfeited "
                           "(fallback=forfeit)\n")
    done = subprocess.run([*args, f"cmd[fallback=hard]:{crash},greedy"], capture_output=True,
                          text=True, timeout=120, env=ENV)
    assert done.returncode == 0, done.stderr
    assert "exited with status 7; its stderr ended: 'bad luck'; hard plays the rest of the " \
        "match" in done.stderr
    assert re.search(r"(wins? the match|share the win)", done.stdout)


def test_reset_and_close_stop_the_program_and_the_next_decision_starts_a_new_one(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    command = script(tmp_path, f"echo $$ >> {pids}\n{HELLO}\nwhile read -r l; do echo r1; done")
    bot, g = one_decision(f"cmd:{command}")
    assert decide(bot, g) == Action.parse("reveal 1")
    bot.reset()
    first = int(pids.read_text().split()[0])
    assert not running(first)  # stopped and reaped
    assert decide(bot, g) == Action.parse("reveal 1")
    second = int(pids.read_text().split()[1])
    assert second != first and running(second)
    bot.close()
    assert not running(second)


def test_stderr_is_captured_or_passed_through(
    tmp_path: Path, capfd: pytest.CaptureFixture[str],
) -> None:
    command = script(tmp_path, f"{HELLO}\nwhile read -r l; do echo thinking >&2; echo r1; done")
    for mode, shown in (("capture", ""), ("inherit", "thinking\n")):
        bot, g = one_decision(f"cmd[stderr={mode}]:{command}")
        assert decide(bot, g) == Action.parse("reveal 1")
        bot.close()
        assert capfd.readouterr().err == shown


@given(st.lists(st.tuples(
    st.sampled_from(["timeout", "start_timeout", "fallback", "stderr"]),
    st.sampled_from(["0.5", "2", "greedy", "hard", "expert:memory=0.5,noise=1", "inherit"])),
    max_size=4),
    st.lists(st.sampled_from(["--depth=2", "'a,b'", '"x y"', "-v", "ok"]), max_size=3))
@settings(max_examples=60, deadline=None)
def test_specs_split_and_round_trip_whatever_their_options(
    options: list[tuple[str, str]], args: list[str],
) -> None:
    valid = {"timeout": ("0.5", "2"), "start_timeout": ("0.5", "2"),
             "fallback": ("greedy", "hard", "expert:memory=0.5,noise=1"),
             "stderr": ("inherit",)}
    chosen = dict((k, v) for k, v in options if v in valid[k])
    brackets = "[" + ",".join(f"{k}={v}" for k, v in chosen.items()) + "]" if chosen else ""
    spec = f"cmd{brackets}:bash {' '.join(['x.sh', *args])}"
    assert split_specs(f"greedy,{spec},expert:noise=1,hard") == [
        "greedy", spec, "expert:noise=1", "hard"]
    name, raw = parse_spec(spec)
    assert name == "cmd" and raw == {**chosen, "command": f"bash {' '.join(['x.sh', *args])}"}


# --- failures --------------------------------------------------------------------------------

def one_decision(spec: str) -> tuple[ExternalBot, Game]:
    g = Game(SIX, players=2, seed=1)
    bot = make_bot(spec, SIX, seed=7, programs=True)
    assert isinstance(bot, ExternalBot)
    return bot, g


def decide(bot: ExternalBot, g: Game) -> Action:
    return bot.choose(g.view(0, codes=True), g.legal_actions())


def test_a_time_out_forfeits_with_a_clear_message_and_leaves_no_process(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    command = script(tmp_path, f"{HELLO}\nsleep 30 & echo $$ $! > {pids}\nwait")
    bot, g = one_decision(f"cmd[timeout=0.3]:{command}")
    with pytest.raises(BotFailure) as e:
        decide(bot, g)
    assert str(e.value) == (
        f"bot 'cmd[timeout=0.3]:{command}' in seat 0 did not answer within 0.3 s; the match "
        "is forfeited (fallback=forfeit)")
    assert (e.value.seat, e.value.spec) == (0, f"cmd[timeout=0.3]:{command}")
    shell, sleeper = map(int, pids.read_text().split())
    assert not running(shell)  # killed and reaped: no zombie
    # its child was sent SIGKILL with its process group (init reaps it, a moment later)
    assert eventually_dead(sleeper)


def test_a_slow_start_has_its_own_time_out(tmp_path: Path) -> None:
    command = script(tmp_path, f"sleep 0.6\n{HELLO}\n" + "while read -r l; do echo draw; done")
    bot, g = one_decision(f"cmd[start_timeout=0.2]:{command}")
    with pytest.raises(BotFailure, match=r"did not answer within 0\.2 s"):
        decide(bot, g)
    bot, g = one_decision(f"cmd[start_timeout=3,timeout=0.2,fallback=random]:{command}")
    assert decide(bot, g) in g.legal_actions()
    assert bot.failures and "not legal now" in bot.failures[0]  # started in time; 'draw'
    bot.close()


def test_a_crash_quotes_the_exit_status_and_the_end_of_stderr(tmp_path: Path) -> None:
    command = script(tmp_path, f"{HELLO}\nread -r l\necho 'Traceback: boom' >&2\nexit 3")
    bot, g = one_decision(f"cmd:{command}")
    with pytest.raises(BotFailure, match=r"in seat 0 exited with status 3; its stderr ended: "
                       r"'Traceback: boom'; the match is forfeited"):
        decide(bot, g)


def test_an_illegal_answer_names_it_and_what_was_allowed(tmp_path: Path) -> None:
    command = script(tmp_path, f"{HELLO}\nwhile read -r l; do echo knock; done")
    bot, g = one_decision(f"cmd:{command}")
    with pytest.raises(BotFailure, match=r"answered 'knock', which is not legal now; legal "
                       r"now: reveal 1, reveal 2, reveal 3, reveal 4, reveal 5, reveal 6; the "
                       r"match is forfeited \(fallback=forfeit\)"):
        decide(bot, g)
    garbage = script(tmp_path, f"{HELLO}\nwhile read -r l; do echo 'I pick 3'; done", "g.sh")
    bot, g = one_decision(f"cmd:{garbage}")
    with pytest.raises(BotFailure, match=r"answered 'I pick 3', which is not an action \("):
        decide(bot, g)


def test_answers_in_json_and_short_notation_are_accepted(tmp_path: Path) -> None:
    command = script(tmp_path, f'{HELLO}\nread -r l\necho \'"reveal 2"\'\nread -r l\necho r5\n'
                     "read -r l")
    bot, g = one_decision(f"cmd:{command}")
    assert decide(bot, g) == Action.parse("reveal 2")
    g.apply("reveal 2")
    assert decide(bot, g) == Action.parse("reveal 5")
    bot.close()


@pytest.mark.parametrize(("answer", "message"), [
    ('echo \'{"protocol":"golf-bot/2","name":"future"}\'',
     "speaks protocol 'golf-bot/2', but golf speaks 'golf-bot/1'"),
    ("echo golf-bot/0 old", "speaks protocol 'golf-bot/0', but golf speaks 'golf-bot/1'"),
    ("echo hello there", "speaks protocol 'hello', but golf"),
    ("echo '{\"name\": 3}'", "answered the handshake with '{\"name\": 3}'; expected a line "
     "naming the protocol"),
    ("echo", "answered the handshake with ''; expected"),
    ("exit 0", "exited with status 0"),
])
def test_a_bad_handshake_is_a_clear_error(tmp_path: Path, answer: str, message: str) -> None:
    bot, g = one_decision(f"cmd:{script(tmp_path, answer + chr(10) + 'sleep 5')}")
    with pytest.raises(BotFailure, match=re.escape(message)):
        decide(bot, g)


def test_a_plain_handshake_line_names_the_program(tmp_path: Path) -> None:
    command = script(tmp_path, "echo golf-bot/1 plain bot\nwhile read -r l; do echo r1; done")
    bot, g = one_decision(f"cmd:{command}")
    assert decide(bot, g) == Action.parse("reveal 1")
    assert bot.program_name == "plain bot"
    bot.close()


def test_a_second_line_is_out_of_step(tmp_path: Path) -> None:
    # (in one write, by coreutils' printf: a stray line that comes later is read as the
    # next answer, and reported as that answer)
    command = script(tmp_path, f"{HELLO}\nwhile read -r l; do env printf 'r1\\ndebug\\n'; done")
    bot, g = one_decision(f"cmd[fallback=greedy]:{command}")
    assert decide(bot, g) == Action.parse("reveal 1")
    g.apply("reveal 1")
    greedy = make_bot("greedy", SIX, seed=7)
    expected = greedy.choose(g.view(0, codes=True), g.legal_actions())
    assert decide(bot, g) == expected
    assert bot.failures == [
        f"bot 'cmd[fallback=greedy]:{command}' in seat 0 wrote a line nobody asked for: "
        "'debug' (one answer per decision; diagnostics go to stderr); greedy plays the rest "
        "of the match"]


def test_a_named_fallback_plays_one_decision_after_an_illegal_answer(tmp_path: Path) -> None:
    # The program answers 'knock' to its first decision, then the first legal action.
    command = script(tmp_path, f'{HELLO}\nread -r l\necho knock\nwhile IFS= read -r l; do '
                     r'[[ $l =~ \"legal\":\[\"([^\"]+)\" ]]; echo "${BASH_REMATCH[1]}"; done')
    g = Game(SIX, players=2, seed=4)
    spec = f"cmd[fallback=random]:{command}"
    seats = bot_seats([spec, "greedy"], SIX, g.seed)
    fallback = make_bot("random", SIX, seed=seats[0].bot.seed)
    ours: list[Action] = []
    with Table(g, seats) as table:
        while not table.is_over:
            if table.to_act == 0:
                view, legal = g.view(0, codes=True), g.legal_actions()
                ours.append(fallback.choose(view, legal) if not ours else legal[0])
            table.step()
        failures = seats[0].bot.failures  # type: ignore[attr-defined]
    assert [t.action for t in table.turns if t.seat == 0] == ours
    assert len(failures) == 1
    assert failures[0].endswith("answered 'knock', which is not legal now; legal now: reveal "
                                "1, reveal 2, reveal 3, reveal 4, reveal 5, reveal 6; random "
                                "plays this decision")


def test_a_named_fallback_plays_the_rest_of_the_match_after_a_crash(tmp_path: Path) -> None:
    crash = script(tmp_path, f"{HELLO}\nread -r l\necho r1\nread -r l\nexit 9")
    g = Game(SIX, players=2, seed=6)
    seats = bot_seats([f"cmd[fallback=expert]:{crash}", "greedy"], SIX, g.seed)
    with Table(g, seats) as table:
        table.run()
    assert g.is_over
    # the same match with expert in seat 0 after the first reveal
    twin = Game(SIX, players=2, seed=6)
    expert = make_bot("expert", SIX, seed=seats[0].bot.seed)
    twin_seats = bot_seats(["greedy", "greedy"], SIX, 6)
    first = True
    while not twin.is_over:
        seat = twin.current_player
        assert seat is not None
        view, legal = twin.view(seat, codes=True), twin.legal_actions()
        if seat == 0:
            twin.apply(Action.parse("reveal 1") if first else expert.choose(view, legal))
            first = False
        else:
            twin.apply(twin_seats[1].decide(view, legal))
    assert twin.history == g.history
    assert len(seats[0].bot.failures) == 1  # type: ignore[attr-defined]
    assert "exited with status 9; expert plays the rest of the match" in \
        seats[0].bot.failures[0]  # type: ignore[attr-defined]


# --- forfeits in the simulator -----------------------------------------------------------------

def odd_discard_crasher(tmp_path: Path) -> str:
    """A bot that exits at its first decision when the discard's top card code is odd."""
    return script(tmp_path, f'{HELLO}\nIFS= read -r l\n'
                  r'[[ $l =~ \"discard_top\":([0-9]+) ]] && (( BASH_REMATCH[1] % 2 )) '
                  '&& exit 5\nwhile true; do\n'
                  r'  [[ $l =~ \"legal\":\[\"([^\"]+)\" ]]; echo "${BASH_REMATCH[1]}"'
                  "\n  IFS= read -r l || exit 0\ndone")


def test_forfeited_matches_are_counted_apart_in_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    spec = f"cmd:{odd_discard_crasher(tmp_path)}"
    results = run_matches(SIX, 2, [spec, "greedy"], games=8, seed=11, workers=2)
    odd = [i for i in range(8) if Game(SIX, players=2, seed=match_seed(11, i))
           .view(0, codes=True)["discard_top"] % 2]
    assert 0 < len(odd) < 8
    assert [r.index for r in results if r.forfeit is not None] == odd
    for r in results:
        if r.forfeit is not None:
            assert r.forfeit_seat == 0
            assert f"bot {spec!r} in seat 0 exited with status 5" in r.forfeit
    summary = summarise(results, SIX, 2, [spec, "greedy"], 11)
    assert summary["matches"] == 8 - len(odd)
    assert [f["match"] for f in summary["forfeits"]] == odd
    assert summary["seats"][0]["matches"] == 8 - len(odd)
    assert sum(r["win_rate"] for r in summary["seats"]) == pytest.approx(1.0)
    code = main(["simulate", "--bots", f"{spec},greedy", "--games", "8", "--seed", "11",
                 "--rule", "holes=2", "--quiet", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"FORFEITED: {len(odd)} of 8 matches, left out of the figures above:" in out
    assert f"match {odd[0]} (seed {match_seed(11, odd[0])}): bot {spec!r} in seat 0 " \
        "exited with status 5" in out
    csv_file = tmp_path / "m.csv"
    assert main(["simulate", "--bots", f"{spec},greedy", "--games", "8", "--seed", "11",
                 "--rule", "holes=2", "--quiet", "--workers", "1", "--csv", str(csv_file),
                 "--duplicate"]) == 0
    out = capsys.readouterr().out
    assert f"duplicate deals: {8 - len(odd)} deals x 2 rotations, intervals paired by deal " \
        f"({len(odd)} deals with a forfeited rotation left out)" in out
    rows = csv_file.read_text().splitlines()[1:]
    forfeited = int(re.search(r"FORFEITED: (\d+) of 16", out).group(1))  # type: ignore[union-attr]
    assert len(rows) == 2 * (16 - forfeited)


def test_every_match_forfeited_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    command = script(tmp_path, "echo golf-bot/9")
    code = main(["simulate", "--bots", f"cmd:{command},greedy", "--games", "2", "--quiet",
                 "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("golf: error: every one of the 2 matches was forfeited; the first: "
                          f"bot 'cmd:{command}' in seat 0 speaks protocol 'golf-bot/9'")
    assert "Traceback" not in err


def test_fallbacks_are_counted_in_the_simulate_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    spec = f"cmd[fallback=greedy]:{odd_discard_crasher(tmp_path)}"
    code = main(["simulate", "--bots", f"{spec},random", "--games", "6", "--seed", "11",
                 "--rule", "holes=1", "--quiet", "--workers", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    odd = sum(Game(SIX, players=2, seed=match_seed(11, i)).view(0, codes=True)["discard_top"] % 2
              for i in range(6))
    assert code == 0 and out["forfeits"] == [] and out["matches"] == 6
    assert out["fallbacks"]["count"] == odd > 0
    assert "greedy plays the rest of the match" in out["fallbacks"]["first"][0]


# --- docs/bot-protocol.md stays true -----------------------------------------------------------

DOC = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")


def test_the_docs_list_every_option_with_its_default() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` +\| `([^`]+)` +\|", DOC, flags=re.M))
    defaults = {k: v for k, v in ExternalBot.defaults.items() if k != "command"}
    assert rows == {k: f"{v:g}" if isinstance(v, float) else v for k, v in defaults.items()}


def test_the_docs_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table_example, bot_example = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)
    monkeypatch.chdir(ROOT)  # the example names examples/bots/ relative to the checkout
    namespace: dict[str, Any] = {}
    exec(compile(table_example, "bot-protocol.md", "exec"), namespace)
    assert namespace["g"].is_over
    bot = tmp_path / "doc_bot.py"
    bot.write_text(bot_example)
    result = play_match(SIX, 2, [f"cmd:python {bot}", "greedy"], seed=4)
    twin = Game(SIX, players=2, seed=4)
    Table(twin, [BotSeat(first_legal_bot(SIX)), bot_seats(["greedy"] * 2, SIX, 4)[1]]).run()
    assert result.forfeit is None and result.totals == tuple(twin.totals)
